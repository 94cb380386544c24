/* rt_graph.c - CUDA graphs: explicit nodes with dependencies, their parameters, clones, edges
 * (executable graphs: rt_graphexec.c; capture: rt_capture.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rt_graph.h"

static cudaGraph_t graph_ok(cudaGraph_t g) { return g && g->magic == GRAPH_MAGIC ? g : NULL; }
static int node_ok(cudaGraphNode_t n) { return n && n->magic == NODE_MAGIC; }

/* ---- nodes ------------------------------------------------------------------------------------ */
static int node_add_dep(cudaGraphNode_t n, cudaGraphNode_t d)
{
    for (size_t i = 0; i < n->ndeps; i++)
        if (n->deps[i] == d) return 0;
    if (n->ndeps == n->capdeps) {
        size_t cap = n->capdeps ? 2 * n->capdeps : 4;
        cudaGraphNode_t *nd = realloc(n->deps, cap * sizeof *nd);
        if (!nd) return -1;
        n->deps = nd;
        n->capdeps = cap;
    }
    n->deps[n->ndeps++] = d;
    return 0;
}

static void graph_free(cudaGraph_t g);
static cudaGraph_t graph_new(void);

static void node_free(cudaGraphNode_t n)
{
    if (n->has_op) rt_op_release(&n->op);
    if (n->child) graph_free(n->child);
    if (n->gmem) rt_gmem_unref(n->gmem);
    free(n->argv);
    free(n->deps);
    n->magic = 0;
    free(n);
}

static void graph_free(cudaGraph_t g)
{
    for (size_t i = 0; i < g->n; i++) node_free(g->nodes[i]);
    free(g->nodes);
    g->magic = 0;
    free(g);
}

cudaGraph_t rt_graph_new(void) { return graph_new(); }
int rt_graph_ok(cudaGraph_t g) { return graph_ok(g) != NULL; }
int rt_graph_node_ok(cudaGraphNode_t n) { return node_ok(n); }
void rt_graph_free(cudaGraph_t g) { graph_free(g); }

static cudaGraph_t graph_new(void)
{
    cudaGraph_t g = calloc(1, sizeof *g);
    if (g) g->magic = GRAPH_MAGIC;
    return g;
}

/* A new node of g depending on deps[0..ndeps) (all of g). NULL: *err says why. */
static cudaGraphNode_t node_new(cudaGraph_t g, enum cudaGraphNodeType type,
                                const cudaGraphNode_t *deps, size_t ndeps, cudaError_t *err)
{
    *err = cudaErrorInvalidValue;
    if (!graph_ok(g) || (ndeps && !deps)) return NULL;
    for (size_t i = 0; i < ndeps; i++)
        if (!node_ok(deps[i]) || deps[i]->g != g) return NULL;
    *err = cudaErrorMemoryAllocation;
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 16;
        cudaGraphNode_t *nn = realloc(g->nodes, cap * sizeof *nn);
        if (!nn) return NULL;
        g->nodes = nn;
        g->cap = cap;
    }
    cudaGraphNode_t n = calloc(1, sizeof *n);
    if (!n) return NULL;
    n->magic = NODE_MAGIC;
    n->g = g;
    n->type = type;
    for (size_t i = 0; i < ndeps; i++)
        if (node_add_dep(n, deps[i])) {
            node_free(n);
            return NULL;
        }
    g->nodes[g->n++] = n;
    *err = cudaSuccess;
    return n;
}

/* Remove the last node added to g (its creation failed half-way). */
static void node_drop_last(cudaGraph_t g)
{
    node_free(g->nodes[--g->n]);
}

cudaGraphNode_t rt_graph_node_new(cudaGraph_t g, enum cudaGraphNodeType type,
                                  const cudaGraphNode_t *deps, size_t ndeps, cudaError_t *err)
{
    return node_new(g, type, deps, ndeps, err);
}

void rt_graph_node_drop_last(cudaGraph_t g)
{
    node_drop_last(g);
}

