// smp_graphmem.cu - the graphMemoryNodes pattern: cudaMallocAsync/cudaFreeAsync captured into a
// graph (memory alloc and free nodes) around a copy and a reduction, launched repeatedly; explicit
// alloc nodes whose memory outlives the launch and is freed by a stream, relaunch rules with and
// without cudaGraphInstantiateFlagAutoFreeOnLaunch, node parameters and memory attributes.
#include "smp_helper.h"

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
__global__ void fill(int *a, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = v + i;
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    const int n = 1 << 16, blocks = 32, threads = 256;
    float *h_in;
    checkCudaErrors(cudaMallocHost(&h_in, n * sizeof(float)));
    for (int i = 0; i < n; i++) h_in[i] = (float)(i % 7);
    double ref = 0;
    for (int i = 0; i < n; i++) ref += h_in[i];
    double *d_part, *d_res, *h_res;
    checkCudaErrors(cudaMalloc(&d_part, blocks * sizeof(double)));
    checkCudaErrors(cudaMalloc(&d_res, sizeof(double)));
    checkCudaErrors(cudaMallocHost(&h_res, sizeof(double)));
    cudaStream_t s;
    checkCudaErrors(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    // 1. captured alloc and free nodes; the graph runs twice with the same address
    cudaGraph_t mg;
    float *d_tmp = NULL;
    checkCudaErrors(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    checkCudaErrors(cudaMallocAsync((void **)&d_tmp, n * sizeof(float), s));
    checkCudaErrors(cudaMemcpyAsync(d_tmp, h_in, n * sizeof(float), cudaMemcpyHostToDevice, s));
    reduce_stage1<<<blocks, threads, 0, s>>>(d_tmp, d_part, n);
    checkCudaErrors(cudaFreeAsync(d_tmp, s));
    reduce_final<<<1, 32, 0, s>>>(d_part, d_res, blocks);
    checkCudaErrors(cudaMemcpyAsync(h_res, d_res, sizeof(double), cudaMemcpyDeviceToHost, s));
    checkCudaErrors(cudaStreamEndCapture(s, &mg));
    if (!d_tmp) { printf("capture gave no address\n"); ok = false; }
    size_t nn = 0;
    checkCudaErrors(cudaGraphGetNodes(mg, NULL, &nn));
    cudaGraphNode_t nodes[16];
    checkCudaErrors(cudaGraphGetNodes(mg, nodes, &nn));
    int allocs = 0, frees = 0;
    for (size_t i = 0; i < nn; i++) {
        cudaGraphNodeType t;
        checkCudaErrors(cudaGraphNodeGetType(nodes[i], &t));
        if (t == cudaGraphNodeTypeMemAlloc) {
            cudaMemAllocNodeParams p;
            checkCudaErrors(cudaGraphMemAllocNodeGetParams(nodes[i], &p));
            if (p.dptr != d_tmp || p.bytesize != n * sizeof(float)) ok = false;
            allocs++;
        } else if (t == cudaGraphNodeTypeMemFree) {
            void *fp = NULL;
            checkCudaErrors(cudaGraphMemFreeNodeGetParams(nodes[i], &fp));
            if (fp != d_tmp) ok = false;
            frees++;
        }
    }
    if (nn != 6 || allocs != 1 || frees != 1) { printf("nodes %zu %d %d\n", nn, allocs, frees); ok = false; }
    cudaGraphExec_t mexec;
    checkCudaErrors(cudaGraphInstantiate(&mexec, mg, 0));
    for (int rep = 0; rep < 3; rep++) {
        *h_res = -1;
        checkCudaErrors(cudaGraphLaunch(mexec, s));
        checkCudaErrors(cudaStreamSynchronize(s));
        if (*h_res != ref) { printf("memory nodes %f\n", *h_res); ok = false; }
    }
    checkCudaErrors(cudaGraphExecDestroy(mexec));
    checkCudaErrors(cudaGraphDestroy(mg));

    // 2. an explicit alloc node without a free node: the memory outlives the launch
    const int m = 1000;
    cudaGraph_t g;
    checkCudaErrors(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = m * sizeof(int);
    cudaGraphNode_t an, kn;
    checkCudaErrors(cudaGraphAddMemAllocNode(&an, g, NULL, 0, &ap));
    int *d_a = (int *)ap.dptr;
    int base = 7;
    int len = m;
    void *args[] = { &d_a, &len, &base };
    cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    kp.func = (void *)fill;
    kp.gridDim = dim3((m + 255) / 256);
    kp.blockDim = dim3(256);
    kp.kernelParams = args;
    checkCudaErrors(cudaGraphAddKernelNode(&kn, g, &an, 1, &kp));
    cudaGraphExec_t x;
    checkCudaErrors(cudaGraphInstantiate(&x, g, 0));
    cudaGraphExec_t x2;
    if (cudaGraphInstantiate(&x2, g, 0) == cudaSuccess) { printf("second instantiation\n"); ok = false; }
    cudaGetLastError();
    int *h_a;
    checkCudaErrors(cudaMallocHost(&h_a, m * sizeof(int)));
    unsigned long long used = 0;
    for (int rep = 0; rep < 2; rep++) {
        checkCudaErrors(cudaGraphLaunch(x, s));
        checkCudaErrors(cudaMemcpyAsync(h_a, d_a, m * sizeof(int), cudaMemcpyDeviceToHost, s));
        checkCudaErrors(cudaStreamSynchronize(s));
        for (int i = 0; i < m; i++)
            if (h_a[i] != base + i) { ok = false; break; }
        checkCudaErrors(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
        if (used < m * sizeof(int)) { printf("used %llu\n", used); ok = false; }
        // relaunching while the allocation is live is an error
        if (cudaGraphLaunch(x, s) == cudaSuccess) { printf("relaunch while live\n"); ok = false; }
        cudaGetLastError();
        checkCudaErrors(cudaFreeAsync(d_a, s));       // freed outside the graph
        checkCudaErrors(cudaStreamSynchronize(s));
        base += 100;
        checkCudaErrors(cudaGraphExecKernelNodeSetParams(x, kn, &kp));
    }
    checkCudaErrors(cudaGraphExecDestroy(x));

    // 3. AutoFreeOnLaunch: a relaunch frees what the previous launch left allocated
    checkCudaErrors(cudaGraphInstantiateWithFlags(&x, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    for (int rep = 0; rep < 3; rep++) {
        base = 1000 * rep;
        checkCudaErrors(cudaGraphExecKernelNodeSetParams(x, kn, &kp));
        checkCudaErrors(cudaGraphLaunch(x, s));
        checkCudaErrors(cudaMemcpyAsync(h_a, d_a, m * sizeof(int), cudaMemcpyDeviceToHost, s));
        checkCudaErrors(cudaStreamSynchronize(s));
        for (int i = 0; i < m; i++)
            if (h_a[i] != base + i) { printf("autofree %d\n", rep); ok = false; break; }
    }
    checkCudaErrors(cudaFreeAsync(d_a, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    checkCudaErrors(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
    if (used != 0) { printf("used after free %llu\n", used); ok = false; }
    checkCudaErrors(cudaGraphExecDestroy(x));
    checkCudaErrors(cudaGraphDestroy(g));
    checkCudaErrors(cudaDeviceGraphMemTrim(0));
    checkCudaErrors(cudaFreeHost(h_a));
    checkCudaErrors(cudaFreeHost(h_in));
    checkCudaErrors(cudaFreeHost(h_res));
    checkCudaErrors(cudaFree(d_part));
    checkCudaErrors(cudaFree(d_res));
    checkCudaErrors(cudaStreamDestroy(s));
    SMP_RESULT("smp_graphmem", ok);
}
