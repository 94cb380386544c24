// smp_cg.cu - cooperative groups the way simpleCooperativeGroups, binaryPartitionCG and the
// reduction samples use them: thread_block, tiled_partition (dynamic and static tiles),
// cg::reduce, labeled/binary partitions, coalesced groups, grid.sync() in a cooperative launch.
// cuda-G-build
#include "smp_helper.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__device__ int sumReduction(cg::thread_group g, int *x, int val)
{
    int lane = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) {
        x[lane] = val;
        g.sync();
        if (lane < i) val += x[lane + i];
        g.sync();
    }
    if (g.thread_rank() == 0) return val;
    return -1;
}

__global__ void cgkernel(int *out)
{
    cg::thread_block threadBlock = cg::this_thread_block();
    extern __shared__ int workspace[];
    int input = threadBlock.thread_rank();
    int expectedOutput = (threadBlock.size() - 1) * threadBlock.size() / 2;
    int output = sumReduction(threadBlock, workspace, input);
    if (threadBlock.thread_rank() == 0) {
        out[0] = output;
        out[1] = expectedOutput;
    }
    threadBlock.sync();
    cg::thread_group tiledPartition16 = cg::tiled_partition(threadBlock, 16);
    int workspaceOffset = threadBlock.thread_rank() - tiledPartition16.thread_rank();
    input = tiledPartition16.thread_rank();
    output = sumReduction(tiledPartition16, workspace + workspaceOffset, input);
    if (tiledPartition16.thread_rank() == 0) out[2 + threadBlock.thread_rank() / 16] = output;
    threadBlock.sync();
    cg::thread_block_tile<8> s8 = cg::tiled_partition<8>(threadBlock);
    int v = cg::reduce(s8, (int)threadBlock.thread_rank(), cg::plus<int>());
    int mx = cg::reduce(s8, (int)threadBlock.thread_rank(), cg::greater<int>());
    int incl = cg::inclusive_scan(s8, 1);
    if (s8.thread_rank() == 0) out[100 + s8.meta_group_rank()] = v;
    if (s8.thread_rank() == 7) out[200 + s8.meta_group_rank()] = mx * 1000 + incl;
    unsigned any = s8.any(threadBlock.thread_rank() == 5);
    unsigned bal = s8.ballot(s8.thread_rank() & 1);
    if (threadBlock.thread_rank() == 0) out[300] = any * 1000 + bal;
}

__global__ void oddEvenCountAndSumCG(int *inputArr, int *numOfOdds, int *sumOfOddAndEvens, unsigned size)
{
    cg::thread_block cta = cg::this_thread_block();
    cg::grid_group grid = cg::this_grid();
    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
    for (unsigned i = grid.thread_rank(); i < size; i += grid.size()) {
        int elem = inputArr[i];
        auto subTile = cg::binary_partition(tile32, elem & 1);
        if (elem & 1) {
            int oddGroupSum = cg::reduce(subTile, elem, cg::plus<int>());
            if (subTile.thread_rank() == 0) {
                atomicAdd(numOfOdds, subTile.num_threads());
                atomicAdd(&sumOfOddAndEvens[0], oddGroupSum);
            }
        } else {
            int evenGroupSum = cg::reduce(subTile, elem, cg::plus<int>());
            if (subTile.thread_rank() == 0) atomicAdd(&sumOfOddAndEvens[1], evenGroupSum);
        }
        cg::sync(tile32);
    }
}

__global__ void labeled(int *out)
{
    cg::coalesced_group active = cg::coalesced_threads();
    int label = threadIdx.x % 3;
    auto part = cg::labeled_partition(active, label);
    out[threadIdx.x] = part.size() * 100 + part.thread_rank();
}

__global__ void grid_kernel(int *data, int *partial, int n, int *result)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ int sh[256];
    int s = 0;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) s += data[i];
    sh[block.thread_rank()] = s;
    block.sync();
    for (int k = block.size() / 2; k > 0; k /= 2) {
        if (block.thread_rank() < k) sh[block.thread_rank()] += sh[block.thread_rank() + k];
        block.sync();
    }
    if (block.thread_rank() == 0) partial[blockIdx.x] = sh[0];
    grid.sync();
    if (grid.thread_rank() == 0) {
        int t = 0;
        for (int b = 0; b < gridDim.x; b++) t += partial[b];
        *result = t;
    }
    grid.sync();
    for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] = *result - data[i];
}

