buffer kinds s32 100 = file kinds.bin
buffer dims f32 200 = file dims.bin
buffer pool u8 3200
buffer area f32 100
buffer info s32 200
launch _Z12build_shapesPhPKiPKfi<<<2, 64>>>(pool, kinds, dims, 100)
launch _Z10use_shapesPKhPfPii<<<4, 32>>>(pool, area, info, 100)
dump area area.bin
dump info info.bin
