buffer in s32 256 = iota
buffer out s32 256
launch _Z13reverse_blockPKiPi<<<4, 64, 256>>>(in, out)
dump out out.bin
