buffer in u8 768 = file in.bin
buffer upper u8 768
buffer rev u8 768
buffer rot u8 768
buffer info s32 96
launch _Z7stringsPKcPcS1_S1_Pii<<<1, 32>>>(in, upper, rev, rot, info, 24)
dump upper upper.bin
dump rev rev.bin
dump rot rot.bin
dump info info.bin
