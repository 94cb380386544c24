/* rt_occ.c - kernel resources from PTX, per-kernel attributes, launch checks and the
 * occupancy calculator (CUDA's rules for sm_80/sm_90). */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"
#include "rt_dev.h"

#define SMEM_GRANULE 128     /* shared-memory allocation unit, sm_80 and later */
#define REG_GRANULE 256      /* registers are allocated per warp in units of 256 */
#define SUB_PARTITIONS 4     /* an SM's register file is split among 4 schedulers */
#define MAX_REGS_THREAD 255

/* ---- resources ----------------------------------------------------------------------------
 * The engine computes what ptxas reports (dbg_kernel_info_get: static shared, const, local,
 * barriers; dbg_kernel_regs: a register estimate); the register count of a kernel whose fat
 * binary carries SASS for the device is ptxas's own (rt_kernel.sass_regs, rt_sass.c). */
static size_t align_up(size_t v, size_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

void rt_func_resources(const dbg_kernel_info *ki, rt_func_res *r)
{
    const struct cudaDeviceProp *p = rt_dev_props();
    memset(r, 0, sizeof *r);
    r->shared_static = ki->shared_static;
    r->const_bytes = ki->const_bytes;
    r->local_bytes = ki->local_bytes;
    r->barriers = ki->barriers;
    /* launch bounds; registers and what they allow: the kernel's own count (rt_kernel.regs),
       rt_kernel_fattr */
    const uint32_t *t = ki->reqntid[0] ? ki->reqntid : ki->maxntid;
    uint64_t nt = t[0] ? (uint64_t)t[0] * (t[1] ? t[1] : 1) * (t[2] ? t[2] : 1) : 0;
    r->num_regs = 0;
    r->max_threads = p->maxThreadsPerBlock;
    if (nt && nt < (uint64_t)r->max_threads) r->max_threads = (int)nt;
    /* cudaFuncAttributes.ptxVersion is the virtual architecture the PTX was compiled for
     * (.target sm_80 -> 80; CUB picks its tuning policies by it), not the PTX ISA version. */
    r->ptx_version = ki->target_sm;
    for (int i = 0; i < 3; i++) r->req_cluster[i] = (int)ki->reqnctapercluster[i];
}

/* Set the registers per thread and what they leave of maxThreadsPerBlock: a block's warps,
 * each allocated registers in units of 256 and spread over the SM's 4 quarters of the 64 K
 * register file, must fit (rt_kernel_block_fits, occ_non_smem). */
void rt_func_res_regs(rt_func_res *r, int regs)
{
    const struct cudaDeviceProp *p = rt_dev_props();
    r->num_regs = regs;
    int regs_warp = (int)align_up((size_t)regs * 32, REG_GRANULE);
    int by_regs = regs_warp ? p->regsPerBlock / SUB_PARTITIONS / regs_warp * SUB_PARTITIONS * 32
                            : p->maxThreadsPerBlock;
    if (by_regs < r->max_threads) r->max_threads = by_regs;
}

/* ---- per-kernel attributes ------------------------------------------------------------------ */
void rt_kernel_fattr(const rt_kernel *k, rt_func_res *r, rt_fattr *a)
{
    const struct cudaDeviceProp *p = rt_dev_props();
    rt_func_resources(&k->info, r);
    rt_func_res_regs(r, k->regs);   /* SASS or estimate (rt_kernel_ready) */
    memset(a, 0, sizeof *a);
    a->max_dyn_smem = k->max_dyn_shmem >= 0 ? k->max_dyn_shmem
                      : r->shared_static >= p->sharedMemPerBlock ? 0
                      : (int)(p->sharedMemPerBlock - r->shared_static);
    a->carveout = k->attr[RT_KA_CARVEOUT] - 1;
    a->cache_config = k->attr[RT_KA_CACHE];
    a->cluster_must_be_set = k->info.explicitcluster;
    a->nonportable_cluster = k->attr[RT_KA_NONPORTABLE];
    a->cluster_sched = k->attr[RT_KA_SCHED];
    for (int i = 0; i < 3; i++)
        a->req_cluster[i] = r->req_cluster[i] ? r->req_cluster[i] : k->attr[RT_KA_CLUSTER_X + i];
}

cudaError_t rt_kernel_set_attr(rt_kernel *k, int attr, int value)
{
    const struct cudaDeviceProp *p = rt_dev_props();
    rt_func_res r;
    rt_fattr cur;
    rt_kernel_fattr(k, &r, &cur);
    switch (attr) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize:
        if (value < 0 || (size_t)value + r.shared_static > p->sharedMemPerBlockOptin)
            return cudaErrorInvalidValue;
        k->max_dyn_shmem = value;
        return cudaSuccess;
    case cudaFuncAttributePreferredSharedMemoryCarveout:
        if (value < -1 || value > 100) return cudaErrorInvalidValue;
        k->attr[RT_KA_CARVEOUT] = value + 1;
        return cudaSuccess;
    case cudaFuncAttributeRequiredClusterWidth:
    case cudaFuncAttributeRequiredClusterHeight:
    case cudaFuncAttributeRequiredClusterDepth:
        if (!p->clusterLaunch) return cudaErrorNotSupported;
        if (value < 0 || value > 16) return cudaErrorInvalidValue;
        if (r.req_cluster[0]) return cudaErrorNotPermitted;  /* fixed by the PTX */
        k->attr[RT_KA_CLUSTER_X + attr - cudaFuncAttributeRequiredClusterWidth] = value;
        return cudaSuccess;
    case cudaFuncAttributeNonPortableClusterSizeAllowed:
        if (!p->clusterLaunch) return cudaErrorNotSupported;
        if (value != 0 && value != 1) return cudaErrorInvalidValue;
        k->attr[RT_KA_NONPORTABLE] = value;
        return cudaSuccess;
    case cudaFuncAttributeClusterSchedulingPolicyPreference:
        if (value < 0 || value > 2) return cudaErrorInvalidValue;
        k->attr[RT_KA_SCHED] = value;
        return cudaSuccess;
    case cudaFuncAttributeClusterDimMustBeSet:      /* read-only */
    default:
        return cudaErrorInvalidValue;
    }
}

