buffer x f32 128 = file x.bin
buffer out f32 2048
launch _Z6approxPKfPfi<<<2, 64>>>(x, out, 128)
dump out out.bin
