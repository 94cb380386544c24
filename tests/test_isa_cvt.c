/* test_isa_cvt.c - end-to-end cvt: every type pair and rounding, .sat/.ftz/.relu, exhaustive f16 round trips, against host references. */
#include <fenv.h>
#include <math.h>
#include "isa_harness.h"

static const int fe_mode[] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };

static double rint_mode(double x, int mode)
{
    switch (mode) {
    case 0: return nearbyint(x);
    case 1: return trunc(x);
    case 2: return floor(x);
    default: return ceil(x);
    }
}

/* Round exact double x to a binary format with p significand bits, minimum normal exponent
 * emin and largest finite value maxv, in `mode`: scale so the quantum is 1, round to an
 * integer, scale back. Returns the rounded value (inf on overflow per the mode). */
static double round_fmt(double x, int p, int emin, double maxv, int mode)
{
    if (x != x || isinf(x) || x == 0)
        return x;
    int e;
    frexp(x, &e);
    e -= 1;                                   /* x = 1.f * 2^e */
    int q = (e < emin ? emin : e) - (p - 1);
    double r = ldexp(rint_mode(ldexp(x, -q), mode), q);
    if (r == 0)
        return copysign(0.0, x);
    if (fabs(r) > maxv) {
        int toinf = mode == 0 || (mode == 3 && x > 0) || (mode == 2 && x < 0);
        return toinf ? copysign(INFINITY, x) : copysign(maxv, x);
    }
    return r;
}
static uint64_t enc_bf16(double r)
{
    if (r != r) return 0x7fff;
    float f = (float)r;                        /* exact: r is a bf16 value */
    return (uint64_t)(isa_fu(f) >> 16);
}
static uint64_t enc_f16(double r)
{
    if (r != r) return 0x7fff;
    _Float16 h = (_Float16)r;                  /* exact */
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}
static double dec_f16(uint64_t b)
{
    uint16_t u = (uint16_t)b;
    _Float16 h;
    memcpy(&h, &u, 2);
    return (double)h;
}
static double dec_bf16(uint64_t b) { return isa_f((b & 0xffff) << 16); }

typedef struct { const char *dt, *st, *dreg, *sreg; int mode, irnd, sat, ftz, relu; } cctx;

static int tsigned(const char *t) { return t[0] == 's'; }
static int tfloat(const char *t) { return t[0] == 'f' || t[0] == 'b' ? (t[0] == 'f' || !strcmp(t, "bf16")) : 0; }

/* Exact value of the source (double or integer). */
static void src_val(const cctx *c, uint64_t in, double *dv, int64_t *iv, uint64_t *uv)
{
    int sb = isa_tbits(c->st);
    uint64_t v = in & isa_mask(sb);
    if (!strcmp(c->st, "f32")) {
        float f = isa_f(v);
        if (c->ftz && fpclassify(f) == FP_SUBNORMAL)
            f = copysignf(0.0f, f);
        *dv = f;
    } else if (!strcmp(c->st, "f64")) *dv = isa_d(v);
    else if (!strcmp(c->st, "f16")) *dv = dec_f16(v);
    else if (!strcmp(c->st, "bf16")) *dv = dec_bf16(v);
    else {
        *uv = v;
        *iv = tsigned(c->st) ? (int64_t)(v << (64 - sb)) >> (64 - sb) : (int64_t)v;
        *dv = tsigned(c->st) ? (double)*iv : (double)v;
    }
}

