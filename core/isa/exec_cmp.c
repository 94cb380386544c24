/* exec_cmp.c - comparison and selection: setp, set (with .and/.or/.xor combine), selp, slct. */
#include <stdint.h>
#include <string.h>
#include "exec_insn.h"
#include "exec_fp.h"

/* =============================================================================================
 * Comparison masks. Integer operators: eq ne lt le gt ge (signed for .s types), lo ls hi hs
 * (always unsigned). Float operators: eq ne lt le gt ge are ordered (false if either operand
 * is NaN), equ neu ltu leu gtu geu are unordered (true if either is NaN), num = neither NaN,
 * nan = either NaN. The result is one bit per lane (all 32 lanes computed).
 * ============================================================================================= */
#define CMP_LOOP(COND)                                                                        \
    for (int i = 0; i < EXEC_LANES; i++) {                                                   \
        lane_t x = a[i], y = b[i];                                                           \
        v |= (uint32_t)(COND) << i;                                                          \
    }
#define INT_CMP(name, T, UT)                                                                  \
    static uint32_t name(int cmp, const void *pa, const void *pb)                            \
    {                                                                                        \
        typedef T lane_t;                                                                    \
        const T *a = pa, *b = pb;                                                            \
        uint32_t v = 0;                                                                      \
        switch (cmp) {                                                                       \
        case EXEC_CMP_EQ: CMP_LOOP(x == y) break;                                            \
        case EXEC_CMP_NE: CMP_LOOP(x != y) break;                                            \
        case EXEC_CMP_LT: CMP_LOOP(x < y) break;                                             \
        case EXEC_CMP_LE: CMP_LOOP(x <= y) break;                                            \
        case EXEC_CMP_GT: CMP_LOOP(x > y) break;                                             \
        case EXEC_CMP_GE: CMP_LOOP(x >= y) break;                                            \
        case EXEC_CMP_LO: CMP_LOOP((UT)x < (UT)y) break;                                     \
        case EXEC_CMP_LS: CMP_LOOP((UT)x <= (UT)y) break;                                    \
        case EXEC_CMP_HI: CMP_LOOP((UT)x > (UT)y) break;                                     \
        case EXEC_CMP_HS: CMP_LOOP((UT)x >= (UT)y) break;                                    \
        default: break;                                                                      \
        }                                                                                    \
        return v;                                                                            \
    }
INT_CMP(cmp_u16, uint16_t, uint16_t)
INT_CMP(cmp_s16, int16_t, uint16_t)
INT_CMP(cmp_u32, uint32_t, uint32_t)
INT_CMP(cmp_s32, int32_t, uint32_t)
INT_CMP(cmp_u64, uint64_t, uint64_t)
INT_CMP(cmp_s64, int64_t, uint64_t)

#define FLT_CMP(name, T)                                                                      \
    static uint32_t name(int cmp, const void *pa, const void *pb)                            \
    {                                                                                        \
        typedef T lane_t;                                                                    \
        const T *a = pa, *b = pb;                                                            \
        uint32_t v = 0;                                                                      \
        switch (cmp) {                                                                       \
        case EXEC_CMP_EQ:  CMP_LOOP(x == y) break;                                           \
        case EXEC_CMP_NE:  CMP_LOOP(x < y || x > y) break;                                   \
        case EXEC_CMP_LT:  CMP_LOOP(x < y) break;                                            \
        case EXEC_CMP_LE:  CMP_LOOP(x <= y) break;                                           \
        case EXEC_CMP_GT:  CMP_LOOP(x > y) break;                                            \
        case EXEC_CMP_GE:  CMP_LOOP(x >= y) break;                                           \
        case EXEC_CMP_EQU: CMP_LOOP(!(x < y || x > y)) break;                                \
        case EXEC_CMP_NEU: CMP_LOOP(x != y) break;                                           \
        case EXEC_CMP_LTU: CMP_LOOP(!(x >= y)) break;                                        \
        case EXEC_CMP_LEU: CMP_LOOP(!(x > y)) break;                                         \
        case EXEC_CMP_GTU: CMP_LOOP(!(x <= y)) break;                                        \
        case EXEC_CMP_GEU: CMP_LOOP(!(x < y)) break;                                         \
        case EXEC_CMP_NUM: CMP_LOOP(x == x && y == y) break;                                 \
        case EXEC_CMP_NAN: CMP_LOOP(x != x || y != y) break;                                 \
        default: break;                                                                      \
        }                                                                                    \
        return v;                                                                            \
    }
