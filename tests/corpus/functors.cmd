buffer in s32 500 = file in.bin
buffer out s32 2000
buffer fout f32 500
launch _Z8functorsPKiPiPfii<<<2, 128>>>(in, out, fout, 500, 50)
dump out out.bin
dump fout fout.bin
