/* exec_half.c - exact small-format rounding (f16/bf16/tf32/fp8) and f16/f16x2/bf16/bf16x2 arithmetic. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "exec_insn.h"
#include "exec_fp.h"

/* =============================================================================================
 * Formats and exact rounding. A value is (-1)^neg * mant * 2^exp; it is rounded once, with
 * the exponent range of the format (subnormals by the fixed quantum 2^(emin-p+1)).
 * ============================================================================================= */
const exec_fmt exec_fmt_f16  = { 11, 5, -14, 1, 0x7fffu };
const exec_fmt exec_fmt_bf16 = { 8, 8, -126, 1, 0x7fffu };
const exec_fmt exec_fmt_tf32 = { 11, 8, -126, 1, 0x3ffffu };
const exec_fmt exec_fmt_f32  = { 24, 8, -126, 1, 0x7fffffffu };
const exec_fmt exec_fmt_e4m3 = { 4, 4, -6, 0, 0x7fu };
const exec_fmt exec_fmt_e5m2 = { 3, 5, -14, 1, 0x7fu };

static inline uint32_t fmt_sign(const exec_fmt *f) { return 1u << (f->p - 1 + f->ebits); }
static inline uint32_t fmt_inf(const exec_fmt *f) { return ((1u << f->ebits) - 1) << (f->p - 1); }
static inline uint32_t fmt_max(const exec_fmt *f)
{
    if (f->ieee)
        return (((1u << f->ebits) - 2) << (f->p - 1)) | ((1u << (f->p - 1)) - 1);
    return (((1u << f->ebits) - 1) << (f->p - 1)) | ((1u << (f->p - 1)) - 2);
}

uint32_t exec_fp_round(const exec_fmt *f, int neg, uint64_t mant, int exp, int mode, int satfinite)
{
    uint32_t sign = neg ? fmt_sign(f) : 0;
    if (mant == 0)
        return sign;
    int top = 63 - __builtin_clzll(mant);
    int e = top + exp;                                  /* exponent of the leading bit */
    int q = (e < f->emin ? f->emin : e) - (f->p - 1);   /* exponent of the result's lsb */
    int64_t shift = (int64_t)q - exp;
    uint64_t n;
    int gt = 0, eq = 0, nz = 0;
    if (shift <= 0) {
        n = mant << -shift;
    } else if (shift > 64) {
        n = 0;
        nz = 1;                                         /* below half a quantum */
    } else {
        uint64_t rem = shift == 64 ? mant : mant & ((1ull << shift) - 1);
        uint64_t half = 1ull << (shift - 1);
        n = shift == 64 ? 0 : mant >> shift;
        nz = rem != 0;
        gt = rem > half;
        eq = rem == half;
    }
    int inc;
    switch (mode) {
    case EXEC_RN:  inc = gt || (eq && (n & 1)); break;
    case EXEC_RNA: inc = gt || eq; break;
    case EXEC_RZ:  inc = 0; break;
    case EXEC_RM:  inc = neg && nz; break;
    default:       inc = !neg && nz; break;
    }
    n += (uint64_t)inc;
    if (n >> f->p) {
        n >>= 1;
        q++;
    }
    uint64_t bits;
    if (n < (1ull << (f->p - 1)))
        bits = n;                                       /* subnormal or zero */
    else
        bits = ((uint64_t)(q + (f->p - 1) - f->emin + 1) << (f->p - 1)) | (n - (1ull << (f->p - 1)));
    if (q + (f->p - 1) - f->emin + 1 > (1 << f->ebits) || bits > fmt_max(f)) {
        int toinf = mode == EXEC_RN || mode == EXEC_RNA || (mode == EXEC_RP && !neg) ||
                    (mode == EXEC_RM && neg);
        if (!toinf || satfinite)
            return sign | fmt_max(f);
        return f->ieee ? sign | fmt_inf(f) : sign | f->nan;
    }
    return sign | (uint32_t)bits;
}

uint32_t exec_fp_from_double(const exec_fmt *f, double x, int mode, int satfinite)
{
    uint64_t u = exec_d2u(x);
    int neg = (int)(u >> 63);
    uint32_t ef = (uint32_t)(u >> 52 & 0x7ff);
    uint64_t man = u & 0xfffffffffffffull;
    if (ef == 0x7ff) {
        if (man)
            return f->nan;
        if (satfinite || !f->ieee)
            return (neg ? fmt_sign(f) : 0) | (satfinite ? fmt_max(f) : f->nan);
        return (neg ? fmt_sign(f) : 0) | fmt_inf(f);
    }
    if (ef == 0)
        return exec_fp_round(f, neg, man, -1074, mode, satfinite);
    return exec_fp_round(f, neg, man | (1ull << 52), (int)ef - 1075, mode, satfinite);
}

