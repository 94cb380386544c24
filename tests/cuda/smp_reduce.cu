// smp_reduce.cu - the reduction sample's kernel ladder (interleaved, sequential, first add during
// load, unrolled last warp, fully unrolled template, multiple elements per thread with
// warp shuffles) and threadFenceReduction's single-pass kernel (last block finishes after
// __threadfence and an atomicInc retirement counter).
// cuda-G-build
#include "smp_helper.h"

template <class T> struct SharedMemory {
    __device__ inline operator T *() { extern __shared__ int __smem[]; return (T *)__smem; }
};
template <> struct SharedMemory<double> {
    __device__ inline operator double *() { extern __shared__ double __smem_d[]; return (double *)__smem_d; }
};

template <class T> __global__ void reduce0(T *g_idata, T *g_odata, unsigned n)
{
    T *sdata = SharedMemory<T>();
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if ((tid % (2 * s)) == 0) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
template <class T> __global__ void reduce3(T *g_idata, T *g_odata, unsigned n)
{
    T *sdata = SharedMemory<T>();
    unsigned tid = threadIdx.x, i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    T mySum = (i < n) ? g_idata[i] : 0;
    if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
    sdata[tid] = mySum;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = mySum;
}
// on sm_80 an int warp sum is one redux.sync; other types shuffle down
template <class T> __device__ T warpReduceSum(unsigned mask, T v)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(mask, v, offset);
    return v;
}
template <> __device__ int warpReduceSum<int>(unsigned mask, int v) { return __reduce_add_sync(mask, v); }

template <class T, unsigned blockSize, bool nIsPow2>
__global__ void reduce6(const T *__restrict__ g_idata, T *__restrict__ g_odata, unsigned n)
{
    T *sdata = SharedMemory<T>();
    unsigned tid = threadIdx.x, gridSize = blockSize * gridDim.x;
    unsigned maskLength = (blockSize & 31);
    maskLength = (maskLength > 0) ? (32 - maskLength) : maskLength;
    const unsigned mask = (0xffffffff) >> maskLength;
    T mySum = 0;
    if (nIsPow2) {
        unsigned i = blockIdx.x * blockSize * 2 + threadIdx.x;
        gridSize = gridSize << 1;
        while (i < n) {
            mySum += g_idata[i];
            if ((i + blockSize) < n) mySum += g_idata[i + blockSize];
            i += gridSize;
        }
    } else {
        unsigned i = blockIdx.x * blockSize + threadIdx.x;
        while (i < n) { mySum += g_idata[i]; i += gridSize; }
    }
    mySum = warpReduceSum<T>(mask, mySum);
    if ((tid % warpSize) == 0) sdata[tid / warpSize] = mySum;
    __syncthreads();
    const unsigned shmem_extent = (blockSize / warpSize) > 0 ? (blockSize / warpSize) : 1;
    const unsigned ballot_result = __ballot_sync(mask, tid < shmem_extent);
    if (tid < shmem_extent) {
        mySum = sdata[tid];
        mySum = warpReduceSum<T>(ballot_result, mySum);
    }
    if (tid == 0) g_odata[blockIdx.x] = mySum;
}

