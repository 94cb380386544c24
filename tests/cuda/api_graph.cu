// api_graph.cu - stream capture (with a fork/join through events) and explicit CUDA graphs
// (kernel, memcpy, memset, host, empty and child nodes), launched repeatedly, updated, checked
// against a C reference.
#include <string.h>
#include "cuda_check.h"

__global__ void scale_add(float *y, const float *x, float a, float b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + b;
}

__global__ void add_into(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += x[i];
}

__constant__ float coef[4];
__device__ float result[4];

__global__ void use_coef()
{
    result[threadIdx.x] = coef[threadIdx.x] * 10.0f + threadIdx.x;
}

static int host_calls;
static void CUDART_CB count_call(void *p) { host_calls += *(int *)p; }

int main()
{
    const int n = 1000, bs = 128, gs = (n + bs - 1) / bs;
    size_t bytes = n * sizeof(float);
    float *hx = (float *)malloc(bytes), *hy = (float *)malloc(bytes), *ref = (float *)malloc(bytes);
    for (int i = 0; i < n; i++) hx[i] = (float)(i % 37) - 5.0f;
    float *x, *y, *z;
    CHECK(cudaMalloc(&x, bytes));
    CHECK(cudaMalloc(&y, bytes));
    CHECK(cudaMalloc(&z, bytes));

    // ---- capture: s1 copies x in and computes y = 2x + 1; fork s2: z = 3x - 2; join: y += z;
    // copy y out. Launched 3 times; nothing runs during capture.
    cudaStream_t s1, s2;
    cudaEvent_t fork, join;
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    memset(hy, 0, bytes);
    CHECK(cudaMemset(y, 0, bytes));
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus st;
    CHECK(cudaStreamIsCapturing(s1, &st));
    EXPECT(st == cudaStreamCaptureStatusActive, "capture status %d", (int)st);
    CHECK(cudaMemcpyAsync(x, hx, bytes, cudaMemcpyHostToDevice, s1));
    CHECK(cudaEventRecord(fork, s1));
    CHECK(cudaStreamWaitEvent(s2, fork, 0));
    scale_add<<<gs, bs, 0, s1>>>(y, x, 2.0f, 1.0f, n);
    scale_add<<<gs, bs, 0, s2>>>(z, x, 3.0f, -2.0f, n);
    CHECK(cudaEventRecord(join, s2));
    CHECK(cudaStreamWaitEvent(s1, join, 0));
    add_into<<<gs, bs, 0, s1>>>(y, z, n);
    CHECK(cudaMemcpyAsync(hy, y, bytes, cudaMemcpyDeviceToHost, s1));
    cudaGraph_t graph;
    CHECK(cudaStreamEndCapture(s1, &graph));
    CHECK(cudaStreamIsCapturing(s1, &st));
    EXPECT(st == cudaStreamCaptureStatusNone, "still capturing");
    for (int i = 0; i < n; i++) EXPECT(hy[i] == 0.0f, "captured work ran: hy[%d] = %g", i, hy[i]);
    size_t nn = 0;
    CHECK(cudaGraphGetNodes(graph, NULL, &nn));
    EXPECT(nn == 5, "captured %zu nodes, want 5", nn);
    size_t ne = 0;
    CHECK(cudaGraphGetEdges(graph, NULL, NULL, NULL, &ne));
    EXPECT(ne == 5, "captured %zu edges, want 5", ne);   // cp->k1, cp->k2, k1->add, k2->add, add->cp
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int rep = 0; rep < 3; rep++) {
        memset(hy, 0, bytes);
        CHECK(cudaGraphLaunch(exec, s1));
        CHECK(cudaStreamSynchronize(s1));
        for (int i = 0; i < n; i++) {
            float want = (2.0f * hx[i] + 1.0f) + (3.0f * hx[i] - 2.0f);
            EXPECT(hy[i] == want, "capture rep %d: y[%d] = %g, want %g", rep, i, hy[i], want);
        }
    }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));

    // ---- explicit graph: memset z = 0 -> kernel y = a*x + b -> {kernel z += y, host} ->
    // child graph (memcpy y -> host) -> empty
    cudaGraph_t g, child;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t nset, nk1, nk2, nhost, nchild, nempty, ncp;
    cudaMemsetParams mp = {};
    mp.dst = z; mp.value = 0; mp.elementSize = 4; mp.width = n; mp.height = 1;
    CHECK(cudaGraphAddMemsetNode(&nset, g, NULL, 0, &mp));
    float a = 0.5f, b = 4.0f;
    int nv = n;
    void *args1[] = {&y, &x, &a, &b, &nv};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)scale_add;
    kp.gridDim = dim3(gs); kp.blockDim = dim3(bs);
    kp.kernelParams = args1;
    CHECK(cudaGraphAddKernelNode(&nk1, g, &nset, 1, &kp));
    void *args2[] = {&z, &y, &nv};
    cudaKernelNodeParams kp2 = kp;
    kp2.func = (void *)add_into;
    kp2.kernelParams = args2;
    CHECK(cudaGraphAddKernelNode(&nk2, g, &nk1, 1, &kp2));
    int inc = 1;
    cudaHostNodeParams hp = {count_call, &inc};
    CHECK(cudaGraphAddHostNode(&nhost, g, &nk1, 1, &hp));
    CHECK(cudaGraphCreate(&child, 0));
    CHECK(cudaGraphAddMemcpyNode1D(&ncp, child, NULL, 0, hy, z, bytes, cudaMemcpyDeviceToHost));
    cudaGraphNode_t deps2[] = {nk2, nhost};
    CHECK(cudaGraphAddChildGraphNode(&nchild, g, deps2, 2, child));
    CHECK(cudaGraphAddEmptyNode(&nempty, g, &nchild, 1));
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(nchild, &t));
    EXPECT(t == cudaGraphNodeTypeGraph, "child node type %d", (int)t);
    size_t nroots = 0;
    CHECK(cudaGraphGetRootNodes(g, NULL, &nroots));
    EXPECT(nroots == 1, "%zu roots", nroots);
    cudaKernelNodeParams got = {};
    CHECK(cudaGraphKernelNodeGetParams(nk1, &got));
    EXPECT(got.func == (void *)scale_add && got.gridDim.x == (unsigned)gs &&
               *(float *)got.kernelParams[2] == 0.5f, "kernel node params read back wrong");
    CHECK(cudaMemcpy(x, hx, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        EXPECT(hy[i] == 0.5f * hx[i] + 4.0f, "graph: z[%d] = %g", i, hy[i]);
    EXPECT(host_calls == 1, "host node ran %d times", host_calls);
    // change the kernel's parameters in the executable graph only
    a = -1.0f;
    b = 2.0f;
    CHECK(cudaGraphExecKernelNodeSetParams(exec, nk1, &kp));
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        EXPECT(hy[i] == -hx[i] + 2.0f, "exec update: z[%d] = %g", i, hy[i]);
    // a whole-graph update from a graph of the same shape
    a = 3.0f;
    b = 0.0f;
    CHECK(cudaGraphKernelNodeSetParams(nk1, &kp));
    cudaGraphExecUpdateResultInfo info;
    CHECK(cudaGraphExecUpdate(exec, g, &info));
    EXPECT(info.result == cudaGraphExecUpdateSuccess, "update result %d", (int)info.result);
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        EXPECT(hy[i] == 3.0f * hx[i], "graph update: z[%d] = %g", i, hy[i]);
    EXPECT(host_calls == 3, "host node ran %d times", host_calls);
    // a disabled kernel node is skipped: z stays as the memset left it
    CHECK(cudaGraphNodeSetEnabled(exec, nk2, 0));
    unsigned en = 1;
    CHECK(cudaGraphNodeGetEnabled(exec, nk2, &en));
    EXPECT(en == 0, "node still enabled");
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++) EXPECT(hy[i] == 0.0f, "disabled node ran: z[%d] = %g", i, hy[i]);
    CHECK(cudaGraphNodeSetEnabled(exec, nk2, 1));
    unsigned long long xf = 1;
    CHECK(cudaGraphExecGetFlags(exec, &xf));
    EXPECT(xf == 0, "exec flags %llu", xf);
    // a clone's nodes are found from the original's
    cudaGraph_t cl;
    cudaGraphNode_t cnk1;
    CHECK(cudaGraphClone(&cl, g));
    CHECK(cudaGraphNodeFindInClone(&cnk1, nk1, cl));
    CHECK(cudaGraphKernelNodeGetParams(cnk1, &got));
    EXPECT(cnk1 != nk1 && got.func == (void *)scale_add && *(float *)got.kernelParams[2] == 3.0f,
           "clone's kernel node");
    CHECK(cudaGraphDestroy(cl));
    // a graph of another shape is refused
    cudaGraph_t other;
    CHECK(cudaGraphCreate(&other, 0));
    cudaGraphNode_t e1;
    CHECK(cudaGraphAddEmptyNode(&e1, other, NULL, 0));
    cudaError_t ue = cudaGraphExecUpdate(exec, other, &info);
    EXPECT(ue == cudaErrorGraphExecUpdateFailure && info.result != cudaGraphExecUpdateSuccess,
           "update across shapes gave %s", cudaGetErrorName(ue));
    (void)cudaGetLastError();
    // a cycle cannot be instantiated
    cudaGraphNode_t e2;
    CHECK(cudaGraphAddEmptyNode(&e2, other, &e1, 1));
    CHECK(cudaGraphAddDependencies(other, &e2, &e1, NULL, 1));
    cudaGraphExec_t bad;
    EXPECT(cudaGraphInstantiate(&bad, other, 0) != cudaSuccess, "cycle instantiated");
    (void)cudaGetLastError();
    CHECK(cudaGraphDestroy(other));
    CHECK(cudaGraphExecDestroy(exec));
    // symbol copies as nodes: __constant__ in, kernel, __device__ out
    cudaGraph_t sg;
    cudaGraphNode_t to, k3, from;
    float hc[4] = {1.5f, -2.0f, 0.25f, 8.0f}, hr[4] = {0, 0, 0, 0};
    CHECK(cudaGraphCreate(&sg, 0));
    CHECK(cudaGraphAddMemcpyNodeToSymbol(&to, sg, NULL, 0, coef, hc, sizeof hc, 0,
                                         cudaMemcpyHostToDevice));
    cudaKernelNodeParams kp3 = {};
    kp3.func = (void *)use_coef;
    kp3.gridDim = dim3(1);
    kp3.blockDim = dim3(4);
    kp3.kernelParams = NULL;
    CHECK(cudaGraphAddKernelNode(&k3, sg, &to, 1, &kp3));
    CHECK(cudaGraphAddMemcpyNodeFromSymbol(&from, sg, &k3, 1, hr, result, sizeof hr, 0,
                                           cudaMemcpyDeviceToHost));
    cudaGraphExec_t sx;
    CHECK(cudaGraphInstantiate(&sx, sg, 0));
    CHECK(cudaGraphLaunch(sx, 0));
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < 4; i++)
        EXPECT(hr[i] == hc[i] * 10.0f + i, "symbol graph: result[%d] = %g", i, hr[i]);
    CHECK(cudaGraphExecDestroy(sx));
    CHECK(cudaGraphDestroy(sg));
    CHECK(cudaGraphDestroy(child));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    printf("api_graph: PASSED\n");
    return 0;
}
