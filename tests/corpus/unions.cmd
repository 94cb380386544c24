buffer f f32 64 = file f.bin
buffer bits u32 64 = file bits.bin
buffer recs u8 1536 = file recs.bin
buffer out u8 2560
buffer rout u8 1536
launch _Z6unionsPKfPKjPK6RecordP3OutPS3_i<<<2, 32>>>(f, bits, recs, out, rout, 64)
dump out out.bin
dump rout rout.bin
