buffer in s32 256 = file in.bin
buffer out s32 256
launch _Z17diverge_then_syncPKiPi<<<2, 128>>>(in, out)
dump out out.bin
