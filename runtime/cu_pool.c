/* cu_pool.c - driver API: stream-ordered allocation, memory pools, managed memory hints, peers. */
#include <string.h>
#include "cu_int.h"
#include "cu_rtapi.h"
#include "rt.h"

#define CU_EXPORT __attribute__((visibility("default")))
#define DPTR(d) ((void *)(uintptr_t)(d))
#define CU_CALL(expr) do { CUresult r_ = cu_ctx_current(); if (r_) return r_; \
                           return cu_result(expr); } while (0)
/* The calling thread's default stream for a _ptsz entry point's NULL stream. */
#define PTSZ(s) ((s) ? (s) : (CUstream)RT_STREAM_PER_THREAD)

/* CUmemoryPool is the runtime's cudaMemPool_t; CUmemPoolProps, CUmemAccessDesc and
 * CUmemLocation have the runtime's layouts, CUmemPool_attribute its numbers. */

/* ---- stream-ordered allocation ------------------------------------------------------------ */
CU_EXPORT CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream s)
{
    if (!dptr) return CUDA_ERROR_INVALID_VALUE;
    CU_CALL(cudaMallocAsync((void **)dptr, bytesize, s));
}
CU_EXPORT CUresult cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUstream s)
{
    if (!dptr) return CUDA_ERROR_INVALID_VALUE;
    CU_CALL(cudaMallocAsync_ptsz((void **)dptr, bytesize, s));
}
CU_EXPORT CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize,
                                           cudaMemPool_t pool, CUstream s)
{
    if (!dptr) return CUDA_ERROR_INVALID_VALUE;
    CU_CALL(cudaMallocFromPoolAsync((void **)dptr, bytesize, pool, s));
}
CU_EXPORT CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize,
                                                cudaMemPool_t pool, CUstream s)
{
    if (!dptr) return CUDA_ERROR_INVALID_VALUE;
    CU_CALL(cudaMallocFromPoolAsync_ptsz((void **)dptr, bytesize, pool, s));
}
CU_EXPORT CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream s)
{
    CU_CALL(cudaFreeAsync(DPTR(dptr), s));
}
CU_EXPORT CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream s)
{
    CU_CALL(cudaFreeAsync_ptsz(DPTR(dptr), s));
}

/* ---- pools ------------------------------------------------------------------------------------ */
CU_EXPORT CUresult cuMemPoolCreate(cudaMemPool_t *pool, const struct cudaMemPoolProps *props)
{
    CU_CALL(cudaMemPoolCreate(pool, props));
}
CU_EXPORT CUresult cuMemPoolDestroy(cudaMemPool_t pool) { CU_CALL(cudaMemPoolDestroy(pool)); }
CU_EXPORT CUresult cuMemPoolSetAttribute(cudaMemPool_t pool, int attr, void *value)
{
    CU_CALL(cudaMemPoolSetAttribute(pool, (enum cudaMemPoolAttr)attr, value));
}
CU_EXPORT CUresult cuMemPoolGetAttribute(cudaMemPool_t pool, int attr, void *value)
{
    CU_CALL(cudaMemPoolGetAttribute(pool, (enum cudaMemPoolAttr)attr, value));
}
CU_EXPORT CUresult cuMemPoolTrimTo(cudaMemPool_t pool, size_t minBytesToKeep)
{
    CU_CALL(cudaMemPoolTrimTo(pool, minBytesToKeep));
}
CU_EXPORT CUresult cuMemPoolSetAccess(cudaMemPool_t pool, const struct cudaMemAccessDesc *map,
                                      size_t count)
{
    CU_CALL(cudaMemPoolSetAccess(pool, map, count));
}
CU_EXPORT CUresult cuMemPoolGetAccess(int *flags, cudaMemPool_t pool,
                                      struct cudaMemLocation *location)
{
    CU_CALL(cudaMemPoolGetAccess((enum cudaMemAccessFlags *)flags, pool, location));
}
CU_EXPORT CUresult cuDeviceGetDefaultMemPool(cudaMemPool_t *pool, CUdevice dev)
{
    CU_CALL(cudaDeviceGetDefaultMemPool(pool, dev));
}
CU_EXPORT CUresult cuDeviceGetMemPool(cudaMemPool_t *pool, CUdevice dev)
{
    CU_CALL(cudaDeviceGetMemPool(pool, dev));
}
CU_EXPORT CUresult cuDeviceSetMemPool(CUdevice dev, cudaMemPool_t pool)
{
    CU_CALL(cudaDeviceSetMemPool(dev, pool));
}
CU_EXPORT CUresult cuMemGetDefaultMemPool(cudaMemPool_t *pool, struct cudaMemLocation *location,
                                          int type)
{
    CU_CALL(cudaMemGetDefaultMemPool(pool, location, (enum cudaMemAllocationType)type));
}
CU_EXPORT CUresult cuMemGetMemPool(cudaMemPool_t *pool, struct cudaMemLocation *location,
                                   int type)
{
    CU_CALL(cudaMemGetMemPool(pool, location, (enum cudaMemAllocationType)type));
}
CU_EXPORT CUresult cuMemSetMemPool(struct cudaMemLocation *location, int type, cudaMemPool_t pool)
{
    CU_CALL(cudaMemSetMemPool(location, (enum cudaMemAllocationType)type, pool));
}

