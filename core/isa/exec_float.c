/* exec_float.c - f32/f64 arithmetic: add..fma with exact directed rounding, div/rcp/sqrt, approximations, min/max, testp. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "exec_insn.h"
#include "exec_fp.h"

/* Instruction flags of this family (exec_insn.flags); the rounding mode is in exec_insn.bop. */
enum { FL_FTZ = 1, FL_SAT = 2, FL_NAN = 4, FL_XORSIGN = 8 };

/* =============================================================================================
 * Exact rounding helpers.
 * ============================================================================================= */
float exec_fp_f32_mode(double x, int mode)
{
    if (mode == EXEC_RN)
        return x == x ? (float)x : exec_u2f(EXEC_NAN32);
    return exec_u2f(exec_fp_from_double(&exec_fmt_f32, x, mode, 0));
}

/* A directed-mode IEEE operation is exact by definition: run it under fesetround. Used only
 * for rare directed f64 mul/fma/div/sqrt; the volatile operands keep the compiler from moving
 * the operation across the mode switch. */
double exec_fp_f64_mode(int op, double a, double b, double c, int mode)
{
    static const int fe[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
    volatile double va = a, vb = b, vc = c, vr;
    int old = fegetround();
    fesetround(fe[mode & 3]);
    switch (op) {
    case 0: vr = va + vb; break;
    case 1: vr = va * vb; break;
    case 2: vr = fma(va, vb, vc); break;
    case 3: vr = va / vb; break;
    default: vr = sqrt(va); break;
    }
    fesetround(old);
    return vr;
}

/* Directed f64 rounding of s + e where s = RN(x) and e the exact error. */
static inline double dir64(double s, double e, int mode)
{
    if (e == 0 || mode == EXEC_RN)
        return s;
    switch (mode) {
    case EXEC_RZ: return (e > 0) != (s > 0) ? nextafter(s, 0.0) : s;
    case EXEC_RM: return e < 0 ? nextafter(s, -INFINITY) : s;
    default:      return e > 0 ? nextafter(s, INFINITY) : s;
    }
}
/* Result of an overflow (s = +-inf from finite operands) in a directed mode. */
static inline double ovf64(double s, int mode)
{
    if (mode == EXEC_RZ || (mode == EXEC_RM && s > 0) || (mode == EXEC_RP && s < 0))
        return copysign(1.7976931348623157e308, s);
    return s;
}

/* Canonical NaN of an f64 result. The ISA (floating-point instructions, intro) says "NaN
 * payloads are supported for double-precision instructions (except rcp.approx.ftz.f64 and
 * rsqrt.approx.ftz.f64)" while single-precision ones return an unspecified NaN (the canonical
 * 0x7fffffff on sm_80/sm_90, which is what f32 results here give). So an f64 input NaN is
 * propagated quieted (the first NaN operand in a, b, c order) and a NaN created by the
 * operation (inf - inf, 0 * inf, sqrt(-1)) is 0x7fffffffffffffff. */
static inline double nan64(double r, double x, double y, double z)
{
    if (r == r)
        return r;
    if (x != x) return exec_u2d(exec_d2u(x) | 0x0008000000000000ull);
    if (y != y) return exec_u2d(exec_d2u(y) | 0x0008000000000000ull);
    if (z != z) return exec_u2d(exec_d2u(z) | 0x0008000000000000ull);
    return exec_u2d(EXEC_NAN64);
}

/* =============================================================================================
 * f32 core operations in mode `mo` (exact: TwoSum / exact products in double, round-to-odd,
 * then one rounding to f32), and the approximations.
 *   add/sub/mul/fma/div/sqrt/rcp .rn .rz .rm .rp: IEEE 754 correctly rounded.
 *   .approx rcp/sqrt/rsqrt/sin/cos/lg2/ex2/tanh: computed in double and rounded to nearest f32
 *     (error < 1 ulp, inside every bound the spec states); the hardware MUFU results may
 *     differ in the last bits.
 *   div.approx = a * rcp(b) with the reciprocal flushed (so 2^126 < |b| gives 0, inf/b NaN);
 *   div.full = correctly rounded quotient; both flush subnormal inputs and results.
 * ============================================================================================= */
/* Sign of an exact zero sum a + b (IEEE 754: -0 only for -0 + -0, or any cancellation in .rm). */
static inline double zero_sum(double a, double b, int mo)
{
    int neg = (a == 0 && b == 0) ? (signbit(a) && signbit(b)) || (mo == EXEC_RM && (signbit(a) || signbit(b)))
                                 : mo == EXEC_RM;
    return neg ? -0.0 : 0.0;
}
static inline float f32_add(float a, float b, int mo)
{
    if (mo == EXEC_RN)
        return a + b;
    double s, e = exec_fp_twosum(a, b, &s);
    if (s == 0)
        return (float)zero_sum(a, b, mo);
    return exec_fp_f32_mode(exec_fp_odd(s, e), mo);
}
static inline float f32_mul(float a, float b, int mo)
{
    return mo == EXEC_RN ? a * b : exec_fp_f32_mode((double)a * b, mo);
}
static inline float f32_fma(float a, float b, float c, int mo)
{
    double p = (double)a * b, s, e = exec_fp_twosum(p, c, &s);
    if (s == 0)
        return (float)zero_sum(p, c, mo);
    return exec_fp_f32_mode(exec_fp_odd(s, e), mo);
}
static inline float f32_div(float a, float b, int mo)
{
    double q = (double)a / b;
    if (mo == EXEC_RN)
        return (float)q;
    double e = 0;
    if (q != 0 && q - q == 0)
        e = fma(-q, b, a) * b;
    return exec_fp_f32_mode(exec_fp_odd(q, e), mo);
}
static inline float f32_sqrt(float a, int mo)
{
    double s = sqrt((double)a);
    if (mo == EXEC_RN)
        return (float)s;
    double e = 0;
    if (s > 0 && s - s == 0)
        e = fma(-s, s, a);
    return exec_fp_f32_mode(exec_fp_odd(s, e), mo);
}

/* Generic f32 path: inputs copied (flushed under .ftz), all 32 lanes computed, results flushed,
 * saturated and NaN-canonicalised, then only the lanes of m written. */
static void f32_pre(exec_warp *w, const exec_insn *in, int n, float t[3][EXEC_LANES])
{
    for (int k = 0; k < 3; k++) {
        if (k >= n) {
            memset(t[k], 0, sizeof t[k]);
            continue;
        }
        const float *s = EXEC_SRC(w, in, k + 1);
        if (in->flags & FL_FTZ)
            for (int i = 0; i < EXEC_LANES; i++) t[k][i] = exec_ftz32(s[i]);
        else
            memcpy(t[k], s, sizeof t[k]);
    }
}
static int f32_post(exec_warp *w, const exec_insn *in, uint32_t m, float *r)
{
    float *d = EXEC_DST(w, in, 0);
    if (in->flags & FL_FTZ)
        for (int i = 0; i < EXEC_LANES; i++) r[i] = exec_ftz32(r[i]);
    if (in->flags & FL_SAT)
        for (int i = 0; i < EXEC_LANES; i++) r[i] = exec_sat32(r[i]);
    EXEC_LANES_DO(m, d[i] = exec_cnan32(r[i]));
    return EXEC_NEXT;
}
#define F32_GEN(name, N, EXPR)                                                                \
    static int name(exec_warp *w, const exec_insn *in, uint32_t m)                           \
    {                                                                                        \
        float t[3][EXEC_LANES], r[EXEC_LANES];                                               \
        int mo = in->bop;                                                                    \
        (void)mo;                                                                            \
        f32_pre(w, in, N, t);                                                                \
        for (int i = 0; i < EXEC_LANES; i++) {                                               \
            float x = t[0][i], y = t[1][i], z = t[2][i];                                     \
            (void)y; (void)z;                                                                \
            r[i] = (EXPR);                                                                   \
        }                                                                                    \
        return f32_post(w, in, m, r);                                                        \
    }
F32_GEN(h_f32_add, 2, f32_add(x, y, mo))
F32_GEN(h_f32_sub, 2, f32_add(x, -y, mo))
F32_GEN(h_f32_mul, 2, f32_mul(x, y, mo))
F32_GEN(h_f32_fma, 3, f32_fma(x, y, z, mo))
F32_GEN(h_f32_div, 2, f32_div(x, y, mo))
F32_GEN(h_f32_rcp, 1, f32_div(1.0f, x, mo))
F32_GEN(h_f32_sqrt, 1, f32_sqrt(x, mo))
F32_GEN(h_f32_rcp_approx, 1, (float)(1.0 / x))
F32_GEN(h_f32_sqrt_approx, 1, (float)sqrt((double)x))
F32_GEN(h_f32_rsqrt_approx, 1, (float)(1.0 / sqrt((double)x)))
F32_GEN(h_f32_sin_approx, 1, (float)sin((double)x))
F32_GEN(h_f32_cos_approx, 1, (float)cos((double)x))
F32_GEN(h_f32_lg2_approx, 1, (float)log2((double)x))
F32_GEN(h_f32_ex2_approx, 1, (float)exp2((double)x))
F32_GEN(h_f32_tanh_approx, 1, (float)tanh((double)x))
F32_GEN(h_f32_div_approx, 2, exec_ftz32(exec_ftz32(x) * exec_ftz32((float)(1.0 / exec_ftz32(y)))))
F32_GEN(h_f32_div_full, 2, exec_ftz32((float)((double)exec_ftz32(x) / exec_ftz32(y))))

/* Fast paths: .rn, no .ftz/.sat. All 32 lanes are computed into a local array (no aliasing
 * with the operands, fixed trip count: gcc vectorises these loops at -O2), NaNs canonicalised
 * branch-free, then the lanes of m are written. Inactive lanes compute garbage harmlessly. */
static inline void f32_store(float *d, float *restrict r, uint32_t m)
{
    for (int i = 0; i < EXEC_LANES; i++)
        r[i] = r[i] == r[i] ? r[i] : exec_u2f(EXEC_NAN32);
    if (m == EXEC_FULL)
        memcpy(d, r, sizeof(float) * EXEC_LANES);
    else
        for (int i = 0; i < EXEC_LANES; i++)
            if (m >> i & 1)
                d[i] = r[i];
}
/* Full mask: straight into the destination. A destination slot either is a source slot
 * (same lane index) or is disjoint from it, so there is no loop-carried dependence (ivdep). */
#define F32_FAST2(name, OPR)                                                                  \
    static int name(exec_warp *w, const exec_insn *in, uint32_t m)                           \
    {                                                                                        \
        const float *a = EXEC_SRC(w, in, 1), *b = EXEC_SRC(w, in, 2);                        \
        float *d = EXEC_DST(w, in, 0);                                                       \
        if (m == EXEC_FULL) {                                                                \
            _Pragma("GCC ivdep")                                                             \
            for (int i = 0; i < EXEC_LANES; i++) {                                           \
                float v = a[i] OPR b[i];                                                     \
                d[i] = v == v ? v : exec_u2f(EXEC_NAN32);                                    \
            }                                                                                \
            return EXEC_NEXT;                                                                \
        }                                                                                    \
        float r[EXEC_LANES];                                                                 \
        for (int i = 0; i < EXEC_LANES; i++)                                                 \
            r[i] = a[i] OPR b[i];                                                            \
        f32_store(d, r, m);                                                                  \
        return EXEC_NEXT;                                                                    \
    }
F32_FAST2(h_f32_add_rn, +)
F32_FAST2(h_f32_sub_rn, -)
F32_FAST2(h_f32_mul_rn, *)
/* fma.rn without a hardware FMA: exact via double (product exact, TwoSum, round to odd). */
static int h_f32_fma_rn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const float *a = EXEC_SRC(w, in, 1), *b = EXEC_SRC(w, in, 2), *c = EXEC_SRC(w, in, 3);
    float r[EXEC_LANES];
    for (int i = 0; i < EXEC_LANES; i++)
        r[i] = f32_fma(a[i], b[i], c[i], EXEC_RN);
    f32_store(EXEC_DST(w, in, 0), r, m);
    return EXEC_NEXT;
}

