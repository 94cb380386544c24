buffer f f32 96 = file f.bin
buffer d f64 96 = file d.bin
buffer l s64 96 = file l.bin
buffer out u32 3456
launch _Z7convertPKfPKdPKxPji<<<2, 64>>>(f, d, l, out, 96)
dump out out.bin
