// rt_runaway.cu - a kernel that never ends. Plainly, with no argument, the host releases it and
// it completes. With "forever" nobody does: PTXDBG_MAX_STEPS or PTXDBG_TIMEOUT then fail the
// launch with cudaErrorLaunchTimeout and a report of where every warp is, and Ctrl-C prints
// that report and ends the program as SIGINT does (tests/cuda.sh). "rt_runaway: spinning" says
// the kernel runs (it raised a flag in mapped memory), so a test interrupts it only then.
// cuda-G-build
#include "cuda_check.h"
#include <signal.h>
#include <string.h>

__global__ void runaway(volatile int *flag, volatile int *started, int *out)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        *started = 1;
    if (threadIdx.x < 32)
        while (*flag == 0) { }   // the spinning line
    __syncthreads();             // the waiting line
    out[blockIdx.x * blockDim.x + threadIdx.x] = *flag;
}

int main(int argc, char **argv)
{
    int forever = argc > 1 && !strcmp(argv[1], "forever");
    signal(SIGINT, SIG_DFL);   // as started from a terminal (a shell's background job ignores it)
    int *flag, *dflag, *started, *dstarted, *out;
    CHECK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
    CHECK(cudaHostAlloc(&started, sizeof(int), cudaHostAllocMapped));
    *flag = *started = 0;
    CHECK(cudaHostGetDevicePointer((void **)&dflag, flag, 0));
    CHECK(cudaHostGetDevicePointer((void **)&dstarted, started, 0));
    CHECK(cudaMallocManaged(&out, 2 * 64 * sizeof(int)));
    runaway<<<2, 64>>>(dflag, dstarted, out);
    CHECK(cudaGetLastError());
    while (*(volatile int *)started == 0)
        ;
    if (!forever) {
        *(volatile int *)flag = 3;
        CHECK(cudaDeviceSynchronize());
        for (int i = 0; i < 128; i++)
            EXPECT(out[i] == 3, "out[%d] = %d", i, out[i]);
        printf("rt_runaway: PASSED\n");
        return 0;
    }
    printf("rt_runaway: spinning\n");
    fflush(stdout);
    cudaError_t e = cudaDeviceSynchronize();
    printf("FAULT %s\n", cudaGetErrorName(e));
    return e == cudaErrorLaunchTimeout ? FAULT_EXIT_CODE : 1;
}
