buffer code s32 128 = file code.bin
buffer args s32 160 = file args.bin
buffer out s32 320
launch _Z2vmPKiS0_Piii<<<5, 32>>>(code, args, out, 160, 64)
dump out out.bin
