// smp_cgtiles.cu - cooperative groups' tiles larger than a warp (tiled_partition<64> and <128>),
// which keep their state in the shared memory sm_80 reserves per block: reductions over each
// tile (cg::reduce, as cuda-samples' reduction kernel 9 multi_warp_cg_reduce does), a tile's
// sync and its thread ranks, beside the kernel's own shared memory; the reserved size as the
// device reports it. Expected values from a C reference.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "cuda_check.h"
namespace cg = cooperative_groups;

template <int TILE>
__global__ void tile_reduce(const int *in, int *tile_sums, int *ranks, int n)
{
    __shared__ int scratch[256];   // the kernel's own shared memory, beside the system's
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<TILE> tile = cg::tiled_partition<TILE>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    scratch[threadIdx.x] = v;
    int sum = cg::reduce(tile, v, cg::plus<int>());
    tile.sync();
    int mx = cg::reduce(tile, scratch[threadIdx.x], cg::greater<int>());
    int gtile = i / TILE;
    if (tile.thread_rank() == 0) {
        tile_sums[2 * gtile] = sum;
        tile_sums[2 * gtile + 1] = mx;
    }
    ranks[i] = (int)(tile.meta_group_rank() * 1000 + tile.thread_rank());
}

// Kernel 9 of cuda-samples' reduction: a block reduces through tiles of 64, then their sums.
__global__ void block_reduce(const int *in, int *out, int n)
{
    __shared__ int part[256 / 64];
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<64>(block);
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += in[i];
    sum = cg::reduce(tile, sum, cg::plus<int>());
    if (tile.thread_rank() == 0)
        part[tile.meta_group_rank()] = sum;
    block.sync();
    if (threadIdx.x == 0) {
        int s = 0;
        for (unsigned k = 0; k < tile.meta_group_size(); k++)
            s += part[k];
        out[blockIdx.x] = s;
    }
}

template <int TILE>
static void check_tiles(const int *h_in, const int *d_in, int n)
{
    int ntiles = n / TILE, *d_sums, *d_ranks;
    int *h_sums = (int *)malloc(2 * ntiles * sizeof(int)), *h_ranks = (int *)malloc(n * sizeof(int));
    CHECK(cudaMalloc(&d_sums, 2 * ntiles * sizeof(int)));
    CHECK(cudaMalloc(&d_ranks, n * sizeof(int)));
    tile_reduce<TILE><<<n / 256, 256>>>(d_in, d_sums, d_ranks, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h_sums, d_sums, 2 * ntiles * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_ranks, d_ranks, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < ntiles; t++) {
        int s = 0, m = h_in[t * TILE];
        for (int k = 0; k < TILE; k++) {
            s += h_in[t * TILE + k];
            m = h_in[t * TILE + k] > m ? h_in[t * TILE + k] : m;
        }
        EXPECT(h_sums[2 * t] == s, "tile<%d> %d sum %d, want %d", TILE, t, h_sums[2 * t], s);
        EXPECT(h_sums[2 * t + 1] == m, "tile<%d> %d max %d, want %d", TILE, t,
               h_sums[2 * t + 1], m);
    }
    for (int i = 0; i < n; i++) {
        int want = (i % 256) / TILE * 1000 + i % TILE;
        EXPECT(h_ranks[i] == want, "tile<%d> thread %d rank %d, want %d", TILE, i, h_ranks[i],
               want);
    }
    CHECK(cudaFree(d_sums));
    CHECK(cudaFree(d_ranks));
    free(h_sums);
    free(h_ranks);
}

int main()
{
    const int n = 4096;
    int *h_in = (int *)malloc(n * sizeof(int)), *d_in;
    for (int i = 0; i < n; i++)
        h_in[i] = (i * 2654435761u >> 7) % 2001 - 1000;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice));
    check_tiles<64>(h_in, d_in, n);
    check_tiles<128>(h_in, d_in, n);
    const int blocks = 6;
    int *d_out, h_out[blocks];
    CHECK(cudaMalloc(&d_out, blocks * sizeof(int)));
    block_reduce<<<blocks, 256>>>(d_in, d_out, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    long total = 0, want = 0;
    for (int b = 0; b < blocks; b++)
        total += h_out[b];
    for (int i = 0; i < n; i++)
        want += h_in[i];
    EXPECT(total == want, "block_reduce total %ld, want %ld", total, want);
    int reserved = -1;
    CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, 0));
    EXPECT(reserved == 1024, "reserved shared memory per block %d, want 1024", reserved);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    free(h_in);
    printf("smp_cgtiles: PASSED\n");
    return 0;
}
