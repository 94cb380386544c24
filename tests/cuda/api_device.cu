// api_device.cu - device query: properties against attributes, versions, PCI ids, limits,
// function attributes, the shared-memory opt-in honoured by launches, and grids sized by the
// occupancy calculators (dynamic shared memory per block size), checked against a C reference.
// nvcc-flags: -lcuda
// cuda-test: 0 ^api_device:\sgrid\s[0-9]+\sx\s[0-9]+\sPASSED$ -
#include <string.h>
#include <cuda.h>
#include "cuda_check.h"

__global__ void stat_shared(int *out)
{
    __shared__ int tile[1024];               // 4 KB of static shared memory
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

__global__ void dyn_sum(const int *in, int *out, int n)
{
    extern __shared__ int buf[];             // blockDim.x ints
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int acc = 0;
    for (int j = i; j < n; j += blockDim.x * gridDim.x) acc += in[j];
    buf[threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        int s = 0;
        for (int k = 0; k < blockDim.x; k++) s += buf[k];
        atomicAdd(out, s);
    }
}

__global__ void big_shared(int *out)
{
    extern __shared__ int big[];             // 64 KB: needs the opt-in
    big[threadIdx.x * 512] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = big[(31 - threadIdx.x) * 512];
}

static size_t smem_for(int block) { return block * sizeof(int); }

int main()
{
    int dev = 0;
    CHECK(cudaGetDevice(&dev));
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, dev));
    printf("Device %d: \"%s\", compute capability %d.%d, %d SMs, %zu MB, %d threads/SM, "
           "%zu KB shared/SM, L2 %d KB\n", dev, p.name, p.major, p.minor, p.multiProcessorCount,
           p.totalGlobalMem >> 20, p.maxThreadsPerMultiProcessor,
           p.sharedMemPerMultiprocessor >> 10, p.l2CacheSize >> 10);
    struct { cudaDeviceAttr a; long long want; const char *what; } checks[] = {
        {cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock, "maxThreadsPerBlock"},
        {cudaDevAttrMaxBlockDimX, p.maxThreadsDim[0], "maxThreadsDim[0]"},
        {cudaDevAttrMaxBlockDimZ, p.maxThreadsDim[2], "maxThreadsDim[2]"},
        {cudaDevAttrMaxGridDimX, p.maxGridSize[0], "maxGridSize[0]"},
        {cudaDevAttrMaxGridDimY, p.maxGridSize[1], "maxGridSize[1]"},
        {cudaDevAttrMaxSharedMemoryPerBlock, (long long)p.sharedMemPerBlock, "sharedMemPerBlock"},
        {cudaDevAttrMaxSharedMemoryPerBlockOptin, (long long)p.sharedMemPerBlockOptin, "optin"},
        {cudaDevAttrMaxSharedMemoryPerMultiprocessor, (long long)p.sharedMemPerMultiprocessor,
         "sharedMemPerMultiprocessor"},
        {cudaDevAttrTotalConstantMemory, (long long)p.totalConstMem, "totalConstMem"},
        {cudaDevAttrWarpSize, p.warpSize, "warpSize"},
        {cudaDevAttrMaxRegistersPerBlock, p.regsPerBlock, "regsPerBlock"},
        {cudaDevAttrMaxRegistersPerMultiprocessor, p.regsPerMultiprocessor, "regsPerSM"},
        {cudaDevAttrMultiProcessorCount, p.multiProcessorCount, "multiProcessorCount"},
        {cudaDevAttrComputeCapabilityMajor, p.major, "major"},
        {cudaDevAttrComputeCapabilityMinor, p.minor, "minor"},
        {cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor, "threads/SM"},
        {cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor, "blocks/SM"},
        {cudaDevAttrL2CacheSize, p.l2CacheSize, "l2CacheSize"},
        {cudaDevAttrCanMapHostMemory, p.canMapHostMemory, "canMapHostMemory"},
        {cudaDevAttrUnifiedAddressing, p.unifiedAddressing, "unifiedAddressing"},
        {cudaDevAttrManagedMemory, p.managedMemory, "managedMemory"},
        {cudaDevAttrConcurrentManagedAccess, p.concurrentManagedAccess, "concurrentManaged"},
        {cudaDevAttrCooperativeLaunch, p.cooperativeLaunch, "cooperativeLaunch"},
        {cudaDevAttrPciBusId, p.pciBusID, "pciBusID"},
        {cudaDevAttrPciDeviceId, p.pciDeviceID, "pciDeviceID"},
        {cudaDevAttrEccEnabled, p.ECCEnabled, "ECCEnabled"},
        {cudaDevAttrMaxTexture2DWidth, p.maxTexture2D[0], "maxTexture2D[0]"},
        {cudaDevAttrMaxTexture3DDepth, p.maxTexture3D[2], "maxTexture3D[2]"},
        {cudaDevAttrMaxSurface2DLayeredLayers, p.maxSurface2DLayered[2], "surface layers"},
        {cudaDevAttrReservedSharedMemoryPerBlock, (long long)p.reservedSharedMemPerBlock,
         "reservedSharedMemPerBlock"},
    };
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        int v = -1;
        CHECK(cudaDeviceGetAttribute(&v, checks[i].a, dev));
        EXPECT(v == checks[i].want, "attribute %s = %d, property %lld", checks[i].what, v,
               checks[i].want);
    }
    int clock = 0, mode = -1;
    CHECK(cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, dev));
    CHECK(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, dev));
    EXPECT(clock > 500000 && mode == cudaComputeModeDefault, "clock %d kHz, mode %d", clock, mode);
    EXPECT(p.major >= 8 && p.warpSize == 32 && p.maxThreadsPerBlock == 1024 &&
               p.sharedMemPerBlock == 48 * 1024 && p.sharedMemPerBlockOptin > p.sharedMemPerBlock,
           "implausible device");
    int bad;
    EXPECT(cudaDeviceGetAttribute(&bad, (cudaDeviceAttr)44, dev) == cudaErrorInvalidValue,
           "undefined attribute accepted");
    (void)cudaGetLastError();
    EXPECT(cudaSetDevice(7) == cudaErrorInvalidDevice, "device 7 accepted");
    EXPECT(cudaGetLastError() == cudaErrorInvalidDevice, "last error not recorded");

    char bus[32];
    int back = -1;
    CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, dev));
    CHECK(cudaDeviceGetByPCIBusId(&back, bus));
    EXPECT(back == dev, "PCI bus id %s gives device %d", bus, back);
    cudaDeviceProp want;
    memset(&want, 0, sizeof want);
    want.major = 8;
    CHECK(cudaChooseDevice(&back, &want));
    EXPECT(back == 0, "chosen device %d", back);
    int drv = 0, rtv = 0;
    CHECK(cudaDriverGetVersion(&drv));
    CHECK(cudaRuntimeGetVersion(&rtv));
    EXPECT(drv >= rtv && rtv >= 13000, "versions %d %d", drv, rtv);
    unsigned flags = 0;
    CHECK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    CHECK(cudaGetDeviceFlags(&flags));
    EXPECT(flags & cudaDeviceScheduleBlockingSync, "device flags %#x", flags);

    size_t heap = 0;
    CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32u << 20));
    CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    EXPECT(heap == 32u << 20, "heap limit %zu", heap);

    // function attributes of a kernel with 4 KB of static shared memory
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, stat_shared));
    EXPECT(fa.sharedSizeBytes == 4096 && fa.maxThreadsPerBlock == 1024 && fa.numRegs > 0 &&
               fa.maxDynamicSharedSizeBytes == 48 * 1024 - 4096 &&
               fa.binaryVersion == p.major * 10 + p.minor, "stat_shared attributes: shared %zu, "
           "threads %d, regs %d, dyn %d, binary %d", fa.sharedSizeBytes, fa.maxThreadsPerBlock,
           fa.numRegs, fa.maxDynamicSharedSizeBytes, fa.binaryVersion);
    int *out;
    CHECK(cudaMalloc(&out, 1 << 16));
    stat_shared<<<2, 1024>>>(out);
    CHECK_LAUNCH();
    int h[2048];
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 2048; i++) EXPECT(h[i] == 1023 - i % 1024, "stat_shared[%d] = %d", i, h[i]);

    // 64 KB of dynamic shared memory: refused, then allowed after the opt-in
    big_shared<<<1, 32, 64 * 1024>>>(out);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue, "64 KB launched without the opt-in");
    CHECK(cudaFuncSetAttribute(big_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
    big_shared<<<1, 32, 64 * 1024>>>(out);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h, out, 32 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) EXPECT(h[i] == 31 - i, "big_shared[%d] = %d", i, h[i]);
    EXPECT(cudaFuncSetAttribute(big_shared, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                (int)p.sharedMemPerBlockOptin + 1) == cudaErrorInvalidValue,
           "opt-in beyond the device accepted");
    (void)cudaGetLastError();

    // occupancy: 64 KB blocks fit sharedMemPerMultiprocessor / (64 KB + reserve) per SM
    int per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, big_shared, 32, 64 * 1024));
    EXPECT(per_sm == (int)(p.sharedMemPerMultiprocessor / (64 * 1024 + p.reservedSharedMemPerBlock)),
           "%d blocks of 64 KB per SM", per_sm);
    size_t avail = 0;
    CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, dyn_sum, 2, 256));
    EXPECT(avail == p.sharedMemPerMultiprocessor / 2 - p.reservedSharedMemPerBlock,
           "available dynamic shared memory %zu", avail);

    // a grid sized by the calculator with per-block-size dynamic shared memory
    int min_grid = 0, block = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, &block, dyn_sum, smem_for));
    EXPECT(block > 0 && block <= 1024 && block % 32 == 0 && min_grid >= p.multiProcessorCount,
           "block %d, min grid %d", block, min_grid);
    const int n = 100000;
    int *in, *sum, hsum = 0;
    int *hin = (int *)malloc(n * sizeof(int));
    long long ref = 0;
    for (int i = 0; i < n; i++) {
        hin[i] = (i * 7919) % 1000 - 500;
        ref += hin[i];
    }
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&sum, sizeof(int)));
    CHECK(cudaMemcpy(in, hin, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(sum, 0, sizeof(int)));
    dyn_sum<<<min_grid, block, smem_for(block)>>>(in, sum, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(&hsum, sum, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(hsum == ref, "sum %d, want %lld", hsum, ref);
    // the driver API in a runtime program: no cuInit, the primary context is current
    CUcontext ctx = NULL;
    EXPECT(cuCtxGetCurrent(&ctx) == CUDA_SUCCESS && ctx != NULL, "no current context");
    CUdeviceptr dp = 0;
    EXPECT(cuMemAlloc(&dp, 256) == CUDA_SUCCESS && dp, "cuMemAlloc in a runtime program");
    unsigned mtype = 0;
    EXPECT(cuPointerGetAttribute(&mtype, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)in) ==
               CUDA_SUCCESS && mtype == CU_MEMORYTYPE_DEVICE, "cudaMalloc memory type %u", mtype);
    CHECK(cudaFree((void *)dp));
    printf("api_device: grid %d x %d PASSED\n", min_grid, block);
    return 0;
}