/* Kernel op parameters from kernelParams or the `extra` buffer form; *buf malloc'd. */
cudaError_t rt_kernel_params(rt_kernel *k, void **args, void **extra, uint8_t **buf)
{
    uint8_t *b = calloc(1, (size_t)k->param_bytes + 1);
    if (!b) return cudaErrorMemoryAllocation;
    if (args || !extra) {
        rt_params_pack(k, args, b);
    } else {
        const void *ptr = NULL;
        size_t size = 0;
        int have_size = 0;
        for (int i = 0; extra[i] != (void *)0; i += 2) {
            if (extra[i] == (void *)1) ptr = extra[i + 1];
            else if (extra[i] == (void *)2 && extra[i + 1]) {
                size = *(const size_t *)extra[i + 1];
                have_size = 1;
            } else {
                free(b);
                return cudaErrorInvalidValue;
            }
        }
        if (!ptr || !have_size || size < k->param_bytes) {
            free(b);
            return cudaErrorInvalidValue;
        }
        memcpy(b, ptr, (size_t)k->param_bytes);
    }
    *buf = b;
    return cudaSuccess;
}

/* Fill a kernel node's op (and argv) from cudaKernelNodeParams. */
cudaError_t rt_graph_node_kernel(cudaGraphNode_t n, const struct cudaKernelNodeParams *p)
{
    if (!p) return cudaErrorInvalidValue;
    rt_kernel *k = p->func ? rt_kernel_by_stub(p->func) : NULL;
    if (!k) return cudaErrorInvalidDeviceFunction;
    return rt_graph_node_kernel_k(n, k, p->gridDim, p->blockDim, p->sharedMemBytes,
                                  p->kernelParams, p->extra);
}

cudaError_t rt_graph_node_kernel_k(cudaGraphNode_t n, rt_kernel *k, dim3 grid, dim3 block,
                                   unsigned shmem, void **kernelParams, void **extra)
{
    cudaError_t e = rt_kernel_ready(k);
    if (e != cudaSuccess) return e;
    uint8_t *buf;
    if ((e = rt_kernel_params(k, kernelParams, extra, &buf)) != cudaSuccess) return e;
    void **argv = calloc((size_t)k->nparams + 1, sizeof *argv);
    if (!argv) {
        free(buf);
        return cudaErrorMemoryAllocation;
    }
    for (int i = 0; i < k->nparams; i++) argv[i] = buf + k->param_off[i];
    if (n->has_op) rt_op_release(&n->op);
    free(n->argv);
    memset(&n->op, 0, sizeof n->op);
    n->op.kind = RT_OP_KERNEL;
    n->op.u.kernel.k = k;
    n->op.u.kernel.grid = grid;
    n->op.u.kernel.block = block;
    n->op.u.kernel.shmem = shmem;
    n->op.u.kernel.params = buf;
    n->op.u.kernel.nparams = k->param_bytes;
    n->op.u.kernel.params_owned = 1;
    n->argv = argv;
    n->has_op = 1;
    return cudaSuccess;
}

/* argv for a captured kernel op (its params were cloned). */
static void node_kernel_argv(cudaGraphNode_t n)
{
    const rt_kernel *k = n->op.u.kernel.k;
    n->argv = calloc((size_t)k->nparams + 1, sizeof *n->argv);
    if (n->argv)
        for (int i = 0; i < k->nparams; i++)
            n->argv[i] = (uint8_t *)n->op.u.kernel.params + k->param_off[i];
}

cudaError_t rt_graph_memset_op(rt_op *op, const struct cudaMemsetParams *p)
{
    if (!p || !p->dst || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) ||
        (p->height > 1 && p->pitch < p->width * p->elementSize))
        return cudaErrorInvalidValue;
    memset(op, 0, sizeof *op);
    op->kind = RT_OP_SET;
    op->u.set.dst = (uint64_t)(uintptr_t)p->dst;
    op->u.set.value = p->value;
    op->u.set.elem_size = p->elementSize;
    op->u.set.width = p->width;
    op->u.set.height = p->height ? p->height : 1;
    op->u.set.depth = 1;
    op->u.set.pitch = p->height > 1 ? p->pitch : p->width * p->elementSize;
    op->u.set.slice = op->u.set.pitch * op->u.set.height;
    return cudaSuccess;
}

