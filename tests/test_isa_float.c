/* test_isa_float.c - end-to-end f32/f64 instructions (every rounding mode, .ftz, .sat, NaN, approx bounds) against host-FPU references. */
#include <fenv.h>
#include <math.h>
#include "isa_harness.h"



enum { OP_ADD, OP_SUB, OP_MUL, OP_FMA, OP_DIV, OP_SQRT, OP_RCP };
static const char *const op_name[] = { "add", "sub", "mul", "fma", "div", "sqrt", "rcp" };
static const int op_nin[] = { 2, 2, 2, 3, 2, 1, 1 };
static const int fe_mode[] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
static const char *const rnd_name[] = { ".rn", ".rz", ".rm", ".rp" };

typedef struct { int op, mode, ftz, sat, mad; } fctx;

static float flush32(float f)
{
    uint32_t u = (uint32_t)isa_fu(f);
    return (u & 0x7f800000u) ? f : isa_f(u & 0x80000000u);
}
static double sat64(double x) { return x > 0 ? (x < 1 ? x : 1) : 0; }

/* The host FPU in the requested rounding mode is the reference (IEEE 754 single/double). */
static void ref_f32(const uint64_t *in, uint64_t *out, const void *ctx)
{
    const fctx *c = ctx;
    volatile float a = isa_f(in[0]), b = isa_f(in[1]), cc = isa_f(in[2]), r = 0;
    if (c->ftz) {
        a = flush32(a);
        b = flush32(b);
        cc = flush32(cc);
    }
    fesetround(fe_mode[c->mode]);
    switch (c->op) {
    case OP_ADD: r = a + b; break;
    case OP_SUB: r = a - b; break;
    case OP_MUL: r = a * b; break;
    case OP_FMA: r = fmaf(a, b, cc); break;
    case OP_DIV: r = a / b; break;
    case OP_SQRT: r = sqrtf(a); break;
    default: r = 1.0f / a; break;
    }
    fesetround(FE_TONEAREST);
    float x = r;
    if (c->ftz)
        x = flush32(x);
    if (c->sat)
        x = (float)sat64(x);
    out[0] = x != x ? 0x7fffffffu : isa_fu(x);
}

static void ref_f64(const uint64_t *in, uint64_t *out, const void *ctx)
{
    const fctx *c = ctx;
    volatile double a = isa_d(in[0]), b = isa_d(in[1]), cc = isa_d(in[2]), r = 0;
    fesetround(fe_mode[c->mode]);
    switch (c->op) {
    case OP_ADD: r = a + b; break;
    case OP_SUB: r = a - b; break;
    case OP_MUL: r = a * b; break;
    case OP_FMA: r = fma(a, b, cc); break;
    case OP_DIV: r = a / b; break;
    case OP_SQRT: r = sqrt(a); break;
    default: r = 1.0 / a; break;
    }
    fesetround(FE_TONEAREST);
    double x = r;
    if (x != x) {
        /* f64 NaN payloads propagate (quieted), first NaN operand in order; else canonical */
        int n = op_nin[c->op];
        uint64_t q = 0x7fffffffffffffffull;
        if (c->op == OP_RCP)
            n = 1;
        for (int k = n - 1; k >= 0; k--)
            if (isa_d(in[k]) != isa_d(in[k]))
                q = in[k] | 0x0008000000000000ull;
        out[0] = q;
        return;
    }
    out[0] = isa_du(x);
}

