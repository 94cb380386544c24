buffer in s32 1024 = file in.bin
buffer out s32 1024
buffer median s32 64
launch _Z10local_sortPKiPiS1_<<<2, 32>>>(in, out, median)
dump out out.bin
dump median median.bin
