/* exec_cvt.c - cvt between all integer and floating-point types, incl. packed f16x2/bf16x2/fp8x2, tf32 and cvt.pack.sat. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "exec_insn.h"
#include "exec_fp.h"

/* =============================================================================================
 * cvt semantics (d = convert(a)):
 *   int -> int     truncate / sign- or zero-extend; .sat clamps to the destination range.
 *   float -> int   round to integer (.rni .rzi .rmi .rpi; default .rzi), always clamped to
 *                  the destination range; NaN -> 0 for 8/16/32-bit destinations and
 *                  0x8000000000000000 for .s64/.u64 (what the hardware gives; cuda_fp16.h
 *                  documents it for __half2ll_rz/__half2ull_rz); .ftz flushes an f32
 *                  subnormal source.
 *   int -> float   correctly rounded (.rn .rz .rm .rp; default .rn), exact on the integer.
 *   float -> float widening is exact; narrowing rounds once (.rn .rz .rm .rp, tf32 .rna);
 *                  .rni.. on same-or-wider types round to an integral value; .ftz flushes f32
 *                  subnormal inputs and results; .sat clamps to [0, 1] (NaN -> +0); .relu
 *                  (f16/bf16 results) clamps negatives to +0; .satfinite gives the largest finite
 *                  value instead of infinity (and NaN stays NaN). NaN results are canonical.
 *   packed:        cvt.rn.f16x2.f32 d, a, b -> d = {cvt(a) in the high half, cvt(b) low};
 *                  bf16x2 and e4m3x2/e5m2x2 (from two f32 or from one f16x2) alike;
 *                  cvt.rn.f16x2.e4m3x2 d, a widens both bytes exactly.
 * Two stages per instruction (a switch on the types per instruction, never per lane): the
 * sources become exact doubles or 64-bit integers, then they are rounded to the destination.
 * ============================================================================================= */
enum { FL_FTZ = 1, FL_SAT = 2, FL_RELU = 4, FL_SATF = 8, FL_IRND = 16 };

typedef union {
    double f[EXEC_LANES];
    uint64_t u[EXEC_LANES];
} cvt_buf;

static int t_isfloat(ptx_type t)
{
    return t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_F32 || t == PTX_T_F64 ||
           t == PTX_T_TF32;
}

static void load_src(const exec_insn *in, const void *p, cvt_buf *b)
{
    switch (in->type2) {
    case PTX_T_U8: case PTX_T_B8:
        for (int i = 0; i < EXEC_LANES; i++) b->u[i] = ((const uint8_t *)p)[i];
        break;
    case PTX_T_S8:
        for (int i = 0; i < EXEC_LANES; i++) b->u[i] = (uint64_t)(int64_t)((const int8_t *)p)[i];
        break;
    case PTX_T_U16: case PTX_T_B16:
        for (int i = 0; i < EXEC_LANES; i++) b->u[i] = ((const uint16_t *)p)[i];
        break;
    case PTX_T_S16:
        for (int i = 0; i < EXEC_LANES; i++) b->u[i] = (uint64_t)(int64_t)((const int16_t *)p)[i];
        break;
    case PTX_T_U32: case PTX_T_B32:
        for (int i = 0; i < EXEC_LANES; i++) b->u[i] = ((const uint32_t *)p)[i];
        break;
    case PTX_T_S32:
        for (int i = 0; i < EXEC_LANES; i++) b->u[i] = (uint64_t)(int64_t)((const int32_t *)p)[i];
        break;
    case PTX_T_U64: case PTX_T_S64: case PTX_T_B64:
        memcpy(b->u, p, sizeof b->u);
        break;
    case PTX_T_F16:
        for (int i = 0; i < EXEC_LANES; i++) b->f[i] = exec_fp_to_double(&exec_fmt_f16, ((const uint16_t *)p)[i]);
        break;
    case PTX_T_BF16:
        for (int i = 0; i < EXEC_LANES; i++) b->f[i] = exec_bf2f(((const uint16_t *)p)[i]);
        break;
    case PTX_T_F32:
        if (in->flags & FL_FTZ)
            for (int i = 0; i < EXEC_LANES; i++) b->f[i] = exec_ftz32(((const float *)p)[i]);
        else
            for (int i = 0; i < EXEC_LANES; i++) b->f[i] = ((const float *)p)[i];
        break;
    default: /* F64 */
        memcpy(b->f, p, sizeof b->f);
        break;
    }
}

