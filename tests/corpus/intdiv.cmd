buffer a s32 128 = file a.bin
buffer b s32 128 = file b.bin
buffer c s64 128 = file c.bin
buffer d s64 128 = file d.bin
buffer out s32 2560
buffer digits u8 5120
launch _Z6intdivPKiS0_PKxS2_PiPci<<<4, 32>>>(a, b, c, d, out, digits, 128)
dump out out.bin
dump digits digits.bin
