/* baseline.h - plain C versions of the bench kernels (built with gcc -O2). */
#ifndef BASELINE_H
#define BASELINE_H
#include <stdint.h>
void base_fma_loop(float *out, float a, float b, int iters, int nthreads);
void base_saxpy(int n, float a, const float *x, float *y);
void base_reduce(const int *in, int *out, int nblocks, int bs);
void base_collatz(const uint64_t *start, int *steps, int n);
void base_matmul(const float *A, const float *B, float *C, int n);
#endif
