# A new process opens the core file scen_fault.cmd wrote: the same report, frames and values.
bt
print s
frame 3
print c.val
print i
info cuda blocks
info cuda threads
print out[86]
continue