static inline double rint_mode(double x, int mo)
{
    switch (mo) {
    case EXEC_RN: return nearbyint(x);
    case EXEC_RZ: return trunc(x);
    case EXEC_RM: return floor(x);
    default:      return ceil(x);
    }
}

/* Float value -> integer of `bits` (signed or not): rounded, clamped; NaN -> 0, or
 * 0x8000000000000000 for a 64-bit destination (signed or not). */
static inline uint64_t f2i(double x, int mo, int bits, int sgn)
{
    double r = rint_mode(x, mo);
    if (r != r)
        return bits == 64 ? 1ull << 63 : 0;
    if (sgn) {
        double lim = ldexp(1.0, bits - 1);
        if (r >= lim)
            return (1ull << (bits - 1)) - 1;
        if (r <= -lim)
            return (uint64_t)0 - (1ull << (bits - 1));
        return (uint64_t)(int64_t)r;
    }
    if (r <= 0)
        return 0;
    if (r >= ldexp(1.0, bits))
        return bits == 64 ? ~0ull : (1ull << bits) - 1;
    return (uint64_t)r;
}

/* Integer (value v, signed if sgn) -> clamp to a `bits`-wide integer type. */
static inline uint64_t isat(uint64_t v, int sgn, int bits, int dsgn)
{
    __int128 x = sgn ? (__int128)(int64_t)v : (__int128)v;
    __int128 lo = dsgn ? -((__int128)1 << (bits - 1)) : 0;
    __int128 hi = dsgn ? ((__int128)1 << (bits - 1)) - 1 : ((__int128)1 << bits) - 1;
    if (x < lo) x = lo;
    if (x > hi) x = hi;
    return (uint64_t)x;
}

/* Exact integer -> f64 in mode mo. */
static inline double i2d(uint64_t v, int sgn, int mo)
{
    __int128 x = sgn ? (__int128)(int64_t)v : (__int128)v;
    double d = sgn ? (double)(int64_t)v : (double)v;
    if (mo == EXEC_RN)
        return d;
    __int128 e = x - (__int128)d; /* |d| <= 2^64: fits */
    if (e == 0)
        return d;
    if (mo == EXEC_RZ)
        return (e > 0) != (d > 0) && d != 0 ? nextafter(d, 0.0) : d;
    if (mo == EXEC_RM)
        return e < 0 ? nextafter(d, -INFINITY) : d;
    return e > 0 ? nextafter(d, INFINITY) : d;
}

/* Exact integer -> small format encoding. */
static inline uint32_t i2fmt(const exec_fmt *f, uint64_t v, int sgn, int mo)
{
    int neg = sgn && (int64_t)v < 0;
    uint64_t mag = neg ? 0 - v : v;
    return exec_fp_round(f, neg, mag, 0, mo, 0);
}

/* Double -> f16/bf16 encoding with .relu/.sat/.satfinite. */
static inline uint16_t d2h(const exec_fmt *f, double x, int mo, int fl)
{
    if (fl & FL_SAT)
        x = exec_sat64(x);
    if ((fl & FL_RELU) && x <= 0)
        x = 0.0;
    return (uint16_t)exec_fp_from_double(f, x, mo, fl & FL_SATF);
}
static inline uint8_t d2f8(const exec_fmt *f, double x, int fl)
{
    if ((fl & FL_RELU) && x <= 0)
        x = 0.0;
    return (uint8_t)exec_fp_from_double(f, x, EXEC_RN, 1);
}
static inline float d2f(double x, int mo, int fl)
{
    float r = exec_fp_f32_mode(x, mo);
    if (fl & FL_FTZ)
        r = exec_ftz32(r);
    if (fl & FL_SAT)
        r = exec_sat32(r);
    return r;
}

