/* rt_device.c - the emulated device: A100/H100 profiles, attributes, limits and the CUDA
 * device-management API (cudaGetDeviceProperties, cudaDeviceGetAttribute, cudaSetDevice...). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rt.h"
#include "rt_dev.h"

#define RT_EXPORT __attribute__((visibility("default")))
#define KB 1024u

typedef struct {
    struct cudaDeviceProp p;
    int clock_khz, mem_clock_khz, mem_sync_domains, fp_ratio;
} dev_profile;

static dev_profile g_dev;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;  /* device flags and cache config */

/* Limits a device of compute capability 8.x/9.x shares (texture sizes, grid, block...). */
static void profile_common(struct cudaDeviceProp *p)
{
    memset(p, 0, sizeof *p);
    p->sharedMemPerBlock = 48 * KB;
    p->regsPerBlock = 65536;
    p->warpSize = 32;
    p->memPitch = 2147483647;
    p->maxThreadsPerBlock = 1024;
    p->maxThreadsDim[0] = 1024; p->maxThreadsDim[1] = 1024; p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647; p->maxGridSize[1] = 65535; p->maxGridSize[2] = 65535;
    p->totalConstMem = 64 * KB;
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->canMapHostMemory = 1;
    p->maxTexture1D = 131072;
    p->maxTexture1DMipmap = 32768;
    p->maxTexture2D[0] = 131072; p->maxTexture2D[1] = 65536;
    p->maxTexture2DMipmap[0] = 32768; p->maxTexture2DMipmap[1] = 32768;
    p->maxTexture2DLinear[0] = 131072; p->maxTexture2DLinear[1] = 65000;
    p->maxTexture2DLinear[2] = 2097120;
    p->maxTexture2DGather[0] = 32768; p->maxTexture2DGather[1] = 32768;
    p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 16384;
    p->maxTexture3DAlt[0] = 8192; p->maxTexture3DAlt[1] = 8192; p->maxTexture3DAlt[2] = 32768;
    p->maxTextureCubemap = 32768;
    p->maxTexture1DLayered[0] = 32768; p->maxTexture1DLayered[1] = 2048;
    p->maxTexture2DLayered[0] = 32768; p->maxTexture2DLayered[1] = 32768;
    p->maxTexture2DLayered[2] = 2048;
    p->maxTextureCubemapLayered[0] = 32768; p->maxTextureCubemapLayered[1] = 2046;
    p->maxSurface1D = 32768;
    p->maxSurface2D[0] = 131072; p->maxSurface2D[1] = 65536;
    p->maxSurface3D[0] = p->maxSurface3D[1] = p->maxSurface3D[2] = 16384;
    p->maxSurface1DLayered[0] = 32768; p->maxSurface1DLayered[1] = 2048;
    p->maxSurface2DLayered[0] = 32768; p->maxSurface2DLayered[1] = 32768;
    p->maxSurface2DLayered[2] = 2048;
    p->maxSurfaceCubemap = 32768;
    p->maxSurfaceCubemapLayered[0] = 32768; p->maxSurfaceCubemapLayered[1] = 2046;
    p->surfaceAlignment = 512;
    p->concurrentKernels = 1;
    p->ECCEnabled = 1;
    p->pciBusID = 7;
    p->asyncEngineCount = 3;
    p->unifiedAddressing = 1;
    p->memoryBusWidth = 5120;
    p->maxThreadsPerMultiProcessor = 2048;
    p->streamPrioritiesSupported = 1;
    p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = 1;
    p->regsPerMultiprocessor = 65536;
    p->managedMemory = 1;
    p->concurrentManagedAccess = 1;
    p->computePreemptionSupported = 1;
    p->canUseHostPointerForRegisteredMem = 1;
    p->cooperativeLaunch = 1;
    p->maxBlocksPerMultiProcessor = 32;
    p->accessPolicyMaxWindowSize = 134213632;
    p->reservedSharedMemPerBlock = 1 * KB;
    p->hostRegisterSupported = 1;
    p->sparseCudaArraySupported = 1;
    p->timelineSemaphoreInteropSupported = 1;
    p->memoryPoolsSupported = 1;
    p->gpuDirectRDMASupported = 1;
    p->gpuDirectRDMAFlushWritesOptions = 1;
    p->gpuDirectRDMAWritesOrdering = 100;     /* cudaGPUDirectRDMAWritesOrderingOwner */
    p->memoryPoolSupportedHandleTypes = 1;    /* cudaMemHandleTypePosixFileDescriptor */
    p->deferredMappingCudaArraySupported = 1;
    p->ipcEventSupported = 1;
    p->deviceNumaId = -1;
    p->hostNumaId = -1;
    for (int i = 0; i < 16; i++)          /* a fixed, recognisable UUID */
        p->uuid.bytes[i] = (char)(0x50 + i);
}

