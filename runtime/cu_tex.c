/* cu_tex.c - driver API: CUDA arrays, 2D/3D copies (CUDA_MEMCPY2D/3D), texture and surface
 * objects, on the runtime's arrays (rt_tex.c) and objects (rt_texobj.c). */
#include <stddef.h>
#include <string.h>
#include "cu_abi_mem.h"
#include "cu_int.h"
#include "cu_rtapi.h"
#include "rt_tex.h"

#define CU_EXPORT __attribute__((visibility("default")))


/* The runtime channel descriptor of a CUarray_format and channel count; 0 when invalid. */
static int chan_of(int format, unsigned n, struct cudaChannelFormatDesc *d)
{
    int bits, kind;
    switch (format) {
    case 0x01: bits = 8; kind = cudaChannelFormatKindUnsigned; break;
    case 0x02: bits = 16; kind = cudaChannelFormatKindUnsigned; break;
    case 0x03: bits = 32; kind = cudaChannelFormatKindUnsigned; break;
    case 0x08: bits = 8; kind = cudaChannelFormatKindSigned; break;
    case 0x09: bits = 16; kind = cudaChannelFormatKindSigned; break;
    case 0x0a: bits = 32; kind = cudaChannelFormatKindSigned; break;
    case 0x10: bits = 16; kind = cudaChannelFormatKindFloat; break;
    case 0x20: bits = 32; kind = cudaChannelFormatKindFloat; break;
    default: return 0;
    }
    if (n != 1 && n != 2 && n != 4) return 0;
    memset(d, 0, sizeof *d);
    d->x = bits;
    d->y = n > 1 ? bits : 0;
    d->z = d->w = n > 2 ? bits : 0;
    d->f = (enum cudaChannelFormatKind)kind;
    return 1;
}

static int format_of(const struct cudaChannelFormatDesc *d)
{
    static const int u[3] = { 0x01, 0x02, 0x03 }, s[3] = { 0x08, 0x09, 0x0a };
    int k = d->x == 8 ? 0 : d->x == 16 ? 1 : 2;
    if (d->f == cudaChannelFormatKindFloat) return d->x == 16 ? 0x10 : 0x20;
    return d->f == cudaChannelFormatKindSigned ? s[k] : u[k];
}

/* ---- arrays ----------------------------------------------------------------------------------- */
static CUresult array3d(CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *a)
{
    struct cudaChannelFormatDesc d;
    CUresult r = cu_ctx_current();
    if (r) return r;
    if (!out || !a || !chan_of(a->Format, a->NumChannels, &d)) return CUDA_ERROR_INVALID_VALUE;
    struct cudaExtent ext = { a->Width, a->Height, a->Depth };
    RT_BEGIN();
    cudaError_t e = rt_array_new((cudaArray_t *)out, &d, ext, a->Flags);
    rt_unlock();
    return cu_result(e);
}

CU_EXPORT CUresult cuArray3DCreate_v2(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *p)
{
    return array3d(pHandle, p);
}

CU_EXPORT CUresult cuArrayCreate_v2(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *p)
{
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    CUDA_ARRAY3D_DESCRIPTOR a = { p->Width, p->Height, 0, p->Format, p->NumChannels, 0 };
    return array3d(pHandle, &a);
}

CU_EXPORT CUresult cuArrayDestroy(CUarray hArray)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    RT_BEGIN();
    rt_wait_all();   /* kernels in flight may use it */
    cudaError_t e = rt_array_free((cudaArray_t)(void *)hArray);
    rt_unlock();
    return cu_result(e);
}

CU_EXPORT CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *p, CUarray hArray)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    RT_BEGIN();
    struct cudaArray *a = rt_array_get(hArray);
    if (a && p) {
        p->Width = a->ext.width;
        p->Height = a->ext.height;
        p->Depth = a->ext.depth;
        p->Format = format_of(&a->desc);
        p->NumChannels = (unsigned)a->nch;
        p->Flags = a->flags;
    }
    rt_unlock();
    return !a ? CUDA_ERROR_INVALID_HANDLE : !p ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