cudaError_t rt_kernel_set_cache(rt_kernel *k, int cache_config)
{
    if (cache_config < cudaFuncCachePreferNone || cache_config > cudaFuncCachePreferEqual)
        return cudaErrorInvalidValue;
    k->attr[RT_KA_CACHE] = cache_config;
    return cudaSuccess;
}

void rt_kernel_get_attributes(const rt_kernel *k, struct cudaFuncAttributes *a)
{
    const struct cudaDeviceProp *p = rt_dev_props();
    rt_func_res r;
    rt_fattr fa;
    rt_kernel_fattr(k, &r, &fa);
    memset(a, 0, sizeof *a);
    a->sharedSizeBytes = r.shared_static;
    a->constSizeBytes = r.const_bytes;
    a->localSizeBytes = r.local_bytes;
    a->maxThreadsPerBlock = r.max_threads;
    a->numRegs = r.num_regs;
    a->ptxVersion = r.ptx_version;
    a->binaryVersion = p->major * 10 + p->minor;
    a->maxDynamicSharedSizeBytes = fa.max_dyn_smem;
    a->preferredShmemCarveout = fa.carveout;
    a->clusterDimMustBeSet = fa.cluster_must_be_set;
    a->requiredClusterWidth = fa.req_cluster[0];
    a->requiredClusterHeight = fa.req_cluster[1];
    a->requiredClusterDepth = fa.req_cluster[2];
    a->clusterSchedulingPolicyPreference = fa.cluster_sched;
    a->nonPortableClusterSizeAllowed = fa.nonportable_cluster;
}

/* ---- occupancy -------------------------------------------------------------------------- */
/* The smallest shared-memory carveout (L1/shared split) of the device holding `size`
 * bytes; the largest one when none does. */
