/* rt_funcapi.c - CUDA runtime API on kernels: cudaFuncGetAttributes/SetAttribute/SetCacheConfig,
 * cudaFuncGetName/GetParamInfo and the occupancy calculators. */
#include <string.h>
#include "rt.h"
#include "rt_dev.h"

/* The ready kernel a host function (or a cudaKernel_t from cudaGetKernel) designates. */
static cudaError_t kernel_of(const void *func, rt_kernel **out)
{
    rt_kernel *k = func ? rt_kernel_by_stub(func) : NULL;
    if (!k) return cudaErrorInvalidDeviceFunction;
    cudaError_t e = rt_kernel_ready(k);
    if (e != cudaSuccess) return e;
    *out = k;
    return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    RT_BEGIN();
    rt_kernel *k;
    cudaError_t e = attr ? kernel_of(func, &k) : cudaErrorInvalidValue;
    if (e == cudaSuccess) rt_kernel_get_attributes(k, attr);
    return RT_END(e);
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    RT_BEGIN();
    rt_kernel *k;
    cudaError_t e = kernel_of(func, &k);
    if (e == cudaSuccess) e = rt_kernel_set_attr(k, (int)attr, value);
    return RT_END(e);
}

cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t kernel, enum cudaFuncAttribute attr,
                                            int value, int device)
{
    if (!rt_dev_valid(device)) return rt_error(cudaErrorInvalidDevice);
    return cudaFuncSetAttribute((const void *)kernel, attr, value);
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
    RT_BEGIN();
    rt_kernel *k;
    cudaError_t e = kernel_of(func, &k);
    if (e == cudaSuccess) e = rt_kernel_set_cache(k, (int)cacheConfig);
    return RT_END(e);
}

/* Bank size is fixed at four bytes on sm_80/sm_90: a valid setting is accepted, no effect. */
cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config)
{
    RT_BEGIN();
    rt_kernel *k;
    cudaError_t e = kernel_of(func, &k);
    if (e == cudaSuccess && ((int)config < cudaSharedMemBankSizeDefault ||
                             (int)config > cudaSharedMemBankSizeEightByte))
        e = cudaErrorInvalidValue;
    return RT_END(e);
}

cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    RT_BEGIN();
    rt_kernel *k = func ? rt_kernel_by_stub(func) : NULL;
    cudaError_t e = !name ? cudaErrorInvalidValue : !k ? cudaErrorInvalidDeviceFunction
                                                       : cudaSuccess;
    if (e == cudaSuccess) *name = k->name;
    return RT_END(e);
}

cudaError_t cudaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                 size_t *paramSize)
{
    RT_BEGIN();
    rt_kernel *k;
    cudaError_t e = kernel_of(func, &k);
    if (e == cudaSuccess && paramIndex >= (size_t)k->nparams) e = cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        if (paramOffset) *paramOffset = (size_t)k->param_off[paramIndex];
        if (paramSize) *paramSize = (size_t)k->param_size[paramIndex];
    }
    return RT_END(e);
}

/* ---- occupancy ------------------------------------------------------------------------------ */
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
        const void *func, int blockSize, size_t dynamicSMemSize, unsigned int flags)
{
    RT_BEGIN();
    rt_kernel *k;
    cudaError_t e = !numBlocks || blockSize <= 0 ||
                    (flags & ~(unsigned)cudaOccupancyDisableCachingOverride)
                    ? cudaErrorInvalidValue : kernel_of(func, &k);
    if (e == cudaSuccess) *numBlocks = rt_kernel_occupancy(k, blockSize, dynamicSMemSize);
    return RT_END(e);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                  dynamicSMemSize,
                                                                  cudaOccupancyDefault);
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func,
                                                      int numBlocks, int blockSize)
{
    RT_BEGIN();
    rt_kernel *k;
    cudaError_t e = !dynamicSmemSize || numBlocks <= 0 || blockSize <= 0
                    ? cudaErrorInvalidValue : kernel_of(func, &k);
    if (e == cudaSuccess) *dynamicSmemSize = rt_kernel_avail_dyn_smem(k, numBlocks, blockSize);
    return RT_END(e);
}

/* Cluster shape of a launch configuration: its cluster attribute, else the kernel's
 * compile-time or attribute-set shape; 0 when none. */
static unsigned config_cluster(const cudaLaunchConfig_t *c, const rt_fattr *a)
{
    for (unsigned i = 0; i < c->numAttrs; i++)
        if (c->attrs[i].id == cudaLaunchAttributeClusterDimension) {
            const unsigned *d = &c->attrs[i].val.clusterDim.x;
            return d[0] * (d[1] ? d[1] : 1) * (d[2] ? d[2] : 1);
        }
    if (a->req_cluster[0])
        return (unsigned)a->req_cluster[0] * (unsigned)(a->req_cluster[1] ? a->req_cluster[1] : 1) *
               (unsigned)(a->req_cluster[2] ? a->req_cluster[2] : 1);
    return 0;
}

/* Shared set-up of the two cluster calculators: the kernel, its limits and blocks per SM. */
static cudaError_t cluster_setup(const void *func, const cudaLaunchConfig_t *c, rt_fattr *a,
                                 int *per_sm)
{
    rt_kernel *k;
    if (!c || (c->numAttrs && !c->attrs)) return cudaErrorInvalidValue;
    if (!rt_dev_props()->clusterLaunch) return cudaErrorNotSupported;   /* sm_80 */
    cudaError_t e = kernel_of(func, &k);
    if (e != cudaSuccess) return e;
    rt_func_res r;
    rt_kernel_fattr(k, &r, a);
    int block = (int)(c->blockDim.x * c->blockDim.y * c->blockDim.z);
    *per_sm = rt_occ_blocks_per_sm(rt_dev_props(), &r, a, block, c->dynamicSmemBytes);
    return cudaSuccess;
}

/* Largest cluster the kernel can launch with: 8 blocks (portable), 16 when the kernel allows
 * non-portable sizes; 0 when a block cannot reside at all. */
cudaError_t cudaOccupancyMaxPotentialClusterSize(int *clusterSize, const void *func,
                                                 const cudaLaunchConfig_t *launchConfig)
{
    RT_BEGIN();
    rt_fattr a;
    int per_sm = 0;
    cudaError_t e = clusterSize ? cluster_setup(func, launchConfig, &a, &per_sm)
                                : cudaErrorInvalidValue;
    if (e == cudaSuccess) *clusterSize = per_sm > 0 ? (a.nonportable_cluster ? 16 : 8) : 0;
    return RT_END(e);
}

/* Clusters that can be resident at once: the device's resident blocks divided by the cluster
 * size (every SM counts; GPC boundaries are not modelled). */
cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, const void *func,
                                           const cudaLaunchConfig_t *launchConfig)
{
    RT_BEGIN();
    rt_fattr a;
    int per_sm = 0;
    cudaError_t e = numClusters ? cluster_setup(func, launchConfig, &a, &per_sm)
                                : cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        unsigned cl = config_cluster(launchConfig, &a);
        if (!cl || cl > (a.nonportable_cluster ? 16u : 8u))
            e = cudaErrorInvalidClusterSize;
        else
            *numClusters = per_sm * rt_dev_props()->multiProcessorCount / (int)cl;
    }
    return RT_END(e);
}
