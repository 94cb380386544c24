/* rt_tex.c - CUDA arrays (1D, 2D, 3D, layered, cubemap): allocation as dense device memory,
 * channel descriptors and the cudaMemcpy*Array* copies. */
#include <stdlib.h>
#include <string.h>
#include "rt.h"
#include "rt_tex.h"

#define ARRAY_MAGIC 0x41525259u

static struct cudaArray *g_arrays;

/* Element size and count of channels of a channel descriptor; 0 when CUDA refuses it (channel
 * sizes must be 8, 16 or 32 bits, equal, in x[, y[, z, w]] order; 16-bit floats are half). */
size_t rt_chan_size(const struct cudaChannelFormatDesc *d, int *nch)
{
    int b[4] = {d->x, d->y, d->z, d->w}, n = 0;
    while (n < 4 && b[n]) n++;
    for (int i = n; i < 4; i++)
        if (b[i]) return 0;
    if (n == 0 || n == 3) return 0;
    for (int i = 1; i < n; i++)
        if (b[i] != b[0]) return 0;
    if (b[0] != 8 && b[0] != 16 && b[0] != 32) return 0;
    if (d->f == cudaChannelFormatKindFloat ? b[0] == 8
                                            : (d->f != cudaChannelFormatKindSigned &&
                                               d->f != cudaChannelFormatKindUnsigned))
        return 0;
    if (nch) *nch = n;
    return (size_t)b[0] / 8 * (size_t)n;
}

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                   enum cudaChannelFormatKind f)
{
    struct cudaChannelFormatDesc d = { x, y, z, w, f };
    return d;
}

struct cudaArray *rt_array_get(const void *a)
{
    for (struct cudaArray *p = g_arrays; p; p = p->next)
        if (p == a) return p;
    return NULL;
}

cudaError_t rt_array_new(cudaArray_t *out, const struct cudaChannelFormatDesc *desc,
                         struct cudaExtent ext, unsigned flags)
{
    const struct cudaDeviceProp *p = rt_dev_props();
    int nch;
    size_t es = desc ? rt_chan_size(desc, &nch) : 0;
    if (!out || !desc) return cudaErrorInvalidValue;
    if (!es) return cudaErrorInvalidChannelDescriptor;
    if (flags & ~(unsigned)(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap |
                            cudaArrayTextureGather))
        return cudaErrorInvalidValue;
    size_t w = ext.width, h = ext.height ? ext.height : 1, d = ext.depth ? ext.depth : 1;
    int geom;
    if (!w) return cudaErrorInvalidValue;
    if (flags & cudaArrayCubemap) {
        if (w != ext.height || !ext.depth || ext.depth % 6 ||
            (!(flags & cudaArrayLayered) && ext.depth != 6) || w > (size_t)p->maxTextureCubemap)
            return cudaErrorInvalidValue;
        geom = flags & cudaArrayLayered ? EXEC_TEX_ACUBE : EXEC_TEX_CUBE;
    } else if (flags & cudaArrayLayered) {
        if (!ext.depth || ext.depth > (size_t)p->maxTexture2DLayered[2]) return cudaErrorInvalidValue;
        geom = ext.height ? EXEC_TEX_A2D : EXEC_TEX_A1D;
    } else if (ext.depth) {
        if (!ext.height || w > (size_t)p->maxTexture3D[0] || h > (size_t)p->maxTexture3D[1] ||
            d > (size_t)p->maxTexture3D[2])
            return cudaErrorInvalidValue;
        geom = EXEC_TEX_3D;
    } else if (ext.height) {
        if (w > (size_t)p->maxTexture2D[0] || h > (size_t)p->maxTexture2D[1])
            return cudaErrorInvalidValue;
        geom = EXEC_TEX_2D;
    } else {
        if (w > (size_t)p->maxTexture1D) return cudaErrorInvalidValue;
        geom = EXEC_TEX_1D;
    }
    struct cudaArray *a = calloc(1, sizeof *a);
    if (!a) return cudaErrorMemoryAllocation;
    a->desc = *desc;
    a->ext = ext;
    a->flags = flags;
    a->geom = geom;
    a->nch = nch;
    a->esize = es;
    a->w = w;
    a->h = h;
    a->d = d;
    a->bytes = w * h * d * es;
    void *mem;
    cudaError_t e = rt_alloc_new(RT_MEM_ARRAY, a->bytes, 0, "cudaArray", &mem);
    if (e != cudaSuccess) {
        free(a);
        return e;
    }
    a->data = mem;
    a->magic = ARRAY_MAGIC;
    a->next = g_arrays;
    g_arrays = a;
    *out = a;
    return cudaSuccess;
}

cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                            size_t width, size_t height, unsigned int flags)
{
    RT_BEGIN_CTX();
    struct cudaExtent ext = { width, height, 0 };
    if (flags & (cudaArrayLayered | cudaArrayCubemap)) return RT_END(cudaErrorInvalidValue);
    return RT_END(rt_array_new(array, desc, ext, flags));
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                              struct cudaExtent extent, unsigned int flags)
{
    RT_BEGIN_CTX();
    return RT_END(rt_array_new(array, desc, extent, flags));
}

cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
                                     const struct cudaChannelFormatDesc *desc,
                                     struct cudaExtent extent, unsigned int numLevels,
                                     unsigned int flags)
{
    (void)mipmappedArray, (void)desc, (void)extent, (void)numLevels, (void)flags;
    rt_warn("cudaMallocMipmappedArray: mipmapped CUDA arrays are not supported (use "
            "cudaMalloc3DArray; tex.level/tex.grad read level 0)");
    return rt_error(cudaErrorNotSupported);
}

cudaError_t rt_array_free(cudaArray_t array)
{
    struct cudaArray **pp = &g_arrays;
    while (*pp && *pp != array) pp = &(*pp)->next;
    if (!*pp) return cudaErrorInvalidResourceHandle;
    struct cudaArray *a = *pp;
    *pp = a->next;
    cudaError_t e = rt_alloc_free(a->data, 1u << RT_MEM_ARRAY);
    a->magic = 0;
    free(a);
    return e;
}

cudaError_t cudaFreeArray(cudaArray_t array)
{
    RT_BEGIN();
    if (array)
        rt_wait_all();   /* kernels in flight may use it */
    return RT_END(array ? rt_array_free(array) : cudaSuccess);
}

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                             unsigned int *flags, cudaArray_t array)
{
    RT_BEGIN();
    struct cudaArray *a = rt_array_get(array);
    if (!a) return RT_END(cudaErrorInvalidResourceHandle);
    if (desc) *desc = a->desc;
    if (extent) *extent = a->ext;
    if (flags) *flags = a->flags;
    return RT_END(cudaSuccess);
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
    RT_BEGIN();
    struct cudaArray *a = rt_array_get(array);
    if (!a) return RT_END(cudaErrorInvalidResourceHandle);
    if (!desc) return RT_END(cudaErrorInvalidValue);
    *desc = a->desc;
    return RT_END(cudaSuccess);
}

cudaError_t cudaDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements,
                                                 const struct cudaChannelFormatDesc *fmtDesc,
                                                 int device)
{
    if (!maxWidthInElements || !fmtDesc || !rt_chan_size(fmtDesc, NULL))
        return rt_error(cudaErrorInvalidValue);
    if (!rt_dev_valid(device)) return rt_error(cudaErrorInvalidDevice);
    int v;
    rt_dev_attribute(cudaDevAttrMaxTexture1DLinearWidth, &v);
    *maxWidthInElements = (size_t)v;
    return cudaSuccess;
}

/* The array as a pitched pointer for cudaMemcpy3D (rt_memapi.c): rows of w elements, each
 * slice (3D depth, layer or cube face) h rows. */
cudaError_t rt_array_pitched(cudaArray_const_t array, struct cudaPitchedPtr *p, size_t *elem)
{
    struct cudaArray *a = rt_array_get(array);
    if (!a) return cudaErrorInvalidResourceHandle;
    p->ptr = a->data;
    p->pitch = a->w * a->esize;
    p->xsize = a->w * a->esize;
    p->ysize = a->h;
    *elem = a->esize;
    return cudaSuccess;
}

/* ---- copies ----------------------------------------------------------------------------------
 * Offsets and widths are in bytes (wOffset, width) and rows (hOffset, height), as CUDA has
 * them; a region must lie inside the array's rows (all slices count as rows, one after the
 * other, as the dense layout stores them). */
static cudaError_t array_region(cudaArray_const_t array, size_t woff, size_t hoff, size_t width,
                                size_t height, uint64_t *addr, uint64_t *pitch)
{
    struct cudaArray *a = rt_array_get(array);
    if (!a) return cudaErrorInvalidResourceHandle;
    size_t row = a->w * a->esize, rows = a->h * a->d;
    if (woff > row || width > row - woff || hoff > rows || height > rows - hoff)
        return cudaErrorInvalidValue;
    *addr = (uint64_t)(uintptr_t)a->data + hoff * row + woff;
    *pitch = row;
    return cudaSuccess;
}

