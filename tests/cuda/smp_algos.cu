// smp_algos.cu - the classic kernels of the samples: 64-bin histogram with per-warp shared
// sub-histograms, coalesced transpose through a padded shared tile, bitonic sort in shared
// memory, fast Walsh transform radix-2 butterflies, separable convolution with a __constant__
// kernel written by cudaMemcpyToSymbol, and a naive exclusive scan with double buffering.
// cuda-G-build
#include "smp_helper.h"
#include <math.h>

#define BIN_COUNT 64
__global__ void histogram64(unsigned *d_hist, const unsigned char *data, int n)
{
    __shared__ unsigned s_hist[BIN_COUNT * 4];
    for (int i = threadIdx.x; i < BIN_COUNT * 4; i += blockDim.x) s_hist[i] = 0;
    __syncthreads();
    unsigned *wh = s_hist + (threadIdx.x / 32 % 4) * BIN_COUNT;
    for (int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < n; pos += blockDim.x * gridDim.x)
        atomicAdd(wh + (data[pos] >> 2), 1);
    __syncthreads();
    for (int bin = threadIdx.x; bin < BIN_COUNT; bin += blockDim.x) {
        unsigned sum = s_hist[bin] + s_hist[bin + 64] + s_hist[bin + 128] + s_hist[bin + 192];
        atomicAdd(d_hist + bin, sum);
    }
}

#define TILE_DIM 32
#define BLOCK_ROWS 8
__global__ void transposeCoalesced(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    int index_in = xIndex + yIndex * width;
    xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
    yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
    int index_out = xIndex + yIndex * height;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
}

__device__ inline void Comparator(unsigned &keyA, unsigned &valA, unsigned &keyB, unsigned &valB, unsigned dir)
{
    unsigned t;
    if ((keyA > keyB) == dir) { t = keyA; keyA = keyB; keyB = t; t = valA; valA = valB; valB = t; }
}
#define SHARED_SIZE_LIMIT 1024
__global__ void bitonicSortShared(unsigned *d_DstKey, unsigned *d_DstVal, unsigned *d_SrcKey, unsigned *d_SrcVal,
                                  unsigned arrayLength, unsigned dir)
{
    __shared__ unsigned s_key[SHARED_SIZE_LIMIT];
    __shared__ unsigned s_val[SHARED_SIZE_LIMIT];
    d_SrcKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_SrcVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_DstKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_DstVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    s_key[threadIdx.x + 0] = d_SrcKey[0];
    s_val[threadIdx.x + 0] = d_SrcVal[0];
    s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcKey[(SHARED_SIZE_LIMIT / 2)];
    s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcVal[(SHARED_SIZE_LIMIT / 2)];
    for (unsigned size = 2; size < arrayLength; size <<= 1) {
        unsigned ddd = dir ^ ((threadIdx.x & (size / 2)) != 0);
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
            Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], ddd);
        }
    }
    for (unsigned stride = arrayLength / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
        Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], dir);
    }
    __syncthreads();
    d_DstKey[0] = s_key[threadIdx.x + 0];
    d_DstVal[0] = s_val[threadIdx.x + 0];
    d_DstKey[(SHARED_SIZE_LIMIT / 2)] = s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
    d_DstVal[(SHARED_SIZE_LIMIT / 2)] = s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
}

__global__ void fwtBatch2Kernel(float *d_Output, float *d_Input, int stride)
{
    const int pos = blockIdx.x * blockDim.x + threadIdx.x;
    const int N = blockDim.x * gridDim.x * 4;
    float *d_Src = d_Input + blockIdx.y * N;
    float *d_Dst = d_Output + blockIdx.y * N;
    int lo = pos & (stride - 1);
    int i0 = ((pos - lo) << 2) + lo;
    int i1 = i0 + stride, i2 = i1 + stride, i3 = i2 + stride;
    float D0 = d_Src[i0], D1 = d_Src[i1], D2 = d_Src[i2], D3 = d_Src[i3];
    float T;
    T = D0; D0 = D0 + D2; D2 = T - D2;
    T = D1; D1 = D1 + D3; D3 = T - D3;
    T = D0; d_Dst[i0] = D0 + D1; d_Dst[i1] = T - D1;
    T = D2; d_Dst[i2] = D2 + D3; d_Dst[i3] = T - D3;
}

