// fault_misaligned.cu - an 8-byte load from an address that is 4 mod 8: cudaErrorMisalignedAddress; exits 3.
#include "cuda_check.h"

__global__ void load_misaligned(const char *base, long long *out, int off)
{
    const long long *q = (const long long *)(base + off);
    out[threadIdx.x] = q[threadIdx.x];
}

int main()
{
    char *base;
    long long *out;
    CHECK(cudaMalloc(&base, 1024));
    CHECK(cudaMalloc(&out, 32 * sizeof(long long)));
    load_misaligned<<<1, 32>>>(base, out, 4);
    cudaError_t launch = cudaGetLastError();
    cudaError_t e = cudaDeviceSynchronize();
    return expect_fault(launch, e, cudaErrorMisalignedAddress);
}