/* A copy on stream st; the synchronous calls (sync) first report a pending kernel fault, as
 * every synchronous copy does (rt_sync). */
static cudaError_t copy2d(uint64_t dst, uint64_t dpitch, uint64_t src, uint64_t spitch,
                          size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t st,
                          int ptds, int sync)
{
    if ((height > 1 && (width > dpitch || width > spitch)) || (unsigned)kind > cudaMemcpyDefault)
        return cudaErrorInvalidValue;
    rt_op op;
    rt_copy_fill(&op, dst, dpitch, dpitch * height, src, spitch, spitch * height, width, height,
                 1, kind);
    return rt_submit_sync(st, ptds, &op, sync);
}

static cudaError_t to_array(cudaArray_t dst, size_t woff, size_t hoff, const void *src,
                            size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind,
                            cudaStream_t st, int ptds, int sync)
{
    uint64_t a, pitch;
    if (!src) return cudaErrorInvalidValue;
    cudaError_t e = array_region(dst, woff, hoff, width, height, &a, &pitch);
    return e ? e : copy2d(a, pitch, (uint64_t)(uintptr_t)src, spitch, width, height, kind, st,
                          ptds, sync);
}

static cudaError_t from_array(void *dst, size_t dpitch, cudaArray_const_t src, size_t woff,
                              size_t hoff, size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t st, int ptds, int sync)
{
    uint64_t a, pitch;
    if (!dst) return cudaErrorInvalidValue;
    cudaError_t e = array_region(src, woff, hoff, width, height, &a, &pitch);
    return e ? e : copy2d((uint64_t)(uintptr_t)dst, dpitch, a, pitch, width, height, kind, st,
                          ptds, sync);
}

/* A linear count of bytes starting at (woff, hoff): the rows are contiguous. */
static cudaError_t array_linear(cudaArray_const_t array, size_t woff, size_t hoff, size_t count,
                                uint64_t *addr)
{
    struct cudaArray *a = rt_array_get(array);
    if (!a) return cudaErrorInvalidResourceHandle;
    size_t row = a->w * a->esize, start = hoff * row + woff;
    if (woff > row || hoff > a->h * a->d || start > a->bytes || count > a->bytes - start)
        return cudaErrorInvalidValue;
    *addr = (uint64_t)(uintptr_t)a->data + start;
    return cudaSuccess;
}

#define TO2D(ptds, st, sync) \
    RT_BEGIN_CTX(); \
    return RT_END(to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, st, ptds, sync))
#define FROM2D(ptds, st, sync) \
    RT_BEGIN_CTX(); \
    return RT_END(from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, st, ptds, \
                             sync))

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                size_t spitch, size_t width, size_t height,
                                enum cudaMemcpyKind kind) { TO2D(0, NULL, 1); }
cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                     const void *src, size_t spitch, size_t width, size_t height,
                                     enum cudaMemcpyKind kind) { TO2D(1, NULL, 1); }
cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                     const void *src, size_t spitch, size_t width, size_t height,
                                     enum cudaMemcpyKind kind, cudaStream_t stream)
{ TO2D(0, stream, 0); }
cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                          const void *src, size_t spitch, size_t width,
                                          size_t height, enum cudaMemcpyKind kind,
                                          cudaStream_t stream) { TO2D(1, stream, 0); }
cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                  size_t hOffset, size_t width, size_t height,
                                  enum cudaMemcpyKind kind) { FROM2D(0, NULL, 1); }
cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src,
                                       size_t wOffset, size_t hOffset, size_t width,
                                       size_t height, enum cudaMemcpyKind kind)
{ FROM2D(1, NULL, 1); }
cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src,
                                       size_t wOffset, size_t hOffset, size_t width,
                                       size_t height, enum cudaMemcpyKind kind,
                                       cudaStream_t stream) { FROM2D(0, stream, 0); }
cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src,
                                            size_t wOffset, size_t hOffset, size_t width,
                                            size_t height, enum cudaMemcpyKind kind,
                                            cudaStream_t stream) { FROM2D(1, stream, 0); }

