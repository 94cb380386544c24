buffer in s32 1850 = file in.bin
buffer out s32 1850
launch _Z4box5PKiPiii<<<(4, 3), (16, 16)>>>(in, out, 50, 37)
dump out out.bin