static void ref_cvt(const uint64_t *in, uint64_t *out, const void *ctx)
{
    const cctx *c = ctx;
    double x = 0;
    int64_t iv = 0;
    uint64_t uv = 0, r;
    int sflt = tfloat(c->st), dflt = tfloat(c->dt), db = isa_tbits(c->dt);
    src_val(c, in[0], &x, &iv, &uv);
    if (!dflt) {
        __int128 v;
        if (sflt) {
            double t = rint_mode(x, c->irnd ? c->mode : 1);
            /* NaN: 0, except 0x8000000000000000 for a 64-bit destination (the hardware's
               result; cuda_fp16.h documents it for __half2ll_rz / __half2ull_rz) */
            if (t != t) {
                out[0] = db == 64 ? (uint64_t)1 << 63 : 0;
                return;
            }
            if (t >= 0x1p127) v = (__int128)1 << 126;
            else if (t <= -0x1p127) v = -((__int128)1 << 126);
            else v = (__int128)t;
        } else {
            v = tsigned(c->st) ? (__int128)iv : (__int128)uv;
        }
        int clamp = sflt || c->sat;
        __int128 lo = tsigned(c->dt) ? -((__int128)1 << (db - 1)) : 0;
        __int128 hi = tsigned(c->dt) ? ((__int128)1 << (db - 1)) - 1 : ((__int128)1 << db) - 1;
        if (clamp) {
            if (v < lo) v = lo;
            if (v > hi) v = hi;
        }
        r = (uint64_t)v & isa_mask(db);
        /* into a wider register: sign-extend for signed types, zero-extend otherwise */
        int rb = isa_tbits(c->dreg);
        if (rb > db && tsigned(c->dt) && (r >> (db - 1) & 1))
            r |= ~isa_mask(db);
        out[0] = r & isa_mask(rb);
        return;
    }
    /* float destination */
    if (c->irnd && sflt)
        x = rint_mode(x, c->mode);
    int m = c->irnd ? 0 : c->mode;
    double v;
    if (!strcmp(c->dt, "f64")) {
        if (sflt) v = x;
        else {
            fesetround(fe_mode[m]);
            volatile double t = tsigned(c->st) ? (double)(volatile int64_t)iv : (double)(volatile uint64_t)uv;
            fesetround(FE_TONEAREST);
            v = t;
        }
        if (c->sat) v = v > 0 ? (v < 1 ? v : 1) : 0;
        out[0] = v != v ? 0x7fffffffffffffffull : isa_du(v);
        return;
    }
    if (!strcmp(c->dt, "f32")) {
        if (sflt) v = round_fmt(x, 24, -126, 0x1.fffffep127, m);
        else {
            fesetround(fe_mode[m]);
            volatile float t = tsigned(c->st) ? (float)(volatile int64_t)iv : (float)(volatile uint64_t)uv;
            fesetround(FE_TONEAREST);
            v = t;
        }
        float f = (float)v;
        if (c->ftz && fpclassify(f) == FP_SUBNORMAL) f = copysignf(0.0f, f);
        if (c->sat) f = f > 0 ? (f < 1 ? f : 1) : 0;
        out[0] = f != f ? 0x7fffffffu : isa_fu(f);
        return;
    }
    /* f16 / bf16 */
    if (c->sat) x = x > 0 ? (x < 1 ? x : 1) : 0;
    if (c->relu && x <= 0) x = 0;          /* -0 too (relu = max(x, +0)) */
    if (!sflt) {
        /* integers beyond 2^53 are first rounded to odd (exact for a later rounding to <= 51 bits) */
        __int128 t = tsigned(c->st) ? (__int128)iv : (__int128)uv;
        int neg = t < 0;
        unsigned __int128 mag = neg ? (unsigned __int128)-t : (unsigned __int128)t;
        if (mag >> 53) {
            int sh = 0;
            while (mag >> (53 + sh)) sh++;
            unsigned __int128 kept = mag >> sh;
            if (mag & (((unsigned __int128)1 << sh) - 1)) kept |= 1;
            x = ldexp((double)(uint64_t)kept, sh);
        } else {
            x = (double)(uint64_t)mag;
        }
        if (neg) x = -x;
    }
    if (!strcmp(c->dt, "f16")) {
        out[0] = enc_f16(round_fmt(x, 11, -14, 65504.0, m));
        return;
    }
    v = round_fmt(x, 8, -126, 0x1.fep127, m);
    out[0] = enc_bf16(v);
}

static const char *reg_for(const char *t)
{
    int b = isa_tbits(t);
    if (b == 8) return t[0] == 's' ? "s16" : "u16";
    return t;
}

static void run_cvt(const char *dt, const char *st, const char *mods, int mode, int irnd, int sat,
                    int ftz, int relu, int n, uint64_t seed)
{
    char code[128];
    cctx c = { dt, st, reg_for(dt), reg_for(st), mode, irnd, sat, ftz, relu };
    snprintf(code, sizeof code, "\tcvt%s.%s.%s %%d0, %%a0;", mods, dt, st);
    isa_case k = { code, c.sreg, c.dreg, NULL };
    uint64_t *in = isa_inputs(st[0] == 'b' ? "bf16" : c.sreg, n, seed);
    if (isa_tbits(st) == 8 || (!tfloat(st) && tfloat(dt)) || (!tfloat(st) && !tfloat(dt))) {
        /* integer sources: widen the random values to the register */
        isa_rng r = { seed + 99 };
        for (int i = 0; i < n; i += 3)
            in[i] = isa_next(&r) & isa_mask(isa_tbits(c.sreg));
    }
    isa_check(&k, n, in, ref_cvt, &c);
    free(in);
}