double exec_fp_to_double(const exec_fmt *f, uint32_t bits)
{
    uint32_t s = bits & fmt_sign(f);
    uint32_t ef = bits >> (f->p - 1) & ((1u << f->ebits) - 1);
    uint32_t man = bits & ((1u << (f->p - 1)) - 1);
    double v;
    if (f->ieee && ef == (1u << f->ebits) - 1)
        v = man ? NAN : INFINITY;
    else if (!f->ieee && (bits & ~fmt_sign(f)) == f->nan)
        v = NAN;
    else if (ef == 0)
        v = ldexp((double)man, f->emin - (f->p - 1));
    else
        v = ldexp((double)(man | (1u << (f->p - 1))), (int)ef - 1 + f->emin - (f->p - 1));
    return s ? -v : v;
}

/* =============================================================================================
 * f16 / bf16 arithmetic (scalar and packed x2: each half independently, lower half = element 0).
 *   add/sub/mul/fma .rn: computed exactly (or via round-to-odd) in double, rounded once.
 *   .ftz flushes subnormal inputs/results to signed zero; .sat clamps to [0, 1] (NaN -> +0);
 *   .relu clamps negative results to +0 (NaN stays NaN). NaN results are canonical (0x7fff).
 *   min/max: NaN rules as f32 (.NaN: any NaN input -> canonical NaN), -0 < +0, .xorsign.abs.
 *   neg/abs: sign-bit operations (after .ftz). ex2/tanh .approx: in double, rounded to nearest.
 * ============================================================================================= */
enum { FL_FTZ = 1, FL_SAT = 2, FL_NAN = 4, FL_XORSIGN = 8, FL_RELU = 16 };

static inline int h_sub(const exec_fmt *f, uint32_t h)
{
    return !(h >> (f->p - 1) & ((1u << f->ebits) - 1)) && (h & ((1u << (f->p - 1)) - 1));
}
static inline int h_isnan(const exec_fmt *f, uint32_t h)
{
    return (h & 0x7fffu) > fmt_inf(f);
}
static inline uint16_t h_in(const exec_fmt *f, uint16_t h, int fl)
{
    return (fl & FL_FTZ) && h_sub(f, h) ? (uint16_t)(h & 0x8000u) : h;
}
static inline double hx(const exec_fmt *f, uint16_t h, int fl)
{
    return exec_fp_to_double(f, h_in(f, h, fl));
}
static inline uint16_t hr(const exec_fmt *f, double v, int fl)
{
    if (fl & FL_SAT)
        v = exec_sat64(v);
    if (v != v)
        return (uint16_t)f->nan;
    if ((fl & FL_RELU) && v <= 0)
        v = 0.0;
    uint16_t r = (uint16_t)exec_fp_from_double(f, v, EXEC_RN, 0);
    return (fl & FL_FTZ) && h_sub(f, r) ? (uint16_t)(r & 0x8000u) : r;
}
static inline double hfma(double x, double y, double z)
{
    double p = x * y, s, e = exec_fp_twosum(p, z, &s);
    if (s == 0)
        return (p == 0 && z == 0 && signbit(p) && signbit(z)) ? -0.0 : 0.0;
    return exec_fp_odd(s, e);
}
static inline uint16_t hminmax(const exec_fmt *f, uint16_t a, uint16_t b, int max, int fl)
{
    uint16_t s = 0;
    a = h_in(f, a, fl);
    b = h_in(f, b, fl);
    if (fl & FL_XORSIGN) {
        s = (uint16_t)((a ^ b) & 0x8000u);
        a &= 0x7fffu;
        b &= 0x7fffu;
    }
    uint16_t r;
    int na = h_isnan(f, a), nb = h_isnan(f, b);
    if (na || nb) {
        if ((na && nb) || (fl & FL_NAN))
            return (uint16_t)f->nan;
        r = na ? b : a;
    } else {
        double x = exec_fp_to_double(f, a), y = exec_fp_to_double(f, b);
        if (x == y)
            r = max ? (a & b) : (a | b);
        else
            r = (x < y) != max ? a : b;
    }
    if ((fl & FL_RELU) && (r & 0x8000u))
        r = 0;
    return (uint16_t)(r | s);
}

