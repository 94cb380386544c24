// smp_edges.cu - host-side edge cases real programs hit: cudaFree(0) to create the context,
// zero-byte allocations, copies and memsets, an allocation too large for the device
// (cudaErrorMemoryAllocation, not sticky: later calls succeed and cudaGetLastError clears it),
// freeing twice, error names and strings, cudaMemcpy with cudaMemcpyDefault in every direction,
// cudaMemcpyAsync from pageable memory, events queried before recording, stream flags, and a
// device printf loop longer than a few lines.
#include "smp_helper.h"

__global__ void many_prints(int n)
{
    for (int i = 0; i < n; i++) printf("line %d of thread %d\n", i, threadIdx.x);
}
__global__ void incr(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i]++;
}

int main(int argc, char **argv)
{
    checkCudaErrors(cudaFree(0));
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    void *z = (void *)1;
    checkCudaErrors(cudaMalloc(&z, 0));
    checkCudaErrors(cudaFree(z));
    int *d;
    checkCudaErrors(cudaMalloc(&d, 1024 * sizeof(int)));
    checkCudaErrors(cudaMemcpy(d, d, 0, cudaMemcpyDeviceToDevice));
    checkCudaErrors(cudaMemset(d, 0, 0));
    void *huge = NULL;
    cudaError_t e = cudaMalloc(&huge, (size_t)1 << 50);
    if (e != cudaErrorMemoryAllocation) { printf("huge malloc gave %s\n", cudaGetErrorName(e)); ok = false; }
    if (cudaGetLastError() != cudaErrorMemoryAllocation) { printf("last error not the allocation failure\n"); ok = false; }
    if (cudaGetLastError() != cudaSuccess) { printf("allocation failure is sticky\n"); ok = false; }
    checkCudaErrors(cudaMemset(d, 0, 1024 * sizeof(int)));
    if (strcmp(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue") != 0 ||
        strlen(cudaGetErrorString(cudaErrorMemoryAllocation)) == 0) { printf("error names\n"); ok = false; }
    int h[1024], h2[1024];
    for (int i = 0; i < 1024; i++) h[i] = i;
    checkCudaErrors(cudaMemcpy(d, h, sizeof(h), cudaMemcpyDefault));
    incr<<<4, 256>>>(d, 1024);
    int *d2;
    checkCudaErrors(cudaMalloc(&d2, sizeof(h)));
    checkCudaErrors(cudaMemcpy(d2, d, sizeof(h), cudaMemcpyDefault));
    checkCudaErrors(cudaMemcpy(h2, d2, sizeof(h), cudaMemcpyDefault));
    for (int i = 0; i < 1024; i++) if (h2[i] != i + 1) { printf("memcpy default %d\n", i); ok = false; break; }
    int host_copy[1024];
    checkCudaErrors(cudaMemcpy(host_copy, h2, sizeof(h), cudaMemcpyDefault));
    if (host_copy[5] != 6) ok = false;
    int *pageable = (int *)malloc(sizeof(h));
    cudaStream_t s;
    checkCudaErrors(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    unsigned fl;
    checkCudaErrors(cudaStreamGetFlags(s, &fl));
    if (fl != cudaStreamNonBlocking) { printf("stream flags %u\n", fl); ok = false; }
    checkCudaErrors(cudaMemcpyAsync(pageable, d, sizeof(h), cudaMemcpyDeviceToHost, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    if (pageable[1023] != 1024) { printf("pageable async %d\n", pageable[1023]); ok = false; }
    cudaEvent_t ev;
    checkCudaErrors(cudaEventCreate(&ev));
    if (cudaEventQuery(ev) != cudaSuccess) { printf("unrecorded event not complete\n"); ok = false; }
    checkCudaErrors(cudaEventSynchronize(ev));
    checkCudaErrors(cudaFree(d2));
    e = cudaFree(d2);
    if (e == cudaSuccess) { printf("double free accepted\n"); ok = false; }
    cudaGetLastError();
    many_prints<<<1, 4>>>(50);
    checkCudaErrors(cudaDeviceSynchronize());
    fflush(stdout);
    SMP_RESULT("smp_edges", ok);
}
