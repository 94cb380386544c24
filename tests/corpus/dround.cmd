buffer a f64 96 = file a.bin
buffer b f64 96 = file b.bin
buffer c f64 96 = file c.bin
buffer out f64 2304
launch _Z6droundPKdS0_S0_Pdi<<<3, 32>>>(a, b, c, out, 96)
dump out out.bin
