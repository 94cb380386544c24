/* test_rtapi.c - the CUDA runtime's device layer: ABI layouts, device attributes, limits,
 * kernel resources, launch checks and occupancy numbers worked out by hand. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>
#include "test_util.h"
#include "rt.h"
#include "exec.h"   /* tests reach inside the core (rt.h no longer does) */
#include "rt_dev.h"
#include "rt_graph.h"
#include "cu_int.h"

cudaError_t cudaGetLastError(void);
CUresult cuGetErrorName(CUresult error, const char **pStr);
CUresult cuGetErrorString(CUresult error, const char **pStr);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t *pDependencies, size_t numDependencies);
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                     const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                     size_t numDependencies);
cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                              cudaGraphEdgeData *edgeData, size_t *numEdges);
typedef struct CUlinkState_st *CUlinkState;
CUresult cuInit(unsigned int flags);
CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
CUresult cuCtxSetCurrent(CUcontext ctx);
CUresult cuLinkCreate_v2(unsigned int n, int *options, void **values, CUlinkState *state);
CUresult cuLinkAddData_v2(CUlinkState state, int type, void *data, size_t size, const char *name,
                          unsigned int n, int *options, void **values);
CUresult cuLinkAddFile_v2(CUlinkState state, int type, const char *path, unsigned int n,
                          int *options, void **values);
CUresult cuLinkComplete(CUlinkState state, void **image, size_t *size);
CUresult cuLinkDestroy(CUlinkState state);
CUresult cuModuleLoadData(CUmodule *module, const void *image);
CUresult cuModuleLoad(CUmodule *module, const char *fname);
CUresult cuModuleGetFunction(CUfunction *f, CUmodule mod, const char *name);
CUresult cuModuleUnload(CUmodule mod);
CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                        unsigned int bx, unsigned int by, unsigned int bz, unsigned int shmem,
                        CUstream stream, void **params, void **extra);
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                     struct cudaMemAllocNodeParams *nodeParams);
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                    void *dptr);
cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
                                           struct cudaMemAllocNodeParams *params_out);
cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out);
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies,
                                       size_t numDependencies, cudaGraph_t childGraph);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags);
cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream);
cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph);
cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node);
cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                    cudaStream_t stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
cudaError_t cudaDeviceGraphMemTrim(int device);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes);
cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr,
                                           void *value);
cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr,
                                           void *value);

/* ---- ABI layouts ------------------------------------------------------------------------
 * The offsets below were measured by compiling offsetof() of every field against CUDA 13.0's
 * driver_types.h with gcc on x86-64 (struct cudaDeviceProp: 1008 bytes; struct
 * cudaFuncAttributes: 144 bytes). */
typedef struct { const char *name; size_t mine, real; } field_off;
#define P(f, off) { #f, offsetof(struct cudaDeviceProp, f), off }
#define A(f, off) { #f, offsetof(struct cudaFuncAttributes, f), off }
static const field_off prop_offs[] = {
    P(name, 0), P(uuid, 256), P(luid, 272), P(luidDeviceNodeMask, 280), P(totalGlobalMem, 288),
    P(sharedMemPerBlock, 296), P(regsPerBlock, 304), P(warpSize, 308), P(memPitch, 312),
    P(maxThreadsPerBlock, 320), P(maxThreadsDim, 324), P(maxGridSize, 336), P(totalConstMem, 352),
    P(major, 360), P(minor, 364), P(textureAlignment, 368), P(texturePitchAlignment, 376),
    P(multiProcessorCount, 384), P(integrated, 388), P(canMapHostMemory, 392),
    P(maxTexture1D, 396), P(maxTexture1DMipmap, 400), P(maxTexture2D, 404),
    P(maxTexture2DMipmap, 412), P(maxTexture2DLinear, 420), P(maxTexture2DGather, 432),
    P(maxTexture3D, 440), P(maxTexture3DAlt, 452), P(maxTextureCubemap, 464),
    P(maxTexture1DLayered, 468), P(maxTexture2DLayered, 476), P(maxTextureCubemapLayered, 488),
    P(maxSurface1D, 496), P(maxSurface2D, 500), P(maxSurface3D, 508), P(maxSurface1DLayered, 520),
    P(maxSurface2DLayered, 528), P(maxSurfaceCubemap, 540), P(maxSurfaceCubemapLayered, 544),
    P(surfaceAlignment, 552), P(concurrentKernels, 560), P(ECCEnabled, 564), P(pciBusID, 568),
    P(pciDeviceID, 572), P(pciDomainID, 576), P(tccDriver, 580), P(asyncEngineCount, 584),
    P(unifiedAddressing, 588), P(memoryBusWidth, 592), P(l2CacheSize, 596),
    P(persistingL2CacheMaxSize, 600), P(maxThreadsPerMultiProcessor, 604),
    P(streamPrioritiesSupported, 608), P(globalL1CacheSupported, 612),
    P(localL1CacheSupported, 616), P(sharedMemPerMultiprocessor, 624),
    P(regsPerMultiprocessor, 632), P(managedMemory, 636), P(isMultiGpuBoard, 640),
    P(multiGpuBoardGroupID, 644), P(hostNativeAtomicSupported, 648), P(pageableMemoryAccess, 652),
    P(concurrentManagedAccess, 656), P(computePreemptionSupported, 660),
    P(canUseHostPointerForRegisteredMem, 664), P(cooperativeLaunch, 668),
    P(sharedMemPerBlockOptin, 672), P(pageableMemoryAccessUsesHostPageTables, 680),
    P(directManagedMemAccessFromHost, 684), P(maxBlocksPerMultiProcessor, 688),
    P(accessPolicyMaxWindowSize, 692), P(reservedSharedMemPerBlock, 696),
    P(hostRegisterSupported, 704), P(sparseCudaArraySupported, 708),
    P(hostRegisterReadOnlySupported, 712), P(timelineSemaphoreInteropSupported, 716),
    P(memoryPoolsSupported, 720), P(gpuDirectRDMASupported, 724),
    P(gpuDirectRDMAFlushWritesOptions, 728), P(gpuDirectRDMAWritesOrdering, 732),
    P(memoryPoolSupportedHandleTypes, 736), P(deferredMappingCudaArraySupported, 740),
    P(ipcEventSupported, 744), P(clusterLaunch, 748), P(unifiedFunctionPointers, 752),
    P(deviceNumaConfig, 756), P(deviceNumaId, 760), P(mpsEnabled, 764), P(hostNumaId, 768),
    P(gpuPciDeviceID, 772), P(gpuPciSubsystemID, 776), P(hostNumaMultinodeIpcSupported, 780),
    P(reserved, 784),
};
static const field_off fattr_offs[] = {
    A(sharedSizeBytes, 0), A(constSizeBytes, 8), A(localSizeBytes, 16), A(maxThreadsPerBlock, 24),
    A(numRegs, 28), A(ptxVersion, 32), A(binaryVersion, 36), A(cacheModeCA, 40),
    A(maxDynamicSharedSizeBytes, 44), A(preferredShmemCarveout, 48), A(clusterDimMustBeSet, 52),
    A(requiredClusterWidth, 56), A(requiredClusterHeight, 60), A(requiredClusterDepth, 64),
    A(clusterSchedulingPolicyPreference, 68), A(nonPortableClusterSizeAllowed, 72),
    A(reserved, 76),
};
#undef P
#undef A

