/* cu_graph.c - driver API: CUDA graphs (cuGraph*) on the runtime's graphs (rt_graph.c). */
#include <stdlib.h>
#include <string.h>
#include "cu_abi_mem.h"
#include "cu_int.h"
#include "cu_rtapi.h"
#include "rt_graph.h"

#define CU_EXPORT __attribute__((visibility("default")))
#define DPTR(d) ((void *)(uintptr_t)(d))
#define CU_CALL(expr) do { CUresult r_ = cu_ctx_current(); if (r_) return r_; \
                           return cu_result(expr); } while (0)

typedef cudaGraphNode_t CUgraphNode;

/* CUgraph, CUgraphNode and CUgraphExec are the runtime's graphs, nodes and executable graphs;
 * CUgraphNodeType, CUgraphExecUpdateResult and the memory node parameters share the runtime's
 * numbers and layouts (CUDA_HOST_NODE_PARAMS is cudaHostNodeParams, CUDA_MEMSET_NODE_PARAMS
 * cudaMemsetParams with a CUdeviceptr, CUDA_MEM_ALLOC_NODE_PARAMS cudaMemAllocNodeParams).
 * Kernel nodes name a CUfunction or CUkernel (a kernel, not a host stub), copies a
 * CUDA_MEMCPY3D: those are converted here. The context arguments are the one device's. */

/* ---- graphs and edges --------------------------------------------------------------------- */
CU_EXPORT CUresult cuGraphCreate(CUgraph *phGraph, unsigned int flags)
{
    CU_CALL(cudaGraphCreate((cudaGraph_t *)phGraph, flags));
}
CU_EXPORT CUresult cuGraphDestroy(CUgraph g) { CU_CALL(cudaGraphDestroy(g)); }
CU_EXPORT CUresult cuGraphClone(CUgraph *phClone, CUgraph g)
{
    CU_CALL(cudaGraphClone((cudaGraph_t *)phClone, g));
}
CU_EXPORT CUresult cuGraphDestroyNode(CUgraphNode n) { CU_CALL(cudaGraphDestroyNode(n)); }
CU_EXPORT CUresult cuGraphGetNodes(CUgraph g, CUgraphNode *nodes, size_t *num)
{
    CU_CALL(cudaGraphGetNodes(g, nodes, num));
}
CU_EXPORT CUresult cuGraphGetRootNodes(CUgraph g, CUgraphNode *nodes, size_t *num)
{
    CU_CALL(cudaGraphGetRootNodes(g, nodes, num));
}
CU_EXPORT CUresult cuGraphGetEdges_v2(CUgraph g, CUgraphNode *from, CUgraphNode *to,
                                      cudaGraphEdgeData *edges, size_t *num)
{
    CU_CALL(cudaGraphGetEdges(g, from, to, edges, num));
}
CU_EXPORT CUresult cuGraphGetEdges(CUgraph g, CUgraphNode *from, CUgraphNode *to, size_t *num)
{
    return cuGraphGetEdges_v2(g, from, to, NULL, num);
}
CU_EXPORT CUresult cuGraphNodeGetDependencies_v2(CUgraphNode n, CUgraphNode *deps,
                                                 cudaGraphEdgeData *edges, size_t *num)
{
    CU_CALL(cudaGraphNodeGetDependencies(n, deps, edges, num));
}
CU_EXPORT CUresult cuGraphNodeGetDependencies(CUgraphNode n, CUgraphNode *deps, size_t *num)
{
    return cuGraphNodeGetDependencies_v2(n, deps, NULL, num);
}
CU_EXPORT CUresult cuGraphNodeGetDependentNodes_v2(CUgraphNode n, CUgraphNode *deps,
                                                   cudaGraphEdgeData *edges, size_t *num)
{
    CU_CALL(cudaGraphNodeGetDependentNodes(n, deps, edges, num));
}
CU_EXPORT CUresult cuGraphNodeGetDependentNodes(CUgraphNode n, CUgraphNode *deps, size_t *num)
{
    return cuGraphNodeGetDependentNodes_v2(n, deps, NULL, num);
}
CU_EXPORT CUresult cuGraphAddDependencies_v2(CUgraph g, const CUgraphNode *from,
                                             const CUgraphNode *to,
                                             const cudaGraphEdgeData *edges, size_t num)
{
    CU_CALL(cudaGraphAddDependencies(g, from, to, edges, num));
}
CU_EXPORT CUresult cuGraphAddDependencies(CUgraph g, const CUgraphNode *from,
                                          const CUgraphNode *to, size_t num)
{
    return cuGraphAddDependencies_v2(g, from, to, NULL, num);
}
CU_EXPORT CUresult cuGraphRemoveDependencies_v2(CUgraph g, const CUgraphNode *from,
                                                const CUgraphNode *to,
                                                const cudaGraphEdgeData *edges, size_t num)
{
    CU_CALL(cudaGraphRemoveDependencies(g, from, to, edges, num));
}
CU_EXPORT CUresult cuGraphRemoveDependencies(CUgraph g, const CUgraphNode *from,
                                             const CUgraphNode *to, size_t num)
{
    return cuGraphRemoveDependencies_v2(g, from, to, NULL, num);
}
CU_EXPORT CUresult cuGraphNodeGetType(CUgraphNode n, int *type)
{
    CU_CALL(cudaGraphNodeGetType(n, (enum cudaGraphNodeType *)type));
}
CU_EXPORT CUresult cuGraphNodeFindInClone(CUgraphNode *ph, CUgraphNode orig, CUgraph clone)
{
    CU_CALL(cudaGraphNodeFindInClone(ph, orig, clone));
}

