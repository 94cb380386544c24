buffer a u32 96 = file a.bin
buffer b u32 96 = file b.bin
buffer out u32 3072
launch _Z7intbitsPKjS0_Pji<<<2, 64>>>(a, b, out, 96)
dump out out.bin
