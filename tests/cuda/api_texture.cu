// api_texture.cu - CUDA arrays (1D linear, 2D, 3D, layered, pitched) with texture objects
// (point and linear filtering, clamp/wrap/border, normalized coordinates and reads) and
// surface writes, against C references of the CUDA programming guide's sampling formulas.
#include <math.h>
#include <string.h>
#include "cuda_check.h"

#define W 16
#define H 8
#define D 4

__global__ void sample2d(float *out, cudaTextureObject_t t, const float2 *uv, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<float>(t, uv[i].x, uv[i].y);
}

__global__ void sample3d(float *out, cudaTextureObject_t t, const float4 *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex3D<float>(t, p[i].x, p[i].y, p[i].z);
}

__global__ void sample_layered(float *out, cudaTextureObject_t t, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)   // texel (x, y) of layer i % D, point sampled at its centre
        out[i] = tex2DLayered<float>(t, (i % W) + 0.5f, ((i / W) % H) + 0.5f, i % D);
}

__global__ void fetch1d(int *out, cudaTextureObject_t t, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<int>(t, i - 2);   // two reads before and after the buffer give 0
}

__global__ void read_uchar4(float4 *out, cudaTextureObject_t t, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<float4>(t, (i % W) + 0.5f, (i / W) + 0.5f);
}

