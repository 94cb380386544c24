# Source-level run control (srcdbg.cu, nvcc -G): a breakpoint in a device function, backtrace
# with arguments, finish with its value, step/next/until by line, a condition on a variable.
buffer x f32 64 = iota
buffer y f32 64 = fill 1
break add_one
launch saxpy<<<2, 32>>>(40, 2, x, y)
backtrace
info args
print x
up
print x
print i
down
finish
next
print k
step
step
print j
print sum
next
next
print j
print sum
until
until
print sum
print y[0]
delete
break srcdbg.cu:14 if i == 37
continue
print i
print k
print a * x[i] + y[i]
print threadIdx.x
next
print sum
continue
print y[37]
print y[39]
print y[40]