FLT_CMP(cmp_f32, float)
FLT_CMP(cmp_f64, double)

/* Operands of a comparison as lane arrays the mask functions take; f16/bf16 (and one half of
 * x2) are widened to f32, .ftz flushes f32/f16 subnormals. half: 0 = scalar/low, 1 = high. */
typedef uint32_t (*cmp_fn)(int, const void *, const void *);
static cmp_fn cmp_pick(ptx_type t)
{
    switch (t) {
    case PTX_T_B16: case PTX_T_U16: return cmp_u16;
    case PTX_T_S16: return cmp_s16;
    case PTX_T_B32: case PTX_T_U32: return cmp_u32;
    case PTX_T_S32: return cmp_s32;
    case PTX_T_B64: case PTX_T_U64: return cmp_u64;
    case PTX_T_S64: return cmp_s64;
    case PTX_T_F64: return cmp_f64;
    case PTX_T_F32: case PTX_T_F16: case PTX_T_BF16: case PTX_T_F16X2: case PTX_T_BF16X2:
        return cmp_f32;
    default: return NULL;
    }
}
static void widen(const exec_insn *in, const void *src, float *out, int half)
{
    int ftz = in->flags & 1;
    switch (in->type2) {
    case PTX_T_F32:
        for (int i = 0; i < EXEC_LANES; i++) {
            float f = ((const float *)src)[i];
            out[i] = ftz ? exec_ftz32(f) : f;
        }
        break;
    case PTX_T_F16: case PTX_T_BF16:
        for (int i = 0; i < EXEC_LANES; i++) {
            uint16_t h = ((const uint16_t *)src)[i];
            if (ftz && !(h & 0x7c00u))
                h &= 0x8000u;
            out[i] = in->type2 == PTX_T_F16 ? exec_h2f(h) : exec_bf2f(h);
        }
        break;
    default: /* x2 */
        for (int i = 0; i < EXEC_LANES; i++) {
            uint16_t h = (uint16_t)(((const uint32_t *)src)[i] >> (16 * half));
            if (ftz && in->type2 == PTX_T_F16X2 && !(h & 0x7c00u))
                h &= 0x8000u;
            out[i] = in->type2 == PTX_T_F16X2 ? exec_h2f(h) : exec_bf2f(h);
        }
        break;
    }
}
/* Compare operands 1 and 2 (of type in->type2); for x2 types half selects the element. */
static uint32_t cmp_mask(exec_warp *w, const exec_insn *in, int ka, int half)
{
    const void *a = EXEC_SRC(w, in, ka), *b = EXEC_SRC(w, in, ka + 1);
    cmp_fn f = cmp_pick((ptx_type)in->type2);
    if (!exec_alu_is_half((ptx_type)in->type2) && !(in->type2 == PTX_T_F32 && (in->flags & 1)))
        return f(in->cmp, a, b);
    float fa[EXEC_LANES], fb[EXEC_LANES];
    widen(in, a, fa, half);
    widen(in, b, fb, half);
    return f(in->cmp, fa, fb);
}
static inline uint32_t combine(int bop, uint32_t r, uint32_t c)
{
    switch (bop) {
    case 1: return r & c;
    case 2: return r | c;
    case 3: return r ^ c;
    default: return r;
    }
}

/* setp: p = (a CMP b) BOP c, q = !(a CMP b) BOP c; f16x2/bf16x2: p from the low halves and q
 * from the high halves. Operands: 0 = p, 1 = q (or sink), 2 = a, 3 = b, 4 = c. */
static int h_setp(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint32_t c = in->bop ? exec_pred_get(w, &in->op[4]) : 0;
    uint32_t r = cmp_mask(w, in, 2, 0);
    exec_pred_set(w, &in->op[0], combine(in->bop, r, c), m);
    exec_pred_set(w, &in->op[1], combine(in->bop, ~r, c), m);
    return EXEC_NEXT;
}
static int h_setp_x2(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint32_t c = in->bop ? exec_pred_get(w, &in->op[4]) : 0;
    uint32_t lo = cmp_mask(w, in, 2, 0), hi = cmp_mask(w, in, 2, 1);
    exec_pred_set(w, &in->op[0], combine(in->bop, lo, c), m);
    exec_pred_set(w, &in->op[1], combine(in->bop, hi, c), m);
    return EXEC_NEXT;
}