static int h_cvt(exec_warp *w, const exec_insn *in, uint32_t m)
{
    cvt_buf b;
    load_src(in, EXEC_SRC(w, in, 1), &b);
    void *dp = EXEC_DST(w, in, 0);
    int mo = in->bop, fl = in->flags, srcf = t_isfloat((ptx_type)in->type2);
    int ssg = exec_alu_is_signed((ptx_type)in->type2);
    ptx_type dt = (ptx_type)in->type;
    if (srcf && (fl & FL_IRND)) {
        for (int i = 0; i < EXEC_LANES; i++) b.f[i] = rint_mode(b.f[i], mo);
        mo = EXEC_RN;
    }
    if (exec_alu_is_int(dt)) {
        int bits = exec_alu_bits(dt), dsg = exec_alu_is_signed(dt);
        uint64_t r[EXEC_LANES];
        if (srcf)
            for (int i = 0; i < EXEC_LANES; i++) r[i] = f2i(b.f[i], mo, bits, dsg);
        else if (fl & FL_SAT)
            for (int i = 0; i < EXEC_LANES; i++) r[i] = isat(b.u[i], ssg, bits, dsg);
        else
            memcpy(r, b.u, sizeof r);
        switch (bits) {
        case 8:  EXEC_LANES_DO(m, ((uint8_t *)dp)[i] = (uint8_t)r[i]); break;
        case 16: EXEC_LANES_DO(m, ((uint16_t *)dp)[i] = (uint16_t)r[i]); break;
        case 32: EXEC_LANES_DO(m, ((uint32_t *)dp)[i] = (uint32_t)r[i]); break;
        default: EXEC_LANES_DO(m, ((uint64_t *)dp)[i] = r[i]); break;
        }
        return EXEC_NEXT;
    }
    switch (dt) {
    case PTX_T_F16: case PTX_T_BF16: {
        const exec_fmt *f = dt == PTX_T_F16 ? &exec_fmt_f16 : &exec_fmt_bf16;
        uint16_t *d = dp;
        if (srcf)
            EXEC_LANES_DO(m, d[i] = d2h(f, b.f[i], mo, fl));
        else
            EXEC_LANES_DO(m, d[i] = (uint16_t)i2fmt(f, b.u[i], ssg, mo));
        break;
    }
    case PTX_T_TF32: {
        uint32_t *d = dp;
        if (fl & FL_RELU)   /* negatives (and -0) to +0; NaN stays NaN */
            for (int i = 0; i < EXEC_LANES; i++) b.f[i] = b.f[i] <= 0 ? 0.0 : b.f[i];
        EXEC_LANES_DO(m, uint32_t e = exec_fp_from_double(&exec_fmt_tf32, b.f[i], mo, fl & FL_SATF);
                      d[i] = b.f[i] != b.f[i] ? EXEC_NAN32 : e << 13);
        break;
    }
    case PTX_T_F32: {
        float *d = dp;
        if (srcf)
            EXEC_LANES_DO(m, d[i] = d2f(b.f[i], mo, fl));
        else
            EXEC_LANES_DO(m, d[i] = d2f(exec_u2f(i2fmt(&exec_fmt_f32, b.u[i], ssg, mo)), EXEC_RN, fl));
        break;
    }
    default: { /* F64 */
        double *d = dp;
        if (srcf)
            EXEC_LANES_DO(m, double x = b.f[i]; if (fl & FL_SAT) x = exec_sat64(x);
                          d[i] = x == x ? x : exec_u2d(EXEC_NAN64));
        else
            EXEC_LANES_DO(m, double x = i2d(b.u[i], ssg, mo); if (fl & FL_SAT) x = exec_sat64(x);
                          d[i] = x);
        break;
    }
    }
    return EXEC_NEXT;
}

