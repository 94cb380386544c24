/* cu_device.c - driver API: initialisation, versions, devices, errors and contexts (primary
 * and explicit, a per-thread context stack) for libcuda.so.1. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cu_int.h"
#include "cu_rtapi.h"
#include "rt.h"

#define CU_EXPORT __attribute__((visibility("default")))

/* ---- errors ------------------------------------------------------------------------------- */
CU_EXPORT CUresult cuGetErrorName(CUresult error, const char **pStr)
{
    if (!pStr) return CUDA_ERROR_INVALID_VALUE;
    switch (error) {
#define CU_NAME(n, v, s) case n: *pStr = #n; return CUDA_SUCCESS;
    CU_RESULTS(CU_NAME)
#undef CU_NAME
    }
    *pStr = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

CU_EXPORT CUresult cuGetErrorString(CUresult error, const char **pStr)
{
    if (!pStr) return CUDA_ERROR_INVALID_VALUE;
    switch (error) {
#define CU_STR(n, v, s) case n: *pStr = s; return CUDA_SUCCESS;
    CU_RESULTS(CU_STR)
#undef CU_STR
    }
    *pStr = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

CUresult cu_result(cudaError_t e)
{
    switch ((int)e) {
#define CU_SAME(n, v, s) case v: return n;
    CU_RESULTS(CU_SAME)
#undef CU_SAME
    case cudaErrorInvalidSymbol: return CUDA_ERROR_NOT_FOUND;
    /* a launch configuration the device cannot run: the driver's own code 9, which the CUDA
     * runtime reports as cudaErrorInvalidConfiguration */
    case cudaErrorInvalidConfiguration: return (CUresult)9;
    case cudaErrorInvalidDeviceFunction: return CUDA_ERROR_INVALID_HANDLE;
    case cudaErrorInvalidTexture: case cudaErrorInvalidSurface:
        return CUDA_ERROR_INVALID_HANDLE;
    default:
        return (int)e < 100 ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_UNKNOWN;
    }
}

/* ---- initialisation, versions, devices ---------------------------------------------------- */
static int g_init;

/* Whether the program uses the runtime API: it registered kernels or device variables of its
 * own (every nvcc-built executable registers a fat binary, kernels or not). The runtime
 * initialises the driver and makes the primary context current, so such a program may call
 * the driver API without cuInit or a context of its own (cudaFree(0); cuCtxGetCurrent ...). */
static int runtime_program(void)
{
    rt_lock();
    int r = 0;
    for (rt_module *m = rt_modules(); m && !r; m = m->next) {
        for (rt_kernel *k = m->kernels; k && !r; k = k->next)
            r = k->host_stub != NULL;
        for (rt_var *v = m->vars; v && !r; v = v->next)
            r = v->host_var != NULL;
    }
    rt_unlock();
    return r;
}

CUresult cu_inited(void)
{
    if (__atomic_load_n(&g_init, __ATOMIC_ACQUIRE)) return CUDA_SUCCESS;
    if (!runtime_program()) return CUDA_ERROR_NOT_INITIALIZED;
    __atomic_store_n(&g_init, 1, __ATOMIC_RELEASE);
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuInit(unsigned int Flags)
{
    if (Flags) return CUDA_ERROR_INVALID_VALUE;
    rt_dev_props();
    __atomic_store_n(&g_init, 1, __ATOMIC_RELEASE);
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuDriverGetVersion(int *driverVersion)
{
    if (!driverVersion) return CUDA_ERROR_INVALID_VALUE;
    *driverVersion = 13000;
    return CUDA_SUCCESS;
}

#define CU_DEV_CHECK(dev) do { \
        CUresult r_ = cu_inited(); \
        if (r_) return r_; \
        if (!rt_dev_valid(dev)) return CUDA_ERROR_INVALID_DEVICE; \
    } while (0)

CU_EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    CUresult r = cu_inited();
    if (r) return r;
    if (!device) return CUDA_ERROR_INVALID_VALUE;
    if (!rt_dev_valid(ordinal)) return CUDA_ERROR_INVALID_DEVICE;
    *device = ordinal;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuDeviceGetCount(int *count)
{
    CUresult r = cu_inited();
    if (r) return r;
    if (!count) return CUDA_ERROR_INVALID_VALUE;
    *count = rt_dev_count();
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    CU_DEV_CHECK(dev);
    if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
    snprintf(name, (size_t)len, "%s", rt_dev_props()->name);
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
    CU_DEV_CHECK(dev);
    if (!uuid) return CUDA_ERROR_INVALID_VALUE;
    memcpy(uuid->bytes, rt_dev_props()->uuid.bytes, 16);
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
    return cuDeviceGetUuid(uuid, dev);
}

CU_EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    CU_DEV_CHECK(dev);
    if (!bytes) return CUDA_ERROR_INVALID_VALUE;
    *bytes = rt_dev_props()->totalGlobalMem;
    return CUDA_SUCCESS;
}

/* The pre-v2 entry point took a 32-bit size: report what fits. */
CU_EXPORT CUresult cuDeviceTotalMem(unsigned int *bytes, CUdevice dev)
{
    size_t b;
    CUresult r = cuDeviceTotalMem_v2(&b, dev);
    if (r == CUDA_SUCCESS) *bytes = b > 0xffffffffu ? 0xffffffffu : (unsigned)b;
    return r;
}

CU_EXPORT CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    CU_DEV_CHECK(dev);
    if (!major || !minor) return CUDA_ERROR_INVALID_VALUE;
    *major = rt_dev_props()->major;
    *minor = rt_dev_props()->minor;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuDeviceGetAttribute(int *pi, int attrib, CUdevice dev)
{
    CU_DEV_CHECK(dev);
    if (!pi) return CUDA_ERROR_INVALID_VALUE;
    switch (attrib) {
    case CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER: *pi = 1; return CUDA_SUCCESS;
    /* no virtual memory management, IPC handles, compression or dma-buf here */
    case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK:
    case CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH:
    case CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED:
        *pi = 0;
        return CUDA_SUCCESS;
    default:
        return rt_dev_attribute(attrib, pi) == cudaSuccess ? CUDA_SUCCESS
                                                           : CUDA_ERROR_INVALID_VALUE;
    }
}

CU_EXPORT CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
    CU_DEV_CHECK(dev);
    return cu_result(cudaDeviceGetPCIBusId(pciBusId, len, dev));
}

CU_EXPORT CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId)
{
    CUresult r = cu_inited();
    if (r) return r;
    return cu_result(cudaDeviceGetByPCIBusId(dev, pciBusId));
}

