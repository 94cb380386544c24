buffer x f32 1000 = iota
buffer y f32 1000 = fill 1
launch _Z5saxpyifPKfPf<<<4, 256>>>(1000, 2.0, x, y)
dump y y.bin