static const char *const ints[] = { "u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64" };
static const char *const flts[] = { "f16", "bf16", "f32", "f64" };
static const char *const frnd[] = { ".rn", ".rz", ".rm", ".rp" };
static const char *const irnd[] = { ".rni", ".rzi", ".rmi", ".rpi" };

START_TEST(cvt_int_int)
{
    for (size_t i = 0; i < ISA_NE(ints); i++)
        for (size_t j = 0; j < ISA_NE(ints); j++)
            for (int sat = 0; sat < 2; sat++)
                run_cvt(ints[i], ints[j], sat ? ".sat" : "", 0, 0, sat, 0, 0, 130, i * 8 + j + (size_t)sat * 64);
}
END_TEST

START_TEST(cvt_float_int)
{
    for (size_t i = 0; i < ISA_NE(ints); i++)
        for (size_t j = 0; j < ISA_NE(flts); j++)
            for (int m = 0; m < 4; m++)
                for (int ftz = 0; ftz < 2; ftz++) {
                    if (ftz && strcmp(flts[j], "f32"))
                        continue;
                    if (!strcmp(flts[j], "bf16") && isa_tbits(ints[i]) == 8)
                        continue;
                    char mods[32];
                    snprintf(mods, sizeof mods, "%s%s", irnd[m], ftz ? ".ftz" : "");
                    run_cvt(ints[i], flts[j], mods, m, 1, 0, ftz, 0, 200, i * 40 + j * 8 + (size_t)m * 2 + (size_t)ftz);
                }
    /* default for float -> int is .rzi */
    run_cvt("s32", "f32", "", 1, 1, 0, 0, 0, 300, 7);
}
END_TEST

/* NaN sources (quiet and signalling, both signs) into every integer type, every rounding
 * mode, with and without .sat/.ftz: 0x8000000000000000 for .s64/.u64, 0 for narrower types. */
static void ref_nan_int(const uint64_t *in, uint64_t *out, const void *ctx)
{
    (void)in;
    int db = *(const int *)ctx;
    out[0] = db == 64 ? 0x8000000000000000ull : 0;
}

START_TEST(cvt_nan_int)
{
    static const struct { const char *t; uint64_t nan[4]; } src[] = {
        { "f16", { 0x7e00, 0xfe00, 0x7c01, 0x7fff } },
        { "bf16", { 0x7fc0, 0xffc0, 0x7f81, 0x7fff } },
        { "f32", { 0x7fc00000, 0xffc00000, 0x7f800001, 0x7fffffff } },
        { "f64", { 0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff0000000000001ull,
                   0x7fffffffffffffffull } },
    };
    static const char *const mods[] = { "", ".rni", ".rzi", ".rmi", ".rpi", ".rzi.sat",
                                        ".rni.ftz", ".sat" };
    for (size_t i = 0; i < ISA_NE(ints); i++)
        for (size_t j = 0; j < ISA_NE(src); j++)
            for (size_t m = 0; m < ISA_NE(mods); m++) {
                if (strstr(mods[m], "ftz") && strcmp(src[j].t, "f32"))
                    continue;
                if (!strcmp(src[j].t, "bf16") && isa_tbits(ints[i]) == 8)
                    continue;
                char code[96];
                snprintf(code, sizeof code, "\tcvt%s.%s.%s %%d0, %%a0;", mods[m], ints[i], src[j].t);
                isa_case k = { code, src[j].t[0] == 'b' ? "b16" : src[j].t, reg_for(ints[i]), NULL };
                uint64_t in[4];
                memcpy(in, src[j].nan, sizeof in);
                int db = isa_tbits(ints[i]);
                isa_check(&k, 4, in, ref_nan_int, &db);
            }
}
END_TEST

START_TEST(cvt_int_float)
{
    for (size_t i = 0; i < ISA_NE(ints); i++)
        for (size_t j = 0; j < ISA_NE(flts); j++)
            for (int m = 0; m < 4; m++)
                for (int sat = 0; sat < 2; sat++) {
                    if (!strcmp(flts[j], "bf16") && (isa_tbits(ints[i]) == 8 || sat))
                        continue;
                    char mods[32];
                    snprintf(mods, sizeof mods, "%s%s", frnd[m], sat ? ".sat" : "");
                    run_cvt(flts[j], ints[i], mods, m, 0, sat, 0, 0, 200, i * 50 + j * 9 + (size_t)m + (size_t)sat * 5);
                }
}
END_TEST

