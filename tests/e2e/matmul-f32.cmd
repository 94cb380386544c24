buffer a f32 1440 = file a.bin
buffer b f32 864 = file b.bin
buffer c f32 960
launch _Z12matmul_tiledPKfS0_Pfiii<<<(2,3,1), (16,16,1)>>>(a, b, c, 40, 24, 36)
dump c c.bin
