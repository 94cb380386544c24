// chk_init.cu - an accumulator from cudaMalloc that nobody zeroed (mode "none": initcheck's
// finding), and correct look-alikes that initialise it (cudaMemset, cudaMemsetAsync, cudaMemcpy,
// a previous kernel, managed memory the host zeroes); every mode also counts with an atomic on a
// module variable without an initialiser (zero by the PTX ISA: not a finding).
// cuda-G-build
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "cuda_check.h"

#define N 256

__device__ unsigned int launches;

__global__ void zero(int *acc, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        acc[i] = 0;
}

__global__ void accumulate(const int *in, int *acc, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        acc[i] += in[i];
    if (i == 0)
        atomicAdd(&launches, 1u);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "none";
    int h[N], back[N];
    for (int i = 0; i < N; i++)
        h[i] = 3 * i - 100;
    int *in, *acc;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    if (!strcmp(mode, "managed")) {
        CHECK(cudaMallocManaged(&acc, sizeof h));
        memset(acc, 0, sizeof h);
    } else {
        CHECK(cudaMalloc(&acc, sizeof h));
    }
    if (!strcmp(mode, "memset")) {
        CHECK(cudaMemset(acc, 0, sizeof h));
    } else if (!strcmp(mode, "async")) {
        CHECK(cudaMemsetAsync(acc, 0, sizeof h, 0));
    } else if (!strcmp(mode, "memcpy")) {
        int z[N] = {0};
        CHECK(cudaMemcpy(acc, z, sizeof z, cudaMemcpyHostToDevice));
    } else if (!strcmp(mode, "kernel")) {
        zero<<<2, 128>>>(acc, N);
    }
    accumulate<<<2, 128>>>(in, acc, N);
    CHECK(cudaMemcpy(back, acc, sizeof back, cudaMemcpyDeviceToHost));
    unsigned int n = 0;
    CHECK(cudaMemcpyFromSymbol(&n, launches, sizeof n));
    for (int i = 0; i < N; i++)
        if (back[i] != h[i]) {
            printf("chk_init: FAILED acc[%d] = %d, want %d\n", i, back[i], h[i]);
            return 1;
        }
    if (n != 1) {
        printf("chk_init: FAILED %u launches counted\n", n);
        return 1;
    }
    printf("chk_init: PASSED\n");
    return 0;
}
