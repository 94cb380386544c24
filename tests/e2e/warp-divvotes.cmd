buffer in s32 128 = file in.bin
buffer out u32 128
launch _Z20warp_divergent_votesPKiPj<<<2, 64>>>(in, out)
dump out out.bin