/* ---- managed memory hints: prefetches and advice have nothing to move here; the range must
 * be memory CUDA knows ------------------------------------------------------------------------ */
CU_EXPORT CUresult cuMemPrefetchAsync(CUdeviceptr dptr, size_t count, CUdevice dst, CUstream s)
{
    (void)dst, (void)s;
    CU_CALL(cudaMemPrefetchAsync(DPTR(dptr), count));
}
CU_EXPORT CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr dptr, size_t count, CUdevice dst,
                                           CUstream s)
{
    (void)dst, (void)s;
    CU_CALL(cudaMemPrefetchAsync_ptsz(DPTR(dptr), count));
}
CU_EXPORT CUresult cuMemPrefetchAsync_v2(CUdeviceptr dptr, size_t count,
                                         struct cudaMemLocation loc, unsigned int flags,
                                         CUstream s)
{
    (void)loc, (void)s;
    if (flags) return CUDA_ERROR_INVALID_VALUE;
    CU_CALL(cudaMemPrefetchAsync(DPTR(dptr), count));
}
CU_EXPORT CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr dptr, size_t count,
                                              struct cudaMemLocation loc, unsigned int flags,
                                              CUstream s)
{
    (void)loc, (void)s;
    if (flags) return CUDA_ERROR_INVALID_VALUE;
    CU_CALL(cudaMemPrefetchAsync_ptsz(DPTR(dptr), count));
}
CU_EXPORT CUresult cuMemAdvise(CUdeviceptr dptr, size_t count, int advice, CUdevice dev)
{
    (void)dev;
    if (advice < 1 || advice > 6) return CUDA_ERROR_INVALID_VALUE;
    CU_CALL(cudaMemAdvise(DPTR(dptr), count));
}
CU_EXPORT CUresult cuMemAdvise_v2(CUdeviceptr dptr, size_t count, int advice,
                                  struct cudaMemLocation loc)
{
    (void)loc;
    if (advice < 1 || advice > 6) return CUDA_ERROR_INVALID_VALUE;
    CU_CALL(cudaMemAdvise(DPTR(dptr), count));
}

/* The attributes of a managed range as the hints above leave them: not read-mostly, no
 * preferred or prefetch location, accessed by no device in particular. */
