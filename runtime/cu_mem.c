/* cu_mem.c - driver API: memory, copies and memsets, streams, events, pointer attributes, on
 * the runtime's implementation (a device pointer is the host address of the bytes). */
#include <string.h>
#include "cu_int.h"
#include "cu_rtapi.h"
#include "rt.h"

#define CU_EXPORT __attribute__((visibility("default")))
#define DPTR(d) ((void *)(uintptr_t)(d))
/* Every call needs cuInit and a current context, then runs the runtime's function. */
#define CU_CALL(expr) do { CUresult r_ = cu_ctx_current(); if (r_) return r_; \
                           return cu_result(expr); } while (0)

/* ---- allocation -------------------------------------------------------------------------------- */
/* The driver refuses empty allocations (cudaMalloc's 0 bytes give NULL and success). */
CU_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
    if (!dptr || !bytesize) return CUDA_ERROR_INVALID_VALUE;
    CU_CALL(cudaMalloc((void **)dptr, bytesize));
}

CU_EXPORT CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t widthInBytes,
                                      size_t height, unsigned int elementSizeBytes)
{
    if (!dptr || !pPitch || !widthInBytes || !height ||
        (elementSizeBytes != 4 && elementSizeBytes != 8 && elementSizeBytes != 16))
        return CUDA_ERROR_INVALID_VALUE;
    CU_CALL(cudaMallocPitch((void **)dptr, pPitch, widthInBytes, height));
}

CU_EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr) { CU_CALL(cudaFree(DPTR(dptr))); }

CU_EXPORT CUresult cuMemAllocHost_v2(void **pp, size_t bytesize)
{
    CU_CALL(cudaMallocHost(pp, bytesize));
}

CU_EXPORT CUresult cuMemFreeHost(void *p) { CU_CALL(cudaFreeHost(p)); }

CU_EXPORT CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
    CU_CALL(cudaHostAlloc(pp, bytesize, Flags));
}

CU_EXPORT CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
    if (!pdptr) return CUDA_ERROR_INVALID_VALUE;
    CU_CALL(cudaHostGetDevicePointer((void **)pdptr, p, Flags));
}

CU_EXPORT CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags)
{
    CU_CALL(cudaHostRegister(p, bytesize, Flags));
}

CU_EXPORT CUresult cuMemHostUnregister(void *p) { CU_CALL(cudaHostUnregister(p)); }

CU_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
    if (!dptr || !bytesize) return CUDA_ERROR_INVALID_VALUE;
    CU_CALL(cudaMallocManaged((void **)dptr, bytesize, flags));
}

CU_EXPORT CUresult cuMemGetInfo_v2(size_t *free, size_t *total)
{
    CU_CALL(cudaMemGetInfo(free, total));
}

CU_EXPORT CUresult cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    RT_BEGIN();
    const rt_alloc *a = rt_alloc_find(DPTR(dptr), 0);
    if (a) {
        if (pbase) *pbase = a->base;
        if (psize) *psize = a->size;
    }
    rt_unlock();
    return a ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

/* ---- copies ---------------------------------------------------------------------------------- */
CU_EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
    CU_CALL(cudaMemcpy(DPTR(dst), DPTR(src), n, cudaMemcpyDefault));
}

CU_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{
    CU_CALL(cudaMemcpy(DPTR(dst), src, n, cudaMemcpyHostToDevice));
}

CU_EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n)
{
    CU_CALL(cudaMemcpy(dst, DPTR(src), n, cudaMemcpyDeviceToHost));
}

CU_EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
    CU_CALL(cudaMemcpy(DPTR(dst), DPTR(src), n, cudaMemcpyDeviceToDevice));
}

