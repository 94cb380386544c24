// smp_ptxasm.cu - inline PTX the way hand-tuned kernels use it: mma.sync m16n8k16 with ldmatrix
// fragments, cp.async into shared memory with commit/wait groups, a producer/consumer pair of
// CTAs handing data through a volatile flag with __nanosleep back-off and __threadfence, and
// ld.global.nc / st.global.cs cache hints.
#include "smp_helper.h"
#include <cuda_fp16.h>

__global__ void mma_tile(const half *A, const half *B, float *C)
{
    // one warp computes C(16x8) = A(16x16, row-major) * B(16x8, col-major)
    __shared__ half sA[16 * 16];
    __shared__ half sB[8 * 16];
    int lane = threadIdx.x;
    for (int i = lane; i < 256; i += 32) sA[i] = A[i];
    for (int i = lane; i < 128; i += 32) sB[i] = B[i];
    __syncwarp();
    unsigned a[4], b[2];
    unsigned addrA = (unsigned)__cvta_generic_to_shared(&sA[(lane % 16) * 16 + (lane / 16) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(addrA));
    unsigned addrB = (unsigned)__cvta_generic_to_shared(&sB[(lane % 8) * 16 + ((lane / 8) % 2) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(b[0]), "=r"(b[1]) : "r"(addrB));
    float c[4] = {0, 0, 0, 0};
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    int g = lane / 4, t = lane % 4;
    C[g * 8 + t * 2] = c[0];
    C[g * 8 + t * 2 + 1] = c[1];
    C[(g + 8) * 8 + t * 2] = c[2];
    C[(g + 8) * 8 + t * 2 + 1] = c[3];
}

__global__ void cp_async_copy(const float4 *in, float4 *out)
{
    __shared__ float4 sh[2][128];
    const float4 *src = in + blockIdx.x * 256;
    for (int s = 0; s < 2; s++) {
        unsigned dst = (unsigned)__cvta_generic_to_shared(&sh[s][threadIdx.x]);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(dst), "l"(src + s * 128 + threadIdx.x));
        asm volatile("cp.async.commit_group;");
    }
    asm volatile("cp.async.wait_group 1;");
    __syncthreads();
    float4 v = sh[0][127 - threadIdx.x];
    asm volatile("cp.async.wait_all;");
    __syncthreads();
    float4 w = sh[1][threadIdx.x];
    out[blockIdx.x * 128 + threadIdx.x] = make_float4(v.x + w.x, v.y + w.y, v.z + w.z, v.w + w.w);
}

__global__ void prodcons(volatile int *flag, int *data, int *result, int n)
{
    if (blockIdx.x == 1) {   // producer runs in the higher block: the consumer must not starve it
        for (int i = threadIdx.x; i < n; i += blockDim.x) data[i] = i * 3;
        __threadfence();
        __syncthreads();
        if (threadIdx.x == 0) *flag = 1;
    } else {
        if (threadIdx.x == 0) {
            unsigned ns = 8;
            while (*flag == 0) { __nanosleep(ns); if (ns < 256) ns *= 2; }
        }
        __syncthreads();
        __threadfence();
        int s = 0;
        for (int i = threadIdx.x; i < n; i += blockDim.x) {
            int v;
            asm volatile("ld.global.cg.s32 %0, [%1];" : "=r"(v) : "l"(data + i));
            s += v;
        }
        atomicAdd(result, s);
    }
}

__global__ void hints(const int *__restrict__ in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = __ldg(in + i) + __ldcs(in + (n - 1 - i));
        __stcs(out + i, v);
        __stwt(out + n + i, __ldlu(in + i));
    }
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    half hA[256], hB[128];
    float fA[256], fB[128], hC[128];
    for (int i = 0; i < 256; i++) { fA[i] = (float)((i * 7) % 9 - 4); hA[i] = __float2half(fA[i]); }
    for (int i = 0; i < 128; i++) { fB[i] = (float)((i * 5) % 7 - 3); hB[i] = __float2half(fB[i]); }
    half *dA, *dB; float *dC;
    checkCudaErrors(cudaMalloc(&dA, sizeof(hA))); checkCudaErrors(cudaMalloc(&dB, sizeof(hB))); checkCudaErrors(cudaMalloc(&dC, sizeof(hC)));
    checkCudaErrors(cudaMemcpy(dA, hA, sizeof(hA), cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(dB, hB, sizeof(hB), cudaMemcpyHostToDevice));
    mma_tile<<<1, 32>>>(dA, dB, dC);
    getLastCudaError("mma_tile");
    checkCudaErrors(cudaMemcpy(hC, dC, sizeof(hC), cudaMemcpyDeviceToHost));
    for (int r = 0; r < 16 && ok; r++) for (int c = 0; c < 8; c++) {
        float s = 0; for (int k = 0; k < 16; k++) s += fA[r * 16 + k] * fB[c * 16 + k];
        if (hC[r * 8 + c] != s) { printf("mma (%d,%d): %f vs %f\n", r, c, hC[r * 8 + c], s); ok = false; break; }
    }
    int nb = 3;
    float4 *h4 = (float4 *)malloc(nb * 256 * 16), *o4 = (float4 *)malloc(nb * 128 * 16), *d4, *do4;
    for (int i = 0; i < nb * 256; i++) h4[i] = make_float4(i, i + 1, i + 2, i + 3);
    checkCudaErrors(cudaMalloc(&d4, nb * 256 * 16)); checkCudaErrors(cudaMalloc(&do4, nb * 128 * 16));
    checkCudaErrors(cudaMemcpy(d4, h4, nb * 256 * 16, cudaMemcpyHostToDevice));
    cp_async_copy<<<nb, 128>>>(d4, do4);
    checkCudaErrors(cudaMemcpy(o4, do4, nb * 128 * 16, cudaMemcpyDeviceToHost));
    for (int b = 0; b < nb && ok; b++) for (int t = 0; t < 128; t++) {
        float4 v = h4[b * 256 + 127 - t], w = h4[b * 256 + 128 + t], o = o4[b * 128 + t];
        if (o.x != v.x + w.x || o.w != v.w + w.w) { printf("cp.async %d %d\n", b, t); ok = false; break; }
    }
    int n = 10000, *flag, *data, *res, hres;
    checkCudaErrors(cudaMalloc(&flag, 4)); checkCudaErrors(cudaMalloc(&data, n * 4)); checkCudaErrors(cudaMalloc(&res, 4));
    checkCudaErrors(cudaMemset(flag, 0, 4)); checkCudaErrors(cudaMemset(res, 0, 4));
    prodcons<<<2, 256>>>(flag, data, res, n);
    checkCudaErrors(cudaMemcpy(&hres, res, 4, cudaMemcpyDeviceToHost));
    if (hres != 3 * n * (n - 1) / 2) { printf("producer/consumer %d\n", hres); ok = false; }
    int *hi = (int *)malloc(n * 4), *ho = (int *)malloc(2 * n * 4), *di, *dout;
    for (int i = 0; i < n; i++) hi[i] = i * i;
    checkCudaErrors(cudaMalloc(&di, n * 4)); checkCudaErrors(cudaMalloc(&dout, 2 * n * 4));
    checkCudaErrors(cudaMemcpy(di, hi, n * 4, cudaMemcpyHostToDevice));
    hints<<<(n + 255) / 256, 256>>>(di, dout, n);
    checkCudaErrors(cudaMemcpy(ho, dout, 2 * n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if (ho[i] != hi[i] + hi[n - 1 - i] || ho[n + i] != hi[i]) { printf("hints %d\n", i); ok = false; break; }
    SMP_RESULT("smp_ptxasm", ok);
}