static void profile_a100(dev_profile *d, int gb80)
{
    struct cudaDeviceProp *p = &d->p;
    profile_common(p);
    snprintf(p->name, sizeof p->name, "NVIDIA A100-SXM4-%dGB", gb80 ? 80 : 40);
    p->totalGlobalMem = gb80 ? 85198045184ull : 42505273344ull;
    p->major = 8; p->minor = 0;
    p->multiProcessorCount = 108;
    p->l2CacheSize = 40 * 1024 * 1024;
    p->persistingL2CacheMaxSize = 30 * 1024 * 1024;
    p->sharedMemPerMultiprocessor = 164 * KB;
    p->sharedMemPerBlockOptin = 163 * KB;
    p->gpuPciDeviceID = gb80 ? 0x20B210DEu : 0x20B010DEu;
    p->gpuPciSubsystemID = gb80 ? 0x147F10DEu : 0x134F10DEu;
    d->clock_khz = 1410000;
    d->mem_clock_khz = gb80 ? 1593000 : 1215000;
    d->mem_sync_domains = 1;
    d->fp_ratio = 2;
}

static void profile_h100(dev_profile *d)
{
    struct cudaDeviceProp *p = &d->p;
    profile_common(p);
    snprintf(p->name, sizeof p->name, "NVIDIA H100 80GB HBM3");
    p->totalGlobalMem = 85017853952ull;
    p->major = 9; p->minor = 0;
    p->multiProcessorCount = 132;
    p->l2CacheSize = 50 * 1024 * 1024;
    p->persistingL2CacheMaxSize = 32 * 1024 * 1024 + 512 * 1024;
    p->sharedMemPerMultiprocessor = 228 * KB;
    p->sharedMemPerBlockOptin = 227 * KB;
    p->clusterLaunch = 1;
    p->gpuPciDeviceID = 0x233010DEu;
    p->gpuPciSubsystemID = 0x16C110DEu;
    p->pciBusID = 0x19;
    d->clock_khz = 1980000;
    d->mem_clock_khz = 2619000;
    d->mem_sync_domains = 4;
    d->fp_ratio = 2;
}

static int profile_by_name(const char *e, dev_profile *d)
{
    if (!e || !*e || !strcasecmp(e, "sm_80") || !strcasecmp(e, "a100"))
        profile_a100(d, 0);
    else if (!strcasecmp(e, "a100-80gb"))
        profile_a100(d, 1);
    else if (!strcasecmp(e, "sm_90") || !strcasecmp(e, "h100"))
        profile_h100(d);
    else
        return -1;
    return 0;
}

int rt_dev_profile_props(const char *name, struct cudaDeviceProp *p)
{
    dev_profile d;
    if (profile_by_name(name, &d)) return -1;
    *p = d.p;
    return 0;
}

static void dev_init(void)
{
    const char *e = getenv("PTXDBG_DEVICE");
    if (profile_by_name(e, &g_dev)) {
        fprintf(stderr, "ptxdbg: PTXDBG_DEVICE=%s is not a device profile (sm_80, a100, "
                "a100-80gb, sm_90, h100); using the A100 (sm_80) profile\n", e);
        profile_a100(&g_dev, 0);
    }
}

const struct cudaDeviceProp *rt_dev_props(void)
{
    pthread_once(&g_once, dev_init);
    return &g_dev.p;
}

int rt_dev_count(void) { return 1; }
int rt_dev_valid(int dev) { return dev == 0; }
int rt_dev_clock_khz(void) { rt_dev_props(); return g_dev.clock_khz; }
int rt_dev_mem_clock_khz(void) { rt_dev_props(); return g_dev.mem_clock_khz; }

