buffer keys u32 512 = file keys.bin
buffer vals s32 512
launch _Z8cub_sortPjPi<<<2, 64>>>(keys, vals)
dump keys keys.bin
dump vals vals.bin
