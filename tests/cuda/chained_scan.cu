// chained_scan.cu - inclusive prefix sum where block i spins until block i-1 publishes its prefix.
#include "cuda_check.h"

#define BLOCK 64

__device__ unsigned int next_block;

// blocks take their logical index from a counter so that a block only waits on one that started
__global__ void chained_scan(const int *in, int *out, volatile int *prefix, volatile int *flag, int n)
{
    __shared__ int buf[BLOCK];
    __shared__ int bid, carry;
    if (threadIdx.x == 0)
        bid = atomicAdd(&next_block, 1);
    __syncthreads();
    int i = bid * BLOCK + threadIdx.x;
    buf[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    // Hillis-Steele scan in shared memory
    for (int off = 1; off < BLOCK; off *= 2) {
        int v = threadIdx.x >= off ? buf[threadIdx.x - off] : 0;
        __syncthreads();
        buf[threadIdx.x] += v;
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        int c = 0;
        if (bid > 0) {
            while (flag[bid - 1] == 0)
                ;   // spin on the previous block
            c = prefix[bid - 1];
        }
        carry = c;
        prefix[bid] = c + buf[BLOCK - 1];
        __threadfence();
        flag[bid] = 1;
    }
    __syncthreads();
    if (i < n)
        out[i] = buf[threadIdx.x] + carry;
}

// suffix sums chained the other way: block i waits for block i+1, which a scheduler running
// blocks in index order reaches only if the spinning block lets it run (all blocks fit at once)
__global__ void reverse_chain(const int *in, int *block_suffix, volatile int *flag, int n)
{
    __shared__ int total;
    if (threadIdx.x == 0)
        total = 0;
    __syncthreads();
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n)
        atomicAdd(&total, in[i]);
    __syncthreads();
    if (threadIdx.x == 0) {
        int later = 0;
        if (blockIdx.x + 1 < gridDim.x) {
            while (flag[blockIdx.x + 1] == 0)
                ;
            later = block_suffix[blockIdx.x + 1];
        }
        block_suffix[blockIdx.x] = total + later;
        __threadfence();
        flag[blockIdx.x] = 1;
    }
}

int main()
{
    const int n = 5000;
    int blocks = (n + BLOCK - 1) / BLOCK;
    int *h = (int *)malloc(n * sizeof(int)), *r = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        h[i] = (i * 7) % 11 - 5;
    int *din, *dout, *dprefix, *dflag;
    CHECK(cudaMalloc(&din, n * sizeof(int)));
    CHECK(cudaMalloc(&dout, n * sizeof(int)));
    CHECK(cudaMalloc(&dprefix, blocks * sizeof(int)));
    CHECK(cudaMalloc(&dflag, blocks * sizeof(int)));
    CHECK(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dflag, 0, blocks * sizeof(int)));
    unsigned zero = 0;
    CHECK(cudaMemcpyToSymbol(next_block, &zero, sizeof zero));
    chained_scan<<<blocks, BLOCK>>>(din, dout, dprefix, dflag, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(r, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    int s = 0;
    for (int i = 0; i < n; i++) {
        s += h[i];
        EXPECT(r[i] == s, "scan[%d] = %d want %d", i, r[i], s);
    }
    // reverse chain over 32 blocks (resident together on any device of this class)
    int rblocks = 32, rn = rblocks * BLOCK;
    CHECK(cudaMemset(dflag, 0, blocks * sizeof(int)));
    reverse_chain<<<rblocks, BLOCK>>>(din, dprefix, dflag, rn);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(r, dprefix, rblocks * sizeof(int), cudaMemcpyDeviceToHost));
    int suffix = 0;
    for (int b = rblocks - 1; b >= 0; b--) {
        for (int k = 0; k < BLOCK; k++)
            suffix += h[b * BLOCK + k];
        EXPECT(r[b] == suffix, "suffix[%d] = %d want %d", b, r[b], suffix);
    }
    printf("chained_scan: %d blocks PASSED\n", blocks);
    return 0;
}