static void run_f32(int op, int mode, int rnd_given, int ftz, int sat, int mad, uint64_t seed)
{
    char code[160];
    fctx c = { op, mode, ftz, sat, mad };
    const char *regs = op_nin[op] == 1 ? "%a0" : op_nin[op] == 2 ? "%a0, %a1" : "%a0, %a1, %a2";
    snprintf(code, sizeof code, "\t%s%s%s%s%s.f32 %%d0, %s;", mad ? "mad" : op_name[op],
             rnd_given ? rnd_name[mode] : "", ftz ? ".ftz" : "", sat ? ".sat" : "",
             "", regs);
    isa_case k = { code, op_nin[op] == 1 ? "f32" : op_nin[op] == 2 ? "f32 f32" : "f32 f32 f32", "f32", NULL };
    int n = 600;
    uint64_t *in = isa_inputs(k.in, n, seed);
    isa_check(&k, n, in, ref_f32, &c);
    free(in);
}

START_TEST(f32_arith_all_modes)
{
    TU_NEED_HOST_FPU();
    for (int op = OP_ADD; op <= OP_FMA; op++)
        for (int mode = 0; mode < 4; mode++)
            for (int given = 0; given < 2; given++) {
                if (!given && (mode || op == OP_FMA))
                    continue; /* default = .rn; fma requires a rounding modifier */
                for (int ftz = 0; ftz < 2; ftz++)
                    for (int sat = 0; sat < 2; sat++)
                        run_f32(op, mode, given, ftz, sat, 0, (uint64_t)(op * 100 + mode * 10 + ftz * 2 + sat));
            }
    /* mad.rn.f32 is fma */
    for (int mode = 0; mode < 4; mode++)
        for (int ftz = 0; ftz < 2; ftz++)
            run_f32(OP_FMA, mode, 1, ftz, ftz, 1, (uint64_t)(900 + mode));
}
END_TEST

START_TEST(f32_div_sqrt_rcp_ieee)
{
    TU_NEED_HOST_FPU();
    for (int op = OP_DIV; op <= OP_RCP; op++)
        for (int mode = 0; mode < 4; mode++)
            for (int ftz = 0; ftz < 2; ftz++)
                run_f32(op, mode, 1, ftz, 0, 0, (uint64_t)(op * 77 + mode * 3 + ftz));
}
END_TEST

static void run_f64(int op, int mode, int given, uint64_t seed, int mad)
{
    char code[160];
    fctx c = { op, mode, 0, 0, 0 };
    const char *regs = op_nin[op] == 1 ? "%a0" : op_nin[op] == 2 ? "%a0, %a1" : "%a0, %a1, %a2";
    snprintf(code, sizeof code, "\t%s%s.f64 %%d0, %s;", mad ? "mad" : op_name[op], given ? rnd_name[mode] : "", regs);
    isa_case k = { code, op_nin[op] == 1 ? "f64" : op_nin[op] == 2 ? "f64 f64" : "f64 f64 f64", "f64", NULL };
    int n = 600;
    uint64_t *in = isa_inputs(k.in, n, seed);
    isa_check(&k, n, in, ref_f64, &c);
    free(in);
}

START_TEST(f64_all_modes)
{
    TU_NEED_HOST_FPU();
    for (int op = OP_ADD; op <= OP_RCP; op++)
        for (int mode = 0; mode < 4; mode++) {
            run_f64(op, mode, 1, (uint64_t)(op * 31 + mode), 0);
            if (mode == 0 && op <= OP_MUL)
                run_f64(op, mode, 0, (uint64_t)(op * 31 + 7), 0);
        }
    for (int mode = 0; mode < 4; mode++)
        run_f64(OP_FMA, mode, 1, (uint64_t)(500 + mode), 1);
}
END_TEST

