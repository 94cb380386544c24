# Inlined code (inl.cu, nvcc -O3 -lineinfo): a breakpoint inside a twice-inlined helper,
# backtrace through the inline chain, up into an inlined frame, finish out of inlined frames.
buffer out s32 32
break inl.cu:5
launch inl_kernel<<<1, 4>>>(out, 8)
backtrace
up
finish
backtrace
next
delete
continue
print out[0]
print out[3]
