/* rt_pool.c - stream-ordered allocation (cudaMallocAsync/cudaFreeAsync) and memory pools. */
#include <stdlib.h>
#include <string.h>
#include "rt_graph.h"

/* A pool only keeps statistics and attributes: allocations are ordinary ones of kind
 * RT_MEM_ASYNC whose owner is the pool (memory goes back to the host at once on free, which a
 * release threshold may not forbid). */
typedef struct CUmemPoolHandle_st {
    uint32_t magic;
    struct cudaMemPoolProps props;
    uint64_t threshold, used, used_high;
    int reuse[3];
    struct CUmemPoolHandle_st *next;
} rt_mempool;
#define RT_POOL_MAGIC 0x504f4f4cu

static rt_mempool rt_default_pool = { RT_POOL_MAGIC, { .allocType = cudaMemAllocationTypePinned,
    .location = { cudaMemLocationTypeDevice, 0 } }, 0, 0, 0, { 1, 1, 1 }, NULL };
static rt_mempool *rt_cur_pool = &rt_default_pool;
static rt_mempool *rt_pools;

static rt_mempool *rt_pool_get(cudaMemPool_t p)
{
    if (p == &rt_default_pool)
        return p;
    for (rt_mempool *q = rt_pools; q; q = q->next)
        if (q == p)
            return q;
    return NULL;
}

cudaError_t rt_mem_op_run(const rt_op *op)
{
    if (op->u.mem.graph)
        return rt_gmem_run(op);                 /* a graph memory node's launch */
    if (op->kind == RT_OP_MEM_ALLOC) {
        rt_mempool *pool = rt_pool_get(op->u.mem.pool);
        if (!pool || !op->u.mem.out)
            return cudaErrorInvalidValue;
        *op->u.mem.out = NULL;
        if (!op->u.mem.size)
            return cudaSuccess;
        void *p;
        cudaError_t e = rt_alloc_new(RT_MEM_ASYNC, op->u.mem.size, 0, "cudaMallocAsync", &p);
        if (e != cudaSuccess)
            return e;
        ((rt_alloc *)rt_alloc_find(p, 0))->owner = pool;
        pool->used += op->u.mem.size;
        if (pool->used > pool->used_high)
            pool->used_high = pool->used;
        *op->u.mem.out = p;
        return cudaSuccess;
    }
    void *p = (void *)(uintptr_t)op->u.mem.addr;
    if (!p)
        return cudaSuccess;
    rt_gmem *gm = rt_gmem_find(p);
    if (gm)
        return rt_gmem_free(gm);                /* memory a graph allocated */
    const rt_alloc *a = rt_alloc_find(p, 0);
    if (!a || a->base != op->u.mem.addr ||
        (a->kind != RT_MEM_ASYNC && a->kind != RT_MEM_DEVICE))
        return cudaErrorInvalidValue;
    rt_mempool *pool = a->kind == RT_MEM_ASYNC ? a->owner : NULL;
    uint64_t size = a->size;
    cudaError_t e = rt_alloc_free(p, 1u << RT_MEM_ASYNC | 1u << RT_MEM_DEVICE);
    if (e == cudaSuccess && pool && rt_pool_get(pool))
        pool->used -= size < pool->used ? size : pool->used;
    return e;
}

static cudaError_t rt_malloc_async(void **p, size_t size, cudaMemPool_t pool, cudaStream_t st,
                                   int ptds)
{
    if (!p || !rt_pool_get(pool))               /* checked here too: a capture runs nothing */
        return cudaErrorInvalidValue;
    rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = RT_OP_MEM_ALLOC;
    op.u.mem.size = size;
    op.u.mem.pool = pool;
    op.u.mem.out = p;
    return rt_submit(st, ptds, &op);
}

static cudaError_t rt_free_async(void *p, cudaStream_t st, int ptds)
{
    rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = RT_OP_MEM_FREE;
    op.u.mem.addr = (uint64_t)(uintptr_t)p;
    return rt_submit(st, ptds, &op);
}

RT_ENTRY_CTX(cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream),
             rt_malloc_async(devPtr, size, rt_cur_pool, hStream, 0))

RT_ENTRY_CTX(cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream),
             rt_malloc_async(devPtr, size, rt_cur_pool, hStream, 1))

RT_ENTRY_CTX(cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                                 cudaStream_t stream),
             rt_malloc_async(ptr, size, memPool, stream, 0))

RT_ENTRY_CTX(cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size,
                                                      cudaMemPool_t memPool, cudaStream_t stream),
             rt_malloc_async(ptr, size, memPool, stream, 1))

RT_ENTRY_CTX(cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream),
             rt_free_async(devPtr, hStream, 0))

RT_ENTRY_CTX(cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream),
             rt_free_async(devPtr, hStream, 1))