/* Fast paths of frequent conversions. */
EXEC_HANDLER1(h_cvt_u64_u32, uint64_t, uint32_t, x)
EXEC_HANDLER1(h_cvt_s64_s32, uint64_t, int32_t, (uint64_t)(int64_t)x)
EXEC_HANDLER1(h_cvt_u32_u64, uint32_t, uint64_t, x)
EXEC_HANDLER1(h_cvt_rn_f32_s32, float, int32_t, (float)x)
EXEC_HANDLER1(h_cvt_rn_f32_u32, float, uint32_t, (float)x)
EXEC_HANDLER1(h_cvt_f64_f32, double, float, x == x ? (double)x : exec_u2d(EXEC_NAN64))

/* Packed conversions. aux[0]: format of the destination elements (0 f16, 1 bf16, 2 e4m3, 3 e5m2). */
static const exec_fmt *pk_fmt(const exec_insn *in)
{
    switch (in->aux[0]) {
    case 0: return &exec_fmt_f16;
    case 1: return &exec_fmt_bf16;
    case 2: return &exec_fmt_e4m3;
    default: return &exec_fmt_e5m2;
    }
}
static int h_cvt_pack16(exec_warp *w, const exec_insn *in, uint32_t m) /* f16x2/bf16x2 <- f32, f32 */
{
    const exec_fmt *f = pk_fmt(in);
    uint32_t *d = EXEC_DST(w, in, 0);
    const float *a = EXEC_SRC(w, in, 1), *b = EXEC_SRC(w, in, 2);
    int mo = in->bop, fl = in->flags;
    EXEC_LANES_DO(m, d[i] = (uint32_t)d2h(f, a[i], mo, fl) << 16 | d2h(f, b[i], mo, fl));
    return EXEC_NEXT;
}
static int h_cvt_pack8(exec_warp *w, const exec_insn *in, uint32_t m) /* e4m3x2 <- f32, f32 */
{
    const exec_fmt *f = pk_fmt(in);
    uint16_t *d = EXEC_DST(w, in, 0);
    const float *a = EXEC_SRC(w, in, 1), *b = EXEC_SRC(w, in, 2);
    int fl = in->flags;
    EXEC_LANES_DO(m, d[i] = (uint16_t)(d2f8(f, a[i], fl) << 8 | d2f8(f, b[i], fl)));
    return EXEC_NEXT;
}
static int h_cvt_pack8_h(exec_warp *w, const exec_insn *in, uint32_t m) /* e4m3x2 <- f16x2 */
{
    const exec_fmt *f = pk_fmt(in);
    uint16_t *d = EXEC_DST(w, in, 0);
    const uint32_t *a = EXEC_SRC(w, in, 1);
    int fl = in->flags;
    EXEC_LANES_DO(m, double hi = exec_fp_to_double(&exec_fmt_f16, a[i] >> 16);
                  double lo = exec_fp_to_double(&exec_fmt_f16, a[i] & 0xffff);
                  d[i] = (uint16_t)(d2f8(f, hi, fl) << 8 | d2f8(f, lo, fl)));
    return EXEC_NEXT;
}
static int h_cvt_unpack8(exec_warp *w, const exec_insn *in, uint32_t m) /* f16x2 <- e4m3x2 */
{
    const exec_fmt *f = pk_fmt(in);
    uint32_t *d = EXEC_DST(w, in, 0);
    const uint16_t *a = EXEC_SRC(w, in, 1);
    int fl = in->flags;
    EXEC_LANES_DO(m, double hi = exec_fp_to_double(f, a[i] >> 8u);
                  double lo = exec_fp_to_double(f, a[i] & 0xffu);
                  d[i] = (uint32_t)d2h(&exec_fmt_f16, hi, EXEC_RN, fl) << 16 |
                         d2h(&exec_fmt_f16, lo, EXEC_RN, fl));
    return EXEC_NEXT;
}

/* cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c
 * (PTX ISA cvt.pack): a and b are clamped to the N-bit type; d = b's N bits at bit 0, a's at
 * bit N, and for the 4-operand form the low 32 - 2N bits of c above them (so a chain of
 * cvt.pack through c packs 4 bytes or 8 nibbles). aux[0] = N, aux[1] = signed result. */
static int h_cvt_packi(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint32_t *d = EXEC_DST(w, in, 0);
    const int32_t *a = EXEC_SRC(w, in, 1), *b = EXEC_SRC(w, in, 2);
    const uint32_t *c = in->nops > 3 ? EXEC_SRC(w, in, 3) : NULL;
    int n = (int)in->aux[0];
    int32_t lo = in->aux[1] ? -(1 << (n - 1)) : 0;
    int32_t hi = in->aux[1] ? (1 << (n - 1)) - 1 : (1 << n) - 1;
    uint32_t mask = (1u << n) - 1;
    EXEC_LANES_DO(m, int32_t ta = a[i] < lo ? lo : a[i] > hi ? hi : a[i];
                  int32_t tb = b[i] < lo ? lo : b[i] > hi ? hi : b[i];
                  uint32_t r = ((uint32_t)ta & mask) << n | ((uint32_t)tb & mask);
                  d[i] = c ? r | c[i] << (2 * n) : r);
    return EXEC_NEXT;
}

static int exec_dec_cvt_pack(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    static const char *const names[] = { "u16", "s16", "u8", "s8", "u4", "s4", "u2", "s2" };
    int n = 0, sgn = 0, sat = 0, ab = 0, cb = 0;
    const char *tn = "";
    for (int i = 0; i < pi->nmods; i++) {
        const char *md = pi->mods[i];
        size_t k = 0;
        while (k < sizeof names / sizeof names[0] && strcmp(md, names[k]))
            k++;
        if (k < sizeof names / sizeof names[0] && !n) {
            n = 16 >> (k / 2);
            sgn = md[0] == 's';
            tn = md;
            continue;
        }
        if (!strcmp(md, "pack")) continue;
        if (!strcmp(md, "sat")) { sat = 1; continue; }
        if (!strcmp(md, "s32") && n && !ab) { ab = 1; continue; }
        if (!strcmp(md, "b32") && ab && !cb) { cb = 1; continue; }
        return exec_dec_error(d, pi, "unsupported modifier .%s (cvt.pack.sat.convertType.s32"
                              "[.b32])", md);
    }
    if (!sat)
        return exec_dec_error(d, pi, "cvt.pack requires .sat");
    if (!n || !ab)
        return exec_dec_error(d, pi, "expected cvt.pack.sat.{u16,s16}.s32 or "
                              "cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32");
    if ((n == 16) == cb)
        return exec_dec_error(d, pi, n == 16 ? ".%s packs take no .b32 operand c"
                                             : "the .%s form needs .b32 and an operand c", tn);
    int nops = cb ? 4 : 3;
    if (pi->nops != nops)
        return exec_dec_error(d, pi, "expected %d operands", nops);
    in->aux[0] = n;
    in->aux[1] = sgn;
    in->fn = h_cvt_packi;
    ptx_type ty[4] = { PTX_T_B32, PTX_T_S32, PTX_T_S32, PTX_T_B32 };
    return exec_alu_ops(d, pi, in, nops, ty);
}

