buffer in s32 192 = file in.bin
buffer dout f64 192
buffer sout s16 192
launch _Z12carve_sharedPKiPdPs<<<2, 96, 960>>>(in, dout, sout)
dump dout dout.bin
dump sout sout.bin
