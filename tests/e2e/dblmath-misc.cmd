buffer a f64 48 = file a.bin
buffer b f64 48 = file b.bin
buffer out u64 384
launch _Z5dmiscPKdS0_Pyi<<<1, 64>>>(a, b, out, 48)
dump out out.bin
