buffer in u8 3200 = file in.bin
buffer out u8 3200
buffer bytes u8 160 = file bytes.bin
buffer bout u8 1920
buffer iout s32 40
launch _Z6memopsPK3BigPS_PKhPhPii<<<2, 32>>>(in, out, bytes, bout, iout, 40)
dump out out.bin
dump bout bout.bin
dump iout iout.bin