/* Runtime-dispatched FMA: x86-64's baseline has no fused multiply-add instruction, so fmaf()
 * would be a libm call per lane. These clones are compiled for fma+avx2 and chosen at decode
 * time when the CPU has FMA; an FMA instruction is exactly fma(), so results are identical. */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
__attribute__((target("fma,avx2"))) static void fma32_loop(float *r, const float *a,
                                                         const float *b, const float *c)
{
#pragma GCC ivdep
    for (int i = 0; i < EXEC_LANES; i++) {
        float v = __builtin_fmaf(a[i], b[i], c[i]);
        r[i] = v == v ? v : exec_u2f(EXEC_NAN32);
    }
}
__attribute__((target("fma,avx2"))) static void fma64_loop(double *restrict r, const double *a,
                                                         const double *b, const double *c)
{
    for (int i = 0; i < EXEC_LANES; i++)
        r[i] = __builtin_fma(a[i], b[i], c[i]);
}
static int cpu_has_fma(void)
{
    static int v = -1;
    if (v < 0) {
        __builtin_cpu_init();
        v = __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
    }
    return v;
}
#else
static void fma32_loop(float *r, const float *a, const float *b, const float *c)
{
    for (int i = 0; i < EXEC_LANES; i++) {
        float v = fmaf(a[i], b[i], c[i]);
        r[i] = v == v ? v : exec_u2f(EXEC_NAN32);
    }
}
static void fma64_loop(double *restrict r, const double *a, const double *b, const double *c)
{
    for (int i = 0; i < EXEC_LANES; i++)
        r[i] = fma(a[i], b[i], c[i]);
}
static int cpu_has_fma(void) { return 1; }
#endif
static int h_f32_fma_hw(exec_warp *w, const exec_insn *in, uint32_t m)
{
    float *d = EXEC_DST(w, in, 0);
    if (m == EXEC_FULL) {
        /* each lane reads its operands before writing its result: d may be a source */
        fma32_loop(d, EXEC_SRC(w, in, 1), EXEC_SRC(w, in, 2), EXEC_SRC(w, in, 3));
        return EXEC_NEXT;
    }
    float r[EXEC_LANES];
    fma32_loop(r, EXEC_SRC(w, in, 1), EXEC_SRC(w, in, 2), EXEC_SRC(w, in, 3));
    for (int i = 0; i < EXEC_LANES; i++)
        if (m >> i & 1)
            d[i] = r[i];
    return EXEC_NEXT;
}

