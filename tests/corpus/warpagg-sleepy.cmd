buffer out s32 128
launch _Z6sleepyPi<<<2, 64>>>(out)
dump out out.bin
