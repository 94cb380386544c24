buffer f f32 700 = file f.bin
buffer k s32 700 = file k.bin
buffer u u64 700 = file u.bin
buffer fo f32 2
buffer ko s32 2
buffer uo u64 2
launch _Z9reduce_opIf5MaxOpIfEEvPKT_PS2_i<<<2, 128, 512>>>(f, fo, 700)
launch _Z9reduce_opIi5MinOpIiEEvPKT_PS2_i<<<2, 128, 512>>>(k, ko, 700)
launch _Z9reduce_opIy5XorOpEvPKT_PS1_i<<<2, 128, 1024>>>(u, uo, 700)
dump fo fo.bin
dump ko ko.bin
dump uo uo.bin
