// api_regs.cu - registers per thread as ptxas allocated them (numRegs from the fat binary's
// SASS, the runtime's and the driver's attributes agreeing), the register file's limit at launch
// (cudaErrorLaunchOutOfResources for a block whose registers do not fit, as on a GPU), and the
// occupancy calculator and maxThreadsPerBlock using the same count.
// nvcc-flags: -lcuda
// cuda-static-build
#include <cuda.h>
#include "cuda_check.h"

// Many values live at once: ptxas keeps the 96 accumulators in registers.
__global__ void heavy(const float *in, float *out, int iters)
{
    float acc[96];
#pragma unroll
    for (int k = 0; k < 96; k++)
        acc[k] = in[(threadIdx.x + k) % 128] * (k + 1);
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int k = 0; k < 96; k++)
            acc[k] = acc[k] * acc[(k + 1) % 96] + 1.0f / (k + 1);
    }
    float s = 0;
#pragma unroll
    for (int k = 0; k < 96; k++)
        s += acc[k];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// __launch_bounds__(1024, 2): two blocks of 1024 threads must fit, so at most 32 registers.
__global__ void __launch_bounds__(1024, 2) light(int *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x * 3;
}

int main()
{
    cudaFuncAttributes ha, la;
    CHECK(cudaFuncGetAttributes(&ha, heavy));
    CHECK(cudaFuncGetAttributes(&la, light));
    EXPECT(la.numRegs > 0 && la.numRegs <= 32, "light numRegs %d", la.numRegs);
    EXPECT(la.maxThreadsPerBlock == 1024, "light maxThreadsPerBlock %d", la.maxThreadsPerBlock);
    EXPECT(ha.numRegs > 64 && ha.numRegs <= 255, "heavy numRegs %d (96 live floats)", ha.numRegs);
    // maxThreadsPerBlock: the warps whose registers fit the 64 K file (256-register units per
    // warp, a block's warps spread over the SM's 4 quarters)
    int regs_warp = (ha.numRegs * 32 + 255) / 256 * 256;
    int warps = 65536 / 4 / regs_warp * 4;
    EXPECT(ha.maxThreadsPerBlock == warps * 32, "heavy maxThreadsPerBlock %d, want %d",
           ha.maxThreadsPerBlock, warps * 32);
    // the driver API says the same
    CUfunction f;
    CHECK(cudaGetFuncBySymbol(&f, (const void *)heavy));
    int dregs = -1, dmax = -1;
    EXPECT(cuFuncGetAttribute(&dregs, CU_FUNC_ATTRIBUTE_NUM_REGS, f) == CUDA_SUCCESS &&
           dregs == ha.numRegs, "cuFuncGetAttribute NUM_REGS %d, want %d", dregs, ha.numRegs);
    EXPECT(cuFuncGetAttribute(&dmax, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f) ==
           CUDA_SUCCESS && dmax == ha.maxThreadsPerBlock, "driver max threads %d", dmax);
    // the occupancy calculator: no block of 1024 fits; blocks of maxThreadsPerBlock do
    int nb = -1;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, heavy, 1024, 0));
    EXPECT(nb == 0, "heavy blocks of 1024 per SM: %d", nb);
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, heavy, ha.maxThreadsPerBlock, 0));
    EXPECT(nb >= 1, "heavy blocks of %d per SM: %d", ha.maxThreadsPerBlock, nb);
    float *in, *out;
    CHECK(cudaMalloc(&in, 128 * sizeof(float)));
    CHECK(cudaMalloc(&out, 2048 * sizeof(float)));
    CHECK(cudaMemset(in, 0, 128 * sizeof(float)));
    // too many registers for the block: refused at launch, nothing runs, nothing sticks
    heavy<<<1, 1024>>>(in, out, 1);
    cudaError_t e = cudaGetLastError();
    EXPECT(e == cudaErrorLaunchOutOfResources, "heavy<<<1,1024>>>: %s", cudaGetErrorName(e));
    heavy<<<1, ha.maxThreadsPerBlock + 32>>>(in, out, 1);
    e = cudaGetLastError();
    EXPECT(e == cudaErrorLaunchOutOfResources, "heavy<<<1,%d>>>: %s", ha.maxThreadsPerBlock + 32,
           cudaGetErrorName(e));
    CHECK(cudaDeviceSynchronize());
    heavy<<<2, ha.maxThreadsPerBlock>>>(in, out, 1);
    CHECK_LAUNCH();
    float h[2];
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    // in[] is 0: acc[k] = 0 * acc + 1/(k+1) after one iteration; s = sum of 1/(k+1)
    float want = 0;
    for (int k = 0; k < 96; k++)
        want += 1.0f / (k + 1);
    EXPECT(h[0] > want - 1e-3f && h[0] < want + 1e-3f, "heavy result %f, want %f", h[0], want);
    int *io;
    CHECK(cudaMalloc(&io, 2048 * sizeof(int)));
    light<<<2, 1024>>>(io);
    CHECK_LAUNCH();
    int hl[2048];
    CHECK(cudaMemcpy(hl, io, sizeof hl, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 2048; i++)
        EXPECT(hl[i] == i % 1024 * 3, "light[%d] = %d", i, hl[i]);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    CHECK(cudaFree(io));
    printf("api_regs: heavy %d registers, light %d: PASSED\n", ha.numRegs, la.numRegs);
    return 0;
}
