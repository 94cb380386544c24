/* test_isa_half.c - end-to-end f16/f16x2/bf16/bf16x2 arithmetic (.ftz/.sat/.relu, NaN, min/max) against exact references. */
#include <fenv.h>
#include <math.h>
#include "isa_harness.h"

typedef __int128 s128;

static double h2d(uint64_t b)
{
    uint16_t u = (uint16_t)b;
    _Float16 h;
    memcpy(&h, &u, 2);
    return (double)h;
}
static double bf2d(uint64_t b) { return isa_f((b & 0xffff) << 16); }
static int is_sub16(uint16_t h, int bf) { return bf ? !(h & 0x7f80) && (h & 0x7f) : !(h & 0x7c00) && (h & 0x3ff); }
static int is_nan16(uint16_t h, int bf) { return bf ? (h & 0x7fff) > 0x7f80 : (h & 0x7fff) > 0x7c00; }

/* Round v * 2^e (v exact) to f16 / bf16, nearest even, encoding. */
static uint16_t round16(s128 v, int e, int bf)
{
    int p = bf ? 8 : 11, emin = bf ? -126 : -14, ebits = bf ? 8 : 5;
    uint16_t sign = v < 0 ? 0x8000 : 0;
    unsigned __int128 m = v < 0 ? (unsigned __int128)-v : (unsigned __int128)v;
    if (!m)
        return sign;
    int top = 127;
    while (!(m >> top & 1)) top--;
    int ex = top + e, q = (ex < emin ? emin : ex) - (p - 1), sh = q - e;
    unsigned __int128 n;
    if (sh <= 0) n = m << -sh;
    else if (sh > 126) n = 0;
    else {
        unsigned __int128 rem = m & (((unsigned __int128)1 << sh) - 1), half = (unsigned __int128)1 << (sh - 1);
        n = m >> sh;
        if (rem > half || (rem == half && (n & 1))) n++;
    }
    if (n >> p) { n >>= 1; q++; }
    int biased = n >> (p - 1) ? q + (p - 1) - emin + 1 : 0;
    if (biased >= (1 << ebits) - 1)
        return sign | (uint16_t)(((1u << ebits) - 1) << (p - 1));
    return sign | (uint16_t)((unsigned)biased << (p - 1) | (unsigned)(n & ((1u << (p - 1)) - 1)));
}
/* Round a finite non-zero double (exact value) to f16 / bf16 nearest-even. */
static uint16_t round16d(double v, int bf)
{
    int e;
    double f = frexp(v, &e);
    return round16((s128)ldexp(f, 53), e - 53, bf);
}

typedef struct { int op, bf, ftz, sat, relu, nanmode; } hctx;
enum { H_ADD, H_SUB, H_MUL, H_FMA, H_MIN, H_MAX, H_NEG, H_ABS };

static uint16_t href1(uint16_t a, uint16_t b, uint16_t c, const hctx *x)
{
    int bf = x->bf;
    if (x->ftz) {
        if (is_sub16(a, bf)) a &= 0x8000;
        if (is_sub16(b, bf)) b &= 0x8000;
        if (is_sub16(c, bf)) c &= 0x8000;
    }
    if (x->op == H_NEG) return a ^ 0x8000;
    if (x->op == H_ABS) return a & 0x7fff;
    double da = bf ? bf2d(a) : h2d(a), db = bf ? bf2d(b) : h2d(b), dc = bf ? bf2d(c) : h2d(c);
    if (x->op == H_MIN || x->op == H_MAX) {
        int na = is_nan16(a, bf), nb = is_nan16(b, bf);
        uint16_t r;
        if ((na && nb) || ((na || nb) && x->nanmode)) return 0x7fff;
        if (na) r = b;
        else if (nb) r = a;
        else if (da == db) r = x->op == H_MAX ? (a & b) : (a | b);     /* -0 < +0 */
        else r = ((da < db) == (x->op == H_MIN)) ? a : b;
        if (x->relu && (r & 0x8000) && !is_nan16(r, bf)) r = 0;
        return r;
    }
    uint16_t r;
    int nan = 0;
    if (x->op == H_FMA) {
        double p = da * db;
        if (p != p || isinf(p) || isinf(dc) || dc != dc) {
            double v = p + dc;
            nan = v != v;
            r = nan ? 0x7fff : (v > 0 ? (bf ? 0x7f80 : 0x7c00) : (bf ? 0xff80 : 0xfc00));
        } else {
            /* p is exact; p + c rounded to odd in double (truncate, then set the sticky lsb
             * when inexact) rounds once more to 8/11 bits without double rounding */
            feclearexcept(FE_INEXACT);
            fesetround(FE_TOWARDZERO);
            volatile double vp = p, vc = dc, sum = vp + vc;
            fesetround(FE_TONEAREST);
            double s2 = sum;
            if (fetestexcept(FE_INEXACT))
                s2 = isa_d(isa_du(s2) | 1);
            if (s2 == 0)
                r = (signbit(p) && signbit(dc)) ? 0x8000 : 0;
            else
                r = round16d(s2, bf);
        }
    } else {
        double v = x->op == H_ADD ? da + db : x->op == H_SUB ? da - db : da * db;
        nan = v != v;
        if (nan) r = 0x7fff;
        else if (isinf(v)) r = v > 0 ? (bf ? 0x7f80 : 0x7c00) : (bf ? 0xff80 : 0xfc00);
        else if (v == 0) r = signbit(v) ? 0x8000 : 0;
        else r = round16d(v, bf);   /* add/sub/mul of 16-bit values are exact in double */
    }
    if (nan) return x->sat ? 0 : 0x7fff;
    if (x->sat) {
        double v = bf ? bf2d(r) : h2d(r);
        if (v <= 0) r = 0;
        else if (v >= 1) r = bf ? 0x3f80 : 0x3c00;
    }
    if (x->relu && (r & 0x8000)) r = 0;
    if (x->ftz && is_sub16(r, bf)) r &= 0x8000;
    return r;
}
static void ref_half(const uint64_t *in, uint64_t *out, const void *ctx)
{
    const hctx *x = ctx;
    uint64_t lo = href1((uint16_t)in[0], (uint16_t)in[1], (uint16_t)in[2], x);
    uint64_t hi = href1((uint16_t)(in[0] >> 16), (uint16_t)(in[1] >> 16), (uint16_t)(in[2] >> 16), x);
    out[0] = lo | hi << 16;
}

