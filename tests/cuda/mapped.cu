// mapped.cu - zero-copy: cudaHostAlloc(Mapped), cudaHostGetDevicePointer and cudaHostRegister.
#include "cuda_check.h"
#include <string.h>

__global__ void negate(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = -p[i] + i;
}

int main()
{
    const int n = 500;
    CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    EXPECT(prop.canMapHostMemory, "device cannot map host memory");

    // mapped pinned allocation: the kernel writes, the host reads without a copy
    int *h, *d;
    CHECK(cudaHostAlloc(&h, n * sizeof(int), cudaHostAllocMapped));
    for (int i = 0; i < n; i++)
        h[i] = 2 * i;
    CHECK(cudaHostGetDevicePointer((void **)&d, h, 0));
    negate<<<(n + 127) / 128, 128>>>(d, n);
    CHECK_LAUNCH();
    for (int i = 0; i < n; i++)
        EXPECT(h[i] == -2 * i + i, "mapped h[%d] = %d", i, h[i]);
    CHECK(cudaFreeHost(h));

    // registered ordinary host memory
    int *buf = (int *)malloc(n * sizeof(int) + 4096);
    int *al = (int *)(((size_t)buf + 4095) & ~(size_t)4095);
    for (int i = 0; i < n; i++)
        al[i] = i * 7;
    CHECK(cudaHostRegister(al, n * sizeof(int), cudaHostRegisterMapped));
    int *dal;
    CHECK(cudaHostGetDevicePointer((void **)&dal, al, 0));
    negate<<<(n + 127) / 128, 128>>>(dal, n);
    CHECK_LAUNCH();
    for (int i = 0; i < n; i++)
        EXPECT(al[i] == -7 * i + i, "registered al[%d] = %d", i, al[i]);
    CHECK(cudaHostUnregister(al));
    free(buf);

    // pinned (not mapped) memory as an async copy source
    int *pin, *dev;
    CHECK(cudaMallocHost(&pin, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        pin[i] = i;
    CHECK(cudaMalloc(&dev, n * sizeof(int)));
    CHECK(cudaMemcpyAsync(dev, pin, n * sizeof(int), cudaMemcpyHostToDevice, 0));
    negate<<<(n + 127) / 128, 128>>>(dev, n);
    CHECK(cudaMemcpyAsync(pin, dev, n * sizeof(int), cudaMemcpyDeviceToHost, 0));
    CHECK(cudaStreamSynchronize(0));
    for (int i = 0; i < n; i++)
        EXPECT(pin[i] == 0, "pinned pin[%d] = %d", i, pin[i]);
    CHECK(cudaFreeHost(pin));
    CHECK(cudaFree(dev));
    printf("mapped: PASSED\n");
    return 0;
}
