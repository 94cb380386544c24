buffer in s32 700 = file in.bin
buffer out s32 700
buffer totals s32 3
launch _Z10block_scanPKiPiS1_i<<<3, 256>>>(in, out, totals, 700)
dump out out.bin
dump totals totals.bin
