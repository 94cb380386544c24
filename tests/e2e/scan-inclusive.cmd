buffer in s32 1024 = file in.bin
buffer out s32 1024
buffer sums s32 4
launch _Z14scan_inclusivePKiPiS1_<<<4, 256>>>(in, out, sums)
dump out out.bin
dump sums sums.bin