void rt_graph_copy1d_op(rt_op *op, void *dst, const void *src, size_t count,
                        enum cudaMemcpyKind kind)
{
    rt_copy_fill(op, (uint64_t)(uintptr_t)dst, count, count, (uint64_t)(uintptr_t)src, count,
                 count, count, 1, 1, kind);
}

/* A node recording a captured op (rt_capture.c), depending on deps. */
cudaGraphNode_t rt_graph_capture_node(cudaGraph_t g, const rt_op *op, const cudaGraphNode_t *deps,
                                      size_t ndeps, cudaError_t *err)
{
    enum cudaGraphNodeType type;
    switch (op->kind) {
    case RT_OP_KERNEL: type = cudaGraphNodeTypeKernel; break;
    case RT_OP_COPY: type = cudaGraphNodeTypeMemcpy; break;
    case RT_OP_SET: type = cudaGraphNodeTypeMemset; break;
    case RT_OP_HOST_FN: type = cudaGraphNodeTypeHost; break;
    default:
        *err = cudaErrorStreamCaptureUnsupported;
        return NULL;
    }
    cudaGraphNode_t n = node_new(g, type, deps, ndeps, err);
    if (!n) return NULL;
    if (rt_op_clone(&n->op, op)) {
        node_drop_last(g);
        *err = cudaErrorMemoryAllocation;
        return NULL;
    }
    n->has_op = 1;
    if (op->kind == RT_OP_KERNEL) node_kernel_argv(n);
    return n;
}

/* Does g (or a child) hold a memory node, or free the allocation m? */
static int graph_has_mem(cudaGraph_t g, const rt_gmem *m)
{
    for (size_t i = 0; i < g->n; i++) {
        cudaGraphNode_t n = g->nodes[i];
        if (m ? n->type == cudaGraphNodeTypeMemFree && n->gmem == m : n->gmem != NULL) return 1;
        if (n->child && graph_has_mem(n->child, m)) return 1;
    }
    return 0;
}

/* A memory free node for dptr (a graph allocation not freed in g already). */
static cudaError_t node_set_free(cudaGraphNode_t n, void *dptr)
{
    rt_gmem *m = dptr ? rt_gmem_find(dptr) : NULL;
    if (!m || graph_has_mem(n->g, m)) return cudaErrorInvalidValue;
    rt_gmem_node_op(n, m, 0);
    return cudaSuccess;
}

static cudaError_t node_set_alloc(cudaGraphNode_t n, struct cudaMemAllocNodeParams *p)
{
    if (!p) return cudaErrorInvalidValue;
    cudaError_t e;
    rt_gmem *m = rt_gmem_new(p->bytesize, &p->poolProps, p->accessDescs, p->accessDescCount, &e);
    if (!m) return e;
    rt_gmem_node_op(n, m, 1);
    rt_gmem_unref(m);                       /* the node holds the reference */
    p->dptr = rt_gmem_ptr(m);
    return cudaSuccess;
}

/* Captured cudaMallocAsync (the caller gets the node's fixed address) or cudaFreeAsync. */
cudaGraphNode_t rt_graph_capture_mem(cudaGraph_t g, const rt_op *op, const cudaGraphNode_t *deps,
                                     size_t ndeps, cudaError_t *err)
{
    int alloc = op->kind == RT_OP_MEM_ALLOC;
    if (alloc && !op->u.mem.out) {
        *err = cudaErrorInvalidValue;
        return NULL;
    }
    cudaGraphNode_t n = node_new(g, alloc ? cudaGraphNodeTypeMemAlloc : cudaGraphNodeTypeMemFree,
                                 deps, ndeps, err);
    if (!n) return NULL;
    if (alloc) {
        struct cudaMemAllocNodeParams p;
        memset(&p, 0, sizeof p);
        p.poolProps.allocType = cudaMemAllocationTypePinned;
        p.poolProps.location.type = cudaMemLocationTypeDevice;
        p.bytesize = op->u.mem.size;
        *err = node_set_alloc(n, &p);
        if (*err == cudaSuccess) *op->u.mem.out = p.dptr;
    } else {
        *err = node_set_free(n, (void *)(uintptr_t)op->u.mem.addr);
        if (*err != cudaSuccess) *err = cudaErrorStreamCaptureUnsupported;
    }
    if (*err != cudaSuccess) {
        node_drop_last(g);
        return NULL;
    }
    return n;
}

