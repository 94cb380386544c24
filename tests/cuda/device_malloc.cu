// device_malloc.cu - malloc/free and new/delete inside kernels, with the device heap size set.
#include "cuda_check.h"

struct item {
    int key;
    int sq;
    __device__ item(int k) : key(k), sq(k * k) {}
};

__global__ void use_malloc(int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int len = 1 + t % 13;
    int *p = (int *)malloc(len * sizeof(int));
    if (!p) {
        out[t] = -1;
        return;
    }
    for (int k = 0; k < len; k++)
        p[k] = t + k;
    int s = 0;
    for (int k = 0; k < len; k++)
        s += p[k];
    free(p);
    if (t < n)
        out[t] = s;
}

__global__ void use_new(int *out)
{
    int t = threadIdx.x;
    item *it = new item(t + 1);
    int *arr = new int[4];
    for (int k = 0; k < 4; k++)
        arr[k] = it->sq + k;
    out[t] = arr[0] + arr[3] + it->key;
    delete[] arr;
    delete it;
}

// one thread allocates, another block's kernel reads it through a global pointer
__device__ int *shared_block;
__global__ void alloc_shared()
{
    shared_block = (int *)malloc(64 * sizeof(int));
    for (int k = 0; k < 64; k++)
        shared_block[k] = 3 * k;
}
__global__ void read_shared(int *sum)
{
    atomicAdd(sum, shared_block[threadIdx.x]);
}
__global__ void free_shared()
{
    free(shared_block);
}

int main()
{
    CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 8 << 20));
    size_t heap;
    CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    EXPECT(heap >= (8u << 20), "heap size %zu", heap);
    const int n = 512;
    int *out, h[n];
    CHECK(cudaMalloc(&out, n * sizeof(int)));
    use_malloc<<<n / 128, 128>>>(out, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t++) {
        int len = 1 + t % 13, s = 0;
        for (int k = 0; k < len; k++)
            s += t + k;
        EXPECT(h[t] == s, "malloc out[%d] = %d want %d", t, h[t], s);
    }
    use_new<<<1, 64>>>(out);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h, out, 64 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++) {
        int sq = (t + 1) * (t + 1);
        EXPECT(h[t] == sq + sq + 3 + t + 1, "new out[%d] = %d", t, h[t]);
    }
    int *sum;
    CHECK(cudaMalloc(&sum, sizeof(int)));
    CHECK(cudaMemset(sum, 0, sizeof(int)));
    alloc_shared<<<1, 1>>>();
    read_shared<<<1, 64>>>(sum);
    free_shared<<<1, 1>>>();
    CHECK_LAUNCH();
    int s;
    CHECK(cudaMemcpy(&s, sum, sizeof s, cudaMemcpyDeviceToHost));
    EXPECT(s == 3 * 63 * 64 / 2, "sum over device-allocated block %d", s);
    printf("device_malloc: PASSED\n");
    return 0;
}
