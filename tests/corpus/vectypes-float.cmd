buffer a f32 800 = file a.bin
buffer b f32 800 = file b.bin
buffer d f64 400 = file d.bin
buffer out f32 800
buffer dout f64 400
launch _Z9vec_floatPK6float4S1_PS_PK7double2PS3_i<<<2, 128>>>(a, b, out, d, dout, 200)
dump out out.bin
dump dout dout.bin
