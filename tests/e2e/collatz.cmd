buffer start u64 200 = file start.bin
buffer steps u32 200
buffer peak u64 200
launch _Z7collatzPKyPjPyi<<<4, 64>>>(start, steps, peak, 200)
dump steps steps.bin
dump peak peak.bin