START_TEST(cvt_float_float)
{
    for (size_t i = 0; i < ISA_NE(flts); i++)
        for (size_t j = 0; j < ISA_NE(flts); j++) {
            int di = isa_tbits(flts[i]), sj = isa_tbits(flts[j]);
            int narrowing = di < sj || (di == 16 && sj == 16 && i != j);
            for (int m = 0; m < 4; m++)
                for (int v = 0; v < 4; v++) {
                    int ftz = v & 1, sat = v >> 1 & 1;
                    if (ftz && strcmp(flts[i], "f32") && strcmp(flts[j], "f32"))
                        continue;
                    if (sat && (!strcmp(flts[i], "bf16")))
                        continue;
                    if (!strcmp(flts[i], "bf16") && !strcmp(flts[j], "f16"))
                        continue;
                    if (!strcmp(flts[i], "f16") && !strcmp(flts[j], "bf16"))
                        continue;
                    char mods[32];
                    if (narrowing) {
                        snprintf(mods, sizeof mods, "%s%s%s", frnd[m], ftz ? ".ftz" : "", sat ? ".sat" : "");
                        run_cvt(flts[i], flts[j], mods, m, 0, sat, ftz, 0, 250, i * 100 + j * 20 + (size_t)m * 4 + (size_t)v);
                    } else {
                        /* widening / same size: exact, optional integer rounding */
                        if (i == j || m == 0) {
                            snprintf(mods, sizeof mods, "%s%s", ftz ? ".ftz" : "", sat ? ".sat" : "");
                            if (i != j || mods[0])
                                run_cvt(flts[i], flts[j], mods, 0, 0, sat, ftz, 0, 250, i * 7 + j + (size_t)v);
                        }
                        if (strcmp(flts[j], "bf16") && strcmp(flts[i], "bf16")) {
                            snprintf(mods, sizeof mods, "%s%s%s", irnd[m], ftz ? ".ftz" : "", sat ? ".sat" : "");
                            run_cvt(flts[i], flts[j], mods, m, 1, sat, ftz, 0, 250, i * 300 + j * 30 + (size_t)m * 4 + (size_t)v);
                        }
                    }
                }
        }
    /* .relu on f16/bf16 results */
    run_cvt("f16", "f32", ".rn.relu", 0, 0, 0, 0, 1, 300, 71);
    run_cvt("bf16", "f32", ".rz.relu", 1, 0, 0, 0, 1, 300, 72);
}
END_TEST

/* All 65536 f16 encodings through cvt.f32.f16 and back with cvt.rn.f16.f32, plus f16 -> f64
 * and f16 -> s32 (.rni), in one launch of 1024 CTAs of 64 threads. */
static void ref_f16_all(const uint64_t *in, uint64_t *out, const void *ctx)
{
    (void)ctx;
    uint16_t h = (uint16_t)in[0];
    double v = dec_f16(h);
    int nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
    out[0] = nan ? 0x7fffffffu : isa_fu((float)v);
    out[1] = nan ? 0x7fff : h;
    out[2] = nan ? 0x7fffffffffffffffull : isa_du(v);
    double r = nearbyint(v);
    out[3] = nan ? 0 : r >= 2147483647.0 ? 0x7fffffffu : (uint32_t)(int32_t)r;
    out[4] = nan ? 0x7fff : h;   /* .ftz concerns f32 values only: f16 subnormals stay */
}
START_TEST(cvt_f16_exhaustive)
{
    int n = 65536;
    uint64_t *in = malloc((size_t)n * 8);
    for (int i = 0; i < n; i++)
        in[i] = (uint64_t)i;
    isa_case k = { "\tcvt.f32.f16 %d0, %a0;\n\tcvt.rn.f16.f32 %d1, %d0;\n\tcvt.f64.f16 %d2, %a0;\n"
                   "\tcvt.rni.s32.f16 %d3, %a0;\n\tcvt.ftz.f32.f16 %hx_f, %a0;\n\tcvt.rn.ftz.f16.f32 %d4, %hx_f;",
                   "f16", "f32 f16 f64 s32 f16", ".reg .f32 %hx_f;" };
    isa_check(&k, n, in, ref_f16_all, NULL);
    free(in);
}
END_TEST

