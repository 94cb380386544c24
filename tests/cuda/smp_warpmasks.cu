// smp_warpmasks.cu - warp collectives as the hardware runs them where the ISA is silent:
// blocks of 8 and 16 threads (partial warps) calling full-mask __shfl_up_sync / __shfl_xor_sync
// / __ballot_sync / __reduce_add_sync / __syncwarp (an integral-image row scan and a
// Walsh-Hadamard butterfly, as in cuda-samples' shfl_scan and HeCBench's hadamard), and each
// lane passing its own mask (__ballot_sync(lanemask_lt, p), a stream-compaction scan as in
// HeCBench's bscan). Expected values from C references.
#include "cuda_check.h"

__device__ unsigned lanemask_lt()
{
    unsigned m;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
    return m;
}

// Inclusive scan of each row of `width` values, one row per block of `width` threads (8 or 16):
// the mask names all 32 lanes, of which only `width` exist.
__global__ void row_scan(const int *in, int *out, int width)
{
    int t = threadIdx.x, v = in[blockIdx.x * width + t];
    for (int i = 1; i < width; i *= 2) {
        int n = __shfl_up_sync(0xffffffff, v, i, width);
        if (t >= i)
            v += n;
    }
    out[blockIdx.x * width + t] = v;
}

// Fast Walsh-Hadamard transform of `width` values per block, butterflies by __shfl_xor_sync;
// then every lane also reports the ballot of its sign, the block sum and a __syncwarp.
__global__ void hadamard(const int *in, int *out, unsigned *ballots, int *sums, int width)
{
    int t = threadIdx.x, v = in[blockIdx.x * width + t];
    for (int i = 1; i < width; i *= 2) {
        int o = __shfl_xor_sync(0xffffffff, v, i);
        v = (t & i) ? o - v : v + o;
    }
    __syncwarp();
    out[blockIdx.x * width + t] = v;
    unsigned b = __ballot_sync(0xffffffff, v < 0);
    int s = __reduce_add_sync(0xffffffff, v);
    if (t == 0) {
        ballots[blockIdx.x] = b;
        sums[blockIdx.x] = s;
    }
}

// Stream compaction: each lane's position among the kept values of its warp before it is the
// population count of a ballot over the lanes below it (lane 0's mask is empty).
__global__ void compact(const int *in, int *out, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    bool keep = i < n && v % 3 != 0;
    unsigned below = __ballot_sync(lanemask_lt(), keep);
    unsigned all = __ballot_sync(0xffffffff, keep);
    int base = 0;
    if ((threadIdx.x & 31) == 0)
        base = atomicAdd(count, __popc(all));
    base = __shfl_sync(0xffffffff, base, 0);
    if (keep)
        out[base + __popc(below)] = v;
}

int main()
{
    const int rows = 5;
    for (int width = 8; width <= 16; width *= 2) {
        int n = rows * width, h_in[80], h_out[80];
        for (int i = 0; i < n; i++)
            h_in[i] = (i * 37 + 11) % 23 - 9;
        int *d_in, *d_out, *d_sums;
        unsigned *d_b;
        CHECK(cudaMalloc(&d_in, n * sizeof(int)));
        CHECK(cudaMalloc(&d_out, n * sizeof(int)));
        CHECK(cudaMalloc(&d_b, rows * sizeof(unsigned)));
        CHECK(cudaMalloc(&d_sums, rows * sizeof(int)));
        CHECK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice));
        row_scan<<<rows, width>>>(d_in, d_out, width);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
        for (int r = 0; r < rows; r++)
            for (int t = 0, acc = 0; t < width; t++) {
                acc += h_in[r * width + t];
                EXPECT(h_out[r * width + t] == acc, "row_scan width %d row %d lane %d: %d, want %d",
                       width, r, t, h_out[r * width + t], acc);
            }
        hadamard<<<rows, width>>>(d_in, d_out, d_b, d_sums, width);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
        unsigned h_b[rows];
        int h_s[rows];
        CHECK(cudaMemcpy(h_b, d_b, sizeof h_b, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(h_s, d_sums, sizeof h_s, cudaMemcpyDeviceToHost));
        for (int r = 0; r < rows; r++) {
            unsigned b = 0;
            int s = 0;
            for (int k = 0; k < width; k++) {
                int want = 0;   // H[k][j] = (-1)^popc(k & j)
                for (int j = 0; j < width; j++)
                    want += (__builtin_popcount(k & j) & 1 ? -1 : 1) * h_in[r * width + j];
                EXPECT(h_out[r * width + k] == want, "hadamard width %d row %d [%d]: %d, want %d",
                       width, r, k, h_out[r * width + k], want);
                b |= (unsigned)(want < 0) << k;
                s += want;
            }
            EXPECT(h_b[r] == b, "ballot width %d row %d: %#x, want %#x", width, r, h_b[r], b);
            EXPECT(h_s[r] == s, "sum width %d row %d: %d, want %d", width, r, h_s[r], s);
        }
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_out));
        CHECK(cudaFree(d_b));
        CHECK(cudaFree(d_sums));
    }
    // compaction over 1000 values in blocks of 96 (the last warp partial)
    const int n = 1000;
    int *h_in = (int *)malloc(n * sizeof(int)), *h_out = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        h_in[i] = (i * 7919) % 1009;
    int *d_in, *d_out, *d_cnt, cnt = 0;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CHECK(cudaMalloc(&d_cnt, sizeof(int)));
    CHECK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_cnt, 0, sizeof(int)));
    compact<<<(n + 95) / 96, 96>>>(d_in, d_out, d_cnt, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(&cnt, d_cnt, sizeof cnt, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    int want = 0;
    for (int i = 0; i < n; i++)
        want += h_in[i] % 3 != 0;
    EXPECT(cnt == want, "compact count %d, want %d", cnt, want);
    // each warp's kept values stay in order within the warp's slice; all of them are there
    long sum = 0, wsum = 0;
    for (int i = 0; i < cnt; i++)
        sum += h_out[i];
    for (int i = 0; i < n; i++)
        if (h_in[i] % 3 != 0)
            wsum += h_in[i];
    EXPECT(sum == wsum, "compacted values sum %ld, want %ld", sum, wsum);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_cnt));
    free(h_in);
    free(h_out);
    printf("smp_warpmasks: PASSED\n");
    return 0;
}
