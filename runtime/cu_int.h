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
/* A whole file (at most 1 GiB), malloc'd and NUL-terminated at *len (cu_module.c). */
CUresult cu_read_file(const char *path, char **out, size_t *len);

#define CU_CHECK_INIT() do { CUresult r_ = cu_inited(); if (r_) return r_; } while (0)

/* The module and function behind driver handles (CUlibrary and CUkernel are the same), NULL
 * when not one (cu_module.c; call under the runtime lock). */
struct rt_module *cu_module_of(CUmodule h);
struct rt_kernel *cu_function_of(CUfunction f);
/* A module from a fat binary, its __fatBinC_Wrapper_t (version 2: -rdc=true units) or PTX
 * text; parsed at its first use (cu_library.c). */
CUresult cu_module_from_fatbin(CUmodule *module, const void *image);
/* Run and drop the context-local storage destructors of ctx (cu_export.c): the context is
 * destroyed or reset. */
void cu_cls_destroy(CUcontext ctx);

/* CUlaunchConfig: the same layout as cudaLaunchConfig_t's attributes (CUlaunchAttribute ==
 * cudaLaunchAttribute), with the dimensions spelt out. */
typedef struct {
    unsigned int gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
    CUstream hStream;
    cudaLaunchAttribute *attrs;
    unsigned int numAttrs;
} CUlaunchConfig;

/* Driver API functions other driver files call. */
CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                        unsigned int bx, unsigned int by, unsigned int bz,
                        unsigned int sharedMemBytes, CUstream hStream, void **kernelParams,
                        void **extra);
CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gx, unsigned int gy,
                                   unsigned int gz, unsigned int bx, unsigned int by,
                                   unsigned int bz, unsigned int sharedMemBytes, CUstream hStream,
                                   void **kernelParams);
CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams,
                          void **extra);
CUresult cuInit(unsigned int Flags);
CUresult cuDriverGetVersion(int *driverVersion);
CUresult cuDeviceGetCount(int *count);
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUresult cuDeviceGetAttribute(int *pi, int attrib, CUdevice dev);
CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult cuCtxGetCurrent(CUcontext *pctx);
CUresult cuModuleLoadData(CUmodule *module, const void *image);
CUresult cuModuleUnload(CUmodule hmod);
CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name);
CUresult cuFuncGetName(const char **name, CUfunction hfunc);
CUresult cuFuncGetAttribute(int *pi, int attrib, CUfunction hfunc);
CUresult cuFuncSetAttribute(CUfunction hfunc, int attrib, int value);
CUresult cuFuncSetCacheConfig(CUfunction hfunc, int config);
CUresult cuLaunchHostFunc(CUstream h, cudaHostFn_t fn, void *userData);
CUresult cuLaunchHostFunc_ptsz(CUstream h, cudaHostFn_t fn, void *userData);

/* Runtime functions the driver API shares. */
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
cudaError_t cudaHostUnregister(void *ptr);
cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags);
cudaError_t cudaMemGetInfo(size_t *free_, size_t *total);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
cudaError_t cudaStreamGetFlags(cudaStream_t h, unsigned int *flags);
cudaError_t cudaStreamGetPriority(cudaStream_t h, int *priority);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t cb, void *userData,
                                  unsigned int flags);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);

#endif
