// multi_module.cu - kernels in two translation units (two modules): each launch runs in its own.
// cuda-G-build
// cuda-sources: multi_module_b.cu
#include "cuda_check.h"

__device__ int bias_a = 100;

__global__ void scale(int *x, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * k + bias_a;
}

// multi_module_b.cu
void launch_offset(int *x, int n, int add);

int main()
{
    const int n = 300;
    int h[n], *d;
    for (int i = 0; i < n; i++)
        h[i] = i;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    for (int r = 0; r < 3; r++) {
        scale<<<(n + 127) / 128, 128>>>(d, n, 2);
        CHECK(cudaGetLastError());
        launch_offset(d, n, r);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int want = i;
        for (int r = 0; r < 3; r++)
            want = (want * 2 + 100) - 7 * r; // offset: x - 7 * add (bias_b = 7)
        EXPECT(h[i] == want, "x[%d] = %d want %d", i, h[i], want);
    }
    printf("multi_module: PASSED\n");
    return 0;
}
// cuda-static-build: G
