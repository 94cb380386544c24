// rt_sticky.cu - how a kernel fault shows: the launch and cudaGetLastError succeed, work queued
// after it never runs, the next synchronisation returns cudaErrorIllegalAddress, which then
// sticks to every call until cudaDeviceReset; exits 3.
// cuda-test: 3 ^FAULT\scudaErrorIllegalAddress$ Warp\sOut-of-range\sAddress
#include "cuda_check.h"

__global__ void store(int *p, int i, int v) { p[i] = v; }

int main()
{
    int *d, h = 0;
    CHECK(cudaMalloc(&d, 16 * sizeof(int)));
    CHECK(cudaMemset(d, 0, 16 * sizeof(int)));
    store<<<1, 1>>>(d, 4096, 1);              // far past the 64-byte allocation
    CHECK(cudaGetLastError());                 // the launch itself was valid
    store<<<1, 1>>>(d, 0, 7);                  // queued behind the fault: never runs
    CHECK(cudaGetLastError());
    cudaError_t e = cudaDeviceSynchronize();
    EXPECT(e == cudaErrorIllegalAddress, "synchronize returned %s", cudaGetErrorName(e));
    EXPECT(cudaMalloc(&d, 16) == cudaErrorIllegalAddress, "sticky for cudaMalloc");
    EXPECT(cudaGetLastError() == cudaErrorIllegalAddress, "sticky for cudaGetLastError");
    EXPECT(cudaGetLastError() == cudaErrorIllegalAddress, "cudaGetLastError cannot clear it");
    CHECK(cudaDeviceReset());
    CHECK(cudaMalloc(&d, 16 * sizeof(int)));
    CHECK(cudaMemset(d, 0, 16 * sizeof(int)));
    store<<<1, 1>>>(d, 0, 7);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h == 7, "a launch after the reset: %d", h);
    store<<<1, 1>>>(d, 1 << 20, 1);
    return expect_fault(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
}
