// smp_texture.cu - simpleTexture / simpleTexture3D / simpleLayeredTexture / simpleCubemapTexture /
// simpleSurfaceWrite patterns: CUDA arrays filled with cudaMemcpy2DToArray/cudaMemcpy3D, texture
// objects with normalised coordinates, wrap addressing and linear filtering, point-sampled
// layered and cubemap textures, a surface object written by surf2Dwrite and read back, and
// tex1Dfetch on a linear-memory texture.
#include "smp_helper.h"
#include <math.h>

__global__ void transformKernel(float *outputData, int width, int height, float theta, cudaTextureObject_t tex)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    float u = (float)x - (float)width / 2, v = (float)y - (float)height / 2;
    float tu = u * cosf(theta) - v * sinf(theta), tv = v * cosf(theta) + u * sinf(theta);
    tu /= (float)width; tv /= (float)height;
    outputData[y * width + x] = tex2D<float>(tex, tu + 0.5f, tv + 0.5f);
}
__global__ void layered(float *out, cudaTextureObject_t tex, int w, int h, int layers)
{
    int x = threadIdx.x, y = blockIdx.x;
    for (int l = 0; l < layers; l++) out[(l * h + y) * w + x] = -tex2DLayered<float>(tex, x + 0.5f, y + 0.5f, l);
}
__global__ void cube(float *out, cudaTextureObject_t tex, int w)
{
    int x = threadIdx.x, y = blockIdx.x;
    float cx = ((x + 0.5f) / (float)w) * 2.f - 1.f, cy = ((y + 0.5f) / (float)w) * 2.f - 1.f;
    for (int face = 0; face < 6; face++) {
        float rx, ry, rz;
        if (face == 0) { rx = 1; ry = -cy; rz = -cx; }
        else if (face == 1) { rx = -1; ry = -cy; rz = cx; }
        else if (face == 2) { rx = cx; ry = 1; rz = cy; }
        else if (face == 3) { rx = cx; ry = -1; rz = -cy; }
        else if (face == 4) { rx = cx; ry = -cy; rz = 1; }
        else { rx = -cx; ry = -cy; rz = -1; }
        out[(face * w + y) * w + x] = texCubemap<float>(tex, rx, ry, rz);
    }
}
__global__ void tex3d(float *out, cudaTextureObject_t tex, int n)
{
    int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
    out[(z * n + y) * n + x] = tex3D<float>(tex, x + 0.5f, y + 0.5f, z + 0.5f);
}
__global__ void surfWrite(cudaSurfaceObject_t surf, cudaTextureObject_t in, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float v = tex2D<float>(in, x + 0.5f, y + 0.5f);
        surf2Dwrite(v * 2.0f + 1.0f, surf, x * sizeof(float), y);
    }
}
__global__ void fetch(const cudaTextureObject_t t, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<int>(t, n - 1 - i);
}

