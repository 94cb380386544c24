buffer x s64 1000 = file x.bin
buffer y s64 1000 = file y.bin
buffer src u8 777 = file src.bin
buffer dst u8 800
buffer v u32 1001 = file v.bin
buffer h u64 1001
launch _Z7gs_axpyxPKxPxm<<<3, 128>>>(-3, x, y, 1000)
launch _Z8gs_bytesPKhPhmi<<<2, 64>>>(src, dst, 777, 5)
launch _Z10gs_reversePjm<<<2, 64>>>(v, 1001)
launch _Z7gs_hashPKjPym<<<3, 96>>>(v, h, 1001)
dump y y.bin
dump dst dst.bin
dump v v.bin
dump h h.bin