/* ---- nodes the runtime's API describes the same way ---------------------------------------- */
CU_EXPORT CUresult cuGraphAddEmptyNode(CUgraphNode *ph, CUgraph g, const CUgraphNode *deps,
                                       size_t ndeps)
{
    CU_CALL(cudaGraphAddEmptyNode(ph, g, deps, ndeps));
}
CU_EXPORT CUresult cuGraphAddChildGraphNode(CUgraphNode *ph, CUgraph g, const CUgraphNode *deps,
                                            size_t ndeps, CUgraph child)
{
    CU_CALL(cudaGraphAddChildGraphNode(ph, g, deps, ndeps, child));
}
CU_EXPORT CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode n, CUgraph *ph)
{
    CU_CALL(cudaGraphChildGraphNodeGetGraph(n, (cudaGraph_t *)ph));
}
CU_EXPORT CUresult cuGraphAddEventRecordNode(CUgraphNode *ph, CUgraph g, const CUgraphNode *deps,
                                             size_t ndeps, CUevent ev)
{
    CU_CALL(cudaGraphAddEventRecordNode(ph, g, deps, ndeps, ev));
}
CU_EXPORT CUresult cuGraphAddEventWaitNode(CUgraphNode *ph, CUgraph g, const CUgraphNode *deps,
                                           size_t ndeps, CUevent ev)
{
    CU_CALL(cudaGraphAddEventWaitNode(ph, g, deps, ndeps, ev));
}
CU_EXPORT CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode n, CUevent *ev)
{
    CU_CALL(cudaGraphEventRecordNodeGetEvent(n, (cudaEvent_t *)ev));
}
CU_EXPORT CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode n, CUevent ev)
{
    CU_CALL(cudaGraphEventRecordNodeSetEvent(n, ev));
}
CU_EXPORT CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode n, CUevent *ev)
{
    CU_CALL(cudaGraphEventWaitNodeGetEvent(n, (cudaEvent_t *)ev));
}
CU_EXPORT CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode n, CUevent ev)
{
    CU_CALL(cudaGraphEventWaitNodeSetEvent(n, ev));
}
CU_EXPORT CUresult cuGraphAddHostNode(CUgraphNode *ph, CUgraph g, const CUgraphNode *deps,
                                      size_t ndeps, const struct cudaHostNodeParams *p)
{
    CU_CALL(cudaGraphAddHostNode(ph, g, deps, ndeps, p));
}
CU_EXPORT CUresult cuGraphHostNodeGetParams(CUgraphNode n, struct cudaHostNodeParams *p)
{
    CU_CALL(cudaGraphHostNodeGetParams(n, p));
}
CU_EXPORT CUresult cuGraphHostNodeSetParams(CUgraphNode n, const struct cudaHostNodeParams *p)
{
    CU_CALL(cudaGraphHostNodeSetParams(n, p));
}
CU_EXPORT CUresult cuGraphExecHostNodeSetParams(CUgraphExec x, CUgraphNode n,
                                                const struct cudaHostNodeParams *p)
{
    CU_CALL(cudaGraphExecHostNodeSetParams(x, n, p));
}
CU_EXPORT CUresult cuGraphAddMemsetNode(CUgraphNode *ph, CUgraph g, const CUgraphNode *deps,
                                        size_t ndeps, const struct cudaMemsetParams *p,
                                        CUcontext ctx)
{
    (void)ctx;
    CU_CALL(cudaGraphAddMemsetNode(ph, g, deps, ndeps, p));
}
CU_EXPORT CUresult cuGraphMemsetNodeGetParams(CUgraphNode n, struct cudaMemsetParams *p)
{
    CU_CALL(cudaGraphMemsetNodeGetParams(n, p));
}
CU_EXPORT CUresult cuGraphMemsetNodeSetParams(CUgraphNode n, const struct cudaMemsetParams *p)
{
    CU_CALL(cudaGraphMemsetNodeSetParams(n, p));
}
CU_EXPORT CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec x, CUgraphNode n,
                                                  const struct cudaMemsetParams *p, CUcontext ctx)
{
    (void)ctx;
    CU_CALL(cudaGraphExecMemsetNodeSetParams(x, n, p));
}
CU_EXPORT CUresult cuGraphAddMemAllocNode(CUgraphNode *ph, CUgraph g, const CUgraphNode *deps,
                                          size_t ndeps, struct cudaMemAllocNodeParams *p)
{
    CU_CALL(cudaGraphAddMemAllocNode(ph, g, deps, ndeps, p));
}
CU_EXPORT CUresult cuGraphMemAllocNodeGetParams(CUgraphNode n, struct cudaMemAllocNodeParams *p)
{
    CU_CALL(cudaGraphMemAllocNodeGetParams(n, p));
}
CU_EXPORT CUresult cuGraphAddMemFreeNode(CUgraphNode *ph, CUgraph g, const CUgraphNode *deps,
                                         size_t ndeps, CUdeviceptr dptr)
{
    CU_CALL(cudaGraphAddMemFreeNode(ph, g, deps, ndeps, DPTR(dptr)));
}
CU_EXPORT CUresult cuGraphMemFreeNodeGetParams(CUgraphNode n, CUdeviceptr *dptr)
{
    CU_CALL(cudaGraphMemFreeNodeGetParams(n, dptr));
}
CU_EXPORT CUresult cuDeviceGraphMemTrim(CUdevice dev) { CU_CALL(cudaDeviceGraphMemTrim(dev)); }
CU_EXPORT CUresult cuDeviceGetGraphMemAttribute(CUdevice dev, int attr, void *value)
{
    CU_CALL(cudaDeviceGetGraphMemAttribute(dev, (enum cudaGraphMemAttributeType)attr, value));
}
CU_EXPORT CUresult cuDeviceSetGraphMemAttribute(CUdevice dev, int attr, void *value)
{
    CU_CALL(cudaDeviceSetGraphMemAttribute(dev, (enum cudaGraphMemAttributeType)attr, value));
}