/* min/max of two f16/bf16 encodings without modifiers (atom/red .min/.max, exec_atomx.c). */
uint16_t exec_half_minmax(const exec_fmt *f, uint16_t a, uint16_t b, int max)
{
    return hminmax(f, a, b, max, 0);
}

#define E_ADD(f, a, b, c, fl)  hr(f, hx(f, a, fl) + hx(f, b, fl), fl)
#define E_SUB(f, a, b, c, fl)  hr(f, hx(f, a, fl) - hx(f, b, fl), fl)
#define E_MUL(f, a, b, c, fl)  hr(f, hx(f, a, fl) * hx(f, b, fl), fl)
#define E_FMA(f, a, b, c, fl)  hr(f, hfma(hx(f, a, fl), hx(f, b, fl), hx(f, c, fl)), fl)
#define E_MIN(f, a, b, c, fl)  hminmax(f, a, b, 0, fl)
#define E_MAX(f, a, b, c, fl)  hminmax(f, a, b, 1, fl)
#define E_NEG(f, a, b, c, fl)  ((uint16_t)(h_in(f, a, fl) ^ 0x8000u))
#define E_ABS(f, a, b, c, fl)  ((uint16_t)(h_in(f, a, fl) & 0x7fffu))
#define E_EX2(f, a, b, c, fl)  hr(f, exp2(hx(f, a, fl)), fl)
#define E_TANH(f, a, b, c, fl) hr(f, tanh(hx(f, a, fl)), fl)

#define HALF_HANDLERS(name, E)                                                                \
    static int name##_1(exec_warp *w, const exec_insn *in, uint32_t m)                       \
    {                                                                                        \
        const exec_fmt *f = in->aux[0] ? &exec_fmt_bf16 : &exec_fmt_f16;                     \
        int fl = in->flags;                                                                  \
        uint16_t *d = EXEC_DST(w, in, 0);                                                    \
        const uint16_t *a = EXEC_SRC(w, in, 1);                                              \
        const uint16_t *b = in->nops > 2 ? (const uint16_t *)EXEC_SRC(w, in, 2) : a;         \
        const uint16_t *c = in->nops > 3 ? (const uint16_t *)EXEC_SRC(w, in, 3) : a;         \
        EXEC_LANES_DO(m, uint16_t x = a[i]; uint16_t y = b[i]; uint16_t z = c[i]; (void)y;   \
                      (void)z; (void)fl; d[i] = E(f, x, y, z, fl));                          \
        return EXEC_NEXT;                                                                    \
    }                                                                                        \
    static int name##_2(exec_warp *w, const exec_insn *in, uint32_t m)                       \
    {                                                                                        \
        const exec_fmt *f = in->aux[0] ? &exec_fmt_bf16 : &exec_fmt_f16;                     \
        int fl = in->flags;                                                                  \
        uint32_t *d = EXEC_DST(w, in, 0);                                                    \
        const uint32_t *a = EXEC_SRC(w, in, 1);                                              \
        const uint32_t *b = in->nops > 2 ? (const uint32_t *)EXEC_SRC(w, in, 2) : a;         \
        const uint32_t *c = in->nops > 3 ? (const uint32_t *)EXEC_SRC(w, in, 3) : a;         \
        EXEC_LANES_DO(m, uint32_t x = a[i]; uint32_t y = b[i]; uint32_t z = c[i]; (void)y;   \
                      (void)z; (void)fl;                                                     \
                      uint16_t lo = E(f, (uint16_t)x, (uint16_t)y, (uint16_t)z, fl);         \
                      uint16_t hi = E(f, (uint16_t)(x >> 16), (uint16_t)(y >> 16),           \
                                      (uint16_t)(z >> 16), fl);                              \
                      d[i] = (uint32_t)hi << 16 | lo);                                       \
        return EXEC_NEXT;                                                                    \
    }
HALF_HANDLERS(hh_add, E_ADD)
HALF_HANDLERS(hh_sub, E_SUB)
HALF_HANDLERS(hh_mul, E_MUL)
HALF_HANDLERS(hh_fma, E_FMA)
HALF_HANDLERS(hh_min, E_MIN)
HALF_HANDLERS(hh_max, E_MAX)
HALF_HANDLERS(hh_neg, E_NEG)
HALF_HANDLERS(hh_abs, E_ABS)
HALF_HANDLERS(hh_ex2, E_EX2)
HALF_HANDLERS(hh_tanh, E_TANH)