static cudaTextureObject_t make_tex(cudaArray_t arr, cudaTextureAddressMode am, cudaTextureFilterMode fm, int norm)
{
    cudaResourceDesc r; memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray; r.res.array.array = arr;
    cudaTextureDesc t; memset(&t, 0, sizeof t);
    t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = am;
    t.filterMode = fm; t.readMode = cudaReadModeElementType; t.normalizedCoords = norm;
    cudaTextureObject_t o;
    checkCudaErrors(cudaCreateTextureObject(&o, &r, &t, NULL));
    return o;
}

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    const int W = 64, H = 64;
    float *img = (float *)malloc(W * H * 4);
    for (int i = 0; i < W * H; i++) img[i] = (float)((i % W) * 3 + (i / W));
    cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t arr;
    checkCudaErrors(cudaMallocArray(&arr, &cd, W, H));
    checkCudaErrors(cudaMemcpy2DToArray(arr, 0, 0, img, W * 4, W * 4, H, cudaMemcpyHostToDevice));
    // rotation by 0 with point sampling returns the image
    cudaTextureObject_t tex = make_tex(arr, cudaAddressModeWrap, cudaFilterModePoint, 1);
    float *d_out; checkCudaErrors(cudaMalloc(&d_out, W * H * 4));
    float *h_out = (float *)malloc(W * H * 4);
    transformKernel<<<dim3(W / 8, H / 8), dim3(8, 8)>>>(d_out, W, H, 0.0f, tex);
    checkCudaErrors(cudaDeviceSynchronize());
    checkCudaErrors(cudaMemcpy(h_out, d_out, W * H * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < W * H; i++) if (h_out[i] != img[i]) { printf("tex2D point %d: %f vs %f\n", i, h_out[i], img[i]); ok = false; break; }
    // linear filtering halfway between texels: (x, y) at texel centres + 0.5 -> average of four
    cudaTextureObject_t lin = make_tex(arr, cudaAddressModeClamp, cudaFilterModeLinear, 0);
    transformKernel<<<dim3(W / 8, H / 8), dim3(8, 8)>>>(d_out, W, H, 0.0f, lin);
    checkCudaErrors(cudaMemcpy(h_out, d_out, W * H * 4, cudaMemcpyDeviceToHost));
    // unnormalised: tu+0.5 = x/W - 0.5 + 0.5 ... with normalizedCoords 0 the coordinate is in texels
    // x/W - 0.5 + 0.5 = x/W < 1 -> samples between texel 0's centre (0.5) and left edge: clamp -> img[0]
    if (fabsf(h_out[0] - img[0]) > 1e-4f) { printf("tex2D linear clamp %f vs %f\n", h_out[0], img[0]); ok = false; }
    // layered
    int LW = 16, LH = 8, L = 3;
    float *lay = (float *)malloc(LW * LH * L * 4), *lout = (float *)malloc(LW * LH * L * 4);
    for (int i = 0; i < LW * LH * L; i++) lay[i] = (float)i;
    cudaArray_t larr;
    checkCudaErrors(cudaMalloc3DArray(&larr, &cd, make_cudaExtent(LW, LH, L), cudaArrayLayered));
    cudaMemcpy3DParms p = {0};
    p.srcPos = make_cudaPos(0, 0, 0); p.dstPos = make_cudaPos(0, 0, 0);
    p.srcPtr = make_cudaPitchedPtr(lay, LW * 4, LW, LH);
    p.dstArray = larr; p.extent = make_cudaExtent(LW, LH, L); p.kind = cudaMemcpyHostToDevice;
    checkCudaErrors(cudaMemcpy3D(&p));
    cudaTextureObject_t ltex = make_tex(larr, cudaAddressModeClamp, cudaFilterModePoint, 0);
    float *dl; checkCudaErrors(cudaMalloc(&dl, LW * LH * L * 4));
    layered<<<LH, LW>>>(dl, ltex, LW, LH, L);
    checkCudaErrors(cudaMemcpy(lout, dl, LW * LH * L * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < LW * LH * L; i++) if (lout[i] != -lay[i]) { printf("layered %d: %f\n", i, lout[i]); ok = false; break; }
    // cubemap
    int CW = 8;
    float *cub = (float *)malloc(CW * CW * 6 * 4), *cout_ = (float *)malloc(CW * CW * 6 * 4);
    for (int i = 0; i < CW * CW * 6; i++) cub[i] = (float)i;
    cudaArray_t carr;
    checkCudaErrors(cudaMalloc3DArray(&carr, &cd, make_cudaExtent(CW, CW, 6), cudaArrayCubemap));
    p = cudaMemcpy3DParms{0};
    p.srcPtr = make_cudaPitchedPtr(cub, CW * 4, CW, CW);
    p.dstArray = carr; p.extent = make_cudaExtent(CW, CW, 6); p.kind = cudaMemcpyHostToDevice;
    checkCudaErrors(cudaMemcpy3D(&p));
    cudaTextureObject_t ctex = make_tex(carr, cudaAddressModeWrap, cudaFilterModePoint, 1);
    float *dc; checkCudaErrors(cudaMalloc(&dc, CW * CW * 6 * 4));
    cube<<<CW, CW>>>(dc, ctex, CW);
    checkCudaErrors(cudaMemcpy(cout_, dc, CW * CW * 6 * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < CW * CW * 6; i++) if (cout_[i] != cub[i]) { printf("cubemap %d: %f\n", i, cout_[i]); ok = false; break; }
    // 3D
    int N3 = 8;
    float *v3 = (float *)malloc(N3 * N3 * N3 * 4), *o3 = (float *)malloc(N3 * N3 * N3 * 4);
    for (int i = 0; i < N3 * N3 * N3; i++) v3[i] = (float)(i * 2);
    cudaArray_t a3;
    checkCudaErrors(cudaMalloc3DArray(&a3, &cd, make_cudaExtent(N3, N3, N3)));
    p = cudaMemcpy3DParms{0};
    p.srcPtr = make_cudaPitchedPtr(v3, N3 * 4, N3, N3);
    p.dstArray = a3; p.extent = make_cudaExtent(N3, N3, N3); p.kind = cudaMemcpyHostToDevice;
    checkCudaErrors(cudaMemcpy3D(&p));
    cudaTextureObject_t t3 = make_tex(a3, cudaAddressModeClamp, cudaFilterModePoint, 0);
    float *d3; checkCudaErrors(cudaMalloc(&d3, N3 * N3 * N3 * 4));
    tex3d<<<N3, dim3(N3, N3)>>>(d3, t3, N3);
    checkCudaErrors(cudaMemcpy(o3, d3, N3 * N3 * N3 * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N3 * N3 * N3; i++) if (o3[i] != v3[i]) { printf("tex3D %d: %f\n", i, o3[i]); ok = false; break; }
    // surface write
    cudaArray_t sarr;
    checkCudaErrors(cudaMallocArray(&sarr, &cd, W, H, cudaArraySurfaceLoadStore));
    cudaResourceDesc sr; memset(&sr, 0, sizeof sr);
    sr.resType = cudaResourceTypeArray; sr.res.array.array = sarr;
    cudaSurfaceObject_t surf;
    checkCudaErrors(cudaCreateSurfaceObject(&surf, &sr));
    cudaTextureObject_t pt = make_tex(arr, cudaAddressModeClamp, cudaFilterModePoint, 0);
    surfWrite<<<dim3(W / 16, H / 16), dim3(16, 16)>>>(surf, pt, W, H);
    checkCudaErrors(cudaMemcpy2DFromArray(h_out, W * 4, sarr, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
    for (int i = 0; i < W * H; i++) if (h_out[i] != img[i] * 2 + 1) { printf("surface %d: %f\n", i, h_out[i]); ok = false; break; }
    // linear memory texture
    int n = 1000; int *hl = (int *)malloc(n * 4), *dl2, *dlo;
    for (int i = 0; i < n; i++) hl[i] = i * i;
    checkCudaErrors(cudaMalloc(&dl2, n * 4)); checkCudaErrors(cudaMalloc(&dlo, n * 4));
    checkCudaErrors(cudaMemcpy(dl2, hl, n * 4, cudaMemcpyHostToDevice));
    cudaResourceDesc lr; memset(&lr, 0, sizeof lr);
    lr.resType = cudaResourceTypeLinear; lr.res.linear.devPtr = dl2;
    lr.res.linear.desc = cudaCreateChannelDesc<int>(); lr.res.linear.sizeInBytes = n * 4;
    cudaTextureDesc td; memset(&td, 0, sizeof td); td.readMode = cudaReadModeElementType;
    cudaTextureObject_t lt;
    checkCudaErrors(cudaCreateTextureObject(&lt, &lr, &td, NULL));
    fetch<<<(n + 127) / 128, 128>>>(lt, dlo, n);
    int *hlo = (int *)malloc(n * 4);
    checkCudaErrors(cudaMemcpy(hlo, dlo, n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if (hlo[i] != hl[n - 1 - i]) { printf("tex1Dfetch %d\n", i); ok = false; break; }
    checkCudaErrors(cudaDestroyTextureObject(tex)); checkCudaErrors(cudaDestroySurfaceObject(surf));
    checkCudaErrors(cudaFreeArray(arr)); checkCudaErrors(cudaFreeArray(larr));
    SMP_RESULT("smp_texture", ok);
}
