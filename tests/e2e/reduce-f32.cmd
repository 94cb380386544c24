buffer in f32 2000 = file in.bin
buffer out f32 3
launch _Z14reduce_sum_f32PKfPfi<<<3, 256>>>(in, out, 2000)
dump out out.bin
