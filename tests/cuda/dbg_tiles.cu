// dbg_tiles.cu - a debugging target with cooperative groups: a template device function taking a
// thread_block_tile<8> (its mangled name uses a template parameter inside a parameter type), a
// grid-wide sync in a cooperative launch, atomics on unsigned long long, double and an atomicCAS
// loop, host functions of the same name as a device one (overloaded, templated), a kernel
// template launched with a __device__ lambda, and memory released by cudaFreeAsync before a
// kernel uses it.
// Usage: dbg_tiles [free]: "free" releases the histogram before combine (exit 3, FAULT line).
// cuda-G-build
// cuda-host-debug
// cuda-static-build: G
// nvcc-flags: --extended-lambda
#include <string.h>
#include <cooperative_groups.h>
#include "cuda_check.h"
namespace cg = cooperative_groups;

#define N 1024
#define NT (N / 8)

__device__ int scale(int v) { return v * 3; }
int scale(int v, int w) { return v * w; }        // host, the device function's name
static double scale(double v) { return v / 2; }  // host overload

template <int TILE> __device__ int tile_sum(cg::thread_block_tile<TILE> t, int v)
{
    for (int o = t.size() / 2; o > 0; o /= 2)
        v += t.shfl_down(v, o);
    return v;
}

// the largest value through an atomicCAS loop on the bits of a double
__device__ double max_double(double *a, double v)
{
    unsigned long long *p = (unsigned long long *)a, old = *p, seen;
    do {
        seen = old;
        if (__longlong_as_double(seen) >= v)
            break;
        old = atomicCAS(p, seen, __double_as_longlong(v));
    } while (old != seen);
    return __longlong_as_double(old);
}

__global__ void partial(const int *in, int *tiles)
{
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int s = tile_sum<8>(t8, scale(in[i]));
    if (t8.thread_rank() == 0)
        tiles[i / 8] = s;
}

__global__ void combine(const int *tiles, unsigned long long *total, double *peak, int *hist)
{
    cg::grid_group g = cg::this_grid();
    int i = g.thread_rank();
    double d = tiles[i] * 0.5;
    g.sync();
    atomicAdd(total, (unsigned long long)tiles[i]);
    max_double(peak, d);
    atomicAdd(&hist[tiles[i] & 15], 1);
}

// a kernel template whose argument is a lambda (its host wrapper's name differs from the kernel's)
template <typename F> __global__ void apply(int *p, int n, F f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = f(p[i]);
}

template <typename T> static T host_sum(const T *a, int n)
{
    T s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

int main(int argc, char **argv)
{
    int use_freed = argc > 1 && !strcmp(argv[1], "free");
    int hin[N], *in, *tiles, *hist;
    unsigned long long *total;
    double *peak;
    for (int i = 0; i < N; i++)
        hin[i] = (i * 7) % 13;
    CHECK(cudaMalloc(&in, sizeof hin));
    CHECK(cudaMemcpy(in, hin, sizeof hin, cudaMemcpyHostToDevice));
    for (int i = 0; i < N; i++)
        hin[i] += 1;   /* what apply's lambda makes of them */
    CHECK(cudaMalloc(&tiles, NT * sizeof(int)));
    CHECK(cudaMalloc(&total, sizeof *total));
    CHECK(cudaMalloc(&peak, sizeof *peak));
    cudaStream_t st;
    CHECK(cudaStreamCreate(&st));
    CHECK(cudaMallocAsync(&hist, 16 * sizeof(int), st));
    CHECK(cudaMemsetAsync(hist, 0, 16 * sizeof(int), st));
    CHECK(cudaMemset(total, 0, sizeof *total));
    CHECK(cudaMemset(peak, 0, sizeof *peak));
    apply<<<N / 128, 128, 0, st>>>(in, N, [] __device__(int v) { return v + 1; });
    partial<<<N / 128, 128, 0, st>>>(in, tiles);
    CHECK(cudaStreamSynchronize(st));
    if (use_freed)
        CHECK(cudaFreeAsync(hist, st));
    void *args[] = {&tiles, &total, &peak, &hist};
    cudaError_t launch = cudaLaunchCooperativeKernel((void *)combine, dim3(NT / 32), dim3(32),
                                                     args, 0, st);
    if (use_freed)
        return expect_fault(launch, cudaStreamSynchronize(st), cudaErrorIllegalAddress);
    CHECK(launch);
    CHECK(cudaStreamSynchronize(st));
    unsigned long long got;
    double hpeak;
    int hh[16];
    CHECK(cudaMemcpy(&got, total, sizeof got, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&hpeak, peak, sizeof hpeak, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hh, hist, sizeof hh, cudaMemcpyDeviceToHost));
    // references: tile k sums 3 * hin[8k..8k+7]; the total is 3 * the sum of hin
    long long want = scale((int)host_sum(hin, N), 3);
    double wpeak = 0;
    int wh[16] = {0}, nh = 0;
    for (int k = 0; k < NT; k++) {
        int s = 0;
        for (int j = 0; j < 8; j++)
            s += 3 * hin[8 * k + j];
        wpeak = s * 0.5 > wpeak ? s * 0.5 : wpeak;
        wh[s & 15]++;
    }
    for (int b = 0; b < 16; b++)
        nh += hh[b] == wh[b];
    if (got != (unsigned long long)want || hpeak != wpeak || nh != 16) {
        printf("dbg_tiles: FAILED total %llu (want %lld) peak %g (want %g)\n", got, want, hpeak,
               wpeak);
        return 1;
    }
    printf("dbg_tiles: tile %d bytes, peak %g, PASSED\n", (int)sizeof(cg::thread_block_tile<8>),
           scale(2 * wpeak));
    return 0;
}
