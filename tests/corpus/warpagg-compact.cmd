buffer in s32 1000 = file in.bin
buffer kept s32 1000
buffer count s32 1 = fill 0
buffer flags s32 1000 = fill 0
buffer sum s32 1 = fill 0
launch _Z7compactPKiPiS1_ii<<<4, 256>>>(in, kept, count, 1000, 0)
launch _Z4markPKiS0_PiS1_S0_<<<2, 128>>>(kept, count, flags, sum, in)
dump count count.bin
dump flags flags.bin
dump sum sum.bin
