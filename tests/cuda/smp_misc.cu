// smp_misc.cu - simpleOccupancy / simpleAttributes / cppOverload / simpleTemplates / inlinePTX /
// simpleMultiGPU-style device loops: occupancy-chosen block sizes, cudaFuncGetAttributes on
// overloaded kernels through function pointers, the L2 access policy window on a stream,
// templated kernels on a SharedMemory<T> helper, inline PTX, cudaDeviceGetPCIBusId,
// cudaGetDeviceProperties fields programs print, cudaRuntimeGetVersion/cudaDriverGetVersion.
#include "smp_helper.h"

__global__ void square(int *array, int arrayCount)
{
    extern __shared__ int dynamicSmem[];
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    if (idx < arrayCount) array[idx] *= array[idx];
}
__global__ void simple_kernel(const int *pIn, int *pOut, int a)
{
    __shared__ int sData[256];
    const int tid = threadIdx.x + blockDim.x * blockIdx.x;
    sData[threadIdx.x] = pIn[tid];
    __syncthreads();
    pOut[tid] = sData[threadIdx.x] * a + tid;
}
__global__ void simple_kernel(const int2 *pIn, int *pOut, int a)
{
    __shared__ int2 sData[256];
    const int tid = threadIdx.x + blockDim.x * blockIdx.x;
    sData[threadIdx.x] = pIn[tid];
    __syncthreads();
    pOut[tid] = (sData[threadIdx.x].x + sData[threadIdx.x].y) * a + tid;
}
__global__ void simple_kernel(const int *pIn1, const int *pIn2, int *pOut, int a)
{
    const int tid = threadIdx.x + blockDim.x * blockIdx.x;
    pOut[tid] = (pIn1[tid] + pIn2[tid]) * a + tid;
}
template <class T> struct SharedMemory {
    __device__ inline operator T *() { extern __shared__ int __smem[]; return (T *)__smem; }
};
template <class T> __global__ void testKernel(T *g_idata, T *g_odata)
{
    T *sdata = SharedMemory<T>();
    const unsigned tid = threadIdx.x, num_threads = blockDim.x;
    sdata[tid] = g_idata[tid];
    __syncthreads();
    sdata[tid] = (T)num_threads * sdata[tid];
    __syncthreads();
    g_odata[tid] = sdata[tid];
}
__global__ void sequence_gpu(int *d_ptr, int length)
{
    int elemID = blockIdx.x * blockDim.x + threadIdx.x;
    if (elemID < length) {
        unsigned int laneid;
        asm("mov.u32 %0, %%laneid;" : "=r"(laneid));
        d_ptr[elemID] = laneid;
    }
}
__global__ void persist(int *data, int n, int *stream_data)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) stream_data[i] = data[i % 64] + i;
}

