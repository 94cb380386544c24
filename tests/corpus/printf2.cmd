buffer ll s64 4 = file ll.bin
buffer d f64 4 = file d.bin
launch _Z7printf2PKxPKdi<<<1, 4>>>(ll, d, 4)
