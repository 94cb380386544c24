# Source-level stepping in scenarios/scen.cu: a recursive device function (backtrace, finish with
# its value, next back out of the recursion), advance into a callee, until out of a loop, one
# lane stepping alone (divergence it creates, reconvergence after).
buffer out s32 64
buffer fout f32 64
break fact if n == 1 && threadIdx.x == 4
launch scen<<<1, 64>>>(out, fout, 64)
backtrace
print n
print -lanes n
finish
up
print n
down
finish
next
print acc
print t
delete
advance scale
backtrace
info args
print p.weight * f
finish
print $ + 1
next
print f
break scen.cu:27
run
delete
cuda thread (7,0,0)
stepi -lane 6
info cuda warps
cuda thread
set step-granularity lane
next
next
print k
print acc
info cuda lanes
set step-granularity warp
until
info cuda warps
print acc
print -lanes sh[t]