/* ---- kernel nodes ------------------------------------------------------------------------- */
/* The kernel a node's parameters name: the function, else the CUkernel (the same handles). */
static rt_kernel *node_kernel(CUfunction f, CUkernel k)
{
    return cu_function_of(f ? f : (CUfunction)(void *)k);
}

static cudaError_t kernel_set(cudaGraphNode_t n, const CUDA_KERNEL_NODE_PARAMS *p)
{
    if (!p) return cudaErrorInvalidValue;
    rt_kernel *k = node_kernel(p->func, p->kern);
    if (!k) return cudaErrorInvalidResourceHandle;
    dim3 g = { p->gridDimX, p->gridDimY, p->gridDimZ }, b = { p->blockDimX, p->blockDimY,
                                                              p->blockDimZ };
    return rt_graph_node_kernel_k(n, k, g, b, p->sharedMemBytes, p->kernelParams, p->extra);
}

/* The first version's parameters: those of v2 without the CUkernel and context. */
static const CUDA_KERNEL_NODE_PARAMS *kernel_v2(const CUDA_KERNEL_NODE_PARAMS_v1 *p,
                                                CUDA_KERNEL_NODE_PARAMS *out)
{
    if (!p) return NULL;
    memset(out, 0, sizeof *out);
    memcpy(out, p, sizeof *p);
    return out;
}

