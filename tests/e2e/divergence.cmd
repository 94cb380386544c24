buffer in s32 256 = file in.bin
buffer out s32 256
launch _Z9divergentPKiPi<<<2, 128>>>(in, out)
dump out out.bin