/* The per-thread default stream's variants (--default-stream per-thread programs). */
CU_EXPORT CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
    CU_CALL(cudaMemcpy_ptds(DPTR(dst), DPTR(src), n, cudaMemcpyDefault));
}
CU_EXPORT CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dst, const void *src, size_t n)
{
    CU_CALL(cudaMemcpy_ptds(DPTR(dst), src, n, cudaMemcpyHostToDevice));
}
CU_EXPORT CUresult cuMemcpyDtoH_v2_ptds(void *dst, CUdeviceptr src, size_t n)
{
    CU_CALL(cudaMemcpy_ptds(dst, DPTR(src), n, cudaMemcpyDeviceToHost));
}
CU_EXPORT CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
    CU_CALL(cudaMemcpy_ptds(DPTR(dst), DPTR(src), n, cudaMemcpyDeviceToDevice));
}
CU_EXPORT CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
    CU_CALL(cudaMemcpyAsync_ptsz(DPTR(dst), DPTR(src), n, cudaMemcpyDefault, s));
}
CU_EXPORT CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dst, const void *src, size_t n,
                                             CUstream s)
{
    CU_CALL(cudaMemcpyAsync_ptsz(DPTR(dst), src, n, cudaMemcpyHostToDevice, s));
}
CU_EXPORT CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dst, CUdeviceptr src, size_t n, CUstream s)
{
    CU_CALL(cudaMemcpyAsync_ptsz(dst, DPTR(src), n, cudaMemcpyDeviceToHost, s));
}
CU_EXPORT CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t n,
                                             CUstream s)
{
    CU_CALL(cudaMemcpyAsync_ptsz(DPTR(dst), DPTR(src), n, cudaMemcpyDeviceToDevice, s));
}

CU_EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
    CU_CALL(cudaMemcpyAsync(DPTR(dst), DPTR(src), n, cudaMemcpyDefault, s));
}

CU_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{
    CU_CALL(cudaMemcpyAsync(DPTR(dst), src, n, cudaMemcpyHostToDevice, s));
}

CU_EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, CUstream s)
{
    CU_CALL(cudaMemcpyAsync(dst, DPTR(src), n, cudaMemcpyDeviceToHost, s));
}

CU_EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
    CU_CALL(cudaMemcpyAsync(DPTR(dst), DPTR(src), n, cudaMemcpyDeviceToDevice, s));
}

/* ---- memsets: 8-, 16- and 32-bit elements, 1D and 2D ----------------------------------------- */
static CUresult memset_d(CUdeviceptr dst, size_t pitch, uint32_t value, unsigned esize,
                         size_t width, size_t height, CUstream s, int ptds, int sync)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    if ((dst % esize) || (height > 1 && pitch < width * esize)) return CUDA_ERROR_INVALID_VALUE;
    rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = RT_OP_SET;
    op.u.set.dst = dst;
    op.u.set.value = value;
    op.u.set.elem_size = esize;
    op.u.set.width = width;
    op.u.set.height = height;
    op.u.set.depth = 1;
    op.u.set.pitch = height > 1 ? pitch : width * esize;
    op.u.set.slice = op.u.set.pitch * height;
    RT_BEGIN();
    cudaError_t e = rt_sticky();
    if (e == cudaSuccess) e = rt_submit_sync((cudaStream_t)s, ptds, &op, sync);
    rt_unlock();
    return cu_result(e);
}

/* Each memset as given (legacy default stream; synchronous as CUDA documents: it returns once
 * done when it sets pinned host or managed memory), its per-thread default stream variant
 * (_ptds / _ptsz), and the asynchronous ones. */
#define MEMSET1(name, type, esize) \
    CU_EXPORT CUresult name##_v2(CUdeviceptr d, type v, size_t n) \
    { return memset_d(d, 0, v, esize, n, 1, NULL, 0, 1); } \
    CU_EXPORT CUresult name##_v2_ptds(CUdeviceptr d, type v, size_t n) \
    { return memset_d(d, 0, v, esize, n, 1, NULL, 1, 1); } \
    CU_EXPORT CUresult name##Async(CUdeviceptr d, type v, size_t n, CUstream s) \
    { return memset_d(d, 0, v, esize, n, 1, s, 0, 0); } \
    CU_EXPORT CUresult name##Async_ptsz(CUdeviceptr d, type v, size_t n, CUstream s) \
    { return memset_d(d, 0, v, esize, n, 1, s, 1, 0); }
