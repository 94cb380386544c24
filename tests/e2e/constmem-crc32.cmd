buffer data u8 592 = file data.bin
buffer crc u32 16
launch _Z12crc32_chunksPKhiPj<<<2, 8>>>(data, 37, crc)
dump crc crc.bin
