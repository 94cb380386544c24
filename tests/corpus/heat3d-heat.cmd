buffer in f32 2160 = file in.bin
buffer out f32 2160
launch _Z6heat3dPKfPfiii<<<(3, 3, 5), (8, 4, 2)>>>(in, out, 20, 12, 9)
dump out out.bin
