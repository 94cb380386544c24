// ticket_reduce.cu - single-pass sum: each block publishes a partial, the last block (ticket) adds them.
#include "cuda_check.h"

#define BLOCK 128

__device__ unsigned int tickets;

__global__ void sum_last_block(const int *in, volatile int *partial, int *result, int n)
{
    __shared__ int buf[BLOCK];
    __shared__ bool last;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = buf[0];
        __threadfence();
        unsigned t = atomicInc(&tickets, gridDim.x);
        last = (t == gridDim.x - 1);
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int s = 0;
        for (int b = 0; b < gridDim.x; b++)
            s += partial[b];
        *result = s;
        tickets = 0;
    }
}

int main()
{
    const int n = 100000;
    int blocks = (n + BLOCK - 1) / BLOCK;
    int *h = (int *)malloc(n * sizeof(int)), *din, *dpart, *dres;
    long long want = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (i % 37) - 18;
        want += h[i];
    }
    CHECK(cudaMalloc(&din, n * sizeof(int)));
    CHECK(cudaMalloc(&dpart, blocks * sizeof(int)));
    CHECK(cudaMalloc(&dres, sizeof(int)));
    CHECK(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));
    for (int round = 0; round < 3; round++) {
        CHECK(cudaMemset(dres, 0x7f, sizeof(int)));
        sum_last_block<<<blocks, BLOCK>>>(din, dpart, dres, n);
        CHECK_LAUNCH();
        int got;
        CHECK(cudaMemcpy(&got, dres, sizeof got, cudaMemcpyDeviceToHost));
        EXPECT(got == want, "round %d: sum %d want %lld", round, got, want);
    }
    printf("ticket_reduce: sum %lld PASSED\n", want);
    return 0;
}