START_TEST(test_layout)
{
    ck_assert_uint_eq(sizeof(struct cudaDeviceProp), 1008);
    ck_assert_uint_eq(sizeof(struct cudaFuncAttributes), 144);
    ck_assert_uint_eq(sizeof prop_offs / sizeof prop_offs[0], 93);
    for (size_t i = 0; i < sizeof prop_offs / sizeof prop_offs[0]; i++)
        ck_assert_msg(prop_offs[i].mine == prop_offs[i].real, "cudaDeviceProp.%s at %zu, not %zu",
                      prop_offs[i].name, prop_offs[i].mine, prop_offs[i].real);
    for (size_t i = 0; i < sizeof fattr_offs / sizeof fattr_offs[0]; i++)
        ck_assert_msg(fattr_offs[i].mine == fattr_offs[i].real,
                      "cudaFuncAttributes.%s at %zu, not %zu", fattr_offs[i].name,
                      fattr_offs[i].mine, fattr_offs[i].real);
}
END_TEST

/* ---- device attributes ------------------------------------------------------------------- */
static int attr(int a)
{
    int v = -12345;
    ck_assert_int_eq(rt_dev_attribute(a, &v), cudaSuccess);
    return v;
}

START_TEST(test_a100_profile)
{
    struct cudaDeviceProp p;
    ck_assert_int_eq(rt_dev_profile_props("a100", &p), 0);
    /* NVIDIA A100 datasheet / CUDA programming guide, compute capability 8.0 */
    ck_assert_int_eq(p.major, 8);
    ck_assert_int_eq(p.minor, 0);
    ck_assert_int_eq(p.multiProcessorCount, 108);
    ck_assert_int_eq(p.maxThreadsPerMultiProcessor, 2048);
    ck_assert_int_eq(p.regsPerMultiprocessor, 65536);
    ck_assert_int_eq(p.regsPerBlock, 65536);
    ck_assert_uint_eq(p.sharedMemPerMultiprocessor, 164 * 1024);
    ck_assert_uint_eq(p.sharedMemPerBlock, 48 * 1024);
    ck_assert_uint_eq(p.sharedMemPerBlockOptin, 163 * 1024);
    ck_assert_int_eq(p.l2CacheSize, 40 * 1024 * 1024);
    ck_assert_int_eq(p.warpSize, 32);
    ck_assert_int_eq(p.maxThreadsPerBlock, 1024);
    ck_assert_int_eq(p.maxGridSize[0], 2147483647);
    ck_assert_int_eq(p.maxBlocksPerMultiProcessor, 32);
    ck_assert_int_eq(p.canMapHostMemory, 1);
    ck_assert_int_eq(p.unifiedAddressing, 1);
    ck_assert_int_eq(p.managedMemory, 1);
    ck_assert_int_eq(p.concurrentManagedAccess, 1);
    ck_assert_int_eq(p.cooperativeLaunch, 1);
    ck_assert_int_eq(p.clusterLaunch, 0);
    ck_assert_str_eq(p.name, "NVIDIA A100-SXM4-40GB");
    ck_assert_int_eq(rt_dev_profile_props("sm_90", &p), 0);
    ck_assert_int_eq(p.major, 9);
    ck_assert_int_eq(p.multiProcessorCount, 132);
    ck_assert_uint_eq(p.sharedMemPerMultiprocessor, 228 * 1024);
    ck_assert_uint_eq(p.sharedMemPerBlockOptin, 227 * 1024);
    ck_assert_int_eq(p.clusterLaunch, 1);
    ck_assert_int_eq(rt_dev_profile_props("sm_75", &p), -1);
}
END_TEST

/* Every attribute that mirrors a cudaDeviceProp field reads the same value. */
START_TEST(test_attr_consistency)
{
    const struct cudaDeviceProp *p = rt_dev_props();
    ck_assert_int_eq(attr(cudaDevAttrMaxThreadsPerBlock), p->maxThreadsPerBlock);
    ck_assert_int_eq(attr(cudaDevAttrMaxBlockDimX), p->maxThreadsDim[0]);
    ck_assert_int_eq(attr(cudaDevAttrMaxBlockDimZ), p->maxThreadsDim[2]);
    ck_assert_int_eq(attr(cudaDevAttrMaxGridDimY), p->maxGridSize[1]);
    ck_assert_int_eq(attr(cudaDevAttrMaxSharedMemoryPerBlock), (int)p->sharedMemPerBlock);
    ck_assert_int_eq(attr(cudaDevAttrTotalConstantMemory), (int)p->totalConstMem);
    ck_assert_int_eq(attr(cudaDevAttrWarpSize), p->warpSize);
    ck_assert_int_eq(attr(cudaDevAttrMaxRegistersPerBlock), p->regsPerBlock);
    ck_assert_int_eq(attr(cudaDevAttrMultiProcessorCount), p->multiProcessorCount);
    ck_assert_int_eq(attr(cudaDevAttrComputeCapabilityMajor), p->major);
    ck_assert_int_eq(attr(cudaDevAttrComputeCapabilityMinor), p->minor);
    ck_assert_int_eq(attr(cudaDevAttrL2CacheSize), p->l2CacheSize);
    ck_assert_int_eq(attr(cudaDevAttrMaxThreadsPerMultiProcessor), p->maxThreadsPerMultiProcessor);
    ck_assert_int_eq(attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor),
                     (int)p->sharedMemPerMultiprocessor);
    ck_assert_int_eq(attr(cudaDevAttrMaxRegistersPerMultiprocessor), p->regsPerMultiprocessor);
    ck_assert_int_eq(attr(cudaDevAttrMaxSharedMemoryPerBlockOptin), (int)p->sharedMemPerBlockOptin);
    ck_assert_int_eq(attr(cudaDevAttrMaxBlocksPerMultiprocessor), p->maxBlocksPerMultiProcessor);
    ck_assert_int_eq(attr(cudaDevAttrReservedSharedMemoryPerBlock),
                     (int)p->reservedSharedMemPerBlock);
    ck_assert_int_eq(attr(cudaDevAttrCanMapHostMemory), p->canMapHostMemory);
    ck_assert_int_eq(attr(cudaDevAttrUnifiedAddressing), p->unifiedAddressing);
    ck_assert_int_eq(attr(cudaDevAttrManagedMemory), p->managedMemory);
    ck_assert_int_eq(attr(cudaDevAttrConcurrentManagedAccess), p->concurrentManagedAccess);
    ck_assert_int_eq(attr(cudaDevAttrCooperativeLaunch), p->cooperativeLaunch);
    ck_assert_int_eq(attr(cudaDevAttrComputeMode), cudaComputeModeDefault);
    ck_assert_int_eq(attr(cudaDevAttrMaxTexture2DLayeredLayers), p->maxTexture2DLayered[2]);
    ck_assert_int_eq(attr(cudaDevAttrMaxSurfaceCubemapLayeredLayers),
                     p->maxSurfaceCubemapLayered[1]);
    ck_assert_int_eq(attr(cudaDevAttrMaxTexture2DLinearPitch), p->maxTexture2DLinear[2]);
    ck_assert_int_eq(attr(cudaDevAttrPciBusId), p->pciBusID);
    ck_assert_int_eq(attr(cudaDevAttrClusterLaunch), p->clusterLaunch);
    ck_assert_int_eq(attr(cudaDevAttrGpuPciDeviceId), (int)p->gpuPciDeviceID);
    ck_assert_int_eq(attr(cudaDevAttrClockRate), rt_dev_clock_khz());
    ck_assert_int_eq(attr(cudaDevAttrMemoryClockRate), rt_dev_mem_clock_khz());
    ck_assert_int_gt(rt_dev_clock_khz(), 1000000);
    /* numbers CUDA 13.0's enum cudaDeviceAttr leaves out are refused */
    static const int gaps[] = {0, 44, 102, 103, 104, 105, 107, 110, 136, 137, 146, 148, -1};
    for (size_t i = 0; i < sizeof gaps / sizeof gaps[0]; i++) {
        int v = 7;
        ck_assert_int_eq(rt_dev_attribute(gaps[i], &v), cudaErrorInvalidValue);
        ck_assert_int_eq(v, 7);
    }
    int defined = 0;
    for (int a = 1; a < cudaDevAttrMax; a++) {
        int v;
        if (rt_dev_attribute(a, &v) == cudaSuccess) defined++;
    }
    ck_assert_int_eq(defined, 137);     /* the 137 values CUDA 13.0 defines in 1..147 */
}
END_TEST

