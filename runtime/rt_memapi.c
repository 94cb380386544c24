/* rt_memapi.c - the CUDA memory API: malloc/free of every kind, memcpy/memset, symbols, pools. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rt_graph.h"

#define RT_PITCH_ALIGN 512   /* cudaMallocPitch / cudaMalloc3D row alignment */

/* ---- allocation ------------------------------------------------------------------------------ */
/* An allocation call: NULL out is invalid, size 0 gives NULL and success. */
static cudaError_t rt_alloc_api(void **out, size_t size, rt_mem_kind kind, unsigned flags,
                                const char *what)
{
    if (!out)
        return cudaErrorInvalidValue;
    *out = NULL;
    return size ? rt_alloc_new(kind, size, flags, what, out) : cudaSuccess;
}

RT_ENTRY_CTX(cudaError_t cudaMalloc(void **devPtr, size_t size),
             rt_alloc_api(devPtr, size, RT_MEM_DEVICE, 0, "cudaMalloc"))

/* A free call: it synchronises (a pending fault is returned), NULL is a no-op. */
static cudaError_t rt_free_api(void *p, unsigned kinds)
{
    cudaError_t e = rt_capture_unsafe();   /* forbidden while streams capture (rt_capture.c) */
    if (e != cudaSuccess)
        return e;
    e = rt_sync();
    rt_gmem *gm = p && kinds & 1u << RT_MEM_ASYNC ? rt_gmem_find(p) : NULL;
    if (e == cudaSuccess && gm)
        return rt_gmem_free(gm);                /* memory a graph allocated */
    return e != cudaSuccess || !p ? e : rt_alloc_free(p, kinds);
}

RT_ENTRY_CTX(cudaError_t cudaFree(void *devPtr),
             rt_free_api(devPtr, 1u << RT_MEM_DEVICE | 1u << RT_MEM_MANAGED | 1u << RT_MEM_ASYNC))

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    RT_BEGIN_CTX();
    if (!devPtr || !pitch)
        return RT_END(cudaErrorInvalidValue);
    *devPtr = NULL;
    size_t p = (width + RT_PITCH_ALIGN - 1) / RT_PITCH_ALIGN * RT_PITCH_ALIGN;
    if (height && p > SIZE_MAX / height)
        return RT_END(cudaErrorMemoryAllocation);
    *pitch = p;
    if (!p || !height)
        return RT_END(cudaSuccess);
    return RT_END(rt_alloc_new(RT_MEM_DEVICE, (uint64_t)p * height, 0, "cudaMallocPitch",
                               devPtr));
}

cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
    RT_BEGIN_CTX();
    if (!pitchedDevPtr)
        return RT_END(cudaErrorInvalidValue);
    size_t p = (extent.width + RT_PITCH_ALIGN - 1) / RT_PITCH_ALIGN * RT_PITCH_ALIGN;
    memset(pitchedDevPtr, 0, sizeof *pitchedDevPtr);
    pitchedDevPtr->pitch = p;
    pitchedDevPtr->xsize = extent.width;
    pitchedDevPtr->ysize = extent.height;
    unsigned __int128 n = (unsigned __int128)p * extent.height * extent.depth;
    if (n > (unsigned __int128)SIZE_MAX)
        return RT_END(cudaErrorMemoryAllocation);
    if (!n)
        return RT_END(cudaSuccess);
    return RT_END(rt_alloc_new(RT_MEM_DEVICE, (uint64_t)n, 0, "cudaMalloc3D",
                               &pitchedDevPtr->ptr));
}

RT_ENTRY_CTX(cudaError_t cudaMallocHost(void **ptr, size_t size),
             rt_alloc_api(ptr, size, RT_MEM_HOST, cudaHostAllocMapped, "cudaMallocHost"))

RT_ENTRY_CTX(cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags),
             flags & ~0x7u ? cudaErrorInvalidValue
                           : rt_alloc_api(pHost, size, RT_MEM_HOST, flags, "cudaHostAlloc"))

RT_ENTRY_CTX(cudaError_t cudaFreeHost(void *ptr), rt_free_api(ptr, 1u << RT_MEM_HOST))

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    RT_BEGIN_CTX();
    if (!ptr || !size || flags & ~0xfu)
        return RT_END(cudaErrorInvalidValue);
    return RT_END(rt_alloc_register(ptr, size, flags, "cudaHostRegister"));
}

