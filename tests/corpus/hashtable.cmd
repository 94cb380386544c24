buffer keys u32 500 = file keys.bin
buffer q u32 300 = file q.bin
buffer tkeys u32 1024 = fill 4294967295
buffer tcounts u32 1024 = fill 0
buffer res s32 300
buffer occ u32 1 = fill 0
launch _Z9ht_insertPKjiPjS1_j<<<4, 128>>>(keys, 500, tkeys, tcounts, 1024)
launch _Z9ht_lookupPKjiS0_S0_jPi<<<3, 128>>>(q, 300, tkeys, tcounts, 1024, res)
launch _Z12ht_occupancyPKjjPj<<<4, 256>>>(tkeys, 1024, occ)
dump res res.bin
dump occ occ.bin
