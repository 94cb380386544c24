/* rt_graph.h - internals shared by CUDA graphs (rt_graph.c), stream capture (rt_capture.c) and
 * the driver API. */
#ifndef RT_GRAPH_H
#define RT_GRAPH_H

#include "rt.h"
#include "rt_abi_graph.h"

#define GRAPH_MAGIC 0x47524150u
#define NODE_MAGIC  0x4e4f4445u
#define EXEC_MAGIC  0x47455843u

struct CUgraphNode_st {
    uint32_t magic;
    struct CUgraph_st *g;
    enum cudaGraphNodeType type;
    rt_op op;                       /* kernel (params owned), copy, set, host, event ops */
    int has_op;
    struct CUgraph_st *child;       /* cudaGraphNodeTypeGraph: an owned clone */
    struct rt_gmem *gmem;           /* memory alloc/free nodes: the allocation (a reference) */
    void **argv;                    /* kernel: pointers into op params (KernelNodeGetParams) */
    struct CUgraphNode_st **deps;
    size_t ndeps, capdeps;
};

struct CUgraph_st {
    uint32_t magic;
    struct CUgraphNode_st **nodes;
    size_t n, cap;
};

struct CUgraphExec_st {
    uint32_t magic;
    rt_op *ops;                     /* owned copies, in launch order */
    struct CUgraphNode_st **src;    /* the node each op came from (child nodes: the child's) */
    unsigned char *off;             /* cudaGraphNodeSetEnabled(0): skipped at launch */
    size_t n, cap;
    unsigned long long flags;       /* as instantiated */
};

cudaGraph_t rt_graph_new(void);
void rt_graph_free(cudaGraph_t g);
/* A node recording a captured op (cloned), depending on deps; NULL with *err. */
cudaGraphNode_t rt_graph_capture_node(cudaGraph_t g, const rt_op *op, const cudaGraphNode_t *deps,
                                      size_t ndeps, cudaError_t *err);
/* The nodes of g in launch order (malloc'd, g's node count), or NULL with *err (a cycle:
 * cudaErrorInvalidValue). Among nodes whose dependencies are done, the one created first. */
cudaGraphNode_t *rt_graph_order(cudaGraph_t g, size_t *n, cudaError_t *err);
int rt_graph_ok(cudaGraph_t g);
int rt_graph_node_ok(cudaGraphNode_t n);
/* Set a kernel node's op from cudaKernelNodeParams (rt_graph.c); from a kernel itself (the
 * driver API's CUfunction). */
cudaError_t rt_graph_node_kernel(cudaGraphNode_t n, const struct cudaKernelNodeParams *p);
cudaError_t rt_graph_node_kernel_k(cudaGraphNode_t n, rt_kernel *k, dim3 grid, dim3 block,
                                   unsigned shmem, void **kernelParams, void **extra);
/* A new node of g of the given type depending on deps (all of g); NULL with *err. Drop the
 * last node made (its parameters were refused). */
cudaGraphNode_t rt_graph_node_new(cudaGraph_t g, enum cudaGraphNodeType type,
                                  const cudaGraphNode_t *deps, size_t ndeps, cudaError_t *err);
void rt_graph_node_drop_last(cudaGraph_t g);
/* Replace the op an executable graph runs for node (rt_graphexec.c). */
cudaError_t rt_graphexec_replace(cudaGraphExec_t x, cudaGraphNode_t node, const rt_op *op);
/* The memset op of cudaMemsetParams. */
cudaError_t rt_graph_memset_op(rt_op *op, const struct cudaMemsetParams *p);
/* A 1D copy op. */
void rt_graph_copy1d_op(rt_op *op, void *dst, const void *src, size_t count,
                        enum cudaMemcpyKind kind);
/* A kernel's .param bytes (malloc'd into *buf) from kernelParams, or from the `extra` array's
 * CU_LAUNCH_PARAM_BUFFER_POINTER / CU_LAUNCH_PARAM_BUFFER_SIZE form. */
cudaError_t rt_kernel_params(rt_kernel *k, void **args, void **extra, uint8_t **buf);

/* ---- graph memory nodes (rt_graphmem.c) ------------------------------------------------------
 * An alloc node reserves its memory when it is created (its address never changes); the memory
 * is live from a launch's alloc op to a free (free node, cudaFreeAsync, cudaFree). The
 * reservation is released when no node or executable graph refers to it and it is not live. */
typedef struct rt_gmem rt_gmem;
/* A new reservation of size bytes (one reference); NULL with *err. */
rt_gmem *rt_gmem_new(uint64_t size, const struct cudaMemPoolProps *props,
                     const struct cudaMemAccessDesc *descs, size_t ndescs, cudaError_t *err);
void rt_gmem_ref(rt_gmem *m);
void rt_gmem_unref(rt_gmem *m);
/* The reservation starting at p; NULL. */
rt_gmem *rt_gmem_find(const void *p);
void *rt_gmem_ptr(const rt_gmem *m);
/* Fill a memory node's op (kind RT_OP_MEM_ALLOC or RT_OP_MEM_FREE) for m (takes a reference). */
void rt_gmem_node_op(cudaGraphNode_t n, rt_gmem *m, int alloc);
/* Executable graphs: count an instantiation (cudaErrorInvalidValue when another executable
 * graph holds this allocation), undo it; check/auto-free before a launch. */
cudaError_t rt_gmem_exec_add(rt_gmem *m);
void rt_gmem_exec_drop(rt_gmem *m);
cudaError_t rt_gmem_prelaunch(rt_gmem *m, int autofree);
/* Free a live graph allocation (free node, cudaFreeAsync, cudaFree); run a launch's op. */
cudaError_t rt_gmem_free(rt_gmem *m);
cudaError_t rt_gmem_run(const rt_op *op);
/* Capture of cudaMallocAsync / cudaFreeAsync: a memory node (rt_graph.c). */
cudaGraphNode_t rt_graph_capture_mem(cudaGraph_t g, const rt_op *op, const cudaGraphNode_t *deps,
                                     size_t ndeps, cudaError_t *err);

#endif
