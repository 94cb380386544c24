buffer a s32 256 = file a.bin
buffer s s16 512 = file s.bin
buffer out s32 256
buffer sout s16 512
launch _Z7vec_intPK4int2PK6short4PS_PS2_i<<<2, 64>>>(a, s, out, sout, 128)
dump out out.bin
dump sout sout.bin
