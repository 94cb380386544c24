buffer ii s32 1000 = file ii.bin
buffer fi f32 1000 = file fi.bin
buffer di f64 1000 = file di.bin
buffer io s32 3
buffer fo f32 3
buffer do f64 3
launch _Z10reduce_sumIiEvPKT_PS0_i<<<3, 128>>>(ii, io, 1000)
launch _Z10reduce_sumIfEvPKT_PS0_i<<<3, 128>>>(fi, fo, 1000)
launch _Z10reduce_sumIdEvPKT_PS0_i<<<3, 128>>>(di, do, 1000)
dump io io.bin
dump fo fo.bin
dump do do.bin
