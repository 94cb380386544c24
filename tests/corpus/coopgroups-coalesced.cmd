buffer in s32 100 = file in.bin
buffer out s32 400
launch _Z12cg_coalescedPKiPii<<<2, 64>>>(in, out, 100)
dump out out.bin
