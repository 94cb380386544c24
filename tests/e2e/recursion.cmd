buffer in s32 64 = file in.bin
buffer fibs u32 64
buffer facts u64 64
buffer acks s32 64
buffer sorted s32 768
launch _Z16recursion_kernelPKiPjPyPiS3_<<<2, 32>>>(in, fibs, facts, acks, sorted)
dump fibs fibs.bin
dump facts facts.bin
dump acks acks.bin
dump sorted sorted.bin
