// smp_graphmem.cu - graphMemoryNodes pattern: cudaMallocAsync/cudaFreeAsync captured into a graph
// (memory allocation and free nodes) around a copy and a reduction, launched twice.
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

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    const int n = 1 << 16, blocks = 32, threads = 256;
    float *h_in;
    checkCudaErrors(cudaMallocHost(&h_in, n * sizeof(float)));
    for (int i = 0; i < n; i++) h_in[i] = (float)(i % 7);
    double ref = 0; for (int i = 0; i < n; i++) ref += h_in[i];
    double *d_part, *d_res, *h_res;
    checkCudaErrors(cudaMalloc(&d_part, blocks * sizeof(double)));
    checkCudaErrors(cudaMalloc(&d_res, sizeof(double)));
    checkCudaErrors(cudaMallocHost(&h_res, sizeof(double)));
    cudaStream_t s;
    checkCudaErrors(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    // graph memory nodes through capture
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
    cudaGraphExec_t mexec;
    checkCudaErrors(cudaGraphInstantiate(&mexec, mg, 0));
    *h_res = -1;
    checkCudaErrors(cudaGraphLaunch(mexec, s));
    checkCudaErrors(cudaGraphLaunch(mexec, s));
    checkCudaErrors(cudaStreamSynchronize(s));
    if (*h_res != ref) { printf("memory nodes %f\n", *h_res); ok = false; }
    checkCudaErrors(cudaGraphExecDestroy(mexec)); checkCudaErrors(cudaGraphDestroy(mg));
    SMP_RESULT("smp_graphmem", ok);
}
