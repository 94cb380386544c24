// smp_matmul.cu - tiled shared-memory matrix multiply (templated tile size), timed with events,
// checked against a host product with a relative tolerance; also vector add with a grid-stride loop.
// cuda-G-build
#include "smp_helper.h"
#include <math.h>

template <int TILE>
__global__ void matmul_tiled(float *C, const float *A, const float *B, int wA, int wB)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int aBegin = wA * TILE * by, aEnd = aBegin + wA - 1, aStep = TILE;
    int bBegin = TILE * bx, bStep = TILE * wB;
    float acc = 0.0f;
    for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    int c = wB * TILE * by + TILE * bx;
    C[c + wB * ty + tx] = acc;
}

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
    for (int i = blockDim.x * blockIdx.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        c[i] = a[i] + b[i] + 0.0f;
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    const int T = 16, hA = 4 * T, wA = 6 * T, wB = 5 * T;
    size_t nA = hA * wA, nB = wA * wB, nC = hA * wB;
    float *hAp, *hBp, *hCp;
    checkCudaErrors(cudaMallocHost(&hAp, nA * sizeof(float)));
    checkCudaErrors(cudaMallocHost(&hBp, nB * sizeof(float)));
    hCp = (float *)malloc(nC * sizeof(float));
    for (size_t i = 0; i < nA; i++) hAp[i] = 1.0f;
    for (size_t i = 0; i < nB; i++) hBp[i] = 0.01f * (float)(i % 37);
    float *dA, *dB, *dC;
    checkCudaErrors(cudaMalloc(&dA, nA * sizeof(float)));
    checkCudaErrors(cudaMalloc(&dB, nB * sizeof(float)));
    checkCudaErrors(cudaMalloc(&dC, nC * sizeof(float)));
    cudaStream_t s;
    checkCudaErrors(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    checkCudaErrors(cudaMemcpyAsync(dA, hAp, nA * sizeof(float), cudaMemcpyHostToDevice, s));
    checkCudaErrors(cudaMemcpyAsync(dB, hBp, nB * sizeof(float), cudaMemcpyHostToDevice, s));
    dim3 threads(T, T), grid(wB / T, hA / T);
    matmul_tiled<T><<<grid, threads, 0, s>>>(dC, dA, dB, wA, wB);
    getLastCudaError("warmup");
    checkCudaErrors(cudaStreamSynchronize(s));
    SmpTimer t;
    t.start(s);
    const int iters = 10;
    for (int j = 0; j < iters; j++)
        matmul_tiled<T><<<grid, threads, 0, s>>>(dC, dA, dB, wA, wB);
    float ms = t.stop(s);
    double flops = 2.0 * hA * wA * wB;
    printf("Performance= %.2f GFlop/s, Time= %.3f msec, Size= %.0f Ops, WorkgroupSize= %u threads/block\n",
           (flops * 1e-9) / ((ms / iters) / 1000.0 + 1e-12), ms / iters, flops, threads.x * threads.y);
    checkCudaErrors(cudaMemcpyAsync(hCp, dC, nC * sizeof(float), cudaMemcpyDeviceToHost, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    bool ok = true;
    for (int r = 0; r < hA && ok; r++)
        for (int c = 0; c < wB; c++) {
            double ref = 0;
            for (int k = 0; k < wA; k++) ref += (double)hAp[r * wA + k] * hBp[k * wB + c];
            double err = fabs(hCp[r * wB + c] - ref), rel = err / (fabs(ref) + 1e-6);
            if (rel > 1e-5 && err > 1e-4) {
                printf("Error! Matrix[%05d]=%.8f, ref=%.8f error term is > %E\n", r * wB + c,
                       hCp[r * wB + c], ref, 1e-5);
                ok = false;
                break;
            }
        }
    // vector add
    int n = 50000;
    float *a, *b, *c;
    checkCudaErrors(cudaMalloc(&a, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&b, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&c, n * sizeof(float)));
    float *ha = (float *)malloc(n * 4), *hb = (float *)malloc(n * 4), *hc = (float *)malloc(n * 4);
    for (int i = 0; i < n; i++) { ha[i] = rand() / (float)RAND_MAX; hb[i] = rand() / (float)RAND_MAX; }
    checkCudaErrors(cudaMemcpy(a, ha, n * 4, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(b, hb, n * 4, cudaMemcpyHostToDevice));
    int tpb = 256, bpg = (n + tpb - 1) / tpb;
    printf("CUDA kernel launch with %d blocks of %d threads\n", bpg, tpb);
    vadd<<<bpg, tpb>>>(a, b, c, n);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaMemcpy(hc, c, n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (fabs(ha[i] + hb[i] - hc[i]) > 1e-5) { printf("Result verification failed at element %d!\n", i); ok = false; break; }
    checkCudaErrors(cudaFree(a)); checkCudaErrors(cudaFree(b)); checkCudaErrors(cudaFree(c));
    checkCudaErrors(cudaFreeHost(hAp)); checkCudaErrors(cudaFreeHost(hBp));
    checkCudaErrors(cudaFree(dA)); checkCudaErrors(cudaFree(dB)); checkCudaErrors(cudaFree(dC));
    checkCudaErrors(cudaStreamDestroy(s));
    checkCudaErrors(cudaDeviceReset());
    SMP_RESULT("smp_matmul", ok);
}
