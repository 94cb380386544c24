buffer in s32 3000 = file in.bin
buffer val s32 4
buffer idx s32 4
launch _Z13reduce_argmaxPKiPiS1_i<<<4, 256>>>(in, val, idx, 3000)
dump val val.bin
dump idx idx.bin
