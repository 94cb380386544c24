buffer in s32 64 = file in.bin
buffer pos s32 192
buffer mass f64 64
buffer lo s64 64
buffer hi s32 64
launch _Z14structs_kernelPKiPiPdPxS1_<<<2, 32>>>(in, pos, mass, lo, hi)
dump pos pos.bin
dump mass mass.bin
dump lo lo.bin
dump hi hi.bin