int main(int argc, char **argv)
{
    int dev = findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    int *d, h[400];
    checkCudaErrors(cudaMalloc(&d, sizeof(h)));
    checkCudaErrors(cudaMemset(d, 0, sizeof(h)));
    int threads = 64;
    cgkernel<<<1, threads, threads * sizeof(int)>>>(d);
    checkCudaErrors(cudaDeviceSynchronize());
    checkCudaErrors(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    printf("Sum of all ranks 0..%d in threadBlockGroup is %d (expected %d)\n", threads - 1, h[0], h[1]);
    if (h[0] != h[1] || h[1] != 2016) ok = false;
    for (int i = 0; i < 4; i++) if (h[2 + i] != 120) { printf("tile16 %d: %d\n", i, h[2 + i]); ok = false; }
    for (int t = 0; t < 8; t++) {
        int base = t * 8, sum = 0; for (int k = 0; k < 8; k++) sum += base + k;
        if (h[100 + t] != sum || h[200 + t] != (base + 7) * 1000 + 8) { printf("tile8 %d: %d %d\n", t, h[100 + t], h[200 + t]); ok = false; }
    }
    if (h[300] != 1000 + 0xaa) { printf("any/ballot %d\n", h[300]); ok = false; }
    // binary partition
    unsigned n = 1 << 14;
    int *in, *nodd, *sums;
    checkCudaErrors(cudaMallocManaged(&in, n * sizeof(int)));
    checkCudaErrors(cudaMallocManaged(&nodd, sizeof(int)));
    checkCudaErrors(cudaMallocManaged(&sums, 2 * sizeof(int)));
    int eo = 0, es[2] = {0, 0};
    for (unsigned i = 0; i < n; i++) { in[i] = (i * 131) % 97; if (in[i] & 1) { eo++; es[0] += in[i]; } else es[1] += in[i]; }
    *nodd = 0; sums[0] = sums[1] = 0;
    int bs, mgs;
    checkCudaErrors(cudaOccupancyMaxPotentialBlockSize(&mgs, &bs, oddEvenCountAndSumCG, 0, 0));
    oddEvenCountAndSumCG<<<4, 128>>>(in, nodd, sums, n);
    checkCudaErrors(cudaDeviceSynchronize());
    if (*nodd != eo || sums[0] != es[0] || sums[1] != es[1]) { printf("binary_partition %d %d %d\n", *nodd, sums[0], sums[1]); ok = false; }
    labeled<<<1, 32>>>(d);
    checkCudaErrors(cudaMemcpy(h, d, 32 * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) {
        int lab = i % 3, size = lab == 0 ? 11 : (lab == 1 ? 11 : 10), rank = i / 3;
        if (h[i] != size * 100 + rank) { printf("labeled %d: %d\n", i, h[i]); ok = false; break; }
    }
    // cooperative launch sized by occupancy
    int supports = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&supports, cudaDevAttrCooperativeLaunch, dev));
    if (!supports) { printf("no cooperative launch\n"); ok = false; }
    cudaDeviceProp prop;
    checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
    int nb = 0;
    checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, grid_kernel, 256, 0));
    int blocks = nb * prop.multiProcessorCount;
    if (blocks > 64) blocks = 64;
    int N = 100000;
    int *dd, *dp, *dr;
    checkCudaErrors(cudaMallocManaged(&dd, N * sizeof(int)));
    checkCudaErrors(cudaMalloc(&dp, blocks * sizeof(int)));
    checkCudaErrors(cudaMalloc(&dr, sizeof(int)));
    long tot = 0;
    for (int i = 0; i < N; i++) { dd[i] = i % 11; tot += i % 11; }
    void *args[] = {&dd, &dp, &N, &dr};
    checkCudaErrors(cudaLaunchCooperativeKernel((void *)grid_kernel, blocks, 256, args, 0, 0));
    checkCudaErrors(cudaDeviceSynchronize());
    for (int i = 0; i < N; i++) if (dd[i] != tot - i % 11) { printf("grid sync %d: %d\n", i, dd[i]); ok = false; break; }
    SMP_RESULT("smp_cg", ok);
}
