// cu_check.h - error checking for the driver API test programs (EXPECT comes from cuda_check.h).
#ifndef CU_CHECK_H
#define CU_CHECK_H
#include <string.h>
#include <cuda.h>
#include "cuda_check.h"

// A driver API call that fails ends the program with a FAILED line naming the call and code.
#define CK(call)                                                                          \
    do {                                                                                  \
        CUresult r_ = (call);                                                             \
        if (r_ != CUDA_SUCCESS) {                                                         \
            const char *n_ = "?";                                                         \
            cuGetErrorName(r_, &n_);                                                      \
            printf("FAILED: %s:%d: %s returned %s\n", __FILE__, __LINE__, #call, n_);     \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)
#endif
