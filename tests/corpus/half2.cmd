buffer x f32 128 = file x.bin
buffer y f32 128 = file y.bin
buffer out u16 1280
buffer fout f32 128
launch _Z6half2kPKfS0_PtPfi<<<2, 32>>>(x, y, out, fout, 64)
dump out out.bin
dump fout fout.bin
