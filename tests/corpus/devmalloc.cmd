buffer in s32 200 = file in.bin
buffer out s32 400
launch _Z9devmallocPKiPiii<<<2, 128>>>(in, out, 200, 10)
dump out out.bin