#define MEMSET2(name, type, esize) \
    CU_EXPORT CUresult name##_v2(CUdeviceptr d, size_t pitch, type v, size_t w, size_t h) \
    { return memset_d(d, pitch, v, esize, w, h, NULL, 0, 1); } \
    CU_EXPORT CUresult name##_v2_ptds(CUdeviceptr d, size_t pitch, type v, size_t w, size_t h) \
    { return memset_d(d, pitch, v, esize, w, h, NULL, 1, 1); } \
    CU_EXPORT CUresult name##Async(CUdeviceptr d, size_t pitch, type v, size_t w, size_t h, \
                                   CUstream s) \
    { return memset_d(d, pitch, v, esize, w, h, s, 0, 0); } \
    CU_EXPORT CUresult name##Async_ptsz(CUdeviceptr d, size_t pitch, type v, size_t w, \
                                        size_t h, CUstream s) \
    { return memset_d(d, pitch, v, esize, w, h, s, 1, 0); }
MEMSET1(cuMemsetD8, unsigned char, 1)
MEMSET1(cuMemsetD16, unsigned short, 2)
MEMSET1(cuMemsetD32, unsigned int, 4)
MEMSET2(cuMemsetD2D8, unsigned char, 1)
MEMSET2(cuMemsetD2D16, unsigned short, 2)
MEMSET2(cuMemsetD2D32, unsigned int, 4)

/* ---- streams and events ---------------------------------------------------------------------- */
CU_EXPORT CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    CU_CALL(cudaStreamCreateWithFlags((cudaStream_t *)phStream, Flags));
}

CU_EXPORT CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
    CU_CALL(cudaStreamCreateWithPriority((cudaStream_t *)phStream, flags, priority));
}

CU_EXPORT CUresult cuStreamDestroy_v2(CUstream h) { CU_CALL(cudaStreamDestroy(h)); }
CU_EXPORT CUresult cuStreamSynchronize(CUstream h) { CU_CALL(cudaStreamSynchronize(h)); }
CU_EXPORT CUresult cuStreamQuery(CUstream h) { CU_CALL(cudaStreamQuery(h)); }

CU_EXPORT CUresult cuStreamWaitEvent(CUstream h, CUevent ev, unsigned int Flags)
{
    CU_CALL(cudaStreamWaitEvent(h, ev, Flags));
}

CU_EXPORT CUresult cuStreamGetFlags(CUstream h, unsigned int *flags)
{
    CU_CALL(cudaStreamGetFlags(h, flags));
}

CU_EXPORT CUresult cuStreamGetPriority(CUstream h, int *priority)
{
    CU_CALL(cudaStreamGetPriority(h, priority));
}

/* CUstreamCallback has cudaStreamCallback_t's shape (CUresult and cudaError_t share numbers
 * for the codes a callback sees). */
CU_EXPORT CUresult cuStreamAddCallback(CUstream h, cudaStreamCallback_t callback, void *userData,
                                       unsigned int flags)
{
    CU_CALL(cudaStreamAddCallback(h, callback, userData, flags));
}

CU_EXPORT CUresult cuLaunchHostFunc(CUstream h, cudaHostFn_t fn, void *userData)
{
    CU_CALL(cudaLaunchHostFunc(h, fn, userData));
}

CU_EXPORT CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    CU_CALL(cudaEventCreateWithFlags((cudaEvent_t *)phEvent, Flags));
}

CU_EXPORT CUresult cuEventDestroy_v2(CUevent h) { CU_CALL(cudaEventDestroy(h)); }
CU_EXPORT CUresult cuEventRecord(CUevent h, CUstream s) { CU_CALL(cudaEventRecord(h, s)); }

CU_EXPORT CUresult cuEventRecordWithFlags(CUevent h, CUstream s, unsigned int flags)
{
    CU_CALL(cudaEventRecordWithFlags(h, s, flags));
}

CU_EXPORT CUresult cuEventSynchronize(CUevent h) { CU_CALL(cudaEventSynchronize(h)); }
CU_EXPORT CUresult cuEventQuery(CUevent h) { CU_CALL(cudaEventQuery(h)); }

CU_EXPORT CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent start, CUevent end)
{
    CU_CALL(cudaEventElapsedTime(pMilliseconds, start, end));
}

CU_EXPORT CUresult cuEventElapsedTime(float *pMilliseconds, CUevent start, CUevent end)
{
    CU_CALL(cudaEventElapsedTime(pMilliseconds, start, end));
}

