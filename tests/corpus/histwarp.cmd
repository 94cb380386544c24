buffer data u8 8000 = file data.bin
buffer hist u32 64 = fill 0
launch _Z9hist_warpPK6uchar4iPj<<<3, 128, 1024>>>(data, 2000, hist)
dump hist hist.bin
