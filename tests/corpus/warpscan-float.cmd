buffer in f32 250 = file in.bin
buffer out f32 250
launch _Z15float_warp_scanPKfPfi<<<2, 128>>>(in, out, 250)
dump out out.bin
