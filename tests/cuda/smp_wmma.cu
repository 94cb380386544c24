// smp_wmma.cu - cudaTensorCoreGemm / bf16TensorCoreGemm / tf32TensorCoreGemm patterns: one warp
// per 16x16 output tile through nvcuda::wmma fragments (half and bf16 inputs with float
// accumulators, tf32 with __float_to_tf32, int8 with int accumulators), C = alpha*A*B + beta*C.
#include "smp_helper.h"
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

template <typename T>
__global__ void wmma_gemm(const T *a, const T *b, const float *c, float *d, int M, int N, int K, float alpha, float beta)
{
    int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
    int warpN = (blockIdx.y * blockDim.y + threadIdx.y);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> a_frag;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::col_major> b_frag;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc_frag;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c_frag;
    wmma::fill_fragment(acc_frag, 0.0f);
    for (int i = 0; i < K; i += 16) {
        int aRow = warpM * 16, aCol = i, bRow = i, bCol = warpN * 16;
        if (aRow < M && aCol < K && bRow < K && bCol < N) {
            wmma::load_matrix_sync(a_frag, a + aRow * K + aCol, K);
            wmma::load_matrix_sync(b_frag, b + bCol * K + bRow, K);
            wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
        }
    }
    int cRow = warpM * 16, cCol = warpN * 16;
    if (cRow < M && cCol < N) {
        wmma::load_matrix_sync(c_frag, c + cRow * N + cCol, N, wmma::mem_row_major);
        for (int i = 0; i < c_frag.num_elements; i++) c_frag.x[i] = alpha * acc_frag.x[i] + beta * c_frag.x[i];
        wmma::store_matrix_sync(d + cRow * N + cCol, c_frag, N, wmma::mem_row_major);
    }
}

__global__ void wmma_tf32(const float *a, const float *b, float *d, int M, int N, int K)
{
    int warpM = blockIdx.x, warpN = blockIdx.y;
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a_frag;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b_frag;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 8) {
        wmma::load_matrix_sync(a_frag, a + warpM * 16 * K + k, K);
        wmma::load_matrix_sync(b_frag, b + k * N + warpN * 16, N);
        for (int t = 0; t < a_frag.num_elements; t++) a_frag.x[t] = wmma::__float_to_tf32(a_frag.x[t]);
        for (int t = 0; t < b_frag.num_elements; t++) b_frag.x[t] = wmma::__float_to_tf32(b_frag.x[t]);
        wmma::mma_sync(acc, a_frag, b_frag, acc);
    }
    wmma::store_matrix_sync(d + warpM * 16 * N + warpN * 16, acc, N, wmma::mem_row_major);
}

__global__ void wmma_int8(const signed char *a, const signed char *b, int *d, int K)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> af;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> bf;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
    wmma::fill_fragment(acc, 0);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(af, a + k, K);
        wmma::load_matrix_sync(bf, b + k, K);
        wmma::mma_sync(acc, af, bf, acc);
    }
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