cudaError_t rt_dev_attribute(int attr, int *value)
{
    const struct cudaDeviceProp *p = rt_dev_props();
    int v;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: v = p->maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: v = p->maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: v = p->maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: v = p->maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: v = p->maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: v = p->maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: v = p->maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: v = (int)p->sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: v = (int)p->totalConstMem; break;
    case cudaDevAttrWarpSize: v = p->warpSize; break;
    case cudaDevAttrMaxPitch: v = (int)p->memPitch; break;
    case cudaDevAttrMaxRegistersPerBlock: v = p->regsPerBlock; break;
    case cudaDevAttrClockRate: v = g_dev.clock_khz; break;
    case cudaDevAttrTextureAlignment: v = (int)p->textureAlignment; break;
    case cudaDevAttrGpuOverlap: v = p->asyncEngineCount > 0; break;
    case cudaDevAttrMultiProcessorCount: v = p->multiProcessorCount; break;
    case cudaDevAttrKernelExecTimeout: v = 0; break;
    case cudaDevAttrIntegrated: v = p->integrated; break;
    case cudaDevAttrCanMapHostMemory: v = p->canMapHostMemory; break;
    case cudaDevAttrComputeMode: v = cudaComputeModeDefault; break;
    case cudaDevAttrMaxTexture1DWidth: v = p->maxTexture1D; break;
    case cudaDevAttrMaxTexture2DWidth: v = p->maxTexture2D[0]; break;
    case cudaDevAttrMaxTexture2DHeight: v = p->maxTexture2D[1]; break;
    case cudaDevAttrMaxTexture3DWidth: v = p->maxTexture3D[0]; break;
    case cudaDevAttrMaxTexture3DHeight: v = p->maxTexture3D[1]; break;
    case cudaDevAttrMaxTexture3DDepth: v = p->maxTexture3D[2]; break;
    case cudaDevAttrMaxTexture2DLayeredWidth: v = p->maxTexture2DLayered[0]; break;
    case cudaDevAttrMaxTexture2DLayeredHeight: v = p->maxTexture2DLayered[1]; break;
    case cudaDevAttrMaxTexture2DLayeredLayers: v = p->maxTexture2DLayered[2]; break;
    case cudaDevAttrSurfaceAlignment: v = (int)p->surfaceAlignment; break;
    case cudaDevAttrConcurrentKernels: v = p->concurrentKernels; break;
    case cudaDevAttrEccEnabled: v = p->ECCEnabled; break;
    case cudaDevAttrPciBusId: v = p->pciBusID; break;
    case cudaDevAttrPciDeviceId: v = p->pciDeviceID; break;
    case cudaDevAttrTccDriver: v = p->tccDriver; break;
    case cudaDevAttrMemoryClockRate: v = g_dev.mem_clock_khz; break;
    case cudaDevAttrGlobalMemoryBusWidth: v = p->memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: v = p->l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: v = p->maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: v = p->asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: v = p->unifiedAddressing; break;
    case cudaDevAttrMaxTexture1DLayeredWidth: v = p->maxTexture1DLayered[0]; break;
    case cudaDevAttrMaxTexture1DLayeredLayers: v = p->maxTexture1DLayered[1]; break;
    case cudaDevAttrMaxTexture2DGatherWidth: v = p->maxTexture2DGather[0]; break;
    case cudaDevAttrMaxTexture2DGatherHeight: v = p->maxTexture2DGather[1]; break;
    case cudaDevAttrMaxTexture3DWidthAlt: v = p->maxTexture3DAlt[0]; break;
    case cudaDevAttrMaxTexture3DHeightAlt: v = p->maxTexture3DAlt[1]; break;
    case cudaDevAttrMaxTexture3DDepthAlt: v = p->maxTexture3DAlt[2]; break;
    case cudaDevAttrPciDomainId: v = p->pciDomainID; break;
    case cudaDevAttrTexturePitchAlignment: v = (int)p->texturePitchAlignment; break;
    case cudaDevAttrMaxTextureCubemapWidth: v = p->maxTextureCubemap; break;
    case cudaDevAttrMaxTextureCubemapLayeredWidth: v = p->maxTextureCubemapLayered[0]; break;
    case cudaDevAttrMaxTextureCubemapLayeredLayers: v = p->maxTextureCubemapLayered[1]; break;
    case cudaDevAttrMaxSurface1DWidth: v = p->maxSurface1D; break;
    case cudaDevAttrMaxSurface2DWidth: v = p->maxSurface2D[0]; break;
    case cudaDevAttrMaxSurface2DHeight: v = p->maxSurface2D[1]; break;
    case cudaDevAttrMaxSurface3DWidth: v = p->maxSurface3D[0]; break;
    case cudaDevAttrMaxSurface3DHeight: v = p->maxSurface3D[1]; break;
    case cudaDevAttrMaxSurface3DDepth: v = p->maxSurface3D[2]; break;
    case cudaDevAttrMaxSurface1DLayeredWidth: v = p->maxSurface1DLayered[0]; break;
    case cudaDevAttrMaxSurface1DLayeredLayers: v = p->maxSurface1DLayered[1]; break;
    case cudaDevAttrMaxSurface2DLayeredWidth: v = p->maxSurface2DLayered[0]; break;
    case cudaDevAttrMaxSurface2DLayeredHeight: v = p->maxSurface2DLayered[1]; break;
    case cudaDevAttrMaxSurface2DLayeredLayers: v = p->maxSurface2DLayered[2]; break;
    case cudaDevAttrMaxSurfaceCubemapWidth: v = p->maxSurfaceCubemap; break;
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth: v = p->maxSurfaceCubemapLayered[0]; break;
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers: v = p->maxSurfaceCubemapLayered[1]; break;
    case cudaDevAttrMaxTexture1DLinearWidth: v = 1 << 28; break;
    case cudaDevAttrMaxTexture2DLinearWidth: v = p->maxTexture2DLinear[0]; break;
    case cudaDevAttrMaxTexture2DLinearHeight: v = p->maxTexture2DLinear[1]; break;
    case cudaDevAttrMaxTexture2DLinearPitch: v = p->maxTexture2DLinear[2]; break;
    case cudaDevAttrMaxTexture2DMipmappedWidth: v = p->maxTexture2DMipmap[0]; break;
    case cudaDevAttrMaxTexture2DMipmappedHeight: v = p->maxTexture2DMipmap[1]; break;
    case cudaDevAttrComputeCapabilityMajor: v = p->major; break;
    case cudaDevAttrComputeCapabilityMinor: v = p->minor; break;
    case cudaDevAttrMaxTexture1DMipmappedWidth: v = p->maxTexture1DMipmap; break;
    case cudaDevAttrStreamPrioritiesSupported: v = p->streamPrioritiesSupported; break;
    case cudaDevAttrGlobalL1CacheSupported: v = p->globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: v = p->localL1CacheSupported; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: v = (int)p->sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: v = p->regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: v = p->managedMemory; break;
    case cudaDevAttrIsMultiGpuBoard: v = p->isMultiGpuBoard; break;
    case cudaDevAttrMultiGpuBoardGroupID: v = p->multiGpuBoardGroupID; break;
    case cudaDevAttrHostNativeAtomicSupported: v = p->hostNativeAtomicSupported; break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: v = g_dev.fp_ratio; break;
    case cudaDevAttrPageableMemoryAccess: v = p->pageableMemoryAccess; break;
    case cudaDevAttrConcurrentManagedAccess: v = p->concurrentManagedAccess; break;
    case cudaDevAttrComputePreemptionSupported: v = p->computePreemptionSupported; break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem:
        v = p->canUseHostPointerForRegisteredMem; break;
    case cudaDevAttrCooperativeLaunch: v = p->cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: v = (int)p->sharedMemPerBlockOptin; break;
    case cudaDevAttrCanFlushRemoteWrites: v = 0; break;
    case cudaDevAttrHostRegisterSupported: v = p->hostRegisterSupported; break;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
        v = p->pageableMemoryAccessUsesHostPageTables; break;
    case cudaDevAttrDirectManagedMemAccessFromHost: v = p->directManagedMemAccessFromHost; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: v = p->maxBlocksPerMultiProcessor; break;
    case cudaDevAttrMaxPersistingL2CacheSize: v = p->persistingL2CacheMaxSize; break;
    case cudaDevAttrMaxAccessPolicyWindowSize: v = p->accessPolicyMaxWindowSize; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: v = (int)p->reservedSharedMemPerBlock; break;
    case cudaDevAttrSparseCudaArraySupported: v = p->sparseCudaArraySupported; break;
    case cudaDevAttrHostRegisterReadOnlySupported: v = p->hostRegisterReadOnlySupported; break;
    case cudaDevAttrTimelineSemaphoreInteropSupported:
        v = p->timelineSemaphoreInteropSupported; break;
    case cudaDevAttrMemoryPoolsSupported: v = p->memoryPoolsSupported; break;
    case cudaDevAttrGPUDirectRDMASupported: v = p->gpuDirectRDMASupported; break;
    case cudaDevAttrGPUDirectRDMAFlushWritesOptions:
        v = (int)p->gpuDirectRDMAFlushWritesOptions; break;
    case cudaDevAttrGPUDirectRDMAWritesOrdering: v = p->gpuDirectRDMAWritesOrdering; break;
    case cudaDevAttrMemoryPoolSupportedHandleTypes:
        v = (int)p->memoryPoolSupportedHandleTypes; break;
    case cudaDevAttrClusterLaunch: v = p->clusterLaunch; break;
    case cudaDevAttrDeferredMappingCudaArraySupported:
        v = p->deferredMappingCudaArraySupported; break;
    case cudaDevAttrIpcEventSupport: v = p->ipcEventSupported; break;
    case cudaDevAttrMemSyncDomainCount: v = g_dev.mem_sync_domains; break;
    case cudaDevAttrNumaConfig: v = p->deviceNumaConfig; break;
    case cudaDevAttrNumaId: v = p->deviceNumaId; break;
    case cudaDevAttrMpsEnabled: v = p->mpsEnabled; break;
    case cudaDevAttrHostNumaId: v = p->hostNumaId; break;
    case cudaDevAttrD3D12CigSupported: case cudaDevAttrVulkanCigSupported: v = 0; break;
    case cudaDevAttrGpuPciDeviceId: v = (int)p->gpuPciDeviceID; break;
    case cudaDevAttrGpuPciSubsystemId: v = (int)p->gpuPciSubsystemID; break;
    case cudaDevAttrHostNumaMemoryPoolsSupported: v = 0; break;
    case cudaDevAttrHostNumaMultinodeIpcSupported: v = p->hostNumaMultinodeIpcSupported; break;
    case cudaDevAttrHostMemoryPoolsSupported: v = 0; break;
    case cudaDevAttrOnlyPartialHostNativeAtomicSupported: v = 0; break;
    case cudaDevAttrReserved92: case cudaDevAttrReserved93: case cudaDevAttrReserved94:
    case cudaDevAttrReserved96: case cudaDevAttrReserved122: case cudaDevAttrReserved123:
    case cudaDevAttrReserved124: case cudaDevAttrReserved127: case cudaDevAttrReserved128:
    case cudaDevAttrReserved129: case cudaDevAttrReserved132: case cudaDevAttrReserved141:
    case cudaDevAttrReserved145:
        v = 0; break;
    default:
        return cudaErrorInvalidValue;
    }
    *value = v;
    return cudaSuccess;
}

