buffer in s32 200 = file in.bin
buffer out s32 200
buffer names u8 1600
launch _Z8classifyPKiPiPci<<<4, 64>>>(in, out, names, 200)
dump out out.bin
dump names names.bin
