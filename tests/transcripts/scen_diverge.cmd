# Divergent branches and a loop over two blocks (scenarios/scen.cu, nvcc -G): a breakpoint in
# one branch with a condition on thread ids, per-lane values across the divergence, the brkpt of
# one thread, focus switches (exited, unstarted, by SM), shared memory, gdb's printf and @.
buffer out s32 128
buffer fout f32 128
break scen.cu:31 if threadIdx.x == 37 && blockIdx.x == 1
info breakpoints
launch scen<<<2, 64>>>(out, fout, 128)
print t
print g
print k
info cuda warps
info cuda blocks
print -lanes acc
next
next
print acc
cuda thread (35,0,0)
print k
#-x
until
until
print acc
print t
cuda block (0,0,0)
#-x
cuda block (1,0,0) thread (5,0,0)
cuda sm
cuda device 0 sm 1 warp 0 lane 4
cuda sm 0
#-x
delete
break scen.cu:41 if g == 100
commands
silent
printf "g=%d t=%d sh[t]=%d key=%d weight=%.1f\n", g, t, sh[t], p.key, p.weight
end
continue
print sh[t]@4
print p
info cuda sharedmem
x/8dw @shared 0
print &sh[3]
print *&sh[3]@2
continue
bt
info cuda threads
cuda block 1 thread (40,0,0)
print g
continue
print out[64]@4
print fout[124]@4
print/x out[1]@3
print out[125]@5
