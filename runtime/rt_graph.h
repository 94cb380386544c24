/* rt_graph.h - internals shared by CUDA graphs (rt_graph.c), stream capture (rt_capture.c) and
 * the driver API. */
#ifndef RT_GRAPH_H
#define RT_GRAPH_H

#include "rt.h"
#include "rt_abi_graph.h"

cudaGraph_t rt_graph_new(void);
void rt_graph_free(cudaGraph_t g);
/* A node recording a captured op (cloned), depending on deps; NULL with *err. */
cudaGraphNode_t rt_graph_capture_node(cudaGraph_t g, const rt_op *op, const cudaGraphNode_t *deps,
                                      size_t ndeps, cudaError_t *err);
/* The nodes of g in launch order (malloc'd, g's node count), or NULL with *err (a cycle:
 * cudaErrorInvalidValue). Among nodes whose dependencies are done, the one created first. */
cudaGraphNode_t *rt_graph_order(cudaGraph_t g, size_t *n, cudaError_t *err);
/* A kernel's .param bytes (malloc'd into *buf) from kernelParams, or from the `extra` array's
 * CU_LAUNCH_PARAM_BUFFER_POINTER / CU_LAUNCH_PARAM_BUFFER_SIZE form. */
cudaError_t rt_kernel_params(rt_kernel *k, void **args, void **extra, uint8_t **buf);

#endif
