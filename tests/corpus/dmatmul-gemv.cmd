buffer a f64 2310 = file a.bin
buffer x f64 77 = file x.bin
buffer y f64 30
launch _Z5dgemvPKdS0_Pdii<<<8, 128, 616>>>(a, x, y, 30, 77)
dump y y.bin