cudaError_t cudaHostUnregister(void *ptr)
{
    RT_BEGIN_CTX();
    const rt_alloc *a = rt_alloc_find(ptr, 0);
    if (!a || a->base != (uint64_t)(uintptr_t)ptr || a->kind != RT_MEM_REGISTERED)
        return RT_END(cudaErrorHostMemoryNotRegistered);
    rt_wait_all();   /* kernels in flight may use it */
    return RT_END(rt_alloc_free(ptr, 1u << RT_MEM_REGISTERED));
}

cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
    RT_BEGIN_CTX();
    const rt_alloc *a = rt_alloc_find(pHost, 0);
    if (!pDevice || flags || !a ||
        (a->kind != RT_MEM_HOST && a->kind != RT_MEM_REGISTERED && a->kind != RT_MEM_MANAGED))
        return RT_END(cudaErrorInvalidValue);
    *pDevice = pHost;   /* device pointer == host pointer */
    return RT_END(cudaSuccess);
}

cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
    RT_BEGIN_CTX();
    const rt_alloc *a = rt_alloc_find(pHost, 0);
    if (!pFlags || !a || (a->kind != RT_MEM_HOST && a->kind != RT_MEM_REGISTERED))
        return RT_END(cudaErrorInvalidValue);
    *pFlags = a->flags;
    return RT_END(cudaSuccess);
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    RT_BEGIN_CTX();
    if (!devPtr || !size || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
        return RT_END(cudaErrorInvalidValue);
    return RT_END(rt_alloc_new(RT_MEM_MANAGED, size, flags, "cudaMallocManaged", devPtr));
}

cudaError_t cudaMemGetInfo(size_t *free_, size_t *total)
{
    RT_BEGIN_CTX();
    uint64_t used, tot;
    rt_mem_usage(&used, &tot);
    if (free_)
        *free_ = (size_t)(tot - used);
    if (total)
        *total = (size_t)tot;
    return RT_END(cudaSuccess);
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attr, const void *ptr)
{
    RT_BEGIN();
    if (!attr)
        return RT_END(cudaErrorInvalidValue);
    memset(attr, 0, sizeof *attr);
    attr->device = 0;
    enum cudaMemoryType t = rt_mem_type(ptr, 0);
    attr->type = t;
    switch (t) {
    case cudaMemoryTypeDevice:
        attr->devicePointer = (void *)ptr;
        break;
    case cudaMemoryTypeHost:
    case cudaMemoryTypeManaged:
        attr->devicePointer = (void *)ptr;
        attr->hostPointer = (void *)ptr;
        break;
    default:
        attr->device = -2;   /* what CUDA reports for unregistered host memory */
        break;
    }
    return RT_END(cudaSuccess);
}




/* Data placement hints: every byte is already where both the host and the kernels see it
 * (CUDA 13's cudaMemPrefetchAsync/cudaMemAdvise take more arguments; none matters here). */
static cudaError_t rt_hint(const void *p, size_t n)
{
    (void)p, (void)n;
    return cudaSuccess;
}
RT_ENTRY_CTX(cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count),
             rt_hint(devPtr, count))
RT_ENTRY_CTX(cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count),
             rt_hint(devPtr, count))
RT_ENTRY_CTX(cudaError_t cudaMemAdvise(const void *devPtr, size_t count), rt_hint(devPtr, count))

static cudaError_t rt_attach(cudaStream_t stream, int ptds, void *p, size_t n, unsigned flags)
{
    (void)p, (void)n, (void)flags;
    return rt_stream_get(stream, ptds) ? cudaSuccess : cudaErrorInvalidResourceHandle;
}
RT_ENTRY_CTX(cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
                                                  unsigned int flags),
             rt_attach(stream, 0, devPtr, length, flags))
RT_ENTRY_CTX(cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr,
                                                       size_t length, unsigned int flags),
             rt_attach(stream, 1, devPtr, length, flags))

