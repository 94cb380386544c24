buffer in s32 256 = file in.bin
buffer sums s32 2
buffer excl s32 256
buffer incl s32 256
buffer wmin s32 8
launch _Z15cub_reduce_scanPKiPiS1_S1_S1_<<<2, 128>>>(in, sums, excl, incl, wmin)
dump sums sums.bin
dump excl excl.bin
dump incl incl.bin
dump wmin wmin.bin
