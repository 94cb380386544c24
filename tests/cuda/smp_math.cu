// smp_math.cu - device math the kernel test programs of libraries check: single and double
// precision functions against the host libm within a few ulp, fast intrinsics within their
// documented error, integer intrinsics bit-exact, half/bfloat16 packed arithmetic, conversions
// with every rounding mode, and saturation.
// cuda-G-build
#include "smp_helper.h"
#include <math.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define NF 16
__global__ void fmath(const float *x, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    float *r = o + i * NF;
    r[0] = sinf(v); r[1] = cosf(v); r[2] = expf(v); r[3] = logf(fabsf(v) + 1.0f);
    r[4] = sqrtf(fabsf(v)); r[5] = tanhf(v); r[6] = atan2f(v, 0.75f); r[7] = powf(fabsf(v) + 0.5f, 1.7f);
    r[8] = erff(v); r[9] = cbrtf(v); r[10] = hypotf(v, 2.0f); r[11] = rsqrtf(fabsf(v) + 1.0f);
    r[12] = __expf(v); r[13] = __sinf(v); r[14] = __fdividef(v, 3.0f); r[15] = __saturatef(v);
}
#define ND 10
__global__ void dmath(const double *x, double *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = x[i];
    double *r = o + i * ND;
    r[0] = sin(v); r[1] = cos(v); r[2] = exp(v); r[3] = log(fabs(v) + 1.0); r[4] = sqrt(fabs(v));
    r[5] = tanh(v); r[6] = pow(fabs(v) + 0.5, 2.3); r[7] = fma(v, 3.0, -1.0); r[8] = erfc(v); r[9] = lgamma(fabs(v) + 0.5);
}
__global__ void imath(const unsigned *x, unsigned *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned a = x[i], b = x[(i + 1) % n];
    unsigned *r = o + i * 12;
    r[0] = __popc(a); r[1] = __clz(a); r[2] = __ffs(a); r[3] = __brev(a);
    r[4] = __byte_perm(a, b, 0x5140); r[5] = __funnelshift_l(a, b, i & 31); r[6] = __umulhi(a, b);
    r[7] = __sad(a & 0xffff, b & 0xffff, 7u); r[8] = (unsigned)__mul24((int)(a & 0xffffff), (int)(b & 0x7fffff));
    r[9] = __vabsdiffu4(a, b); r[10] = (unsigned)__popcll(((unsigned long long)a << 32) | b); r[11] = __uhadd(a, b);
}
__global__ void hmath(const float *x, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n / 2) return;
    half2 a = __floats2half2_rn(x[2 * i], x[2 * i + 1]);
    half2 b = __float2half2_rn(0.5f);
    half2 c = __hfma2(a, b, __hadd2(a, a));
    half2 d = __hmul2(c, __hsub2(a, b));
    float2 f = __half22float2(d);
    o[4 * i] = f.x; o[4 * i + 1] = f.y;
    __nv_bfloat162 ba = __floats2bfloat162_rn(x[2 * i], x[2 * i + 1]);
    __nv_bfloat162 bb = __hmul2(ba, ba);
    o[4 * i + 2] = __low2float(bb); o[4 * i + 3] = __high2float(bb);
}
__global__ void conv(const float *x, int *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i] * 1000.0f;
    o[i * 6 + 0] = __float2int_rn(v); o[i * 6 + 1] = __float2int_rz(v);
    o[i * 6 + 2] = __float2int_rd(v); o[i * 6 + 3] = __float2int_ru(v);
    o[i * 6 + 4] = (int)__float2uint_rn(fabsf(v)); o[i * 6 + 5] = __float_as_int(__int2float_rn(i * 7919 + 16777217));
}

static int ulp_diff(float a, float b)
{
    if (a == b) return 0;
    if (isnan(a) && isnan(b)) return 0;
    int ia, ib; memcpy(&ia, &a, 4); memcpy(&ib, &b, 4);
    if ((ia < 0) != (ib < 0)) return 1 << 30;
    return abs(ia - ib);
}
static float hround(float f) { return __half2float(__float2half_rn(f)); }