START_TEST(half_arith)
{
    TU_NEED_HOST_FPU();
    static const char *const names[] = { "add", "sub", "mul", "fma", "min", "max", "neg", "abs" };
    static const int nin[] = { 2, 2, 2, 3, 2, 2, 1, 1 };
    static const char *const tys[] = { "f16", "f16x2", "bf16", "bf16x2" };
    int n = 500;
    for (int t = 0; t < 4; t++) {
        int bf = t >= 2;
        char intypes[64];
        snprintf(intypes, sizeof intypes, "%s %s %s", tys[t], tys[t], tys[t]);
        uint64_t *in = isa_inputs(intypes, n, 700 + (uint64_t)t);
        for (int op = 0; op < 8; op++)
            for (int v = 0; v < 8; v++) {
                int ftz = v & 1, sat = v >> 1 & 1, relu = v >> 2 & 1;
                int arith = op <= H_FMA, mm = op == H_MIN || op == H_MAX;
                if (sat && relu) continue;
                if (bf && (ftz || sat)) continue;
                if (!arith && sat) continue;
                if (relu && !(op == H_FMA || mm)) continue;
                if ((op == H_NEG || op == H_ABS) && bf && ftz) continue;
                for (int nm = 0; nm < (mm ? 2 : 1); nm++) {
                    char code[160];
                    hctx c = { op, bf, ftz, sat, relu, nm };
                    snprintf(code, sizeof code, "\t%s%s%s%s%s%s.%s %%d0, %%a0%s%s;", names[op],
                             arith && op == H_FMA ? ".rn" : "", ftz ? ".ftz" : "", sat ? ".sat" : "",
                             relu ? ".relu" : "", nm ? ".NaN" : "", tys[t], nin[op] > 1 ? ", %a1" : "",
                             nin[op] > 2 ? ", %a2" : "");
                    isa_case k = { code, intypes, tys[t], NULL };
                    isa_check(&k, n, in, ref_half, &c);
                }
            }
        free(in);
    }
}
END_TEST

/* f16x2 comparisons: setp gives p from the low halves and q from the high halves; set.f16x2
 * and set.u32 produce per-half 1.0 / 0xffff. */
static void ref_setx2(const uint64_t *in, uint64_t *out, const void *ctx)
{
    (void)ctx;
    double al = h2d(in[0] & 0xffff), ah = h2d(in[0] >> 16), bl = h2d(in[1] & 0xffff), bh = h2d(in[1] >> 16);
    int lo = al > bl, hi = ah > bh;     /* ordered: false on NaN */
    out[0] = (uint64_t)lo;
    out[1] = (uint64_t)hi;
    out[2] = (uint64_t)(lo ? 0x3c00 : 0) | (uint64_t)(hi ? 0x3c00 : 0) << 16;
    out[3] = (uint64_t)(lo ? 0xffff : 0) | (uint64_t)(hi ? 0xffff : 0) << 16;
}
START_TEST(half_compare)
{
    int n = 400;
    uint64_t *in = isa_inputs("f16x2 f16x2", n, 801);
    isa_case k = { "\tsetp.gt.f16x2 %d0|%d1, %a0, %a1;\n\tset.gt.f16x2.f16x2 %d2, %a0, %a1;\n\tset.gt.u32.f16x2 %d3, %a0, %a1;",
                   "f16x2 f16x2", "pred pred f16x2 u32", NULL };
    isa_check(&k, n, in, ref_setx2, NULL);
    free(in);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("isa_half");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, half_arith);
    tcase_add_test(tc, half_compare);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
