// rt_coop.cu - cooperative launches (cudaLaunchCooperativeKernel and the cooperative launch
// attribute): grid.sync() orders two phases across every block; a grid larger than any device
// keeps resident is refused with cudaErrorCooperativeLaunchTooLarge.
// cuda-test: 0 ^rt_coop:\sPASSED$ -
#include <cooperative_groups.h>
#include "cuda_check.h"
namespace cg = cooperative_groups;

// phase 1: each block writes its partial sums; phase 2: block 0 adds every partial up
__global__ void two_phase(const int *in, int *partial, int *total, int n)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ int s;
    if (threadIdx.x == 0)
        s = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&s, in[i]);
    __syncthreads();
    if (threadIdx.x == 0)
        partial[blockIdx.x] = s;
    grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        int t = 0;
        for (int b = 0; b < gridDim.x; b++)
            t += partial[b];
        *total = t;
    }
}

int main()
{
    const int n = 5000, blocks = 16;
    int *in, *partial, *total, h = 0;
    CHECK(cudaMallocManaged(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&partial, 10000 * sizeof(int)));
    CHECK(cudaMalloc(&total, sizeof(int)));
    long want = 0;
    for (int i = 0; i < n; i++) {
        in[i] = (i % 7) - 3;
        want += in[i];
    }
    int nn = n;
    void *args[] = { &in, &partial, &total, &nn };
    CHECK(cudaLaunchCooperativeKernel((void *)two_phase, blocks, 128, args, 0, 0));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&h, total, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h == want, "cooperative total %d, want %ld", h, want);
    CHECK(cudaMemset(total, 0, sizeof(int)));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(blocks / 2);
    cfg.blockDim = dim3(64);
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeCooperative;
    at[0].val.cooperative = 1;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&cfg, two_phase, (const int *)in, partial, total, nn));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&h, total, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h == want, "attribute launch total %d, want %ld", h, want);
    EXPECT(cudaLaunchCooperativeKernel((void *)two_phase, 10000, 128, args, 0, 0) ==
           cudaErrorCooperativeLaunchTooLarge, "10000 co-resident blocks");
    EXPECT(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge, "last error");
    printf("rt_coop: PASSED\n");
    return 0;
}
