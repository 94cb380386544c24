// smp_async.cu - asyncAPI/simpleCallback/simpleStreams patterns: the host polls cudaEventQuery while
// the device works, stream callbacks and host functions run in order, pinned and registered
// memory feed per-stream copies, events time the streams.
#include "smp_helper.h"
#include <vector>

__global__ void increment_kernel(int *g_data, int inc_value)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    g_data[idx] = g_data[idx] + inc_value;
}

__global__ void init_array(int *g_data, const int *factor, int num_iterations)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < num_iterations; i++)
        g_data[idx] += *factor;
}

static int callback_order[16];
static int n_callbacks = 0;
static void CUDART_CB on_stream_done(cudaStream_t, cudaError_t status, void *data)
{
    if (status != cudaSuccess) { printf("callback saw %s\n", cudaGetErrorName(status)); exit(1); }
    callback_order[n_callbacks++] = (int)(size_t)data;
}
static void CUDART_CB host_fn(void *data)
{
    int *p = (int *)data;
    *p = *p * 2 + 1;
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    // asyncAPI
    int n = 16 * 1024, nbytes = n * sizeof(int), value = 26;
    int *a = 0, *d_a = 0;
    checkCudaErrors(cudaMallocHost((void **)&a, nbytes));
    memset(a, 0, nbytes);
    checkCudaErrors(cudaMalloc((void **)&d_a, nbytes));
    checkCudaErrors(cudaMemset(d_a, 255, nbytes));
    dim3 threads(512, 1), blocks(n / threads.x, 1);
    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));
    checkCudaErrors(cudaDeviceSynchronize());
    float gpu_time = 0.0f;
    cudaEventRecord(start, 0);
    cudaMemcpyAsync(d_a, a, nbytes, cudaMemcpyHostToDevice, 0);
    increment_kernel<<<blocks, threads, 0, 0>>>(d_a, value);
    cudaMemcpyAsync(a, d_a, nbytes, cudaMemcpyDeviceToHost, 0);
    cudaEventRecord(stop, 0);
    unsigned long int counter = 0;
    while (cudaEventQuery(stop) == cudaErrorNotReady) counter++;
    checkCudaErrors(cudaEventElapsedTime(&gpu_time, start, stop));
    printf("time spent executing by the GPU: %.2f\n", gpu_time);
    printf("CPU executed %lu iterations while waiting for GPU to finish\n", counter);
    for (int i = 0; i < n; i++) if (a[i] != value) { printf("asyncAPI: a[%d]=%d\n", i, a[i]); ok = false; break; }
    // simpleStreams with registered memory
    const int nstreams = 4;
    int *h_reg = (int *)malloc(n * sizeof(int) + 4096);
    int *h_al = (int *)(((size_t)h_reg + 4095) & ~(size_t)4095);
    checkCudaErrors(cudaHostRegister(h_al, nbytes, cudaHostRegisterMapped));
    int *d_c, *d_factor;
    checkCudaErrors(cudaMalloc(&d_c, nbytes));
    checkCudaErrors(cudaMalloc(&d_factor, sizeof(int)));
    int c = 5;
    checkCudaErrors(cudaMemcpy(d_factor, &c, sizeof(int), cudaMemcpyHostToDevice));
    cudaStream_t *streams = (cudaStream_t *)malloc(nstreams * sizeof(cudaStream_t));
    for (int i = 0; i < nstreams; i++) checkCudaErrors(cudaStreamCreate(&streams[i]));
    checkCudaErrors(cudaMemset(d_c, 0, nbytes));
    cudaEventRecord(start, 0);
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < nstreams; i++)
            init_array<<<blocks.x / nstreams, threads, 0, streams[i]>>>(d_c + i * n / nstreams, d_factor, 4);
        for (int i = 0; i < nstreams; i++)
            checkCudaErrors(cudaMemcpyAsync(h_al + i * n / nstreams, d_c + i * n / nstreams, nbytes / nstreams,
                                            cudaMemcpyDeviceToHost, streams[i]));
    }
    cudaEventRecord(stop, 0);
    checkCudaErrors(cudaEventSynchronize(stop));
    checkCudaErrors(cudaEventElapsedTime(&gpu_time, start, stop));
    for (int i = 0; i < n; i++) if (h_al[i] != 60) { printf("streams: c[%d]=%d\n", i, h_al[i]); ok = false; break; }
    // callbacks in stream order
    int hv = 3;
    for (int i = 0; i < nstreams; i++) {
        increment_kernel<<<blocks, threads, 0, streams[0]>>>(d_a, 1);
        checkCudaErrors(cudaStreamAddCallback(streams[0], on_stream_done, (void *)(size_t)(i + 1), 0));
        checkCudaErrors(cudaLaunchHostFunc(streams[0], host_fn, &hv));
    }
    checkCudaErrors(cudaStreamSynchronize(streams[0]));
    if (n_callbacks != nstreams) { printf("callbacks %d\n", n_callbacks); ok = false; }
    for (int i = 0; i < n_callbacks; i++) if (callback_order[i] != i + 1) ok = false;
    if (hv != 63) { printf("host fn value %d\n", hv); ok = false; }
    // stream query, wait event, priorities
    int lo, hi;
    checkCudaErrors(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    cudaStream_t sp;
    checkCudaErrors(cudaStreamCreateWithPriority(&sp, cudaStreamNonBlocking, hi));
    int prio;
    checkCudaErrors(cudaStreamGetPriority(sp, &prio));
    if (prio != hi) { printf("priority %d want %d\n", prio, hi); ok = false; }
    cudaEvent_t ev;
    checkCudaErrors(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    increment_kernel<<<blocks, threads, 0, streams[1]>>>(d_a, 100);
    checkCudaErrors(cudaEventRecord(ev, streams[1]));
    checkCudaErrors(cudaStreamWaitEvent(sp, ev, 0));
    checkCudaErrors(cudaMemcpyAsync(a, d_a, nbytes, cudaMemcpyDeviceToHost, sp));
    checkCudaErrors(cudaStreamSynchronize(sp));
    if (cudaStreamQuery(sp) != cudaSuccess) ok = false;
    for (int i = 0; i < n; i++) if (a[i] != value + nstreams + 100) { printf("wait event: a[%d]=%d\n", i, a[i]); ok = false; break; }
    for (int i = 0; i < nstreams; i++) checkCudaErrors(cudaStreamDestroy(streams[i]));
    checkCudaErrors(cudaStreamDestroy(sp));
    checkCudaErrors(cudaEventDestroy(ev));
    checkCudaErrors(cudaHostUnregister(h_al));
    free(h_reg);
    checkCudaErrors(cudaFreeHost(a));
    checkCudaErrors(cudaFree(d_a));
    SMP_RESULT("smp_async", ok);
}