int exec_half_decode(exec_dec *d, const ptx_insn *pi, exec_insn *in, int op)
{
    static const struct { exec_fn f1, f2; int n; uint64_t allow; } tab[] = {
        [EXEC_ALU_ADD]  = { hh_add_1, hh_add_2, 3, EXEC_MB(RN) | EXEC_MB(FTZ) | EXEC_MB(SAT) },
        [EXEC_ALU_SUB]  = { hh_sub_1, hh_sub_2, 3, EXEC_MB(RN) | EXEC_MB(FTZ) | EXEC_MB(SAT) },
        [EXEC_ALU_MUL]  = { hh_mul_1, hh_mul_2, 3, EXEC_MB(RN) | EXEC_MB(FTZ) | EXEC_MB(SAT) },
        [EXEC_ALU_FMA]  = { hh_fma_1, hh_fma_2, 4,
                            EXEC_MB(RN) | EXEC_MB(FTZ) | EXEC_MB(SAT) | EXEC_MB(RELU) },
        [EXEC_ALU_DIV]  = { NULL, NULL, 0, 0 },
        [EXEC_ALU_ABS]  = { hh_abs_1, hh_abs_2, 2, EXEC_MB(FTZ) },
        [EXEC_ALU_NEG]  = { hh_neg_1, hh_neg_2, 2, EXEC_MB(FTZ) },
        [EXEC_ALU_MIN]  = { hh_min_1, hh_min_2, 3, EXEC_MB(FTZ) | EXEC_MB(NAN) | EXEC_MB(RELU) |
                                                   EXEC_MB(XORSIGN) | EXEC_MB(ABS) },
        [EXEC_ALU_MAX]  = { hh_max_1, hh_max_2, 3, EXEC_MB(FTZ) | EXEC_MB(NAN) | EXEC_MB(RELU) |
                                                   EXEC_MB(XORSIGN) | EXEC_MB(ABS) },
        [EXEC_ALU_EX2]  = { hh_ex2_1, hh_ex2_2, 2, EXEC_MB(APPROX) | EXEC_MB(FTZ) },
        [EXEC_ALU_TANH] = { hh_tanh_1, hh_tanh_2, 2, EXEC_MB(APPROX) },
    };
    if (op < 0 || op > EXEC_ALU_TANH || !tab[op].f1)
        return exec_dec_error(d, pi, "not supported for f16/bf16 types");
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, tab[op].allow, &mo))
        return -1;
    if (mo.ntypes != 1 || !exec_alu_is_half(mo.t[0]))
        return exec_dec_error(d, pi, "expects one of .f16 .f16x2 .bf16 .bf16x2");
    ptx_type t = mo.t[0];
    int bf = t == PTX_T_BF16 || t == PTX_T_BF16X2, x2 = t == PTX_T_F16X2 || t == PTX_T_BF16X2;
    if ((op == EXEC_ALU_EX2 || op == EXEC_ALU_TANH) && !(mo.bits & EXEC_MB(APPROX)))
        return exec_dec_error(d, pi, "requires .approx");
    if ((mo.bits & EXEC_MB(SAT)) && (mo.bits & EXEC_MB(RELU)))
        return exec_dec_error(d, pi, ".sat and .relu are exclusive");
    if (bf && (mo.bits & (EXEC_MB(SAT) | (op == EXEC_ALU_EX2 ? 0 : EXEC_MB(FTZ)))))
        return exec_dec_error(d, pi, ".ftz/.sat are not supported for bf16 types");
    if (((mo.bits & EXEC_MB(XORSIGN)) != 0) != ((mo.bits & EXEC_MB(ABS)) != 0))
        return exec_dec_error(d, pi, ".xorsign requires .abs");
    in->aux[0] = bf;
    in->flags = (uint8_t)(((mo.bits & EXEC_MB(FTZ)) ? FL_FTZ : 0) |
                          ((mo.bits & EXEC_MB(SAT)) ? FL_SAT : 0) |
                          ((mo.bits & EXEC_MB(NAN)) ? FL_NAN : 0) |
                          ((mo.bits & EXEC_MB(XORSIGN)) ? FL_XORSIGN : 0) |
                          ((mo.bits & EXEC_MB(RELU)) ? FL_RELU : 0));
    in->bop = EXEC_RN;
    in->type = (uint8_t)t;
    in->fn = x2 ? tab[op].f2 : tab[op].f1;
    ptx_type ty[4] = { t, t, t, t };
    return exec_alu_ops(d, pi, in, tab[op].n, ty);
}
