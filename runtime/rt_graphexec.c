/* rt_graphexec.c - executable CUDA graphs: instantiation in a deterministic topological order,
 * launch through rt_submit, node updates and enabling, whole-graph updates. */
#include <stdlib.h>
#include <string.h>
#include "rt_graph.h"

/* ---- instantiation: topological order ---------------------------------------------------------
 * Kahn's algorithm; among the nodes whose dependencies are done, the one created first runs
 * first, so the order is deterministic (a captured graph runs in capture order). */
/* A graph memory node's op (the executable graph holds a reference to its allocation). */
static rt_gmem *gx_mem(const rt_op *op)
{
    return op->kind == RT_OP_MEM_ALLOC || op->kind == RT_OP_MEM_FREE ? op->u.mem.graph : NULL;
}

static int gx_push(cudaGraphExec_t x, const rt_op *op, cudaGraphNode_t src)
{
    if (x->n == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 16;
        rt_op *o = realloc(x->ops, cap * sizeof *o);
        if (!o) return -1;
        x->ops = o;
        cudaGraphNode_t *s = realloc(x->src, cap * sizeof *s);
        if (!s) return -1;
        x->src = s;
        unsigned char *off = realloc(x->off, cap);
        if (!off) return -1;
        x->off = off;
        x->cap = cap;
    }
    if (rt_op_clone(&x->ops[x->n], op)) return -1;
    if (gx_mem(op)) rt_gmem_ref(op->u.mem.graph);
    x->off[x->n] = 0;
    x->src[x->n++] = src;
    return 0;
}

cudaGraphNode_t *rt_graph_order(cudaGraph_t g, size_t *count, cudaError_t *err)
{
    size_t n = g->n;
    *count = n;
    cudaGraphNode_t *out = malloc((n + 1) * sizeof *out);
    size_t *indeg = calloc(n + 1, sizeof *indeg);
    unsigned char *done = calloc(n + 1, 1);
    *err = cudaErrorMemoryAllocation;
    if (!out || !indeg || !done) goto fail;
    for (size_t i = 0; i < n; i++) indeg[i] = g->nodes[i]->ndeps;
    /* g->nodes is in creation order (nodes are appended), the tie-break */
    for (size_t k = 0; k < n; k++) {
        size_t pick = n;
        for (size_t i = 0; i < n; i++)
            if (!done[i] && !indeg[i]) { pick = i; break; }
        if (pick == n) {
            *err = cudaErrorInvalidValue;     /* a cycle */
            goto fail;
        }
        done[pick] = 1;
        out[k] = g->nodes[pick];
        for (size_t i = 0; i < n; i++)
            for (size_t d = 0; d < g->nodes[i]->ndeps; d++)
                if (g->nodes[i]->deps[d] == out[k]) indeg[i]--;
    }
    free(indeg), free(done);
    *err = cudaSuccess;
    return out;
fail:
    free(out), free(indeg), free(done);
    return NULL;
}

static cudaError_t gx_fill(cudaGraphExec_t x, cudaGraph_t g, int depth)
{
    if (depth > 64) return cudaErrorInvalidValue;
    cudaError_t e;
    size_t n;
    cudaGraphNode_t *order = rt_graph_order(g, &n, &e);
    if (!order) return e;
    for (size_t i = 0; i < g->n && e == cudaSuccess; i++) {
        cudaGraphNode_t nd = order[i];
        if (nd->child) e = gx_fill(x, nd->child, depth + 1);
        else if (nd->has_op) {
            int alloc = nd->op.kind == RT_OP_MEM_ALLOC && gx_mem(&nd->op);
            if (alloc && (e = rt_gmem_exec_add(nd->gmem)) != cudaSuccess) break;
            if (gx_push(x, &nd->op, nd)) {      /* an alloc op's count is undone by gx_free */
                if (alloc) rt_gmem_exec_drop(nd->gmem);
                e = cudaErrorMemoryAllocation;
            }
        }
    }
    free(order);
    return e;
}

static void gx_free(cudaGraphExec_t x)
{
    for (size_t i = 0; i < x->n; i++) {
        rt_gmem *m = gx_mem(&x->ops[i]);
        if (m && x->ops[i].kind == RT_OP_MEM_ALLOC) rt_gmem_exec_drop(m);
        if (m) rt_gmem_unref(m);
        rt_op_release(&x->ops[i]);
    }
    free(x->ops);
    free(x->src);
    free(x->off);
    x->magic = 0;
    free(x);
}

