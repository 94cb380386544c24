// rt_memory.cu - every kind of memory at one address for host and kernels: device, pitched, 3D,
// pinned/mapped, registered, managed, __managed__, async/pool allocations; copy kinds, symbols
// (__device__ and __constant__), memsets, pointer attributes, and the errors of bad copies.
// cuda-test: 0 ^rt_memory:\sPASSED$ -
#include <string.h>
#include "cuda_check.h"

__device__ int dev_counter;
__constant__ int coef[4];
__managed__ int managed_total;

__global__ void fill(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v + i;
}

__global__ void scale(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p[i] *= coef[i % 4];
        atomicAdd(&dev_counter, 1);
        atomicAdd(&managed_total, p[i]);
    }
}

int main()
{
    const int n = 1000;
    int *d, *h = (int *)malloc(n * sizeof(int));
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    const int hc[4] = {1, 2, 3, 4};
    CHECK(cudaMemcpyToSymbol(coef, hc, sizeof hc));
    fill<<<(n + 255) / 256, 256>>>(d, n, 1);
    scale<<<(n + 255) / 256, 256>>>(d, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
    long want_total = 0;
    for (int i = 0; i < n; i++) {
        EXPECT(h[i] == (1 + i) * hc[i % 4], "scaled element %d: %d", i, h[i]);
        want_total += (1 + i) * hc[i % 4];
    }
    int counter = 0;
    CHECK(cudaMemcpyFromSymbol(&counter, dev_counter, sizeof counter));
    EXPECT(counter == n, "__device__ counter %d", counter);
    EXPECT(managed_total == want_total, "__managed__ total %d, want %ld", managed_total,
           want_total);
    void *sym;
    CHECK(cudaGetSymbolAddress(&sym, dev_counter));
    CHECK(cudaMemset(sym, 0, sizeof(int)));
    CHECK(cudaMemcpyFromSymbol(&counter, dev_counter, sizeof counter));
    EXPECT(counter == 0, "memset through the symbol address: %d", counter);

    // pinned + mapped, registered and managed memory: the same pointer on both sides
    int *pinned, *mapped_dev;
    CHECK(cudaHostAlloc(&pinned, n * sizeof(int), cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer((void **)&mapped_dev, pinned, 0));
    fill<<<4, 256>>>(mapped_dev, n, 5);
    CHECK_LAUNCH();
    EXPECT(pinned[999] == 1004, "mapped memory %d", pinned[999]);
    static int reg[2048];
    CHECK(cudaHostRegister(reg, sizeof reg, cudaHostRegisterMapped));
    fill<<<8, 256>>>(reg, 2048, 7);
    CHECK_LAUNCH();
    EXPECT(reg[2047] == 2054, "registered memory %d", reg[2047]);
    EXPECT(cudaHostRegister(reg, 16, 0) == cudaErrorHostMemoryAlreadyRegistered,
           "registering twice");
    CHECK(cudaHostUnregister(reg));
    EXPECT(cudaHostUnregister(reg) == cudaErrorHostMemoryNotRegistered, "unregistering twice");
    EXPECT(cudaGetLastError() == cudaErrorHostMemoryNotRegistered, "the last error");
    int *managed;
    CHECK(cudaMallocManaged(&managed, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        managed[i] = -1;
    fill<<<4, 256>>>(managed, n / 2, 9);
    CHECK_LAUNCH();
    EXPECT(managed[10] == 19 && managed[n / 2] == -1, "managed memory %d %d", managed[10],
           managed[n / 2]);

    cudaPointerAttributes at;
    CHECK(cudaPointerGetAttributes(&at, managed));
    EXPECT(at.type == cudaMemoryTypeManaged && at.hostPointer == managed, "managed attributes");
    CHECK(cudaPointerGetAttributes(&at, d + 10));
    EXPECT(at.type == cudaMemoryTypeDevice && at.devicePointer == d + 10, "device attributes");
    CHECK(cudaPointerGetAttributes(&at, pinned));
    EXPECT(at.type == cudaMemoryTypeHost, "pinned attributes");
    CHECK(cudaPointerGetAttributes(&at, h));
    EXPECT(at.type == cudaMemoryTypeUnregistered, "malloc'd host memory attributes");

    // 2D and 3D
    size_t pitch;
    int *p2;
    CHECK(cudaMallocPitch((void **)&p2, &pitch, 100 * sizeof(int), 50));
    EXPECT(pitch >= 100 * sizeof(int) && pitch % 256 == 0, "pitch %zu", pitch);
    static int src2[50][100], dst2[50][100];
    for (int y = 0; y < 50; y++)
        for (int x = 0; x < 100; x++)
            src2[y][x] = y * 1000 + x;
    CHECK(cudaMemcpy2D(p2, pitch, src2, 100 * sizeof(int), 100 * sizeof(int), 50,
                       cudaMemcpyHostToDevice));
    CHECK(cudaMemset2D(p2, pitch, 0, 10 * sizeof(int), 5));
    CHECK(cudaMemcpy2D(dst2, 100 * sizeof(int), p2, pitch, 100 * sizeof(int), 50,
                       cudaMemcpyDeviceToHost));
    EXPECT(dst2[4][9] == 0 && dst2[4][10] == 4010 && dst2[5][0] == 5000 &&
           dst2[49][99] == 49099, "2D copy and memset");
    cudaExtent ext = make_cudaExtent(16 * sizeof(int), 8, 4);
    cudaPitchedPtr pp;
    CHECK(cudaMalloc3D(&pp, ext));
    static int h3[4][8][16], r3[4][8][16];
    for (int i = 0; i < 512; i++)
        (&h3[0][0][0])[i] = i;
    cudaMemcpy3DParms p = {0};
    p.srcPtr = make_cudaPitchedPtr(h3, 16 * sizeof(int), 16, 8);
    p.dstPtr = pp;
    p.extent = ext;
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    cudaMemcpy3DParms q = {0};
    q.srcPtr = pp;
    q.dstPtr = make_cudaPitchedPtr(r3, 16 * sizeof(int), 16, 8);
    q.extent = ext;
    q.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&q));
    EXPECT(memcmp(h3, r3, sizeof h3) == 0, "3D round trip");

    // stream-ordered allocation and a pool
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    int *da;
    CHECK(cudaMallocAsync(&da, 4096, s));
    fill<<<1, 32, 0, s>>>(da, 32, 3);
    CHECK(cudaMemcpyAsync(h, da, 32 * sizeof(int), cudaMemcpyDeviceToHost, s));
    CHECK(cudaFreeAsync(da, s));
    CHECK(cudaStreamSynchronize(s));
    EXPECT(h[31] == 34, "async allocation %d", h[31]);
    cudaMemPool_t pool;
    CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
    CHECK(cudaMallocFromPoolAsync((void **)&da, 1000, pool, s));
    size_t used = 0;
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    EXPECT(used == 1000, "pool use %zu", used);
    CHECK(cudaFreeAsync(da, s));
    CHECK(cudaStreamSynchronize(s));

    // errors: a copy past the end of an allocation, a bad free, cudaMemcpyDefault works both ways
    EXPECT(cudaMemcpy(h, d, (n + 1) * sizeof(int), cudaMemcpyDeviceToHost) ==
           cudaErrorInvalidValue, "overrunning copy");
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue, "last error");
    EXPECT(cudaGetLastError() == cudaSuccess, "last error cleared");
    EXPECT(cudaFree(h) == cudaErrorInvalidValue, "freeing host memory");
    cudaGetLastError();
    CHECK(cudaMemcpy(d, src2, 64, cudaMemcpyDefault));
    CHECK(cudaMemcpy(h, d, 64, cudaMemcpyDefault));
    EXPECT(memcmp(h, src2, 64) == 0, "cudaMemcpyDefault");
    size_t fr, tot;
    CHECK(cudaMemGetInfo(&fr, &tot));
    EXPECT(fr < tot && tot > (1ull << 30), "memory info %zu of %zu", fr, tot);

    CHECK(cudaFree(d));
    CHECK(cudaFree(p2));
    CHECK(cudaFree(pp.ptr));
    CHECK(cudaFree(managed));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaStreamDestroy(s));
    free(h);
    printf("rt_memory: PASSED\n");
    return 0;
}
// cuda-static-build