/* set: d = ((a CMP b) BOP c) ? one : 0 with one = 0xffffffff (u32/s32), 1.0f (f32), or in a
 * 16-bit result 1.0 (f16/bf16) or 0xffff (u16/s16, from f16/bf16 sources);
 * x2 source with an x2 / 32-bit destination: per half (0xffff or 1.0 in that format).
 * Operands: 0 = d, 1 = a, 2 = b, 3 = c. aux[0] = the "true" value (per half for x2). */
static int h_set(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint32_t c = in->bop ? exec_pred_get(w, &in->op[3]) : 0;
    uint32_t r = combine(in->bop, cmp_mask(w, in, 1, 0), c);
    uint32_t *d = EXEC_DST(w, in, 0), one = (uint32_t)in->aux[0];
    EXEC_LANES_DO(m, d[i] = (r >> i & 1) ? one : 0);
    return EXEC_NEXT;
}
static int h_set16(exec_warp *w, const exec_insn *in, uint32_t m)   /* .f16/.bf16/.u16/.s16 d */
{
    uint32_t c = in->bop ? exec_pred_get(w, &in->op[3]) : 0;
    uint32_t r = combine(in->bop, cmp_mask(w, in, 1, 0), c);
    uint16_t *d = EXEC_DST(w, in, 0), one = (uint16_t)in->aux[0];
    EXEC_LANES_DO(m, d[i] = (r >> i & 1) ? one : 0);
    return EXEC_NEXT;
}
static int h_set_x2(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint32_t c = in->bop ? exec_pred_get(w, &in->op[3]) : 0;
    uint32_t lo = combine(in->bop, cmp_mask(w, in, 1, 0), c);
    uint32_t hi = combine(in->bop, cmp_mask(w, in, 1, 1), c);
    uint32_t *d = EXEC_DST(w, in, 0), one = (uint32_t)in->aux[0];
    EXEC_LANES_DO(m, d[i] = ((lo >> i & 1) ? one : 0) | ((hi >> i & 1) ? one << 16 : 0));
    return EXEC_NEXT;
}

static int exec_dec_cmp_common(exec_dec *d, const ptx_insn *pi, exec_insn *in, exec_alu_mods *mo)
{
    if (exec_alu_parse(d, pi, EXEC_MB(CMP) | EXEC_MB(FTZ) | EXEC_MB(AND) | EXEC_MB(OR) |
                      EXEC_MB(XOR), mo))
        return -1;
    if (!mo->cmp)
        return exec_dec_error(d, pi, "requires a comparison operator");
    in->cmp = (uint8_t)mo->cmp;
    in->bop = (mo->bits & EXEC_MB(AND)) ? 1 : (mo->bits & EXEC_MB(OR)) ? 2
            : (mo->bits & EXEC_MB(XOR)) ? 3 : 0;
    if (__builtin_popcountll(mo->bits & (EXEC_MB(AND) | EXEC_MB(OR) | EXEC_MB(XOR))) > 1)
        return exec_dec_error(d, pi, "more than one boolean operator");
    in->flags = (mo->bits & EXEC_MB(FTZ)) ? 1 : 0;
    return 0;
}
static int check_cmp_type(exec_dec *d, const ptx_insn *pi, const exec_insn *in, ptx_type t)
{
    int flt = t == PTX_T_F32 || t == PTX_T_F64 || exec_alu_is_half(t);
    if (!cmp_pick(t))
        return exec_dec_error(d, pi, "unsupported comparison type");
    if (!flt && in->cmp >= EXEC_CMP_EQU)
        return exec_dec_error(d, pi, "unordered comparisons need a floating-point type");
    if (flt && in->cmp >= EXEC_CMP_LO && in->cmp <= EXEC_CMP_HS)
        return exec_dec_error(d, pi, "lo/ls/hi/hs need an integer type");
    if ((in->flags & 1) && t != PTX_T_F32 && t != PTX_T_F16 && t != PTX_T_F16X2)
        return exec_dec_error(d, pi, ".ftz needs .f32 or .f16");
    return 0;
}

