// rt_ptds.cu - compiled with --default-stream per-thread: launches, copies and synchronisation
// go through the _ptsz/_ptds entry points and the calling thread's own default stream.
// nvcc-flags: --default-stream per-thread
// cuda-test: 0 ^rt_ptds:\sPASSED$ -
#include "cuda_check.h"

__global__ void iota(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = 3 * i;
}

int main()
{
    const int n = 777;
    int *d, h[n];
    CHECK(cudaMalloc(&d, sizeof h));
    iota<<<(n + 127) / 128, 128>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(0));
    CHECK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, 0));
    CHECK(cudaStreamSynchronize(cudaStreamPerThread));
    for (int i = 0; i < n; i++)
        EXPECT(h[i] == 3 * i, "element %d: %d", i, h[i]);
    CHECK(cudaMemset(d, 0, sizeof h));
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[n - 1] == 0, "memset %d", h[n - 1]);
    printf("rt_ptds: PASSED\n");
    return 0;
}