/* ---- limits ------------------------------------------------------------------------------
 * The heap size is rt_heap_limit (rt_set_heap_limit applies it to every machine); the
 * others are kept here. Device-runtime limits are refused: dynamic parallelism is not
 * supported. */
static size_t g_stack = 1024, g_fifo = 1u << 20, g_l2fetch = 64, g_persist;

/* Upper bounds of what the emulation honours: the core's per-thread stack is at most 1 MB
 * (MEM_LOCAL_MAX), and the device heap and printf buffer are host memory (bounded at 4 GB). */
#define RT_MAX_STACK  (1u << 20)
#define RT_MAX_BUFFER (4ull << 30)

size_t rt_dev_limit(int limit)
{
    switch (limit) {
    case cudaLimitStackSize: return g_stack;
    case cudaLimitPrintfFifoSize: return g_fifo;
    case cudaLimitMallocHeapSize: return (size_t)rt_heap_limit;
    case cudaLimitMaxL2FetchGranularity: return g_l2fetch;
    case cudaLimitPersistingL2CacheSize: return g_persist;
    default: return 0;
    }
}

/* Callers hold the runtime lock. */
cudaError_t rt_dev_set_limit(int limit, size_t value)
{
    const struct cudaDeviceProp *p = rt_dev_props();
    switch (limit) {
    case cudaLimitStackSize:
        if (value > RT_MAX_STACK) return cudaErrorMemoryAllocation;
        g_stack = (value + 15) & ~(size_t)15;
        return cudaSuccess;
    case cudaLimitPrintfFifoSize:
        if (value > RT_MAX_BUFFER) return cudaErrorMemoryAllocation;
        g_fifo = value;                 /* printf output is never dropped */
        return cudaSuccess;
    case cudaLimitMallocHeapSize:
        if (value > RT_MAX_BUFFER) return cudaErrorMemoryAllocation;
        rt_set_heap_limit(value);
        return cudaSuccess;
    case cudaLimitMaxL2FetchGranularity:
        if (value > 128 || (value & (value - 1))) return cudaErrorInvalidValue;
        g_l2fetch = value;
        return cudaSuccess;
    case cudaLimitPersistingL2CacheSize:
        if (value > (size_t)p->persistingL2CacheMaxSize) return cudaErrorInvalidValue;
        g_persist = value;
        return cudaSuccess;
    default:                            /* device-runtime limits included */
        return cudaErrorUnsupportedLimit;
    }
}