/* =============================================================================================
 * f64: .rn natively; directed add by TwoSum, other directed operations exact under a
 * temporary rounding mode. NaN results: see nan64().
 * ============================================================================================= */
static inline double f64_add(double a, double b, int mo)
{
    double s, e = exec_fp_twosum(a, b, &s);
    if (mo == EXEC_RN)
        return s;
    if (s - s != 0)
        return (a - a == 0 && b - b == 0) ? ovf64(s, mo) : s;
    if (s == 0)
        return zero_sum(a, b, mo);
    return dir64(s, e, mo);
}
#define F64_GEN(name, N, RNEXPR, DIREXPR)                                                     \
    static int name(exec_warp *w, const exec_insn *in, uint32_t m)                           \
    {                                                                                        \
        double *d = EXEC_DST(w, in, 0);                                                      \
        const double *a = EXEC_SRC(w, in, 1);                                                \
        const double *b = N > 1 ? (const double *)EXEC_SRC(w, in, 2) : a;                   \
        const double *c = N > 2 ? (const double *)EXEC_SRC(w, in, 3) : a;                   \
        int mo = in->bop;                                                                    \
        if (mo == EXEC_RN)                                                                   \
            EXEC_LANES_DO(m, double x = a[i]; double y = b[i]; double z = c[i]; (void)y;     \
                          (void)z; double r = (RNEXPR); d[i] = nan64(r, x, N > 1 ? y : 0,    \
                                                                     N > 2 ? z : 0));        \
        else                                                                                 \
            EXEC_LANES_DO(m, double x = a[i]; double y = b[i]; double z = c[i]; (void)y;     \
                          (void)z; double r = (DIREXPR); d[i] = nan64(r, x, N > 1 ? y : 0,   \
                                                                      N > 2 ? z : 0));       \
        return EXEC_NEXT;                                                                    \
    }