int main(int argc, char **argv)
{
    findCudaDevice(argc, (const char **)argv);
    bool ok = true;
    const int n = 1024;
    float *hx = (float *)malloc(n * 4), *ho = (float *)malloc(n * NF * 4);
    for (int i = 0; i < n; i++) hx[i] = -4.0f + 8.0f * i / n + 0.001f * (i % 7);
    float *dx, *dout;
    checkCudaErrors(cudaMalloc(&dx, n * 4)); checkCudaErrors(cudaMalloc(&dout, n * NF * 4));
    checkCudaErrors(cudaMemcpy(dx, hx, n * 4, cudaMemcpyHostToDevice));
    fmath<<<(n + 127) / 128, 128>>>(dx, dout, n);
    getLastCudaError("fmath");
    checkCudaErrors(cudaMemcpy(ho, dout, n * NF * 4, cudaMemcpyDeviceToHost));
    // CUDA's documented maximum ulp errors (sinf/cosf 2, expf 2, logf 1, sqrtf 0, tanhf 2, atan2f 3,
    // powf 4, erff 2, cbrtf 1, hypotf 3, rsqrtf 2) with a little slack
    const int maxulp[12] = {2, 2, 2, 1, 0, 2, 3, 4, 2, 1, 3, 2};
    for (int i = 0; i < n && ok; i++) {
        double v = hx[i];
        double ref[12] = {sin(v), cos(v), exp(v), log(fabs(v) + 1.0), sqrt(fabs(v)), tanh(v), atan2(v, 0.75),
                          pow(fabs(v) + 0.5, 1.7), erf(v), cbrt(v), hypot(v, 2.0), 1.0 / sqrt(fabs(v) + 1.0)};
        for (int k = 0; k < 12; k++) {
            float want = (float)ref[k];
            int u = ulp_diff(ho[i * NF + k], want);
            if (u > maxulp[k] + 1 && fabs(ho[i * NF + k] - want) > 1e-6) { printf("float fn %d at %f: %.9g vs %.9g (%d ulp)\n", k, v, ho[i * NF + k], want, u); ok = false; break; }
        }
        if (fabs(ho[i * NF + 12] - exp(v)) > 1e-5 * exp(v) + 2e-6 * fabs(v) * exp(v) + 1e-6) { printf("__expf %f: %g\n", v, ho[i * NF + 12]); ok = false; }
        if (fabs(ho[i * NF + 13] - sin(v)) > 1e-5) { printf("__sinf %f: %g\n", v, ho[i * NF + 13]); ok = false; }
        if (fabs(ho[i * NF + 14] - v / 3.0) > 1e-6 * fabs(v) + 1e-7) { printf("__fdividef\n"); ok = false; }
        float sat = v < 0 ? 0.0f : v > 1 ? 1.0f : (float)v;
        if (ho[i * NF + 15] != sat) { printf("__saturatef %f: %g\n", v, ho[i * NF + 15]); ok = false; }
    }
    double *hdx = (double *)malloc(n * 8), *hdo = (double *)malloc(n * ND * 8), *ddx, *ddo;
    for (int i = 0; i < n; i++) hdx[i] = -3.0 + 6.0 * i / n + 1e-7 * i;
    checkCudaErrors(cudaMalloc(&ddx, n * 8)); checkCudaErrors(cudaMalloc(&ddo, n * ND * 8));
    checkCudaErrors(cudaMemcpy(ddx, hdx, n * 8, cudaMemcpyHostToDevice));
    dmath<<<(n + 127) / 128, 128>>>(ddx, ddo, n);
    checkCudaErrors(cudaMemcpy(hdo, ddo, n * ND * 8, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n && ok; i++) {
        double v = hdx[i];
        double ref[ND] = {sin(v), cos(v), exp(v), log(fabs(v) + 1.0), sqrt(fabs(v)), tanh(v), pow(fabs(v) + 0.5, 2.3), fma(v, 3.0, -1.0), erfc(v), lgamma(fabs(v) + 0.5)};
        for (int k = 0; k < ND; k++) {
            double tol = (k == 4 || k == 7) ? 0 : 4e-15 * fabs(ref[k]) + 1e-300;
            if (k == 9) tol = 1e-14 * fabs(ref[k]) + 1e-15;
            if (fabs(hdo[i * ND + k] - ref[k]) > tol) { printf("double fn %d at %.17g: %.17g vs %.17g\n", k, v, hdo[i * ND + k], ref[k]); ok = false; break; }
        }
    }
    unsigned *hu = (unsigned *)malloc(n * 4), *huo = (unsigned *)malloc(n * 12 * 4), *du, *duo;
    for (int i = 0; i < n; i++) hu[i] = (unsigned)(i * 2654435761u) ^ (unsigned)(i << 7);
    hu[0] = 0;
    checkCudaErrors(cudaMalloc(&du, n * 4)); checkCudaErrors(cudaMalloc(&duo, n * 12 * 4));
    checkCudaErrors(cudaMemcpy(du, hu, n * 4, cudaMemcpyHostToDevice));
    imath<<<(n + 127) / 128, 128>>>(du, duo, n);
    checkCudaErrors(cudaMemcpy(huo, duo, n * 12 * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n && ok; i++) {
        unsigned a = hu[i], b = hu[(i + 1) % n], r[12];
        r[0] = __builtin_popcount(a); r[1] = a ? __builtin_clz(a) : 32; r[2] = a ? __builtin_ctz(a) + 1 : 0;
        r[3] = 0; for (int k = 0; k < 32; k++) if (a & (1u << k)) r[3] |= 1u << (31 - k);
        unsigned long long ab = ((unsigned long long)b << 32) | a;
        unsigned sel[4] = {0, 4, 1, 5}; r[4] = 0;
        for (int k = 0; k < 4; k++) r[4] |= (unsigned)((ab >> (8 * sel[k])) & 0xff) << (8 * k);
        int s = i & 31; r[5] = s ? (unsigned)(((((unsigned long long)b << 32) | a) << s) >> 32) : b;
        r[6] = (unsigned)(((unsigned long long)a * b) >> 32);
        int ad = (int)(a & 0xffff) - (int)(b & 0xffff); r[7] = (unsigned)abs(ad) + 7;
        long long m24 = (long long)((int)((a & 0xffffff) << 8) >> 8) * (int)(b & 0x7fffff); r[8] = (unsigned)m24;
        r[9] = 0; for (int k = 0; k < 4; k++) { int x = (a >> (8 * k)) & 0xff, y = (b >> (8 * k)) & 0xff; r[9] |= (unsigned)abs(x - y) << (8 * k); }
        r[10] = __builtin_popcount(a) + __builtin_popcount(b);
        r[11] = (unsigned)(((unsigned long long)a + b) >> 1);
        for (int k = 0; k < 12; k++) if (huo[i * 12 + k] != r[k]) { printf("int intrinsic %d at %d: %08x vs %08x\n", k, i, huo[i * 12 + k], r[k]); ok = false; break; }
    }
    float *dho; float *hho = (float *)malloc(n * 2 * 4);
    checkCudaErrors(cudaMalloc(&dho, n * 2 * 4));
    hmath<<<(n / 2 + 127) / 128, 128>>>(dx, dho, n);
    checkCudaErrors(cudaMemcpy(hho, dho, n * 2 * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n / 2 && ok; i++)
        for (int l = 0; l < 2; l++) {
            float a = hround(hx[2 * i + l]);
            float c = hround(fmaf(a, 0.5f, hround(a + a)));
            float d = hround(c * hround(a - 0.5f));
            if (hho[4 * i + l] != d) { printf("half2 %d: %g vs %g\n", i, hho[4 * i + l], d); ok = false; break; }
            float ba = __bfloat162float(__float2bfloat16_rn(hx[2 * i + l]));
            float bb = __bfloat162float(__float2bfloat16_rn(ba * ba));
            if (hho[4 * i + 2 + l] != bb) { printf("bf162 %d: %g vs %g\n", i, hho[4 * i + 2 + l], bb); ok = false; break; }
        }
    int *dci, *hci = (int *)malloc(n * 6 * 4);
    checkCudaErrors(cudaMalloc(&dci, n * 6 * 4));
    conv<<<(n + 127) / 128, 128>>>(dx, dci, n);
    checkCudaErrors(cudaMemcpy(hci, dci, n * 6 * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n && ok; i++) {
        float v = hx[i] * 1000.0f;
        int r[6] = {(int)nearbyintf(v), (int)truncf(v), (int)floorf(v), (int)ceilf(v), (int)(unsigned)nearbyintf(fabsf(v)), 0};
        float f = (float)(i * 7919 + 16777217); memcpy(&r[5], &f, 4);
        for (int k = 0; k < 6; k++) if (hci[i * 6 + k] != r[k]) { printf("conversion %d at %d (%f): %d vs %d\n", k, i, v, hci[i * 6 + k], r[k]); ok = false; break; }
    }
    SMP_RESULT("smp_math", ok);
}
