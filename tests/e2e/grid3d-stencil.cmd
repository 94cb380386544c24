buffer in s32 350 = file in.bin
buffer out s32 350
launch _Z8stencil7PKiPiiii<<<(3,2,3), (4,4,2)>>>(in, out, 10, 7, 5)
dump out out.bin