/* setp.CMP[.BOP][.ftz].type p[|q], a, b[, {!}c] */
int exec_dec_setp(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_alu_mods mo;
    if (exec_dec_cmp_common(d, pi, in, &mo))
        return -1;
    if (mo.ntypes != 1)
        return exec_dec_error(d, pi, "expects one type");
    ptx_type t = mo.t[0];
    in->type = in->type2 = (uint8_t)t;
    if (check_cmp_type(d, pi, in, t))
        return -1;
    int n = in->bop ? 4 : 3;
    if (pi->nops != n)
        return exec_dec_error(d, pi, "expects %d operands", n);
    const ptx_operand *p = &pi->ops[0], *q = NULL;
    static const ptx_operand sink = { .kind = PTX_OP_SINK };
    if (p->kind == PTX_OP_PAIR) {
        if (p->nelems != 2)
            return exec_dec_error(d, pi, "bad destination pair");
        q = &p->elems[1];
        p = &p->elems[0];
    } else if (t == PTX_T_F16X2 || t == PTX_T_BF16X2) {
        return exec_dec_error(d, pi, "x2 comparisons need a destination pair p|q");
    }
    if (exec_dec_pdst(d, in, 0, p) || exec_dec_pdst(d, in, 1, q ? q : &sink) ||
        exec_dec_src(d, in, 2, &pi->ops[1], t) || exec_dec_src(d, in, 3, &pi->ops[2], t))
        return -1;
    if (in->bop && exec_dec_psrc(d, in, 4, &pi->ops[3]))
        return -1;
    in->nops = (uint8_t)(in->bop ? 5 : 4);
    in->fn = (t == PTX_T_F16X2 || t == PTX_T_BF16X2) ? h_setp_x2 : h_setp;
    return 0;
}

/* set.CMP[.BOP][.ftz].dtype.stype d, a, b[, {!}c] */
int exec_dec_set(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_alu_mods mo;
    if (exec_dec_cmp_common(d, pi, in, &mo))
        return -1;
    if (mo.ntypes != 2)
        return exec_dec_error(d, pi, "expects .dtype and .stype");
    ptx_type dt = mo.t[0], st = mo.t[1];
    in->type = (uint8_t)dt;
    in->type2 = (uint8_t)st;
    if (check_cmp_type(d, pi, in, st))
        return -1;
    int sx2 = st == PTX_T_F16X2 || st == PTX_T_BF16X2;
    if (sx2) {
        switch (dt) {
        case PTX_T_F16X2: in->aux[0] = 0x3c00; break;
        case PTX_T_BF16X2: in->aux[0] = 0x3f80; break;
        case PTX_T_U32: case PTX_T_S32: in->aux[0] = 0xffff; break;
        default: return exec_dec_error(d, pi, "x2 sources need .f16x2/.bf16x2/.u32/.s32 results");
        }
        in->fn = h_set_x2;
    } else {
        int h16 = st == PTX_T_F16 || st == PTX_T_BF16;
        in->fn = h_set16;
        switch (dt) {
        case PTX_T_F32: in->aux[0] = 0x3f800000; in->fn = h_set; break;
        case PTX_T_U32: case PTX_T_S32: case PTX_T_B32: in->aux[0] = 0xffffffff; in->fn = h_set; break;
        case PTX_T_F16: in->aux[0] = 0x3c00; break;           /* 1.0 in the half format */
        case PTX_T_BF16: in->aux[0] = 0x3f80; break;
        case PTX_T_U16: case PTX_T_S16:                       /* half-precision sources only */
            if (!h16)
                return exec_dec_error(d, pi, ".%s results need an .f16 or .bf16 source",
                                      ptx_type_name(dt));
            in->aux[0] = 0xffff;
            break;
        default:
            return exec_dec_error(d, pi, "destination must be .u32, .s32, .f32, .f16, .bf16 "
                                  "(or .u16/.s16 from .f16/.bf16)");
        }
        if (dt == PTX_T_F32 && h16)
            return exec_dec_error(d, pi, ".f32 results need a source other than .f16/.bf16");
    }
    int n = in->bop ? 4 : 3;
    if (pi->nops != n)
        return exec_dec_error(d, pi, "expects %d operands", n);
    ptx_type dreg = dt == PTX_T_F32 ? PTX_T_F32 : in->fn == h_set16 ? PTX_T_B16 : PTX_T_B32;
    if (exec_dec_dst(d, in, 0, &pi->ops[0], dreg) ||
        exec_dec_src(d, in, 1, &pi->ops[1], st) || exec_dec_src(d, in, 2, &pi->ops[2], st))
        return -1;
    if (in->bop && exec_dec_psrc(d, in, 3, &pi->ops[3]))
        return -1;
    in->nops = (uint8_t)n;
    return 0;
}