CU_EXPORT CUresult cuGraphAddKernelNode_v2(CUgraphNode *ph, CUgraph g, const CUgraphNode *deps,
                                           size_t ndeps, const CUDA_KERNEL_NODE_PARAMS *p)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    if (!ph) return CUDA_ERROR_INVALID_VALUE;
    RT_BEGIN();
    cudaError_t e;
    cudaGraphNode_t n = rt_graph_node_new(g, cudaGraphNodeTypeKernel, deps, ndeps, &e);
    if (n && (e = kernel_set(n, p)) != cudaSuccess) rt_graph_node_drop_last(g);
    else if (n) *ph = n;
    rt_unlock();
    return cu_result(e);
}

CU_EXPORT CUresult cuGraphAddKernelNode(CUgraphNode *ph, CUgraph g, const CUgraphNode *deps,
                                        size_t ndeps, const CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
    CUDA_KERNEL_NODE_PARAMS v2;
    return cuGraphAddKernelNode_v2(ph, g, deps, ndeps, kernel_v2(p, &v2));
}

CU_EXPORT CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS *p)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    RT_BEGIN();
    cudaError_t e = rt_graph_node_ok(n) && n->type == cudaGraphNodeTypeKernel ? kernel_set(n, p)
                    : cudaErrorInvalidValue;
    rt_unlock();
    return cu_result(e);
}

CU_EXPORT CUresult cuGraphKernelNodeSetParams(CUgraphNode n, const CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
    CUDA_KERNEL_NODE_PARAMS v2;
    return cuGraphKernelNodeSetParams_v2(n, kernel_v2(p, &v2));
}

CU_EXPORT CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode n, CUDA_KERNEL_NODE_PARAMS *p)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    RT_BEGIN();
    int ok = rt_graph_node_ok(n) && n->type == cudaGraphNodeTypeKernel && p;
    if (ok) {
        const rt_op *op = &n->op;
        memset(p, 0, sizeof *p);
        p->func = (CUfunction)(void *)op->u.kernel.k;
        p->gridDimX = op->u.kernel.grid.x;
        p->gridDimY = op->u.kernel.grid.y;
        p->gridDimZ = op->u.kernel.grid.z;
        p->blockDimX = op->u.kernel.block.x;
        p->blockDimY = op->u.kernel.block.y;
        p->blockDimZ = op->u.kernel.block.z;
        p->sharedMemBytes = op->u.kernel.shmem;
        p->kernelParams = n->argv;
        p->kern = (CUkernel)(void *)op->u.kernel.k;
        p->ctx = cu_primary_ctx();
    }
    rt_unlock();
    return ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CU_EXPORT CUresult cuGraphKernelNodeGetParams(CUgraphNode n, CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
    CUDA_KERNEL_NODE_PARAMS v2;
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = cuGraphKernelNodeGetParams_v2(n, &v2);
    if (!r) memcpy(p, &v2, sizeof *p);
    return r;
}

CU_EXPORT CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec x, CUgraphNode n,
                                                     const CUDA_KERNEL_NODE_PARAMS *p)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    RT_BEGIN();
    cudaError_t e = cudaErrorInvalidValue;
    if (rt_graph_node_ok(n) && n->type == cudaGraphNodeTypeKernel) {
        struct CUgraphNode_st tmp;
        memset(&tmp, 0, sizeof tmp);
        e = kernel_set(&tmp, p);
        if (e == cudaSuccess) {
            e = rt_graphexec_replace(x, n, &tmp.op);
            rt_op_release(&tmp.op);
            free(tmp.argv);
        }
    }
    rt_unlock();
    return cu_result(e);
}

CU_EXPORT CUresult cuGraphExecKernelNodeSetParams(CUgraphExec x, CUgraphNode n,
                                                  const CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
    CUDA_KERNEL_NODE_PARAMS v2;
    return cuGraphExecKernelNodeSetParams_v2(x, n, kernel_v2(p, &v2));
}

