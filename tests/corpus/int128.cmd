buffer a u64 64 = file a.bin
buffer b u64 64 = file b.bin
buffer out u64 896
launch _Z6int128PKyS0_Pyi<<<2, 32>>>(a, b, out, 64)
dump out out.bin
