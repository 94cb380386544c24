buffer rowptr s32 101 = file rowptr.bin
buffer col s32 8000 = file col.bin
buffer val f32 8000 = file val.bin
buffer x f32 64 = file x.bin
buffer y f32 100
buffer y2 f32 100
launch _Z11spmv_scalarPKiS0_PKfS2_Pfi<<<1, 128>>>(rowptr, col, val, x, y, 100)
launch _Z11spmv_vectorPKiS0_PKfS2_Pfi<<<25, 128>>>(rowptr, col, val, x, y2, 100)
dump y y.bin
dump y2 y2.bin
