// rt_cluster.cu - cudaLaunchKernelEx with a cluster-dimension attribute (sm_90): the CTAs of a
// cluster read each other's shared memory; a grid that is not a multiple of the cluster shape
// is refused with cudaErrorInvalidClusterSize.
// nvcc-flags: -arch=sm_90
// cuda-test: 0 ^rt_cluster:\sPASSED$ -
#include <cooperative_groups.h>
#include "cuda_check.h"
namespace cg = cooperative_groups;

__global__ void swap_pairs(int *out)
{
    cg::cluster_group c = cg::this_cluster();
    __shared__ int v;
    if (threadIdx.x == 0)
        v = blockIdx.x * 10;
    c.sync();
    int *peer = c.map_shared_rank(&v, (c.block_rank() + 1) % c.num_blocks());
    if (threadIdx.x == 0)
        out[blockIdx.x] = *peer;
    c.sync();
}

int main()
{
    int *d, h[8];
    CHECK(cudaMalloc(&d, sizeof h));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(8);
    cfg.blockDim = dim3(32);
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = 2;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&cfg, swap_pairs, d));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 8; b++)   // clusters of two: each block reads its partner's value
        EXPECT(h[b] == (b ^ 1) * 10, "block %d read %d", b, h[b]);
    at[0].val.clusterDim.x = 3;
    EXPECT(cudaLaunchKernelEx(&cfg, swap_pairs, d) == cudaErrorInvalidClusterSize,
           "8 blocks in clusters of 3");
    printf("rt_cluster: PASSED\n");
    return 0;
}
