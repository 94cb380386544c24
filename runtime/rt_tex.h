/* rt_tex.h - internals of CUDA arrays (rt_tex.c) and texture/surface objects (rt_texobj.c). */
#ifndef RT_TEX_H
#define RT_TEX_H

#include "rt.h"
#include "rt_abi_tex.h"
#include "rt_dev.h"

/* A CUDA array: dense device memory (an RT_MEM_ARRAY allocation) holding w x h x d elements
 * of esize bytes, row after row; d counts 3D slices, layers or cube faces. */
struct cudaArray {
    uint32_t magic;
    struct cudaChannelFormatDesc desc;
    struct cudaExtent ext;          /* as allocated (0 height: 1D, 0 depth: 2D) */
    unsigned flags;                 /* cudaArrayLayered / SurfaceLoadStore / Cubemap ... */
    int geom;                       /* exec_tex_geom of a texture reading the whole array */
    int nch;
    size_t esize, w, h, d, bytes;
    uint8_t *data;
    struct cudaArray *next;
};

/* The live array a handle names; NULL. */
struct cudaArray *rt_array_get(const void *a);
/* Bytes per element and channel count of a channel descriptor; 0 when CUDA refuses it. */
size_t rt_chan_size(const struct cudaChannelFormatDesc *d, int *nch);

/* Allocate / free an array (cudaMalloc3DArray's rules, cudaErrorInvalidResourceHandle). */
cudaError_t rt_array_new(cudaArray_t *out, const struct cudaChannelFormatDesc *desc,
                         struct cudaExtent ext, unsigned flags);
cudaError_t rt_array_free(cudaArray_t array);
/* Create (t NULL for a surface) or destroy a texture/surface object in every machine. */
cudaError_t rt_texobj_new(unsigned long long *out, int surface, const struct cudaResourceDesc *r,
                          const struct cudaTextureDesc *t, const void *view);
cudaError_t rt_texobj_destroy(unsigned long long h, int surface);

#endif