/* ---- immediates: 0f / 0d literals, decimal floats, integer immediates, negative values ---- */
typedef struct { float k; } kctx;
static void ref_add_imm(const uint64_t *in, uint64_t *out, const void *ctx)
{
    const kctx *c = ctx;
    float r = isa_f(in[0]) + c->k;
    out[0] = r != r ? 0x7fffffffu : isa_fu(r);
}
START_TEST(f32_immediates)
{
    static const struct { const char *lit; float v; } t[] = {
        { "0f3F800000", 1.0f }, { "0fBF000000", -0.5f }, { "0f7F800000", INFINITY },
        { "0f00000001", 1.4e-45f }, { "1.5", 1.5f }, { "-2.25", -2.25f }, { "0d3FF8000000000000", 1.5f },
        { "0F40490FDB", 3.14159274f },
    };
    int n = 70;
    uint64_t *in = isa_inputs("f32", n, 3);
    for (size_t i = 0; i < ISA_NE(t); i++) {
        char code[96];
        snprintf(code, sizeof code, "\tadd.f32 %%d0, %%a0, %s;", t[i].lit);
        isa_case k = { code, "f32", "f32", NULL };
        kctx c = { t[i].v };
        isa_check(&k, n, in, ref_add_imm, &c);
    }
    free(in);
}
END_TEST

static void ref_f64_imm(const uint64_t *in, uint64_t *out, const void *ctx)
{
    (void)ctx;
    double r = fma(isa_d(in[0]), -0.1, 3.0);
    out[0] = r != r ? (isa_d(in[0]) != isa_d(in[0]) ? in[0] | 0x0008000000000000ull : 0x7fffffffffffffffull) : isa_du(r);
}
START_TEST(f64_immediates)
{
    isa_case k = { "\tfma.rn.f64 %d0, %a0, 0dBFB999999999999A, 3;", "f64", "f64", NULL };
    int n = 100;
    uint64_t *in = isa_inputs("f64", n, 4);
    isa_check(&k, n, in, ref_f64_imm, NULL);
    free(in);
}
END_TEST

/* ---- min / max: NaN and signed-zero rules ------------------------------------------------ */
typedef struct { int max, ftz, nan, xorsign; } mctx;
static void ref_minmax32(const uint64_t *in, uint64_t *out, const void *ctx)
{
    const mctx *c = ctx;
    float a = isa_f(in[0]), b = isa_f(in[1]);
    if (c->ftz) {
        a = flush32(a);
        b = flush32(b);
    }
    uint32_t s = 0;
    if (c->xorsign) {
        s = (uint32_t)((isa_fu(a) ^ isa_fu(b)) & 0x80000000u);
        a = fabsf(a);
        b = fabsf(b);
    }
    int na = a != a, nb = b != b;
    float r;
    if (na && nb) r = isa_f(0x7fffffff);
    else if ((na || nb) && c->nan) r = isa_f(0x7fffffff);
    else if (na) r = b;
    else if (nb) r = a;
    else if (a == 0 && b == 0) r = (c->max ? !(signbit(a) && signbit(b)) : (signbit(a) || signbit(b))) ? (c->max ? 0.0f : -0.0f) : (c->max ? -0.0f : 0.0f);
    else r = c->max ? (a > b ? a : b) : (a < b ? a : b);
    uint64_t u = isa_fu(r);
    if (c->xorsign && r == r)
        u |= s;
    out[0] = u;
}
static void ref_minmax64(const uint64_t *in, uint64_t *out, const void *ctx)
{
    const mctx *c = ctx;
    double a = isa_d(in[0]), b = isa_d(in[1]), r;
    if (a != a && b != b) { out[0] = 0x7fffffffffffffffull; return; }
    if (a != a) r = b;
    else if (b != b) r = a;
    else if (a == 0 && b == 0) r = c->max ? ((signbit(a) && signbit(b)) ? -0.0 : 0.0) : ((signbit(a) || signbit(b)) ? -0.0 : 0.0);
    else r = c->max ? fmax(a, b) : fmin(a, b);
    out[0] = isa_du(r);
}
START_TEST(minmax_float)
{
    int n = 400;
    uint64_t *in32 = isa_inputs("f32 f32", n, 11), *in64 = isa_inputs("f64 f64", n, 12);
    for (int max = 0; max < 2; max++) {
        for (int v = 0; v < 6; v++) {
            mctx c = { max, v & 1, (v >> 1) & 1, v >= 4 };
            char code[96];
            snprintf(code, sizeof code, "\t%s%s%s%s.f32 %%d0, %%a0, %%a1;", max ? "max" : "min",
                     c.ftz ? ".ftz" : "", c.nan ? ".NaN" : "", c.xorsign ? ".xorsign.abs" : "");
            isa_case k = { code, "f32 f32", "f32", NULL };
            isa_check(&k, n, in32, ref_minmax32, &c);
        }
        mctx c = { max, 0, 0, 0 };
        isa_case k = { max ? "\tmax.f64 %d0, %a0, %a1;" : "\tmin.f64 %d0, %a0, %a1;", "f64 f64", "f64", NULL };
        isa_check(&k, n, in64, ref_minmax64, &c);
    }
    free(in32);
    free(in64);
}
END_TEST

