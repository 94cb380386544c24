buffer a u64 64 = file a.bin
buffer b u64 64 = file b.bin
buffer out u64 512
launch _Z8int64opsPKyS0_Pyi<<<1, 64>>>(a, b, out, 64)
dump out out.bin
