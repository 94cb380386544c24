// smp_memory.cu - simpleZeroCopy / UnifiedMemoryStreams / simpleMultiCopy / graphMemory-free
// patterns: mapped host allocations (cudaHostAlloc + cudaHostGetDevicePointer, cudaHostRegister),
// managed memory attached to streams with prefetch and advice, __managed__ variables,
// cudaMemcpy2D/cudaMallocPitch, cudaMemset2D, cudaMemGetInfo, async copies in several streams,
// cudaMemcpyDefault with unified addressing, cudaPointerGetAttributes.
#include "smp_helper.h"

__managed__ int g_managed_counter;
__device__ float d_table[16];

__global__ void vectorAddGPU(float *a, float *b, float *c, int N)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N) c[idx] = a[idx] + b[idx];
}
__global__ void scale(double *v, int n, double f)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v[i] *= f;
    if (blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(&g_managed_counter, 1);
}
__global__ void pitched(float *p, size_t pitch, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h) {
        float *row = (float *)((char *)p + y * pitch);
        row[x] = row[x] + d_table[(x + y) % 16];
    }
}

int main(int argc, char **argv)
{
    int dev = findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    cudaDeviceProp prop;
    checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
    if (!prop.canMapHostMemory) { printf("Device cannot map memory\n"); SMP_RESULT("smp_memory", false); }
    checkCudaErrors(cudaSetDeviceFlags(cudaDeviceMapHost));
    int nelem = 1048576;
    size_t bytes = nelem * sizeof(float);
    float *a, *b, *c, *d_a, *d_b, *d_c;
    checkCudaErrors(cudaHostAlloc((void **)&a, bytes, cudaHostAllocMapped));
    checkCudaErrors(cudaHostAlloc((void **)&b, bytes, cudaHostAllocMapped | cudaHostAllocWriteCombined));
    float *c_raw = (float *)malloc(bytes + 4096);
    c = (float *)(((size_t)c_raw + 4095) & ~(size_t)4095);
    checkCudaErrors(cudaHostRegister(c, bytes, cudaHostRegisterMapped));
    for (int i = 0; i < nelem; i++) { a[i] = rand() / (float)RAND_MAX; b[i] = rand() / (float)RAND_MAX; }
    checkCudaErrors(cudaHostGetDevicePointer((void **)&d_a, (void *)a, 0));
    checkCudaErrors(cudaHostGetDevicePointer((void **)&d_b, (void *)b, 0));
    checkCudaErrors(cudaHostGetDevicePointer((void **)&d_c, (void *)c, 0));
    vectorAddGPU<<<(nelem + 255) / 256, 256>>>(d_a, d_b, d_c, nelem);
    checkCudaErrors(cudaDeviceSynchronize());
    getLastCudaError("vectorAddGPU() execution failed");
    float errorNorm = 0.f, refNorm = 0.f;
    for (int i = 0; i < nelem; i++) { float r = a[i] + b[i], d = c[i] - r; errorNorm += d * d; refNorm += r * r; }
    if (sqrtf(errorNorm) / sqrtf(refNorm) > 1e-6f) { printf("zero copy error\n"); ok = false; }
    cudaPointerAttributes attr;
    checkCudaErrors(cudaPointerGetAttributes(&attr, a));
    if (attr.type != cudaMemoryTypeHost) { printf("pointer attributes type %d\n", attr.type); ok = false; }
    // managed memory in streams
    int n = 100000;
    double *m;
    checkCudaErrors(cudaMallocManaged(&m, n * sizeof(double)));
    cudaStream_t st[3];
    for (int i = 0; i < 3; i++) checkCudaErrors(cudaStreamCreate(&st[i]));
    for (int i = 0; i < n; i++) m[i] = i;
    checkCudaErrors(cudaStreamAttachMemAsync(st[0], m, 0, cudaMemAttachSingle));
    cudaMemLocation loc = {cudaMemLocationTypeDevice, dev};
    checkCudaErrors(cudaMemAdvise(m, n * sizeof(double), cudaMemAdviseSetPreferredLocation, loc));
    checkCudaErrors(cudaMemPrefetchAsync(m, n * sizeof(double), loc, 0, st[0]));
    g_managed_counter = 0;
    scale<<<64, 128, 0, st[0]>>>(m, n, 2.0);
    scale<<<64, 128, 0, st[0]>>>(m, n, 1.5);
    checkCudaErrors(cudaStreamSynchronize(st[0]));
    for (int i = 0; i < n; i++) if (m[i] != i * 3.0) { printf("managed %d %f\n", i, m[i]); ok = false; break; }
    if (g_managed_counter != 2) { printf("managed var %d\n", g_managed_counter); ok = false; }
    // pitched 2D
    int w = 100, h = 37;
    float *dp; size_t pitch;
    checkCudaErrors(cudaMallocPitch(&dp, &pitch, w * sizeof(float), h));
    if (pitch < w * sizeof(float)) ok = false;
    float *h2 = (float *)malloc(w * h * 4), *h3 = (float *)malloc(w * h * 4), tab[16];
    for (int i = 0; i < w * h; i++) h2[i] = (float)i;
    for (int i = 0; i < 16; i++) tab[i] = i * 100.0f;
    checkCudaErrors(cudaMemcpyToSymbol(d_table, tab, sizeof(tab)));
    checkCudaErrors(cudaMemset2D(dp, pitch, 0, w * sizeof(float), h));
    checkCudaErrors(cudaMemcpy2D(dp, pitch, h2, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    pitched<<<dim3((w + 31) / 32, h), 32>>>(dp, pitch, w, h);
    checkCudaErrors(cudaMemcpy2DAsync(h3, w * sizeof(float), dp, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost, st[1]));
    checkCudaErrors(cudaStreamSynchronize(st[1]));
    for (int y = 0; y < h && ok; y++) for (int x = 0; x < w; x++) if (h3[y * w + x] != h2[y * w + x] + tab[(x + y) % 16]) { printf("pitched %d %d\n", x, y); ok = false; break; }
    size_t fr, tot;
    checkCudaErrors(cudaMemGetInfo(&fr, &tot));
    if (fr == 0 || fr > tot) { printf("meminfo %zu %zu\n", fr, tot); ok = false; }
    // multi-copy: H2D in one stream, kernel in another, D2H in a third, chained by events
    float *din, *dout2;
    checkCudaErrors(cudaMalloc(&din, bytes)); checkCudaErrors(cudaMalloc(&dout2, bytes));
    cudaEvent_t e1, e2;
    checkCudaErrors(cudaEventCreate(&e1)); checkCudaErrors(cudaEventCreate(&e2));
    checkCudaErrors(cudaMemcpyAsync(din, a, bytes, cudaMemcpyDefault, st[0]));
    checkCudaErrors(cudaEventRecord(e1, st[0]));
    checkCudaErrors(cudaStreamWaitEvent(st[1], e1, 0));
    vectorAddGPU<<<(nelem + 255) / 256, 256, 0, st[1]>>>(din, din, dout2, nelem);
    checkCudaErrors(cudaEventRecord(e2, st[1]));
    checkCudaErrors(cudaStreamWaitEvent(st[2], e2, 0));
    checkCudaErrors(cudaMemcpyAsync(c, dout2, bytes, cudaMemcpyDeviceToHost, st[2]));
    checkCudaErrors(cudaStreamSynchronize(st[2]));
    for (int i = 0; i < nelem; i++) if (c[i] != a[i] + a[i]) { printf("multicopy %d\n", i); ok = false; break; }
    checkCudaErrors(cudaHostUnregister(c));
    checkCudaErrors(cudaFreeHost(a)); checkCudaErrors(cudaFreeHost(b));
    checkCudaErrors(cudaFree(m)); checkCudaErrors(cudaFree(dp));
    SMP_RESULT("smp_memory", ok);
}
