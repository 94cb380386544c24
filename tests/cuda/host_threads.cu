// host_threads.cu - four host threads, each with its own stream, buffers and kernels, at the same time.
#include "cuda_check.h"
#include <thread>
#include <vector>

__global__ void affine(int *x, int n, int a, int b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = a * x[i] + b;
}

static int results[4];

static void worker(int id)
{
    const int n = 3000;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = i + id;
    cudaStream_t s;
    int *d;
    if (cudaStreamCreate(&s) != cudaSuccess || cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) {
        results[id] = 2;
        return;
    }
    cudaMemcpyAsync(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice, s);
    for (int r = 0; r < 50; r++)
        affine<<<(n + 255) / 256, 256, 0, s>>>(d, n, 1, id + 1);
    cudaMemcpyAsync(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s);
    if (cudaStreamSynchronize(s) != cudaSuccess) {
        results[id] = 3;
        return;
    }
    int ok = 1;
    for (int i = 0; i < n; i++)
        if (h[i] != i + id + 50 * (id + 1))
            ok = 0;
    cudaFree(d);
    cudaStreamDestroy(s);
    results[id] = ok ? 0 : 4;
}

int main()
{
    std::vector<std::thread> ts;
    for (int id = 0; id < 4; id++)
        ts.emplace_back(worker, id);
    for (auto &t : ts)
        t.join();
    for (int id = 0; id < 4; id++)
        EXPECT(results[id] == 0, "thread %d failed (%d)", id, results[id]);
    CHECK(cudaDeviceSynchronize());
    printf("host_threads: PASSED\n");
    return 0;
}
