// reduce_shared.cu - sums with static and dynamic shared memory, warp shuffles over warpSize, atomics.
// cuda-G-build
#include "cuda_check.h"

#define BLOCK 256

// tree reduction in static shared memory; one partial sum per block
__global__ void reduce_static(const int *in, int *partial, int n)
{
    __shared__ int buf[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    buf[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            buf[tid] += buf[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = buf[0];
}

// warp shuffles, one value per warp in dynamic shared memory, atomics into the total
__global__ void reduce_shfl(const int *in, int *total, int *warp_count, int n)
{
    extern __shared__ int warp_sums[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int off = warpSize / 2; off > 0; off /= 2)
        v += __shfl_down_sync(0xffffffff, v, off);
    int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    if (lane == 0) {
        warp_sums[warp] = v;
        atomicAdd(warp_count, 1);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int s = 0;
        for (int w = 0; w < blockDim.x / warpSize; w++)
            s += warp_sums[w];
        atomicAdd(total, s);
    }
}

// histogram with shared atomics, merged with global atomics; also atomicMax/Min/CAS
__global__ void histogram(const int *in, unsigned *hist, int *mx, int *mn, int *cas_sum, int n)
{
    __shared__ unsigned local[16];
    if (threadIdx.x < 16)
        local[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&local[in[i] & 15], 1u);
        atomicMax(mx, in[i]);
        atomicMin(mn, in[i]);
        int old = *cas_sum, assumed;
        do {
            assumed = old;
            old = atomicCAS(cas_sum, assumed, assumed + (in[i] & 3));
        } while (old != assumed);
    }
    __syncthreads();
    if (threadIdx.x < 16)
        atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

int main()
{
    const int n = 10000;
    int blocks = (n + BLOCK - 1) / BLOCK;
    int *h = (int *)malloc(n * sizeof(int));
    long long want = 0;
    unsigned want_hist[16] = {0};
    int want_max = -1000000, want_min = 1000000, want_cas = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (int)((i * 2654435761u) % 1000) - 300;
        want += h[i];
        want_hist[h[i] & 15]++;
        want_max = h[i] > want_max ? h[i] : want_max;
        want_min = h[i] < want_min ? h[i] : want_min;
        want_cas += h[i] & 3;
    }
    int *din, *dpart, *dtotal, *dcount, *dmx, *dmn, *dcas;
    unsigned *dhist;
    CHECK(cudaMalloc(&din, n * sizeof(int)));
    CHECK(cudaMalloc(&dpart, blocks * sizeof(int)));
    CHECK(cudaMalloc(&dtotal, sizeof(int)));
    CHECK(cudaMalloc(&dcount, sizeof(int)));
    CHECK(cudaMalloc(&dmx, sizeof(int)));
    CHECK(cudaMalloc(&dmn, sizeof(int)));
    CHECK(cudaMalloc(&dcas, sizeof(int)));
    CHECK(cudaMalloc(&dhist, 16 * sizeof(unsigned)));
    CHECK(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dtotal, 0, sizeof(int)));
    CHECK(cudaMemset(dcount, 0, sizeof(int)));
    CHECK(cudaMemset(dcas, 0, sizeof(int)));
    CHECK(cudaMemset(dhist, 0, 16 * sizeof(unsigned)));
    CHECK(cudaMemcpy(dmx, &want_min, sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dmn, &want_max, sizeof(int), cudaMemcpyHostToDevice));

    reduce_static<<<blocks, BLOCK>>>(din, dpart, n);
    CHECK_LAUNCH();
    int *part = (int *)malloc(blocks * sizeof(int));
    CHECK(cudaMemcpy(part, dpart, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    long long got = 0;
    for (int b = 0; b < blocks; b++) {
        long long w = 0;
        for (int i = b * BLOCK; i < n && i < (b + 1) * BLOCK; i++)
            w += h[i];
        EXPECT(part[b] == w, "partial[%d] = %d want %lld", b, part[b], w);
        got += part[b];
    }
    EXPECT(got == want, "static sum %lld want %lld", got, want);

    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    EXPECT(prop.warpSize == 32, "warpSize %d", prop.warpSize);
    reduce_shfl<<<blocks, BLOCK, (BLOCK / prop.warpSize) * sizeof(int)>>>(din, dtotal, dcount, n);
    CHECK_LAUNCH();
    int total, count;
    CHECK(cudaMemcpy(&total, dtotal, sizeof total, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&count, dcount, sizeof count, cudaMemcpyDeviceToHost));
    EXPECT(total == want, "shuffle sum %d want %lld", total, want);
    EXPECT(count == blocks * BLOCK / 32, "warp count %d", count);

    histogram<<<blocks, BLOCK>>>(din, dhist, dmx, dmn, dcas, n);
    CHECK_LAUNCH();
    unsigned hist[16];
    int mx, mn, cas;
    CHECK(cudaMemcpy(hist, dhist, sizeof hist, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&mx, dmx, sizeof mx, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&mn, dmn, sizeof mn, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&cas, dcas, sizeof cas, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 16; k++)
        EXPECT(hist[k] == want_hist[k], "hist[%d] = %u want %u", k, hist[k], want_hist[k]);
    EXPECT(mx == want_max && mn == want_min, "max %d min %d", mx, mn);
    EXPECT(cas == want_cas, "CAS sum %d want %d", cas, want_cas);
    printf("reduce_shared: sum %lld PASSED\n", want);
    return 0;
}
