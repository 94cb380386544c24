// mallocasync.cu - stream-ordered allocation: cudaMallocAsync/FreeAsync, the default and an explicit pool.
#include "cuda_check.h"

__global__ void iota(int *p, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = base + i;
}
__global__ void sum_into(const int *p, int n, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, p[i]);
}

int main()
{
    int supported = 0;
    CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
    EXPECT(supported, "memory pools not supported");
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    const int n = 2048;
    int *out, h;
    CHECK(cudaMallocAsync(&out, sizeof(int), s));
    CHECK(cudaMemsetAsync(out, 0, sizeof(int), s));
    long long want = 0;
    for (int r = 0; r < 10; r++) {
        int *p;
        CHECK(cudaMallocAsync(&p, n * sizeof(int), s));
        iota<<<n / 256, 256, 0, s>>>(p, n, r);
        sum_into<<<n / 256, 256, 0, s>>>(p, n, out);
        CHECK(cudaFreeAsync(p, s));
        want += (long long)n * r + (long long)n * (n - 1) / 2;
    }
    CHECK(cudaMemcpyAsync(&h, out, sizeof h, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(h == (int)want, "default pool sum %d want %lld", h, want);

    // an explicit pool with a release threshold
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t pool;
    CHECK(cudaMemPoolCreate(&pool, &props));
    unsigned long long threshold = 1 << 20;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    int *q;
    CHECK(cudaMallocFromPoolAsync((void **)&q, n * sizeof(int), pool, s));
    iota<<<n / 256, 256, 0, s>>>(q, n, 100);
    CHECK(cudaMemsetAsync(out, 0, sizeof(int), s));
    sum_into<<<n / 256, 256, 0, s>>>(q, n, out);
    CHECK(cudaFreeAsync(q, s));
    CHECK(cudaMemcpyAsync(&h, out, sizeof h, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(h == 100 * n + n * (n - 1) / 2, "explicit pool sum %d", h);
    CHECK(cudaMemPoolTrimTo(pool, 0));
    CHECK(cudaMemPoolDestroy(pool));
    cudaMemPool_t def;
    CHECK(cudaDeviceGetDefaultMemPool(&def, 0));
    CHECK(cudaFreeAsync(out, s));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaDeviceSynchronize());
    printf("mallocasync: PASSED\n");
    return 0;
}
