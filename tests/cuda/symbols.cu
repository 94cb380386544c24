// symbols.cu - __device__ and __constant__ variables through cudaMemcpyTo/FromSymbol and symbol addresses.
#include "cuda_check.h"

__constant__ float coeffs[4];
__constant__ int offset_c;
__device__ int counter;
__device__ float table[64];
__device__ int initialised[3] = {7, 8, 9};

// a __constant__ variable read through a plain pointer (its address from cudaGetSymbolAddress):
// constant memory is device memory a kernel may also read with ordinary loads
__global__ void sum_ptr(const float *p, int n, float *sum)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += p[i];
    *sum = s;
}

__global__ void poly(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = (float)(i + offset_c);
        out[i] = ((coeffs[3] * x + coeffs[2]) * x + coeffs[1]) * x + coeffs[0];
        table[i] = out[i] + initialised[i % 3];
        atomicAdd(&counter, 1);
    }
}

int main()
{
    const int n = 64;
    float c[4] = {1.0f, -2.0f, 0.5f, 0.25f};
    int off = 3, zero = 0;
    CHECK(cudaMemcpyToSymbol(coeffs, c, sizeof c));
    CHECK(cudaMemcpyToSymbol(offset_c, &off, sizeof off));
    CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof zero));
    // write coeffs[3] alone through an offset
    float c3 = 0.125f;
    CHECK(cudaMemcpyToSymbol(coeffs, &c3, sizeof c3, 3 * sizeof(float)));
    c[3] = c3;
    size_t sz;
    CHECK(cudaGetSymbolSize(&sz, table));
    EXPECT(sz == sizeof(float) * 64, "cudaGetSymbolSize(table) = %zu", sz);
    float *dtable;
    CHECK(cudaGetSymbolAddress((void **)&dtable, table));
    CHECK(cudaMemset(dtable, 0, sz));
    float *out;
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    poly<<<2, 32>>>(out, n);
    CHECK_LAUNCH();
    float h[n], t[n];
    int cnt, init[3];
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpyFromSymbol(t, table, sizeof t));
    CHECK(cudaMemcpyFromSymbol(&cnt, counter, sizeof cnt));
    CHECK(cudaMemcpyFromSymbol(init, initialised, sizeof init));
    EXPECT(cnt == n, "counter = %d want %d", cnt, n);
    EXPECT(init[0] == 7 && init[1] == 8 && init[2] == 9, "initialised = %d %d %d", init[0],
           init[1], init[2]);
    for (int i = 0; i < n; i++) {
        float x = (float)(i + off);
        float want = ((c[3] * x + c[2]) * x + c[1]) * x + c[0];
        EXPECT(h[i] == want, "out[%d] = %g want %g", i, h[i], want);
        EXPECT(t[i] == want + init[i % 3], "table[%d] = %g", i, t[i]);
    }
    // the symbol's device address also works with plain cudaMemcpy
    float first;
    CHECK(cudaMemcpy(&first, dtable, sizeof first, cudaMemcpyDeviceToHost));
    EXPECT(first == t[0], "table via address = %g", first);
    // device-to-device symbol copy
    CHECK(cudaMemcpyToSymbol(table, out, sizeof(float) * 8, 0, cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpyFromSymbol(t, table, sizeof(float) * 8));
    for (int i = 0; i < 8; i++)
        EXPECT(t[i] == h[i], "table[%d] after D2D = %g", i, t[i]);
    float *dcoeffs, csum;
    CHECK(cudaGetSymbolAddress((void **)&dcoeffs, coeffs));
    sum_ptr<<<1, 1>>>(dcoeffs, 4, out);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(&csum, out, sizeof csum, cudaMemcpyDeviceToHost));
    EXPECT(csum == c[0] + c[1] + c[2] + c[3], "sum of coeffs through a pointer = %g", csum);
    CHECK(cudaFree(out));
    printf("symbols: PASSED\n");
    return 0;
}