CU_EXPORT CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *p, CUarray hArray)
{
    CUDA_ARRAY3D_DESCRIPTOR a;
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = cuArray3DGetDescriptor_v2(&a, hArray);
    if (r == CUDA_SUCCESS) {
        p->Width = a.Width;
        p->Height = a.Height;
        p->Format = a.Format;
        p->NumChannels = a.NumChannels;
    }
    return r;
}

/* ---- copies ----------------------------------------------------------------------------------
 * One side of a copy: its address at (x bytes, y rows, z slices), the pitch and rows per slice.
 * Arrays are dense (rt_tex.c); a region must lie inside the array. */
static cudaError_t side(int type, const void *host, CUdeviceptr dev, CUarray arr, size_t x,
                        size_t y, size_t z, size_t pitch, size_t height, size_t w, size_t h,
                        size_t d, uint64_t *addr, uint64_t *ppitch, uint64_t *pslice)
{
    uint64_t base;
    switch (type) {
    case MT_HOST: base = (uint64_t)(uintptr_t)host; break;
    case MT_DEVICE:
    case MT_UNIFIED: base = dev; break;
    case MT_ARRAY: {
        struct cudaArray *a = rt_array_get(arr);
        if (!a) return cudaErrorInvalidResourceHandle;
        pitch = a->w * a->esize;
        height = a->h;
        size_t slices = a->d;
        if (x > pitch || w > pitch - x || y > a->h || h > a->h - y || z > slices ||
            d > slices - z)
            return cudaErrorInvalidValue;
        base = (uint64_t)(uintptr_t)a->data;
        break;
    }
    default:
        return cudaErrorInvalidValue;
    }
    if (!base) return cudaErrorInvalidValue;
    if (h > 1 && w > pitch) return cudaErrorInvalidPitchValue;
    *addr = base + x + (y + z * height) * pitch;
    *ppitch = pitch;
    *pslice = (uint64_t)pitch * height;
    return cudaSuccess;
}

cudaError_t cu_copy3d_op(const CUDA_MEMCPY3D *c, rt_op *op)
{
    if (!c || c->srcLOD || c->dstLOD) return cudaErrorInvalidValue;
    size_t w = c->WidthInBytes, h = c->Height ? c->Height : 1, d = c->Depth ? c->Depth : 1;
    uint64_t sa, sp, ss, da, dp, ds;
    cudaError_t e = side(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, c->srcXInBytes,
                         c->srcY, c->srcZ, c->srcPitch, c->srcHeight, w, h, d, &sa, &sp, &ss);
    if (e == cudaSuccess)
        e = side(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, c->dstXInBytes,
                 c->dstY, c->dstZ, c->dstPitch, c->dstHeight, w, h, d, &da, &dp, &ds);
    if (e == cudaSuccess) rt_copy_fill(op, da, dp, ds, sa, sp, ss, w, h, d, cudaMemcpyDefault);
    return e;
}

/* sync: a synchronous copy (ptds: the per-thread default stream's variant). */
static CUresult copy3d(const CUDA_MEMCPY3D *c, CUstream s, int sync, int ptds)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    if (!c) return CUDA_ERROR_INVALID_VALUE;
    RT_BEGIN();
    rt_op op;
    cudaError_t e = cu_copy3d_op(c, &op);
    if (e == cudaSuccess) e = rt_submit_sync((cudaStream_t)s, ptds, &op, sync);
    rt_unlock();
    return cu_result(e);
}

static void widen(const CUDA_MEMCPY2D *c, CUDA_MEMCPY3D *t)
{
    memset(t, 0, sizeof *t);
    t->srcXInBytes = c->srcXInBytes;
    t->srcY = c->srcY;
    t->srcMemoryType = c->srcMemoryType;
    t->srcHost = c->srcHost;
    t->srcDevice = c->srcDevice;
    t->srcArray = c->srcArray;
    t->srcPitch = c->srcPitch;
    t->dstXInBytes = c->dstXInBytes;
    t->dstY = c->dstY;
    t->dstMemoryType = c->dstMemoryType;
    t->dstHost = c->dstHost;
    t->dstDevice = c->dstDevice;
    t->dstArray = c->dstArray;
    t->dstPitch = c->dstPitch;
    t->WidthInBytes = c->WidthInBytes;
    t->Height = c->Height;
    t->Depth = 1;
}

