buffer in u32 40 = file in.bin
buffer out u32 64
launch _Z13local_nibblesPKjPji<<<1, 64>>>(in, out, 40)
dump out out.bin