static cudaError_t instantiate(cudaGraphExec_t *out, cudaGraph_t graph, unsigned long long flags)
{
    if (!out || !rt_graph_ok(graph)) return cudaErrorInvalidValue;
    if (flags & cudaGraphInstantiateFlagDeviceLaunch) return cudaErrorNotSupported;
    cudaGraphExec_t x = calloc(1, sizeof *x);
    if (!x) return cudaErrorMemoryAllocation;
    x->magic = EXEC_MAGIC;
    x->flags = flags;
    cudaError_t e = gx_fill(x, graph, 0);
    if (e != cudaSuccess) {
        gx_free(x);
        return e;
    }
    *out = x;
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                 unsigned long long flags)
{
    RT_BEGIN();
    return RT_END(instantiate(pGraphExec, graph, flags));
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags)
{
    RT_BEGIN();
    return RT_END(instantiate(pGraphExec, graph, flags));
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
    RT_BEGIN();
    if (!graphExec || graphExec->magic != EXEC_MAGIC) return RT_END(cudaErrorInvalidValue);
    gx_free(graphExec);
    return RT_END(cudaSuccess);
}

static cudaError_t graph_launch(cudaGraphExec_t x, cudaStream_t stream, int ptds)
{
    if (!x || x->magic != EXEC_MAGIC) return cudaErrorInvalidValue;
    if (!rt_stream_get(stream, ptds)) return cudaErrorInvalidResourceHandle;
    for (size_t i = 0; i < x->n; i++)
        if (x->ops[i].kind == RT_OP_MEM_ALLOC && gx_mem(&x->ops[i])) {
            cudaError_t e = rt_gmem_prelaunch(x->ops[i].u.mem.graph,
                                              (x->flags & cudaGraphInstantiateFlagAutoFreeOnLaunch) != 0);
            if (e != cudaSuccess) return e;
        }
    for (size_t i = 0; i < x->n; i++) {
        cudaError_t e = x->off[i] ? cudaSuccess : rt_submit(stream, ptds, &x->ops[i]);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_BEGIN_CTX();
    return RT_END(graph_launch(graphExec, stream, 0));
}

cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_BEGIN_CTX();
    return RT_END(graph_launch(graphExec, stream, 1));
}

cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_BEGIN();
    if (!graphExec || graphExec->magic != EXEC_MAGIC) return RT_END(cudaErrorInvalidValue);
    return RT_END(rt_stream_get(stream, 0) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

/* Replace the ops that came from `node` in x by the node's new op. */
static cudaError_t gx_replace(cudaGraphExec_t x, cudaGraphNode_t node, const rt_op *op)
{
    int found = 0;
    for (size_t i = 0; i < x->n; i++)
        if (x->src[i] == node) {
            rt_op c;
            if (rt_op_clone(&c, op)) return cudaErrorMemoryAllocation;
            rt_op_release(&x->ops[i]);
            x->ops[i] = c;
            found = 1;
        }
    return found ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t rt_graphexec_replace(cudaGraphExec_t x, cudaGraphNode_t node, const rt_op *op)
{
    if (!x || x->magic != EXEC_MAGIC || !rt_graph_node_ok(node)) return cudaErrorInvalidValue;
    return gx_replace(x, node, op);
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *pNodeParams)
{
    RT_BEGIN();
    if (!hGraphExec || hGraphExec->magic != EXEC_MAGIC || !rt_graph_node_ok(node) ||
        node->type != cudaGraphNodeTypeKernel)
        return RT_END(cudaErrorInvalidValue);
    struct CUgraphNode_st tmp;
    memset(&tmp, 0, sizeof tmp);
    cudaError_t e = rt_graph_node_kernel(&tmp, pNodeParams);
    if (e == cudaSuccess) {
        e = gx_replace(hGraphExec, node, &tmp.op);
        rt_op_release(&tmp.op);
        free(tmp.argv);
    }
    return RT_END(e);
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemsetParams *pNodeParams)
{
    RT_BEGIN();
    rt_op op;
    if (!hGraphExec || hGraphExec->magic != EXEC_MAGIC || !rt_graph_node_ok(node) ||
        node->type != cudaGraphNodeTypeMemset)
        return RT_END(cudaErrorInvalidValue);
    cudaError_t e = rt_graph_memset_op(&op, pNodeParams);
    return RT_END(e == cudaSuccess ? gx_replace(hGraphExec, node, &op) : e);
}

cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                               void *dst, const void *src, size_t count,
                                               enum cudaMemcpyKind kind)
{
    RT_BEGIN();
    rt_op op;
    if (!hGraphExec || hGraphExec->magic != EXEC_MAGIC || !rt_graph_node_ok(node) ||
        node->type != cudaGraphNodeTypeMemcpy || !dst || !src)
        return RT_END(cudaErrorInvalidValue);
    rt_graph_copy1d_op(&op, dst, src, count, kind);
    return RT_END(gx_replace(hGraphExec, node, &op));
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                           const struct cudaHostNodeParams *pNodeParams)
{
    RT_BEGIN();
    if (!hGraphExec || hGraphExec->magic != EXEC_MAGIC || !rt_graph_node_ok(node) ||
        node->type != cudaGraphNodeTypeHost || !pNodeParams || !pNodeParams->fn)
        return RT_END(cudaErrorInvalidValue);
    rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = RT_OP_HOST_FN;
    op.u.host.fn = pNodeParams->fn;
    op.u.host.user = pNodeParams->userData;
    return RT_END(gx_replace(hGraphExec, node, &op));
}

/* Whole-graph update: the graph must have the executable's topology (same node count, types
 * and dependencies in creation order, no child graphs); then every op is replaced in place. */
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo *resultInfo)
{
    RT_BEGIN();
    cudaGraphExec_t x = hGraphExec;
    if (!x || x->magic != EXEC_MAGIC || !rt_graph_ok(hGraph)) return RT_END(cudaErrorInvalidValue);
    cudaGraphExecUpdateResultInfo info = { cudaGraphExecUpdateSuccess, NULL, NULL };
    cudaGraphExec_t fresh = NULL;
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; i < x->n; i++)
        if (gx_mem(&x->ops[i])) e = cudaErrorGraphExecUpdateFailure;
    if (e != cudaSuccess) {
        info.result = cudaGraphExecUpdateErrorNotSupported;   /* graphs with memory nodes */
    } else if ((e = instantiate(&fresh, hGraph, 0)) != cudaSuccess) {
        info.result = cudaGraphExecUpdateError;
    } else if (fresh->n != x->n) {
        info.result = cudaGraphExecUpdateErrorTopologyChanged;
    } else {
        for (size_t i = 0; i < x->n && info.result == cudaGraphExecUpdateSuccess; i++) {
            cudaGraphNode_t a = x->src[i], b = fresh->src[i];
            if (a->type != b->type || x->ops[i].kind != fresh->ops[i].kind) {
                info.result = cudaGraphExecUpdateErrorNodeTypeChanged;
                info.errorNode = b;
            } else if (a->ndeps != b->ndeps || a->g->n != b->g->n) {
                info.result = cudaGraphExecUpdateErrorTopologyChanged;
                info.errorNode = b;
            }
        }
    }
    if (info.result == cudaGraphExecUpdateSuccess) {
        for (size_t i = 0; i < x->n; i++) {     /* swap the ops, keep the original nodes */
            rt_op t = x->ops[i];
            x->ops[i] = fresh->ops[i];
            fresh->ops[i] = t;
        }
    } else {
        e = cudaErrorGraphExecUpdateFailure;
    }
    if (fresh) gx_free(fresh);
    if (resultInfo) *resultInfo = info;
    return RT_END(e);
}

cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags)
{
    RT_BEGIN();
    if (!graphExec || graphExec->magic != EXEC_MAGIC || !flags)
        return RT_END(cudaErrorInvalidValue);
    *flags = graphExec->flags;
    return RT_END(cudaSuccess);
}

/* Disabled nodes of an executable graph are skipped at launch (kernel, memcpy, memset). */
static cudaError_t gx_enable(cudaGraphExec_t x, cudaGraphNode_t node, unsigned *get, int set)
{
    if (!x || x->magic != EXEC_MAGIC || !rt_graph_node_ok(node)) return cudaErrorInvalidValue;
    if (node->type != cudaGraphNodeTypeKernel && node->type != cudaGraphNodeTypeMemcpy &&
        node->type != cudaGraphNodeTypeMemset)
        return cudaErrorInvalidValue;
    int found = 0;
    for (size_t i = 0; i < x->n; i++)
        if (x->src[i] == node) {
            if (get) *get = !x->off[i];
            else x->off[i] = !set;
            found = 1;
        }
    return found ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                    unsigned int isEnabled)
{
    RT_BEGIN();
    return RT_END(gx_enable(hGraphExec, hNode, NULL, isEnabled != 0));
}

cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                    unsigned int *isEnabled)
{
    RT_BEGIN();
    if (!isEnabled) return RT_END(cudaErrorInvalidValue);
    return RT_END(gx_enable(hGraphExec, hNode, isEnabled, 0));
}
