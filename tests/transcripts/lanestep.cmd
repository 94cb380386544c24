# Stepping one lane while its warp-mates wait; watching shared memory.
buffer out s32 64
tbreak diverge
launch diverge<<<1, 64>>>(out, 64)
cuda thread (3,0,0)
stepi -lane 4
info lanes
cuda thread
print $pc
x/2i $pc
watch *(@shared int *)12
continue
print -lanes %r1
delete
continue
print out[60]
