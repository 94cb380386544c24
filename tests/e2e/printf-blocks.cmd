buffer vals s32 6 = iota
launch _Z13printf_blocksPKi<<<3, 2>>>(vals)