static CUresult copy2d(const CUDA_MEMCPY2D *p, CUstream s, int sync, int ptds)
{
    CUDA_MEMCPY3D t;
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    widen(p, &t);
    return copy3d(&t, s, sync, ptds);
}

CU_EXPORT CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *p) { return copy3d(p, NULL, 1, 0); }
CU_EXPORT CUresult cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *p) { return copy3d(p, NULL, 1, 1); }
CU_EXPORT CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *p, CUstream s)
{
    return copy3d(p, s, 0, 0);
}
CU_EXPORT CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *p, CUstream s)
{
    return copy3d(p, s, 0, 1);
}
CU_EXPORT CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *p) { return copy2d(p, NULL, 1, 0); }
CU_EXPORT CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *p) { return copy2d(p, NULL, 1, 1); }
CU_EXPORT CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *p) { return copy2d(p, NULL, 1, 0); }
CU_EXPORT CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *p)
{
    return copy2d(p, NULL, 1, 1);
}
CU_EXPORT CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *p, CUstream s)
{
    return copy2d(p, s, 0, 0);
}
CU_EXPORT CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *p, CUstream s)
{
    return copy2d(p, s, 0, 1);
}

/* Linear copies to and from an array: ByteCount bytes from byte offset `off` (rows are
 * contiguous in an array). */
static CUresult array_linear(CUarray arr, size_t off, int to_array, void *host, size_t n)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    RT_BEGIN();
    struct cudaArray *a = rt_array_get(arr);
    cudaError_t e = !a ? cudaErrorInvalidResourceHandle
                    : !host || off > a->bytes || n > a->bytes - off ? cudaErrorInvalidValue
                    : cudaSuccess;
    if (e == cudaSuccess) {
        rt_op op;
        uint64_t ad = (uint64_t)(uintptr_t)a->data + off, h = (uint64_t)(uintptr_t)host;
        rt_copy_fill(&op, to_array ? ad : h, n, n, to_array ? h : ad, n, n, n, 1, 1,
                     cudaMemcpyDefault);
        e = rt_submit_sync(NULL, 0, &op, 1);
    }
    rt_unlock();
    return cu_result(e);
}

CU_EXPORT CUresult cuMemcpyHtoA_v2(CUarray dstArray, size_t dstOffset, const void *srcHost,
                                   size_t ByteCount)
{
    return array_linear(dstArray, dstOffset, 1, (void *)(uintptr_t)srcHost, ByteCount);
}

CU_EXPORT CUresult cuMemcpyAtoH_v2(void *dstHost, CUarray srcArray, size_t srcOffset,
                                   size_t ByteCount)
{
    return array_linear(srcArray, srcOffset, 0, dstHost, ByteCount);
}

CU_EXPORT CUresult cuMemcpyDtoA_v2(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice,
                                   size_t ByteCount)
{
    return array_linear(dstArray, dstOffset, 1, (void *)(uintptr_t)srcDevice, ByteCount);
}

CU_EXPORT CUresult cuMemcpyAtoD_v2(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset,
                                   size_t ByteCount)
{
    return array_linear(srcArray, srcOffset, 0, (void *)(uintptr_t)dstDevice, ByteCount);
}

/* ---- texture and surface objects ------------------------------------------------------------ */
static cudaError_t res_of(const CUDA_RESOURCE_DESC *r, struct cudaResourceDesc *o)
{
    memset(o, 0, sizeof *o);
    o->resType = (enum cudaResourceType)r->resType;
    switch (r->resType) {
    case cudaResourceTypeArray:
        o->res.array.array = (cudaArray_t)(void *)r->res.array.hArray;
        return cudaSuccess;
    case cudaResourceTypeLinear:
        if (!chan_of(r->res.linear.format, r->res.linear.numChannels, &o->res.linear.desc))
            return cudaErrorInvalidValue;
        o->res.linear.devPtr = (void *)(uintptr_t)r->res.linear.devPtr;
        o->res.linear.sizeInBytes = r->res.linear.sizeInBytes;
        return cudaSuccess;
    case cudaResourceTypePitch2D:
        if (!chan_of(r->res.pitch2D.format, r->res.pitch2D.numChannels, &o->res.pitch2D.desc))
            return cudaErrorInvalidValue;
        o->res.pitch2D.devPtr = (void *)(uintptr_t)r->res.pitch2D.devPtr;
        o->res.pitch2D.width = r->res.pitch2D.width;
        o->res.pitch2D.height = r->res.pitch2D.height;
        o->res.pitch2D.pitchInBytes = r->res.pitch2D.pitchInBytes;
        return cudaSuccess;
    default:
        return cudaErrorNotSupported;   /* mipmapped arrays */
    }
}

