buffer x f32 1024 = iota
buffer y f32 1024 = fill 0.5
info functions
launch saxpy<<<4, 256>>>(1000, 2.0, x, y)
print y[0]
print y[1]
print y[999]
print y[1000]
dump y saxpy-y.bin