#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)
__constant__ float c_Kernel[KERNEL_LENGTH];
#define ROWS_BLOCKDIM_X 16
#define ROWS_BLOCKDIM_Y 4
#define ROWS_RESULT_STEPS 8
#define ROWS_HALO_STEPS 1
__global__ void convolutionRowsKernel(float *d_Dst, float *d_Src, int imageW, int imageH, int pitch)
{
    __shared__ float s_Data[ROWS_BLOCKDIM_Y][(ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X];
    const int baseX = (blockIdx.x * ROWS_RESULT_STEPS - ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X + threadIdx.x;
    const int baseY = blockIdx.y * ROWS_BLOCKDIM_Y + threadIdx.y;
    d_Src += baseY * pitch + baseX;
    d_Dst += baseY * pitch + baseX;
#pragma unroll
    for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++)
        s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] = d_Src[i * ROWS_BLOCKDIM_X];
#pragma unroll
    for (int i = 0; i < ROWS_HALO_STEPS; i++)
        s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] = (baseX >= -i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;
#pragma unroll
    for (int i = ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS + ROWS_HALO_STEPS; i++)
        s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] = (imageW - baseX > i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;
    __syncthreads();
#pragma unroll
    for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++) {
        float sum = 0;
#pragma unroll
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            sum += c_Kernel[KERNEL_RADIUS - j] * s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X + j];
        d_Dst[i * ROWS_BLOCKDIM_X] = sum;
    }
}