/* .rn f64 fast paths: vectorised loop into a local array, then NaN lanes (rare) redone by
 * nan64() so the payload rule holds whatever NaN the host produced. */
static inline void f64_store(exec_warp *w, const exec_insn *in, uint32_t m, double *restrict r, int n)
{
    double *d = EXEC_DST(w, in, 0);
    int any = 0;
    for (int i = 0; i < EXEC_LANES; i++)
        any |= r[i] != r[i];
    if (any) {
        const double *a = EXEC_SRC(w, in, 1);
        const double *b = n > 1 ? (const double *)EXEC_SRC(w, in, 2) : a;
        const double *c = n > 2 ? (const double *)EXEC_SRC(w, in, 3) : a;
        for (int i = 0; i < EXEC_LANES; i++)
            if (r[i] != r[i])
                r[i] = nan64(r[i], a[i], n > 1 ? b[i] : 0, n > 2 ? c[i] : 0);
    }
    if (m == EXEC_FULL)
        memcpy(d, r, sizeof(double) * EXEC_LANES);
    else
        for (int i = 0; i < EXEC_LANES; i++)
            if (m >> i & 1)
                d[i] = r[i];
}
#define F64_FAST2(name, OPR)                                                                  \
    static int name(exec_warp *w, const exec_insn *in, uint32_t m)                           \
    {                                                                                        \
        const double *a = EXEC_SRC(w, in, 1), *b = EXEC_SRC(w, in, 2);                       \
        double *d = EXEC_DST(w, in, 0);                                                      \
        if (m == EXEC_FULL && d != a && d != b) {                                            \
            /* distinct slots: straight into d; NaN lanes redone from intact inputs */       \
            int any = 0;                                                                     \
            _Pragma("GCC ivdep")                                                             \
            for (int i = 0; i < EXEC_LANES; i++) {                                           \
                d[i] = a[i] OPR b[i];                                                        \
                any |= d[i] != d[i];                                                         \
            }                                                                                \
            if (any)                                                                         \
                for (int i = 0; i < EXEC_LANES; i++)                                         \
                    if (d[i] != d[i])                                                        \
                        d[i] = nan64(d[i], a[i], b[i], 0);                                   \
            return EXEC_NEXT;                                                                \
        }                                                                                    \
        double r[EXEC_LANES];                                                                \
        for (int i = 0; i < EXEC_LANES; i++)                                                 \
            r[i] = a[i] OPR b[i];                                                            \
        f64_store(w, in, m, r, 2);                                                           \
        return EXEC_NEXT;                                                                    \
    }
F64_FAST2(h_f64_add_rn, +)
F64_FAST2(h_f64_sub_rn, -)
F64_FAST2(h_f64_mul_rn, *)
static int h_f64_fma_rn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    double r[EXEC_LANES];
    if (cpu_has_fma()) {
        fma64_loop(r, EXEC_SRC(w, in, 1), EXEC_SRC(w, in, 2), EXEC_SRC(w, in, 3));
    } else {
        const double *a = EXEC_SRC(w, in, 1), *b = EXEC_SRC(w, in, 2), *c = EXEC_SRC(w, in, 3);
        for (int i = 0; i < EXEC_LANES; i++)
            r[i] = fma(a[i], b[i], c[i]);
    }
    f64_store(w, in, m, r, 3);
    return EXEC_NEXT;
}

F64_GEN(h_f64_add, 2, x + y, f64_add(x, y, mo))
F64_GEN(h_f64_sub, 2, x - y, f64_add(x, -y, mo))
F64_GEN(h_f64_mul, 2, x * y, exec_fp_f64_mode(1, x, y, 0, mo))
F64_GEN(h_f64_fma, 3, fma(x, y, z), exec_fp_f64_mode(2, x, y, z, mo))
F64_GEN(h_f64_div, 2, x / y, exec_fp_f64_mode(3, x, y, 0, mo))
F64_GEN(h_f64_rcp, 1, 1.0 / x, exec_fp_f64_mode(3, 1.0, x, 0, mo))
F64_GEN(h_f64_sqrt, 1, sqrt(x), exec_fp_f64_mode(4, x, 0, 0, mo))
F64_GEN(h_f64_rsqrt_approx, 1, 1.0 / sqrt(x), 1.0 / sqrt(x))

/* rcp.approx.ftz.f64: reciprocal of the upper word (1.11.20 format), low word of the result
 * zero; rsqrt.approx.ftz.f64: full-precision 1/sqrt. Subnormals flush; NaN -> 0x7fffffff00000000. */
static inline double ftz64(double x)
{
    uint64_t u = exec_d2u(x);
    return (u & 0x7ff0000000000000ull) ? x : exec_u2d(u & 0x8000000000000000ull);
}
static inline double rcp_gross(double x)
{
    if (x != x)
        return exec_u2d(0x7fffffff00000000ull);
    double t = ftz64(exec_u2d(exec_d2u(x) & 0xffffffff00000000ull));
    double r = ftz64(1.0 / t);
    return exec_u2d(exec_d2u(r) & 0xffffffff00000000ull);
}
static inline double rsqrt_ftz64(double x)
{
    if (x != x)
        return exec_u2d(0x7fffffff00000000ull);
    double r = ftz64(1.0 / sqrt(ftz64(x)));
    return r == r ? r : exec_u2d(0x7fffffff00000000ull);
}
EXEC_HANDLER1(h_f64_rcp_gross, double, double, rcp_gross(x))
EXEC_HANDLER1(h_f64_rsqrt_ftz, double, double, rsqrt_ftz64(x))

