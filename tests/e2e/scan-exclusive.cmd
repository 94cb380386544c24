buffer in u32 1024 = file in.bin
buffer out u32 1024
launch _Z14scan_exclusivePKjPj<<<4, 128>>>(in, out)
dump out out.bin
