// smp_graphs.cu - simpleCudaGraphs / jacobiCudaGraphs / graphMemoryNodes patterns: a graph built
// by hand (memcpy, memset, kernel and host nodes with dependencies), the same work captured from
// streams (fork/join through events), instantiated once and launched many times, a kernel node's
// parameters updated with cudaGraphExecKernelNodeSetParams, cudaGraphExecUpdate of a re-captured
// graph.
#include "smp_helper.h"
#include <vector>

__global__ void reduce_stage1(const float *in, double *out, int n)
{
    __shared__ double sh[256];
    double s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += in[i];
    sh[threadIdx.x] = s;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k /= 2) {
        if (threadIdx.x < k) sh[threadIdx.x] += sh[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = sh[0];
}
__global__ void reduce_final(const double *in, double *out, int n)
{
    if (threadIdx.x == 0) {
        double s = 0;
        for (int i = 0; i < n; i++) s += in[i];
        *out = s;
    }
}
__global__ void axpy(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i] + 1.0f;
}
struct host_data { double *result; int calls; double seen; };
static void CUDART_CB host_node(void *p)
{
    host_data *h = (host_data *)p;
    h->calls++;
    h->seen = *h->result;
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    const int n = 1 << 16, blocks = 32, threads = 256;
    float *h_in;
    checkCudaErrors(cudaMallocHost(&h_in, n * sizeof(float)));
    for (int i = 0; i < n; i++) h_in[i] = (float)(i % 7);
    double ref = 0; for (int i = 0; i < n; i++) ref += h_in[i];
    float *d_in; double *d_part, *d_res, *h_res;
    checkCudaErrors(cudaMalloc(&d_in, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_part, blocks * sizeof(double)));
    checkCudaErrors(cudaMalloc(&d_res, sizeof(double)));
    checkCudaErrors(cudaMallocHost(&h_res, sizeof(double)));
    cudaStream_t s;
    checkCudaErrors(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    // manual graph
    cudaGraph_t graph;
    checkCudaErrors(cudaGraphCreate(&graph, 0));
    std::vector<cudaGraphNode_t> deps;
    cudaGraphNode_t copyNode, memsetNode, k1, k2, back, hostN;
    cudaMemcpy3DParms mp = {0};
    mp.srcPtr = make_cudaPitchedPtr(h_in, n * sizeof(float), n, 1);
    mp.dstPtr = make_cudaPitchedPtr(d_in, n * sizeof(float), n, 1);
    mp.extent = make_cudaExtent(n * sizeof(float), 1, 1);
    mp.kind = cudaMemcpyHostToDevice;
    checkCudaErrors(cudaGraphAddMemcpyNode(&copyNode, graph, NULL, 0, &mp));
    cudaMemsetParams msp = {0};
    msp.dst = d_part; msp.value = 0; msp.pitch = 0; msp.elementSize = sizeof(float); msp.width = blocks * 2; msp.height = 1;
    checkCudaErrors(cudaGraphAddMemsetNode(&memsetNode, graph, NULL, 0, &msp));
    cudaKernelNodeParams kp = {0};
    int nn = n;
    void *args1[] = {(void *)&d_in, (void *)&d_part, (void *)&nn};
    kp.func = (void *)reduce_stage1; kp.gridDim = dim3(blocks); kp.blockDim = dim3(threads); kp.kernelParams = args1;
    cudaGraphNode_t d1[] = {copyNode, memsetNode};
    checkCudaErrors(cudaGraphAddKernelNode(&k1, graph, d1, 2, &kp));
    int nb = blocks;
    void *args2[] = {(void *)&d_part, (void *)&d_res, (void *)&nb};
    kp.func = (void *)reduce_final; kp.gridDim = dim3(1); kp.blockDim = dim3(32); kp.kernelParams = args2;
    checkCudaErrors(cudaGraphAddKernelNode(&k2, graph, &k1, 1, &kp));
    checkCudaErrors(cudaGraphAddMemcpyNode1D(&back, graph, &k2, 1, h_res, d_res, sizeof(double), cudaMemcpyDeviceToHost));
    host_data hd = {h_res, 0, 0};
    cudaHostNodeParams hp = {host_node, &hd};
    checkCudaErrors(cudaGraphAddHostNode(&hostN, graph, &back, 1, &hp));
    size_t numNodes = 0;
    checkCudaErrors(cudaGraphGetNodes(graph, NULL, &numNodes));
    printf("Num of nodes in the graph created manually = %zu\n", numNodes);
    if (numNodes != 6) ok = false;
    cudaGraphExec_t exec;
    checkCudaErrors(cudaGraphInstantiate(&exec, graph, 0));
    for (int i = 0; i < 3; i++) checkCudaErrors(cudaGraphLaunch(exec, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    if (hd.calls != 3 || hd.seen != ref || *h_res != ref) { printf("manual graph %d %f %f\n", hd.calls, hd.seen, ref); ok = false; }
    // update the kernel node to sum only half the input
    int half = n / 2;
    void *args3[] = {(void *)&d_in, (void *)&d_part, (void *)&half};
    kp.func = (void *)reduce_stage1; kp.gridDim = dim3(blocks); kp.blockDim = dim3(threads); kp.kernelParams = args3;
    checkCudaErrors(cudaGraphExecKernelNodeSetParams(exec, k1, &kp));
    checkCudaErrors(cudaGraphLaunch(exec, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    double ref_half = 0; for (int i = 0; i < half; i++) ref_half += h_in[i];
    if (*h_res != ref_half) { printf("node update %f vs %f\n", *h_res, ref_half); ok = false; }
    // stream capture with fork/join
    cudaStream_t s2;
    checkCudaErrors(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t fork, join;
    checkCudaErrors(cudaEventCreate(&fork)); checkCudaErrors(cudaEventCreate(&join));
    float *d_x; checkCudaErrors(cudaMalloc(&d_x, n * sizeof(float)));
    cudaGraph_t cg;
    checkCudaErrors(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus cst;
    checkCudaErrors(cudaStreamIsCapturing(s, &cst));
    if (cst != cudaStreamCaptureStatusActive) ok = false;
    checkCudaErrors(cudaMemcpyAsync(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice, s));
    checkCudaErrors(cudaEventRecord(fork, s));
    checkCudaErrors(cudaStreamWaitEvent(s2, fork, 0));
    checkCudaErrors(cudaMemsetAsync(d_x, 0, n * sizeof(float), s2));
    axpy<<<n / 256, 256, 0, s2>>>(d_x, 2.0f, n);
    checkCudaErrors(cudaEventRecord(join, s2));
    reduce_stage1<<<blocks, threads, 0, s>>>(d_in, d_part, n);
    checkCudaErrors(cudaStreamWaitEvent(s, join, 0));
    reduce_final<<<1, 32, 0, s>>>(d_part, d_res, blocks);
    checkCudaErrors(cudaMemcpyAsync(h_res, d_res, sizeof(double), cudaMemcpyDeviceToHost, s));
    checkCudaErrors(cudaStreamEndCapture(s, &cg));
    checkCudaErrors(cudaGraphGetNodes(cg, NULL, &numNodes));
    printf("Num of nodes in the graph created using stream capture API = %zu\n", numNodes);
    cudaGraphExec_t cexec;
    checkCudaErrors(cudaGraphInstantiate(&cexec, cg, NULL, NULL, 0));
    *h_res = -1;
    for (int i = 0; i < 5; i++) checkCudaErrors(cudaGraphLaunch(cexec, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    float hx[4];
    checkCudaErrors(cudaMemcpy(hx, d_x, sizeof(hx), cudaMemcpyDeviceToHost));
    if (*h_res != ref || hx[0] != 1.0f) { printf("captured graph %f %f\n", *h_res, hx[0]); ok = false; }
    // re-capture with a different scale and update the executable graph in place
    cudaGraph_t cg2;
    checkCudaErrors(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    axpy<<<n / 256, 256, 0, s>>>(d_x, 3.0f, n);
    checkCudaErrors(cudaStreamEndCapture(s, &cg2));
    cudaGraphExec_t e2;
    checkCudaErrors(cudaGraphInstantiateWithFlags(&e2, cg2, 0));
    cudaGraph_t cg3;
    checkCudaErrors(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    axpy<<<n / 256, 256, 0, s>>>(d_x, 0.0f, n);
    checkCudaErrors(cudaStreamEndCapture(s, &cg3));
    cudaGraphExecUpdateResultInfo info;
    checkCudaErrors(cudaGraphExecUpdate(e2, cg3, &info));
    checkCudaErrors(cudaGraphLaunch(e2, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    checkCudaErrors(cudaMemcpy(hx, d_x, sizeof(hx), cudaMemcpyDeviceToHost));
    if (hx[0] != 1.0f) { printf("exec update %f\n", hx[0]); ok = false; }
    checkCudaErrors(cudaGraphExecDestroy(e2)); checkCudaErrors(cudaGraphDestroy(cg2)); checkCudaErrors(cudaGraphDestroy(cg3));
    checkCudaErrors(cudaGraphExecDestroy(cexec)); checkCudaErrors(cudaGraphDestroy(cg));
    checkCudaErrors(cudaGraphExecDestroy(exec)); checkCudaErrors(cudaGraphDestroy(graph));
    SMP_RESULT("smp_graphs", ok);
}
// cuda-static-build