/* ---- testp, copysign, abs, neg --------------------------------------------------------------- */
static int cls_of(double x, int sub, int cls)
{
    switch (cls) {
    case 0: return isfinite(x);
    case 1: return isinf(x);
    case 2: return !isnan(x);
    case 3: return isnan(x);
    case 4: return isnormal(x) && !sub;
    default: return sub;
    }
}
typedef struct { int cls, is64; } tctx;
static void ref_testp(const uint64_t *in, uint64_t *out, const void *ctx)
{
    const tctx *c = ctx;
    double x;
    int sub;
    if (c->is64) {
        x = isa_d(in[0]);
        sub = fpclassify(x) == FP_SUBNORMAL;
    } else {
        float f = isa_f(in[0]);
        x = f;
        sub = fpclassify(f) == FP_SUBNORMAL;
    }
    out[0] = (uint64_t)cls_of(x, sub, c->cls);
}
START_TEST(testp_classes)
{
    static const char *const cls[] = { "finite", "infinite", "number", "notanumber", "normal", "subnormal" };
    int n = 300;
    for (int is64 = 0; is64 < 2; is64++) {
        uint64_t *in = isa_inputs(is64 ? "f64" : "f32", n, 20 + (uint64_t)is64);
        for (int k = 0; k < 6; k++) {
            char code[96];
            snprintf(code, sizeof code, "\ttestp.%s.%s %%d0, %%a0;", cls[k], is64 ? "f64" : "f32");
            isa_case kc = { code, is64 ? "f64" : "f32", "pred", NULL };
            tctx c = { k, is64 };
            isa_check(&kc, n, in, ref_testp, &c);
        }
        free(in);
    }
}
END_TEST

static void ref_signops32(const uint64_t *in, uint64_t *out, const void *ctx)
{
    int ftz = ctx != NULL;
    uint32_t a = (uint32_t)in[0], b = (uint32_t)in[1];
    uint32_t fa = ftz ? (uint32_t)isa_fu(flush32(isa_f(a))) : a;
    out[0] = (b & 0x7fffffffu) | (a & 0x80000000u);
    out[1] = fa & 0x7fffffffu;
    out[2] = fa ^ 0x80000000u;
}
static void ref_signops64(const uint64_t *in, uint64_t *out, const void *ctx)
{
    (void)ctx;
    out[0] = (in[1] & 0x7fffffffffffffffull) | (in[0] & 0x8000000000000000ull);
    out[1] = in[0] & 0x7fffffffffffffffull;
    out[2] = in[0] ^ 0x8000000000000000ull;
}
START_TEST(sign_ops)
{
    int n = 200;
    uint64_t *in = isa_inputs("f32 f32", n, 31);
    isa_case k = { "\tcopysign.f32 %d0, %a0, %a1;\n\tabs.f32 %d1, %a0;\n\tneg.f32 %d2, %a0;", "f32 f32", "f32 f32 f32", NULL };
    isa_check(&k, n, in, ref_signops32, NULL);
    isa_case k2 = { "\tcopysign.f32 %d0, %a0, %a1;\n\tabs.ftz.f32 %d1, %a0;\n\tneg.ftz.f32 %d2, %a0;", "f32 f32", "f32 f32 f32", NULL };
    isa_check(&k2, n, in, ref_signops32, &k2);
    free(in);
    in = isa_inputs("f64 f64", n, 32);
    isa_case k3 = { "\tcopysign.f64 %d0, %a0, %a1;\n\tabs.f64 %d1, %a0;\n\tneg.f64 %d2, %a0;", "f64 f64", "f64 f64 f64", NULL };
    isa_check(&k3, n, in, ref_signops64, NULL);
    free(in);
}
END_TEST

