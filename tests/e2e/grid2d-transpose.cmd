buffer in u32 1850 = iota
buffer out u32 1850
launch _Z9transposePKjPjii<<<(4,3,1), (16,16,1)>>>(in, out, 50, 37)
dump out out.bin
