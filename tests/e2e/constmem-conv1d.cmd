buffer in s32 300 = file in.bin
buffer out s32 300
launch _Z6conv1dPKiPii<<<3, 128>>>(in, out, 300)
dump out out.bin
