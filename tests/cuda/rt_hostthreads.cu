// rt_hostthreads.cu - host threads are not serialised on kernels: while a kernel launched by one
// thread spins until another thread's cudaMemcpyAsync result is visible, that thread allocates,
// copies, records and queries on its own stream; meanwhile two more threads run their own
// kernels and copies on their own streams. A copy that waited for the unrelated kernel would
// never complete (the kernel waits for it): no timing is assumed.
// cuda-G-build
#include "cuda_check.h"
#include <atomic>
#include <thread>

__global__ void wait_for_copy(volatile int *gate, int want, int *out)
{
    while (*gate != want)
        ;
    *out = *gate + 1;
}

__global__ void scale(float *x, int n, float a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = a * x[i] + 1.0f;
}

static std::atomic<int> launched{0};
static int fail[4];

// thread 0: the kernel that waits for thread 1's copy
static void spinner(int *gate, int *out)
{
    cudaStream_t s;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) {
        fail[0] = 1;
        return;
    }
    wait_for_copy<<<1, 32, 0, s>>>(gate, 4242, out);
    if (cudaGetLastError() != cudaSuccess)
        fail[0] = 2;
    launched = 1;   // the launch returned while the kernel spins
    if (cudaStreamSynchronize(s) != cudaSuccess)
        fail[0] = 3;
    cudaStreamDestroy(s);
}

// thread 1: allocations, copies, an event, while thread 0's kernel spins
static void copier(int *gate)
{
    while (!launched)
        ;
    cudaStream_t s;
    int *scratch, *pinned;
    cudaEvent_t ev;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess ||
        cudaMalloc(&scratch, 1 << 16) != cudaSuccess ||
        cudaMallocHost(&pinned, 64 * sizeof(int)) != cudaSuccess ||
        cudaEventCreate(&ev) != cudaSuccess) {
        fail[1] = 1;
        return;
    }
    for (int i = 0; i < 64; i++)
        pinned[i] = 4242 + i;
    if (cudaMemcpyAsync(scratch, pinned, 64 * sizeof(int), cudaMemcpyHostToDevice, s) ||
        cudaMemcpyAsync(pinned + 32, scratch, sizeof(int), cudaMemcpyDeviceToHost, s) ||
        cudaEventRecord(ev, s) || cudaEventSynchronize(ev) || cudaStreamQuery(s))
        fail[1] = 2;
    if (pinned[32] != 4242)
        fail[1] = 3;
    // the copy the kernel waits for
    if (cudaMemcpyAsync(gate, pinned, sizeof(int), cudaMemcpyHostToDevice, s) ||
        cudaStreamSynchronize(s))
        fail[1] = 4;
    cudaEventDestroy(ev);
    cudaFreeHost(pinned);
    cudaFree(scratch);
    cudaStreamDestroy(s);
}

// threads 2 and 3: their own work, start to end
static void worker(int id)
{
    const int n = 4096;
    cudaStream_t s;
    float *d, *h;
    if (cudaStreamCreate(&s) != cudaSuccess || cudaMalloc(&d, n * sizeof(float)) != cudaSuccess ||
        cudaMallocHost(&h, n * sizeof(float)) != cudaSuccess) {
        fail[id] = 1;
        return;
    }
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 100);
    cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
    for (int r = 0; r < 3; r++)
        scale<<<n / 256, 256, 0, s>>>(d, n, (float)id);
    cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
    if (cudaStreamSynchronize(s) != cudaSuccess)
        fail[id] = 2;
    for (int i = 0; i < n; i++) {
        float x = (float)(i % 100);
        for (int r = 0; r < 3; r++)
            x = (float)id * x + 1.0f;
        if (h[i] != x)
            fail[id] = 3;
    }
    cudaFreeHost(h);
    cudaFree(d);
    cudaStreamDestroy(s);
}

int main()
{
    int *gate, *out;
    CHECK(cudaMalloc(&gate, sizeof(int)));
    CHECK(cudaMemset(gate, 0, sizeof(int)));
    CHECK(cudaMallocManaged(&out, sizeof(int)));
    *out = 0;
    std::thread t0(spinner, gate, out), t1(copier, gate), t2(worker, 2), t3(worker, 3);
    t0.join();
    t1.join();
    t2.join();
    t3.join();
    for (int i = 0; i < 4; i++)
        EXPECT(fail[i] == 0, "thread %d failed (%d)", i, fail[i]);
    CHECK(cudaDeviceSynchronize());
    EXPECT(*out == 4243, "the kernel saw %d", *out - 1);
    printf("rt_hostthreads: PASSED\n");
    return 0;
}