/* ---- copy nodes: CUDA_MEMCPY3D ------------------------------------------------------------- */
static cudaError_t copy_set(cudaGraphNode_t n, const CUDA_MEMCPY3D *p)
{
    rt_op op;
    cudaError_t e = cu_copy3d_op(p, &op);
    if (e == cudaSuccess) {
        if (n->has_op) rt_op_release(&n->op);
        n->op = op;
        n->has_op = 1;
    }
    return e;
}

CU_EXPORT CUresult cuGraphAddMemcpyNode(CUgraphNode *ph, CUgraph g, const CUgraphNode *deps,
                                        size_t ndeps, const CUDA_MEMCPY3D *p, CUcontext ctx)
{
    (void)ctx;
    CUresult r = cu_ctx_current();
    if (r) return r;
    if (!ph) return CUDA_ERROR_INVALID_VALUE;
    RT_BEGIN();
    cudaError_t e;
    cudaGraphNode_t n = rt_graph_node_new(g, cudaGraphNodeTypeMemcpy, deps, ndeps, &e);
    if (n && (e = copy_set(n, p)) != cudaSuccess) rt_graph_node_drop_last(g);
    else if (n) *ph = n;
    rt_unlock();
    return cu_result(e);
}

CU_EXPORT CUresult cuGraphMemcpyNodeSetParams(CUgraphNode n, const CUDA_MEMCPY3D *p)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    RT_BEGIN();
    cudaError_t e = rt_graph_node_ok(n) && n->type == cudaGraphNodeTypeMemcpy ? copy_set(n, p)
                    : cudaErrorInvalidValue;
    rt_unlock();
    return cu_result(e);
}

/* A node's copy as unified addresses (the arrays it came from are their bytes here). */
CU_EXPORT CUresult cuGraphMemcpyNodeGetParams(CUgraphNode n, CUDA_MEMCPY3D *p)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    RT_BEGIN();
    int ok = rt_graph_node_ok(n) && n->type == cudaGraphNodeTypeMemcpy && p;
    if (ok) {
        const rt_op *op = &n->op;
        memset(p, 0, sizeof *p);
        p->srcMemoryType = p->dstMemoryType = MT_UNIFIED;
        p->srcDevice = op->u.copy.src;
        p->dstDevice = op->u.copy.dst;
        p->srcPitch = op->u.copy.spitch;
        p->dstPitch = op->u.copy.dpitch;
        p->srcHeight = op->u.copy.spitch ? op->u.copy.sslice / op->u.copy.spitch : 0;
        p->dstHeight = op->u.copy.dpitch ? op->u.copy.dslice / op->u.copy.dpitch : 0;
        p->WidthInBytes = op->u.copy.width;
        p->Height = op->u.copy.height;
        p->Depth = op->u.copy.depth;
    }
    rt_unlock();
    return ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CU_EXPORT CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec x, CUgraphNode n,
                                                  const CUDA_MEMCPY3D *p, CUcontext ctx)
{
    (void)ctx;
    CUresult r = cu_ctx_current();
    if (r) return r;
    RT_BEGIN();
    rt_op op;
    cudaError_t e = !rt_graph_node_ok(n) || n->type != cudaGraphNodeTypeMemcpy
                    ? cudaErrorInvalidValue : cu_copy3d_op(p, &op);
    if (e == cudaSuccess) e = rt_graphexec_replace(x, n, &op);
    rt_unlock();
    return cu_result(e);
}

/* ---- executable graphs ---------------------------------------------------------------------- */
CU_EXPORT CUresult cuGraphInstantiateWithFlags(CUgraphExec *px, CUgraph g,
                                               unsigned long long flags)
{
    CU_CALL(cudaGraphInstantiateWithFlags((cudaGraphExec_t *)px, g, flags));
}

