buffer in s32 256 = file in.bin
buffer acc s32 16 = {0, 0, 2147483647, -2147483648, -1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0}
buffer acc64 u64 5 = {0, 0, 0, 18446744073709551615, 0}
buffer seen s32 256 = fill 0
buffer slots s32 256 = iota
buffer olds s32 256
launch _Z7atomicsPKiPiPyS1_S1_S1_<<<2, 128>>>(in, acc, acc64, seen, slots, olds)
dump acc acc.bin
dump acc64 acc64.bin
dump seen seen.bin
dump slots slots.bin
dump olds olds.bin
