buffer pos f32 256 = file pos.bin
buffer acc f32 192
launch _Z9nbody_accPK6float4P6float3if<<<2, 32>>>(pos, acc, 64, 0.01)
dump acc acc.bin
