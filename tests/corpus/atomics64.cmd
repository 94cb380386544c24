buffer in s64 256 = file in.bin
buffer fin f32 256 = file fin.bin
buffer u64 u64 8 = {0, 0, 18446744073709551615, 0, 18446744073709551615, 0, 0, 0}
buffer s64 s64 3 = {-9223372036854775808, 9223372036854775807, 0}
buffer f32 f32 3 = {0, -1e30, 0}
buffer f64 f64 3 = {0, -1e300, 0}
buffer u32 u32 4 = {0, 0, 0, 1000}
launch _Z9atomics64PKxPKfPyPxPfPdPji<<<2, 128>>>(in, fin, u64, s64, f32, f64, u32, 256)
dump u64 u64.bin
dump s64 s64.bin
dump f32 f32.bin
dump f64 f64.bin
dump u32 u32.bin
