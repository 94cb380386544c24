// fault_oob.cu - a kernel writes past its allocation: cudaErrorIllegalAddress, sticky; exits 3.
// cuda-G-build
#include "cuda_check.h"

__global__ void write_past(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int value = i * 10;
    if (i == 37)
        p[n + (1 << 20)] = value;   // far beyond the end: the fault
    else if (i < n)
        p[i] = value;
}

int main()
{
    const int n = 64;
    int *p;
    CHECK(cudaMalloc(&p, n * sizeof(int)));
    write_past<<<2, 32>>>(p, n);
    cudaError_t launch = cudaGetLastError();
    cudaError_t e = cudaDeviceSynchronize();
    return expect_fault(launch, e, cudaErrorIllegalAddress);
}
// cuda-static-build: G