static size_t carveout_align(const struct cudaDeviceProp *p, size_t size)
{
    static const unsigned kb80[] = {0, 8, 16, 32, 64, 100, 132, 164};
    static const unsigned kb90[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
    const unsigned *t = p->major >= 9 ? kb90 : kb80;
    int n = p->major >= 9 ? 10 : 8;
    for (int i = 0; i < n; i++)
        if (size <= (size_t)t[i] * 1024) return (size_t)t[i] * 1024;
    return (size_t)t[n - 1] * 1024;
}

/* Shared memory per SM the driver would configure for the kernel's preference. */
static size_t smem_preference(const struct cudaDeviceProp *p, const rt_fattr *a)
{
    int pref = a->carveout;
    if (pref == -1) {
        switch (a->cache_config) {
        case cudaFuncCachePreferL1: pref = 0; break;
        case cudaFuncCachePreferShared: pref = 100; break;
        case cudaFuncCachePreferEqual: pref = 50; break;
        default: break;
        }
    }
    size_t sz = pref == -1 ? p->sharedMemPerMultiprocessor :
                (size_t)pref * p->sharedMemPerMultiprocessor / 100;
    return carveout_align(p, sz);
}

static int imin(int a, int b) { return a < b ? a : b; }

/* Blocks per SM allowed by everything but shared memory; 0 when a block cannot run at all. */
static int occ_non_smem(const struct cudaDeviceProp *p, const rt_func_res *r, int block)
{
    if (block <= 0 || block > p->maxThreadsPerBlock || block > r->max_threads) return 0;
    int wpb = (block + p->warpSize - 1) / p->warpSize;
    int lim = p->maxThreadsPerMultiProcessor / p->warpSize / wpb;
    lim = imin(lim, p->maxBlocksPerMultiProcessor);
    int regs_warp = (int)align_up((size_t)r->num_regs * (size_t)p->warpSize, REG_GRANULE);
    int per_cta = regs_warp * wpb;
    int assumed = regs_warp * (int)align_up((size_t)wpb, SUB_PARTITIONS);
    if (r->num_regs > MAX_REGS_THREAD || per_cta > p->regsPerBlock || assumed > p->regsPerBlock)
        return 0;
    if (regs_warp > 0) {
        int warps_sub = p->regsPerMultiprocessor / SUB_PARTITIONS / regs_warp;
        lim = imin(lim, warps_sub * SUB_PARTITIONS / wpb);
    }
    if (r->barriers > 0)
        lim = imin(lim, p->maxBlocksPerMultiProcessor * 2 / r->barriers);
    return lim;
}

/* Per-block shared-memory limit (with the driver's reserve) for the kernel's opt-in. */
static size_t smem_block_limit(const struct cudaDeviceProp *p, const rt_func_res *r,
                               const rt_fattr *a)
{
    size_t lim = r->shared_static + (size_t)a->max_dyn_smem > p->sharedMemPerBlock ?
                 p->sharedMemPerBlockOptin : p->sharedMemPerBlock;
    return lim + p->reservedSharedMemPerBlock;
}

int rt_occ_blocks_per_sm(const struct cudaDeviceProp *p, const rt_func_res *r,
                         const rt_fattr *a, int block, size_t dyn)
{
    int lim = occ_non_smem(p, r, block);
    if (!lim) return 0;
    if (dyn > (size_t)a->max_dyn_smem) return 0;
    size_t alloc = align_up(r->shared_static + p->reservedSharedMemPerBlock + dyn, SMEM_GRANULE);
    if (alloc > smem_block_limit(p, r, a)) return 0;
    size_t pref = smem_preference(p, a);
    size_t per_sm = pref >= alloc ? pref : carveout_align(p, alloc);
    if (alloc) lim = imin(lim, (int)(per_sm / alloc));
    return lim;
}

size_t rt_occ_avail_dyn_smem(const struct cudaDeviceProp *p, const rt_func_res *r,
                             const rt_fattr *a, int nblocks, int block)
{
    if (nblocks <= 0 || occ_non_smem(p, r, block) < nblocks) return 0;
    size_t pref = smem_preference(p, a);
    size_t per_block = pref / (size_t)nblocks / SMEM_GRANULE * SMEM_GRANULE;
    size_t lim = p->sharedMemPerBlockOptin + p->reservedSharedMemPerBlock;
    if (per_block > lim) per_block = lim;
    size_t fixed = r->shared_static + p->reservedSharedMemPerBlock;
    return per_block > fixed ? per_block - fixed : 0;
}


int rt_kernel_occupancy(const rt_kernel *k, int block, size_t dyn)
{
    rt_func_res r;
    rt_fattr a;
    rt_kernel_fattr(k, &r, &a);
    return rt_occ_blocks_per_sm(rt_dev_props(), &r, &a, block, dyn);
}

/* As occ_non_smem's register test: each warp gets its registers in units of 256, and a
 * block's warps are spread over the SM's 4 sub-partitions, each with a quarter of the file. */
int rt_kernel_block_fits(const rt_kernel *k, int block)
{
    const struct cudaDeviceProp *p = rt_dev_props();
    int wpb = (block + p->warpSize - 1) / p->warpSize;
    size_t regs_warp = align_up((size_t)k->regs * (size_t)p->warpSize, REG_GRANULE);
    return k->regs <= MAX_REGS_THREAD &&
           regs_warp * align_up((size_t)wpb, SUB_PARTITIONS) <= (size_t)p->regsPerBlock;
}

size_t rt_kernel_avail_dyn_smem(const rt_kernel *k, int nblocks, int block)
{
    rt_func_res r;
    rt_fattr a;
    rt_kernel_fattr(k, &r, &a);
    return rt_occ_avail_dyn_smem(rt_dev_props(), &r, &a, nblocks, block);
}
