// smp_ptsz.cu - UnifiedMemoryStreams-style host threading built with --default-stream per-thread:
// several host threads each launch into their own default stream and their own created streams,
// copy with cudaMemcpyAsync on stream 0 (the per-thread stream), synchronise with
// cudaStreamPerThread, and use large dynamic shared memory opted in with cudaFuncSetAttribute
// (cudaTensorCoreGemm/globalToShmemAsyncCopy size their shared memory this way). Also symbols:
// cudaMemcpyToSymbolAsync, cudaGetSymbolAddress/Size, blocking-sync events and device flags.
// nvcc-flags: --default-stream per-thread -std=c++17
#include "smp_helper.h"
#include <thread>
#include <vector>

__constant__ int c_coef[8];
__device__ int d_hits[4];

__global__ void big_smem(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    for (int i = threadIdx.x; i < n; i += blockDim.x) buf[i] = in[blockIdx.x * n + i];
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x) out[blockIdx.x * n + i] = buf[n - 1 - i] * c_coef[i % 8];
}
__global__ void work(float *x, int n, float a, int slot)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * a + 1.0f;
    if (i == 0) atomicAdd(&d_hits[slot], 1);
}

static void worker(int id, float *host, int n, bool *ok)
{
    float *d;
    checkCudaErrors(cudaMalloc(&d, n * sizeof(float)));
    checkCudaErrors(cudaMemcpyAsync(d, host, n * sizeof(float), cudaMemcpyHostToDevice, 0));
    for (int r = 0; r < 20; r++) work<<<(n + 255) / 256, 256>>>(d, n, 1.0f, id);
    cudaStream_t s;
    checkCudaErrors(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    checkCudaErrors(cudaStreamSynchronize(cudaStreamPerThread));
    work<<<(n + 255) / 256, 256, 0, s>>>(d, n, 2.0f, id);
    checkCudaErrors(cudaMemcpyAsync(host, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    checkCudaErrors(cudaStreamDestroy(s));
    checkCudaErrors(cudaFree(d));
    *ok = true;
    for (int i = 0; i < n; i++) if (host[i] != (float)((id + i % 5 + 20) * 2 + 1)) { printf("thread %d element %d: %f\n", id, i, host[i]); *ok = false; break; }
}

int main(int argc, char **argv)
{
    int dev = findCudaDevice(argc, (const char **)argv);
    checkCudaErrors(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    bool ok = true;
    int coef[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    checkCudaErrors(cudaMemcpyToSymbolAsync(c_coef, coef, sizeof(coef), 0, cudaMemcpyHostToDevice, cudaStreamPerThread));
    void *hits; size_t hsz;
    checkCudaErrors(cudaGetSymbolAddress(&hits, d_hits));
    checkCudaErrors(cudaGetSymbolSize(&hsz, d_hits));
    if (hsz != 16) { printf("symbol size %zu\n", hsz); ok = false; }
    checkCudaErrors(cudaMemset(hits, 0, hsz));
    // large dynamic shared memory: 96 KB needs the opt-in
    int optin;
    checkCudaErrors(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    int n = 96 * 1024 / 4;
    size_t smem = n * sizeof(int);
    if ((size_t)optin < smem) { printf("opt-in limit %d\n", optin); ok = false; }
    int *hin = (int *)malloc(2 * smem), *hout = (int *)malloc(2 * smem), *din, *dout;
    for (int i = 0; i < 2 * n; i++) hin[i] = i;
    checkCudaErrors(cudaMalloc(&din, 2 * smem)); checkCudaErrors(cudaMalloc(&dout, 2 * smem));
    checkCudaErrors(cudaMemcpy(din, hin, 2 * smem, cudaMemcpyHostToDevice));
    big_smem<<<2, 256, smem>>>(din, dout, n);
    if (cudaGetLastError() != cudaErrorInvalidValue) { printf("96 KB without the opt-in was accepted\n"); ok = false; }
    checkCudaErrors(cudaFuncSetAttribute(big_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    big_smem<<<2, 256, smem>>>(din, dout, n);
    getLastCudaError("big_smem");
    checkCudaErrors(cudaMemcpy(hout, dout, 2 * smem, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 2 && ok; b++) for (int i = 0; i < n; i++) if (hout[b * n + i] != hin[b * n + n - 1 - i] * coef[i % 8]) { printf("big smem %d %d\n", b, i); ok = false; break; }
    // host threads with per-thread default streams
    const int T = 4, N = 5000;
    std::vector<std::vector<float>> data(T, std::vector<float>(N));
    for (int t = 0; t < T; t++) for (int i = 0; i < N; i++) data[t][i] = (float)(t + i % 5);
    bool tok[T];
    std::vector<std::thread> th;
    for (int t = 0; t < T; t++) th.emplace_back(worker, t, data[t].data(), N, &tok[t]);
    for (auto &x : th) x.join();
    for (int t = 0; t < T; t++) ok &= tok[t];
    int h[4];
    checkCudaErrors(cudaMemcpyFromSymbol(h, d_hits, sizeof(h)));
    for (int t = 0; t < T; t++) if (h[t] != 21) { printf("hits[%d] = %d\n", t, h[t]); ok = false; }
    cudaEvent_t e;
    checkCudaErrors(cudaEventCreateWithFlags(&e, cudaEventBlockingSync));
    checkCudaErrors(cudaEventRecord(e, cudaStreamPerThread));
    checkCudaErrors(cudaEventSynchronize(e));
    if (cudaEventQuery(e) != cudaSuccess) ok = false;
    unsigned flags;
    checkCudaErrors(cudaGetDeviceFlags(&flags));
    if (!(flags & cudaDeviceScheduleBlockingSync)) { printf("device flags %x\n", flags); ok = false; }
    SMP_RESULT("smp_ptsz", ok);
}
