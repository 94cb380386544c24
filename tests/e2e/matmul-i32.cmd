buffer a s32 1000 = file a.bin
buffer b s32 1650 = file b.bin
buffer c s32 660
launch _Z16matmul_tiled_i32PKiS0_Piiii<<<(3,2,1), (16,16,1)>>>(a, b, c, 20, 33, 50)
dump c c.bin
