buffer a f64 1500 = file a.bin
buffer b f64 1500 = file b.bin
buffer partial f64 3
launch _Z4ddotPKdS0_Pdi<<<3, 128>>>(a, b, partial, 1500)
dump partial partial.bin
