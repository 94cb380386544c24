// cuda_check.h - error-checking helpers shared by the CUDA test programs.
#ifndef CUDA_CHECK_H
#define CUDA_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

// Any runtime call that fails ends the program with a FAILED line naming the call.
#define CHECK(call)                                                                     \
    do {                                                                                \
        cudaError_t e_ = (call);                                                        \
        if (e_ != cudaSuccess) {                                                        \
            printf("FAILED: %s:%d: %s returned %s (%s)\n", __FILE__, __LINE__, #call,   \
                   cudaGetErrorName(e_), cudaGetErrorString(e_));                       \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

// Launch errors (configuration) and execution errors (synchronised).
#define CHECK_LAUNCH()                                                                  \
    do {                                                                                \
        CHECK(cudaGetLastError());                                                      \
        CHECK(cudaDeviceSynchronize());                                                 \
    } while (0)

// A wrong value ends the program with a FAILED line.
#define EXPECT(cond, ...)                                                               \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            printf("FAILED: %s:%d: ", __FILE__, __LINE__);                              \
            printf(__VA_ARGS__);                                                        \
            printf("\n");                                                               \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

// A fault program: the expected sticky error was seen -> "FAULT name", exit code 3.
// launch: cudaGetLastError() right after the launch, which is cudaSuccess, or already the fault
// when the kernel ran before it returned (kernels run asynchronously: either is correct);
// got: what the synchronisation returned.
#define FAULT_EXIT_CODE 3
static inline int expect_fault(cudaError_t launch, cudaError_t got, cudaError_t want)
{
    if (launch != cudaSuccess && launch != want) {
        printf("FAILED: the launch returned %s\n", cudaGetErrorName(launch));
        return 1;
    }
    if (got != want) {
        printf("FAILED: expected %s, got %s\n", cudaGetErrorName(want), cudaGetErrorName(got));
        return 1;
    }
    // the error is sticky: later calls report it too
    cudaError_t again = cudaDeviceSynchronize();
    if (again != want) {
        printf("FAILED: error not sticky: cudaDeviceSynchronize returned %s\n",
               cudaGetErrorName(again));
        return 1;
    }
    printf("FAULT %s\n", cudaGetErrorName(got));
    return FAULT_EXIT_CODE;
}
#endif
