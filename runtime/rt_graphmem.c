/* rt_graphmem.c - graph memory nodes: reservations with fixed addresses, their liveness per
 * launch, alloc/free node API, graph memory attributes and trim. */
#include <stdlib.h>
#include <string.h>
#include "rt_graph.h"

struct rt_gmem {
    void *ptr;                      /* the reservation: an RT_MEM_ASYNC allocation owned by us */
    uint64_t size;
    struct cudaMemPoolProps props;
    struct cudaMemAccessDesc *descs;
    size_t ndescs;
    int refs;                       /* nodes and executable graphs that name it */
    int execs;                      /* executable graphs holding its alloc node */
    int live;                       /* allocated by a launch, not freed yet */
    struct rt_gmem *next;
};

static rt_gmem *g_gmems;
static uint64_t g_used, g_used_high, g_reserved, g_reserved_high;

rt_gmem *rt_gmem_new(uint64_t size, const struct cudaMemPoolProps *props,
                     const struct cudaMemAccessDesc *descs, size_t ndescs, cudaError_t *err)
{
    *err = cudaErrorInvalidValue;
    if (!size || (ndescs && !descs)) return NULL;
    if (props && (props->allocType != cudaMemAllocationTypePinned ||
                  props->location.type != cudaMemLocationTypeDevice))
        return NULL;
    if (props && props->location.id != 0) {
        *err = cudaErrorInvalidDevice;
        return NULL;
    }
    for (size_t i = 0; i < ndescs; i++)
        if (descs[i].location.type != cudaMemLocationTypeDevice || descs[i].location.id != 0) {
            *err = cudaErrorInvalidDevice;
            return NULL;
        }
    *err = cudaErrorMemoryAllocation;
    rt_gmem *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    if (ndescs && !(m->descs = malloc(ndescs * sizeof *descs))) {
        free(m);
        return NULL;
    }
    if (ndescs) memcpy(m->descs, descs, ndescs * sizeof *descs);
    m->ndescs = ndescs;
    if (props) m->props = *props;
    else {
        m->props.allocType = cudaMemAllocationTypePinned;
        m->props.location.type = cudaMemLocationTypeDevice;
    }
    if ((*err = rt_alloc_new(RT_MEM_ASYNC, size, 0, "cudaGraphMemAlloc", &m->ptr)) !=
        cudaSuccess) {
        free(m->descs);
        free(m);
        return NULL;
    }
    ((rt_alloc *)rt_alloc_find(m->ptr, 0))->owner = m;
    m->size = size;
    m->refs = 1;
    m->next = g_gmems;
    g_gmems = m;
    g_reserved += size;
    if (g_reserved > g_reserved_high) g_reserved_high = g_reserved;
    return m;
}

static void gmem_destroy(rt_gmem *m)
{
    rt_gmem **pp = &g_gmems;
    while (*pp != m) pp = &(*pp)->next;
    *pp = m->next;
    const rt_alloc *a = rt_alloc_find(m->ptr, 0);
    if (a && a->owner == m) rt_alloc_free(m->ptr, 1u << RT_MEM_ASYNC);
    g_reserved -= m->size;
    free(m->descs);
    free(m);
}

void rt_gmem_ref(rt_gmem *m) { m->refs++; }

void rt_gmem_unref(rt_gmem *m)
{
    if (--m->refs == 0 && !m->live) gmem_destroy(m);
}

rt_gmem *rt_gmem_find(const void *p)
{
    for (rt_gmem *m = g_gmems; m; m = m->next)
        if (m->ptr == p) return m;
    return NULL;
}

void *rt_gmem_ptr(const rt_gmem *m) { return m->ptr; }

void rt_gmem_node_op(cudaGraphNode_t n, rt_gmem *m, int alloc)
{
    memset(&n->op, 0, sizeof n->op);
    n->op.kind = alloc ? RT_OP_MEM_ALLOC : RT_OP_MEM_FREE;
    n->op.u.mem.addr = (uint64_t)(uintptr_t)m->ptr;
    n->op.u.mem.size = m->size;
    n->op.u.mem.graph = m;
    n->has_op = 1;
    n->gmem = m;
    rt_gmem_ref(m);
}

