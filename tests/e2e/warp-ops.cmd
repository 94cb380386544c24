buffer in s32 128 = file in.bin
buffer out s32 2048
launch _Z8warp_opsPKiPi<<<2, 64>>>(in, out)
dump out out.bin
