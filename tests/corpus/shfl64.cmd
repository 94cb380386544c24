buffer d f64 128 = file d.bin
buffer l s64 128 = file l.bin
buffer dout f64 256
buffer lout s64 256
buffer iout s32 512
launch _Z6shfl64PKdPKxPdPxPi<<<2, 64>>>(d, l, dout, lout, iout)
dump dout dout.bin
dump lout lout.bin
dump iout iout.bin