template <class T> static bool run_template(int n)
{
    T *h = (T *)malloc(n * sizeof(T)), *d_i, *d_o;
    for (int i = 0; i < n; i++) h[i] = (T)i;
    checkCudaErrors(cudaMalloc(&d_i, n * sizeof(T))); checkCudaErrors(cudaMalloc(&d_o, n * sizeof(T)));
    checkCudaErrors(cudaMemcpy(d_i, h, n * sizeof(T), cudaMemcpyHostToDevice));
    testKernel<T><<<1, n, n * sizeof(T)>>>(d_i, d_o);
    getLastCudaError("testKernel");
    checkCudaErrors(cudaMemcpy(h, d_o, n * sizeof(T), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if (h[i] != (T)n * (T)i) return false;
    return true;
}

int main(int argc, char **argv)
{
    int dev = findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    cudaDeviceProp prop;
    checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
    printf("  Total amount of global memory: %.0f MBytes\n", prop.totalGlobalMem / 1048576.0);
    printf("  (%2d) Multiprocessors, (%3d) CUDA Cores/MP: %d CUDA Cores\n", prop.multiProcessorCount,
           smp_cores_per_sm(prop.major, prop.minor), smp_cores_per_sm(prop.major, prop.minor) * prop.multiProcessorCount);
    printf("  Warp size: %d, max threads/block %d, regs/block %d, smem/block %zu, L2 %d\n", prop.warpSize,
           prop.maxThreadsPerBlock, prop.regsPerBlock, prop.sharedMemPerBlock, prop.l2CacheSize);
    if (prop.warpSize != 32 || prop.maxThreadsPerBlock < 1024 || prop.multiProcessorCount < 1) ok = false;
    int rv, dv;
    checkCudaErrors(cudaRuntimeGetVersion(&rv)); checkCudaErrors(cudaDriverGetVersion(&dv));
    if (rv < 12000 || dv < rv) { printf("versions %d %d\n", rv, dv); ok = false; }
    char bus[32];
    checkCudaErrors(cudaDeviceGetPCIBusId(bus, sizeof bus, dev));
    // occupancy
    int N = 1000000, *array, blockSize, minGridSize;
    checkCudaErrors(cudaMallocManaged(&array, N * sizeof(int)));
    for (int i = 0; i < N; i++) array[i] = i % 1000;
    checkCudaErrors(cudaOccupancyMaxPotentialBlockSize(&minGridSize, &blockSize, (void *)square, 0, N));
    int gridSize = (N + blockSize - 1) / blockSize;
    square<<<gridSize, blockSize>>>(array, N);
    checkCudaErrors(cudaDeviceSynchronize());
    int maxActiveBlocks;
    checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&maxActiveBlocks, square, blockSize, 0));
    float occupancy = (maxActiveBlocks * blockSize / prop.warpSize) / (float)(prop.maxThreadsPerMultiProcessor / prop.warpSize);
    printf("Launched blocks of size %d. Theoretical occupancy: %f\n", blockSize, occupancy);
    if (!(occupancy > 0 && occupancy <= 1)) ok = false;
    for (int i = 0; i < N; i++) if (array[i] != (i % 1000) * (i % 1000)) { printf("square %d\n", i); ok = false; break; }
    int bs2, mg2;
    auto smem_for = [](int b) -> size_t { return b * sizeof(int); };
    checkCudaErrors(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&mg2, &bs2, square, smem_for));
    if (bs2 <= 0 || bs2 > 1024) ok = false;
    // overloads
    void (*func1)(const int *, int *, int) = simple_kernel;
    void (*func2)(const int2 *, int *, int) = simple_kernel;
    void (*func3)(const int *, const int *, int *, int) = simple_kernel;
    cudaFuncAttributes attr;
    memset(&attr, 0, sizeof attr);
    checkCudaErrors(cudaFuncSetCacheConfig(*func1, cudaFuncCachePreferShared));
    checkCudaErrors(cudaFuncGetAttributes(&attr, *func1));
    if (attr.sharedSizeBytes != 256 * sizeof(int)) { printf("attr1 shared %zu\n", attr.sharedSizeBytes); ok = false; }
    checkCudaErrors(cudaFuncGetAttributes(&attr, *func2));
    if (attr.sharedSizeBytes != 256 * sizeof(int2)) { printf("attr2 shared %zu\n", attr.sharedSizeBytes); ok = false; }
    checkCudaErrors(cudaFuncGetAttributes(&attr, *func3));
    if (attr.sharedSizeBytes != 0 || attr.maxThreadsPerBlock <= 0) { printf("attr3 shared %zu\n", attr.sharedSizeBytes); ok = false; }
    int *dIn, *dIn2, *dOut, hOut[512];
    checkCudaErrors(cudaMalloc(&dIn, 1024 * sizeof(int))); checkCudaErrors(cudaMalloc(&dIn2, 1024 * sizeof(int)));
    checkCudaErrors(cudaMalloc(&dOut, 512 * sizeof(int)));
    int hIn[1024]; for (int i = 0; i < 1024; i++) hIn[i] = i;
    checkCudaErrors(cudaMemcpy(dIn, hIn, sizeof(hIn), cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(dIn2, hIn, sizeof(hIn), cudaMemcpyHostToDevice));
    (*func1)<<<2, 256>>>(dIn, dOut, 2);
    checkCudaErrors(cudaMemcpy(hOut, dOut, sizeof(hOut), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 512; i++) if (hOut[i] != 2 * i + i) { printf("overload1 %d\n", i); ok = false; break; }
    (*func2)<<<2, 256>>>((int2 *)dIn, dOut, 3);
    checkCudaErrors(cudaMemcpy(hOut, dOut, sizeof(hOut), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 512; i++) if (hOut[i] != (4 * i + 1) * 3 + i) { printf("overload2 %d\n", i); ok = false; break; }
    (*func3)<<<2, 256>>>(dIn, dIn2, dOut, 4);
    checkCudaErrors(cudaMemcpy(hOut, dOut, sizeof(hOut), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 512; i++) if (hOut[i] != 8 * i + i) { printf("overload3 %d\n", i); ok = false; break; }
    // templates
    ok &= run_template<int>(64);
    ok &= run_template<float>(128);
    ok &= run_template<double>(96);
    if (!ok) printf("after templates\n");
    // inline PTX
    const int L = 1000;
    int *d_ptr, *h_ptr = (int *)malloc(L * sizeof(int));
    checkCudaErrors(cudaMalloc(&d_ptr, L * sizeof(int)));
    sequence_gpu<<<(L + 255) / 256, 256>>>(d_ptr, L);
    checkCudaErrors(cudaMemcpy(h_ptr, d_ptr, L * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < L; i++) if (h_ptr[i] != (i & 31)) { printf("inline ptx %d\n", i); ok = false; break; }
    // access policy window (simpleAttributes)
    cudaStream_t st;
    checkCudaErrors(cudaStreamCreate(&st));
    size_t persist_max = prop.persistingL2CacheMaxSize;
    checkCudaErrors(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, persist_max));
    int *data, *sd;
    checkCudaErrors(cudaMalloc(&data, 64 * sizeof(int))); checkCudaErrors(cudaMalloc(&sd, N * sizeof(int)));
    checkCudaErrors(cudaMemcpy(data, hIn, 64 * sizeof(int), cudaMemcpyHostToDevice));
    cudaStreamAttrValue sa;
    memset(&sa, 0, sizeof sa);
    sa.accessPolicyWindow.base_ptr = data;
    sa.accessPolicyWindow.num_bytes = 64 * sizeof(int);
    sa.accessPolicyWindow.hitRatio = 0.6f;
    sa.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    sa.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    checkCudaErrors(cudaStreamSetAttribute(st, cudaStreamAttributeAccessPolicyWindow, &sa));
    persist<<<(N + 255) / 256, 256, 0, st>>>(data, N, sd);
    sa.accessPolicyWindow.num_bytes = 0;
    checkCudaErrors(cudaStreamSetAttribute(st, cudaStreamAttributeAccessPolicyWindow, &sa));
    checkCudaErrors(cudaCtxResetPersistingL2Cache());
    checkCudaErrors(cudaStreamSynchronize(st));
    int *hs = (int *)malloc(N * sizeof(int));
    checkCudaErrors(cudaMemcpy(hs, sd, N * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) if (hs[i] != hIn[i % 64] + i) { printf("persist %d\n", i); ok = false; break; }
    // device loop as multi-GPU samples do
    int count;
    checkCudaErrors(cudaGetDeviceCount(&count));
    for (int d = 0; d < count; d++) {
        checkCudaErrors(cudaSetDevice(d));
        int cur; checkCudaErrors(cudaGetDevice(&cur));
        if (cur != d) ok = false;
        int can = 0;
        if (count > 1) checkCudaErrors(cudaDeviceCanAccessPeer(&can, d, (d + 1) % count));
    }
    checkCudaErrors(cudaSetDevice(dev));
    SMP_RESULT("smp_misc", ok);
}
