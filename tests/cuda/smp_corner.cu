// smp_corner.cu - corners real programs reach: pinned host memory dereferenced by kernels
// directly (unified addressing), initialised __device__/__constant__ data read back before any
// write, a large by-value parameter struct, recursion and function pointers in device code,
// dynamically indexed local arrays, launch configuration errors, a huge grid of tiny blocks,
// cudaDeviceReset in the middle of a program followed by more work.
#include "smp_helper.h"

__device__ int d_init[5] = {1, 2, 3, 4, 5};
__constant__ float c_init[3] = {0.5f, 1.5f, 2.5f};
struct Big { int v[1500]; float scale; };

__global__ void direct_host(int *pinned, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) pinned[i] = pinned[i] * 2 + d_init[i % 5];
}
__global__ void big_param(Big b, float *out)
{
    int i = threadIdx.x;
    float s = 0;
    for (int k = i; k < 1500; k += blockDim.x) s += b.v[k];
    atomicAdd(out, s * b.scale);
}
__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_mul(int a, int b) { return a * b; }
typedef int (*binop)(int, int);
__device__ binop d_ops[2] = {op_add, op_mul};
__global__ void rec(int *out)
{
    int t = threadIdx.x;
    int local[24];
    for (int k = 0; k < 24; k++) local[k] = k * t;
    out[t] = fib(t % 12) + local[(t * 7) % 24] + d_ops[t & 1](t, 3);
}
__global__ void tiny(unsigned *count) { if (threadIdx.x == 0) atomicAdd(count, 1u); }

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    int hinit[5]; float cinit[3];
    checkCudaErrors(cudaMemcpyFromSymbol(hinit, d_init, sizeof(hinit)));
    checkCudaErrors(cudaMemcpyFromSymbol(cinit, c_init, sizeof(cinit)));
    if (hinit[4] != 5 || cinit[2] != 2.5f) { printf("initialised symbols %d %f\n", hinit[4], cinit[2]); ok = false; }
    int n = 1000, *pinned;
    checkCudaErrors(cudaMallocHost(&pinned, n * sizeof(int)));
    for (int i = 0; i < n; i++) pinned[i] = i;
    direct_host<<<(n + 127) / 128, 128>>>(pinned, n);
    checkCudaErrors(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++) if (pinned[i] != 2 * i + (i % 5) + 1) { printf("pinned direct %d: %d\n", i, pinned[i]); ok = false; break; }
    Big *b = (Big *)malloc(sizeof(Big));
    for (int k = 0; k < 1500; k++) b->v[k] = k % 10;
    b->scale = 0.5f;
    float *dsum, hsum;
    checkCudaErrors(cudaMalloc(&dsum, 4));
    checkCudaErrors(cudaMemset(dsum, 0, 4));
    big_param<<<1, 64>>>(*b, dsum);
    getLastCudaError("big_param");
    checkCudaErrors(cudaMemcpy(&hsum, dsum, 4, cudaMemcpyDeviceToHost));
    if (hsum != 0.5f * 150 * 45) { printf("big param %f\n", hsum); ok = false; }
    int *dout, hout[64];
    checkCudaErrors(cudaMalloc(&dout, sizeof(hout)));
    rec<<<1, 64>>>(dout);
    getLastCudaError("rec");
    checkCudaErrors(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
    int f[12] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89};
    for (int t = 0; t < 64; t++) {
        int want = f[t % 12] + ((t * 7) % 24) * t + ((t & 1) ? t * 3 : t + 3);
        if (hout[t] != want) { printf("recursion/function pointers %d: %d vs %d\n", t, hout[t], want); ok = false; break; }
    }
    tiny<<<1, 1025>>>(NULL);
    cudaError_t e = cudaGetLastError();
    if (e != cudaErrorInvalidConfiguration) { printf("1025 threads gave %s\n", cudaGetErrorName(e)); ok = false; }
    tiny<<<dim3(1, 70000), 32>>>(NULL);
    e = cudaGetLastError();
    if (e != cudaErrorInvalidConfiguration) { printf("grid.y 70000 gave %s\n", cudaGetErrorName(e)); ok = false; }
    if (cudaGetLastError() != cudaSuccess) ok = false;
    unsigned *cnt, hc;
    checkCudaErrors(cudaMalloc(&cnt, 4));
    checkCudaErrors(cudaMemset(cnt, 0, 4));
    SmpTimer t; t.start();
    tiny<<<200000, 32>>>(cnt);
    float ms = t.stop();
    checkCudaErrors(cudaMemcpy(&hc, cnt, 4, cudaMemcpyDeviceToHost));
    printf("200000 blocks: %.1f ms\n", ms);
    if (hc != 200000) { printf("huge grid %u\n", hc); ok = false; }
    checkCudaErrors(cudaFreeHost(pinned));
    checkCudaErrors(cudaDeviceReset());
    int *again;
    checkCudaErrors(cudaMalloc(&again, 64 * sizeof(int)));
    rec<<<1, 64>>>(again);
    checkCudaErrors(cudaMemcpy(hout, again, sizeof(hout), cudaMemcpyDeviceToHost));
    if (hout[5] != f[5] + ((5 * 7) % 24) * 5 + 5 * 3) { printf("after reset %d\n", hout[5]); ok = false; }
    checkCudaErrors(cudaMemcpyFromSymbol(hinit, d_init, sizeof(hinit)));
    if (hinit[0] != 1) { printf("symbol after reset %d\n", hinit[0]); ok = false; }
    SMP_RESULT("smp_corner", ok);
}
