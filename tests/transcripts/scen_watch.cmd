# Watchpoints and breakpoint bookkeeping in scenarios/scen.cu: watch a __shared__ element (the
# lane that writes it), a global element, rwatch/awatch, display, tbreak, ignore, condition,
# commands, disable/enable and run again.
buffer out s32 128
buffer fout f32 128
tbreak scen.cu:33
launch scen<<<2, 64>>>(out, fout, 128)
watch sh[9]
display t
display/x acc
continue
print sh[9]
info watchpoints
delete 2
undisplay 2
info display
watch fout[100]
continue
print g
print f
delete
break scen.cu:42
ignore 4 1
condition 4 blockIdx.x == 1 && t > 60
commands 4
printf "block %d thread %d reads sh[%d]\n", blockIdx.x, t, (t + 1) % 64
end
info breakpoints
run
rwatch sh[0]
continue
print t
awatch out[127]
disable 4
continue
info breakpoints
undisplay
delete
continue
print out[127]
print out[64]@2