/* The default pool (dflt) or the device's current one, for device 0. */
static cudaError_t pool_of_device(cudaMemPool_t *memPool, int device, int dflt)
{
    RT_BEGIN();
    if (!memPool)
        return RT_END(cudaErrorInvalidValue);
    if (device != 0)
        return RT_END(cudaErrorInvalidDevice);
    *memPool = dflt ? &rt_default_pool : rt_cur_pool;
    return RT_END(cudaSuccess);
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
    return pool_of_device(memPool, device, 1);
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
    return pool_of_device(memPool, device, 0);
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
    RT_BEGIN();
    if (device != 0)
        return RT_END(cudaErrorInvalidDevice);
    rt_mempool *p = rt_pool_get(memPool);
    if (!p)
        return RT_END(cudaErrorInvalidValue);
    rt_cur_pool = p;
    return RT_END(cudaSuccess);
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *props)
{
    RT_BEGIN();
    if (!memPool || !props || props->allocType != cudaMemAllocationTypePinned ||
        props->location.type != cudaMemLocationTypeDevice || props->location.id != 0)
        return RT_END(cudaErrorInvalidValue);
    rt_mempool *p = calloc(1, sizeof *p);
    if (!p)
        return RT_END(cudaErrorMemoryAllocation);
    p->magic = RT_POOL_MAGIC;
    p->props = *props;
    p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
    p->next = rt_pools;
    rt_pools = p;
    *memPool = p;
    return RT_END(cudaSuccess);
}

static int rt_pool_drop(const rt_alloc *a, void *ctx)
{
    if (a->kind == RT_MEM_ASYNC && a->owner == ctx)
        ((rt_alloc *)a)->owner = NULL;
    return 0;
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool)
{
    RT_BEGIN();
    rt_mempool **pp = &rt_pools;
    while (*pp && *pp != memPool)
        pp = &(*pp)->next;
    if (!*pp)
        return RT_END(cudaErrorInvalidValue);
    rt_mempool *p = *pp;
    *pp = p->next;
    rt_alloc_each(rt_pool_drop, p);
    if (rt_cur_pool == p)
        rt_cur_pool = &rt_default_pool;
    free(p);
    return RT_END(cudaSuccess);
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
    RT_BEGIN();
    (void)minBytesToKeep;   /* freed memory is never kept */
    return RT_END(rt_pool_get(memPool) ? cudaSuccess : cudaErrorInvalidValue);
}

/* Pool attributes: the reuse flags and release threshold are kept (freed memory is never kept,
 * so they change nothing); the used/reserved figures are the pool's live bytes; writing a
 * high-water mark may only reset it (to 0). */
static cudaError_t rt_pool_attr(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value,
                                int set)
{
    rt_mempool *p = rt_pool_get(memPool);
    if (!p || !value)
        return cudaErrorInvalidValue;
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
        if (set)
            p->reuse[attr - 1] = *(int *)value;
        else
            *(int *)value = p->reuse[attr - 1];
        return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
        if (set)
            p->threshold = *(uint64_t *)value;
        else
            *(uint64_t *)value = p->threshold;
        return cudaSuccess;
    case cudaMemPoolAttrReservedMemCurrent:
    case cudaMemPoolAttrUsedMemCurrent:
        if (set)
            return cudaErrorInvalidValue;
        *(uint64_t *)value = p->used;
        return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh:
        if (set && *(uint64_t *)value != 0)
            return cudaErrorInvalidValue;
        if (set)
            p->used_high = p->used;   /* resetting the high-water mark */
        else
            *(uint64_t *)value = p->used_high;
        return cudaSuccess;
    default:
        return cudaErrorInvalidValue;
    }
}

RT_ENTRY(cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
                                             void *value),
         rt_pool_attr(memPool, attr, value, 1))
RT_ENTRY(cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
                                             void *value),
         rt_pool_attr(memPool, attr, value, 0))

cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList,
                                 size_t count)
{
    RT_BEGIN();
    if (!rt_pool_get(memPool) || (count && !descList))
        return RT_END(cudaErrorInvalidValue);
    for (size_t i = 0; i < count; i++)
        if (descList[i].location.type != cudaMemLocationTypeDevice ||
            descList[i].location.id != 0)
            return RT_END(cudaErrorInvalidDevice);
    return RT_END(cudaSuccess);
}

cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                 struct cudaMemLocation *location)
{
    RT_BEGIN();
    if (!flags || !location || !rt_pool_get(memPool))
        return RT_END(cudaErrorInvalidValue);
    *flags = location->type == cudaMemLocationTypeDevice && location->id == 0
                 ? cudaMemAccessFlagsProtReadWrite
                 : cudaMemAccessFlagsProtNone;
    return RT_END(cudaSuccess);
}

/* CUDA 13's location-based pool queries: device 0's pinned pool is the only one. */
static cudaError_t rt_pool_where(const struct cudaMemLocation *loc, enum cudaMemAllocationType t)
{
    if (!loc || t != cudaMemAllocationTypePinned)
        return cudaErrorInvalidValue;
    if (loc->type != cudaMemLocationTypeDevice || loc->id != 0)
        return loc->type == cudaMemLocationTypeDevice ? cudaErrorInvalidDevice
                                                      : cudaErrorNotSupported;
    return cudaSuccess;
}

cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                     enum cudaMemAllocationType type)
{
    RT_BEGIN();
    cudaError_t e = memPool ? rt_pool_where(location, type) : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *memPool = &rt_default_pool;
    return RT_END(e);
}

cudaError_t cudaMemGetMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                              enum cudaMemAllocationType type)
{
    RT_BEGIN();
    cudaError_t e = memPool ? rt_pool_where(location, type) : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *memPool = rt_cur_pool;
    return RT_END(e);
}

cudaError_t cudaMemSetMemPool(struct cudaMemLocation *location, enum cudaMemAllocationType type,
                              cudaMemPool_t memPool)
{
    RT_BEGIN();
    cudaError_t e = rt_pool_where(location, type);
    if (e == cudaSuccess) {
        rt_mempool *p = rt_pool_get(memPool);
        if (p)
            rt_cur_pool = p;
        else
            e = cudaErrorInvalidValue;
    }
    return RT_END(e);
}
