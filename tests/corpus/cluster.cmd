buffer in s32 500 = file in.bin
buffer out s32 1000
launch _Z11cluster_sumPKiPii<<<8, 64>>>(in, out, 500)
dump out out.bin
