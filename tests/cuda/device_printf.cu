// device_printf.cu - printf from kernels: formats, ordering by synchronisation; the output is compared.
#include "cuda_check.h"

__global__ void hello(int tag)
{
    if (threadIdx.x == 0)
        printf("block %d says hello (tag %d)\n", blockIdx.x, tag);
}

__global__ void formats()
{
    printf("int %d unsigned %u hex %x long %lld\n", -42, 42u, 0xbeef, -1234567890123LL);
    printf("float %.3f exp %e char %c string %s\n", 3.14159f, 12345.678, 'Z', "text");
    printf("padded [%5d] [%-5d] [%05.1f]\n", 7, 7, 2.5);
}

int main()
{
    printf("host before\n");
    fflush(stdout);
    hello<<<1, 32>>>(1);
    CHECK_LAUNCH();
    fflush(stdout);
    formats<<<1, 1>>>();
    CHECK_LAUNCH();
    fflush(stdout);
    // one block at a time so the order is defined
    for (int b = 0; b < 3; b++) {
        hello<<<1, 64>>>(10 + b);
        CHECK_LAUNCH();
        fflush(stdout);
    }
    printf("host after\n");
    printf("device_printf: PASSED\n");
    return 0;
}
// cuda-static-build
