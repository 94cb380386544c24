buffer x f32 64 = file x.bin
buffer y f32 64 = file y.bin
buffer out u16 768
launch _Z8halfmathPKfS0_Pti<<<1, 64>>>(x, y, out, 64)
dump out out.bin
