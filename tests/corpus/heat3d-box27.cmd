buffer in s32 1000 = file in.bin
buffer out s32 1000
launch _Z5box27PKiPii<<<(3, 3, 3), (4, 4, 4)>>>(in, out, 10)
dump out out.bin
