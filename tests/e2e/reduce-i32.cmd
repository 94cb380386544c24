buffer in s32 2000 = file in.bin
buffer out s32 4
launch _Z14reduce_sum_i32PKiPii<<<4, 256>>>(in, out, 2000)
dump out out.bin