/* ---- what the rest of the runtime asks of the device ---------------------------------------- */
void rt_device_launch_limits(rt_launch_limits *l)
{
    const struct cudaDeviceProp *p = rt_dev_props();
    l->max_threads = (uint32_t)p->maxThreadsPerBlock;
    for (int i = 0; i < 3; i++) {
        l->max_block[i] = (uint32_t)p->maxThreadsDim[i];
        l->max_grid[i] = (uint32_t)p->maxGridSize[i];
    }
    l->shmem_default = p->sharedMemPerBlock;
    l->shmem_optin = p->sharedMemPerBlockOptin;
}

int rt_device_cc(void)
{
    const struct cudaDeviceProp *p = rt_dev_props();
    return p->major * 10 + p->minor;
}

uint64_t rt_device_total_mem(void)
{
    return rt_dev_props()->totalGlobalMem;
}

/* ---- device management API ---------------------------------------------------------------- */
static _Thread_local int t_device;          /* cudaSetDevice is per host thread */
static unsigned g_flags;                    /* cudaSetDeviceFlags */
static int g_cache_config;                  /* cudaDeviceSetCacheConfig */

RT_EXPORT cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count) return rt_error(cudaErrorInvalidValue);
    *count = rt_dev_count();
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaGetDevice(int *device)
{
    if (!device) return rt_error(cudaErrorInvalidValue);
    *device = t_device;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaSetDevice(int device)
{
    if (!rt_dev_valid(device)) return rt_error(cudaErrorInvalidDevice);
    t_device = device;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
    if (!rt_dev_valid(device)) return rt_error(cudaErrorInvalidDevice);
    if (flags & ~(unsigned)cudaInitDeviceFlagsAreValid) return rt_error(cudaErrorInvalidValue);
    if ((flags & cudaInitDeviceFlagsAreValid) && (deviceFlags & ~(unsigned)cudaDeviceMask))
        return rt_error(cudaErrorInvalidValue);
    if (flags & cudaInitDeviceFlagsAreValid) {
        pthread_mutex_lock(&g_lock);
        g_flags = deviceFlags;
        pthread_mutex_unlock(&g_lock);
    }
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    unsigned sched = flags & cudaDeviceScheduleMask;
    if (flags & ~(unsigned)cudaDeviceMask) return rt_error(cudaErrorInvalidValue);
    if (sched != cudaDeviceScheduleAuto && sched != cudaDeviceScheduleSpin &&
        sched != cudaDeviceScheduleYield && sched != cudaDeviceScheduleBlockingSync)
        return rt_error(cudaErrorInvalidValue);
    pthread_mutex_lock(&g_lock);
    g_flags = flags;
    pthread_mutex_unlock(&g_lock);
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    if (!flags) return rt_error(cudaErrorInvalidValue);
    pthread_mutex_lock(&g_lock);
    *flags = g_flags | cudaDeviceMapHost;   /* mapped pinned memory is always available */
    pthread_mutex_unlock(&g_lock);
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    if (!prop) return rt_error(cudaErrorInvalidValue);
    if (!rt_dev_valid(device)) return rt_error(cudaErrorInvalidDevice);
    *prop = *rt_dev_props();
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    if (!value) return rt_error(cudaErrorInvalidValue);
    if (!rt_dev_valid(device)) return rt_error(cudaErrorInvalidDevice);
    return rt_error(rt_dev_attribute((int)attr, value));
}

RT_EXPORT cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    if (!device || !prop) return rt_error(cudaErrorInvalidValue);
    *device = 0;                            /* the only device is the closest match */
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    if (!driverVersion) return rt_error(cudaErrorInvalidValue);
    *driverVersion = 13000;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    if (!runtimeVersion) return rt_error(cudaErrorInvalidValue);
    *runtimeVersion = 13000;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
    if (!pValue) return rt_error(cudaErrorInvalidValue);
    if ((int)limit < 0 || (int)limit > cudaLimitPersistingL2CacheSize ||
        limit == cudaLimitDevRuntimeSyncDepth || limit == cudaLimitDevRuntimePendingLaunchCount)
        return rt_error(cudaErrorUnsupportedLimit);
    RT_BEGIN();
    *pValue = rt_dev_limit((int)limit);
    return RT_END(cudaSuccess);
}