/* ---- copies ---------------------------------------------------------------------------------- */
void rt_copy_fill(rt_op *op, uint64_t dst, uint64_t dpitch, uint64_t dslice, uint64_t src,
                  uint64_t spitch, uint64_t sslice, uint64_t width, uint64_t height,
                  uint64_t depth, enum cudaMemcpyKind kind)
{
    memset(op, 0, sizeof *op);
    op->kind = RT_OP_COPY;
    op->u.copy.dst = dst;
    op->u.copy.src = src;
    op->u.copy.width = width;
    op->u.copy.height = height;
    op->u.copy.depth = depth;
    op->u.copy.dpitch = dpitch;
    op->u.copy.spitch = spitch;
    op->u.copy.dslice = dslice;
    op->u.copy.sslice = sslice;
    op->u.copy.dir = kind;
}

static cudaError_t rt_copy3(uint64_t dst, uint64_t dpitch, uint64_t dslice, uint64_t src,
                            uint64_t spitch, uint64_t sslice, uint64_t width, uint64_t height,
                            uint64_t depth, enum cudaMemcpyKind kind, cudaStream_t st, int ptds,
                            int sync)
{
    rt_op op;
    rt_copy_fill(&op, dst, dpitch, dslice, src, spitch, sslice, width, height, depth, kind);
    return rt_submit_sync(st, ptds, &op, sync);
}

#define RT_COPY1(dst, src, n, kind, st, ptds, sync)                                         \
    rt_copy3((uint64_t)(uintptr_t)(dst), (n), (n), (uint64_t)(uintptr_t)(src), (n), (n), (n), \
             1, 1, kind, st, ptds, sync)

RT_ENTRY_CTX(cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                                    enum cudaMemcpyKind kind),
             RT_COPY1(dst, src, count, kind, NULL, 0, 1))

RT_ENTRY_CTX(cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count,
                                         enum cudaMemcpyKind kind),
             RT_COPY1(dst, src, count, kind, NULL, 1, 1))

RT_ENTRY_CTX(cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                         enum cudaMemcpyKind kind, cudaStream_t stream),
             RT_COPY1(dst, src, count, kind, stream, 0, 0))

RT_ENTRY_CTX(cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
                                              enum cudaMemcpyKind kind, cudaStream_t stream),
             RT_COPY1(dst, src, count, kind, stream, 1, 0))

cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
                           size_t count)
{
    RT_BEGIN_CTX();
    if (dstDevice != 0 || srcDevice != 0)
        return RT_END(cudaErrorInvalidDevice);
    return RT_END(RT_COPY1(dst, src, count, cudaMemcpyDeviceToDevice, NULL, 0, 1));
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                                size_t count, cudaStream_t stream)
{
    RT_BEGIN_CTX();
    if (dstDevice != 0 || srcDevice != 0)
        return RT_END(cudaErrorInvalidDevice);
    return RT_END(RT_COPY1(dst, src, count, cudaMemcpyDeviceToDevice, stream, 0, 0));
}

static cudaError_t rt_copy2(void *dst, size_t dpitch, const void *src, size_t spitch,
                            size_t width, size_t height, enum cudaMemcpyKind kind,
                            cudaStream_t st, int ptds, int sync)
{
    if (height && (width > dpitch || width > spitch))
        return cudaErrorInvalidPitchValue;
    return rt_copy3((uint64_t)(uintptr_t)dst, dpitch, dpitch * height,
                    (uint64_t)(uintptr_t)src, spitch, spitch * height, width, height, 1, kind,
                    st, ptds, sync);
}

RT_ENTRY_CTX(cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                      size_t width, size_t height, enum cudaMemcpyKind kind),
             rt_copy2(dst, dpitch, src, spitch, width, height, kind, NULL, 0, 1))

RT_ENTRY_CTX(cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch,
                                           size_t width, size_t height, enum cudaMemcpyKind kind),
             rt_copy2(dst, dpitch, src, spitch, width, height, kind, NULL, 1, 1))

RT_ENTRY_CTX(cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                           size_t width, size_t height, enum cudaMemcpyKind kind,
                                           cudaStream_t stream),
             rt_copy2(dst, dpitch, src, spitch, width, height, kind, stream, 0, 0))

RT_ENTRY_CTX(cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src,
                                                size_t spitch, size_t width, size_t height,
                                                enum cudaMemcpyKind kind, cudaStream_t stream),
             rt_copy2(dst, dpitch, src, spitch, width, height, kind, stream, 1, 0))

