buffer in s32 200 = file in.bin
buffer acc s32 4 = {0, -2147483648, 0, 0}
buffer out u32 1200
launch _Z7libcuxxPKiPiPji<<<2, 128>>>(in, acc, out, 200)
dump acc acc.bin
dump out out.bin