static cudaError_t to_array1(cudaArray_t dst, size_t woff, size_t hoff, const void *src,
                             size_t count, enum cudaMemcpyKind kind, cudaStream_t st, int ptds,
                             int sync)
{
    uint64_t a;
    if (!src) return cudaErrorInvalidValue;
    cudaError_t e = array_linear(dst, woff, hoff, count, &a);
    return e ? e : copy2d(a, count, (uint64_t)(uintptr_t)src, count, count, 1, kind, st, ptds,
                          sync);
}

static cudaError_t from_array1(void *dst, cudaArray_const_t src, size_t woff, size_t hoff,
                               size_t count, enum cudaMemcpyKind kind, cudaStream_t st, int ptds,
                             int sync)
{
    uint64_t a;
    if (!dst) return cudaErrorInvalidValue;
    cudaError_t e = array_linear(src, woff, hoff, count, &a);
    return e ? e : copy2d((uint64_t)(uintptr_t)dst, count, a, count, count, 1, kind, st, ptds,
                          sync);
}

#define TO1(ptds, st, sync) \
    RT_BEGIN_CTX(); \
    return RT_END(to_array1(dst, wOffset, hOffset, src, count, kind, st, ptds, sync))
#define FROM1(ptds, st, sync) \
    RT_BEGIN_CTX(); \
    return RT_END(from_array1(dst, src, wOffset, hOffset, count, kind, st, ptds, sync))

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t count, enum cudaMemcpyKind kind) { TO1(0, NULL, 1); }
cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                   const void *src, size_t count, enum cudaMemcpyKind kind)
{ TO1(1, NULL, 1); }
cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                   const void *src, size_t count, enum cudaMemcpyKind kind,
                                   cudaStream_t stream) { TO1(0, stream, 0); }
cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                        const void *src, size_t count, enum cudaMemcpyKind kind,
                                        cudaStream_t stream) { TO1(1, stream, 0); }
cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                size_t count, enum cudaMemcpyKind kind) { FROM1(0, NULL, 1); }
cudaError_t cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset,
                                     size_t hOffset, size_t count, enum cudaMemcpyKind kind)
{ FROM1(1, NULL, 1); }
cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset,
                                     size_t hOffset, size_t count, enum cudaMemcpyKind kind,
                                     cudaStream_t stream) { FROM1(0, stream, 0); }
cudaError_t cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src, size_t wOffset,
                                          size_t hOffset, size_t count, enum cudaMemcpyKind kind,
                                          cudaStream_t stream) { FROM1(1, stream, 0); }

static cudaError_t array_to_array(cudaArray_t dst, size_t wd, size_t hd, cudaArray_const_t src,
                                  size_t ws, size_t hs, size_t width, size_t height,
                                  enum cudaMemcpyKind kind, int ptds)
{
    uint64_t da, dp, sa, sp;
    cudaError_t e = array_region(dst, wd, hd, width, height, &da, &dp);
    if (e == cudaSuccess) e = array_region(src, ws, hs, width, height, &sa, &sp);
    return e ? e : copy2d(da, dp, sa, sp, width, height, kind, NULL, ptds, 1);
}

cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                     cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                     size_t width, size_t height, enum cudaMemcpyKind kind)
{
    RT_BEGIN_CTX();
    return RT_END(array_to_array(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc,
                                 width, height, kind, 0));
}

cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                          cudaArray_const_t src, size_t wOffsetSrc,
                                          size_t hOffsetSrc, size_t width, size_t height,
                                          enum cudaMemcpyKind kind)
{
    RT_BEGIN_CTX();
    return RT_END(array_to_array(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc,
                                 width, height, kind, 1));
}

static cudaError_t array_to_array1(cudaArray_t dst, size_t wd, size_t hd, cudaArray_const_t src,
                                   size_t ws, size_t hs, size_t count, enum cudaMemcpyKind kind,
                                   int ptds)
{
    uint64_t da, sa;
    cudaError_t e = array_linear(dst, wd, hd, count, &da);
    if (e == cudaSuccess) e = array_linear(src, ws, hs, count, &sa);
    return e ? e : copy2d(da, count, sa, count, count, 1, kind, NULL, ptds, 1);
}

cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                   cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                   size_t count, enum cudaMemcpyKind kind)
{
    RT_BEGIN_CTX();
    return RT_END(array_to_array1(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc,
                                  count, kind, 0));
}

cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                        cudaArray_const_t src, size_t wOffsetSrc,
                                        size_t hOffsetSrc, size_t count, enum cudaMemcpyKind kind)
{
    RT_BEGIN_CTX();
    return RT_END(array_to_array1(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc,
                                  count, kind, 1));
}
