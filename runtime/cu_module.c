/* cu_module.c - driver API: modules (PTX text, fat binaries), functions, globals, launches,
 * function attributes and occupancy, on the runtime's modules and rt_submit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cu_int.h"
#include "rt.h"
#include "rt_graph.h"

#define CU_EXPORT __attribute__((visibility("default")))

/* CUmodule is an rt_module, CUfunction an rt_kernel. */
static rt_module *mod_of(CUmodule h)
{
    for (rt_module *m = rt_modules(); m; m = m->next)
        if ((void *)m == (void *)h) return m;
    return NULL;
}

static rt_kernel *func_of(CUfunction f)
{
    for (rt_module *m = rt_modules(); m; m = m->next)
        for (rt_kernel *k = m->kernels; k; k = k->next)
            if ((void *)k == (void *)f) return k->func ? k : NULL;
    return NULL;
}

#define CU_BEGIN() do { CUresult r_ = cu_ctx_current(); if (r_) return r_; RT_BEGIN(); } while (0)
#define CU_END(e) (rt_unlock(), cu_result(e))

/* A module from an image: a fat binary (or its wrapper), PTX text; an ELF cubin is refused. */
static CUresult load_image(CUmodule *out, const void *image, size_t maxlen, const char *name,
                           char *log, size_t loglen)
{
    const unsigned char *p = image;
    rt_module *mod = NULL;
    if (!out || !image) return CUDA_ERROR_INVALID_VALUE;
    uint32_t magic;
    memcpy(&magic, p, 4);
    if (magic == RT_FATBINC_MAGIC) {          /* __fatBinC_Wrapper_t: { magic, version, data } */
        const void *data;
        memcpy(&data, p + 8, sizeof data);
        p = data;
        memcpy(&magic, p, 4);
    }
    if (!memcmp(p, "\177ELF", 4)) {
        snprintf(log, loglen, "%s is a cubin (SASS only): ptxdbg runs PTX; load the PTX text "
                 "(nvcc -ptx, NVRTC) or a fat binary that carries PTX", name);
        rt_warn("%s", log);
        return CUDA_ERROR_INVALID_IMAGE;
    }
    if (magic == RT_FATBIN_MAGIC) {
        size_t n = rt_fatbin_size(p, maxlen);
        if (!n) return CUDA_ERROR_INVALID_IMAGE;
        mod = rt_module_new_fatbin(p, n);
    } else {
        size_t n = strnlen((const char *)p, maxlen);
        mod = rt_module_new_ptx((const char *)p, n, name);
    }
    if (!mod) return CUDA_ERROR_OUT_OF_MEMORY;
    cudaError_t e = rt_module_load(mod);
    if (e != cudaSuccess) {
        /* the JIT's error log: the reason, e.g. "FILE:LINE: error: entry function 'k' uses
           too much shared data (0xc004 bytes, 0xc000 max)" */
        snprintf(log, loglen, "%s", mod->load_msg[0] ? mod->load_msg : rt_error_name(e));
        rt_module_free(mod);
        return e == cudaErrorInvalidPtx ? CUDA_ERROR_INVALID_PTX
               : e == cudaErrorNoKernelImageForDevice ? CUDA_ERROR_NO_BINARY_FOR_GPU
               : cu_result(e);
    }
    *out = (CUmodule)(void *)mod;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    char log[512];
    CU_BEGIN();
    CUresult r = load_image(module, image, (size_t)1 << 30, "module data", log, sizeof log);
    rt_unlock();
    return r;
}

CU_EXPORT CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
    return cuModuleLoadData(module, fatCubin);
}

/* Options: the error and information log buffers are filled; the others (optimisation
 * levels, register limits, targets) do not apply to an emulator and are ignored. */