/* ---- approximations: check the bound (and the special values), not the bits -------------- */
typedef struct { int fn, ftz; } actx;
enum { A_RCP, A_SQRT, A_RSQRT, A_SIN, A_COS, A_LG2, A_EX2, A_DIVA, A_DIVF, A_TANH };
static double aref(int fn, double x, double y)
{
    switch (fn) {
    case A_RCP: return 1.0 / x;
    case A_SQRT: return sqrt(x);
    case A_RSQRT: return 1.0 / sqrt(x);
    case A_SIN: return sin(x);
    case A_COS: return cos(x);
    case A_LG2: return log2(x);
    case A_EX2: return exp2(x);
    case A_TANH: return tanh(x);
    default: return x / y;
    }
}
static void ref_approx(const uint64_t *in, uint64_t *out, const void *ctx)
{
    const actx *c = ctx;
    float x = isa_f(in[0]), y = isa_f(in[1]);
    if (c->ftz || c->fn == A_DIVA || c->fn == A_DIVF) {
        x = flush32(x);
        y = flush32(y);
    }
    float r = (float)aref(c->fn, x, y);
    if (c->ftz)
        r = flush32(r);
    out[0] = r != r ? 0x7fffffffu : isa_fu(r);
}
static int ok_approx(int k, const uint64_t *in, uint64_t got, uint64_t exp, const void *ctx)
{
    const actx *c = ctx;
    (void)k;
    float g = isa_f(got), e = isa_f(exp);
    float x = isa_f(in[0]), y = isa_f(in[1]);
    if (c->ftz || c->fn >= A_DIVA) {
        x = flush32(x);
        y = flush32(y);
    }
    double ex = aref(c->fn, x, y);
    if (c->fn == A_DIVA && fabsf(y) > 0x1p126f)
        return 1;                            /* outside the documented range (0 or NaN) */
    if (e != e)
        return g != g;                       /* any NaN */
    if (g != g)
        return 0;
    if (isinf(e) || e == 0)
        return g == e || (fabs(ex) < 0x1p-126 && fabsf(g) < 0x1p-125f) || (fabs(ex) > 0x1p127 && fabsf(g) > 0x1p127f);
    switch (c->fn) {
    case A_SIN: case A_COS:
        return fabs(x) > 3.2 || fabs(g - ex) <= exp2(-20.9);   /* absolute, primary range */
    case A_LG2:
        return fabs(g - ex) <= 0x1p-22 * fmax(1.0, fabs(ex)); /* 2^-22.6 for the mantissa */
    case A_EX2:
        return fabs(g - ex) <= exp2(-21.5) * fabs(ex) || fabs(ex) < 0x1p-125;
    case A_TANH:
        return fabs(g - ex) <= exp2(-10.9) * fabs(ex) + 0x1p-24;   /* documented rel. error 2^-10.987 */
    case A_DIVA:
        return fabs(y) > 0x1p126 || fabs(g - ex) <= 3 * fmax(fabs(ex) * 0x1p-24, 0x1p-149) || fabs(ex) < 0x1p-126;
    case A_DIVF:
        return fabs(g - ex) <= 2.5 * fmax(fabs(ex) * 0x1p-24, 0x1p-149) || fabs(ex) < 0x1p-126;
    default: /* rcp / sqrt / rsqrt: relative 2^-22 */
        return fabs(g - ex) <= 0x1p-22 * fabs(ex) || fabs(ex) < 0x1p-126;
    }
}
START_TEST(approx_bounds)
{
    static const struct { const char *ins; int fn, n; } t[] = {
        { "rcp.approx", A_RCP, 1 }, { "sqrt.approx", A_SQRT, 1 }, { "rsqrt.approx", A_RSQRT, 1 },
        { "sin.approx", A_SIN, 1 }, { "cos.approx", A_COS, 1 }, { "lg2.approx", A_LG2, 1 },
        { "ex2.approx", A_EX2, 1 }, { "div.approx", A_DIVA, 2 }, { "div.full", A_DIVF, 2 },
        { "tanh.approx", A_TANH, 1 },
    };
    int n = 500;
    uint64_t *in = isa_inputs("f32 f32", n, 41);
    for (size_t i = 0; i < ISA_NE(t); i++)
        for (int ftz = 0; ftz < 2; ftz++) {
            if (t[i].fn == A_TANH && ftz)
                continue;
            char code[96];
            snprintf(code, sizeof code, "\t%s%s.f32 %%d0, %%a0%s;", t[i].ins, ftz ? ".ftz" : "",
                     t[i].n == 2 ? ", %a1" : "");
            isa_case k = { code, "f32 f32", "f32", NULL };
            actx c = { t[i].fn, ftz };
            isa_check_ok(&k, n, in, ref_approx, ok_approx, &c);
        }
    free(in);
}
END_TEST

