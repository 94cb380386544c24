buffer x f32 1000 = iota
buffer y f32 1000 = fill 1.0
launch saxpy<<<(8,1,1), (128,1,1)>>>(1000, 2, x, y)
print y[0]
print y[999]
dump y y.bin