/* The first two versions: an error node and a log buffer (both left empty on success). */
CU_EXPORT CUresult cuGraphInstantiate_v2(CUgraphExec *px, CUgraph g, CUgraphNode *errNode,
                                         char *logBuffer, size_t bufferSize)
{
    if (errNode) *errNode = NULL;
    if (logBuffer && bufferSize) logBuffer[0] = 0;
    return cuGraphInstantiateWithFlags(px, g, 0);
}
CU_EXPORT CUresult cuGraphInstantiate(CUgraphExec *px, CUgraph g, CUgraphNode *errNode,
                                      char *logBuffer, size_t bufferSize)
{
    return cuGraphInstantiate_v2(px, g, errNode, logBuffer, bufferSize);
}

typedef struct {
    cuuint64_t flags;
    CUstream hUploadStream;
    CUgraphNode hErrNode_out;
    int result_out;                 /* CUgraphInstantiateResult */
} CUDA_GRAPH_INSTANTIATE_PARAMS;

static CUresult instantiate_params(CUgraphExec *px, CUgraph g, CUDA_GRAPH_INSTANTIATE_PARAMS *p,
                                   int ptsz)
{
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    p->hErrNode_out = NULL;
    CUresult r = cuGraphInstantiateWithFlags(px, g, p->flags);
    /* CUDA_GRAPH_INSTANTIATE_SUCCESS, else ERROR (a cycle, a bad node) */
    p->result_out = r ? 1 : 0;
    if (!r && (p->flags & cudaGraphInstantiateFlagUpload))
        r = cu_result(ptsz ? cudaGraphUpload(*px, p->hUploadStream ? p->hUploadStream
                                                   : (CUstream)RT_STREAM_PER_THREAD)
                           : cudaGraphUpload(*px, p->hUploadStream));
    return r;
}
CU_EXPORT CUresult cuGraphInstantiateWithParams(CUgraphExec *px, CUgraph g,
                                                CUDA_GRAPH_INSTANTIATE_PARAMS *p)
{
    return instantiate_params(px, g, p, 0);
}
CU_EXPORT CUresult cuGraphInstantiateWithParams_ptsz(CUgraphExec *px, CUgraph g,
                                                     CUDA_GRAPH_INSTANTIATE_PARAMS *p)
{
    return instantiate_params(px, g, p, 1);
}

CU_EXPORT CUresult cuGraphExecDestroy(CUgraphExec x) { CU_CALL(cudaGraphExecDestroy(x)); }
CU_EXPORT CUresult cuGraphLaunch(CUgraphExec x, CUstream s) { CU_CALL(cudaGraphLaunch(x, s)); }
CU_EXPORT CUresult cuGraphLaunch_ptsz(CUgraphExec x, CUstream s)
{
    CU_CALL(cudaGraphLaunch_ptsz(x, s));
}
CU_EXPORT CUresult cuGraphUpload(CUgraphExec x, CUstream s) { CU_CALL(cudaGraphUpload(x, s)); }
CU_EXPORT CUresult cuGraphUpload_ptsz(CUgraphExec x, CUstream s)
{
    CU_CALL(cudaGraphUpload(x, s ? s : (CUstream)RT_STREAM_PER_THREAD));
}
CU_EXPORT CUresult cuGraphExecGetFlags(CUgraphExec x, cuuint64_t *flags)
{
    CU_CALL(cudaGraphExecGetFlags(x, (unsigned long long *)flags));
}
CU_EXPORT CUresult cuGraphNodeSetEnabled(CUgraphExec x, CUgraphNode n, unsigned int on)
{
    CU_CALL(cudaGraphNodeSetEnabled(x, n, on));
}
CU_EXPORT CUresult cuGraphNodeGetEnabled(CUgraphExec x, CUgraphNode n, unsigned int *on)
{
    CU_CALL(cudaGraphNodeGetEnabled(x, n, on));
}
CU_EXPORT CUresult cuGraphExecUpdate_v2(CUgraphExec x, CUgraph g,
                                        cudaGraphExecUpdateResultInfo *info)
{
    CU_CALL(cudaGraphExecUpdate(x, g, info));
}
CU_EXPORT CUresult cuGraphExecUpdate(CUgraphExec x, CUgraph g, CUgraphNode *errNode,
                                     int *result)
{
    cudaGraphExecUpdateResultInfo info;
    memset(&info, 0, sizeof info);
    CUresult r = cuGraphExecUpdate_v2(x, g, &info);
    if (errNode) *errNode = info.errorNode;
    if (result) *result = (int)info.result;
    return r;
}
