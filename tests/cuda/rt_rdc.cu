// rt_rdc.cu - relocatable device code (-rdc=true): the kernel calls a device function and
// updates a variable defined in another translation unit; the runtime links the units' PTX.
// nvcc-flags: -rdc=true -x cu rt_rdc_part.h
// cuda-test: 0 ^rt_rdc:\sPASSED$ -
#include "cuda_check.h"
template <typename T> __device__ T square(T x) { return x * x; }
static __device__ int helper(int x) { return x + 1; }
extern __device__ int part_value(int);
extern __device__ int launches;

__global__ void combine(int *p)
{
    p[threadIdx.x] = square((int)threadIdx.x) + helper(0) + part_value(threadIdx.x);
    if (threadIdx.x == 0) {
        printf("main: %d\n", square(2));
        atomicAdd(&launches, 1);
    }
}

__global__ void read_launches(int *out) { *out = launches; }

int main()
{
    int *d, h[32], n = 0;
    CHECK(cudaMalloc(&d, sizeof h));
    combine<<<1, 32>>>(d);
    combine<<<1, 32>>>(d);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)   // i*i + (0+1) + (100*i + (0+2) + 0)
        EXPECT(h[i] == i * i + 1 + 100 * i + 2, "element %d: %d", i, h[i]);
    read_launches<<<1, 1>>>(d);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(&n, d, sizeof n, cudaMemcpyDeviceToHost));
    EXPECT(n == 2, "launches %d", n);
    printf("rt_rdc: PASSED\n");
    return 0;
}
