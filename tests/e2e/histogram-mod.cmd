buffer keys u32 3000 = file keys.bin
buffer hist u32 50 = fill 0
buffer over u32 3 = fill 77
launch _Z13histogram_modPKjijjPjS1_<<<3, 96, 200>>>(keys, 3000, 50, 100000, hist, over)
dump hist hist.bin
dump over over.bin