/* =============================================================================================
 * selp.type d, a, b, c: d = c ? a : b.   slct.dtype.ctype d, a, b, c: d = (c >= 0) ? a : b
 * (c .s32 or .f32; .ftz flushes a subnormal c to zero; NaN c selects b).
 * ============================================================================================= */
#define SELP(name, T)                                                                          \
    static int name(exec_warp *w, const exec_insn *in, uint32_t m)                           \
    {                                                                                        \
        T *d = EXEC_DST(w, in, 0);                                                           \
        const T *a = EXEC_SRC(w, in, 1), *b = EXEC_SRC(w, in, 2);                            \
        uint32_t c = exec_pred_get(w, &in->op[3]);                                           \
        EXEC_LANES_DO(m, d[i] = (c >> i & 1) ? a[i] : b[i]);                                 \
        return EXEC_NEXT;                                                                    \
    }
SELP(h_selp16, uint16_t)
SELP(h_selp32, uint32_t)
SELP(h_selp64, uint64_t)
#define SLCT(name, T, TC, COND)                                                                \
    static int name(exec_warp *w, const exec_insn *in, uint32_t m)                           \
    {                                                                                        \
        T *d = EXEC_DST(w, in, 0);                                                           \
        const T *a = EXEC_SRC(w, in, 1), *b = EXEC_SRC(w, in, 2);                            \
        const TC *c = EXEC_SRC(w, in, 3);                                                    \
        EXEC_LANES_DO(m, TC z = c[i]; d[i] = (COND) ? a[i] : b[i]);                          \
        return EXEC_NEXT;                                                                    \
    }
SLCT(h_slct16_s, uint16_t, int32_t, z >= 0)
SLCT(h_slct32_s, uint32_t, int32_t, z >= 0)
SLCT(h_slct64_s, uint64_t, int32_t, z >= 0)
SLCT(h_slct16_f, uint16_t, float, (in->flags ? exec_ftz32(z) : z) >= 0)
SLCT(h_slct32_f, uint32_t, float, (in->flags ? exec_ftz32(z) : z) >= 0)
SLCT(h_slct64_f, uint64_t, float, (in->flags ? exec_ftz32(z) : z) >= 0)

int exec_dec_selp(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, 0, &mo))
        return -1;
    if (mo.ntypes != 1)
        return exec_dec_error(d, pi, "expects one type");
    ptx_type t = mo.t[0];
    switch (exec_alu_bits(t)) {
    case 16: in->fn = h_selp16; break;
    case 32: in->fn = h_selp32; break;
    case 64: in->fn = h_selp64; break;
    default: return exec_dec_error(d, pi, "unsupported type");
    }
    in->type = (uint8_t)t;
    ptx_type ty[4] = { t, t, t, PTX_T_PRED };
    return exec_alu_ops(d, pi, in, 4, ty);
}

int exec_dec_slct(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, EXEC_MB(FTZ), &mo))
        return -1;
    if (mo.ntypes != 2 || (mo.t[1] != PTX_T_S32 && mo.t[1] != PTX_T_F32))
        return exec_dec_error(d, pi, "expects .dtype and .s32/.f32");
    ptx_type t = mo.t[0];
    int f = mo.t[1] == PTX_T_F32;
    if ((mo.bits & EXEC_MB(FTZ)) && !f)
        return exec_dec_error(d, pi, ".ftz needs an .f32 selector");
    switch (exec_alu_bits(t)) {
    case 16: in->fn = f ? h_slct16_f : h_slct16_s; break;
    case 32: in->fn = f ? h_slct32_f : h_slct32_s; break;
    case 64: in->fn = f ? h_slct64_f : h_slct64_s; break;
    default: return exec_dec_error(d, pi, "unsupported type");
    }
    in->flags = (mo.bits & EXEC_MB(FTZ)) ? 1 : 0;
    in->type = (uint8_t)t;
    in->type2 = (uint8_t)mo.t[1];
    ptx_type ty[4] = { t, t, t, mo.t[1] };
    return exec_alu_ops(d, pi, in, 4, ty);
}
