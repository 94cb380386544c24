# Breakpoints in divergent code, a conditional breakpoint on a thread id, brkpt in one thread.
buffer out s32 64
break twice
break debug.cu:15 if threadIdx.x == 7
info breakpoints
launch diverge<<<1, 64>>>(out, 64)
backtrace
print %tid.x
info lanes
delete 1
continue
print %tid.x + 100
print -lanes %laneid * 2
continue
info warps
continue
print out[0]
print out[63]
print/x out[58]