/* A CUDA array as a pitched pointer (rt_tex.c defines the real one); elem: bytes per element. */
__attribute__((weak)) cudaError_t rt_array_pitched(cudaArray_const_t a, struct cudaPitchedPtr *p,
                                                   size_t *elem)
{
    (void)a, (void)p, (void)elem;
    return cudaErrorInvalidResourceHandle;
}

cudaError_t rt_copy3d_op(const struct cudaMemcpy3DParms *p, rt_op *op)
{
    if (!p || (p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr) ||
        (!p->srcArray && !p->srcPtr.ptr) || (!p->dstArray && !p->dstPtr.ptr))
        return cudaErrorInvalidValue;
    struct cudaPitchedPtr s = p->srcPtr, d = p->dstPtr;
    size_t se = 1, de = 1, elem = 1;
    enum cudaMemcpyKind kind = p->kind;
    if (p->srcArray) {
        cudaError_t e = rt_array_pitched(p->srcArray, &s, &se);
        if (e != cudaSuccess)
            return e;
        elem = se;
    }
    if (p->dstArray) {
        cudaError_t e = rt_array_pitched(p->dstArray, &d, &de);
        if (e != cudaSuccess)
            return e;
        elem = de;
    }
    if (p->srcArray && p->dstArray && se != de)
        return cudaErrorInvalidValue;
    /* positions: x in elements for arrays, in bytes for pitched pointers; extent.width in
     * elements when an array takes part, else in bytes */
    uint64_t w = p->extent.width * elem;
    uint64_t soff = p->srcPos.x * (p->srcArray ? se : 1) +
                    (p->srcPos.y + p->srcPos.z * s.ysize) * s.pitch;
    uint64_t doff = p->dstPos.x * (p->dstArray ? de : 1) +
                    (p->dstPos.y + p->dstPos.z * d.ysize) * d.pitch;
    uint64_t h = p->extent.height, dep = p->extent.depth;
    if (h > 1 || dep > 1) {
        if (w > s.pitch || w > d.pitch)
            return cudaErrorInvalidPitchValue;
    }
    rt_copy_fill(op, (uint64_t)(uintptr_t)d.ptr + doff, d.pitch, (uint64_t)d.pitch * d.ysize,
                 (uint64_t)(uintptr_t)s.ptr + soff, s.pitch, (uint64_t)s.pitch * s.ysize, w, h,
                 dep, kind);
    return cudaSuccess;
}

static cudaError_t rt_copy3d(const struct cudaMemcpy3DParms *p, cudaStream_t st, int ptds,
                             int sync)
{
    rt_op op;
    cudaError_t e = rt_copy3d_op(p, &op);
    return e != cudaSuccess ? e : rt_submit_sync(st, ptds, &op, sync);
}

RT_ENTRY_CTX(cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p), rt_copy3d(p, NULL, 0, 1))

RT_ENTRY_CTX(cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p),
             rt_copy3d(p, NULL, 1, 1))

RT_ENTRY_CTX(cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream),
             rt_copy3d(p, stream, 0, 0))

RT_ENTRY_CTX(cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p,
                                                cudaStream_t stream), rt_copy3d(p, stream, 1, 0))

/* ---- symbols --------------------------------------------------------------------------------- */
static cudaError_t rt_symbol(const void *symbol, rt_var **out)
{
    rt_var *v = rt_var_by_host(symbol);
    if (!v)
        return cudaErrorInvalidSymbol;
    *out = v;
    return cudaSuccess;
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    RT_BEGIN_CTX();
    rt_var *v;
    cudaError_t e = rt_symbol(symbol, &v);
    if (e == cudaSuccess)
        e = devPtr ? rt_var_addr(v, devPtr, NULL) : cudaErrorInvalidValue;
    return RT_END(e);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    RT_BEGIN_CTX();
    rt_var *v;
    cudaError_t e = rt_symbol(symbol, &v);
    if (e == cudaSuccess)
        e = size ? rt_var_addr(v, NULL, size) : cudaErrorInvalidValue;
    return RT_END(e);
}