/* The element type a resource holds (for the driver's default integer promotion). */
static int res_bits_int(const struct cudaResourceDesc *r)
{
    const struct cudaChannelFormatDesc *d =
        r->resType == cudaResourceTypeArray
            ? (rt_array_get(r->res.array.array) ? &rt_array_get(r->res.array.array)->desc : NULL)
        : r->resType == cudaResourceTypeLinear ? &r->res.linear.desc : &r->res.pitch2D.desc;
    return d && d->f != cudaChannelFormatKindFloat ? d->x : 0;
}

static unsigned nchan(const struct cudaChannelFormatDesc *d)
{
    return d->w ? 4 : d->y ? 2 : 1;
}

/* The driver's descriptor of a runtime resource (the inverse of res_of). */
static cudaError_t res_to(const struct cudaResourceDesc *r, CUDA_RESOURCE_DESC *o)
{
    memset(o, 0, sizeof *o);
    o->resType = (int)r->resType;
    switch (r->resType) {
    case cudaResourceTypeArray:
        o->res.array.hArray = (CUarray)(void *)r->res.array.array;
        return cudaSuccess;
    case cudaResourceTypeLinear:
        o->res.linear.format = format_of(&r->res.linear.desc);
        o->res.linear.numChannels = nchan(&r->res.linear.desc);
        o->res.linear.devPtr = (CUdeviceptr)(uintptr_t)r->res.linear.devPtr;
        o->res.linear.sizeInBytes = r->res.linear.sizeInBytes;
        return cudaSuccess;
    case cudaResourceTypePitch2D:
        o->res.pitch2D.format = format_of(&r->res.pitch2D.desc);
        o->res.pitch2D.numChannels = nchan(&r->res.pitch2D.desc);
        o->res.pitch2D.devPtr = (CUdeviceptr)(uintptr_t)r->res.pitch2D.devPtr;
        o->res.pitch2D.width = r->res.pitch2D.width;
        o->res.pitch2D.height = r->res.pitch2D.height;
        o->res.pitch2D.pitchInBytes = r->res.pitch2D.pitchInBytes;
        return cudaSuccess;
    default:
        return cudaErrorInvalidValue;
    }
}

CU_EXPORT CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc,
                                              unsigned long long texObject)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    if (!pResDesc) return CUDA_ERROR_INVALID_VALUE;
    struct cudaResourceDesc rd;
    cudaError_t e = cudaGetTextureObjectResourceDesc(&rd, texObject);
    if (e == cudaSuccess) e = res_to(&rd, pResDesc);
    return cu_result(e);
}

CU_EXPORT CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc,
                                               unsigned long long surfObject)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    if (!pResDesc) return CUDA_ERROR_INVALID_VALUE;
    struct cudaResourceDesc rd;
    cudaError_t e = cudaGetSurfaceObjectResourceDesc(&rd, surfObject);
    if (e == cudaSuccess) e = res_to(&rd, pResDesc);
    return cu_result(e);
}