__global__ void sample_cube(float *out, cudaTextureObject_t t)
{
    // the centre of each face: +X, -X, +Y, -Y, +Z, -Z
    const float d[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    int f = threadIdx.x;
    out[f] = texCubemap<float>(t, d[f][0], d[f][1], d[f][2]);
}

__global__ void surf_write(cudaSurfaceObject_t s)
{
    int x = threadIdx.x, y = blockIdx.x;
    surf2Dwrite(x * 100 + y, s, x * (int)sizeof(int), y);
}

static float img[H][W], vol[D][H][W];

// CUDA's address modes on an integer texel index.
static int addr(int i, int n, int mode)
{
    if (mode == cudaAddressModeClamp) return i < 0 ? 0 : i >= n ? n - 1 : i;
    if (mode == cudaAddressModeWrap) return ((i % n) + n) % n;
    return (i < 0 || i >= n) ? -1 : i;   // border
}

static float texel2(int x, int y, int mode)
{
    int xi = addr(x, W, mode), yi = addr(y, H, mode);
    return (xi < 0 || yi < 0) ? 0.0f : img[yi][xi];
}

// Linear filtering (programming guide, "Texture Fetching"): tex(x,y) = (1-a)(1-b)T[i,j] + ...
// with xB = x - 0.5, i = floor(xB), a = frac(xB) (the test uses fractions exact in 1/256).
static float ref_linear2(float x, float y, int mode)
{
    float xb = x - 0.5f, yb = y - 0.5f;
    int i = (int)floorf(xb), j = (int)floorf(yb);
    float a = xb - floorf(xb), b = yb - floorf(yb);
    return (1 - a) * (1 - b) * texel2(i, j, mode) + a * (1 - b) * texel2(i + 1, j, mode) +
           (1 - a) * b * texel2(i, j + 1, mode) + a * b * texel2(i + 1, j + 1, mode);
}

int main()
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) img[y][x] = (float)(x * x - 3 * y) / 4.0f;
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) vol[z][y][x] = (float)(1000 * z + 10 * y + x);

    // ---- 2D float array, linear filtering, clamp then border, unnormalized coordinates
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    EXPECT(fd.x == 32 && fd.y == 0 && fd.f == cudaChannelFormatKindFloat, "channel desc");
    cudaArray_t a2, bad_a;
    CHECK(cudaMallocArray(&a2, &fd, W, H));
    CHECK(cudaMemcpy2DToArray(a2, 0, 0, img, W * sizeof(float), W * sizeof(float), H,
                              cudaMemcpyHostToDevice));
    cudaChannelFormatDesc gd;
    cudaExtent ge;
    unsigned gf;
    CHECK(cudaArrayGetInfo(&gd, &ge, &gf, a2));
    EXPECT(gd.x == 32 && ge.width == W && ge.height == H && ge.depth == 0, "array info");
    const int n = 64;
    float2 huv[n];
    for (int i = 0; i < n; i++)   // from outside the left/top edges to past the right/bottom
        huv[i] = make_float2(-1.0f + (i % 16) * 1.125f, -0.75f + (i / 16) * 2.375f);
    float2 *uv;
    float *out, hout[n];
    CHECK(cudaMalloc(&uv, sizeof huv));
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    CHECK(cudaMemcpy(uv, huv, sizeof huv, cudaMemcpyHostToDevice));
    const int modes[2] = {cudaAddressModeClamp, cudaAddressModeBorder};
    for (int m = 0; m < 2; m++) {
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = a2;
        cudaTextureDesc td;
        memset(&td, 0, sizeof td);
        td.addressMode[0] = td.addressMode[1] = (cudaTextureAddressMode)modes[m];
        td.filterMode = cudaFilterModeLinear;
        td.readMode = cudaReadModeElementType;
        cudaTextureObject_t t;
        CHECK(cudaCreateTextureObject(&t, &rd, &td, NULL));
        sample2d<<<1, n>>>(out, t, uv, n);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) {
            float want = ref_linear2(huv[i].x, huv[i].y, modes[m]);
            EXPECT(fabsf(hout[i] - want) <= 1e-4f * (1 + fabsf(want)),
                   "2D linear mode %d at (%g, %g): %g, want %g", modes[m], huv[i].x, huv[i].y,
                   hout[i], want);
        }
        cudaResourceDesc back;
        CHECK(cudaGetTextureObjectResourceDesc(&back, t));
        EXPECT(back.resType == cudaResourceTypeArray && back.res.array.array == a2, "res desc");
        CHECK(cudaDestroyTextureObject(t));
    }

    // ---- 3D array, point sampling, wrap, normalized coordinates
    cudaArray_t a3;
    CHECK(cudaMalloc3DArray(&a3, &fd, make_cudaExtent(W, H, D), 0));
    cudaMemcpy3DParms cp;
    memset(&cp, 0, sizeof cp);
    cp.srcPtr = make_cudaPitchedPtr(vol, W * sizeof(float), W, H);
    cp.dstArray = a3;
    cp.extent = make_cudaExtent(W, H, D);
    cp.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&cp));
    cudaResourceDesc rd3;
    memset(&rd3, 0, sizeof rd3);
    rd3.resType = cudaResourceTypeArray;
    rd3.res.array.array = a3;
    cudaTextureDesc td3;
    memset(&td3, 0, sizeof td3);
    td3.addressMode[0] = td3.addressMode[1] = td3.addressMode[2] = cudaAddressModeWrap;
    td3.filterMode = cudaFilterModePoint;
    td3.normalizedCoords = 1;
    cudaTextureObject_t t3;
    CHECK(cudaCreateTextureObject(&t3, &rd3, &td3, NULL));
    float4 hp[n];
    for (int i = 0; i < n; i++)   // texel centres, some shifted by whole periods (wrap)
        hp[i] = make_float4(((i * 5) % W + 0.5f) / W + (i % 3) - 1, ((i * 3) % H + 0.5f) / H,
                            ((i % D) + 0.5f) / D + (i % 2), 0);
    float4 *p;
    CHECK(cudaMalloc(&p, sizeof hp));
    CHECK(cudaMemcpy(p, hp, sizeof hp, cudaMemcpyHostToDevice));
    sample3d<<<1, n>>>(out, t3, p, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        float want = vol[i % D][(i * 3) % H][(i * 5) % W];
        EXPECT(hout[i] == want, "3D wrap texel %d: %g, want %g", i, hout[i], want);
    }
    // read the 3D array back through cudaMemcpy3D
    static float back3[D][H][W];
    memset(&cp, 0, sizeof cp);
    cp.srcArray = a3;
    cp.dstPtr = make_cudaPitchedPtr(back3, W * sizeof(float), W, H);
    cp.extent = make_cudaExtent(W, H, D);
    cp.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&cp));
    EXPECT(!memcmp(back3, vol, sizeof vol), "3D array round trip");

    // ---- layered 2D array (D layers), point sampling
    cudaArray_t al;
    CHECK(cudaMalloc3DArray(&al, &fd, make_cudaExtent(W, H, D), cudaArrayLayered));
    memset(&cp, 0, sizeof cp);
    cp.srcPtr = make_cudaPitchedPtr(vol, W * sizeof(float), W, H);
    cp.dstArray = al;
    cp.extent = make_cudaExtent(W, H, D);
    cp.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&cp));
    rd3.res.array.array = al;
    td3.normalizedCoords = 0;
    td3.addressMode[0] = td3.addressMode[1] = cudaAddressModeClamp;
    cudaTextureObject_t tl;
    CHECK(cudaCreateTextureObject(&tl, &rd3, &td3, NULL));
    float *lout, hl[W * H];
    CHECK(cudaMalloc(&lout, sizeof hl));
    sample_layered<<<1, W * H>>>(lout, tl, W * H);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hl, lout, sizeof hl, cudaMemcpyDeviceToHost));
    for (int i = 0; i < W * H; i++)
        EXPECT(hl[i] == vol[i % D][(i / W) % H][i % W], "layered texel %d: %g", i, hl[i]);

    // ---- 1D texture on linear memory: tex1Dfetch, out-of-range reads give 0
    int hv[40], *lin, *iout, hi[44];
    for (int i = 0; i < 40; i++) hv[i] = 7 * i - 11;
    CHECK(cudaMalloc(&lin, sizeof hv));
    CHECK(cudaMalloc(&iout, sizeof hi));
    CHECK(cudaMemcpy(lin, hv, sizeof hv, cudaMemcpyHostToDevice));
    cudaResourceDesc rl;
    memset(&rl, 0, sizeof rl);
    rl.resType = cudaResourceTypeLinear;
    rl.res.linear.devPtr = lin;
    rl.res.linear.desc = cudaCreateChannelDesc<int>();
    rl.res.linear.sizeInBytes = sizeof hv;
    cudaTextureDesc tdl;
    memset(&tdl, 0, sizeof tdl);
    cudaTextureObject_t t1;
    CHECK(cudaCreateTextureObject(&t1, &rl, &tdl, NULL));
    fetch1d<<<1, 44>>>(iout, t1, 44);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hi, iout, sizeof hi, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 44; i++) {
        int want = (i - 2 >= 0 && i - 2 < 40) ? hv[i - 2] : 0;
        EXPECT(hi[i] == want, "tex1Dfetch(%d) = %d, want %d", i - 2, hi[i], want);
    }

    // ---- pitched 2D memory of uchar4 read as normalized floats
    uchar4 hc[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) hc[y][x] = make_uchar4(x * 16, y * 32, 255, (x + y) & 255);
    uchar4 *pc;
    size_t pitch;
    CHECK(cudaMallocPitch(&pc, &pitch, W * sizeof(uchar4), H));
    CHECK(cudaMemcpy2D(pc, pitch, hc, W * sizeof(uchar4), W * sizeof(uchar4), H,
                       cudaMemcpyHostToDevice));
    cudaResourceDesc rp;
    memset(&rp, 0, sizeof rp);
    rp.resType = cudaResourceTypePitch2D;
    rp.res.pitch2D.devPtr = pc;
    rp.res.pitch2D.desc = cudaCreateChannelDesc<uchar4>();
    rp.res.pitch2D.width = W;
    rp.res.pitch2D.height = H;
    rp.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc tdp;
    memset(&tdp, 0, sizeof tdp);
    tdp.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t tp;
    CHECK(cudaCreateTextureObject(&tp, &rp, &tdp, NULL));
    float4 *f4, hf4[W * H];
    CHECK(cudaMalloc(&f4, sizeof hf4));
    read_uchar4<<<1, W * H>>>(f4, tp, W * H);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hf4, f4, sizeof hf4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < W * H; i++) {
        uchar4 c = hc[i / W][i % W];
        EXPECT(hf4[i].x == c.x / 255.0f && hf4[i].y == c.y / 255.0f && hf4[i].z == 1.0f &&
                   hf4[i].w == c.w / 255.0f, "normalized read %d: %g %g %g %g", i, hf4[i].x,
               hf4[i].y, hf4[i].z, hf4[i].w);
    }

    // ---- cubemap: 6 faces of 8 x 8; a direction through a face's centre reads texel (4, 4)
    static float cube[6][8][8];
    for (int f = 0; f < 6; f++)
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 8; x++) cube[f][y][x] = (float)(100 * f + 10 * y + x);
    cudaArray_t ac;
    CHECK(cudaMalloc3DArray(&ac, &fd, make_cudaExtent(8, 8, 6), cudaArrayCubemap));
    memset(&cp, 0, sizeof cp);
    cp.srcPtr = make_cudaPitchedPtr(cube, 8 * sizeof(float), 8, 8);
    cp.dstArray = ac;
    cp.extent = make_cudaExtent(8, 8, 6);
    cp.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&cp));
    rd3.res.array.array = ac;
    td3.normalizedCoords = 1;
    cudaTextureObject_t tc;
    CHECK(cudaCreateTextureObject(&tc, &rd3, &td3, NULL));
    sample_cube<<<1, 6>>>(out, tc);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(hout, out, 6 * sizeof(float), cudaMemcpyDeviceToHost));
    for (int f = 0; f < 6; f++)
        EXPECT(hout[f] == cube[f][4][4], "cube face %d centre: %g, want %g", f, hout[f],
               cube[f][4][4]);
    EXPECT(cudaMalloc3DArray(&bad_a, &fd, make_cudaExtent(8, 4, 6), cudaArrayCubemap) ==
               cudaErrorInvalidValue, "non-square cubemap accepted");
    (void)cudaGetLastError();
    CHECK(cudaDestroyTextureObject(tc));
    CHECK(cudaFreeArray(ac));

    // ---- surface writes into a 2D int array, read back
    cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
    cudaArray_t as;
    CHECK(cudaMallocArray(&as, &id, W, H, cudaArraySurfaceLoadStore));
    cudaResourceDesc rs;
    memset(&rs, 0, sizeof rs);
    rs.resType = cudaResourceTypeArray;
    rs.res.array.array = as;
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &rs));
    surf_write<<<H, W>>>(s);
    CHECK_LAUNCH();
    int hs[H][W];
    CHECK(cudaMemcpy2DFromArray(hs, W * sizeof(int), as, 0, 0, W * sizeof(int), H,
                                cudaMemcpyDeviceToHost));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            EXPECT(hs[y][x] == x * 100 + y, "surface (%d, %d) = %d", x, y, hs[y][x]);
    // a surface needs cudaArraySurfaceLoadStore
    rs.res.array.array = a2;
    cudaSurfaceObject_t bad;
    EXPECT(cudaCreateSurfaceObject(&bad, &rs) != cudaSuccess, "surface on a plain array");
    (void)cudaGetLastError();
    // copies outside the array are refused
    EXPECT(cudaMemcpy2DToArray(a2, 4, 0, img, W * sizeof(float), W * sizeof(float), H,
                               cudaMemcpyHostToDevice) == cudaErrorInvalidValue,
           "copy past the array's row accepted");
    (void)cudaGetLastError();

    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaDestroyTextureObject(t3));
    CHECK(cudaDestroyTextureObject(tl));
    CHECK(cudaDestroyTextureObject(t1));
    CHECK(cudaDestroyTextureObject(tp));
    CHECK(cudaFreeArray(a2));
    CHECK(cudaFreeArray(a3));
    CHECK(cudaFreeArray(al));
    CHECK(cudaFreeArray(as));
    printf("api_texture: PASSED\n");
    return 0;
}