START_TEST(test_device_api)
{
    struct cudaDeviceProp p;
    int n = -1, d = -1, v = 0;
    char bus[32];
    ck_assert_int_eq(cudaGetDeviceCount(&n), cudaSuccess);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(cudaSetDevice(1), cudaErrorInvalidDevice);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidDevice);
    ck_assert_int_eq(cudaSetDevice(0), cudaSuccess);
    ck_assert_int_eq(cudaGetDevice(&d), cudaSuccess);
    ck_assert_int_eq(d, 0);
    ck_assert_int_eq(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    ck_assert_int_eq(p.multiProcessorCount, rt_dev_props()->multiProcessorCount);
    ck_assert_int_eq(cudaGetDeviceProperties(&p, 1), cudaErrorInvalidDevice);
    ck_assert_int_eq(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0), cudaSuccess);
    ck_assert_int_eq(v, 32);
    ck_assert_int_eq(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 3), cudaErrorInvalidDevice);
    ck_assert_int_eq(cudaDriverGetVersion(&v), cudaSuccess);
    ck_assert_int_eq(v, 13000);
    ck_assert_int_eq(cudaRuntimeGetVersion(&v), cudaSuccess);
    ck_assert_int_eq(v, 13000);
    ck_assert_int_eq(cudaDeviceGetPCIBusId(bus, sizeof bus, 0), cudaSuccess);
    ck_assert_str_eq(bus, "0000:07:00.0");
    d = -1;
    ck_assert_int_eq(cudaDeviceGetByPCIBusId(&d, bus), cudaSuccess);
    ck_assert_int_eq(d, 0);
    ck_assert_int_eq(cudaDeviceGetByPCIBusId(&d, "07:00"), cudaSuccess);
    ck_assert_int_eq(cudaDeviceGetByPCIBusId(&d, "0000:08:00.0"), cudaErrorInvalidDevice);
    ck_assert_int_eq(cudaDeviceGetByPCIBusId(&d, "zz"), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaDeviceCanAccessPeer(&v, 0, 0), cudaSuccess);
    ck_assert_int_eq(v, 0);
    unsigned fl = 0;
    ck_assert_int_eq(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync), cudaSuccess);
    ck_assert_int_eq(cudaGetDeviceFlags(&fl), cudaSuccess);
    ck_assert_uint_eq(fl, cudaDeviceScheduleBlockingSync | cudaDeviceMapHost);
    ck_assert_int_eq(cudaSetDeviceFlags(0x3), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaSetDeviceFlags(0x100), cudaErrorInvalidValue);
}
END_TEST

START_TEST(test_limits)
{
    size_t v = 0;
    ck_assert_int_eq(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize), cudaSuccess);
    ck_assert_uint_eq(v, 8u << 20);                 /* CUDA's documented default heap */
    ck_assert_int_eq(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64u << 20), cudaSuccess);
    ck_assert_uint_eq(rt_dev_limit(cudaLimitMallocHeapSize), 64u << 20);
    ck_assert_int_eq(cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize), cudaSuccess);
    ck_assert_uint_eq(v, 1u << 20);
    ck_assert_int_eq(cudaDeviceSetLimit(cudaLimitStackSize, 4000), cudaSuccess);
    ck_assert_uint_eq(rt_dev_limit(cudaLimitStackSize), 4000);
    ck_assert_int_eq(cudaDeviceSetLimit(cudaLimitStackSize, 64u << 20), cudaErrorMemoryAllocation);
    ck_assert_int_eq(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 48), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaDeviceSetLimit((enum cudaLimit)9, 1), cudaErrorUnsupportedLimit);
    ck_assert_int_eq(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 4), cudaErrorUnsupportedLimit);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorUnsupportedLimit);   /* recorded */
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);
    ck_assert_int_eq(cudaDeviceGetLimit(&v, (enum cudaLimit)9), cudaErrorUnsupportedLimit);
}
END_TEST

/* ---- kernel resources ------------------------------------------------------------------ */
static const char *k_res =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".shared .align 4 .b8 used_sh[1024];\n"
    ".shared .align 4 .b8 unused_sh[999];\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".const .align 4 .b8 tab[256];\n"
    ".const .align 4 .b8 other[64];\n"
    ".func helper()\n{\n .reg .b32 %r<3>;\n mov.u32 %r1, used_sh;\n ld.const.u32 %r2, [tab];\n"
    " ret;\n}\n"
    ".visible .entry k(.param .u64 a)\n{\n"
    " .local .align 8 .b8 __local_depot0[64];\n"
    " .shared .align 4 .b8 sm[4096];\n"
    " .reg .b32 %r<4>;\n"
    " mov.u32 %r1, sm; mov.u32 %r2, dyn;\n"
    " bar.sync 2;\n bar.sync 0;\n"
    " call.uni helper, ();\n ret;\n}\n"
    ".visible .entry lb(.param .u64 a)\n.maxntid 256, 1, 1\n.minnctapersm 4\n{\n ret;\n}\n"
    ".visible .entry lb2(.param .u64 a)\n.maxntid 512, 1, 1\n.minnctapersm 8\n{\n ret;\n}\n"
    ".visible .entry nr(.param .u64 a)\n.maxnreg 24\n{\n ret;\n}\n";

