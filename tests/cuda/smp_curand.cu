// smp_curand.cu - the cuRAND device API as Monte Carlo samples use it: curand_init with per-thread
// subsequences (XORWOW skip-ahead tables), curand_uniform/normal, Philox and MRG32k3a states,
// estimating pi and a normal mean, and reproducibility: the same seed gives the same numbers.
#include "smp_helper.h"
#include <curand_kernel.h>

__global__ void setup(curandState *st, unsigned long long seed)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(seed, id, 0, &st[id]);
}
__global__ void pi_kernel(curandState *st, int n, unsigned *hits, float *first)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState s = st[id];
    unsigned c = 0;
    for (int i = 0; i < n; i++) {
        float x = curand_uniform(&s), y = curand_uniform(&s);
        if (i == 0) first[id] = x;
        if (x * x + y * y <= 1.0f) c++;
    }
    st[id] = s;
    atomicAdd(hits, c);
}
__global__ void philox_normal(unsigned long long seed, int n, float *sum, float *sq)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandStatePhilox4_32_10_t s;
    curand_init(seed, id, 0, &s);
    float a = 0, b = 0;
    for (int i = 0; i < n; i++) {
        float4 v = curand_normal4(&s);
        a += v.x + v.y + v.z + v.w;
        b += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
    }
    atomicAdd(sum, a);
    atomicAdd(sq, b);
}
__global__ void mrg(unsigned long long seed, unsigned *out)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandStateMRG32k3a s;
    curand_init(seed, id, 0, &s);
    out[id] = curand(&s);
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    const int blocks = 8, threads = 64, T = blocks * threads, n = 200;
    curandState *st;
    unsigned *hits, h;
    float *first, f1[T], f2[T];
    checkCudaErrors(cudaMalloc(&st, T * sizeof(curandState)));
    checkCudaErrors(cudaMalloc(&hits, 4));
    checkCudaErrors(cudaMalloc(&first, T * sizeof(float)));
    checkCudaErrors(cudaMemset(hits, 0, 4));
    setup<<<blocks, threads>>>(st, 1234);
    getLastCudaError("setup");
    pi_kernel<<<blocks, threads>>>(st, n, hits, first);
    checkCudaErrors(cudaMemcpy(&h, hits, 4, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(f1, first, sizeof(f1), cudaMemcpyDeviceToHost));
    double pi = 4.0 * h / ((double)T * n);
    printf("pi estimate %f\n", pi);
    if (fabs(pi - 3.14159265) > 0.05) ok = false;
    setup<<<blocks, threads>>>(st, 1234);
    pi_kernel<<<blocks, threads>>>(st, 1, hits, first);
    checkCudaErrors(cudaMemcpy(f2, first, sizeof(f2), cudaMemcpyDeviceToHost));
    for (int i = 0; i < T; i++) if (f1[i] != f2[i] || !(f1[i] > 0.0f && f1[i] <= 1.0f)) { printf("reproducible %d\n", i); ok = false; break; }
    int distinct = 0;
    for (int i = 1; i < T; i++) distinct += f1[i] != f1[0];
    if (distinct < T - 3) { printf("subsequences not distinct\n"); ok = false; }
    float *sum, *sq, hs, hq;
    checkCudaErrors(cudaMalloc(&sum, 4)); checkCudaErrors(cudaMalloc(&sq, 4));
    checkCudaErrors(cudaMemset(sum, 0, 4)); checkCudaErrors(cudaMemset(sq, 0, 4));
    philox_normal<<<blocks, threads>>>(42, 50, sum, sq);
    checkCudaErrors(cudaMemcpy(&hs, sum, 4, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(&hq, sq, 4, cudaMemcpyDeviceToHost));
    double N = (double)T * 50 * 4, mean = hs / N, var = hq / N - mean * mean;
    printf("normal mean %f variance %f\n", mean, var);
    if (fabs(mean) > 0.02 || fabs(var - 1.0) > 0.03) ok = false;
    unsigned *dm, hm[T];
    checkCudaErrors(cudaMalloc(&dm, sizeof(hm)));
    mrg<<<blocks, threads>>>(7, dm);
    checkCudaErrors(cudaMemcpy(hm, dm, sizeof(hm), cudaMemcpyDeviceToHost));
    int same = 0;
    for (int i = 1; i < T; i++) same += hm[i] == hm[0];
    if (same > 2) { printf("mrg32k3a streams repeat\n"); ok = false; }
    SMP_RESULT("smp_curand", ok);
}
