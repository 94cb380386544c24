/* cu_int.h - internals shared by the driver API files (runtime/cu_*.c). */
#ifndef CU_INT_H
#define CU_INT_H

#include "cu_abi.h"
#include "rt_dev.h"

typedef cudaUUID_t CUuuid;

/* The CUresult of a runtime error (same number where both define it). */
CUresult cu_result(cudaError_t e);
/* CUDA_SUCCESS once cuInit ran, else CUDA_ERROR_NOT_INITIALIZED. */
CUresult cu_inited(void);
/* CUDA_SUCCESS when the calling thread has a current context (and cuInit ran). */
CUresult cu_ctx_current(void);
CUcontext cu_primary_ctx(void);

/* Runtime functions the driver API shares. */
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);

#endif
