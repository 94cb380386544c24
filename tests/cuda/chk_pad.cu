// chk_pad.cu - accesses a GPU completes although they leave their allocation (the hardware's
// granularity, docs/ARCHITECTURE.md): 1 KB read past a 2.25 MB allocation (as Rodinia's srad_v2
// does), 4 bytes read past an allocation of exactly 4 MB (whole 2 MB pages, as HeCBench's
// threadcpy does past 1 GB), and 4 bytes written past a 256-byte allocation, which must not
// reach the next allocation. A plain run completes like a GPU; memcheck reports all three.
#include "cuda_check.h"

__global__ void copy_past(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];                             // BUG: out-of-bounds
}

__global__ void read_one_past(const int *in, int *out, int n)
{
    *out = in[n];                                   // BUG: out-of-bounds
}

__global__ void write_one_past(int *a, int n)
{
    a[n] = 12345;                                   // BUG: out-of-bounds
}

int main()
{
    /* 2.25 MB of floats, read 256 floats (1 KB) past the end */
    const int n = 9 * 65536, extra = 256;
    float *in, *out;
    CHECK(cudaMalloc(&in, n * sizeof(float)));
    CHECK(cudaMalloc(&out, (n + extra) * sizeof(float)));
    float *h = (float *)malloc((n + extra) * sizeof(float));
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 1000);
    CHECK(cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice));
    copy_past<<<(n + extra + 255) / 256, 256>>>(in, out, n + extra);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h, out, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(h[i] == (float)(i % 1000), "out[%d] = %g", i, h[i]);
    /* exactly 4 MB: one int past the end */
    const int m = (4 << 20) / 4;
    int *big, *one;
    CHECK(cudaMalloc(&big, (size_t)m * sizeof(int)));
    CHECK(cudaMalloc(&one, sizeof(int)));
    read_one_past<<<1, 1>>>(big, one, m);
    CHECK_LAUNCH();
    /* a 256-byte allocation followed by another: a write past the first misses the second */
    int *a, *b;
    CHECK(cudaMalloc(&a, 256));
    CHECK(cudaMalloc(&b, 256));
    CHECK(cudaMemset(b, 0, 256));
    write_one_past<<<1, 1>>>(a, 64);
    CHECK_LAUNCH();
    int hb[64];
    CHECK(cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++)
        EXPECT(hb[i] == 0, "b[%d] = %d after a write past a", i, hb[i]);
    printf("chk_pad: PASSED\n");
    return 0;
}