/* ---- contexts -------------------------------------------------------------------------------
 * The device has one memory and one set of modules; contexts are handles with flags and a
 * per-thread stack of current contexts. The primary context is retained and released by
 * count; an explicit context lives until cuCtxDestroy. */
#define CTX_MAGIC 0x43545831u
#define CTX_STACK 64

struct CUctx_st {
    unsigned magic;
    int primary;
    unsigned flags;
    int device;
};

static struct CUctx_st g_primary = { CTX_MAGIC, 1, 0, 0 };
static int g_primary_refs;
static pthread_mutex_t g_ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local CUcontext t_stack[CTX_STACK];
static _Thread_local int t_depth;

static int ctx_ok(CUcontext c) { return c && c->magic == CTX_MAGIC; }

CUresult cu_ctx_current(void)
{
    CUresult r = cu_inited();
    if (r) return r;
    if (t_depth == 0 && runtime_program())
        t_stack[t_depth++] = &g_primary;    /* the runtime's primary context */
    return t_depth > 0 && ctx_ok(t_stack[t_depth - 1]) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUcontext cu_primary_ctx(void) { return &g_primary; }

CU_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    CU_DEV_CHECK(dev);
    if (!pctx) return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&g_ctx_lock);
    g_primary_refs++;
    pthread_mutex_unlock(&g_ctx_lock);
    *pctx = &g_primary;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    CU_DEV_CHECK(dev);
    pthread_mutex_lock(&g_ctx_lock);
    int ok = g_primary_refs > 0;
    if (ok) g_primary_refs--;
    pthread_mutex_unlock(&g_ctx_lock);
    return ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CU_EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
    return cuDevicePrimaryCtxRelease_v2(dev);
}

/* Reset destroys the device's work and allocations, as cudaDeviceReset does. */
CU_EXPORT CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
    CU_DEV_CHECK(dev);
    cu_cls_destroy(&g_primary);             /* a static runtime's state goes with it */
    return cu_result(cudaDeviceReset());
}