/* =============================================================================================
 * abs / neg (sign-bit operations; .ftz flushes first), copysign, min / max:
 *   min/max of a NaN and a number is the number; of two NaNs the canonical NaN; .NaN makes any
 *   NaN input give the canonical NaN; -0 < +0. .xorsign.abs: min/max of |a|, |b| with the sign
 *   a.sign ^ b.sign.
 * ============================================================================================= */
static inline float fminmax32(float a, float b, int max, int fl)
{
    uint32_t s = 0;
    if (fl & FL_FTZ) {
        a = exec_ftz32(a);
        b = exec_ftz32(b);
    }
    if (fl & FL_XORSIGN) {
        s = (exec_f2u(a) ^ exec_f2u(b)) & 0x80000000u;
        a = fabsf(a);
        b = fabsf(b);
    }
    float r;
    if (a != a)
        r = (b != b || (fl & FL_NAN)) ? exec_u2f(EXEC_NAN32) : b;
    else if (b != b)
        r = (fl & FL_NAN) ? exec_u2f(EXEC_NAN32) : a;
    else if (a == b)
        r = exec_u2f(max ? exec_f2u(a) & exec_f2u(b) : exec_f2u(a) | exec_f2u(b));
    else
        r = (a < b) != max ? a : b;
    if ((fl & FL_XORSIGN) && r == r)
        r = exec_u2f(exec_f2u(r) | s);
    return r;
}
static inline double fminmax64(double a, double b, int max, int fl)
{
    if (a != a)
        return (b != b || (fl & FL_NAN)) ? exec_u2d(EXEC_NAN64) : b;
    if (b != b)
        return (fl & FL_NAN) ? exec_u2d(EXEC_NAN64) : a;
    if (a == b)
        return exec_u2d(max ? exec_d2u(a) & exec_d2u(b) : exec_d2u(a) | exec_d2u(b));
    return (a < b) != max ? a : b;
}
EXEC_HANDLER2(h_f32_min, float, float, float, fminmax32(x, y, 0, in->flags))
/* Three inputs (PTX 8.8, sm_100): min(min(a, b), c), the same rules at each step. */
EXEC_HANDLER3(h_f32_min3, float, float, float, float,
              fminmax32(fminmax32(x, y, 0, in->flags), z, 0, in->flags))
EXEC_HANDLER3(h_f32_max3, float, float, float, float,
              fminmax32(fminmax32(x, y, 1, in->flags), z, 1, in->flags))
EXEC_HANDLER2(h_f32_max, float, float, float, fminmax32(x, y, 1, in->flags))
EXEC_HANDLER2(h_f64_min, double, double, double, fminmax64(x, y, 0, in->flags))
EXEC_HANDLER2(h_f64_max, double, double, double, fminmax64(x, y, 1, in->flags))
EXEC_HANDLER1(h_f32_abs, uint32_t, uint32_t, x & 0x7fffffffu)
EXEC_HANDLER1(h_f32_neg, uint32_t, uint32_t, x ^ 0x80000000u)
EXEC_HANDLER1(h_f32_abs_ftz, uint32_t, uint32_t, exec_f2u(exec_ftz32(exec_u2f(x))) & 0x7fffffffu)
EXEC_HANDLER1(h_f32_neg_ftz, uint32_t, uint32_t, exec_f2u(exec_ftz32(exec_u2f(x))) ^ 0x80000000u)
EXEC_HANDLER1(h_f64_abs, uint64_t, uint64_t, x & 0x7fffffffffffffffull)
EXEC_HANDLER1(h_f64_neg, uint64_t, uint64_t, x ^ 0x8000000000000000ull)
EXEC_HANDLER2(h_f32_copysign, uint32_t, uint32_t, uint32_t, (y & 0x7fffffffu) | (x & 0x80000000u))
EXEC_HANDLER2(h_f64_copysign, uint64_t, uint64_t, uint64_t,
              (y & 0x7fffffffffffffffull) | (x & 0x8000000000000000ull))

/* testp.class: per-lane class bit into a predicate. aux[0] = class. */
static inline int fclass(uint64_t u, int ebits, int mbits, int cls)
{
    uint64_t e = u >> mbits & ((1ull << ebits) - 1), man = u & ((1ull << mbits) - 1);
    uint64_t emax = (1ull << ebits) - 1;
    switch (cls) {
    case EXEC_CLS_FINITE:     return e != emax;
    case EXEC_CLS_INFINITE:   return e == emax && !man;
    case EXEC_CLS_NUMBER:     return !(e == emax && man);
    case EXEC_CLS_NOTANUMBER: return e == emax && man;
    case EXEC_CLS_NORMAL:     return e != 0 && e != emax;
    default:                  return e == 0 && man;
    }
}
static int h_testp32(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const uint32_t *a = EXEC_SRC(w, in, 1);
    uint32_t v = 0;
    for (int i = 0; i < EXEC_LANES; i++)
        v |= (uint32_t)fclass(a[i], 8, 23, (int)in->aux[0]) << i;
    exec_pred_set(w, &in->op[0], v, m);
    return EXEC_NEXT;
}
static int h_testp64(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const uint64_t *a = EXEC_SRC(w, in, 1);
    uint32_t v = 0;
    for (int i = 0; i < EXEC_LANES; i++)
        v |= (uint32_t)fclass(a[i], 11, 52, (int)in->aux[0]) << i;
    exec_pred_set(w, &in->op[0], v, m);
    return EXEC_NEXT;
}

