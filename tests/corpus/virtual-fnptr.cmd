buffer a s32 150 = file a.bin
buffer b s32 150 = file b.bin
buffer sel s32 150 = file sel.bin
buffer out s32 150
launch _Z5fnptrPKiS0_S0_Pii<<<3, 64>>>(a, b, sel, out, 150)
dump out out.bin