CU_EXPORT CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                                      int *options, void **optionValues)
{
    char log[512] = "";
    char *errbuf = NULL, *infobuf = NULL;
    size_t errlen = 0, infolen = 0;
    if (numOptions && (!options || !optionValues)) return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < numOptions; i++) {
        switch (options[i]) {
        case 3: infobuf = optionValues[i]; break;                            /* INFO_LOG */
        case 4: infolen = (size_t)(uintptr_t)optionValues[i]; break;
        case 5: errbuf = optionValues[i]; break;                             /* ERROR_LOG */
        case 6: errlen = (size_t)(uintptr_t)optionValues[i]; break;
        default: break;
        }
    }
    CU_BEGIN();
    CUresult r = load_image(module, image, (size_t)1 << 30, "module data", log, sizeof log);
    rt_unlock();
    if (errbuf && errlen) snprintf(errbuf, errlen, "%s", r ? log : "");
    if (infobuf && infolen) snprintf(infobuf, infolen, "%s", r ? "" : "loaded by ptxdbg");
    return r;
}

CUresult cu_read_file(const char *path, char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return CUDA_ERROR_FILE_NOT_FOUND;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            char *nb = cap < ((size_t)1 << 30) ? realloc(buf, 2 * cap + 1) : NULL;
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) return CUDA_ERROR_OUT_OF_MEMORY;
    buf[n] = 0;
    *out = buf;
    *len = n;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
    if (!fname) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = cu_ctx_current();
    if (r) return r;
    char *buf;
    size_t n;
    if ((r = cu_read_file(fname, &buf, &n))) return r;
    char log[512];
    RT_BEGIN();
    r = n < 4 ? CUDA_ERROR_INVALID_IMAGE : load_image(module, buf, n, fname, log, sizeof log);
    rt_unlock();
    free(buf);
    return r;
}

CU_EXPORT CUresult cuModuleUnload(CUmodule hmod)
{
    CU_BEGIN();
    rt_module *m = mod_of(hmod);
    if (!m) return CU_END(cudaErrorInvalidResourceHandle);
    rt_module_free(m);
    return CU_END(cudaSuccess);
}

CU_EXPORT CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    CU_BEGIN();
    rt_module *m = mod_of(hmod);
    if (!m) return CU_END(cudaErrorInvalidResourceHandle);
    if (!hfunc || !name) return CU_END(cudaErrorInvalidValue);
    rt_kernel *k = rt_kernel_by_name(m, name);
    if (!k || rt_kernel_ready(k) != cudaSuccess) {
        rt_unlock();
        return CUDA_ERROR_NOT_FOUND;
    }
    *hfunc = (CUfunction)(void *)k;
    return CU_END(cudaSuccess);
}

CU_EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod,
                                        const char *name)
{
    CU_BEGIN();
    rt_module *m = mod_of(hmod);
    if (!m) return CU_END(cudaErrorInvalidResourceHandle);
    if (!name) return CU_END(cudaErrorInvalidValue);
    rt_var *v = rt_var_by_name(m, name);
    void *dev;
    size_t size;
    if (!v || rt_var_addr_tagged(v, &dev, &size) != cudaSuccess) {
        rt_unlock();
        return CUDA_ERROR_NOT_FOUND;
    }
    if (dptr) *dptr = (CUdeviceptr)(uintptr_t)dev;
    if (bytes) *bytes = size;
    return CU_END(cudaSuccess);
}

/* ---- launches --------------------------------------------------------------------------------- */
static CUresult launch(CUfunction f, dim3 grid, dim3 block, unsigned shmem, CUstream stream,
                       void **params, void **extra, dim3 cluster, int coop)
{
    CU_BEGIN();
    rt_kernel *k = func_of(f);
    if (!k) return CU_END(cudaErrorInvalidResourceHandle);
    if (params && extra) return CU_END(cudaErrorInvalidValue);
    cudaError_t e = rt_sticky();
    if (e != cudaSuccess) return CU_END(e);
    uint8_t *buf;
    if ((e = rt_kernel_params(k, params, extra, &buf)) != cudaSuccess) return CU_END(e);
    e = rt_launch_packed(k, grid, block, buf, shmem, (cudaStream_t)stream, 0, cluster, coop, 0);
    free(buf);
    return CU_END(e);
}

