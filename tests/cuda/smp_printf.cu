// smp_printf.cu - simplePrintf: device printf with every common conversion, from several blocks,
// flushed at synchronisation; then a kernel whose failed assert() the host sees as
// cudaErrorAssert (simpleAssert).
// cuda-test: 3 ^smp_printf:.assert.seen.PASSED$ Warp.Assert
#include "smp_helper.h"
#include <assert.h>

__global__ void testKernel(int val)
{
    printf("[%d, %d]:\t\tValue is:%d\n", blockIdx.y * gridDim.x + blockIdx.x,
           threadIdx.z * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x, val);
}
__global__ void formats(void)
{
    printf("f=%f e=%e g=%g s=%s c=%c x=%x X=%08X o=%o u=%u ld=%ld lld=%lld p-null=%d %5.2f|%-6d|%%\n",
           1.5, 12345.678, 0.0001, "text", 'Z', 255u, 48879u, 8u, 4000000000u, -7L, -123456789012LL, 0, 3.14159, 42);
}
__global__ void check_positive(const int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) assert(v[i] > 0);
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    dim3 dimGrid(2, 2), dimBlock(2, 2, 2);
    testKernel<<<dimGrid, dimBlock>>>(10);
    checkCudaErrors(cudaDeviceSynchronize());
    formats<<<1, 1>>>();
    checkCudaErrors(cudaDeviceSynchronize());
    size_t fifo;
    checkCudaErrors(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
    if (fifo == 0) SMP_RESULT("smp_printf: fifo", false);
    int h[64];
    for (int i = 0; i < 64; i++) h[i] = i == 37 ? -1 : i + 1;
    int *d;
    checkCudaErrors(cudaMalloc(&d, sizeof(h)));
    checkCudaErrors(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
    check_positive<<<2, 32>>>(d, 64);
    cudaError_t e = cudaDeviceSynchronize();
    printf("Device assert failed as expected, CUDA error message is: %s\n", cudaGetErrorString(e));
    if (e != cudaErrorAssert) SMP_RESULT("smp_printf: assert", false);
    printf("smp_printf: assert seen PASSED\n");
    return 3;
}
