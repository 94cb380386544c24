# Postmortem in scenarios/fault.cu: a trap three calls deep in the last block (report, info trap,
# backtrace, variables of every frame, per-lane values), a core file written for a new process
# (scen_core.cmd), then an out-of-range store from a bad index.
buffer in s32 96 = iota
buffer out s32 96
break check_cells if blockIdx.x == 2
launch check_cells<<<3, 32>>>(in, out, 350)
delete
continue
info trap
backtrace
print s
print *c
print c->val[3]
print limit
up
print v
print c.id
up
print i
print c
info locals
print -lanes i
frame 1
print -lanes s
generate-core-file scen_fault.core
kill
#-x
print out[86]
print out[87]@2
buffer idx s32 64 = iota
set var idx[45] = 1000
launch scatter<<<2, 32>>>(idx, out, 64)
print i
print j
print w
print &out[j]
print out[j]
#-x
print idx[i - 1]@3
