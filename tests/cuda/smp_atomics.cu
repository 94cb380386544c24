// smp_atomics.cu - simpleAtomicIntrinsics / systemWideAtomics / warpAggregatedAtomicsCG patterns.
// cuda-G-build
#include "smp_helper.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void atomic_kernel(int *g)
{
    const unsigned tid = blockDim.x * blockIdx.x + threadIdx.x;
    atomicAdd(&g[0], 10);
    atomicExch(&g[1], tid);
    atomicMax(&g[2], tid);
    atomicMin(&g[3], tid);
    atomicInc((unsigned int *)&g[4], 17);
    atomicDec((unsigned int *)&g[5], 137);
    atomicCAS(&g[6], tid - 1, tid);
    atomicAnd(&g[7], 2 * tid + 7);
    atomicOr(&g[8], 1 << tid);
    atomicXor(&g[9], tid);
    atomicSub(&g[10], 10);
}
__global__ void atomic_system(int *g, unsigned long long *u, float *f, double *d)
{
    const unsigned tid = blockDim.x * blockIdx.x + threadIdx.x;
    atomicAdd_system(&g[0], 10);
    atomicMax_system(&g[2], (int)tid);
    atomicAdd(u, 3ull);
    atomicAdd(f, 0.5f);
    atomicAdd(d, 0.25);
}
__device__ int atomicAggInc(int *counter)
{
    cg::coalesced_group active = cg::coalesced_threads();
    int res;
    if (active.thread_rank() == 0) res = atomicAdd(counter, active.size());
    res = active.shfl(res, 0);
    return res + active.thread_rank();
}
__global__ void filter_k(int *dst, int *nres, const int *src, int n)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n && src[i] > 0) dst[atomicAggInc(nres)] = src[i];
}

static bool check_atomics(const int *g, int len)
{
    int val = 0;
    bool ok = true;
    val = 0; for (int i = 0; i < len; ++i) val += 10;
    if (val != g[0]) { printf("atomicAdd failed\n"); ok = false; }
    if (!(g[1] >= 0 && g[1] < len)) { printf("atomicExch failed\n"); ok = false; }
    if (g[2] != len - 1) { printf("atomicMax failed\n"); ok = false; }
    if (g[3] != 0) { printf("atomicMin failed\n"); ok = false; }
    unsigned limit = 17; unsigned v = 0;
    for (int i = 0; i < len; ++i) v = (v >= limit) ? 0 : v + 1;
    if ((unsigned)g[4] != v) { printf("atomicInc failed %d %u\n", g[4], v); ok = false; }
    limit = 137; v = 0;
    for (int i = 0; i < len; ++i) v = ((v == 0) || (v > limit)) ? limit : v - 1;
    if ((unsigned)g[5] != v) { printf("atomicDec failed\n"); ok = false; }
    if (!(g[6] >= 0 && g[6] < len)) { printf("atomicCAS failed %d\n", g[6]); ok = false; }
    val = 0xff; for (int i = 0; i < len; ++i) val &= (2 * i + 7);
    if (val != g[7]) { printf("atomicAnd failed\n"); ok = false; }
    val = 0; for (int i = 0; i < len; ++i) val |= (1 << i);
    if (val != g[8]) { printf("atomicOr failed\n"); ok = false; }
    val = 0xff; for (int i = 0; i < len; ++i) val ^= i;
    if (val != g[9]) { printf("atomicXor failed\n"); ok = false; }
    if (g[10] != -10 * len) { printf("atomicSub failed\n"); ok = false; }
    return ok;
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    unsigned int numThreads = 256, numBlocks = 64, numData = 11;
    bool ok = true;
    int *h = (int *)malloc(numData * sizeof(int));
    for (unsigned i = 0; i < numData; i++) h[i] = 0;
    h[7] = h[9] = 0xff;
    int *d;
    checkCudaErrors(cudaMalloc(&d, numData * sizeof(int)));
    checkCudaErrors(cudaMemcpy(d, h, numData * sizeof(int), cudaMemcpyHostToDevice));
    atomic_kernel<<<1, 32>>>(d);
    getLastCudaError("Kernel execution failed");
    checkCudaErrors(cudaMemcpy(h, d, numData * sizeof(int), cudaMemcpyDeviceToHost));
    ok &= check_atomics(h, 32);
    // system-wide on managed memory
    int *m; unsigned long long *u; float *f; double *dd;
    checkCudaErrors(cudaMallocManaged(&m, 4 * sizeof(int)));
    checkCudaErrors(cudaMallocManaged(&u, sizeof(*u)));
    checkCudaErrors(cudaMallocManaged(&f, sizeof(*f)));
    checkCudaErrors(cudaMallocManaged(&dd, sizeof(*dd)));
    m[0] = 0; m[2] = -1; *u = 0; *f = 0; *dd = 0;
    atomic_system<<<numBlocks, numThreads>>>(m, u, f, dd);
    checkCudaErrors(cudaDeviceSynchronize());
    unsigned total = numBlocks * numThreads;
    if (m[0] != (int)(10 * total) || m[2] != (int)total - 1 || *u != 3ull * total ||
        *f != 0.5f * total || *dd != 0.25 * total) {
        printf("system atomics: %d %d %llu %f %f\n", m[0], m[2], *u, *f, *dd); ok = false;
    }
    // warp-aggregated filter
    int n = 1 << 16;
    int *src = (int *)malloc(n * sizeof(int));
    int expected = 0;
    for (int i = 0; i < n; i++) { src[i] = (i * 7919) % 5 - 2; if (src[i] > 0) expected++; }
    int *dsrc, *ddst, *dn;
    checkCudaErrors(cudaMalloc(&dsrc, n * sizeof(int)));
    checkCudaErrors(cudaMalloc(&ddst, n * sizeof(int)));
    checkCudaErrors(cudaMalloc(&dn, sizeof(int)));
    checkCudaErrors(cudaMemset(dn, 0, sizeof(int)));
    checkCudaErrors(cudaMemcpy(dsrc, src, n * sizeof(int), cudaMemcpyHostToDevice));
    filter_k<<<n / 256, 256>>>(ddst, dn, dsrc, n);
    int got;
    checkCudaErrors(cudaMemcpy(&got, dn, sizeof(int), cudaMemcpyDeviceToHost));
    int *dst = (int *)malloc(n * sizeof(int));
    checkCudaErrors(cudaMemcpy(dst, ddst, got * sizeof(int), cudaMemcpyDeviceToHost));
    long sum = 0, want = 0;
    for (int i = 0; i < got; i++) sum += dst[i];
    for (int i = 0; i < n; i++) if (src[i] > 0) want += src[i];
    if (got != expected || sum != want) { printf("filter: %d of %d, sum %ld want %ld\n", got, expected, sum, want); ok = false; }
    checkCudaErrors(cudaFree(m));
    SMP_RESULT("smp_atomics", ok);
}
