// chk_leak.cu - a correct program that forgets two of its three allocations (1024 + 512 bytes):
// the leak check at exit (--leak-check full, PTXDBG_LEAK_CHECK=full) names both.
#include "cuda_check.h"

__global__ void fill(int *a, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = v;
}

int main()
{
    int *kept1, *kept2, *freed;
    CHECK(cudaMalloc(&kept1, 1024));
    CHECK(cudaMalloc(&freed, 2048));
    CHECK(cudaMalloc(&kept2, 512));
    fill<<<1, 256>>>(kept1, 256, 7);
    fill<<<1, 256>>>(freed, 512, 8);
    fill<<<1, 128>>>(kept2, 128, 9);
    CHECK_LAUNCH();
    int h = 0;
    CHECK(cudaMemcpy(&h, kept2 + 127, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h == 9, "kept2[127] = %d, want 9", h);
    CHECK(cudaFree(freed));
    printf("chk_leak: PASSED\n");
    return 0;
}