/* =============================================================================================
 * Decoding.
 * ============================================================================================= */
static int one_ftype(exec_dec *d, const ptx_insn *pi, const exec_alu_mods *mo)
{
    if (mo->ntypes != 1 || (mo->t[0] != PTX_T_F32 && mo->t[0] != PTX_T_F64))
        return exec_dec_error(d, pi, "expects one type, .f32 or .f64");
    return mo->t[0] == PTX_T_F64;
}

static int half_type_in(const ptx_insn *pi)
{
    for (int k = 0; k < pi->nmods; k++) {
        const char *s = pi->mods[k];
        if (!strcmp(s, "f16") || !strcmp(s, "f16x2") || !strcmp(s, "bf16") || !strcmp(s, "bf16x2"))
            return 1;
    }
    return 0;
}

/* ---- .f32x2 (sm_100): add/sub/mul{.rnd}{.ftz}.f32x2 and fma.rnd{.ftz}.f32x2 on .b64 registers
 * holding two f32 values (element 0 in bits 0-31): each element computed as the f32
 * instruction would (rounding, .ftz on inputs and result, canonical NaN). ---------------- */
static float f32x2_el(int op, float x, float y, float z, int mo, int ftz)
{
    if (ftz) {
        x = exec_ftz32(x);
        y = exec_ftz32(y);
        z = exec_ftz32(z);
    }
    float r = op == EXEC_ALU_ADD ? f32_add(x, y, mo) : op == EXEC_ALU_SUB ? f32_add(x, -y, mo)
            : op == EXEC_ALU_MUL ? f32_mul(x, y, mo) : f32_fma(x, y, z, mo);
    return exec_cnan32(ftz ? exec_ftz32(r) : r);
}

static int h_f32x2(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint64_t *d = EXEC_DST(w, in, 0);
    const uint64_t *a = EXEC_SRC(w, in, 1), *b = EXEC_SRC(w, in, 2);
    const uint64_t *c = in->type2 == EXEC_ALU_FMA ? EXEC_SRC(w, in, 3) : a;
    int op = in->type2, mo = in->bop, ftz = in->flags & FL_FTZ;
    EXEC_LANES_DO(m, uint64_t r = 0;
                  for (int e = 0; e < 2; e++) {
                      float x = exec_u2f((uint32_t)(a[i] >> (32 * e)));
                      float y = exec_u2f((uint32_t)(b[i] >> (32 * e)));
                      float z = exec_u2f((uint32_t)(c[i] >> (32 * e)));
                      r |= (uint64_t)exec_f2u(f32x2_el(op, x, y, z, mo, ftz)) << (32 * e);
                  }
                  d[i] = r);
    return EXEC_NEXT;
}

static int exec_dec_f32x2(exec_dec *d, const ptx_insn *pi, exec_insn *in, int op)
{
    static const char *const rnd[] = { "rn", "rz", "rm", "rp" };
    static const int modes[] = { EXEC_RN, EXEC_RZ, EXEC_RM, EXEC_RP };
    int mode = -1, ftz = 0;
    if (op != EXEC_ALU_ADD && op != EXEC_ALU_SUB && op != EXEC_ALU_MUL && op != EXEC_ALU_FMA)
        return exec_dec_error(d, pi, ".f32x2 is for add, sub, mul and fma");
    for (int i = 0; i < pi->nmods; i++) {
        const char *s = pi->mods[i];
        int k = 0;
        while (k < 4 && strcmp(s, rnd[k]))
            k++;
        if (k < 4 && mode < 0) mode = modes[k];
        else if (!strcmp(s, "ftz")) ftz = 1;
        else if (strcmp(s, "f32x2"))
            return exec_dec_error(d, pi, "unsupported modifier .%s for .f32x2", s);
    }
    if (op == EXEC_ALU_FMA && mode < 0)
        return exec_dec_error(d, pi, "fma.f32x2 requires a rounding modifier");
    in->bop = (uint8_t)(mode < 0 ? EXEC_RN : mode);
    in->flags = (uint8_t)(ftz ? FL_FTZ : 0);
    in->type = PTX_T_B64;
    in->type2 = (uint8_t)op;
    in->fn = h_f32x2;
    ptx_type ty[4] = { PTX_T_B64, PTX_T_B64, PTX_T_B64, PTX_T_B64 };
    return exec_alu_ops(d, pi, in, op == EXEC_ALU_FMA ? 4 : 3, ty);
}

