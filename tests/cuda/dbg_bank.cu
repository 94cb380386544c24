// dbg_bank.cu - a debugging target with a class whose member functions use its members bare
// (C++'s implicit this), atomics on int, float, double and unsigned long long, a float maximum
// by an atomicCAS loop, an overloaded device function, a host function of the same name as a
// device one, and a typedef of a template; audit is launched through cuda_runtime.h's template
// cudaLaunchKernel<T>. Built -G and -O3 -lineinfo, with host symbols but no host lines.
// Usage: dbg_bank [audit]: "audit" runs twice as many threads as amounts (exit 3, FAULT line).
// cuda-G-build
// cuda-opt: -O3 -lineinfo
// cuda-keep-symbols
#include <string.h>
#include "cuda_check.h"

struct Ledger {
    int count;
    float total;
    double dtotal;
    unsigned long long bits;
    __device__ void post(float v)
    {
        atomicAdd(&count, 1);
        atomicAdd(&total, v);
        atomicAdd(&dtotal, (double)v);
        atomicOr(&bits, 1ull << ((int)v & 63));
    }
};

template <typename T> struct Pair { T lo, hi; };
typedef Pair<float> Range;

__device__ float clampv(float v) { return v < 0.f ? 0.f : v; }
__device__ int clampv(int v) { return v < 0 ? 0 : v; }
__device__ float scale(float v) { return v * 2.0f; }
float scale(float v, int k) { return v * k; }   // host code, the device function's name

__device__ void max_float(float *a, float v)
{
    int *ai = (int *)a;
    int old = *ai, seen;
    do {
        seen = old;
        if (__int_as_float(seen) >= v)
            break;
        old = atomicCAS(ai, seen, __float_as_int(v));
    } while (old != seen);
}

__global__ void deposit(const float *amt, int n, Ledger *l, float *peak)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = clampv(scale(amt[i]));
    int k = clampv((int)amt[i] - 3);
    l->post(v + k);
    max_float(peak, v);
}

__global__ void audit(const float *amt, int n, Range *r)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Range x = r[i % 4];
        if (amt[i] < x.lo)
            r[i % 4].lo = amt[i];
    }
}

int main(int argc, char **argv)
{
    const int n = 1000;
    float h[n];
    double want = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (float)(i % 17);
        want += 2 * (i % 17) + (i % 17 > 3 ? i % 17 - 3 : 0);
    }
    float *amt, *peak;
    Ledger *l;
    Range *r;
    CHECK(cudaMalloc(&amt, n * sizeof(float)));
    CHECK(cudaMalloc(&peak, sizeof(float)));
    CHECK(cudaMalloc(&l, sizeof(Ledger)));
    CHECK(cudaMalloc(&r, 4 * sizeof(Range)));
    CHECK(cudaMemcpy(amt, h, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(l, 0, sizeof(Ledger)));
    CHECK(cudaMemset(peak, 0, sizeof(float)));
    CHECK(cudaMemset(r, 0, 4 * sizeof(Range)));
    deposit<<<(n + 127) / 128, 128>>>(amt, n, l, peak);
    CHECK_LAUNCH();
    Ledger hl;
    float hp;
    CHECK(cudaMemcpy(&hl, l, sizeof hl, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&hp, peak, sizeof hp, cudaMemcpyDeviceToHost));
    EXPECT(hl.count == n && hl.dtotal == want && hp == scale(16.0f, 2), "ledger %d %f peak %f",
           hl.count, hl.dtotal, hp);
    int m = argc > 1 && !strcmp(argv[1], "audit") ? 2 * n : n;   // the planted bug: past the amounts
    void *args[] = {&amt, &m, &r};
    cudaError_t e = cudaLaunchKernel(audit, dim3((m + 255) / 256), dim3(256), args, 0, 0);
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("FAULT %s\n", cudaGetErrorName(e));
        return 3;
    }
    printf("dbg_bank: PASSED\n");
    return 0;
}