/* to = 1: host/device memory -> symbol. */
cudaError_t rt_symcopy_op(const void *symbol, void *mem, size_t count, size_t offset,
                          enum cudaMemcpyKind kind, int to, rt_op *op)
{
    rt_var *v;
    cudaError_t e = rt_symbol(symbol, &v);
    if (e != cudaSuccess)
        return e;
    if (to ? kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
                 kind != cudaMemcpyDefault
           : kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
                 kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    if (offset > v->size || count > v->size - offset)
        return cudaErrorInvalidValue;
    memset(op, 0, sizeof *op);
    if (!count)
        return cudaSuccess;
    uint8_t *h = rt_var_host(v, offset, count);
    if (!h)
        return cudaErrorInvalidSymbol;
    op->kind = RT_OP_COPY;
    op->u.copy.width = op->u.copy.dpitch = op->u.copy.spitch = count;
    op->u.copy.dslice = op->u.copy.sslice = count;
    op->u.copy.height = op->u.copy.depth = 1;
    int other_dev = kind == cudaMemcpyDeviceToDevice;
    op->u.copy.dir = other_dev ? cudaMemcpyDeviceToDevice
                   : kind == cudaMemcpyDefault ? cudaMemcpyDefault
                   : cudaMemcpyHostToHost;
    if (to) {
        op->u.copy.dst = (uint64_t)(uintptr_t)h;
        op->u.copy.dst_raw = 1;
        op->u.copy.src = (uint64_t)(uintptr_t)mem;
    } else {
        op->u.copy.src = (uint64_t)(uintptr_t)h;
        op->u.copy.src_raw = 1;
        op->u.copy.dst = (uint64_t)(uintptr_t)mem;
    }
    return cudaSuccess;
}

static cudaError_t rt_symcopy(const void *symbol, void *mem, size_t count, size_t offset,
                              enum cudaMemcpyKind kind, int to, cudaStream_t st, int ptds,
                              int sync)
{
    rt_op op;
    cudaError_t e = rt_symcopy_op(symbol, mem, count, offset, kind, to, &op);
    if (e != cudaSuccess || !op.kind)
        return e;
    return rt_submit_sync(st, ptds, &op, sync);
}

RT_ENTRY_CTX(cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                            size_t offset, enum cudaMemcpyKind kind),
             rt_symcopy(symbol, (void *)src, count, offset, kind, 1, NULL, 0, 1))

RT_ENTRY_CTX(cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
                                                 size_t offset, enum cudaMemcpyKind kind),
             rt_symcopy(symbol, (void *)src, count, offset, kind, 1, NULL, 1, 1))

RT_ENTRY_CTX(cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                              size_t offset, enum cudaMemcpyKind kind),
             rt_symcopy(symbol, dst, count, offset, kind, 0, NULL, 0, 1))

RT_ENTRY_CTX(cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count,
                                                   size_t offset, enum cudaMemcpyKind kind),
             rt_symcopy(symbol, dst, count, offset, kind, 0, NULL, 1, 1))

RT_ENTRY_CTX(cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                                 size_t offset, enum cudaMemcpyKind kind,
                                                 cudaStream_t stream),
             rt_symcopy(symbol, (void *)src, count, offset, kind, 1, stream, 0, 0))

RT_ENTRY_CTX(cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src,
                                                      size_t count, size_t offset,
                                                      enum cudaMemcpyKind kind,
                                                      cudaStream_t stream),
             rt_symcopy(symbol, (void *)src, count, offset, kind, 1, stream, 1, 0))

RT_ENTRY_CTX(cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                                   size_t offset, enum cudaMemcpyKind kind,
                                                   cudaStream_t stream),
             rt_symcopy(symbol, dst, count, offset, kind, 0, stream, 0, 0))

RT_ENTRY_CTX(cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count,
                                                        size_t offset, enum cudaMemcpyKind kind,
                                                        cudaStream_t stream),
             rt_symcopy(symbol, dst, count, offset, kind, 0, stream, 1, 0))

/* ---- memset ---------------------------------------------------------------------------------- */
static cudaError_t rt_memset3(void *dst, size_t pitch, size_t slice, int value, size_t width,
                              size_t height, size_t depth, cudaStream_t st, int ptds, int sync)
{
    rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = RT_OP_SET;
    op.u.set.dst = (uint64_t)(uintptr_t)dst;
    op.u.set.value = (uint32_t)(value & 0xff);
    op.u.set.elem_size = 1;
    op.u.set.width = width;
    op.u.set.height = height;
    op.u.set.depth = depth;
    op.u.set.pitch = pitch;
    op.u.set.slice = slice;
    return rt_submit_sync(st, ptds, &op, sync);
}

