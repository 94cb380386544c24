buffer x f64 100 = file x.bin
buffer k s32 100 = file k.bin
buffer dout f64 100
buffer iout s32 300
buffer fout f32 100
launch _Z11constparamsPKdPKiPdPiPfi<<<4, 32>>>(x, k, dout, iout, fout, 100)
dump dout dout.bin
dump iout iout.bin
dump fout fout.bin
