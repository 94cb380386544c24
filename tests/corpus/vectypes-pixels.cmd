buffer img u8 1200 = file img.bin
buffer out u8 1200
buffer gray u8 300
launch _Z10vec_pixelsPK6uchar4PS_Phi<<<3, 128>>>(img, out, gray, 300)
dump out out.bin
dump gray gray.bin