static dbg_target *load(const char *text)
{
    char err[1024];
    dbg_target_err kind;
    dbg_target *t = dbg_target_load(text, strlen(text), "res.ptx", 0, 0, &kind, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    return t;
}

/* The resources of kernel `name` as rt_func_resources reports them from the engine's info. */
static void kernel_res(dbg_target *t, const char *name, rt_func_res *r)
{
    dbg_kernel_info ki;
    ck_assert_int_eq(dbg_kernel_info_get(t, dbg_target_kernel(t, name), &ki), 0);
    rt_func_resources(&ki, r);
}

START_TEST(test_resources)
{
    dbg_target *t = load(k_res);
    rt_func_res r;
    kernel_res(t, "k", &r);
    ck_assert_uint_eq(r.shared_static, 4096 + 1024);   /* own + reached, not unused/extern */
    ck_assert_uint_eq(r.const_bytes, 256);
    ck_assert_uint_eq(r.local_bytes, 64);
    ck_assert_int_eq(r.barriers, 3);                    /* ids 0..2 */
    ck_assert_int_eq(r.max_threads, 1024);
    ck_assert_int_eq(r.ptx_version, 80);
    /* registers (no SASS): the estimate errs high, at least the 32 that keep full occupancy,
       capped as ptxas caps it */
    ck_assert_int_eq(dbg_kernel_regs(t, dbg_target_kernel(t, "k")), 32);
    /* launch bounds: 256 threads x 4 blocks leave 65536 / 1024 = 64 >= 32 registers */
    kernel_res(t, "lb", &r);
    ck_assert_int_eq(dbg_kernel_regs(t, dbg_target_kernel(t, "lb")), 32);
    ck_assert_int_eq(r.max_threads, 256);
    /* 512 x 8 blocks leave 65536 / 4096 = 16 registers per thread */
    kernel_res(t, "lb2", &r);
    ck_assert_int_eq(dbg_kernel_regs(t, dbg_target_kernel(t, "lb2")), 16);
    ck_assert_int_eq(r.max_threads, 512);
    ck_assert_int_eq(dbg_kernel_regs(t, dbg_target_kernel(t, "nr")), 24);
    /* what registers leave of a block: 108 per thread -> 3584 per warp, 4 warps in each
       quarter of the 64 K file -> 512 threads */
    rt_func_res_regs(&r, 108);
    ck_assert_int_eq(r.num_regs, 108);
    ck_assert_int_eq(r.max_threads, 512);

    dbg_target_free(t);
}
END_TEST

/* ---- occupancy: each expected number is worked out from the A100/H100 limits ------------ */
static rt_func_res res(size_t shared, int regs, int barriers)
{
    rt_func_res r;
    memset(&r, 0, sizeof r);
    r.shared_static = shared;
    r.num_regs = regs;
    r.barriers = barriers;
    r.max_threads = 1024;
    return r;
}

static rt_fattr fattr(int max_dyn)
{
    rt_fattr a;
    memset(&a, 0, sizeof a);
    a.max_dyn_smem = max_dyn;
    a.carveout = -1;
    return a;
}

START_TEST(test_occupancy_a100)
{
    struct cudaDeviceProp p;
    rt_dev_profile_props("a100", &p);
    rt_func_res r = res(0, 32, 1);
    rt_fattr a = fattr(48 * 1024);
    /* 256 threads = 8 warps: 64 warps/SM -> 8; regs 32*32 = 1024/warp, 16384/1024 = 16 warps
     * per scheduler x 4 = 64 -> 8; shared 1 KB reserve -> 164; slots 32 => 8 */
    ck_assert_int_eq(rt_occ_blocks_per_sm(&p, &r, &a, 256, 0), 8);
    ck_assert_int_eq(rt_occ_blocks_per_sm(&p, &r, &a, 1024, 0), 2);
    ck_assert_int_eq(rt_occ_blocks_per_sm(&p, &r, &a, 32, 0), 32);   /* block slots */
    ck_assert_int_eq(rt_occ_blocks_per_sm(&p, &r, &a, 33, 0), 32);   /* 2 warps: 64/2 */
    ck_assert_int_eq(rt_occ_blocks_per_sm(&p, &r, &a, 1025, 0), 0);
    /* 40000 B dynamic + 1 KB reserve -> 41088 B allocated; 167936 / 41088 = 4 */
    ck_assert_int_eq(rt_occ_blocks_per_sm(&p, &r, &a, 64, 40000), 4);
    /* beyond the 48 KB default without opt-in: cannot launch */
    ck_assert_int_eq(rt_occ_blocks_per_sm(&p, &r, &a, 64, 50000), 0);
    /* 16 KB static shared: (16384 + 1024) = 17408 -> 167936 / 17408 = 9 */
    rt_func_res r16 = res(16384, 32, 1);
    rt_fattr a16 = fattr(48 * 1024 - 16384);
    ck_assert_int_eq(rt_occ_blocks_per_sm(&p, &r16, &a16, 128, 0), 9);
    /* 24 registers: 768 per warp, 16384 / 768 = 21 per scheduler -> 84 warps; 96 threads =
     * 3 warps: warps 64/3 = 21, registers 84/3 = 28 => 21 */
    rt_func_res r24 = res(0, 24, 1);
    ck_assert_int_eq(rt_occ_blocks_per_sm(&p, &r24, &a, 96, 0), 21);
    /* 64 registers: 2048 per warp, 8 per scheduler -> 32 warps; 256 threads -> 4 */
    rt_func_res r64 = res(0, 64, 1);
    ck_assert_int_eq(rt_occ_blocks_per_sm(&p, &r64, &a, 256, 0), 4);
    /* 255 registers round to 8192 per warp: a 1024-thread block needs 262144 > 65536 */
    rt_func_res r255 = res(0, 255, 1);
    ck_assert_int_eq(rt_occ_blocks_per_sm(&p, &r255, &a, 1024, 0), 0);
    ck_assert_int_eq(rt_occ_blocks_per_sm(&p, &r255, &a, 64, 0), 4);  /* 2 warps/sched: 8/2 */
    /* 8 named barriers: 32 slots x 2 = 64 barriers / 8 = 8 blocks */
    rt_func_res rb = res(0, 32, 8);
    ck_assert_int_eq(rt_occ_blocks_per_sm(&p, &rb, &a, 32, 0), 8);
    /* opt-in to 100 KB dynamic: 102400 + 1024 = 103424 -> 1 per SM on the A100 */
    rt_fattr big = fattr(100 * 1024);
    ck_assert_int_eq(rt_occ_blocks_per_sm(&p, &r, &big, 128, 100 * 1024), 1);
    /* carveout 25%: 41984 B -> the 64 KB configuration; 1 KB blocks -> 64 -> slots 32;
     * with 20000 B dynamic: 21120 allocated, 65536 / 21120 = 3 */
    rt_fattr cv = fattr(48 * 1024);
    cv.carveout = 25;
    ck_assert_int_eq(rt_occ_blocks_per_sm(&p, &r, &cv, 32, 20000), 3);
    /* available dynamic shared memory: 4 blocks of 256 -> 167936/4 = 41984 - 1024 = 40960 */
    ck_assert_uint_eq(rt_occ_avail_dyn_smem(&p, &r, &a, 4, 256), 40960);
    /* 9 blocks of 256 threads do not fit (warps allow 8) */
    ck_assert_uint_eq(rt_occ_avail_dyn_smem(&p, &r, &a, 9, 256), 0);
}
END_TEST

START_TEST(test_occupancy_h100)
{
    struct cudaDeviceProp p;
    rt_dev_profile_props("h100", &p);
    rt_func_res r = res(0, 32, 1);
    rt_fattr big = fattr(100 * 1024);
    /* 103424 B per block in 233472 B (228 KB) -> 2 */
    ck_assert_int_eq(rt_occ_blocks_per_sm(&p, &r, &big, 128, 100 * 1024), 2);
    rt_fattr a = fattr(48 * 1024);
    ck_assert_int_eq(rt_occ_blocks_per_sm(&p, &r, &a, 256, 0), 8);
}
END_TEST

/* Attributes of a kernel loaded by the runtime from PTX text, as cudaFuncGetAttributes and
 * cudaFuncSetAttribute see them. */
START_TEST(test_kernel_attrs)
{
    rt_init();
    rt_module *mod = rt_module_new_ptx(k_res, strlen(k_res), "res.ptx");
    ck_assert_ptr_nonnull(mod);
    rt_kernel *k = rt_kernel_by_name(mod, "k");
    ck_assert_ptr_nonnull(k);
    ck_assert_int_eq(rt_kernel_ready(k), cudaSuccess);
    ck_assert_uint_eq(k->static_shmem, 5120);           /* the launch checks agree */
    struct cudaFuncAttributes fa;
    rt_kernel_get_attributes(k, &fa);
    ck_assert_uint_eq(fa.sharedSizeBytes, 5120);
    ck_assert_uint_eq(fa.constSizeBytes, 256);
    ck_assert_uint_eq(fa.localSizeBytes, 64);
    ck_assert_int_eq(fa.numRegs, 32);
    ck_assert_int_eq(fa.maxThreadsPerBlock, 1024);
    ck_assert_int_eq(fa.ptxVersion, 80);
    ck_assert_int_eq(fa.maxDynamicSharedSizeBytes, 48 * 1024 - 5120);
    ck_assert_int_eq(fa.preferredShmemCarveout, -1);
    ck_assert_int_eq(fa.binaryVersion, rt_dev_props()->major * 10 + rt_dev_props()->minor);
    /* the opt-in: up to 163 KB per block in all */
    ck_assert_int_eq(rt_kernel_set_attr(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        100 * 1024), cudaSuccess);
    ck_assert_int_eq(k->max_dyn_shmem, 100 * 1024);     /* what rt_launch.c checks */
    ck_assert_int_eq(rt_kernel_set_attr(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        163 * 1024 - 5120 + 1), cudaErrorInvalidValue);
    ck_assert_int_eq(rt_kernel_set_attr(k, cudaFuncAttributePreferredSharedMemoryCarveout, 101),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(rt_kernel_set_attr(k, cudaFuncAttributePreferredSharedMemoryCarveout, 50),
                     cudaSuccess);
    ck_assert_int_eq(rt_kernel_set_attr(k, cudaFuncAttributeClusterDimMustBeSet, 1),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(rt_kernel_set_cache(k, 7), cudaErrorInvalidValue);
    rt_kernel_get_attributes(k, &fa);
    ck_assert_int_eq(fa.maxDynamicSharedSizeBytes, 100 * 1024);
    ck_assert_int_eq(fa.preferredShmemCarveout, 50);
    rt_kernel *lb = rt_kernel_by_name(mod, "lb");
    ck_assert_int_eq(rt_kernel_ready(lb), cudaSuccess);
    rt_kernel_get_attributes(lb, &fa);
    ck_assert_int_eq(fa.maxThreadsPerBlock, 256);
}
END_TEST

/* ---- graphs: launch order ------------------------------------------------------------------- */
START_TEST(test_graph_order)
{
    rt_init();
    cudaGraph_t g = rt_graph_new();
    ck_assert_ptr_nonnull(g);
    cudaGraphNode_t n[6];
    ck_assert_int_eq(cudaGraphAddEmptyNode(&n[0], g, NULL, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddEmptyNode(&n[1], g, NULL, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddEmptyNode(&n[2], g, &n[1], 1), cudaSuccess);
    cudaGraphNode_t d3[2] = { n[0], n[2] };
    ck_assert_int_eq(cudaGraphAddEmptyNode(&n[3], g, d3, 2), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddEmptyNode(&n[4], g, NULL, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddEmptyNode(&n[5], g, NULL, 0), cudaSuccess);
    /* n1 now also waits for n5, created after it */
    ck_assert_int_eq(cudaGraphAddDependencies(g, &n[5], &n[1], NULL, 1), cudaSuccess);
    size_t ne = 0;
    ck_assert_int_eq(cudaGraphGetEdges(g, NULL, NULL, NULL, &ne), cudaSuccess);
    ck_assert_uint_eq(ne, 4);
    /* Kahn's algorithm, the earliest-created ready node first: n0 (ready), then n4 and n5
     * (n1 waits for n5), n1, n2 (after n1), n3 (after n0 and n2) */
    size_t cnt;
    cudaError_t e;
    cudaGraphNode_t *order = rt_graph_order(g, &cnt, &e);
    ck_assert_ptr_nonnull(order);
    ck_assert_uint_eq(cnt, 6);
    const int want[6] = { 0, 4, 5, 1, 2, 3 };
    for (int i = 0; i < 6; i++)
        ck_assert_msg(order[i] == n[want[i]], "position %d is not n%d", i, want[i]);
    free(order);
    /* a cycle n3 -> n5 -> n1 -> n2 -> n3 has no order */
    ck_assert_int_eq(cudaGraphAddDependencies(g, &n[3], &n[5], NULL, 1), cudaSuccess);
    ck_assert_ptr_null(rt_graph_order(g, &cnt, &e));
    ck_assert_int_eq(e, cudaErrorInvalidValue);
    /* self edges and foreign nodes are refused */
    ck_assert_int_eq(cudaGraphAddDependencies(g, &n[0], &n[0], NULL, 1), cudaErrorInvalidValue);
    rt_graph_free(g);
}
END_TEST

/* ---- graph memory nodes: the CUDA programming guide's rules ------------------------------- */
static unsigned long long gmem_attr(enum cudaGraphMemAttributeType a)
{
    unsigned long long v = ~0ull;
    ck_assert_int_eq(cudaDeviceGetGraphMemAttribute(0, a, &v), cudaSuccess);
    return v;
}

START_TEST(test_graph_mem_nodes)
{
    rt_init();
    unsigned long long res0 = gmem_attr(cudaGraphMemAttrReservedMemCurrent);
    cudaGraph_t g = rt_graph_new();
    struct cudaMemAllocNodeParams p;
    memset(&p, 0, sizeof p);
    p.poolProps.allocType = cudaMemAllocationTypePinned;
    p.poolProps.location.type = cudaMemLocationTypeDevice;
    cudaGraphNode_t a, f, f2;
    /* bad parameters */
    ck_assert_int_eq(cudaGraphAddMemAllocNode(&a, g, NULL, 0, NULL), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphAddMemAllocNode(&a, g, NULL, 0, &p), cudaErrorInvalidValue);
    p.bytesize = 4096;
    p.poolProps.location.id = 1;
    ck_assert_int_eq(cudaGraphAddMemAllocNode(&a, g, NULL, 0, &p), cudaErrorInvalidDevice);
    p.poolProps.location.id = 0;
    ck_assert_int_eq(cudaGraphAddMemFreeNode(&f, g, NULL, 0, &p), cudaErrorInvalidValue);
    size_t nn = 0;
    ck_assert_int_eq(cudaGraphGetNodes(g, NULL, &nn), cudaSuccess);
    ck_assert_uint_eq(nn, 0);
    /* the address is fixed at creation, reserved until nothing refers to it */
    ck_assert_int_eq(cudaGraphAddMemAllocNode(&a, g, NULL, 0, &p), cudaSuccess);
    void *d = p.dptr;
    ck_assert_ptr_nonnull(d);
    ck_assert_uint_eq(gmem_attr(cudaGraphMemAttrReservedMemCurrent), res0 + 4096);
    struct cudaMemAllocNodeParams q;
    ck_assert_int_eq(cudaGraphMemAllocNodeGetParams(a, &q), cudaSuccess);
    ck_assert_ptr_eq(q.dptr, d);
    ck_assert_uint_eq(q.bytesize, 4096);
    void *fp = NULL;
    ck_assert_int_eq(cudaGraphMemFreeNodeGetParams(a, &fp), cudaErrorInvalidValue);
    /* a graph with memory nodes is no child graph */
    cudaGraph_t outer = rt_graph_new();
    cudaGraphNode_t c;
    ck_assert_int_eq(cudaGraphAddChildGraphNode(&c, outer, NULL, 0, g), cudaErrorInvalidValue);
    rt_graph_free(outer);
    /* it cannot be cloned, nor lose nodes or edges */
    cudaGraph_t cl = NULL;
    ck_assert_int_eq(cudaGraphClone(&cl, g), cudaErrorNotSupported);
    ck_assert_int_eq(cudaGraphDestroyNode(a), cudaErrorNotSupported);
    /* one executable graph at a time; a relaunch while the memory is live is an error */
    cudaGraphExec_t x, x2;
    ck_assert_int_eq(cudaGraphInstantiateWithFlags(&x, g, 0), cudaSuccess);
    ck_assert_int_eq(cudaGraphInstantiateWithFlags(&x2, g, 0), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphLaunch(x, NULL), cudaSuccess);
    ck_assert_uint_ge(gmem_attr(cudaGraphMemAttrUsedMemCurrent), 4096);
    ck_assert_int_eq(cudaGraphLaunch(x, NULL), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaFreeAsync(d, NULL), cudaSuccess);
    ck_assert_int_eq(cudaFreeAsync(d, NULL), cudaErrorInvalidValue);    /* freed already */
    ck_assert_int_eq(cudaGraphLaunch(x, NULL), cudaSuccess);
    ck_assert_int_eq(cudaFree(d), cudaSuccess);                          /* cudaFree frees it too */
    ck_assert_int_eq(cudaGraphExecDestroy(x), cudaSuccess);
    /* a free node in the same graph; a second one for the same memory is refused */
    ck_assert_int_eq(cudaGraphAddMemFreeNode(&f, g, &a, 1, d), cudaSuccess);
    ck_assert_int_eq(cudaGraphAddMemFreeNode(&f2, g, &f, 1, d), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGraphMemFreeNodeGetParams(f, &fp), cudaSuccess);
    ck_assert_ptr_eq(fp, d);
    ck_assert_int_eq(cudaGraphInstantiateWithFlags(&x, g, 0), cudaSuccess);
    for (int i = 0; i < 3; i++) ck_assert_int_eq(cudaGraphLaunch(x, NULL), cudaSuccess);
    ck_assert_int_eq(cudaFreeAsync(d, NULL), cudaErrorInvalidValue);    /* the graph freed it */
    ck_assert_int_eq(cudaGraphExecDestroy(x), cudaSuccess);
    ck_assert_int_eq(cudaGraphDestroy(g), cudaSuccess);
    ck_assert_uint_eq(gmem_attr(cudaGraphMemAttrReservedMemCurrent), res0);
    /* memory a launch left live outlives the graph and its executable graph */
    g = rt_graph_new();
    ck_assert_int_eq(cudaGraphAddMemAllocNode(&a, g, NULL, 0, &p), cudaSuccess);
    d = p.dptr;
    ck_assert_int_eq(cudaGraphInstantiateWithFlags(&x, g, cudaGraphInstantiateFlagAutoFreeOnLaunch),
                     cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, NULL), cudaSuccess);
    ck_assert_int_eq(cudaGraphLaunch(x, NULL), cudaSuccess);             /* auto-freed first */
    ck_assert_int_eq(cudaGraphDestroy(g), cudaSuccess);
    ck_assert_int_eq(cudaGraphExecDestroy(x), cudaSuccess);
    ck_assert_uint_eq(gmem_attr(cudaGraphMemAttrReservedMemCurrent), res0 + 4096);
    ck_assert_int_eq(cudaFreeAsync(d, NULL), cudaSuccess);
    ck_assert_uint_eq(gmem_attr(cudaGraphMemAttrReservedMemCurrent), res0);
    /* attributes: only the high watermarks, only reset to 0 */
    unsigned long long zero = 0, one = 1;
    ck_assert_int_eq(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &one),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero),
                     cudaSuccess);
    ck_assert_uint_eq(gmem_attr(cudaGraphMemAttrUsedMemHigh),
                      gmem_attr(cudaGraphMemAttrUsedMemCurrent));
    ck_assert_int_eq(cudaDeviceGetGraphMemAttribute(1, cudaGraphMemAttrUsedMemHigh, &one),
                     cudaErrorInvalidDevice);
    ck_assert_int_eq(cudaDeviceGraphMemTrim(0), cudaSuccess);
    ck_assert_int_eq(cudaDeviceGraphMemTrim(1), cudaErrorInvalidDevice);
    cudaGetLastError();
}
END_TEST

/* Captured cudaMallocAsync gets the alloc node's address; cudaFreeAsync of it is a free node;
 * freeing memory that is not a graph allocation invalidates the capture. */
START_TEST(test_graph_mem_capture)
{
    rt_init();
    cudaStream_t s;
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s, 1), cudaSuccess);
    void *d = NULL;
    cudaGraph_t g = NULL;
    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    ck_assert_int_eq(cudaMallocAsync(&d, 256, s), cudaSuccess);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(cudaFreeAsync(d, s), cudaSuccess);
    void *bad = NULL;                       /* not a pool: refused, the capture goes on */
    ck_assert_int_eq(cudaMallocFromPoolAsync(&bad, 64, (cudaMemPool_t)(void *)&s, s),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaStreamEndCapture(s, &g), cudaSuccess);
    cudaGraphNode_t nodes[2];
    size_t nn = 2;
    ck_assert_int_eq(cudaGraphGetNodes(g, nodes, &nn), cudaSuccess);
    ck_assert_uint_eq(nn, 2);
    struct cudaMemAllocNodeParams q;
    ck_assert_int_eq(cudaGraphMemAllocNodeGetParams(nodes[0], &q), cudaSuccess);
    ck_assert_ptr_eq(q.dptr, d);
    ck_assert_uint_eq(q.bytesize, 256);
    ck_assert_int_eq(cudaGraphDestroy(g), cudaSuccess);
    void *m = NULL;
    ck_assert_int_eq(cudaMallocAsync(&m, 64, s), cudaSuccess);
    ck_assert_int_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    ck_assert_int_eq(cudaFreeAsync(m, s), cudaErrorStreamCaptureUnsupported);
    ck_assert_int_eq(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated);
    ck_assert_int_eq(cudaFreeAsync(m, s), cudaSuccess);
    ck_assert_int_eq(cudaStreamDestroy(s), cudaSuccess);
    cudaGetLastError();
}
END_TEST

/* ---- driver API errors: CUDA 13.0's cuda.h numbers ------------------------------------------ */
START_TEST(test_cu_errors)
{
    static const struct { int v; const char *name; } rows[] = {
        {0, "CUDA_SUCCESS"}, {1, "CUDA_ERROR_INVALID_VALUE"}, {3, "CUDA_ERROR_NOT_INITIALIZED"},
        {34, "CUDA_ERROR_STUB_LIBRARY"}, {100, "CUDA_ERROR_NO_DEVICE"},
        {101, "CUDA_ERROR_INVALID_DEVICE"}, {201, "CUDA_ERROR_INVALID_CONTEXT"},
        {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"}, {218, "CUDA_ERROR_INVALID_PTX"},
        {226, "CUDA_ERROR_CONTAINED"}, {400, "CUDA_ERROR_INVALID_HANDLE"},
        {500, "CUDA_ERROR_NOT_FOUND"}, {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
        {710, "CUDA_ERROR_ASSERT"}, {716, "CUDA_ERROR_MISALIGNED_ADDRESS"},
        {719, "CUDA_ERROR_LAUNCH_FAILED"}, {721, "CUDA_ERROR_TENSOR_MEMORY_LEAK"},
        {801, "CUDA_ERROR_NOT_SUPPORTED"}, {910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE"},
        {916, "CUDA_ERROR_KEY_ROTATION"}, {999, "CUDA_ERROR_UNKNOWN"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *n = NULL, *t = NULL;
        ck_assert_int_eq(cuGetErrorName((CUresult)rows[i].v, &n), CUDA_SUCCESS);
        ck_assert_str_eq(n, rows[i].name);
        ck_assert_int_eq(cuGetErrorString((CUresult)rows[i].v, &t), CUDA_SUCCESS);
        ck_assert_ptr_nonnull(t);
    }
    int defined = 0;
    for (int v = 0; v < 1100; v++) {
        const char *n;
        if (cuGetErrorName((CUresult)v, &n) == CUDA_SUCCESS) defined++;
    }
    ck_assert_int_eq(defined, 101);           /* the values of CUDA 13.0's CUresult */
    const char *t = NULL;
    ck_assert_int_eq(cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &t), CUDA_SUCCESS);
    ck_assert_str_eq(t, "invalid argument");
    ck_assert_int_eq(cuGetErrorName((CUresult)2, NULL), CUDA_ERROR_INVALID_VALUE);
    /* runtime errors as the driver API reports them */
    ck_assert_int_eq(cu_result(cudaErrorIllegalAddress), CUDA_ERROR_ILLEGAL_ADDRESS);
    ck_assert_int_eq(cu_result(cudaErrorInvalidResourceHandle), CUDA_ERROR_INVALID_HANDLE);
    ck_assert_int_eq(cu_result(cudaErrorInvalidDeviceFunction), CUDA_ERROR_INVALID_HANDLE);
    /* the driver's own code 9, which the CUDA runtime reports as cudaErrorInvalidConfiguration */
    ck_assert_int_eq(cu_result(cudaErrorInvalidConfiguration), 9);
    ck_assert_int_eq(cu_result(cudaErrorInvalidSymbol), CUDA_ERROR_NOT_FOUND);
}
END_TEST

/* ---- the JIT linker (cuLink*) -------------------------------------------------------------- */
#define LK_HDR ".version 8.0\n.target sm_80\n.address_size 64\n"
/* out[i] = twice(i) + 1, twice() defined by the other unit */
static const char lk_kernel[] = LK_HDR
    ".extern .func (.param .b32 r) twice(.param .b32 a);\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .b32 %r<5>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x;\n"
    " { .param .b32 a; .param .b32 rv; st.param.b32 [a], %r1;\n"
    "   call (rv), twice, (a); ld.param.b32 %r2, [rv]; }\n"
    " add.s32 %r3, %r2, 1;\n"
    " cvta.to.global.u64 %rd2, %rd1; mul.wide.u32 %rd3, %r1, 4; add.s64 %rd2, %rd2, %rd3;\n"
    " st.global.u32 [%rd2], %r3;\n ret;\n}\n";
static const char lk_func[] = LK_HDR
    ".visible .func (.param .b32 r) twice(.param .b32 a)\n{\n"
    " .reg .b32 %r<3>; ld.param.b32 %r1, [a]; shl.b32 %r2, %r1, 1;\n"
    " st.param.b32 [r], %r2; ret;\n}\n";

enum { LK_CUBIN, LK_PTX, LK_FATBIN, LK_OBJECT, LK_LIBRARY };

static void lk_context(void)
{
    CUcontext ctx;
    ck_assert_int_eq(cuInit(0), CUDA_SUCCESS);
    ck_assert_int_eq(cuDevicePrimaryCtxRetain(&ctx, 0), CUDA_SUCCESS);
    ck_assert_int_eq(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
}

START_TEST(test_cu_link)
{
    lk_context();
    char err[256] = "x", info[256] = "x";
    int opts[6] = { 2, 3, 4, 5, 6, 7 };   /* WALL_TIME, INFO_LOG(+SIZE), ERROR_LOG(+SIZE), OPT */
    void *vals[6] = { NULL, info, (void *)sizeof info, err, (void *)sizeof err, (void *)3 };
    CUlinkState ls;
    ck_assert_int_eq(cuLinkCreate_v2(6, opts, vals, &ls), CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkAddData_v2(ls, LK_PTX, (void *)lk_kernel, sizeof lk_kernel, "k.ptx",
                                      0, NULL, NULL), CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkAddData_v2(ls, LK_PTX, (void *)lk_func, strlen(lk_func), NULL, 0,
                                      NULL, NULL), CUDA_SUCCESS);
    void *img = NULL;
    size_t size = 0;
    ck_assert_int_eq(cuLinkComplete(ls, &img, &size), CUDA_SUCCESS);
    ck_assert_ptr_nonnull(img);
    ck_assert_uint_eq(size, strlen(img) + 1);   /* NUL-terminated PTX text */
    ck_assert_ptr_nonnull(strstr(img, ".entry k"));
    ck_assert_ptr_nonnull(strstr(img, "twice"));
    ck_assert_str_eq(err, "");
    ck_assert_ptr_nonnull(strstr(info, "2 PTX inputs"));
    ck_assert_uint_eq((uintptr_t)vals[2], strlen(info) + 1);   /* OUT: bytes filled */
    float ms = -1;
    memcpy(&ms, &vals[0], sizeof ms);
    ck_assert(ms >= 0);
    /* a second complete returns the same image; nothing is added after completion */
    void *img2 = NULL;
    ck_assert_int_eq(cuLinkComplete(ls, &img2, &size), CUDA_SUCCESS);
    ck_assert_ptr_eq(img, img2);
    ck_assert_int_ne(cuLinkAddData_v2(ls, LK_PTX, (void *)lk_func, sizeof lk_func, NULL, 0,
                                      NULL, NULL), CUDA_SUCCESS);
    CUmodule mod;
    ck_assert_int_eq(cuModuleLoadData(&mod, img), CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkDestroy(ls), CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkDestroy(ls), CUDA_ERROR_INVALID_HANDLE);
    CUfunction f;
    ck_assert_int_eq(cuModuleGetFunction(&f, mod, "k"), CUDA_SUCCESS);
    void *d;
    ck_assert_int_eq(cudaMalloc(&d, 64 * 4), cudaSuccess);
    void *args[] = { &d };
    ck_assert_int_eq(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL), CUDA_SUCCESS);
    int h[64];
    ck_assert_int_eq(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 64; i++)
        ck_assert_int_eq(h[i], 2 * i + 1);
    cudaFree(d);
    ck_assert_int_eq(cuModuleUnload(mod), CUDA_SUCCESS);
}
END_TEST

START_TEST(test_cu_link_errors)
{
    CUlinkState ls;
    lk_context();
    char err[32];
    int opts[2] = { 5, 6 };
    void *vals[2] = { err, (void *)sizeof err };
    void *img;
    size_t size;
    ck_assert_int_eq(cuLinkCreate_v2(1, NULL, NULL, &ls), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuLinkCreate_v2(2, opts, vals, &ls), CUDA_SUCCESS);
    /* nothing added */
    ck_assert_int_ne(cuLinkComplete(ls, &img, &size), CUDA_SUCCESS);
    ck_assert_ptr_nonnull(strstr(err, "nothing to link"));
    ck_assert_int_eq(cuLinkDestroy(ls), CUDA_SUCCESS);
    /* an unresolved function; the log is cut at its size and stays terminated */
    vals[0] = err; vals[1] = (void *)sizeof err;
    ck_assert_int_eq(cuLinkCreate_v2(2, opts, vals, &ls), CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkAddData_v2(ls, LK_PTX, (void *)lk_kernel, sizeof lk_kernel, "k.ptx",
                                      0, NULL, NULL), CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkComplete(ls, &img, &size), CUDA_ERROR_INVALID_PTX);
    ck_assert_uint_eq(strlen(err), sizeof err - 1);
    ck_assert_ptr_nonnull(strstr(err, "unresolved"));
    ck_assert_uint_eq((uintptr_t)vals[1], sizeof err);
    /* unusable inputs: a cubin, a fat binary without PTX, objects and libraries */
    static const char elf[64] = "\177ELF\002\001\001";
    ck_assert_int_eq(cuLinkAddData_v2(ls, LK_CUBIN, (void *)elf, sizeof elf, "a.cubin", 0, NULL,
                                      NULL), CUDA_ERROR_INVALID_IMAGE);
    ck_assert_int_eq(cuLinkAddData_v2(ls, LK_FATBIN, (void *)elf, sizeof elf, "a.fatbin", 0,
                                      NULL, NULL), CUDA_ERROR_INVALID_IMAGE);
    ck_assert_int_eq(cuLinkAddData_v2(ls, LK_OBJECT, (void *)elf, sizeof elf, "a.o", 0, NULL,
                                      NULL), CUDA_ERROR_NOT_SUPPORTED);
    ck_assert_int_eq(cuLinkAddData_v2(ls, LK_LIBRARY, (void *)elf, sizeof elf, "a.a", 0, NULL,
                                      NULL), CUDA_ERROR_NOT_SUPPORTED);
    ck_assert_int_eq(cuLinkAddData_v2(ls, 99, (void *)elf, sizeof elf, "x", 0, NULL, NULL),
                     CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuLinkAddFile_v2(ls, LK_PTX, "/nonexistent/x.ptx", 0, NULL, NULL),
                     CUDA_ERROR_FILE_NOT_FOUND);
    ck_assert_int_eq(cuLinkDestroy(ls), CUDA_SUCCESS);
    /* two strong definitions of one function */
    ck_assert_int_eq(cuLinkCreate_v2(0, NULL, NULL, &ls), CUDA_SUCCESS);
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(cuLinkAddData_v2(ls, LK_PTX, (void *)lk_func, sizeof lk_func, NULL, 0,
                                          NULL, NULL), CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkComplete(ls, &img, &size), CUDA_ERROR_INVALID_PTX);
    ck_assert_int_eq(cuLinkDestroy(ls), CUDA_SUCCESS);
    /* declared but never called, and the functions the runtime provides: not unresolved */
    static const char lk_decl[] = LK_HDR
        ".extern .func unused_fn();\n"
        ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n"
        ".global .align 1 .b8 fmt[4] = {104, 105, 10, 0};\n"
        ".visible .entry p()\n{\n .reg .b32 %r<2>; .reg .b64 %rd<3>;\n"
        " mov.u64 %rd1, fmt; cvta.global.u64 %rd1, %rd1; mov.u64 %rd2, 0;\n"
        " { .param .b64 a0; .param .b64 a1; .param .b32 rv; st.param.b64 [a0], %rd1;\n"
        "   st.param.b64 [a1], %rd2; call (rv), vprintf, (a0, a1); ld.param.b32 %r1, [rv]; }\n"
        " ret;\n}\n";
    ck_assert_int_eq(cuLinkCreate_v2(0, NULL, NULL, &ls), CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkAddData_v2(ls, LK_PTX, (void *)lk_decl, sizeof lk_decl, NULL, 0,
                                      NULL, NULL), CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkComplete(ls, &img, &size), CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkDestroy(ls), CUDA_SUCCESS);
    /* a file input; a syntax error is reported by the parser */
    char path[] = "/tmp/lkXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *fp = fdopen(fd, "w");
    fputs(LK_HDR ".visible .entry e()\n{\n bogus;\n}\n", fp);
    fclose(fp);
    ck_assert_int_eq(cuLinkCreate_v2(0, NULL, NULL, &ls), CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkAddFile_v2(ls, LK_PTX, path, 0, NULL, NULL), CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkComplete(ls, &img, &size), CUDA_ERROR_INVALID_PTX);
    ck_assert_int_eq(cuLinkDestroy(ls), CUDA_SUCCESS);
    CUmodule mod;   /* cuModuleLoad reads files the same way */
    ck_assert_int_eq(cuModuleLoad(&mod, path), CUDA_ERROR_INVALID_PTX);
    ck_assert_int_eq(cuModuleLoad(&mod, "/nonexistent/x.ptx"), CUDA_ERROR_FILE_NOT_FOUND);
    unlink(path);
    ck_assert_int_eq(cuLinkAddData_v2(ls, LK_PTX, (void *)lk_func, sizeof lk_func, NULL, 0,
                                      NULL, NULL), CUDA_ERROR_INVALID_HANDLE);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("rtapi");
    TCase *tc = tcase_create("device");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_layout);
    tcase_add_test(tc, test_a100_profile);
    tcase_add_test(tc, test_attr_consistency);
    tcase_add_test(tc, test_device_api);
    tcase_add_test(tc, test_limits);
    tcase_add_test(tc, test_resources);
    tcase_add_test(tc, test_occupancy_a100);
    tcase_add_test(tc, test_occupancy_h100);
    tcase_add_test(tc, test_kernel_attrs);
    tcase_add_test(tc, test_graph_order);
    tcase_add_test(tc, test_graph_mem_nodes);
    tcase_add_test(tc, test_graph_mem_capture);
    tcase_add_test(tc, test_cu_errors);
    tcase_add_test(tc, test_cu_link);
    tcase_add_test(tc, test_cu_link_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