/* ---- graph API -------------------------------------------------------------------------------- */
cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
    RT_BEGIN();
    cudaError_t e = cudaErrorInvalidValue;
    if (pGraph && !flags) {
        *pGraph = graph_new();
        e = *pGraph ? cudaSuccess : cudaErrorMemoryAllocation;
    }
    return RT_END(e);
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    RT_BEGIN();
    if (!graph_ok(graph)) return RT_END(cudaErrorInvalidValue);
    graph_free(graph);
    return RT_END(cudaSuccess);
}

/* The common tail of the cudaGraphAdd*Node functions. */
#define ADD_NODE(type, setup)                                                      \
    RT_BEGIN();                                                                    \
    cudaError_t e;                                                                 \
    if (!pGraphNode) return RT_END(cudaErrorInvalidValue);                         \
    cudaGraphNode_t n = node_new(graph, type, pDependencies, numDependencies, &e); \
    if (!n) return RT_END(e);                                                      \
    e = (setup);                                                                   \
    if (e != cudaSuccess) node_drop_last(graph);                                   \
    else *pGraphNode = n;                                                          \
    return RT_END(e)

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaKernelNodeParams *pNodeParams)
{
    ADD_NODE(cudaGraphNodeTypeKernel, rt_graph_node_kernel(n, pNodeParams));
}

static cudaError_t node_set_copy3d(cudaGraphNode_t n, const struct cudaMemcpy3DParms *p)
{
    rt_op op;
    cudaError_t e = rt_copy3d_op(p, &op);
    if (e == cudaSuccess) {
        n->op = op;
        n->has_op = 1;
    }
    return e;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemcpy3DParms *pCopyParams)
{
    ADD_NODE(cudaGraphNodeTypeMemcpy, node_set_copy3d(n, pCopyParams));
}

static cudaError_t node_set_copy1d(cudaGraphNode_t n, void *dst, const void *src, size_t count,
                                   enum cudaMemcpyKind kind)
{
    if (!dst || !src || (unsigned)kind > cudaMemcpyDefault) return cudaErrorInvalidValue;
    rt_graph_copy1d_op(&n->op, dst, src, count, kind);
    n->has_op = 1;
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                     void *dst, const void *src, size_t count,
                                     enum cudaMemcpyKind kind)
{
    ADD_NODE(cudaGraphNodeTypeMemcpy, node_set_copy1d(n, dst, src, count, kind));
}

static cudaError_t node_set_symcopy(cudaGraphNode_t n, const void *symbol, void *mem,
                                    size_t count, size_t offset, enum cudaMemcpyKind kind, int to)
{
    if (!mem) return cudaErrorInvalidValue;
    cudaError_t e = rt_symcopy_op(symbol, mem, count, offset, kind, to, &n->op);
    n->has_op = e == cudaSuccess && n->op.kind;
    return e;
}

cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t *pDependencies,
                                           size_t numDependencies, const void *symbol,
                                           const void *src, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind)
{
    ADD_NODE(cudaGraphNodeTypeMemcpy,
             node_set_symcopy(n, symbol, (void *)(uintptr_t)src, count, offset, kind, 1));
}

cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies,
                                             size_t numDependencies, void *dst,
                                             const void *symbol, size_t count, size_t offset,
                                             enum cudaMemcpyKind kind)
{
    ADD_NODE(cudaGraphNodeTypeMemcpy, node_set_symcopy(n, symbol, dst, count, offset, kind, 0));
}

static cudaError_t node_set_memset(cudaGraphNode_t n, const struct cudaMemsetParams *p)
{
    cudaError_t e = rt_graph_memset_op(&n->op, p);
    n->has_op = e == cudaSuccess;
    return e;
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemsetParams *pMemsetParams)
{
    ADD_NODE(cudaGraphNodeTypeMemset, node_set_memset(n, pMemsetParams));
}

