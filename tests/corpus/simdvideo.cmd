buffer a u32 128 = file a.bin
buffer b u32 128 = file b.bin
buffer out u32 4096
launch _Z9simdvideoPKjS0_Pji<<<2, 64>>>(a, b, out, 128)
dump out out.bin
