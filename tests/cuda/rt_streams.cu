// rt_streams.cu - streams, events, callbacks and host functions in stream order, a stream
// waiting on an event of another, elapsed times, and launches from several host threads at once.
// cuda-test: 0 ^rt_streams:\sPASSED$ -
#include <pthread.h>
#include "cuda_check.h"

__global__ void fill(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v + i;
}

__global__ void twice(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] *= 2;
}

static int order[8], norder;
static int *watched;
static void CUDART_CB on_stream(cudaStream_t, cudaError_t st, void *u)
{
    order[norder++] = st == cudaSuccess ? *(int *)u : -1;
}
static void CUDART_CB host_fn(void *u)
{
    order[norder++] = *(int *)u + watched[0];   // the kernel before it has finished
}

static void *worker(void *arg)
{
    long id = (long)arg, bad = 0;
    const int n = 4096;
    int *d, *h = (int *)malloc(n * sizeof(int));
    cudaStream_t s;
    if (cudaStreamCreate(&s) != cudaSuccess || cudaMalloc(&d, n * sizeof(int)) != cudaSuccess)
        return (void *)1;
    for (int it = 0; it < 20; it++)
        fill<<<(n + 127) / 128, 128, 0, s>>>(d, n, (int)id * 1000 + it);
    cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s);
    if (cudaStreamSynchronize(s) != cudaSuccess)
        bad++;
    for (int i = 0; i < n; i++)
        bad += h[i] != (int)id * 1000 + 19 + i;
    cudaFree(d);
    cudaStreamDestroy(s);
    free(h);
    return (void *)bad;
}

int main()
{
    const int n = 1000;
    int *d;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    watched = d;
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    unsigned flags;
    CHECK(cudaStreamGetFlags(s2, &flags));
    EXPECT(flags == cudaStreamNonBlocking, "stream flags %u", flags);
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    int one = 1, two = 2, ten = 10;
    CHECK(cudaEventRecord(a, s1));
    CHECK(cudaStreamAddCallback(s1, on_stream, &one, 0));
    fill<<<(n + 255) / 256, 256, 0, s1>>>(d, n, 100);
    CHECK(cudaLaunchHostFunc(s1, host_fn, &two));
    CHECK(cudaEventRecord(b, s1));
    CHECK(cudaStreamWaitEvent(s2, b, 0));
    twice<<<(n + 255) / 256, 256, 0, s2>>>(d, n);
    CHECK(cudaStreamAddCallback(s2, on_stream, &ten, 0));
    CHECK(cudaStreamSynchronize(s2));
    CHECK(cudaEventSynchronize(b));
    CHECK(cudaEventQuery(b));
    CHECK(cudaStreamQuery(s1));
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    EXPECT(ms >= 0, "elapsed %f ms", ms);
    EXPECT(norder == 3 && order[0] == 1 && order[1] == 102 && order[2] == 10,
           "callback order %d: %d %d %d", norder, order[0], order[1], order[2]);
    int h[n];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(h[i] == 2 * (100 + i), "element %d: %d", i, h[i]);
    cudaEvent_t nt;
    CHECK(cudaEventCreateWithFlags(&nt, cudaEventDisableTiming));
    CHECK(cudaEventRecord(nt, 0));
    EXPECT(cudaEventElapsedTime(&ms, a, nt) == cudaErrorInvalidResourceHandle,
           "elapsed time of an event without timing");
    cudaGetLastError();
    CHECK(cudaEventDestroy(nt));

    pthread_t th[4];
    for (long i = 0; i < 4; i++)
        pthread_create(&th[i], 0, worker, (void *)i);
    long bad = 0;
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(th[i], &r);
        bad += (long)r;
    }
    EXPECT(bad == 0, "%ld wrong values from the host threads", bad);
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    EXPECT(cudaStreamDestroy(s2) == cudaErrorInvalidResourceHandle, "destroying twice");
    cudaGetLastError();
    CHECK(cudaFree(d));
    printf("rt_streams: PASSED\n");
    return 0;
}