int exec_float_decode(exec_dec *d, const ptx_insn *pi, exec_insn *in, int op)
{
    if (ptx_insn_has_mod(pi, "f32x2"))
        return exec_dec_f32x2(d, pi, in, op);
    exec_alu_mods mo;
    uint64_t allow;
    switch (op) {
    case EXEC_ALU_ADD: case EXEC_ALU_SUB: case EXEC_ALU_MUL: case EXEC_ALU_FMA:
        allow = EXEC_MB_RND | EXEC_MB(FTZ) | EXEC_MB(SAT);
        break;
    case EXEC_ALU_DIV:
        allow = EXEC_MB_RND | EXEC_MB(FTZ) | EXEC_MB(APPROX) | EXEC_MB(FULL);
        break;
    case EXEC_ALU_MIN: case EXEC_ALU_MAX:
        allow = EXEC_MB(FTZ) | EXEC_MB(NAN) | EXEC_MB(XORSIGN) | EXEC_MB(ABS);
        break;
    case EXEC_ALU_ABS: case EXEC_ALU_NEG:
        allow = EXEC_MB(FTZ);
        break;
    default:
        allow = EXEC_MB(APPROX) | EXEC_MB(FTZ);
        break;
    }
    if (exec_alu_parse(d, pi, allow, &mo))
        return -1;
    int is64 = one_ftype(d, pi, &mo);
    if (is64 < 0)
        return -1;
    ptx_type t = mo.t[0];
    if (is64 && (mo.bits & (EXEC_MB(FTZ) | EXEC_MB(SAT) | EXEC_MB(APPROX) | EXEC_MB(FULL) |
                            EXEC_MB(XORSIGN))))
        return exec_dec_error(d, pi, ".ftz/.sat/.approx/.full/.xorsign are not supported for .f64");
    if ((op == EXEC_ALU_MIN || op == EXEC_ALU_MAX) && pi->nops == 4 && (mo.bits & EXEC_MB(ABS)))
        return exec_dec_error(d, pi, "three-input min/max with .abs is not modelled");
    if (((mo.bits & EXEC_MB(XORSIGN)) != 0) != ((mo.bits & EXEC_MB(ABS)) != 0))
        return exec_dec_error(d, pi, ".xorsign requires .abs");
    int rnd = exec_alu_rnd(&mo, EXEC_RN);
    in->bop = (uint8_t)rnd;
    in->flags = (uint8_t)(((mo.bits & EXEC_MB(FTZ)) ? FL_FTZ : 0) |
                          ((mo.bits & EXEC_MB(SAT)) ? FL_SAT : 0) |
                          ((mo.bits & EXEC_MB(NAN)) ? FL_NAN : 0) |
                          ((mo.bits & EXEC_MB(XORSIGN)) ? FL_XORSIGN : 0));
    in->type = (uint8_t)t;
    int plain = rnd == EXEC_RN && !in->flags;
    int n = 3;
    switch (op) {
    case EXEC_ALU_ADD:
        in->fn = is64 ? (rnd == EXEC_RN ? h_f64_add_rn : h_f64_add) : plain ? h_f32_add_rn : h_f32_add;
        break;
    case EXEC_ALU_SUB:
        in->fn = is64 ? (rnd == EXEC_RN ? h_f64_sub_rn : h_f64_sub) : plain ? h_f32_sub_rn : h_f32_sub;
        break;
    case EXEC_ALU_MUL:
        if (mo.bits & (EXEC_MB(LO) | EXEC_MB(HI) | EXEC_MB(WIDE)))
            return exec_dec_error(d, pi, ".lo/.hi/.wide are for integer types");
        in->fn = is64 ? (rnd == EXEC_RN ? h_f64_mul_rn : h_f64_mul) : plain ? h_f32_mul_rn : h_f32_mul;
        break;
    case EXEC_ALU_FMA:
        in->fn = is64 ? (rnd == EXEC_RN ? h_f64_fma_rn : h_f64_fma)
                 : plain ? (cpu_has_fma() ? h_f32_fma_hw : h_f32_fma_rn) : h_f32_fma;
        n = 4;
        break;
    case EXEC_ALU_DIV:
        if (is64 && !(mo.bits & EXEC_MB_RND))
            return exec_dec_error(d, pi, "div.f64 requires a rounding modifier");
        if (!is64 && !(mo.bits & (EXEC_MB_RND | EXEC_MB(APPROX) | EXEC_MB(FULL))))
            return exec_dec_error(d, pi, "div.f32 requires .approx, .full or a rounding modifier");
        if ((mo.bits & (EXEC_MB(APPROX) | EXEC_MB(FULL))) && (mo.bits & EXEC_MB_RND))
            return exec_dec_error(d, pi, ".approx/.full take no rounding modifier");
        in->fn = is64 ? h_f64_div
                 : (mo.bits & EXEC_MB(APPROX)) ? h_f32_div_approx
                 : (mo.bits & EXEC_MB(FULL)) ? h_f32_div_full : h_f32_div;
        break;
    case EXEC_ALU_MIN:
    case EXEC_ALU_MAX:
        in->fn = op == EXEC_ALU_MIN ? (is64 ? h_f64_min : h_f32_min)
                                    : (is64 ? h_f64_max : h_f32_max);
        if (pi->nops == 4) {   /* min/max.f32 d, a, b, c (PTX 8.8) */
            if (is64 || (mo.bits & EXEC_MB(ABS)))
                return exec_dec_error(d, pi, "three inputs are for .f32 without .abs");
            in->fn = op == EXEC_ALU_MIN ? h_f32_min3 : h_f32_max3;
            n = 4;
        }
        break;
    case EXEC_ALU_ABS:
        in->fn = is64 ? h_f64_abs : (in->flags & FL_FTZ) ? h_f32_abs_ftz : h_f32_abs;
        n = 2;
        break;
    case EXEC_ALU_NEG:
        in->fn = is64 ? h_f64_neg : (in->flags & FL_FTZ) ? h_f32_neg_ftz : h_f32_neg;
        n = 2;
        break;
    default:
        return exec_dec_error(d, pi, "unsupported floating-point form");
    }
    ptx_type ty[4] = { t, t, t, t };
    return exec_alu_ops(d, pi, in, n, ty);
}

