// fault_assert.cu - a device assert fails in one thread: cudaErrorAssert, sticky; exits 3.
#include "cuda_check.h"
#include <assert.h>

__global__ void check_positive(const int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        assert(v[i] >= 0);
}

int main()
{
    const int n = 100;
    int h[n], *d;
    for (int i = 0; i < n; i++)
        h[i] = i == 73 ? -1 : i;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    check_positive<<<4, 32>>>(d, n);
    cudaError_t launch = cudaGetLastError();
    cudaError_t e = cudaDeviceSynchronize();
    return expect_fault(launch, e, cudaErrorAssert);
}
