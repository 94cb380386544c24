buffer img u8 2400
launch _Z5juliaPhiiddi<<<(4, 5), (16, 8)>>>(img, 60, 40, -0.8, 0.156, 100)
dump img img.bin
