// multi_module_b.cu - the second translation unit of multi_module.cu (its own module).
// cuda-part-of: multi_module.cu
#include "cuda_check.h"

__device__ int bias_b = 7;

__global__ void offset(int *x, int n, int add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int delta = bias_b * add;
        x[i] -= delta;
    }
}

void launch_offset(int *x, int n, int add)
{
    offset<<<(n + 63) / 64, 64>>>(x, n, add);
}
