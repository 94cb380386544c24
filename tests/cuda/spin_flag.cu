// spin_flag.cu - a kernel spins on a flag in mapped host memory until another host thread sets it.
// cuda-G-build
// With the argument "forever" nobody sets the flag: the kernel spins until interrupted (Ctrl-C).
#include "cuda_check.h"
#include <string.h>
#include <chrono>
#include <thread>

__global__ void wait_flag(volatile int *flag, int *done)
{
    unsigned long long spins = 0;
    while (*flag == 0)
        spins++;
    *done = 1 + (int)(spins & 0);
}

int main(int argc, char **argv)
{
    int forever = argc > 1 && !strcmp(argv[1], "forever");
    int *flag, *dflag, *done;
    CHECK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
    *flag = 0;
    CHECK(cudaHostGetDevicePointer((void **)&dflag, flag, 0));
    CHECK(cudaMallocManaged(&done, sizeof(int)));
    *done = 0;
    std::thread helper;
    if (!forever)
        helper = std::thread([flag] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            *(volatile int *)flag = 1;
        });
    wait_flag<<<1, 1>>>(dflag, done);
    CHECK_LAUNCH();
    if (helper.joinable())
        helper.join();
    EXPECT(*done == 1, "kernel result %d", *done);
    printf("spin_flag: PASSED\n");
    return 0;
}
