// rt_exit.cu - a process that exits with work in flight ends it, as a destroyed context does: a
// kernel spinning on a flag nobody sets, work queued behind it on its stream and on the legacy
// stream, a host function that never gets to run; exit() returns the program's status at once,
// and a static object's destructor that frees device memory afterwards (as programs' globals do)
// finds an idle device.
// cuda-G-build
#include "cuda_check.h"

__global__ void spin(volatile int *flag, int *out)
{
    while (*flag == 0)
        ;
    *out = 1;
}

static void CUDART_CB never(void *p)
{
    printf("FAILED: a host function ran after exit\n");
    *(int *)p = 1;
}

struct holder {
    int *p = nullptr;
    ~holder()
    {
        // runs after the runtime ended the work in flight
        if (p && cudaFree(p) == cudaSuccess)
            printf("rt_exit: freed at exit\n");
    }
};
static holder global;

int main()
{
    int *flag, *dflag, *out;
    CHECK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
    *flag = 0;
    CHECK(cudaHostGetDevicePointer((void **)&dflag, flag, 0));
    CHECK(cudaMalloc(&out, sizeof(int)));
    CHECK(cudaMalloc(&global.p, 1 << 20));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    static int ran;
    spin<<<2, 32, 0, s>>>(dflag, out);
    spin<<<1, 32, 0, s>>>(dflag, out);
    CHECK(cudaLaunchHostFunc(s, never, &ran));
    CHECK(cudaMemsetAsync(out, 0, sizeof(int), 0));
    CHECK(cudaGetLastError());
    EXPECT(cudaStreamQuery(s) == cudaErrorNotReady, "the spinning kernel completed");
    printf("rt_exit: PASSED\n");
    fflush(stdout);
    exit(0);
}