__global__ void scan_naive(float *g_odata, const float *g_idata, int n)
{
    extern __shared__ float temp[];
    int thid = threadIdx.x, pout = 0, pin = 1;
    temp[pout * n + thid] = (thid > 0) ? g_idata[thid - 1] : 0;
    __syncthreads();
    for (int offset = 1; offset < n; offset *= 2) {
        pout = 1 - pout; pin = 1 - pout;
        if (thid >= offset) temp[pout * n + thid] = temp[pin * n + thid] + temp[pin * n + thid - offset];
        else temp[pout * n + thid] = temp[pin * n + thid];
        __syncthreads();
    }
    g_odata[thid] = temp[pout * n + thid];
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    // histogram
    int n = 1 << 20;
    unsigned char *h_data = (unsigned char *)malloc(n);
    unsigned ref[BIN_COUNT] = {0}, h_hist[BIN_COUNT];
    for (int i = 0; i < n; i++) { h_data[i] = (unsigned char)(rand() & 0xff); ref[h_data[i] >> 2]++; }
    unsigned char *d_data; unsigned *d_hist;
    checkCudaErrors(cudaMalloc(&d_data, n));
    checkCudaErrors(cudaMalloc(&d_hist, sizeof(h_hist)));
    checkCudaErrors(cudaMemcpy(d_data, h_data, n, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemset(d_hist, 0, sizeof(h_hist)));
    SmpTimer t; t.start();
    histogram64<<<64, 256>>>(d_hist, d_data, n);
    printf("histogram64: %.3f ms\n", t.stop());
    checkCudaErrors(cudaMemcpy(h_hist, d_hist, sizeof(h_hist), cudaMemcpyDeviceToHost));
    for (int i = 0; i < BIN_COUNT; i++) if (h_hist[i] != ref[i]) { printf("histogram bin %d: %u vs %u\n", i, h_hist[i], ref[i]); ok = false; break; }
    // transpose
    int W = 256, H = 128;
    float *h_in = (float *)malloc(W * H * 4), *h_out = (float *)malloc(W * H * 4), *d_in, *d_out;
    for (int i = 0; i < W * H; i++) h_in[i] = (float)i;
    checkCudaErrors(cudaMalloc(&d_in, W * H * 4)); checkCudaErrors(cudaMalloc(&d_out, W * H * 4));
    checkCudaErrors(cudaMemcpy(d_in, h_in, W * H * 4, cudaMemcpyHostToDevice));
    transposeCoalesced<<<dim3(W / TILE_DIM, H / TILE_DIM), dim3(TILE_DIM, BLOCK_ROWS)>>>(d_out, d_in, W, H);
    checkCudaErrors(cudaMemcpy(h_out, d_out, W * H * 4, cudaMemcpyDeviceToHost));
    for (int y = 0; y < H && ok; y++) for (int x = 0; x < W; x++) if (h_out[x * H + y] != h_in[y * W + x]) { printf("transpose (%d,%d)\n", x, y); ok = false; break; }
    // bitonic
    unsigned L = SHARED_SIZE_LIMIT, batch = 8;
    unsigned *hk = (unsigned *)malloc(L * batch * 4), *hv = (unsigned *)malloc(L * batch * 4);
    for (unsigned i = 0; i < L * batch; i++) { hk[i] = rand() % 100000; hv[i] = i; }
    unsigned *dk, *dv, *dk2, *dv2;
    checkCudaErrors(cudaMalloc(&dk, L * batch * 4)); checkCudaErrors(cudaMalloc(&dv, L * batch * 4));
    checkCudaErrors(cudaMalloc(&dk2, L * batch * 4)); checkCudaErrors(cudaMalloc(&dv2, L * batch * 4));
    checkCudaErrors(cudaMemcpy(dk, hk, L * batch * 4, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(dv, hv, L * batch * 4, cudaMemcpyHostToDevice));
    bitonicSortShared<<<batch, SHARED_SIZE_LIMIT / 2>>>(dk2, dv2, dk, dv, L, 1);
    getLastCudaError("bitonicSortShared");
    unsigned *ok2 = (unsigned *)malloc(L * batch * 4), *ov2 = (unsigned *)malloc(L * batch * 4);
    checkCudaErrors(cudaMemcpy(ok2, dk2, L * batch * 4, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaMemcpy(ov2, dv2, L * batch * 4, cudaMemcpyDeviceToHost));
    for (unsigned b = 0; b < batch && ok; b++)
        for (unsigned i = 0; i < L; i++) {
            if (i && ok2[b * L + i - 1] > ok2[b * L + i]) { printf("bitonic order %u/%u\n", b, i); ok = false; break; }
            if (hk[ov2[b * L + i]] != ok2[b * L + i]) { printf("bitonic value %u/%u\n", b, i); ok = false; break; }
        }
    // fwt: one radix-4 pass checked against the host butterfly
    int N = 1 << 12;
    float *hf = (float *)malloc(N * 4), *hg = (float *)malloc(N * 4), *df, *dg;
    for (int i = 0; i < N; i++) hf[i] = (float)((i * 37) % 11) - 5.0f;
    checkCudaErrors(cudaMalloc(&df, N * 4)); checkCudaErrors(cudaMalloc(&dg, N * 4));
    checkCudaErrors(cudaMemcpy(df, hf, N * 4, cudaMemcpyHostToDevice));
    int stride = 64;
    fwtBatch2Kernel<<<dim3(N / 4 / 256, 1), 256>>>(dg, df, stride);
    checkCudaErrors(cudaMemcpy(hg, dg, N * 4, cudaMemcpyDeviceToHost));
    for (int pos = 0; pos < N / 4 && ok; pos++) {
        int lo = pos & (stride - 1), i0 = ((pos - lo) << 2) + lo, i1 = i0 + stride, i2 = i1 + stride, i3 = i2 + stride;
        float D0 = hf[i0] + hf[i2], D2 = hf[i0] - hf[i2], D1 = hf[i1] + hf[i3], D3 = hf[i1] - hf[i3];
        if (hg[i0] != D0 + D1 || hg[i1] != D0 - D1 || hg[i2] != D2 + D3 || hg[i3] != D2 - D3) { printf("fwt %d\n", pos); ok = false; }
    }
    // convolution rows
    float hK[KERNEL_LENGTH];
    for (int i = 0; i < KERNEL_LENGTH; i++) hK[i] = (float)(rand() % 16);
    checkCudaErrors(cudaMemcpyToSymbol(c_Kernel, hK, sizeof(hK)));
    int iw = 256, ih = 64;
    float *hs = (float *)malloc(iw * ih * 4), *hd = (float *)malloc(iw * ih * 4), *ds, *dd;
    for (int i = 0; i < iw * ih; i++) hs[i] = (float)(rand() % 16);
    checkCudaErrors(cudaMalloc(&ds, iw * ih * 4)); checkCudaErrors(cudaMalloc(&dd, iw * ih * 4));
    checkCudaErrors(cudaMemcpy(ds, hs, iw * ih * 4, cudaMemcpyHostToDevice));
    convolutionRowsKernel<<<dim3(iw / (ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X), ih / ROWS_BLOCKDIM_Y), dim3(ROWS_BLOCKDIM_X, ROWS_BLOCKDIM_Y)>>>(dd, ds, iw, ih, iw);
    checkCudaErrors(cudaMemcpy(hd, dd, iw * ih * 4, cudaMemcpyDeviceToHost));
    for (int y = 0; y < ih && ok; y++)
        for (int x = 0; x < iw; x++) {
            float sum = 0;
            for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; k++) { int d = x + k; if (d >= 0 && d < iw) sum += hs[y * iw + d] * hK[KERNEL_RADIUS - k]; }
            if (sum != hd[y * iw + x]) { printf("convolution (%d,%d) %f vs %f\n", x, y, hd[y * iw + x], sum); ok = false; break; }
        }
    // naive scan
    int sn = 512;
    float *hsi = (float *)malloc(sn * 4), *hso = (float *)malloc(sn * 4), *dsi, *dso;
    for (int i = 0; i < sn; i++) hsi[i] = (float)(i % 3);
    checkCudaErrors(cudaMalloc(&dsi, sn * 4)); checkCudaErrors(cudaMalloc(&dso, sn * 4));
    checkCudaErrors(cudaMemcpy(dsi, hsi, sn * 4, cudaMemcpyHostToDevice));
    scan_naive<<<1, sn, 2 * sn * sizeof(float)>>>(dso, dsi, sn);
    checkCudaErrors(cudaMemcpy(hso, dso, sn * 4, cudaMemcpyDeviceToHost));
    float acc = 0;
    for (int i = 0; i < sn; i++) { if (hso[i] != acc) { printf("scan %d\n", i); ok = false; break; } acc += hsi[i]; }
    SMP_RESULT("smp_algos", ok);
}