/* Packed: cvt.rn.f16x2.f32 d, a, b puts a in the upper half; bf16x2 alike. */
static void ref_pack(const uint64_t *in, uint64_t *out, const void *ctx)
{
    int bf = ctx != NULL;
    double a = isa_f(in[0]), b = isa_f(in[1]);
    uint64_t ha, hb;
    if (bf) {
        ha = enc_bf16(round_fmt(a, 8, -126, 0x1.fep127, 0));
        hb = enc_bf16(round_fmt(b, 8, -126, 0x1.fep127, 0));
    } else {
        ha = enc_f16(round_fmt(a, 11, -14, 65504.0, 0));
        hb = enc_f16(round_fmt(b, 11, -14, 65504.0, 0));
    }
    out[0] = ha << 16 | hb;
}
START_TEST(cvt_packed)
{
    int n = 400;
    uint64_t *in = isa_inputs("f32 f32", n, 81);
    isa_case k = { "\tcvt.rn.f16x2.f32 %d0, %a0, %a1;", "f32 f32", "b32", NULL };
    isa_check(&k, n, in, ref_pack, NULL);
    isa_case k2 = { "\tcvt.rn.bf16x2.f32 %d0, %a0, %a1;", "f32 f32", "b32", NULL };
    isa_check(&k2, n, in, ref_pack, &k2);
    free(in);
}
END_TEST

/* tf32: cvt.rna.tf32.f32 rounds to 10 fraction bits, ties away; result in an f32 bit layout. */
static void ref_tf32(const uint64_t *in, uint64_t *out, const void *ctx)
{
    (void)ctx;
    float f = isa_f(in[0]);
    if (f != f) { out[0] = 0x7fffffffu; return; }
    if (isinf(f) || f == 0) { out[0] = in[0] & 0xffffffffu; return; }
    uint32_t u = (uint32_t)in[0];
    uint32_t r = (u + 0x1000u) & 0xffffe000u;           /* ties away from zero on the magnitude */
    if ((r & 0x7f800000u) == 0x7f800000u) r = (u & 0x80000000u) | 0x7f800000u;
    out[0] = r;
}
START_TEST(cvt_tf32)
{
    int n = 400;
    uint64_t *in = isa_inputs("f32", n, 91);
    isa_case k = { "\tcvt.rna.tf32.f32 %d0, %a0;", "f32", "b32", NULL };
    isa_check(&k, n, in, ref_tf32, NULL);
    free(in);
}
END_TEST

/* cvt.rz.relu.tf32.f32: negatives and -0 to +0, NaN canonical, else the low 13 bits cleared;
 * cvt.rp.f32.bf16 / cvt.rn.f64.bf16: ptxas accepts a rounding modifier on these exact
 * widenings (the value is the bf16 value; NaN canonical). */
static void ref_tf32_relu(const uint64_t *in, uint64_t *out, const void *ctx)
{
    (void)ctx;
    float f = isa_f(in[0]);
    out[0] = f != f ? 0x7fffffffu : f <= 0 ? 0 : ((uint32_t)in[0] & 0xffffe000u);
    float b = isa_f((in[1] & 0xffff) << 16);
    out[1] = b != b ? 0x7fffffffu : (in[1] & 0xffff) << 16;
    out[2] = b != b ? 0x7fffffffffffffffull : isa_du((double)b);
}
START_TEST(cvt_tf32_relu_bf16_widen)
{
    int n = 400;
    uint64_t *in = isa_inputs("f32 bf16", n, 92);
    isa_case k = { "\tcvt.rz.relu.tf32.f32 %d0, %a0;\n\tcvt.rp.f32.bf16 %d1, %a1;\n"
                   "\tcvt.rn.f64.bf16 %d2, %a1;", "f32 b16", "b32 f32 f64", NULL };
    isa_check(&k, n, in, ref_tf32_relu, NULL);
    free(in);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("isa_cvt");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, cvt_int_int);
    tcase_add_test(tc, cvt_float_int);
    tcase_add_test(tc, cvt_nan_int);
    tcase_add_test(tc, cvt_int_float);
    tcase_add_test(tc, cvt_float_float);
    tcase_add_test(tc, cvt_f16_exhaustive);
    tcase_add_test(tc, cvt_packed);
    tcase_add_test(tc, cvt_tf32);
    tcase_add_test(tc, cvt_tf32_relu_bf16_widen);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
