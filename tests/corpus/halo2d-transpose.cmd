buffer in s64 3150 = file in.bin
buffer out s64 3150
launch _Z11transpose64PKxPxii<<<(2, 3), (32, 8)>>>(in, out, 70, 45)
dump out out.bin
