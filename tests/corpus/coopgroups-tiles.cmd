buffer in s32 200 = file in.bin
buffer out s32 2000
launch _Z8cg_tilesPKiPii<<<4, 64>>>(in, out, 200)
dump out out.bin