RT_EXPORT cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    RT_BEGIN_CTX();
    return RT_END(rt_dev_set_limit((int)limit, value));
}

RT_EXPORT cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
    if (!pCacheConfig) return rt_error(cudaErrorInvalidValue);
    pthread_mutex_lock(&g_lock);
    *pCacheConfig = (enum cudaFuncCache)g_cache_config;
    pthread_mutex_unlock(&g_lock);
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig)
{
    if ((int)cacheConfig < cudaFuncCachePreferNone || (int)cacheConfig > cudaFuncCachePreferEqual)
        return rt_error(cudaErrorInvalidValue);
    pthread_mutex_lock(&g_lock);
    g_cache_config = (int)cacheConfig;
    pthread_mutex_unlock(&g_lock);
    return cudaSuccess;
}

/* Shared-memory bank size is fixed at four bytes on sm_80/sm_90; setting is accepted and has
 * no effect, as on those GPUs. */
RT_EXPORT cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig)
{
    if (!pConfig) return rt_error(cudaErrorInvalidValue);
    *pConfig = cudaSharedMemBankSizeFourByte;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
    if ((int)config < cudaSharedMemBankSizeDefault || (int)config > cudaSharedMemBankSizeEightByte)
        return rt_error(cudaErrorInvalidValue);
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
    const struct cudaDeviceProp *p = rt_dev_props();
    if (!pciBusId || len <= 0) return rt_error(cudaErrorInvalidValue);
    if (!rt_dev_valid(device)) return rt_error(cudaErrorInvalidDevice);
    snprintf(pciBusId, (size_t)len, "%04x:%02x:%02x.0", (unsigned)p->pciDomainID,
             (unsigned)p->pciBusID, (unsigned)p->pciDeviceID);
    return cudaSuccess;
}

