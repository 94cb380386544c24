// rt_bench.cu - per-launch and per-copy overhead of the runtime: 10,000 empty launches, 10,000
// small copies each way, 10,000 cudaMalloc/cudaFree pairs; prints microseconds per operation.
// cuda-test: 0 ^rt_bench:\sPASSED$ -
#include <stdio.h>
#include <time.h>
#include "cuda_check.h"

__global__ void empty() {}
__global__ void touch(int *p) { p[threadIdx.x] += 1; }

static double now_us()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main()
{
    const int n = 10000;
    int *d, h[64] = {0};
    CHECK(cudaMalloc(&d, sizeof h));
    empty<<<1, 1>>>();   // loads the module
    CHECK(cudaDeviceSynchronize());
    double t0 = now_us();
    for (int i = 0; i < n; i++)
        empty<<<1, 1>>>();
    CHECK(cudaDeviceSynchronize());
    double t1 = now_us();
    for (int i = 0; i < n; i++)
        touch<<<1, 32>>>(d);
    CHECK(cudaDeviceSynchronize());
    double t2 = now_us();
    for (int i = 0; i < n; i++)
        CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    double t3 = now_us();
    for (int i = 0; i < n; i++)
        CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    double t4 = now_us();
    for (int i = 0; i < n; i++) {
        int *p;
        CHECK(cudaMalloc(&p, 256));
        CHECK(cudaFree(p));
    }
    double t5 = now_us();
    EXPECT(h[0] == 0, "copies round trip");
    printf("empty launch <<<1,1>>>      %8.2f us\n", (t1 - t0) / n);
    printf("launch <<<1,32>>>(ptr)      %8.2f us\n", (t2 - t1) / n);
    printf("cudaMemcpy 256 B H2D        %8.2f us\n", (t3 - t2) / n);
    printf("cudaMemcpy 256 B D2H        %8.2f us\n", (t4 - t3) / n);
    printf("cudaMalloc+cudaFree 256 B   %8.2f us\n", (t5 - t4) / n);
    CHECK(cudaFree(d));
    printf("rt_bench: PASSED\n");
    return 0;
}
