buffer a f32 96 = file a.bin
buffer b f32 96 = file b.bin
buffer c f32 96 = file c.bin
buffer out f32 2688
launch _Z6froundPKfS0_S0_Pfi<<<3, 32>>>(a, b, c, out, 96)
dump out out.bin