/* Parse "[domain:]bus:device[.function]" (hexadecimal fields). */
static int parse_bus_id(const char *s, unsigned v[4])
{
    unsigned f[3] = {0, 0, 0};
    int n = 0;
    char *end;
    for (;;) {
        if (n == 3) return -1;
        unsigned long x = strtoul(s, &end, 16);
        if (end == s || x > 0xffffffffu) return -1;
        f[n++] = (unsigned)x;
        s = end;
        if (*s != ':') break;
        s++;
    }
    if (n < 2) return -1;
    v[0] = n == 3 ? f[0] : 0;
    v[1] = f[n - 2];
    v[2] = f[n - 1];
    v[3] = 0;
    if (*s == '.') {
        unsigned long x = strtoul(s + 1, &end, 16);
        if (end == s + 1) return -1;
        v[3] = (unsigned)x;
        s = end;
    }
    return *s ? -1 : 0;
}

RT_EXPORT cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
    const struct cudaDeviceProp *p = rt_dev_props();
    unsigned v[4];
    if (!device || !pciBusId || parse_bus_id(pciBusId, v)) return rt_error(cudaErrorInvalidValue);
    if (v[0] != (unsigned)p->pciDomainID || v[1] != (unsigned)p->pciBusID ||
        v[2] != (unsigned)p->pciDeviceID || v[3] != 0)
        return rt_error(cudaErrorInvalidDevice);
    *device = 0;
    return cudaSuccess;
}

RT_EXPORT cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    if (!canAccessPeer) return rt_error(cudaErrorInvalidValue);
    if (!rt_dev_valid(device) || !rt_dev_valid(peerDevice)) return rt_error(cudaErrorInvalidDevice);
    *canAccessPeer = 0;                     /* one device: no peers */
    return cudaSuccess;
}
