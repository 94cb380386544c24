buffer keys u32 512 = file keys.bin
buffer vals s32 512 = file vals.bin
buffer keys2 u32 512 = file keys.bin
buffer vals2 s32 512 = file vals.bin
buffer bad1 s32 1 = fill 0
buffer bad2 s32 1 = fill 0
launch _Z7bitonicPjPii<<<1, 256>>>(keys, vals, 0)
launch _Z7bitonicPjPii<<<1, 256>>>(keys2, vals2, 1)
launch _Z12check_sortedPKjiPi<<<2, 256>>>(keys, 512, bad1)
launch _Z12check_sortedPKjiPi<<<2, 256>>>(keys2, 512, bad2)
dump keys keys.bin
dump vals vals.bin
dump keys2 keys2.bin
dump vals2 vals2.bin
dump bad1 bad1.bin
dump bad2 bad2.bin
