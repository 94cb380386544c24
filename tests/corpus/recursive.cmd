buffer in s32 768 = file in.bin
buffer sorted s32 768
buffer info s32 256
launch _Z9recursivePKiPiS1_i<<<2, 32>>>(in, sorted, info, 64)
dump sorted sorted.bin
dump info info.bin