CU_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                                  unsigned int bx, unsigned int by, unsigned int bz,
                                  unsigned int sharedMemBytes, CUstream hStream,
                                  void **kernelParams, void **extra)
{
    dim3 g = { gx, gy, gz }, b = { bx, by, bz }, c = { 0, 0, 0 };
    return launch(f, g, b, sharedMemBytes, hStream, kernelParams, extra, c, 0);
}

CU_EXPORT CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gx, unsigned int gy,
                                             unsigned int gz, unsigned int bx, unsigned int by,
                                             unsigned int bz, unsigned int sharedMemBytes,
                                             CUstream hStream, void **kernelParams)
{
    dim3 g = { gx, gy, gz }, b = { bx, by, bz }, c = { 0, 0, 0 };
    return launch(f, g, b, sharedMemBytes, hStream, kernelParams, NULL, c, 1);
}

CU_EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f,
                                    void **kernelParams, void **extra)
{
    if (!config || (config->numAttrs && !config->attrs)) return CUDA_ERROR_INVALID_VALUE;
    dim3 g = { config->gridDimX, config->gridDimY, config->gridDimZ };
    dim3 b = { config->blockDimX, config->blockDimY, config->blockDimZ }, c = { 0, 0, 0 };
    int coop = 0;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const cudaLaunchAttribute *a = &config->attrs[i];
        if (a->id == cudaLaunchAttributeClusterDimension) {
            c.x = a->val.clusterDim.x;
            c.y = a->val.clusterDim.y;
            c.z = a->val.clusterDim.z;
        } else if (a->id == cudaLaunchAttributeCooperative) {
            coop = a->val.cooperative != 0;
        }
    }
    return launch(f, g, b, config->sharedMemBytes, config->hStream, kernelParams, extra, c, coop);
}

/* ---- function attributes and occupancy -------------------------------------------------------- */
CU_EXPORT CUresult cuFuncGetAttribute(int *pi, int attrib, CUfunction hfunc)
{
    CU_BEGIN();
    rt_kernel *k = func_of(hfunc);
    if (!k) return CU_END(cudaErrorInvalidResourceHandle);
    if (!pi) return CU_END(cudaErrorInvalidValue);
    struct cudaFuncAttributes a;
    rt_kernel_get_attributes(k, &a);
    const int v[] = { a.maxThreadsPerBlock, (int)a.sharedSizeBytes, (int)a.constSizeBytes,
                      (int)a.localSizeBytes, a.numRegs, a.ptxVersion, a.binaryVersion,
                      a.cacheModeCA, a.maxDynamicSharedSizeBytes, a.preferredShmemCarveout,
                      a.clusterDimMustBeSet, a.requiredClusterWidth, a.requiredClusterHeight,
                      a.requiredClusterDepth, a.nonPortableClusterSizeAllowed,
                      a.clusterSchedulingPolicyPreference };
    if (attrib < 0 || attrib >= (int)(sizeof v / sizeof v[0]))
        return CU_END(cudaErrorInvalidValue);
    *pi = v[attrib];
    return CU_END(cudaSuccess);
}

CU_EXPORT CUresult cuFuncSetAttribute(CUfunction hfunc, int attrib, int value)
{
    CU_BEGIN();
    rt_kernel *k = func_of(hfunc);
    if (!k) return CU_END(cudaErrorInvalidResourceHandle);
    return CU_END(rt_kernel_set_attr(k, attrib, value));
}

CU_EXPORT CUresult cuFuncSetCacheConfig(CUfunction hfunc, int config)
{
    CU_BEGIN();
    rt_kernel *k = func_of(hfunc);
    if (!k) return CU_END(cudaErrorInvalidResourceHandle);
    return CU_END(rt_kernel_set_cache(k, config));
}

CU_EXPORT CUresult cuFuncGetName(const char **name, CUfunction hfunc)
{
    CU_BEGIN();
    rt_kernel *k = func_of(hfunc);
    if (!k) return CU_END(cudaErrorInvalidResourceHandle);
    if (!name) return CU_END(cudaErrorInvalidValue);
    *name = k->name;
    return CU_END(cudaSuccess);
}

