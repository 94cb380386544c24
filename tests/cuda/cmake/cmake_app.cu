// cmake_app.cu - a program as CMake builds it by default (static CUDA runtime): a kernel over
// a stream with an event, a reduction into a __device__ variable, device printf.
#include <cstdio>
#include <cstdlib>

__device__ unsigned long long total;

__global__ void square_sum(const int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&total, (unsigned long long)x[i] * x[i]);
    if (i == 0)
        printf("cmake_app: kernel of %d blocks\n", gridDim.x);
}

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAILED: %s returned %s\n", #call, cudaGetErrorName(e_)); return 1; } } while (0)

int main()
{
    const int n = 5000;
    int *h = (int *)malloc(n * sizeof(int)), *d;
    unsigned long long want = 0, got = 0;
    for (int i = 0; i < n; i++) {
        h[i] = i % 97 - 40;
        want += (unsigned long long)(h[i] * h[i]);
    }
    cudaStream_t s;
    cudaEvent_t done;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaEventCreate(&done));
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, s));
    square_sum<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(done, s));
    CHECK(cudaEventSynchronize(done));
    CHECK(cudaMemcpyFromSymbol(&got, total, sizeof got));
    if (got != want) {
        printf("FAILED: sum of squares %llu, want %llu\n", got, want);
        return 1;
    }
    CHECK(cudaFree(d));
    CHECK(cudaStreamDestroy(s));
    free(h);
    printf("cmake_app: sum of squares %llu PASSED\n", got);
    return 0;
}
