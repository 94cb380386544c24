buffer data u8 4096 = file data.bin
buffer hist u32 256 = fill 0
launch _Z12histogram256PKhiPj<<<4, 128>>>(data, 4096, hist)
dump hist hist.bin
