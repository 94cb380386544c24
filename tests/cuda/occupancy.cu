// occupancy.cu - sizes its grid from device properties and the occupancy calculator (grid-stride loop).
#include "cuda_check.h"

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

int main()
{
    int count = 0, dev = -1;
    CHECK(cudaGetDeviceCount(&count));
    EXPECT(count >= 1, "no device");
    CHECK(cudaSetDevice(0));
    CHECK(cudaGetDevice(&dev));
    EXPECT(dev == 0, "current device %d", dev);
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    EXPECT(prop.multiProcessorCount > 0 && prop.maxThreadsPerBlock >= 512 && prop.warpSize == 32 &&
               prop.major >= 3 && prop.sharedMemPerBlock >= 16384 && prop.totalGlobalMem > 0,
           "implausible properties: %d SMs, %d threads/block, cc %d.%d", prop.multiProcessorCount,
           prop.maxThreadsPerBlock, prop.major, prop.minor);
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    EXPECT(sms == prop.multiProcessorCount, "attribute SM count %d vs %d", sms,
           prop.multiProcessorCount);
    int min_grid = 0, block = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, saxpy, 0, 0));
    EXPECT(block > 0 && block <= prop.maxThreadsPerBlock && block % 32 == 0, "block size %d",
           block);
    EXPECT(min_grid >= prop.multiProcessorCount, "min grid %d", min_grid);
    int per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, saxpy, block, 0));
    EXPECT(per_sm >= 1 && per_sm * block <= prop.maxThreadsPerMultiProcessor,
           "%d blocks of %d per SM", per_sm, block);
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, saxpy));
    EXPECT(fa.maxThreadsPerBlock >= block, "func max threads %d", fa.maxThreadsPerBlock);
    int driver = 0, runtime = 0;
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));
    EXPECT(driver >= runtime && runtime >= 13000, "versions driver %d runtime %d", driver, runtime);

    const int n = 1 << 16;
    float *x, *y;
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    CHECK(cudaMalloc(&y, n * sizeof(float)));
    float *hx = (float *)malloc(n * sizeof(float)), *hy = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) {
        hx[i] = (float)(i % 100);
        hy[i] = (float)(i % 7);
    }
    CHECK(cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyHostToDevice));
    int grid = per_sm * prop.multiProcessorCount;
    saxpy<<<grid, block>>>(n, 2.0f, x, y);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hy, y, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(hy[i] == 2.0f * (i % 100) + (i % 7), "y[%d] = %g", i, hy[i]);
    size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    EXPECT(free_b > 0 && free_b <= total_b, "mem info free %zu total %zu", free_b, total_b);
    // a block larger than the device allows is a launch error
    saxpy<<<1, prop.maxThreadsPerBlock + 1>>>(n, 1.0f, x, y);
    cudaError_t e = cudaGetLastError();
    EXPECT(e == cudaErrorInvalidConfiguration, "oversized block gave %s", cudaGetErrorName(e));
    CHECK(cudaDeviceSynchronize());
    printf("occupancy: grid %d x %d on %d SMs (%s) PASSED\n", grid, block, prop.multiProcessorCount,
           prop.major >= 8 ? "sm_80+" : "older");
    return 0;
}