static cudaError_t node_set_host(cudaGraphNode_t n, const struct cudaHostNodeParams *p)
{
    if (!p || !p->fn) return cudaErrorInvalidValue;
    memset(&n->op, 0, sizeof n->op);
    n->op.kind = RT_OP_HOST_FN;
    n->op.u.host.fn = p->fn;
    n->op.u.host.user = p->userData;
    n->has_op = 1;
    return cudaSuccess;
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                 const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                 const struct cudaHostNodeParams *pNodeParams)
{
    ADD_NODE(cudaGraphNodeTypeHost, node_set_host(n, pNodeParams));
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t *pDependencies, size_t numDependencies)
{
    ADD_NODE(cudaGraphNodeTypeEmpty, cudaSuccess);
}

static cudaError_t node_set_event(cudaGraphNode_t n, cudaEvent_t event, rt_op_kind kind)
{
    rt_event *ev = rt_event_get(event);
    if (!ev) return cudaErrorInvalidResourceHandle;
    memset(&n->op, 0, sizeof n->op);
    n->op.kind = kind;
    n->op.u.event.ev = ev;
    n->has_op = 1;
    return cudaSuccess;
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t *pDependencies,
                                        size_t numDependencies, cudaEvent_t event)
{
    ADD_NODE(cudaGraphNodeTypeEventRecord, node_set_event(n, event, RT_OP_EVENT_RECORD));
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                      const cudaGraphNode_t *pDependencies,
                                      size_t numDependencies, cudaEvent_t event)
{
    ADD_NODE(cudaGraphNodeTypeWaitEvent, node_set_event(n, event, RT_OP_EVENT_WAIT));
}

static cudaGraph_t graph_clone(cudaGraph_t g);

static cudaError_t node_set_child(cudaGraphNode_t n, cudaGraph_t child)
{
    /* a child graph may not hold memory nodes (as CUDA specifies) */
    if (!graph_ok(child) || graph_has_mem(child, NULL)) return cudaErrorInvalidValue;
    n->child = graph_clone(child);
    return n->child ? cudaSuccess : cudaErrorMemoryAllocation;
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies,
                                       size_t numDependencies, cudaGraph_t childGraph)
{
    ADD_NODE(cudaGraphNodeTypeGraph, node_set_child(n, childGraph));
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph)
{
    RT_BEGIN();
    if (!node_ok(node) || node->type != cudaGraphNodeTypeGraph || !pGraph)
        return RT_END(cudaErrorInvalidValue);
    *pGraph = node->child;
    return RT_END(cudaSuccess);
}

/* A deep copy of g (nodes in the same order, edges mapped). */
static cudaGraph_t graph_clone(cudaGraph_t g)
{
    cudaGraph_t c = graph_new();
    if (!c) return NULL;
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; i < g->n && e == cudaSuccess; i++) {
        cudaGraphNode_t s = g->nodes[i];
        cudaGraphNode_t n = node_new(c, s->type, NULL, 0, &e);
        if (!n) break;
        for (size_t d = 0; d < s->ndeps && e == cudaSuccess; d++) {
            size_t j = 0;
            while (g->nodes[j] != s->deps[d]) j++;
            if (node_add_dep(n, c->nodes[j])) e = cudaErrorMemoryAllocation;
        }
        if (s->has_op) {
            if (rt_op_clone(&n->op, &s->op)) e = cudaErrorMemoryAllocation;
            else {
                n->has_op = 1;
                if (n->op.kind == RT_OP_KERNEL) node_kernel_argv(n);
            }
        }
        if (s->child && !(n->child = graph_clone(s->child))) e = cudaErrorMemoryAllocation;
    }
    if (e != cudaSuccess) {
        graph_free(c);
        return NULL;
    }
    return c;
}

cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
    RT_BEGIN();
    if (!pGraphClone || !graph_ok(originalGraph)) return RT_END(cudaErrorInvalidValue);
    if (graph_has_mem(originalGraph, NULL)) return RT_END(cudaErrorNotSupported);  /* as CUDA */
    *pGraphClone = graph_clone(originalGraph);
    return RT_END(*pGraphClone ? cudaSuccess : cudaErrorMemoryAllocation);
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                     const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                     size_t numDependencies)
{
    RT_BEGIN();
    if (!graph_ok(graph) || (numDependencies && (!from || !to)))
        return RT_END(cudaErrorInvalidValue);
    for (size_t i = 0; i < numDependencies; i++) {
        if (edgeData && (edgeData[i].from_port || edgeData[i].to_port || edgeData[i].type))
            return RT_END(cudaErrorNotSupported);   /* programmatic edges */
        if (!node_ok(from[i]) || !node_ok(to[i]) || from[i]->g != graph || to[i]->g != graph ||
            from[i] == to[i])
            return RT_END(cudaErrorInvalidValue);
    }
    for (size_t i = 0; i < numDependencies; i++)
        if (node_add_dep(to[i], from[i])) return RT_END(cudaErrorMemoryAllocation);
    return RT_END(cudaSuccess);
}

cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                        const cudaGraphNode_t *to,
                                        const cudaGraphEdgeData *edgeData, size_t numDependencies)
{
    (void)edgeData;
    RT_BEGIN();
    if (!graph_ok(graph) || (numDependencies && (!from || !to)))
        return RT_END(cudaErrorInvalidValue);
    if (numDependencies && graph_has_mem(graph, NULL)) return RT_END(cudaErrorNotSupported);
    for (size_t i = 0; i < numDependencies; i++) {
        if (!node_ok(to[i]) || to[i]->g != graph) return RT_END(cudaErrorInvalidValue);
        size_t k = 0;
        while (k < to[i]->ndeps && to[i]->deps[k] != from[i]) k++;
        if (k == to[i]->ndeps) return RT_END(cudaErrorInvalidValue);
        to[i]->deps[k] = to[i]->deps[--to[i]->ndeps];
    }
    return RT_END(cudaSuccess);
}

cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node)
{
    RT_BEGIN();
    if (!node_ok(node)) return RT_END(cudaErrorInvalidValue);
    cudaGraph_t g = node->g;
    if (graph_has_mem(g, NULL)) return RT_END(cudaErrorNotSupported);  /* as CUDA specifies */
    size_t k = 0;
    for (size_t i = 0; i < g->n; i++) {
        cudaGraphNode_t n = g->nodes[i];
        if (n == node) continue;
        size_t m = 0;                       /* drop edges to the node */
        for (size_t d = 0; d < n->ndeps; d++)
            if (n->deps[d] != node) n->deps[m++] = n->deps[d];
        n->ndeps = m;
        g->nodes[k++] = n;
    }
    g->n = k;
    node_free(node);
    return RT_END(cudaSuccess);
}

/* Copy up to *count entries of list (n of them) to out; *count = n (out NULL: only count). */
static cudaError_t list_out(cudaGraphNode_t *list, size_t n, cudaGraphNode_t *out, size_t *count)
{
    if (!count) return cudaErrorInvalidValue;
    if (out) {
        for (size_t i = 0; i < *count; i++) out[i] = i < n ? list[i] : NULL;
        if (*count > n) *count = n;
    } else {
        *count = n;
    }
    return cudaSuccess;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes)
{
    RT_BEGIN();
    if (!graph_ok(graph)) return RT_END(cudaErrorInvalidValue);
    return RT_END(list_out(graph->nodes, graph->n, nodes, numNodes));
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes,
                                  size_t *pNumRootNodes)
{
    RT_BEGIN();
    if (!graph_ok(graph)) return RT_END(cudaErrorInvalidValue);
    cudaGraphNode_t *roots = malloc((graph->n + 1) * sizeof *roots);
    if (!roots) return RT_END(cudaErrorMemoryAllocation);
    size_t n = 0;
    for (size_t i = 0; i < graph->n; i++)
        if (!graph->nodes[i]->ndeps) roots[n++] = graph->nodes[i];
    cudaError_t e = list_out(roots, n, pRootNodes, pNumRootNodes);
    free(roots);
    return RT_END(e);
}

cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                              cudaGraphEdgeData *edgeData, size_t *numEdges)
{
    RT_BEGIN();
    if (!graph_ok(graph) || !numEdges || (!from) != (!to)) return RT_END(cudaErrorInvalidValue);
    size_t n = 0;
    for (size_t i = 0; i < graph->n; i++)
        for (size_t d = 0; d < graph->nodes[i]->ndeps; d++, n++)
            if (from && n < *numEdges) {
                from[n] = graph->nodes[i]->deps[d];
                to[n] = graph->nodes[i];
                if (edgeData) memset(&edgeData[n], 0, sizeof edgeData[n]);
            }
    if (from)
        for (size_t i = n; i < *numEdges; i++) from[i] = to[i] = NULL;
    if (!from || *numEdges > n) *numEdges = n;
    return RT_END(cudaSuccess);
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                         cudaGraphEdgeData *edgeData, size_t *pNumDependencies)
{
    RT_BEGIN();
    if (!node_ok(node)) return RT_END(cudaErrorInvalidValue);
    if (edgeData && pDependencies && pNumDependencies)
        memset(edgeData, 0, *pNumDependencies * sizeof *edgeData);
    return RT_END(list_out(node->deps, node->ndeps, pDependencies, pNumDependencies));
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                           cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes)
{
    RT_BEGIN();
    if (!node_ok(node)) return RT_END(cudaErrorInvalidValue);
    cudaGraph_t g = node->g;
    cudaGraphNode_t *outs = malloc((g->n + 1) * sizeof *outs);
    if (!outs) return RT_END(cudaErrorMemoryAllocation);
    size_t n = 0;
    for (size_t i = 0; i < g->n; i++)
        for (size_t d = 0; d < g->nodes[i]->ndeps; d++)
            if (g->nodes[i]->deps[d] == node) outs[n++] = g->nodes[i];
    if (edgeData && pDependentNodes && pNumDependentNodes)
        memset(edgeData, 0, *pNumDependentNodes * sizeof *edgeData);
    cudaError_t e = list_out(outs, n, pDependentNodes, pNumDependentNodes);
    free(outs);
    return RT_END(e);
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
    RT_BEGIN();
    if (!node_ok(node) || !pType) return RT_END(cudaErrorInvalidValue);
    *pType = node->type;
    return RT_END(cudaSuccess);
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *p)
{
    RT_BEGIN();
    if (!node_ok(node) || node->type != cudaGraphNodeTypeKernel || !p)
        return RT_END(cudaErrorInvalidValue);
    const rt_op *op = &node->op;
    memset(p, 0, sizeof *p);
    p->func = (void *)op->u.kernel.k->host_stub;
    p->gridDim = op->u.kernel.grid;
    p->blockDim = op->u.kernel.block;
    p->sharedMemBytes = op->u.kernel.shmem;
    p->kernelParams = node->argv;
    return RT_END(cudaSuccess);
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                         const struct cudaKernelNodeParams *p)
{
    RT_BEGIN();
    if (!node_ok(node) || node->type != cudaGraphNodeTypeKernel)
        return RT_END(cudaErrorInvalidValue);
    return RT_END(rt_graph_node_kernel(node, p));
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *p)
{
    RT_BEGIN();
    if (!node_ok(node) || node->type != cudaGraphNodeTypeMemset || !p)
        return RT_END(cudaErrorInvalidValue);
    p->dst = (void *)(uintptr_t)node->op.u.set.dst;
    p->pitch = node->op.u.set.pitch;
    p->value = node->op.u.set.value;
    p->elementSize = node->op.u.set.elem_size;
    p->width = node->op.u.set.width;
    p->height = node->op.u.set.height;
    return RT_END(cudaSuccess);
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *p)
{
    RT_BEGIN();
    if (!node_ok(node) || node->type != cudaGraphNodeTypeMemset)
        return RT_END(cudaErrorInvalidValue);
    return RT_END(rt_graph_memset_op(&node->op, p));
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *p)
{
    RT_BEGIN();
    if (!node_ok(node) || node->type != cudaGraphNodeTypeHost || !p)
        return RT_END(cudaErrorInvalidValue);
    p->fn = node->op.u.host.fn;
    p->userData = node->op.u.host.user;
    return RT_END(cudaSuccess);
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *p)
{
    RT_BEGIN();
    if (!node_ok(node) || node->type != cudaGraphNodeTypeHost)
        return RT_END(cudaErrorInvalidValue);
    return RT_END(node_set_host(node, p));
}

cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src,
                                           size_t count, enum cudaMemcpyKind kind)
{
    RT_BEGIN();
    if (!node_ok(node) || node->type != cudaGraphNodeTypeMemcpy)
        return RT_END(cudaErrorInvalidValue);
    return RT_END(node_set_copy1d(node, dst, src, count, kind));
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct cudaMemcpy3DParms *p)
{
    RT_BEGIN();
    if (!node_ok(node) || node->type != cudaGraphNodeTypeMemcpy)
        return RT_END(cudaErrorInvalidValue);
    return RT_END(node_set_copy3d(node, p));
}

/* ---- node lookups and event nodes ------------------------------------------------------------ */
cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode,
                                     cudaGraph_t clonedGraph)
{
    RT_BEGIN();
    if (!pNode || !node_ok(originalNode) || !graph_ok(clonedGraph) ||
        originalNode->g->n != clonedGraph->n)
        return RT_END(cudaErrorInvalidValue);
    size_t i = 0;                           /* a clone keeps the nodes' order */
    while (originalNode->g->nodes[i] != originalNode) i++;
    *pNode = clonedGraph->nodes[i];
    return RT_END(cudaSuccess);
}

static cudaError_t event_node(cudaGraphNode_t node, enum cudaGraphNodeType type,
                              cudaEvent_t *get, cudaEvent_t set)
{
    if (!node_ok(node) || node->type != type) return cudaErrorInvalidValue;
    if (get) {
        *get = node->op.u.event.ev;
        return cudaSuccess;
    }
    return node_set_event(node, set, node->op.kind);
}

cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
    RT_BEGIN();
    if (!event_out) return RT_END(cudaErrorInvalidValue);
    return RT_END(event_node(node, cudaGraphNodeTypeEventRecord, event_out, NULL));
}

cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event)
{
    RT_BEGIN();
    return RT_END(event_node(node, cudaGraphNodeTypeEventRecord, NULL, event));
}

cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
    RT_BEGIN();
    if (!event_out) return RT_END(cudaErrorInvalidValue);
    return RT_END(event_node(node, cudaGraphNodeTypeWaitEvent, event_out, NULL));
}

cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event)
{
    RT_BEGIN();
    return RT_END(event_node(node, cudaGraphNodeTypeWaitEvent, NULL, event));
}

/* The parameters of a memcpy node as linear pitched pointers (what the op holds). */
cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms *p)
{
    RT_BEGIN();
    if (!node_ok(node) || node->type != cudaGraphNodeTypeMemcpy || !p)
        return RT_END(cudaErrorInvalidValue);
    const rt_op *op = &node->op;
    memset(p, 0, sizeof *p);
    p->srcPtr.ptr = (void *)(uintptr_t)op->u.copy.src;
    p->srcPtr.pitch = op->u.copy.spitch;
    p->srcPtr.xsize = op->u.copy.width;
    p->srcPtr.ysize = op->u.copy.spitch ? op->u.copy.sslice / op->u.copy.spitch : 0;
    p->dstPtr.ptr = (void *)(uintptr_t)op->u.copy.dst;
    p->dstPtr.pitch = op->u.copy.dpitch;
    p->dstPtr.xsize = op->u.copy.width;
    p->dstPtr.ysize = op->u.copy.dpitch ? op->u.copy.dslice / op->u.copy.dpitch : 0;
    p->extent.width = op->u.copy.width;
    p->extent.height = op->u.copy.height;
    p->extent.depth = op->u.copy.depth;
    p->kind = op->u.copy.dir;
    return RT_END(cudaSuccess);
}

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                     struct cudaMemAllocNodeParams *nodeParams)
{
    ADD_NODE(cudaGraphNodeTypeMemAlloc, node_set_alloc(n, nodeParams));
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                    void *dptr)
{
    ADD_NODE(cudaGraphNodeTypeMemFree, node_set_free(n, dptr));
}
