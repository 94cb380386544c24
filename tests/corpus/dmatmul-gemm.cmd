buffer a f64 551 = file a.bin
buffer b f64 667 = file b.bin
buffer c f64 437 = file c.bin
launch _Z5dgemmPKdS0_Pdiiidd<<<(3, 3), (8, 8)>>>(a, b, c, 19, 23, 29, 1.5, -0.5)
dump c c.bin
