// rt_bench.cu - per-launch and per-copy overhead of the runtime: 10,000 empty launches, 10,000
// small copies each way, 10,000 cudaMalloc/cudaFree pairs, then the same launches and pairs
// with 100,000 allocations live, and the page faults a launch costs; prints microseconds per
// operation. "rt_bench launch N" makes only N empty launches and "rt_bench free N" only N
// cudaMalloc/cudaFree pairs (for instruction counts: callgrind with two N, the difference).
// cuda-test: 0 ^rt_bench:\sPASSED$ -
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include "cuda_check.h"

__global__ void empty() {}
__global__ void touch(int *p) { p[threadIdx.x] += 1; }
__global__ void touch_grid(int *p) { p[blockIdx.x * blockDim.x + threadIdx.x] += 1; }
// a local array indexed at run time: a frame of 1 KB per thread
__global__ void frame(int *p, int k)
{
    int a[256];
    for (int i = 0; i < 256; i++)
        a[i] = i * k + threadIdx.x;
    p[blockIdx.x * blockDim.x + threadIdx.x] = a[(threadIdx.x * 7 + k) & 255];
}

static double now_us()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

// one section alone, n times, after a first launch (the module's load) and a first pair
static int only(const char *what, int n)
{
    int *p;
    empty<<<1, 1>>>();
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMalloc(&p, 256));
    CHECK(cudaFree(p));
    if (!strcmp(what, "launch")) {
        for (int i = 0; i < n; i++)
            empty<<<1, 1>>>();
        CHECK(cudaDeviceSynchronize());
    } else if (!strcmp(what, "free")) {
        for (int i = 0; i < n; i++) {
            CHECK(cudaMalloc(&p, 256));
            CHECK(cudaFree(p));
        }
    } else {
        fprintf(stderr, "usage: rt_bench [launch|free N]\n");
        return 2;
    }
    printf("rt_bench: %s x %d\n", what, n);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3)
        return only(argv[1], atoi(argv[2]));
    const int n = 10000;
    int *d, h[64] = {0};
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemset(d, 0, sizeof h));   // touch reads it (initcheck)
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
    /* a launch must not churn the host heap: minor page faults of 10,000 small launches of a
       kernel with a 2 KB frame (the runtime's per-launch memory) */
    int *f;
    CHECK(cudaMalloc(&f, 512 * sizeof(int)));
    frame<<<2, 256>>>(f, 1);
    CHECK(cudaDeviceSynchronize());
    struct rusage r0, r1;
    getrusage(RUSAGE_SELF, &r0);
    double tf0 = now_us();
    for (int i = 0; i < n / 10; i++)
        frame<<<2, 256>>>(f, i);
    CHECK(cudaDeviceSynchronize());
    double tf1 = now_us();
    getrusage(RUSAGE_SELF, &r1);
    int hf[512];
    CHECK(cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost));
    int k = n / 10 - 1;
    for (int t = 0; t < 512; t++)
        EXPECT(hf[t] == ((t % 256) * 7 + k) % 256 * k + t % 256, "frame kernel result");
    CHECK(cudaFree(f));
    printf("launch <<<2,256>>> 1 KB frame %6.2f us, %.1f page faults\n", (tf1 - tf0) / (n / 10),
           (double)(r1.ru_minflt - r0.ru_minflt) / (n / 10));
    /* costs must not grow with the number of live allocations */
    const int live = 100000, m = 1000;
    int *g;
    CHECK(cudaMalloc(&g, 256 * sizeof(int)));
    CHECK(cudaMemset(g, 0, 256 * sizeof(int)));
    double tg0 = now_us();
    for (int i = 0; i < m; i++)
        touch_grid<<<8, 32>>>(g);     // several CTAs: parallel workers claim memory
    CHECK(cudaDeviceSynchronize());
    double tg1 = now_us();
    printf("launch <<<8,32>>>(ptr)      %8.2f us\n", (tg1 - tg0) / m);
    int **ps = (int **)malloc(sizeof *ps * live);
    EXPECT(ps != NULL, "host memory");
    for (int i = 0; i < live; i++)
        CHECK(cudaMalloc(&ps[i], 64));
    double t6 = now_us();
    for (int i = 0; i < m; i++)
        touch<<<1, 32>>>(d);
    CHECK(cudaDeviceSynchronize());
    double t6b = now_us();
    for (int i = 0; i < m; i++)
        touch_grid<<<8, 32>>>(g);     // several CTAs: parallel workers claim memory
    CHECK(cudaDeviceSynchronize());
    double t7 = now_us();
    int hg[256];
    CHECK(cudaMemcpy(hg, g, sizeof hg, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 256; t++)
        EXPECT(hg[t] == 2 * m, "grid launches");
    CHECK(cudaFree(g));
    for (int i = 0; i < m; i++) {
        int *p;
        CHECK(cudaMalloc(&p, 256));
        CHECK(cudaFree(p));
    }
    double t8 = now_us();
    for (int i = 0; i < live; i++)
        CHECK(cudaFree(ps[i]));
    double t9 = now_us();
    free(ps);
    printf("launch, 100000 live allocs  %8.2f us\n", (t6b - t6) / m);
    printf("<<<8,32>>>, 100000 live     %8.2f us\n", (t7 - t6b) / m);
    printf("malloc+free, 100000 live    %8.2f us\n", (t8 - t7) / m);
    printf("cudaFree of 100000 allocs   %8.2f us each\n", (t9 - t8) / live);
    CHECK(cudaFree(d));
    printf("rt_bench: PASSED\n");
    return 0;
}
