buffer in s32 100 = iota
buffer out s32 100
launch _Z9assert_okPKiPii<<<2, 64>>>(in, out, 100)
dump out out.bin
