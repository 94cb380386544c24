// many_launches.cu - 2000 small launches and 2000 copies in a loop; the result is checked each round.
#include "cuda_check.h"

__global__ void add_step(int *x, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += (i ^ k) & 7;
}

int main()
{
    const int n = 256, rounds = 2000;
    int host[n], ref[n], *dx;
    for (int i = 0; i < n; i++)
        ref[i] = host[i] = i;
    CHECK(cudaMalloc(&dx, sizeof host));
    CHECK(cudaMemcpy(dx, host, sizeof host, cudaMemcpyHostToDevice));
    for (int k = 0; k < rounds; k++) {
        add_step<<<(n + 63) / 64, 64>>>(dx, n, k);
        CHECK(cudaGetLastError());
        for (int i = 0; i < n; i++)
            ref[i] += (i ^ k) & 7;
        // copy back one element per round (a copy is a synchronisation point)
        int one;
        CHECK(cudaMemcpy(&one, dx + (k % n), sizeof one, cudaMemcpyDeviceToHost));
        EXPECT(one == ref[k % n], "round %d: x[%d] = %d, want %d", k, k % n, one, ref[k % n]);
    }
    CHECK(cudaMemcpy(host, dx, sizeof host, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(host[i] == ref[i], "x[%d] = %d, want %d", i, host[i], ref[i]);
    CHECK(cudaFree(dx));
    printf("many_launches: %d launches PASSED\n", rounds);
    return 0;
}