CU_EXPORT CUresult cuFuncGetModule(CUmodule *hmod, CUfunction hfunc)
{
    CU_BEGIN();
    rt_kernel *k = func_of(hfunc);
    if (!k) return CU_END(cudaErrorInvalidResourceHandle);
    if (!hmod) return CU_END(cudaErrorInvalidValue);
    *hmod = (CUmodule)(void *)k->mod;
    return CU_END(cudaSuccess);
}

CU_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
        CUfunction func, int blockSize, size_t dynamicSMemSize, unsigned int flags)
{
    CU_BEGIN();
    rt_kernel *k = func_of(func);
    if (!k) return CU_END(cudaErrorInvalidResourceHandle);
    if (!numBlocks || blockSize <= 0 || flags > 1) return CU_END(cudaErrorInvalidValue);
    *numBlocks = rt_kernel_occupancy(k, blockSize, dynamicSMemSize);
    return CU_END(cudaSuccess);
}

CU_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func,
                                                               int blockSize,
                                                               size_t dynamicSMemSize)
{
    return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                dynamicSMemSize, 0);
}

typedef size_t (*CUoccupancyB2DSize)(int blockSize);

/* The block size giving the most resident threads per SM (the largest such size on ties), as
 * CUDA's calculator searches it: every multiple of the warp size up to the kernel's limit. */
CU_EXPORT CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize,
        CUfunction func, CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize,
        int blockSizeLimit, unsigned int flags)
{
    CU_BEGIN();
    rt_kernel *k = func_of(func);
    if (!k) return CU_END(cudaErrorInvalidResourceHandle);
    if (!minGridSize || !blockSize || flags > 1 || blockSizeLimit < 0)
        return CU_END(cudaErrorInvalidValue);
    const struct cudaDeviceProp *p = rt_dev_props();
    struct cudaFuncAttributes fa;
    rt_kernel_get_attributes(k, &fa);
    int limit = fa.maxThreadsPerBlock;
    if (blockSizeLimit && blockSizeLimit < limit) limit = blockSizeLimit;
    int best = 0, best_bs = 0, best_blocks = 0;
    for (int bs = (limit + p->warpSize - 1) / p->warpSize * p->warpSize; bs > 0;
         bs -= p->warpSize) {
        int b = bs > limit ? limit : bs;
        size_t dyn = blockSizeToDynamicSMemSize ? blockSizeToDynamicSMemSize(b) : dynamicSMemSize;
        int n = rt_kernel_occupancy(k, b, dyn);
        if (n * b > best) {
            best = n * b;
            best_bs = b;
            best_blocks = n;
        }
        if (best == p->maxThreadsPerMultiProcessor) break;
    }
    *minGridSize = best_blocks * p->multiProcessorCount;
    *blockSize = best_bs;
    return CU_END(cudaSuccess);
}

CU_EXPORT CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize,
                                                    CUfunction func,
                                                    CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                    size_t dynamicSMemSize, int blockSizeLimit)
{
    return cuOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, func,
                                                     blockSizeToDynamicSMemSize, dynamicSMemSize,
                                                     blockSizeLimit, 0);
}

CU_EXPORT CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
                                                           CUfunction func, int numBlocks,
                                                           int blockSize)
{
    CU_BEGIN();
    rt_kernel *k = func_of(func);
    if (!k) return CU_END(cudaErrorInvalidResourceHandle);
    if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0)
        return CU_END(cudaErrorInvalidValue);
    *dynamicSmemSize = rt_kernel_avail_dyn_smem(k, numBlocks, blockSize);
    return CU_END(cudaSuccess);
}

/* The module and function behind driver handles (NULL when not one), for the other cu_*.c. */
rt_module *cu_module_of(CUmodule h)
{
    return mod_of(h);
}

rt_kernel *cu_function_of(CUfunction f)
{
    return func_of(f);
}
