// vector_add.cu - c = a + b over a grid that does not divide the length; checked against the host.
// cuda-G-build
#include "cuda_check.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float sum = a[i] + b[i];
        c[i] = sum;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    EXPECT(n > 0 && n <= (1 << 20), "bad length %d", n);
    size_t bytes = n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    for (int i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = 2.0f * i + 1.0f;
    }
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaMalloc(&dc, bytes));
    CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dc, 0xff, bytes));
    int threads = 128, blocks = (n + threads - 1) / threads;
    vector_add<<<blocks, threads>>>(da, db, dc, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(c[i] == a[i] + b[i], "c[%d] = %g, want %g", i, c[i], a[i] + b[i]);
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    free(a); free(b); free(c);
    printf("vector_add: %d elements PASSED\n", n);
    return 0;
}
// cuda-static-build: G