RT_ENTRY_CTX(cudaError_t cudaMemset(void *devPtr, int value, size_t count),
             rt_memset3(devPtr, count, count, value, count, 1, 1, NULL, 0, 1))

RT_ENTRY_CTX(cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count),
             rt_memset3(devPtr, count, count, value, count, 1, 1, NULL, 1, 1))

RT_ENTRY_CTX(cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                                         cudaStream_t stream),
             rt_memset3(devPtr, count, count, value, count, 1, 1, stream, 0, 0))

RT_ENTRY_CTX(cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count,
                                              cudaStream_t stream),
             rt_memset3(devPtr, count, count, value, count, 1, 1, stream, 1, 0))

RT_ENTRY_CTX(cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
                                      size_t height),
             rt_memset3(devPtr, pitch, pitch * height, value, width, height, 1, NULL, 0, 1))

RT_ENTRY_CTX(cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width,
                                           size_t height),
             rt_memset3(devPtr, pitch, pitch * height, value, width, height, 1, NULL, 1, 1))

RT_ENTRY_CTX(cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                                           size_t height, cudaStream_t stream),
             rt_memset3(devPtr, pitch, pitch * height, value, width, height, 1, stream, 0, 0))

RT_ENTRY_CTX(cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width,
                                                size_t height, cudaStream_t stream),
             rt_memset3(devPtr, pitch, pitch * height, value, width, height, 1, stream, 1, 0))

static cudaError_t rt_memset3d(struct cudaPitchedPtr p, int value, struct cudaExtent e,
                               cudaStream_t st, int ptds, int sync)
{
    return rt_memset3(p.ptr, p.pitch, p.pitch * p.ysize, value, e.width, e.height, e.depth, st,
                      ptds, sync);
}

RT_ENTRY_CTX(cudaError_t cudaMemset3D(struct cudaPitchedPtr p, int value, struct cudaExtent extent),
             rt_memset3d(p, value, extent, NULL, 0, 1))

RT_ENTRY_CTX(cudaError_t cudaMemset3D_ptds(struct cudaPitchedPtr p, int value,
                                           struct cudaExtent extent),
             rt_memset3d(p, value, extent, NULL, 1, 1))

RT_ENTRY_CTX(cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr p, int value,
                                           struct cudaExtent extent, cudaStream_t stream),
             rt_memset3d(p, value, extent, stream, 0, 0))

RT_ENTRY_CTX(cudaError_t cudaMemset3DAsync_ptsz(struct cudaPitchedPtr p, int value,
                                                struct cudaExtent extent, cudaStream_t stream),
             rt_memset3d(p, value, extent, stream, 1, 0))

/* ---- peer copies (one device: only device 0 is valid) ---------------------------------------- */
static cudaError_t rt_copy3d_peer(const struct cudaMemcpy3DPeerParms *p, cudaStream_t st,
                                  int ptds, int sync)
{
    if (!p)
        return cudaErrorInvalidValue;
    if (p->srcDevice != 0 || p->dstDevice != 0)
        return cudaErrorInvalidDevice;
    struct cudaMemcpy3DParms q;
    memset(&q, 0, sizeof q);
    q.srcArray = p->srcArray;
    q.srcPos = p->srcPos;
    q.srcPtr = p->srcPtr;
    q.dstArray = p->dstArray;
    q.dstPos = p->dstPos;
    q.dstPtr = p->dstPtr;
    q.extent = p->extent;
    q.kind = cudaMemcpyDefault;
    return rt_copy3d(&q, st, ptds, sync);
}

RT_ENTRY_CTX(cudaError_t cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p),
             rt_copy3d_peer(p, NULL, 0, 1))

RT_ENTRY_CTX(cudaError_t cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p),
             rt_copy3d_peer(p, NULL, 1, 1))

RT_ENTRY_CTX(cudaError_t cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p,
                                               cudaStream_t stream),
             rt_copy3d_peer(p, stream, 0, 0))

RT_ENTRY_CTX(cudaError_t cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *p,
                                                    cudaStream_t stream),
             rt_copy3d_peer(p, stream, 1, 0))


