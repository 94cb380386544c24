/* baseline.c - the bench kernels' work as plain C, compiled with gcc -O2, for the ratios. */
#include <math.h>
#include <stdint.h>
#include "baseline.h"

void base_fma_loop(float *out, float a, float b, int iters, int nthreads)
{
    for (int i = 0; i < nthreads; i++) {
        float x = (float)i * 1e-6f;
        for (int k = 0; k < iters; k++)
            x = fmaf(x, a, b);
        out[i] = x;
    }
}

void base_saxpy(int n, float a, const float *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = fmaf(a, x[i], y[i]);
}

void base_reduce(const int *in, int *out, int nblocks, int bs)
{
    int s[1024];
    for (int b = 0; b < nblocks; b++) {
        for (int t = 0; t < bs; t++)
            s[t] = in[b * bs + t];
        for (int k = bs / 2; k > 0; k >>= 1)
            for (int t = 0; t < k; t++)
                s[t] += s[t + k];
        out[b] = s[0];
    }
}

void base_collatz(const uint64_t *start, int *steps, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t v = start[i];
        int c = 0;
        while (v != 1) {
            v = (v & 1) ? 3 * v + 1 : v >> 1;
            c++;
        }
        steps[i] = c;
    }
}

void base_matmul(const float *A, const float *B, float *C, int n)
{
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            float acc = 0.0f;
            for (int k = 0; k < n; k++)
                acc = fmaf(A[r * n + k], B[k * n + c], acc);
            C[r * n + c] = acc;
        }
}