/* ---- pointer attributes ----------------------------------------------------------------------- */
enum {
    CU_POINTER_ATTRIBUTE_CONTEXT = 1, CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
    CU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3, CU_POINTER_ATTRIBUTE_HOST_POINTER = 4,
    CU_POINTER_ATTRIBUTE_SYNC_MEMOPS = 6, CU_POINTER_ATTRIBUTE_BUFFER_ID = 7,
    CU_POINTER_ATTRIBUTE_IS_MANAGED = 8, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
    CU_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11, CU_POINTER_ATTRIBUTE_RANGE_SIZE = 12,
    CU_POINTER_ATTRIBUTE_MAPPED = 13,
};

static CUresult pointer_attr(void *data, int attr, CUdeviceptr ptr)
{
    const rt_alloc *a = rt_alloc_find(DPTR(ptr), 0);
    if (!a) return CUDA_ERROR_INVALID_VALUE;        /* not memory CUDA knows */
    int host = a->kind == RT_MEM_HOST || a->kind == RT_MEM_REGISTERED;
    switch (attr) {
    case CU_POINTER_ATTRIBUTE_CONTEXT: *(CUcontext *)data = cu_primary_ctx(); break;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *(unsigned *)data = a->kind == RT_MEM_MANAGED ? 2u : host ? 1u
                            : a->kind == RT_MEM_ARRAY ? 3u : 2u;
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        *(CUdeviceptr *)data = ptr;                  /* one address for both sides */
        break;
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: *(int *)data = 1; break;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID: *(unsigned long long *)data = a->id; break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED: *(int *)data = a->kind == RT_MEM_MANAGED; break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = 0; break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *(CUdeviceptr *)data = a->base; break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: *(size_t *)data = (size_t)a->size; break;
    case CU_POINTER_ATTRIBUTE_MAPPED: *(int *)data = 1; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuPointerGetAttribute(void *data, int attribute, CUdeviceptr ptr)
{
    CUresult r = cu_inited();
    if (r) return r;
    if (!data) return CUDA_ERROR_INVALID_VALUE;
    RT_BEGIN();
    r = pointer_attr(data, attribute, ptr);
    rt_unlock();
    return r;
}

CU_EXPORT CUresult cuPointerGetAttributes(unsigned int numAttributes, int *attributes,
                                          void **data, CUdeviceptr ptr)
{
    CUresult r = cu_inited();
    if (r) return r;
    if (numAttributes && (!attributes || !data)) return CUDA_ERROR_INVALID_VALUE;
    RT_BEGIN();
    for (unsigned i = 0; i < numAttributes && !r; i++)
        if (data[i] && pointer_attr(data[i], attributes[i], ptr)) {
            /* memory CUDA does not know: the attributes read as "none", as CUDA does */
            if (attributes[i] == CU_POINTER_ATTRIBUTE_MEMORY_TYPE ||
                attributes[i] == CU_POINTER_ATTRIBUTE_IS_MANAGED)
                *(int *)data[i] = 0;
            else if (attributes[i] == CU_POINTER_ATTRIBUTE_CONTEXT)
                *(CUcontext *)data[i] = NULL;
            else if (attributes[i] == CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL)
                *(int *)data[i] = -2;
            else if (attributes[i] == CU_POINTER_ATTRIBUTE_DEVICE_POINTER ||
                     attributes[i] == CU_POINTER_ATTRIBUTE_HOST_POINTER ||
                     attributes[i] == CU_POINTER_ATTRIBUTE_RANGE_START_ADDR)
                *(CUdeviceptr *)data[i] = 0;
            else if (attributes[i] == CU_POINTER_ATTRIBUTE_RANGE_SIZE)
                *(size_t *)data[i] = 0;
            else if (attributes[i] == CU_POINTER_ATTRIBUTE_BUFFER_ID)
                *(unsigned long long *)data[i] = 0;
            else if (attributes[i] == CU_POINTER_ATTRIBUTE_SYNC_MEMOPS ||
                     attributes[i] == CU_POINTER_ATTRIBUTE_MAPPED)
                *(int *)data[i] = 0;
            else
                r = CUDA_ERROR_INVALID_VALUE;
        }
    rt_unlock();
    return r;
}