/* The flags say what the object does: integers read as integers unless promoted. */
CU_EXPORT CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc,
                                             unsigned long long texObject)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    if (!pTexDesc) return CUDA_ERROR_INVALID_VALUE;
    struct cudaTextureDesc td;
    struct cudaResourceDesc rd;
    cudaError_t e = cudaGetTextureObjectTextureDesc(&td, texObject);
    if (e == cudaSuccess) e = cudaGetTextureObjectResourceDesc(&rd, texObject);
    if (e != cudaSuccess) return cu_result(e);
    memset(pTexDesc, 0, sizeof *pTexDesc);
    for (int k = 0; k < 3; k++) pTexDesc->addressMode[k] = (int)td.addressMode[k];
    pTexDesc->filterMode = (int)td.filterMode;
    RT_BEGIN();
    int bits = res_bits_int(&rd);
    rt_unlock();
    if (bits && td.readMode == cudaReadModeElementType)
        pTexDesc->flags |= CU_TRSF_READ_AS_INTEGER;
    if (td.normalizedCoords) pTexDesc->flags |= CU_TRSF_NORMALIZED_COORDINATES;
    if (td.sRGB) pTexDesc->flags |= CU_TRSF_SRGB;
    pTexDesc->maxAnisotropy = td.maxAnisotropy;
    pTexDesc->mipmapFilterMode = (int)td.mipmapFilterMode;
    pTexDesc->mipmapLevelBias = td.mipmapLevelBias;
    pTexDesc->minMipmapLevelClamp = td.minMipmapLevelClamp;
    pTexDesc->maxMipmapLevelClamp = td.maxMipmapLevelClamp;
    memcpy(pTexDesc->borderColor, td.borderColor, sizeof td.borderColor);
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuTexObjectCreate(unsigned long long *pTexObject,
                                     const CUDA_RESOURCE_DESC *pResDesc,
                                     const CUDA_TEXTURE_DESC *pTexDesc, const void *pViewDesc)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    if (!pTexObject || !pResDesc || !pTexDesc) return CUDA_ERROR_INVALID_VALUE;
    struct cudaResourceDesc rd;
    struct cudaTextureDesc td;
    RT_BEGIN();
    cudaError_t e = res_of(pResDesc, &rd);
    if (e == cudaSuccess) {
        memset(&td, 0, sizeof td);
        for (int k = 0; k < 3; k++)
            td.addressMode[k] = (enum cudaTextureAddressMode)pTexDesc->addressMode[k];
        td.filterMode = (enum cudaTextureFilterMode)pTexDesc->filterMode;
        /* the driver promotes 8- and 16-bit integers to [0, 1] floats unless told not to */
        int bits = res_bits_int(&rd);
        td.readMode = !(pTexDesc->flags & CU_TRSF_READ_AS_INTEGER) && bits && bits <= 16
                      ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
        td.normalizedCoords = !!(pTexDesc->flags & CU_TRSF_NORMALIZED_COORDINATES);
        td.sRGB = !!(pTexDesc->flags & CU_TRSF_SRGB);
        td.maxAnisotropy = pTexDesc->maxAnisotropy;
        memcpy(td.borderColor, pTexDesc->borderColor, sizeof td.borderColor);
        e = rt_texobj_new(pTexObject, 0, &rd, &td, pViewDesc);
    }
    rt_unlock();
    return cu_result(e);
}

/* cuTexObjectDestroy / cuSurfObjectDestroy: one body, surf says which kind the handle is. */
static CUresult obj_destroy(unsigned long long handle, int surf)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    RT_BEGIN();
    cudaError_t e = rt_texobj_destroy(handle, surf);
    rt_unlock();
    return cu_result(e);
}

CU_EXPORT CUresult cuTexObjectDestroy(unsigned long long texObject)
{
    return obj_destroy(texObject, 0);
}

CU_EXPORT CUresult cuSurfObjectCreate(unsigned long long *pSurfObject,
                                      const CUDA_RESOURCE_DESC *pResDesc)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    if (!pSurfObject || !pResDesc) return CUDA_ERROR_INVALID_VALUE;
    struct cudaResourceDesc rd;
    RT_BEGIN();
    cudaError_t e = pResDesc->resType != cudaResourceTypeArray ? cudaErrorInvalidValue
                                                                : res_of(pResDesc, &rd);
    if (e == cudaSuccess) e = rt_texobj_new(pSurfObject, 1, &rd, NULL, NULL);
    rt_unlock();
    return cu_result(e);
}

CU_EXPORT CUresult cuSurfObjectDestroy(unsigned long long surfObject)
{
    return obj_destroy(surfObject, 1);
}
