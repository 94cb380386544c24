// streams_events.cu - in-order streams, events with elapsed time, cross-stream waits and host callbacks.
#include "cuda_check.h"

__global__ void step(int *x, int n, int mul, int add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * mul + add;
}

__global__ void spin_work(unsigned *x, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned v = x[i];
        for (int k = 0; k < iters; k++)
            v = v * 1103515245u + 12345u;
        x[i] = v;
    }
}

static int order[16], norder;
static void CUDART_CB record_cb(cudaStream_t, cudaError_t status, void *arg)
{
    if (status == cudaSuccess)
        order[norder++] = (int)(size_t)arg;
}
static void CUDART_CB host_fn(void *arg)
{
    order[norder++] = (int)(size_t)arg;
}

int main()
{
    const int n = 4096;
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    int *x, *y, *hx;
    CHECK(cudaMalloc(&x, n * sizeof(int)));
    CHECK(cudaMalloc(&y, n * sizeof(int)));
    CHECK(cudaMallocHost(&hx, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        hx[i] = i;
    // ordering within one stream: (x*2+1)*3+2 then copy to y on s2 after an event
    cudaEvent_t done1, t0, t1;
    CHECK(cudaEventCreate(&done1));
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    CHECK(cudaMemcpyAsync(x, hx, n * sizeof(int), cudaMemcpyHostToDevice, s1));
    CHECK(cudaStreamAddCallback(s1, record_cb, (void *)1, 0));
    step<<<n / 256, 256, 0, s1>>>(x, n, 2, 1);
    CHECK(cudaLaunchHostFunc(s1, host_fn, (void *)2));
    step<<<n / 256, 256, 0, s1>>>(x, n, 3, 2);
    CHECK(cudaEventRecord(done1, s1));
    CHECK(cudaStreamWaitEvent(s2, done1, 0));
    CHECK(cudaMemcpyAsync(y, x, n * sizeof(int), cudaMemcpyDeviceToDevice, s2));
    step<<<n / 256, 256, 0, s2>>>(y, n, 1, 5);
    CHECK(cudaLaunchHostFunc(s2, host_fn, (void *)3));
    CHECK(cudaMemcpyAsync(hx, y, n * sizeof(int), cudaMemcpyDeviceToHost, s2));
    CHECK(cudaStreamSynchronize(s2));
    for (int i = 0; i < n; i++)
        EXPECT(hx[i] == (i * 2 + 1) * 3 + 2 + 5, "y[%d] = %d", i, hx[i]);
    CHECK(cudaStreamSynchronize(s1));
    EXPECT(norder == 3 && order[0] == 1 && order[1] == 2 && order[2] == 3,
           "callback order %d: %d %d %d", norder, order[0], order[1], order[2]);
    EXPECT(cudaEventQuery(done1) == cudaSuccess, "event not complete after synchronize");
    EXPECT(cudaStreamQuery(s1) == cudaSuccess, "stream s1 not idle");

    // timing: the elapsed time of real work is positive and finite
    unsigned *f;
    CHECK(cudaMalloc(&f, n * sizeof(unsigned)));
    CHECK(cudaMemset(f, 0, n * sizeof(unsigned)));
    CHECK(cudaEventRecord(t0, s1));
    spin_work<<<n / 256, 256, 0, s1>>>(f, n, 200);
    CHECK(cudaEventRecord(t1, s1));
    CHECK(cudaEventSynchronize(t1));
    float ms = -1.0f;
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
    EXPECT(ms > 0.0f && ms < 1.0e7f, "elapsed time %g ms", ms);
    unsigned hf[4];
    CHECK(cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost));
    unsigned v = 0;
    for (int k = 0; k < 200; k++)
        v = v * 1103515245u + 12345u;
    EXPECT(hf[0] == v && hf[3] == v, "spin_work result %u want %u", hf[0], v);
    // an event without timing cannot be timed
    cudaEvent_t nt;
    CHECK(cudaEventCreateWithFlags(&nt, cudaEventDisableTiming));
    CHECK(cudaEventRecord(nt, s1));
    CHECK(cudaEventSynchronize(nt));
    EXPECT(cudaEventElapsedTime(&ms, t0, nt) == cudaErrorInvalidResourceHandle,
           "elapsed time on a DisableTiming event did not fail");
    cudaGetLastError();

    CHECK(cudaEventDestroy(done1));
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    CHECK(cudaEventDestroy(nt));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree(f));
    CHECK(cudaFreeHost(hx));
    printf("streams_events: PASSED\n");
    return 0;
}
// cuda-static-build