CU_EXPORT CUresult cuDevicePrimaryCtxReset(CUdevice dev)
{
    return cuDevicePrimaryCtxReset_v2(dev);
}

CU_EXPORT CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
    CU_DEV_CHECK(dev);
    if (!flags || !active) return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&g_ctx_lock);
    *flags = g_primary.flags;
    *active = g_primary_refs > 0;
    pthread_mutex_unlock(&g_ctx_lock);
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags)
{
    CU_DEV_CHECK(dev);
    if (flags & ~(unsigned)CU_CTX_FLAGS_MASK) return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&g_ctx_lock);
    g_primary.flags = flags;
    pthread_mutex_unlock(&g_ctx_lock);
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
    return cuDevicePrimaryCtxSetFlags_v2(dev, flags);
}

static CUresult ctx_create(CUcontext *pctx, unsigned flags, CUdevice dev)
{
    CU_DEV_CHECK(dev);
    if (!pctx || (flags & ~(unsigned)CU_CTX_FLAGS_MASK)) return CUDA_ERROR_INVALID_VALUE;
    if (t_depth == CTX_STACK) return CUDA_ERROR_OUT_OF_MEMORY;
    struct CUctx_st *c = calloc(1, sizeof *c);
    if (!c) return CUDA_ERROR_OUT_OF_MEMORY;
    c->magic = CTX_MAGIC;
    c->flags = flags;
    c->device = dev;
    t_stack[t_depth++] = c;         /* a new context is pushed on the caller's stack */
    *pctx = c;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuCtxCreate_v4(CUcontext *pctx, void *params, unsigned int flags, CUdevice dev)
{
    (void)params;                   /* execution affinity / CIG: nothing to partition here */
    return ctx_create(pctx, flags, dev);
}

CU_EXPORT CUresult cuCtxCreate_v3(CUcontext *pctx, void *paramsArray, int numParams,
                                  unsigned int flags, CUdevice dev)
{
    (void)paramsArray;
    if (numParams < 0) return CUDA_ERROR_INVALID_VALUE;
    return ctx_create(pctx, flags, dev);
}

CU_EXPORT CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    return ctx_create(pctx, flags, dev);
}

CU_EXPORT CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    return ctx_create(pctx, flags, dev);
}

