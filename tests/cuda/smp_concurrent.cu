// smp_concurrent.cu - concurrentKernels / simpleHyperQ pattern: kernels that spin on clock64()
// for a number of cycles derived from the device clock rate, launched into several streams,
// joined with cudaStreamWaitEvent on the last stream, then a reduction of their outputs.
#include "smp_helper.h"

__global__ void clock_block(clock_t *d_o, clock_t clock_count)
{
    unsigned int start_clock = (unsigned int)clock();
    clock_t clock_offset = 0;
    while (clock_offset < clock_count) {
        unsigned int end_clock = (unsigned int)clock();
        clock_offset = (clock_t)(end_clock - start_clock);
    }
    d_o[0] = clock_offset;
}
__global__ void clock64_block(long long *d_o, long long clock_count)
{
    long long start = clock64(), off = 0;
    while (off < clock_count) off = clock64() - start;
    d_o[0] = off;
}
__global__ void sum(clock_t *d_clocks, int N)
{
    __shared__ clock_t s_clocks[32];
    clock_t my_sum = 0;
    for (int i = threadIdx.x; i < N; i += blockDim.x) my_sum += d_clocks[i];
    s_clocks[threadIdx.x] = my_sum;
    __syncthreads();
    for (int i = 16; i > 0; i /= 2) {
        if (threadIdx.x < i) s_clocks[threadIdx.x] += s_clocks[threadIdx.x + i];
        __syncthreads();
    }
    d_clocks[0] = s_clocks[0];
}

int main(int argc, char **argv)
{
    int cuda_device = findCudaDevice(argc, (const char **)argv);
    int nkernels = 8, nstreams = nkernels + 1;
    float kernel_time = 10;
    cudaDeviceProp deviceProp;
    checkCudaErrors(cudaGetDeviceProperties(&deviceProp, cuda_device));
    if (deviceProp.concurrentKernels == 0) printf("> GPU does not support concurrent kernel execution\n");
    printf("> Detected Compute SM %d.%d hardware with %d multi-processors\n", deviceProp.major, deviceProp.minor,
           deviceProp.multiProcessorCount);
    clock_t *a = 0;
    checkCudaErrors(cudaMallocHost((void **)&a, nkernels * sizeof(clock_t)));
    clock_t *d_a = 0;
    checkCudaErrors(cudaMalloc((void **)&d_a, nkernels * sizeof(clock_t)));
    cudaStream_t *streams = (cudaStream_t *)malloc(nstreams * sizeof(cudaStream_t));
    for (int i = 0; i < nstreams; i++) checkCudaErrors(cudaStreamCreate(&(streams[i])));
    cudaEvent_t start_event, stop_event;
    checkCudaErrors(cudaEventCreate(&start_event));
    checkCudaErrors(cudaEventCreate(&stop_event));
    cudaEvent_t *kernelEvent = (cudaEvent_t *)malloc(nkernels * sizeof(cudaEvent_t));
    for (int i = 0; i < nkernels; i++) checkCudaErrors(cudaEventCreateWithFlags(&(kernelEvent[i]), cudaEventDisableTiming));
    int clockRate;
    checkCudaErrors(cudaDeviceGetAttribute(&clockRate, cudaDevAttrClockRate, cuda_device));
    clock_t time_clocks = (clock_t)(kernel_time * clockRate);
    clock_t total_clocks = 0;
    cudaEventRecord(start_event, 0);
    for (int i = 0; i < nkernels; ++i) {
        clock_block<<<1, 1, 0, streams[i]>>>(&d_a[i], time_clocks);
        total_clocks += time_clocks;
        checkCudaErrors(cudaEventRecord(kernelEvent[i], streams[i]));
        checkCudaErrors(cudaStreamWaitEvent(streams[nstreams - 1], kernelEvent[i], 0));
    }
    sum<<<1, 32, 0, streams[nstreams - 1]>>>(d_a, nkernels);
    checkCudaErrors(cudaMemcpyAsync(a, d_a, sizeof(clock_t), cudaMemcpyDeviceToHost, streams[nstreams - 1]));
    checkCudaErrors(cudaEventRecord(stop_event, 0));
    checkCudaErrors(cudaEventSynchronize(stop_event));
    float elapsed_time;
    checkCudaErrors(cudaEventElapsedTime(&elapsed_time, start_event, stop_event));
    printf("Expected time for serial execution of %d kernels = %.3fs\n", nkernels, nkernels * kernel_time / 1000.0f);
    printf("Measured time for sample = %.3fs\n", elapsed_time / 1000.0f);
    bool ok = a[0] > total_clocks;
    long long *d64, h64;
    checkCudaErrors(cudaMalloc(&d64, 8));
    clock64_block<<<1, 32>>>(d64, (long long)(5 * clockRate));
    checkCudaErrors(cudaMemcpy(&h64, d64, 8, cudaMemcpyDeviceToHost));
    if (h64 < 5LL * clockRate) ok = false;
    for (int i = 0; i < nkernels; i++) { cudaStreamDestroy(streams[i]); cudaEventDestroy(kernelEvent[i]); }
    SMP_RESULT("smp_concurrent", ok);
}