CU_EXPORT CUresult cuMemRangeGetAttribute(void *data, size_t dataSize, int attribute,
                                          CUdeviceptr dptr, size_t count)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    if (!data || !count) return CUDA_ERROR_INVALID_VALUE;
    RT_BEGIN();
    const rt_alloc *a = rt_alloc_find(DPTR(dptr), count);
    int managed = a && a->kind == RT_MEM_MANAGED;
    rt_unlock();
    if (!managed) return CUDA_ERROR_INVALID_VALUE;
    switch (attribute) {
    case 1:                                  /* READ_MOSTLY */
        if (dataSize != 4) return CUDA_ERROR_INVALID_VALUE;
        *(int *)data = 0;
        return CUDA_SUCCESS;
    case 2: case 4:                          /* PREFERRED_LOCATION, LAST_PREFETCH_LOCATION */
        if (dataSize != 4) return CUDA_ERROR_INVALID_VALUE;
        *(int *)data = -2;                   /* CU_DEVICE_INVALID */
        return CUDA_SUCCESS;
    case 3:                                  /* ACCESSED_BY */
        if (!dataSize || dataSize % 4) return CUDA_ERROR_INVALID_VALUE;
        for (size_t i = 0; i < dataSize / 4; i++) ((int *)data)[i] = -2;
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

CU_EXPORT CUresult cuMemRangeGetAttributes(void **data, size_t *dataSizes, int *attributes,
                                           size_t numAttributes, CUdeviceptr dptr, size_t count)
{
    if (!data || !dataSizes || !attributes || !numAttributes) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < numAttributes; i++) {
        CUresult r = cuMemRangeGetAttribute(data[i], dataSizes[i], attributes[i], dptr, count);
        if (r) return r;
    }
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuMemHostGetFlags(unsigned int *flags, void *p)
{
    CU_CALL(cudaHostGetFlags(flags, p));
}

/* ---- peers: one device, so a peer copy is a copy ---------------------------------------- */
CU_EXPORT CUresult cuMemcpyPeer(CUdeviceptr dst, CUcontext dstCtx, CUdeviceptr src,
                                CUcontext srcCtx, size_t n)
{
    if (!dstCtx || !srcCtx) return CUDA_ERROR_INVALID_CONTEXT;
    CU_CALL(cudaMemcpyPeer(DPTR(dst), 0, DPTR(src), 0, n));
}
CU_EXPORT CUresult cuMemcpyPeer_ptds(CUdeviceptr dst, CUcontext dstCtx, CUdeviceptr src,
                                     CUcontext srcCtx, size_t n)
{
    if (!dstCtx || !srcCtx) return CUDA_ERROR_INVALID_CONTEXT;
    CU_CALL(cudaMemcpy_ptds(DPTR(dst), DPTR(src), n, cudaMemcpyDefault));
}
CU_EXPORT CUresult cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dstCtx, CUdeviceptr src,
                                     CUcontext srcCtx, size_t n, CUstream s)
{
    if (!dstCtx || !srcCtx) return CUDA_ERROR_INVALID_CONTEXT;
    CU_CALL(cudaMemcpyPeerAsync(DPTR(dst), 0, DPTR(src), 0, n, s));
}
CU_EXPORT CUresult cuMemcpyPeerAsync_ptsz(CUdeviceptr dst, CUcontext dstCtx, CUdeviceptr src,
                                          CUcontext srcCtx, size_t n, CUstream s)
{
    if (!dstCtx || !srcCtx) return CUDA_ERROR_INVALID_CONTEXT;
    CU_CALL(cudaMemcpyAsync_ptsz(DPTR(dst), DPTR(src), n, cudaMemcpyDefault, s));
}
CU_EXPORT CUresult cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer)
{
    CU_CALL(cudaDeviceCanAccessPeer(can, dev, peer));
}
/* Peer access between contexts of the one device is refused, as CUDA refuses a device's
 * access to itself. */
CU_EXPORT CUresult cuCtxEnablePeerAccess(CUcontext peer, unsigned int flags)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    if (flags) return CUDA_ERROR_INVALID_VALUE;
    return peer ? CUDA_ERROR_INVALID_DEVICE : CUDA_ERROR_INVALID_CONTEXT;
}
CU_EXPORT CUresult cuCtxDisablePeerAccess(CUcontext peer)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    return peer ? CUDA_ERROR_PEER_ACCESS_NOT_ENABLED : CUDA_ERROR_INVALID_CONTEXT;
}
CU_EXPORT CUresult cuDeviceGetP2PAttribute(int *value, int attrib, CUdevice src, CUdevice dst)
{
    CU_CHECK_INIT();
    (void)attrib, (void)src, (void)dst;
    if (!value) return CUDA_ERROR_INVALID_VALUE;
    return CUDA_ERROR_INVALID_DEVICE;       /* a device is never its own peer */
}
