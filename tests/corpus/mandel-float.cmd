buffer iters s32 3072
launch _Z6mandelPiiifffi<<<(4, 6), (16, 8)>>>(iters, 64, 48, -2.0, -1.2, 0.05, 200)
dump iters iters.bin
