// chk_uaf.cu - a kernel reads memory the host already released with cudaFree (memcheck:
// use-after-free, naming the allocation and where the host freed it); exits 3 after the fault.
// cuda-G-build
#include "cuda_check.h"

__global__ void sum_freed(const int *a, int *out, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];                                  // BUG: use-after-free
    *out = s;
}

int main()
{
    const int n = 64;
    int *a, *out;
    CHECK(cudaMalloc(&a, n * sizeof(int)));
    CHECK(cudaMalloc(&out, sizeof(int)));
    CHECK(cudaMemset(a, 0, n * sizeof(int)));
    CHECK(cudaFree(a));
    sum_freed<<<1, 1>>>(a, out, n);
    cudaError_t launch = cudaGetLastError();
    cudaError_t e = cudaDeviceSynchronize();
    return expect_fault(launch, e, cudaErrorIllegalAddress);
}
