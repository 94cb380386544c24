buffer out u32 288
launch _Z5ids3dPj<<<(2,3,2), (4,2,3)>>>(out)
dump out out.bin
