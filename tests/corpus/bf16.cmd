buffer x f32 64 = file x.bin
buffer y f32 64 = file y.bin
buffer out u16 640
buffer fout f32 128
launch _Z5bf16kPKfS0_PtPfi<<<2, 32>>>(x, y, out, fout, 64)
dump out out.bin
dump fout fout.bin
