buffer x f32 80 = file x.bin
buffer y f32 80 = file y.bin
buffer out u32 1920
launch _Z9floatmathPKfS0_Pji<<<1, 96>>>(x, y, out, 80)
dump out out.bin
