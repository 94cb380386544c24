// smp_vote.cu - simpleVoteIntrinsics / shfl_scan patterns: __any_sync, __all_sync, __ballot_sync,
// __shfl_up_sync scans with a second pass over the warp sums, __shfl_xor_sync butterflies,
// __match_any_sync, __reduce_add_sync, __activemask, inline PTX reading %laneid.
// cuda-G-build
#include "smp_helper.h"

__global__ void vote_any(unsigned *out)
{
    int tx = threadIdx.x;
    out[blockIdx.x * blockDim.x + tx] = __any_sync(0xffffffff, tx >= 16);
}
__global__ void vote_all(unsigned *out)
{
    int tx = threadIdx.x;
    out[blockIdx.x * blockDim.x + tx] = __all_sync(0xffffffff, tx % 32 >= 16);
}
__global__ void vote_ballot(unsigned *out)
{
    int tx = threadIdx.x;
    out[tx] = __ballot_sync(0xffffffff, (tx & 3) == 1);
}
__global__ void shfl_scan_test(int *data, int width, int *partial_sums)
{
    extern __shared__ int sums[];
    int id = ((blockIdx.x * blockDim.x) + threadIdx.x);
    int lane_id = id % warpSize;
    int warp_id = threadIdx.x / warpSize;
    int value = data[id];
#pragma unroll
    for (int i = 1; i <= width; i *= 2) {
        unsigned int mask = 0xffffffff;
        int n = __shfl_up_sync(mask, value, i, width);
        if (lane_id >= i) value += n;
    }
    if (threadIdx.x % warpSize == warpSize - 1) sums[warp_id] = value;
    __syncthreads();
    if (warp_id == 0 && lane_id < (blockDim.x / warpSize)) {
        int warp_sum = sums[lane_id];
        int mask = (1 << (blockDim.x / warpSize)) - 1;
        for (int i = 1; i <= (blockDim.x / warpSize); i *= 2) {
            int n = __shfl_up_sync(mask, warp_sum, i, (blockDim.x / warpSize));
            if (lane_id >= i) warp_sum += n;
        }
        sums[lane_id] = warp_sum;
    }
    __syncthreads();
    int blockSum = 0;
    if (warp_id > 0) blockSum = sums[warp_id - 1];
    value += blockSum;
    data[id] = value;
    if (partial_sums != NULL && threadIdx.x == blockDim.x - 1) partial_sums[blockIdx.x] = value;
}
__global__ void uniform_add(int *data, int *partial_sums, int len)
{
    __shared__ int buf;
    int id = ((blockIdx.x * blockDim.x) + threadIdx.x);
    if (id > len) return;
    if (threadIdx.x == 0) buf = partial_sums[blockIdx.x];
    __syncthreads();
    data[id] += buf;
}
__global__ void misc(int *out)
{
    int lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    int x = threadIdx.x * 3 + 1;
    for (int o = 16; o > 0; o /= 2) x += __shfl_xor_sync(0xffffffff, x, o);
    out[threadIdx.x] = x;
    out[64 + threadIdx.x] = __match_any_sync(0xffffffff, threadIdx.x / 8);
    out[128 + threadIdx.x] = __reduce_add_sync(0xffffffff, threadIdx.x);
    out[192 + threadIdx.x] = lane;
    if (threadIdx.x % 2) out[256 + threadIdx.x] = __activemask();
    else out[256 + threadIdx.x] = __popc(__activemask());
    unsigned r;
    asm("{\n\t.reg .u32 t;\n\tbrev.b32 t, %1;\n\tmov.u32 %0, t;\n\t}" : "=r"(r) : "r"((unsigned)threadIdx.x));
    out[320 + threadIdx.x] = r;
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    unsigned *d, h[64];
    checkCudaErrors(cudaMalloc(&d, 64 * sizeof(unsigned)));
    vote_any<<<2, 32>>>(d);
    checkCudaErrors(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++) if (h[i] != 1) ok = false;
    vote_all<<<2, 32>>>(d);
    checkCudaErrors(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++) if (h[i] != 0) ok = false;
    vote_ballot<<<1, 32>>>(d);
    checkCudaErrors(cudaMemcpy(h, d, 32 * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) if (h[i] != 0x22222222u) ok = false;
    if (!ok) printf("vote failed\n");
    // scan
    int n_elements = 65536, blockSize = 256, gridSize = n_elements / blockSize;
    int nWarps = blockSize / 32, shmem_sz = nWarps * sizeof(int), n_partialSums = n_elements / blockSize;
    int *h_data, *h_result;
    checkCudaErrors(cudaMallocHost(&h_data, n_elements * sizeof(int)));
    checkCudaErrors(cudaMallocHost(&h_result, n_elements * sizeof(int)));
    for (int i = 0; i < n_elements; i++) h_data[i] = rand() % 10;
    int *d_data, *d_partial;
    checkCudaErrors(cudaMalloc(&d_data, n_elements * sizeof(int)));
    checkCudaErrors(cudaMalloc(&d_partial, n_partialSums * sizeof(int)));
    checkCudaErrors(cudaMemset(d_partial, 0, n_partialSums * sizeof(int)));
    checkCudaErrors(cudaMemcpy(d_data, h_data, n_elements * sizeof(int), cudaMemcpyHostToDevice));
    shfl_scan_test<<<gridSize, blockSize, shmem_sz>>>(d_data, 32, d_partial);
    shfl_scan_test<<<1, 256, shmem_sz>>>(d_partial, 32, NULL);
    uniform_add<<<gridSize - 1, blockSize>>>(d_data + blockSize, d_partial, n_elements);
    checkCudaErrors(cudaMemcpy(h_result, d_data, n_elements * sizeof(int), cudaMemcpyDeviceToHost));
    int acc = 0;
    for (int i = 0; i < n_elements; i++) {
        acc += h_data[i];
        if (h_result[i] != acc) { printf("scan mismatch at %d: %d vs %d\n", i, h_result[i], acc); ok = false; break; }
    }
    int *dm, hm[384];
    checkCudaErrors(cudaMalloc(&dm, sizeof(hm)));
    misc<<<1, 32>>>(dm);
    checkCudaErrors(cudaMemcpy(hm, dm, sizeof(hm), cudaMemcpyDeviceToHost));
    int tot = 0;
    for (int i = 0; i < 32; i++) tot += i * 3 + 1;
    for (int i = 0; i < 32; i++) {
        unsigned grp = 0xffu << ((i / 8) * 8);
        unsigned rev = 0; for (int b = 0; b < 32; b++) if (i & (1 << b)) rev |= 1u << (31 - b);
        if (hm[i] != tot || (unsigned)hm[64 + i] != grp || hm[128 + i] != 496 || hm[192 + i] != i ||
            (unsigned)hm[320 + i] != rev) { printf("misc lane %d: %d %x %d %d\n", i, hm[i], hm[64 + i], hm[128 + i], hm[192 + i]); ok = false; break; }
        if (i % 2 && (unsigned)hm[256 + i] != 0xaaaaaaaau) { printf("activemask odd %x\n", hm[256 + i]); ok = false; break; }
        if (i % 2 == 0 && hm[256 + i] != 16) { printf("activemask even %d\n", hm[256 + i]); ok = false; break; }
    }
    SMP_RESULT("smp_vote", ok);
}