__device__ unsigned int retirementCount = 0;
template <unsigned blockSize>
__device__ void reduceBlock(volatile float *sdata, float mySum, const unsigned tid)
{
    sdata[tid] = mySum;
    __syncthreads();
    for (unsigned s = blockSize / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
        __syncthreads();
    }
}
template <unsigned blockSize>
__global__ void reduceSinglePass(const float *g_idata, float *g_odata, unsigned n)
{
    extern __shared__ float smem[];
    unsigned tid = threadIdx.x, i = blockIdx.x * (blockSize * 2) + threadIdx.x, gridSize = blockSize * 2 * gridDim.x;
    float mySum = 0;
    while (i < n) { mySum += g_idata[i]; if (i + blockSize < n) mySum += g_idata[i + blockSize]; i += gridSize; }
    reduceBlock<blockSize>(smem, mySum, tid);
    if (tid == 0) g_odata[blockIdx.x] = smem[0];
    if (gridDim.x > 1) {
        __shared__ bool amLast;
        __threadfence();
        if (tid == 0) {
            unsigned ticket = atomicInc(&retirementCount, gridDim.x);
            amLast = (ticket == gridDim.x - 1);
        }
        __syncthreads();
        if (amLast) {
            int j = tid; mySum = 0;
            while (j < gridDim.x) { mySum += g_odata[j]; j += blockSize; }
            reduceBlock<blockSize>(smem, mySum, tid);
            if (tid == 0) { g_odata[0] = smem[0]; retirementCount = 0; }
        }
    }
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    const unsigned n = 1 << 20;
    int *h = (int *)malloc(n * sizeof(int));
    long long ref = 0;
    for (unsigned i = 0; i < n; i++) { h[i] = (int)(rand() & 0xFF); ref += h[i]; }
    int *din, *dout;
    checkCudaErrors(cudaMalloc(&din, n * sizeof(int)));
    checkCudaErrors(cudaMalloc(&dout, 4096 * sizeof(int)));
    checkCudaErrors(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));
    int threads = 256, blocks = n / threads;
    SmpTimer t;
    t.start();
    reduce0<int><<<blocks, threads, threads * sizeof(int)>>>(din, dout, n);
    float ms0 = t.stop();
    int *ho = (int *)malloc(blocks * sizeof(int));
    checkCudaErrors(cudaMemcpy(ho, dout, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    long long s = 0; for (int b = 0; b < blocks; b++) s += ho[b];
    printf("reduce0: %lld (%.3f ms)\n", s, ms0);
    if (s != ref) ok = false;
    reduce3<int><<<blocks / 2, threads, threads * sizeof(int)>>>(din, dout, n);
    checkCudaErrors(cudaMemcpy(ho, dout, blocks / 2 * sizeof(int), cudaMemcpyDeviceToHost));
    s = 0; for (int b = 0; b < blocks / 2; b++) s += ho[b];
    if (s != ref) { printf("reduce3 %lld\n", s); ok = false; }
    reduce6<int, 256, true><<<64, 256, 8 * sizeof(int)>>>(din, dout, n);
    checkCudaErrors(cudaMemcpy(ho, dout, 64 * sizeof(int), cudaMemcpyDeviceToHost));
    s = 0; for (int b = 0; b < 64; b++) s += ho[b];
    if (s != ref) { printf("reduce6 %lld\n", s); ok = false; }
    reduce6<int, 96, false><<<40, 96, 3 * sizeof(int)>>>(din, dout, n - 5);
    checkCudaErrors(cudaMemcpy(ho, dout, 40 * sizeof(int), cudaMemcpyDeviceToHost));
    s = 0; for (int b = 0; b < 40; b++) s += ho[b];
    long long ref5 = ref; for (unsigned i = n - 5; i < n; i++) ref5 -= h[i];
    if (s != ref5) { printf("reduce6 npow2 %lld want %lld\n", s, ref5); ok = false; }
    float *hf6 = (float *)malloc(n * sizeof(float)), *df6, *do6, ho6[48];
    double f6ref = 0;
    for (unsigned i = 0; i < n; i++) { hf6[i] = (float)(i % 7); f6ref += hf6[i]; }
    checkCudaErrors(cudaMalloc(&df6, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&do6, 48 * sizeof(float)));
    checkCudaErrors(cudaMemcpy(df6, hf6, n * sizeof(float), cudaMemcpyHostToDevice));
    reduce6<float, 32, true><<<48, 32, sizeof(float)>>>(df6, do6, n);
    checkCudaErrors(cudaMemcpy(ho6, do6, sizeof(ho6), cudaMemcpyDeviceToHost));
    double f6 = 0; for (int b = 0; b < 48; b++) f6 += ho6[b];
    if (f6 != f6ref) { printf("reduce6 float %f want %f\n", f6, f6ref); ok = false; }
    // double precision
    double *hd = (double *)malloc(4096 * sizeof(double)), *dd, *ddo;
    double dref = 0; for (int i = 0; i < 4096; i++) { hd[i] = i * 0.5; dref += hd[i]; }
    checkCudaErrors(cudaMalloc(&dd, 4096 * sizeof(double)));
    checkCudaErrors(cudaMalloc(&ddo, 16 * sizeof(double)));
    checkCudaErrors(cudaMemcpy(dd, hd, 4096 * sizeof(double), cudaMemcpyHostToDevice));
    reduce0<double><<<16, 256, 256 * sizeof(double)>>>(dd, ddo, 4096);
    double hdo[16]; checkCudaErrors(cudaMemcpy(hdo, ddo, sizeof(hdo), cudaMemcpyDeviceToHost));
    double ds = 0; for (int i = 0; i < 16; i++) ds += hdo[i];
    if (ds != dref) { printf("double %f %f\n", ds, dref); ok = false; }
    // single pass with threadfence
    float *hf = (float *)malloc(n * sizeof(float)), *df, *dfo;
    double fref = 0;
    for (unsigned i = 0; i < n; i++) { hf[i] = (rand() & 0xFF) / (float)RAND_MAX; fref += hf[i]; }
    checkCudaErrors(cudaMalloc(&df, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&dfo, 64 * sizeof(float)));
    checkCudaErrors(cudaMemcpy(df, hf, n * sizeof(float), cudaMemcpyHostToDevice));
    for (int rep = 0; rep < 2; rep++) {
        reduceSinglePass<128><<<64, 128, 128 * sizeof(float)>>>(df, dfo, n);
        getLastCudaError("reduceSinglePass");
        float gpu; checkCudaErrors(cudaMemcpy(&gpu, dfo, sizeof(float), cudaMemcpyDeviceToHost));
        if (fabs(gpu - fref) / fref > 1e-5) { printf("threadfence reduction %f vs %f\n", gpu, fref); ok = false; }
    }
    unsigned rc;
    checkCudaErrors(cudaMemcpyFromSymbol(&rc, retirementCount, sizeof(rc)));
    if (rc != 0) ok = false;
    SMP_RESULT("smp_reduce", ok);
}
