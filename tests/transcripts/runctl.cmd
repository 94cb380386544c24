# Run control: resumes over a call that never returns stop at max-steps; lane steps onto
# warp-synchronous instructions; arguments of a one-line device function.
buffer flag s32 1
buffer out s32 32
break runctl.cu:19
launch hang<<<1,32>>>(flag, out)
delete
set max-steps 10000
next
bt
until
finish
next -lane
cuda thread (7,0,0)
step -lane
kill
buffer a s32 32 = iota
break bump
launch calls<<<1,32>>>(out, a, 5)
cuda thread (3,0,0)
info args
print *a
print v * *a
delete
next
set max-steps 0
buffer wout s32 448
break runctl.cu:43 if threadIdx.x == 9
launch wsync<<<1,64>>>(wout)
delete
next -lane
print s
info cuda warps
next -lane
print b
next -lane
print any
next -lane
print/x mm
next -lane
print r
next -lane
print/x am
continue
print wout[9]
print wout[73]
print wout[201]
print wout[265]
