// fault_trap.cu - a kernel executes __trap(): cudaErrorLaunchFailure, sticky; exits 3.
#include "cuda_check.h"

__global__ void maybe_trap(const int *flags)
{
    if (flags[blockIdx.x] == 2 && threadIdx.x == 5)
        __trap();
}

int main()
{
    int h[4] = {0, 0, 2, 0}, *d;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    maybe_trap<<<4, 32>>>(d);
    cudaError_t launch = cudaGetLastError();
    cudaError_t e = cudaDeviceSynchronize();
    return expect_fault(launch, e, cudaErrorLaunchFailure);
}