template <typename T, typename Conv>
static bool run(const char *name, Conv conv, float (*back)(T))
{
    const int M = 64, N = 64, K = 64;
    float alpha = 2.0f, beta = -1.0f;
    T *ha = (T *)malloc(M * K * sizeof(T)), *hb = (T *)malloc(K * N * sizeof(T));
    float *hc = (float *)malloc(M * N * 4), *hd = (float *)malloc(M * N * 4);
    for (int i = 0; i < M * K; i++) ha[i] = conv((float)(rand() % 3));
    for (int i = 0; i < K * N; i++) hb[i] = conv((float)(rand() % 3));
    for (int i = 0; i < M * N; i++) hc[i] = (float)(rand() % 3);
    T *da, *db; float *dc, *dd;
    checkCudaErrors(cudaMalloc(&da, M * K * sizeof(T))); checkCudaErrors(cudaMalloc(&db, K * N * sizeof(T)));
    checkCudaErrors(cudaMalloc(&dc, M * N * 4)); checkCudaErrors(cudaMalloc(&dd, M * N * 4));
    checkCudaErrors(cudaMemcpy(da, ha, M * K * sizeof(T), cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(db, hb, K * N * sizeof(T), cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(dc, hc, M * N * 4, cudaMemcpyHostToDevice));
    dim3 blockDim(128, 4), gridDim((M + (16 * blockDim.x / 32 - 1)) / (16 * blockDim.x / 32), (N + 16 * blockDim.y - 1) / (16 * blockDim.y));
    wmma_gemm<T><<<gridDim, blockDim>>>(da, db, dc, dd, M, N, K, alpha, beta);
    getLastCudaError(name);
    checkCudaErrors(cudaMemcpy(hd, dd, M * N * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float s = 0;
            for (int k = 0; k < K; k++) s += back(ha[i * K + k]) * back(hb[j * K + k]);
            float want = alpha * s + beta * hc[i * N + j];
            if (hd[i * N + j] != want) { printf("%s (%d,%d): %f vs %f\n", name, i, j, hd[i * N + j], want); return false; }
        }
    return true;
}
static float h2f(half h) { return __half2float(h); }
static float b2f(__nv_bfloat16 h) { return __bfloat162float(h); }

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = run<half>("half", [](float f) { return __float2half(f); }, h2f);
    ok &= run<__nv_bfloat16>("bf16", [](float f) { return __float2bfloat16(f); }, b2f);
    // tf32: operands are small integers, exact in tf32
    const int M = 32, N = 32, K = 16;
    float ha[M * K], hb[K * N], hd[M * N];
    for (int i = 0; i < M * K; i++) ha[i] = (float)((i * 7) % 5) - 2.0f;
    for (int i = 0; i < K * N; i++) hb[i] = (float)((i * 3) % 4) * 0.5f;
    float *da, *db, *dd;
    checkCudaErrors(cudaMalloc(&da, sizeof(ha))); checkCudaErrors(cudaMalloc(&db, sizeof(hb))); checkCudaErrors(cudaMalloc(&dd, sizeof(hd)));
    checkCudaErrors(cudaMemcpy(da, ha, sizeof(ha), cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(db, hb, sizeof(hb), cudaMemcpyHostToDevice));
    wmma_tf32<<<dim3(M / 16, N / 16), 32>>>(da, db, dd, M, N, K);
    checkCudaErrors(cudaMemcpy(hd, dd, sizeof(hd), cudaMemcpyDeviceToHost));
    for (int i = 0; i < M && ok; i++) for (int j = 0; j < N; j++) {
        float s = 0; for (int k = 0; k < K; k++) s += ha[i * K + k] * hb[k * N + j];
        if (s != hd[i * N + j]) { printf("tf32 (%d,%d) %f vs %f\n", i, j, hd[i * N + j], s); ok = false; break; }
    }
    // int8
    const int IK = 32;
    signed char ia[16 * IK], ib[16 * IK]; int id[256];
    for (int i = 0; i < 16 * IK; i++) { ia[i] = (signed char)((i * 5) % 15 - 7); ib[i] = (signed char)((i * 11) % 9 - 4); }
    signed char *dia, *dib; int *did;
    checkCudaErrors(cudaMalloc(&dia, sizeof(ia))); checkCudaErrors(cudaMalloc(&dib, sizeof(ib))); checkCudaErrors(cudaMalloc(&did, sizeof(id)));
    checkCudaErrors(cudaMemcpy(dia, ia, sizeof(ia), cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(dib, ib, sizeof(ib), cudaMemcpyHostToDevice));
    wmma_int8<<<1, 32>>>(dia, dib, did, IK);
    checkCudaErrors(cudaMemcpy(id, did, sizeof(id), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 16 && ok; i++) for (int j = 0; j < 16; j++) {
        int s = 0; for (int k = 0; k < IK; k++) s += ia[i * IK + k] * ib[j * IK + k];
        if (s != id[i * 16 + j]) { printf("int8 (%d,%d) %d vs %d\n", i, j, id[i * 16 + j], s); ok = false; break; }
    }
    SMP_RESULT("smp_wmma", ok);
}
