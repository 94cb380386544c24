// smp_graphs2.cu - graph APIs beyond the basics: child graphs, event record/wait nodes, cloning,
// node types, edges, kernel node parameter queries and updates on
// the template graph, cudaGraphUpload and a captured graph whose captured
// kernels read values only set before each launch (jacobiCudaGraphs pattern).
#include "smp_helper.h"
#include <stdio.h>

__global__ void add(int *x, int v) { x[threadIdx.x] += v; }
__global__ void mul(int *x, int v) { x[threadIdx.x] *= v; }

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    int *d, h[32];
    checkCudaErrors(cudaMalloc(&d, sizeof(h)));
    checkCudaErrors(cudaMemset(d, 0, sizeof(h)));
    cudaGraph_t child, parent;
    checkCudaErrors(cudaGraphCreate(&child, 0));
    checkCudaErrors(cudaGraphCreate(&parent, 0));
    int v1 = 3, v2 = 2;
    void *a1[] = {&d, &v1}, *a2[] = {&d, &v2};
    cudaKernelNodeParams kp = {0};
    kp.func = (void *)add; kp.gridDim = 1; kp.blockDim = 32; kp.kernelParams = a1;
    cudaGraphNode_t cadd, cmul, childNode, evRec, evWait, tail;
    checkCudaErrors(cudaGraphAddKernelNode(&cadd, child, NULL, 0, &kp));
    kp.func = (void *)mul; kp.kernelParams = a2;
    checkCudaErrors(cudaGraphAddKernelNode(&cmul, child, &cadd, 1, &kp));
    checkCudaErrors(cudaGraphAddChildGraphNode(&childNode, parent, NULL, 0, child));
    cudaEvent_t ev;
    checkCudaErrors(cudaEventCreate(&ev));
    checkCudaErrors(cudaGraphAddEventRecordNode(&evRec, parent, &childNode, 1, ev));
    checkCudaErrors(cudaGraphAddEventWaitNode(&evWait, parent, &evRec, 1, ev));
    kp.func = (void *)add; kp.kernelParams = a1;
    checkCudaErrors(cudaGraphAddKernelNode(&tail, parent, &evWait, 1, &kp));
    cudaGraphNodeType ty;
    checkCudaErrors(cudaGraphNodeGetType(childNode, &ty));
    if (ty != cudaGraphNodeTypeGraph) { printf("node type %d\n", ty); ok = false; }
    size_t ne = 0;
    checkCudaErrors(cudaGraphGetEdges(parent, NULL, NULL, NULL, &ne));
    if (ne != 3) { printf("edges %zu\n", ne); ok = false; }
    cudaKernelNodeParams q;
    checkCudaErrors(cudaGraphKernelNodeGetParams(tail, &q));
    if (q.func != (void *)add || q.blockDim.x != 32) { printf("kernel node params\n"); ok = false; }
    cudaGraph_t clone;
    checkCudaErrors(cudaGraphClone(&clone, parent));
    int v3 = 100;   // the clone is independent: changing the original's node later leaves it alone
    void *a3[] = {&d, &v3};
    kp.kernelParams = a3;
    cudaGraphExec_t e1, e2;
    checkCudaErrors(cudaGraphInstantiate(&e2, clone, 0));
    checkCudaErrors(cudaGraphKernelNodeSetParams(tail, &kp));
    checkCudaErrors(cudaGraphInstantiate(&e1, parent, 0));
    cudaStream_t s;
    checkCudaErrors(cudaStreamCreate(&s));
    checkCudaErrors(cudaGraphUpload(e1, s));
    checkCudaErrors(cudaGraphLaunch(e2, s));          // (0+3)*2+3 = 9
    checkCudaErrors(cudaGraphLaunch(e1, s));          // (9+3)*2+100 = 124
    checkCudaErrors(cudaStreamSynchronize(s));
    checkCudaErrors(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    if (h[0] != 124 || h[31] != 124) { printf("child/clone graphs %d\n", h[0]); ok = false; }
    // captured loop reading a host-updated device value through a kernel argument pointer
    int *iter;
    checkCudaErrors(cudaMallocManaged(&iter, sizeof(int)));
    cudaGraph_t g;
    checkCudaErrors(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    add<<<1, 32, 0, s>>>(d, 1);
    checkCudaErrors(cudaMemcpyAsync(iter, d, sizeof(int), cudaMemcpyDeviceToDevice, s));
    checkCudaErrors(cudaStreamEndCapture(s, &g));
    cudaGraphExec_t ge;
    checkCudaErrors(cudaGraphInstantiate(&ge, g, 0));
    for (int k = 0; k < 100; k++) checkCudaErrors(cudaGraphLaunch(ge, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    if (*iter != 224) { printf("captured loop %d\n", *iter); ok = false; }
    SMP_RESULT("smp_graphs2", ok);
}
