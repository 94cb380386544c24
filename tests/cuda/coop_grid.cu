// coop_grid.cu - cooperative launch: grid.sync() separates phases that read other blocks' results.
#include "cuda_check.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// phase 1: every thread writes x[i]; phase 2: reads a neighbour written by another block;
// phase 3: block 0 sums phase 2's output
__global__ void phases(int *x, int *y, int *sum, int n)
{
    cg::grid_group grid = cg::this_grid();
    int i = grid.thread_rank();
    for (int k = i; k < n; k += grid.size())
        x[k] = k * k % 1000;
    grid.sync();
    for (int k = i; k < n; k += grid.size())
        y[k] = x[(k + 517) % n] - x[k];
    grid.sync();
    if (i == 0) {
        int s = 0;
        for (int k = 0; k < n; k++)
            s += y[k] * (k % 5);
        *sum = s;
    }
}

int main()
{
    int dev = 0, supported = 0;
    CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, dev));
    EXPECT(supported, "cooperative launch not supported");
    int per_sm = 0, threads = 128;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phases, threads, 0));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    EXPECT(per_sm > 0, "no block fits");
    int blocks = prop.multiProcessorCount < 16 ? prop.multiProcessorCount : 16;
    const int n = 10000;
    int *x, *y, *sum;
    CHECK(cudaMalloc(&x, n * sizeof(int)));
    CHECK(cudaMalloc(&y, n * sizeof(int)));
    CHECK(cudaMalloc(&sum, sizeof(int)));
    int nn = n;
    void *args[] = {&x, &y, &sum, &nn};
    CHECK(cudaLaunchCooperativeKernel((void *)phases, blocks, threads, args, 0, 0));
    CHECK_LAUNCH();
    int got;
    CHECK(cudaMemcpy(&got, sum, sizeof got, cudaMemcpyDeviceToHost));
    int s = 0;
    for (int k = 0; k < n; k++) {
        int xk = k * k % 1000, xo = ((k + 517) % n) * ((k + 517) % n) % 1000;
        s += (xo - xk) * (k % 5);
    }
    EXPECT(got == s, "sum %d want %d", got, s);
    // too many blocks for a cooperative grid is a launch error
    cudaError_t e = cudaLaunchCooperativeKernel((void *)phases, per_sm * prop.multiProcessorCount + 1,
                                                threads, args, 0, 0);
    EXPECT(e == cudaErrorCooperativeLaunchTooLarge, "oversized cooperative launch gave %s",
           cudaGetErrorName(e));
    cudaGetLastError();
    printf("coop_grid: %d blocks PASSED\n", blocks);
    return 0;
}
