buffer img u8 1350 = file img.bin
buffer out u8 1350
launch _Z7blur3x3PKhPhii<<<(3,4,1), (16,8,1)>>>(img, out, 45, 30)
dump out out.bin