int exec_dec_cvt(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    if (ptx_insn_has_mod(pi, "pack"))
        return exec_dec_cvt_pack(d, pi, in);
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, EXEC_MB_RND | EXEC_MB(RNA) | EXEC_MB_IRND | EXEC_MB(FTZ) |
                      EXEC_MB(SAT) | EXEC_MB(RELU) | EXEC_MB(SATFINITE), &mo))
        return -1;
    if (mo.ntypes != 2)
        return exec_dec_error(d, pi, "expects .dtype and .atype");
    ptx_type dt = mo.t[0], st = mo.t[1];
    int dint = exec_alu_is_int(dt) && dt != PTX_T_B128, sint = exec_alu_is_int(st) && st != PTX_T_B128;
    int dflt = t_isfloat(dt), sflt = t_isfloat(st) && st != PTX_T_TF32;
    int frnd = !!(mo.bits & (EXEC_MB_RND | EXEC_MB(RNA))), irnd = !!(mo.bits & EXEC_MB_IRND);
    in->type = (uint8_t)dt;
    in->type2 = (uint8_t)st;
    in->flags = (uint8_t)(((mo.bits & EXEC_MB(FTZ)) ? FL_FTZ : 0) | ((mo.bits & EXEC_MB(SAT)) ? FL_SAT : 0) |
                          ((mo.bits & EXEC_MB(RELU)) ? FL_RELU : 0) |
                          ((mo.bits & EXEC_MB(SATFINITE)) ? FL_SATF : 0));
    if ((mo.bits & EXEC_MB(RNA)) && dt != PTX_T_TF32)
        return exec_dec_error(d, pi, ".rna is only supported for .tf32 results");
    if ((mo.bits & EXEC_MB(FTZ)) && st != PTX_T_F32 && dt != PTX_T_F32)
        return exec_dec_error(d, pi, ".ftz applies only to .f32 sources or results");
    if ((mo.bits & EXEC_MB(RELU)) && !(dt == PTX_T_F16 || dt == PTX_T_BF16 || dt == PTX_T_F16X2 ||
                                       dt == PTX_T_BF16X2 || dt == PTX_T_E4M3X2 || dt == PTX_T_E5M2X2 ||
                                       dt == PTX_T_TF32))
        return exec_dec_error(d, pi, ".relu needs an f16/bf16/tf32/fp8 result");
    if ((mo.bits & EXEC_MB(RELU)) && (mo.bits & EXEC_MB(RNA)))
        return exec_dec_error(d, pi, ".relu cannot be combined with .rna");

    /* packed forms */
    if (dt == PTX_T_F16X2 || dt == PTX_T_BF16X2 || dt == PTX_T_E4M3X2 || dt == PTX_T_E5M2X2) {
        int f8 = dt == PTX_T_E4M3X2 || dt == PTX_T_E5M2X2;
        in->aux[0] = dt == PTX_T_F16X2 ? 0 : dt == PTX_T_BF16X2 ? 1 : dt == PTX_T_E4M3X2 ? 2 : 3;
        in->bop = (uint8_t)exec_alu_rnd(&mo, EXEC_RN);
        if (irnd || (mo.bits & EXEC_MB(FTZ)) || (mo.bits & EXEC_MB(SAT)))
            return exec_dec_error(d, pi, "unsupported modifier for a packed conversion");
        ptx_type pt = f8 ? PTX_T_B16 : PTX_T_B32;
        if (st == PTX_T_F32) {
            if (f8 && !((mo.bits & EXEC_MB(SATFINITE)) && (mo.bits & EXEC_MB(RN))))
                return exec_dec_error(d, pi, "fp8 conversions require .rn.satfinite");
            if (!f8 && !(mo.bits & EXEC_MB_RND))
                return exec_dec_error(d, pi, "requires a rounding modifier");
            in->fn = f8 ? h_cvt_pack8 : h_cvt_pack16;
            ptx_type ty[3] = { pt, PTX_T_F32, PTX_T_F32 };
            return exec_alu_ops(d, pi, in, 3, ty);
        }
        if (f8 && st == PTX_T_F16X2) {
            if (!((mo.bits & EXEC_MB(SATFINITE)) && (mo.bits & EXEC_MB(RN))))
                return exec_dec_error(d, pi, "fp8 conversions require .rn.satfinite");
            in->fn = h_cvt_pack8_h;
            ptx_type ty[2] = { PTX_T_B16, PTX_T_B32 };
            return exec_alu_ops(d, pi, in, 2, ty);
        }
        if (dt == PTX_T_F16X2 && (st == PTX_T_E4M3X2 || st == PTX_T_E5M2X2)) {
            in->aux[0] = st == PTX_T_E4M3X2 ? 2 : 3;
            in->fn = h_cvt_unpack8;
            ptx_type ty[2] = { PTX_T_B32, PTX_T_B16 };
            return exec_alu_ops(d, pi, in, 2, ty);
        }
        return exec_dec_error(d, pi, "unsupported packed conversion");
    }
    if (!(dint || dflt) || !(sint || sflt) || dt == PTX_T_PRED || st == PTX_T_PRED)
        return exec_dec_error(d, pi, "unsupported conversion types");
    if (dt == PTX_T_TF32) {
        if (st != PTX_T_F32)
            return exec_dec_error(d, pi, ".tf32 results need an .f32 source");
        if (!(mo.bits & (EXEC_MB(RNA) | EXEC_MB(RN) | EXEC_MB(RZ))))
            return exec_dec_error(d, pi, ".tf32 requires .rna, .rn or .rz");
    }
    int mode;
    if (sflt && dint) {
        if (frnd)
            return exec_dec_error(d, pi, "float-to-integer conversions take .rni/.rzi/.rmi/.rpi");
        mode = exec_alu_irnd(&mo, EXEC_RZ);
    } else if (sint && dflt) {
        if (irnd)
            return exec_dec_error(d, pi, "integer-to-float conversions take .rn/.rz/.rm/.rp");
        mode = exec_alu_rnd(&mo, EXEC_RN);
    } else if (sflt && dflt) {
        if (irnd) {
            if (exec_alu_bits(dt) < exec_alu_bits(st))
                return exec_dec_error(d, pi, "integer rounding needs a result at least as wide as the source");
            in->flags |= FL_IRND;
            mode = exec_alu_irnd(&mo, EXEC_RN);
        } else {
            mode = exec_alu_rnd(&mo, EXEC_RN);
            /* widening is exact; ptxas allows (and ignores) a rounding modifier on .bf16
               sources only */
            if (frnd && exec_alu_bits(dt) > exec_alu_bits(st) && dt != PTX_T_TF32 &&
                st != PTX_T_BF16)
                return exec_dec_error(d, pi, "a widening conversion takes no rounding modifier");
        }
    } else {
        if (frnd || irnd)
            return exec_dec_error(d, pi, "integer-to-integer conversions take no rounding modifier");
        mode = EXEC_RN;
    }
    if ((mo.bits & EXEC_MB(SATFINITE)) && !(dt == PTX_T_F16 || dt == PTX_T_BF16 || dt == PTX_T_TF32))
        return exec_dec_error(d, pi, ".satfinite is not supported for .%s results", pi->mods[pi->nmods - 2]);
    in->bop = (uint8_t)mode;
    in->fn = h_cvt;
    if (!in->flags) {
        if (dt == PTX_T_U64 && st == PTX_T_U32) in->fn = h_cvt_u64_u32;
        else if (dt == PTX_T_S64 && st == PTX_T_S32) in->fn = h_cvt_s64_s32;
        else if ((dt == PTX_T_U32 || dt == PTX_T_S32) && (st == PTX_T_U64 || st == PTX_T_S64)) in->fn = h_cvt_u32_u64;
        else if (dt == PTX_T_F32 && st == PTX_T_S32 && mode == EXEC_RN) in->fn = h_cvt_rn_f32_s32;
        else if (dt == PTX_T_F32 && st == PTX_T_U32 && mode == EXEC_RN) in->fn = h_cvt_rn_f32_u32;
        else if (dt == PTX_T_F64 && st == PTX_T_F32) in->fn = h_cvt_f64_f32;
    }
    ptx_type ty[2] = { dt == PTX_T_TF32 ? PTX_T_B32 : dt, st };
    return exec_alu_ops(d, pi, in, 2, ty);
}
