// memcpy_2d3d.cu - pitched 2D and 3D allocations, copies and memsets, checked against host arrays.
#include "cuda_check.h"
#include <string.h>

__global__ void scale2d(float *p, size_t pitch, int w, int h, float f)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float *row = (float *)((char *)p + y * pitch);
        row[x] = row[x] * f + y;
    }
}

__global__ void add3d(cudaPitchedPtr p, int w, int h, int d)
{
    int x = threadIdx.x, y = blockIdx.y, z = blockIdx.z;
    if (x < w && y < h && z < d) {
        int *row = (int *)((char *)p.ptr + (z * h + y) * p.pitch);
        row[x] += x + 10 * y + 100 * z;
    }
}

int main()
{
    // 2D: 37 x 19 floats
    const int w = 37, h = 19;
    static float a[h][w], b[h][w];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            a[y][x] = (float)(x + y * w);
    float *d2;
    size_t pitch;
    CHECK(cudaMallocPitch((void **)&d2, &pitch, w * sizeof(float), h));
    EXPECT(pitch >= w * sizeof(float), "pitch %zu too small", pitch);
    CHECK(cudaMemcpy2D(d2, pitch, a, w * sizeof(float), w * sizeof(float), h,
                       cudaMemcpyHostToDevice));
    dim3 blk(16, 8), grd((w + 15) / 16, (h + 7) / 8);
    scale2d<<<grd, blk>>>(d2, pitch, w, h, 2.0f);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy2D(b, w * sizeof(float), d2, pitch, w * sizeof(float), h,
                       cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            EXPECT(b[y][x] == a[y][x] * 2.0f + y, "2D [%d][%d] = %g", y, x, b[y][x]);
    // memset a 5-row band of bytes, then read a sub-rectangle back
    CHECK(cudaMemset2D((char *)d2 + 3 * pitch, pitch, 0, 10 * sizeof(float), 5));
    static float sub[8][12];
    CHECK(cudaMemcpy2D(sub, 12 * sizeof(float), (char *)d2 + 2 * pitch, pitch,
                       12 * sizeof(float), 8, cudaMemcpyDeviceToHost));
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 12; x++) {
            int yy = y + 2;
            float want = (yy >= 3 && yy < 8 && x < 10) ? 0.0f : a[yy][x] * 2.0f + yy;
            EXPECT(sub[y][x] == want, "memset2D [%d][%d] = %g want %g", yy, x, sub[y][x], want);
        }
    // device-to-device 2D copy into a plain array
    float *dflat;
    CHECK(cudaMalloc(&dflat, w * h * sizeof(float)));
    CHECK(cudaMemcpy2D(dflat, w * sizeof(float), d2, pitch, w * sizeof(float), h,
                       cudaMemcpyDeviceToDevice));
    static float flat[h][w];
    CHECK(cudaMemcpy(flat, dflat, sizeof flat, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float want = (y >= 3 && y < 8 && x < 10) ? 0.0f : a[y][x] * 2.0f + y;
            EXPECT(flat[y][x] == want, "D2D [%d][%d] = %g want %g", y, x, flat[y][x], want);
        }

    // 3D: 21 x 6 x 5 ints
    const int W = 21, H = 6, D = 5;
    static int v[D][H][W], r[D][H][W];
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                v[z][y][x] = x * y - z;
    cudaExtent ext = make_cudaExtent(W * sizeof(int), H, D);
    cudaPitchedPtr dp;
    CHECK(cudaMalloc3D(&dp, ext));
    EXPECT(dp.pitch >= W * sizeof(int) && dp.xsize == W * sizeof(int) && dp.ysize == (size_t)H,
           "cudaMalloc3D pitch %zu xsize %zu ysize %zu", dp.pitch, dp.xsize, dp.ysize);
    CHECK(cudaMemset3D(dp, 0x01, ext));
    cudaMemcpy3DParms cp;
    memset(&cp, 0, sizeof cp);
    // copy a 3-layer box into layers 1..3, rows 1..4, columns 2..18
    cp.srcPtr = make_cudaPitchedPtr(v, W * sizeof(int), W, H);
    cp.srcPos = make_cudaPos(2 * sizeof(int), 1, 1);
    cp.dstPtr = dp;
    cp.dstPos = make_cudaPos(2 * sizeof(int), 1, 1);
    cp.extent = make_cudaExtent(17 * sizeof(int), 4, 3);
    cp.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&cp));
    add3d<<<dim3(1, H, D), 32>>>(dp, W, H, D);
    CHECK_LAUNCH();
    memset(&cp, 0, sizeof cp);
    cp.srcPtr = dp;
    cp.dstPtr = make_cudaPitchedPtr(r, W * sizeof(int), W, H);
    cp.extent = ext;
    cp.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&cp));
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int inbox = x >= 2 && x < 19 && y >= 1 && y < 5 && z >= 1 && z < 4;
                int want = (inbox ? v[z][y][x] : 0x01010101) + x + 10 * y + 100 * z;
                EXPECT(r[z][y][x] == want, "3D [%d][%d][%d] = %d want %d", z, y, x, r[z][y][x],
                       want);
            }
    CHECK(cudaFree(d2));
    CHECK(cudaFree(dflat));
    CHECK(cudaFree(dp.ptr));
    printf("memcpy_2d3d: PASSED\n");
    return 0;
}