/* rcp.approx.ftz.f64 / rsqrt.approx(.ftz).f64: bound and canonical NaN 0x7fffffff00000000. */
static void ref_rcp64(const uint64_t *in, uint64_t *out, const void *ctx)
{
    double x = isa_d(in[0]);
    if (ctx) {
        uint64_t u = in[0];
        if (!(u & 0x7ff0000000000000ull))
            x = isa_d(u & 0x8000000000000000ull);
    }
    double r = ctx ? 1.0 / x : 1.0 / sqrt(x);
    out[0] = x != x ? 0x7fffffff00000000ull : r != r ? 0x7fffffff00000000ull : isa_du(r);
}
static int ok_rcp64(int k, const uint64_t *in, uint64_t got, uint64_t exp, const void *ctx)
{
    (void)k; (void)in; (void)ctx;
    double g = isa_d(got), e = isa_d(exp);
    if (e != e)
        return got == 0x7fffffff00000000ull || (!ctx && g != g);
    if (isinf(e) || e == 0)
        return g == e || (fabs(g) < 0x1p-1021 && fabs(e) < 0x1p-1021);
    return fabs(g - e) <= 0x1p-19 * fabs(e) || fabs(e) < 0x1p-1021;
}
START_TEST(approx_f64)
{
    int n = 300;
    uint64_t *in = isa_inputs("f64", n, 42);
    isa_case k = { "\trcp.approx.ftz.f64 %d0, %a0;", "f64", "f64", NULL };
    isa_check_ok(&k, n, in, ref_rcp64, ok_rcp64, &k);
    isa_case k2 = { "\trsqrt.approx.f64 %d0, %a0;", "f64", "f64", NULL };
    isa_check_ok(&k2, n, in, ref_rcp64, ok_rcp64, NULL);
    free(in);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("isa_float");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, f32_arith_all_modes);
    tcase_add_test(tc, f32_div_sqrt_rcp_ieee);
    tcase_add_test(tc, f64_all_modes);
    tcase_add_test(tc, f32_immediates);
    tcase_add_test(tc, f64_immediates);
    tcase_add_test(tc, minmax_float);
    tcase_add_test(tc, testp_classes);
    tcase_add_test(tc, sign_ops);
    tcase_add_test(tc, approx_bounds);
    tcase_add_test(tc, approx_f64);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