CU_EXPORT CUresult cuCtxDestroy_v2(CUcontext ctx)
{
    CUresult r = cu_inited();
    if (r) return r;
    if (!ctx_ok(ctx) || ctx->primary) return CUDA_ERROR_INVALID_CONTEXT;
    cu_cls_destroy(ctx);
    int k = 0;                      /* drop it from this thread's stack */
    for (int i = 0; i < t_depth; i++)
        if (t_stack[i] != ctx) t_stack[k++] = t_stack[i];
    t_depth = k;
    ctx->magic = 0;
    free(ctx);
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuCtxDestroy(CUcontext ctx) { return cuCtxDestroy_v2(ctx); }

CU_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx)
{
    CUresult r = cu_inited();
    if (r) return r;
    if (!ctx) {                     /* NULL unbinds: pops the top */
        if (t_depth > 0) t_depth--;
        return CUDA_SUCCESS;
    }
    if (!ctx_ok(ctx)) return CUDA_ERROR_INVALID_CONTEXT;
    if (t_depth == 0) t_depth = 1;
    t_stack[t_depth - 1] = ctx;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuCtxGetCurrent(CUcontext *pctx)
{
    CUresult r = cu_inited();
    if (r) return r;
    if (!pctx) return CUDA_ERROR_INVALID_VALUE;
    (void)cu_ctx_current();                 /* a runtime program's primary context */
    *pctx = t_depth > 0 ? t_stack[t_depth - 1] : NULL;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
    CUresult r = cu_inited();
    if (r) return r;
    if (!ctx_ok(ctx)) return CUDA_ERROR_INVALID_CONTEXT;
    if (t_depth == CTX_STACK) return CUDA_ERROR_OUT_OF_MEMORY;
    t_stack[t_depth++] = ctx;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuCtxPushCurrent(CUcontext ctx) { return cuCtxPushCurrent_v2(ctx); }

CU_EXPORT CUresult cuCtxPopCurrent_v2(CUcontext *pctx)
{
    CUresult r = cu_inited();
    if (r) return r;
    if (t_depth == 0) return CUDA_ERROR_INVALID_CONTEXT;
    CUcontext c = t_stack[--t_depth];
    if (pctx) *pctx = c;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuCtxPopCurrent(CUcontext *pctx) { return cuCtxPopCurrent_v2(pctx); }

CU_EXPORT CUresult cuCtxGetDevice(CUdevice *device)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    if (!device) return CUDA_ERROR_INVALID_VALUE;
    *device = t_stack[t_depth - 1]->device;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
    if (!ctx) return cuCtxGetDevice(device);
    CUresult r = cu_inited();
    if (r) return r;
    if (!ctx_ok(ctx)) return CUDA_ERROR_INVALID_CONTEXT;
    if (!device) return CUDA_ERROR_INVALID_VALUE;
    *device = ctx->device;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuCtxGetFlags(unsigned int *flags)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    if (!flags) return CUDA_ERROR_INVALID_VALUE;
    *flags = t_stack[t_depth - 1]->flags;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
    CUresult r = cu_inited();
    if (r) return r;
    if (ctx && !ctx_ok(ctx)) return CUDA_ERROR_INVALID_CONTEXT;
    if (!version) return CUDA_ERROR_INVALID_VALUE;
    *version = 13000;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuCtxSynchronize(void)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    return cu_result(cudaDeviceSynchronize());
}

CU_EXPORT CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
    if (ctx && !ctx_ok(ctx)) return CUDA_ERROR_INVALID_CONTEXT;
    CUresult r = cu_inited();
    if (r) return r;
    return cu_result(cudaDeviceSynchronize());
}

CU_EXPORT CUresult cuCtxGetLimit(size_t *pvalue, int limit)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    return cu_result(cudaDeviceGetLimit(pvalue, (enum cudaLimit)limit));
}

CU_EXPORT CUresult cuCtxSetLimit(int limit, size_t value)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    return cu_result(cudaDeviceSetLimit((enum cudaLimit)limit, value));
}

/* ---- context settings: the device's ------------------------------------------------------------ */
CU_EXPORT CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    return cu_result(cudaDeviceGetStreamPriorityRange(leastPriority, greatestPriority));
}

CU_EXPORT CUresult cuCtxGetCacheConfig(int *pconfig)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    return cu_result(cudaDeviceGetCacheConfig((enum cudaFuncCache *)pconfig));
}

CU_EXPORT CUresult cuCtxSetCacheConfig(int config)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    return cu_result(cudaDeviceSetCacheConfig((enum cudaFuncCache)config));
}

CU_EXPORT CUresult cuCtxGetSharedMemConfig(int *pConfig)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    return cu_result(cudaDeviceGetSharedMemConfig((enum cudaSharedMemConfig *)pConfig));
}

CU_EXPORT CUresult cuCtxSetSharedMemConfig(int config)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    return cu_result(cudaDeviceSetSharedMemConfig((enum cudaSharedMemConfig)config));
}

CU_EXPORT CUresult cuCtxResetPersistingL2Cache(void)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    return cu_result(cudaCtxResetPersistingL2Cache());
}

CU_EXPORT CUresult cuProfilerStart(void)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    return cu_result(cudaProfilerStart());
}

CU_EXPORT CUresult cuProfilerStop(void)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    return cu_result(cudaProfilerStop());
}

CU_EXPORT CUresult cuDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements, int format,
                                                      unsigned numChannels, CUdevice dev)
{
    CU_DEV_CHECK(dev);
    if (!maxWidthInElements || (numChannels != 1 && numChannels != 2 && numChannels != 4))
        return CUDA_ERROR_INVALID_VALUE;
    switch (format) {                       /* CUarray_format */
    case 0x01: case 0x02: case 0x03: case 0x08: case 0x09: case 0x0a: case 0x10: case 0x20:
        break;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
    int v;
    if (rt_dev_attribute(cudaDevAttrMaxTexture1DLinearWidth, &v) != cudaSuccess)
        return CUDA_ERROR_INVALID_VALUE;
    *maxWidthInElements = (size_t)v;
    return CUDA_SUCCESS;
}