/* fma: f32/f64 (rounding modifier required) or f16/bf16 forms. */
int exec_dec_fma(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    if (half_type_in(pi))
        return exec_half_decode(d, pi, in, EXEC_ALU_FMA);
    return exec_float_decode(d, pi, in, EXEC_ALU_FMA);
}

/* rcp / sqrt: .rn/.rz/.rm/.rp (f32 .ftz), .approx{.ftz}.f32; rcp.approx.ftz.f64. */
static int exec_dec_rcpsqrt(exec_dec *d, const ptx_insn *pi, exec_insn *in, int sq)
{
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, EXEC_MB_RND | EXEC_MB(FTZ) | EXEC_MB(APPROX), &mo))
        return -1;
    int is64 = one_ftype(d, pi, &mo);
    if (is64 < 0)
        return -1;
    int approx = !!(mo.bits & EXEC_MB(APPROX)), rnd = !!(mo.bits & EXEC_MB_RND);
    if (approx == rnd)
        return exec_dec_error(d, pi, "requires exactly one of .approx or a rounding modifier");
    in->bop = (uint8_t)exec_alu_rnd(&mo, EXEC_RN);
    in->flags = (mo.bits & EXEC_MB(FTZ)) ? FL_FTZ : 0;
    in->type = (uint8_t)mo.t[0];
    if (is64) {
        if (approx) {
            if (sq || !(mo.bits & EXEC_MB(FTZ)))
                return exec_dec_error(d, pi, "only rcp.approx.ftz.f64 is an f64 approximation");
            in->fn = h_f64_rcp_gross;
        } else {
            if (mo.bits & EXEC_MB(FTZ))
                return exec_dec_error(d, pi, ".ftz is not supported for .f64");
            in->fn = sq ? h_f64_sqrt : h_f64_rcp;
        }
    } else {
        in->fn = approx ? (sq ? h_f32_sqrt_approx : h_f32_rcp_approx) : (sq ? h_f32_sqrt : h_f32_rcp);
    }
    ptx_type ty[2] = { mo.t[0], mo.t[0] };
    return exec_alu_ops(d, pi, in, 2, ty);
}
int exec_dec_rcp(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_rcpsqrt(d, pi, in, 0); }
int exec_dec_sqrt(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_rcpsqrt(d, pi, in, 1); }

/* rsqrt / sin / cos / lg2 / ex2 / tanh .approx{.ftz}.f32 (rsqrt also .f64, .ftz.f64). */
static int exec_dec_approx(exec_dec *d, const ptx_insn *pi, exec_insn *in, exec_fn f32, int f64ok)
{
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, EXEC_MB(FTZ) | EXEC_MB(APPROX), &mo))
        return -1;
    int is64 = one_ftype(d, pi, &mo);
    if (is64 < 0)
        return -1;
    if (!(mo.bits & EXEC_MB(APPROX)))
        return exec_dec_error(d, pi, "requires .approx");
    if (is64 && !f64ok)
        return exec_dec_error(d, pi, ".f64 is not supported");
    in->flags = (mo.bits & EXEC_MB(FTZ)) ? FL_FTZ : 0;
    in->type = (uint8_t)mo.t[0];
    in->fn = is64 ? ((mo.bits & EXEC_MB(FTZ)) ? h_f64_rsqrt_ftz : h_f64_rsqrt_approx) : f32;
    ptx_type ty[2] = { mo.t[0], mo.t[0] };
    return exec_alu_ops(d, pi, in, 2, ty);
}
int exec_dec_rsqrt(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_approx(d, pi, in, h_f32_rsqrt_approx, 1); }
int exec_dec_sin(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_approx(d, pi, in, h_f32_sin_approx, 0); }
int exec_dec_cos(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_approx(d, pi, in, h_f32_cos_approx, 0); }
int exec_dec_lg2(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_approx(d, pi, in, h_f32_lg2_approx, 0); }
int exec_dec_ex2(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    if (half_type_in(pi))
        return exec_half_decode(d, pi, in, EXEC_ALU_EX2);
    return exec_dec_approx(d, pi, in, h_f32_ex2_approx, 0);
}
int exec_dec_tanh(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    if (half_type_in(pi))
        return exec_half_decode(d, pi, in, EXEC_ALU_TANH);
    return exec_dec_approx(d, pi, in, h_f32_tanh_approx, 0);
}

/* testp.class.f32/.f64 p, a. */
int exec_dec_testp(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, EXEC_MB(CLASS), &mo))
        return -1;
    int is64 = one_ftype(d, pi, &mo);
    if (is64 < 0)
        return -1;
    if (!mo.cls)
        return exec_dec_error(d, pi, "requires a class (.finite .infinite .number .notanumber .normal .subnormal)");
    in->aux[0] = mo.cls;
    in->fn = is64 ? h_testp64 : h_testp32;
    in->type = (uint8_t)mo.t[0];
    ptx_type ty[2] = { PTX_T_PRED, mo.t[0] };
    return exec_alu_ops(d, pi, in, 2, ty);
}

/* copysign.f32/.f64 d, a, b: |b| with the sign of a. */
int exec_dec_copysign(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, 0, &mo))
        return -1;
    int is64 = one_ftype(d, pi, &mo);
    if (is64 < 0)
        return -1;
    in->fn = is64 ? h_f64_copysign : h_f32_copysign;
    in->type = (uint8_t)mo.t[0];
    ptx_type ty[3] = { mo.t[0], mo.t[0], mo.t[0] };
    return exec_alu_ops(d, pi, in, 3, ty);
}
