/* cu_abi_mem.h - CUDA 13 driver API descriptors: arrays, 2D/3D copies, resources, textures,
 * graph node parameters. */
#ifndef CU_ABI_MEM_H
#define CU_ABI_MEM_H

#include <stddef.h>
#include "cu_abi.h"
#include "rt.h"

/* CUDA 13.0 cuda.h layouts (the driver's descriptors differ from the runtime's). */
typedef struct {
    size_t Width, Height;
    int Format;                     /* CUarray_format */
    unsigned int NumChannels;
} CUDA_ARRAY_DESCRIPTOR;
typedef struct {
    size_t Width, Height, Depth;
    int Format;
    unsigned int NumChannels, Flags;
} CUDA_ARRAY3D_DESCRIPTOR;
typedef struct {
    size_t srcXInBytes, srcY;
    int srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    CUarray srcArray;
    size_t srcPitch;
    size_t dstXInBytes, dstY;
    int dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    CUarray dstArray;
    size_t dstPitch;
    size_t WidthInBytes, Height;
} CUDA_MEMCPY2D;
typedef struct {
    size_t srcXInBytes, srcY, srcZ, srcLOD;
    int srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    CUarray srcArray;
    void *reserved0;
    size_t srcPitch, srcHeight;
    size_t dstXInBytes, dstY, dstZ, dstLOD;
    int dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    CUarray dstArray;
    void *reserved1;
    size_t dstPitch, dstHeight;
    size_t WidthInBytes, Height, Depth;
} CUDA_MEMCPY3D;
typedef struct {
    int resType;                    /* CUresourcetype: the runtime's numbers */
    union {
        struct { CUarray hArray; } array;
        struct { void *hMipmappedArray; } mipmap;
        struct { CUdeviceptr devPtr; int format; unsigned int numChannels;
                 size_t sizeInBytes; } linear;
        struct { CUdeviceptr devPtr; int format; unsigned int numChannels; size_t width, height,
                 pitchInBytes; } pitch2D;
        struct { int reserved[32]; } reserved;
    } res;
    unsigned int flags;
} CUDA_RESOURCE_DESC;
typedef struct {
    int addressMode[3];             /* CUaddress_mode: the runtime's numbers */
    int filterMode;
    unsigned int flags;             /* CU_TRSF_* */
    unsigned int maxAnisotropy;
    int mipmapFilterMode;
    float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
    float borderColor[4];
    int reserved[12];
} CUDA_TEXTURE_DESC;
_Static_assert(sizeof(CUDA_MEMCPY2D) == 128 && sizeof(CUDA_MEMCPY3D) == 200 &&
               sizeof(CUDA_RESOURCE_DESC) == 144 && sizeof(CUDA_TEXTURE_DESC) == 104 &&
               sizeof(CUDA_ARRAY3D_DESCRIPTOR) == 40 &&
               offsetof(CUDA_MEMCPY3D, WidthInBytes) == 176 &&
               offsetof(CUDA_TEXTURE_DESC, borderColor) == 40 &&
               offsetof(CUDA_RESOURCE_DESC, flags) == 136, "CUDA 13.0 descriptor layouts");

#define CU_TRSF_READ_AS_INTEGER 0x01
#define CU_TRSF_NORMALIZED_COORDINATES 0x02
#define CU_TRSF_SRGB 0x10
enum { MT_HOST = 1, MT_DEVICE = 2, MT_ARRAY = 3, MT_UNIFIED = 4 };

/* Graph node parameters (CUDA_KERNEL_NODE_PARAMS_v2 is v1 plus a CUkernel and a context). */
typedef struct {
    CUfunction func;
    unsigned int gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
    CUkernel kern;
    CUcontext ctx;
} CUDA_KERNEL_NODE_PARAMS;
typedef struct {
    CUfunction func;
    unsigned int gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
} CUDA_KERNEL_NODE_PARAMS_v1;
_Static_assert(sizeof(CUDA_KERNEL_NODE_PARAMS) == 72 && sizeof(CUDA_KERNEL_NODE_PARAMS_v1) == 56,
               "CUDA 13.0 kernel node parameters");

/* The op of a CUDA_MEMCPY3D copy (cu_tex.c; under the runtime lock). */
cudaError_t cu_copy3d_op(const CUDA_MEMCPY3D *c, rt_op *op);

#endif