cudaError_t rt_gmem_exec_add(rt_gmem *m)
{
    if (m->execs) return cudaErrorInvalidValue;   /* one executable graph at a time */
    m->execs++;
    return cudaSuccess;
}

void rt_gmem_exec_drop(rt_gmem *m) { m->execs--; }

/* A launch may not allocate memory its previous launch left live, unless it frees it first
 * (cudaGraphInstantiateFlagAutoFreeOnLaunch). */
cudaError_t rt_gmem_prelaunch(rt_gmem *m, int autofree)
{
    if (!m->live) return cudaSuccess;
    if (!autofree) return cudaErrorInvalidValue;
    return rt_gmem_free(m);
}

cudaError_t rt_gmem_free(rt_gmem *m)
{
    if (!m->live) return cudaErrorInvalidValue;   /* not allocated, or freed already */
    m->live = 0;
    g_used -= m->size;
    if (!m->refs) gmem_destroy(m);
    return cudaSuccess;
}

/* A launch's alloc or free op. */
cudaError_t rt_gmem_run(const rt_op *op)
{
    rt_gmem *m = op->u.mem.graph;
    if (op->kind == RT_OP_MEM_FREE) return rt_gmem_free(m);
    if (m->live) return cudaErrorInvalidValue;
    m->live = 1;
    g_used += m->size;
    if (g_used > g_used_high) g_used_high = g_used;
    return cudaSuccess;
}

/* ---- API --------------------------------------------------------------------------------- */
cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
                                           struct cudaMemAllocNodeParams *params_out)
{
    RT_BEGIN();
    if (!rt_graph_node_ok(node) || node->type != cudaGraphNodeTypeMemAlloc || !params_out)
        return RT_END(cudaErrorInvalidValue);
    const rt_gmem *m = node->gmem;
    memset(params_out, 0, sizeof *params_out);
    params_out->poolProps = m->props;
    params_out->accessDescs = m->descs;
    params_out->accessDescCount = m->ndescs;
    params_out->bytesize = m->size;
    params_out->dptr = m->ptr;
    return RT_END(cudaSuccess);
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out)
{
    RT_BEGIN();
    if (!rt_graph_node_ok(node) || node->type != cudaGraphNodeTypeMemFree || !dptr_out)
        return RT_END(cudaErrorInvalidValue);
    *(void **)dptr_out = node->gmem->ptr;
    return RT_END(cudaSuccess);
}

/* Memory no graph refers to is released at once, so there is nothing cached to trim. */
cudaError_t cudaDeviceGraphMemTrim(int device)
{
    RT_BEGIN();
    return RT_END(device == 0 ? cudaSuccess : cudaErrorInvalidDevice);
}

/* Used: bytes of live graph allocations; reserved: bytes reserved by memory nodes. */
cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr,
                                           void *value)
{
    RT_BEGIN();
    if (device != 0) return RT_END(cudaErrorInvalidDevice);
    if (!value) return RT_END(cudaErrorInvalidValue);
    uint64_t v;
    switch (attr) {
    case cudaGraphMemAttrUsedMemCurrent: v = g_used; break;
    case cudaGraphMemAttrUsedMemHigh: v = g_used_high; break;
    case cudaGraphMemAttrReservedMemCurrent: v = g_reserved; break;
    case cudaGraphMemAttrReservedMemHigh: v = g_reserved_high; break;
    default: return RT_END(cudaErrorInvalidValue);
    }
    memcpy(value, &v, sizeof v);
    return RT_END(cudaSuccess);
}

/* Only the high watermarks may be set, and only to 0 (reset to the current value). */
cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr,
                                           void *value)
{
    RT_BEGIN();
    if (device != 0) return RT_END(cudaErrorInvalidDevice);
    uint64_t v;
    if (!value) return RT_END(cudaErrorInvalidValue);
    memcpy(&v, value, sizeof v);
    if (v) return RT_END(cudaErrorInvalidValue);
    if (attr == cudaGraphMemAttrUsedMemHigh) g_used_high = g_used;
    else if (attr == cudaGraphMemAttrReservedMemHigh) g_reserved_high = g_reserved;
    else return RT_END(cudaErrorInvalidValue);
    return RT_END(cudaSuccess);
}
