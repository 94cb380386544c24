/* exec_video.c - video instructions: scalar vadd..vset/vshl/vshr/vmad with selectors, and SIMD vop2/vop4. */
#include <stdint.h>
#include <string.h>
#include "exec_insn.h"
#include "exec_fp.h"

/* ---------------------------------------------------------------------------------------------
 * Operands are .b32 registers (or immediates) resolved in place; the byte/half-word selectors
 * the parser leaves in ptx_operand.comp (PTX_SEL_*, see ptx.h) are decoded into aux[]:
 *
 * scalar (vadd vsub vabsdiff vmin vmax vshl vshr vset):
 *   aux[0] = V_* operation, aux[1] = asel | bsel << 8 | dsel << 16 (selector codes: 0 word,
 *   1..4 = .b0...b3, 5..6 = .h0/.h1), aux[2] = secondary op (V_SEC_*) | shift mode << 4,
 *   cmp = EXEC_CMP_* (vset), flags = VF_*.
 * vmad: aux[0] = V_MAD, aux[1] = asel | bsel << 8, aux[2] = scale (0, 7, 15) << 8,
 *   flags = signedness, VF_SAT, VF_PO, VF_NEGP (product negated), VF_NEGC (c negated).
 * SIMD (vop2 / vop4 / vset2 / vset4): aux[0] = V_* | element count << 8, aux[1] / aux[2] = the
 *   a / b selector (nibble k = index of the half-word or byte of {b, a} that element k takes),
 *   aux[3] = destination mask (bit k = element k is written / accumulated), flags = VF_*.
 * ------------------------------------------------------------------------------------------- */
enum { V_ADD, V_SUB, V_ABSDIFF, V_MIN, V_MAX, V_SHL, V_SHR, V_MAD, V_SET, V_AVRG };
enum {
    VF_AS = 1, VF_BS = 2, VF_DS = 4, VF_SAT = 8,
    VF_ACC = 16,      /* SIMD: secondary accumulate (.add) */
    VF_PO = 16,       /* vmad: plus one */
    VF_NEGP = 32, VF_NEGC = 64,
};
enum { V_SEC_NONE, V_SEC_ADD, V_SEC_MIN, V_SEC_MAX };
enum { V_SH_NONE, V_SH_CLAMP, V_SH_WRAP };

__extension__ typedef __int128 vid_i128;

/* A sub-word field: x = (v >> sh) & mask, then sign-extended from `sign` (0 if unsigned). */
typedef struct {
    uint32_t sh, mask;
    int64_t sign;
} vid_field;

static vid_field vid_field_of(int code, int sgn)
{
    vid_field f;
    int bits = code == 0 ? 32 : code <= 4 ? 8 : 16;
    f.sh = code == 0 ? 0 : code <= 4 ? 8u * (uint32_t)(code - 1) : 16u * (uint32_t)(code - 5);
    f.mask = bits == 32 ? 0xffffffffu : (1u << bits) - 1;
    f.sign = sgn ? (int64_t)1 << (bits - 1) : 0;
    return f;
}
static inline int64_t vid_get(const vid_field *f, uint32_t v)
{
    int64_t x = (int64_t)((v >> f->sh) & f->mask);
    return (x ^ f->sign) - f->sign;
}
static inline int64_t vid_cmp(int cmp, int64_t x, int64_t y)
{
    switch (cmp) {
    case EXEC_CMP_EQ: return x == y;
    case EXEC_CMP_NE: return x != y;
    case EXEC_CMP_LT: return x < y;
    case EXEC_CMP_LE: return x <= y;
    case EXEC_CMP_GT: return x > y;
    default:          return x >= y;
    }
}
/* Floor shift of a signed value (no reliance on >> of negative numbers). */
static inline vid_i128 vid_asr(vid_i128 x, unsigned n)
{
    return x >= 0 ? x >> n : ~(~x >> n);
}

/* =============================================================================================
 * Scalar video ops: ta, tb = the selected byte/half/word of a and b, sign- or zero-extended by
 * atype/btype; tmp = ta + tb, ta - tb, |ta - tb|, min, max, ta << n, ta >> n (n = b & 31 for
 * .wrap, min(b, 32) for .clamp; b is .u32) or (ta CMP tb) for vset. .sat clamps the exact tmp
 * to the dtype range of the destination (byte / half-word when merging into d.bN / d.hN).
 * Then either the secondary op with c (.add wraps, .min/.max compare; tmp and c are taken as
 * 32-bit values of dtype's signedness), or the merge of tmp's low byte / half into that
 * position of c, or nothing; d = the low 32 bits. vset's result and c are unsigned.
 * ============================================================================================= */
typedef struct {
    int op, cmp, sat, sec, shmode, ds;
    vid_field fa, fb;
    int64_t lo, hi;            /* saturation range */
    uint32_t msh, mmask;       /* merge position; mmask = 0: no merge */
} vid_scalar;

static void vid_scalar_setup(vid_scalar *s, const exec_insn *in)
{
    int asel = (int)(in->aux[1] & 0xff), bsel = (int)(in->aux[1] >> 8 & 0xff);
    int dsel = (int)(in->aux[1] >> 16 & 0xff);
    s->op = (int)in->aux[0];
    s->cmp = in->cmp;
    s->sat = !!(in->flags & VF_SAT);
    s->sec = (int)(in->aux[2] & 0xf);
    s->shmode = (int)(in->aux[2] >> 4 & 0xf);
    s->ds = !!(in->flags & VF_DS);
    s->fa = vid_field_of(asel, !!(in->flags & VF_AS));
    s->fb = vid_field_of(bsel, !!(in->flags & VF_BS));
    vid_field fd = vid_field_of(dsel, 0);
    int bits = dsel == 0 ? 32 : dsel <= 4 ? 8 : 16;
    s->lo = s->ds ? -((int64_t)1 << (bits - 1)) : 0;
    s->hi = s->ds ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
    s->msh = fd.sh;
    s->mmask = dsel ? fd.mask : 0;
}

static inline uint32_t vid_scalar_lane(const vid_scalar *s, uint32_t a, uint32_t b, uint32_t c)
{
    int64_t ta = vid_get(&s->fa, a), tb = vid_get(&s->fb, b);
    vid_i128 t;
    switch (s->op) {
    case V_ADD:     t = ta + tb; break;
    case V_SUB:     t = ta - tb; break;
    case V_ABSDIFF: t = ta > tb ? ta - tb : tb - ta; break;
    case V_MIN:     t = ta < tb ? ta : tb; break;
    case V_MAX:     t = ta > tb ? ta : tb; break;
    case V_SHL:
    case V_SHR: {
        /* tb is zero-extended: 0 .. 2^32-1 */
        unsigned n = s->shmode == V_SH_WRAP ? (unsigned)(tb & 31) : tb > 32 ? 32u : (unsigned)tb;
        t = s->op == V_SHL ? (vid_i128)ta * ((vid_i128)1 << n) : vid_asr(ta, n);
        break;
    }
    default:        t = vid_cmp(s->cmp, ta, tb); break;
    }
    if (s->sat)
        t = t < s->lo ? s->lo : t > s->hi ? s->hi : t;
    uint32_t r = (uint32_t)t;
    if (s->sec != V_SEC_NONE) {
        int64_t x = s->ds ? (int64_t)(int32_t)r : (int64_t)r;
        int64_t y = s->ds ? (int64_t)(int32_t)c : (int64_t)c;
        if (s->sec == V_SEC_ADD)
            r += c;
        else if (s->sec == V_SEC_MIN)
            r = (uint32_t)(x < y ? x : y);
        else
            r = (uint32_t)(x > y ? x : y);
    } else if (s->mmask) {
        r = (r & s->mmask) << s->msh | (c & ~(s->mmask << s->msh));
    }
    return r;
}

static int h_vscalar(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint32_t *d = EXEC_DST(w, in, 0);
    const uint32_t *a = EXEC_SRC(w, in, 1), *b = EXEC_SRC(w, in, 2);
    const uint32_t *c = in->nops > 3 ? EXEC_SRC(w, in, 3) : a;
    vid_scalar s;
    vid_scalar_setup(&s, in);
    EXEC_LANES_DO(m, d[i] = vid_scalar_lane(&s, a[i], b[i], c[i]));
    return EXEC_NEXT;
}

/* =============================================================================================
 * vmad: d = (+/-)(ta * tb) + (+/-)c [+ 1 for .po], exact; signedFinal = atype or btype signed,
 * or a negation; c is sign-extended when signedFinal, else zero-extended; .shr7/.shr15 shift
 * the exact sum right (arithmetic when signed); .sat clamps to the s32 / u32 range of the final
 * signedness; d = the low 32 bits. Only one of the product and c may be negated; .po allows
 * no negation.
 * ============================================================================================= */
static int h_vmad(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint32_t *d = EXEC_DST(w, in, 0);
    const uint32_t *a = EXEC_SRC(w, in, 1), *b = EXEC_SRC(w, in, 2), *c = EXEC_SRC(w, in, 3);
    vid_field fa = vid_field_of((int)(in->aux[1] & 0xff), !!(in->flags & VF_AS));
    vid_field fb = vid_field_of((int)(in->aux[1] >> 8 & 0xff), !!(in->flags & VF_BS));
    int sf = !!(in->flags & (VF_AS | VF_BS | VF_NEGP | VF_NEGC));
    int negp = !!(in->flags & VF_NEGP), negc = !!(in->flags & VF_NEGC);
    int po = !!(in->flags & VF_PO), sat = !!(in->flags & VF_SAT);
    unsigned scale = (unsigned)(in->aux[2] >> 8 & 0xff);
    vid_i128 lo = sf ? INT32_MIN : 0, hi = sf ? INT32_MAX : (vid_i128)UINT32_MAX;
    EXEC_LANES_DO(m, {
        vid_i128 p = (vid_i128)vid_get(&fa, a[i]) * vid_get(&fb, b[i]);
        vid_i128 cv = sf ? (vid_i128)(int32_t)c[i] : (vid_i128)c[i];
        vid_i128 r = (negp ? -p : p) + (negc ? -cv : cv) + po;
        r = vid_asr(r, scale);
        if (sat)
            r = r < lo ? lo : r > hi ? hi : r;
        d[i] = (uint32_t)r;
    });
    return EXEC_NEXT;
}

/* =============================================================================================
 * SIMD video ops over n = 2 half-words (vop2) or n = 4 bytes (vop4): element k of Va / Vb is
 * the half-word / byte of {b, a} (a = the low ones) named by digit k of asel / bsel, extended
 * by atype / btype; t[k] = Va+Vb, Va-Vb, |Va-Vb|, min, max, average (sum + 1 >> 1 when the sum
 * is >= 0, else sum >> 1) or (Va CMP Vb). .sat clamps to the s16/u16 (s8/u8) range of dtype.
 * Merge form: element k of d = mask[k] ? low bits of t[k] : element k of c. Accumulate form
 * (.add): d = c + sum of t[k] over the mask (32-bit wrap). vset2/vset4 are unsigned.
 * ============================================================================================= */
typedef struct {
    int op, cmp, n, sat, acc;
    unsigned w;                 /* element width: 16 or 8 */
    uint32_t fm;                /* element mask */
    int32_t sa, sb;             /* sign bits of Va / Vb elements (0 = unsigned) */
    int32_t lo, hi;
    uint32_t mask;
    unsigned ash[4], bsh[4];    /* bit positions in {b, a} */
} vid_simd;

static void vid_simd_setup(vid_simd *s, const exec_insn *in)
{
    s->op = (int)(in->aux[0] & 0xff);
    s->n = (int)(in->aux[0] >> 8 & 0xff);
    s->cmp = in->cmp;
    s->sat = !!(in->flags & VF_SAT);
    s->acc = !!(in->flags & VF_ACC);
    s->w = s->n == 2 ? 16u : 8u;
    s->fm = s->n == 2 ? 0xffffu : 0xffu;
    int32_t top = (int32_t)1 << (s->w - 1);
    s->sa = in->flags & VF_AS ? top : 0;
    s->sb = in->flags & VF_BS ? top : 0;
    s->lo = in->flags & VF_DS ? -top : 0;
    s->hi = in->flags & VF_DS ? top - 1 : (int32_t)s->fm;
    s->mask = (uint32_t)in->aux[3];
    for (int k = 0; k < 4; k++) {
        s->ash[k] = s->w * (unsigned)(in->aux[1] >> (4 * k) & 7);
        s->bsh[k] = s->w * (unsigned)(in->aux[2] >> (4 * k) & 7);
    }
}

static inline uint32_t vid_simd_lane(const vid_simd *s, uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t ab = (uint64_t)b << 32 | a;
    uint32_t r = s->acc ? c : 0;
    for (int k = 0; k < s->n; k++) {
        int32_t va = (int32_t)((uint32_t)(ab >> s->ash[k]) & s->fm);
        int32_t vb = (int32_t)((uint32_t)(ab >> s->bsh[k]) & s->fm);
        va = (va ^ s->sa) - s->sa;
        vb = (vb ^ s->sb) - s->sb;
        int32_t t;
        switch (s->op) {
        case V_ADD:     t = va + vb; break;
        case V_SUB:     t = va - vb; break;
        case V_ABSDIFF: t = va > vb ? va - vb : vb - va; break;
        case V_MIN:     t = va < vb ? va : vb; break;
        case V_MAX:     t = va > vb ? va : vb; break;
        case V_AVRG: {
            int32_t sum = va + vb;
            t = sum >= 0 ? (sum + 1) / 2 : -((1 - sum) / 2);   /* floor(sum / 2) when < 0 */
            break;
        }
        default:        t = (int32_t)vid_cmp(s->cmp, va, vb); break;
        }
        if (s->sat)
            t = t < s->lo ? s->lo : t > s->hi ? s->hi : t;
        unsigned pos = s->w * (unsigned)k;
        if (s->acc)
            r += (s->mask >> k & 1) ? (uint32_t)t : 0;
        else
            r |= ((s->mask >> k & 1) ? (uint32_t)t & s->fm : c >> pos & s->fm) << pos;
    }
    return r;
}

static int h_vsimd(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint32_t *d = EXEC_DST(w, in, 0);
    const uint32_t *a = EXEC_SRC(w, in, 1), *b = EXEC_SRC(w, in, 2), *c = EXEC_SRC(w, in, 3);
    vid_simd s;
    vid_simd_setup(&s, in);
    EXEC_LANES_DO(m, d[i] = vid_simd_lane(&s, a[i], b[i], c[i]));
    return EXEC_NEXT;
}

/* =============================================================================================
 * Decoding.
 * ============================================================================================= */
typedef struct {
    int ntypes;
    int sgn[3];          /* signedness of each type modifier in order */
    int sat, sec, shmode, po, scale, cmp;
} vid_mods;

static int vid_parse_mods(exec_dec *d, const ptx_insn *pi, vid_mods *mo)
{
    static const char *const cmps[] = { "eq", "ne", "lt", "le", "gt", "ge" };
    static const int cmpv[] = { EXEC_CMP_EQ, EXEC_CMP_NE, EXEC_CMP_LT, EXEC_CMP_LE, EXEC_CMP_GT,
                                EXEC_CMP_GE };
    memset(mo, 0, sizeof *mo);
    for (int k = 0; k < pi->nmods; k++) {
        const char *s = pi->mods[k];
        int *slot = NULL, val = 1;
        if (!strcmp(s, "u32") || !strcmp(s, "s32")) {
            if (mo->ntypes == 3)
                return exec_dec_error(d, pi, "too many types");
            mo->sgn[mo->ntypes++] = s[0] == 's';
            continue;
        }
        if (!strcmp(s, "sat"))
            slot = &mo->sat;
        else if (!strcmp(s, "po"))
            slot = &mo->po;
        else if (!strcmp(s, "add") || !strcmp(s, "min") || !strcmp(s, "max"))
            slot = &mo->sec, val = s[1] == 'd' ? V_SEC_ADD : s[1] == 'i' ? V_SEC_MIN : V_SEC_MAX;
        else if (!strcmp(s, "clamp") || !strcmp(s, "wrap"))
            slot = &mo->shmode, val = s[0] == 'c' ? V_SH_CLAMP : V_SH_WRAP;
        else if (!strcmp(s, "shr7") || !strcmp(s, "shr15"))
            slot = &mo->scale, val = s[3] == '7' ? 7 : 15;
        for (int j = 0; !slot && j < 6; j++)
            if (!strcmp(s, cmps[j]))
                slot = &mo->cmp, val = cmpv[j];
        if (!slot)
            return exec_dec_error(d, pi, "unexpected modifier .%s", s);
        if (*slot)
            return exec_dec_error(d, pi, "conflicting or repeated modifier .%s", s);
        *slot = val;
    }
    return 0;
}

/* Resolve a 32-bit register/immediate operand without its selector. */
static int vid_opnd(exec_dec *d, const ptx_insn *pi, exec_insn *in, int k, const ptx_operand *o,
                    int dst)
{
    ptx_operand t = *o;
    if (PTX_SEL_KIND(t.comp))
        t.comp = -1;
    t.neg = 0;
    if (t.kind == PTX_OP_REG && t.sym && t.sym->kind == PTX_SYM_REG &&
        t.sym->type != PTX_T_B32 && t.sym->type != PTX_T_U32 && t.sym->type != PTX_T_S32)
        return exec_dec_error(d, pi, "operand %s must be a 32-bit integer register",
                              t.sym->name);
    return dst ? exec_dec_dst(d, in, k, &t, PTX_T_B32) : exec_dec_src(d, in, k, &t, PTX_T_B32);
}

static int vid_sel_of(const ptx_operand *o)
{
    return o->kind == PTX_OP_REG ? PTX_SEL_KIND(o->comp) : 0;
}

/* Scalar selector code (0 word, 1..4 bytes, 5..6 half-words) of operand o, or -1. */
static int vid_scalar_sel(const ptx_operand *o)
{
    int kind = vid_sel_of(o);
    if (!kind)
        return 0;
    int dg = PTX_SEL_DIGIT(o->comp, 0);
    if (PTX_SEL_LEN(o->comp) != 1)
        return -1;
    if (kind == PTX_SEL_B)
        return dg <= 3 ? 1 + dg : -1;
    return dg <= 1 ? 5 + dg : -1;
}

static int vid_no_neg(exec_dec *d, const ptx_insn *pi)
{
    for (int k = 0; k < pi->nops; k++)
        if (pi->ops[k].kind == PTX_OP_REG && pi->ops[k].neg)
            return exec_dec_error(d, pi, "operand %d cannot be negated", k + 1);
    return 0;
}

static int exec_dec_vscalar(exec_dec *d, const ptx_insn *pi, exec_insn *in, int op)
{
    vid_mods mo;
    if (vid_parse_mods(d, pi, &mo) || vid_no_neg(d, pi))
        return -1;
    int set = op == V_SET, shift = op == V_SHL || op == V_SHR;
    if (mo.ntypes != (set ? 2 : 3))
        return exec_dec_error(d, pi, set ? "expects .atype.btype (.u32/.s32)"
                                         : "expects .dtype.atype.btype (.u32/.s32)");
    if (mo.po || mo.scale)
        return exec_dec_error(d, pi, ".po/.shr7/.shr15 belong to vmad");
    if (set ? !mo.cmp : mo.cmp != 0)
        return exec_dec_error(d, pi, set ? "requires a comparison (.eq .ne .lt .le .gt .ge)"
                                         : "unexpected comparison");
    if (set && mo.sat)
        return exec_dec_error(d, pi, "vset has no .sat");
    if (shift ? !mo.shmode : mo.shmode != 0)
        return exec_dec_error(d, pi, shift ? "requires .clamp or .wrap" : "unexpected .clamp/.wrap");
    if (shift && mo.sgn[2])
        return exec_dec_error(d, pi, "the shift amount type must be .u32");
    if (pi->nops != 3 && pi->nops != 4)
        return exec_dec_error(d, pi, "expects 3 or 4 operands");
    int dsel = vid_scalar_sel(&pi->ops[0]);
    int asel = vid_scalar_sel(&pi->ops[1]), bsel = vid_scalar_sel(&pi->ops[2]);
    if (dsel < 0 || asel < 0 || bsel < 0)
        return exec_dec_error(d, pi, "selectors must be one of .b0 .b1 .b2 .b3 .h0 .h1");
    if (pi->nops == 4 && pi->ops[3].kind == PTX_OP_REG && vid_sel_of(&pi->ops[3]))
        return exec_dec_error(d, pi, "operand c takes no selector");
    if (mo.sec && dsel)
        return exec_dec_error(d, pi, "a secondary operation and a destination selector are exclusive");
    if ((mo.sec || dsel) != (pi->nops == 4))
        return exec_dec_error(d, pi, pi->nops == 4 ? "operand c needs a secondary operation or d.dsel"
                                                   : "missing operand c");
    int ds = set ? 0 : mo.sgn[0];
    int as = mo.sgn[set ? 0 : 1], bs = shift ? 0 : mo.sgn[set ? 1 : 2];
    in->flags = (uint8_t)((as ? VF_AS : 0) | (bs ? VF_BS : 0) | (ds ? VF_DS : 0) |
                          (mo.sat ? VF_SAT : 0));
    in->cmp = (uint8_t)mo.cmp;
    in->aux[0] = op;
    in->aux[1] = asel | bsel << 8 | dsel << 16;
    in->aux[2] = mo.sec | mo.shmode << 4;
    in->type = PTX_T_B32;
    for (int k = 0; k < pi->nops; k++)
        if (vid_opnd(d, pi, in, k, &pi->ops[k], k == 0))
            return -1;
    in->nops = (uint8_t)pi->nops;
    in->fn = h_vscalar;
    return 0;
}

int exec_dec_vadd(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vscalar(d, pi, in, V_ADD); }
int exec_dec_vsub(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vscalar(d, pi, in, V_SUB); }
int exec_dec_vabsdiff(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vscalar(d, pi, in, V_ABSDIFF); }
int exec_dec_vmin(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vscalar(d, pi, in, V_MIN); }
int exec_dec_vmax(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vscalar(d, pi, in, V_MAX); }
int exec_dec_vshl(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vscalar(d, pi, in, V_SHL); }
int exec_dec_vshr(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vscalar(d, pi, in, V_SHR); }
int exec_dec_vset(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vscalar(d, pi, in, V_SET); }

int exec_dec_vmad(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    vid_mods mo;
    if (vid_parse_mods(d, pi, &mo))
        return -1;
    if (mo.ntypes != 3)
        return exec_dec_error(d, pi, "expects .dtype.atype.btype (.u32/.s32)");
    if (mo.sec || mo.shmode || mo.cmp)
        return exec_dec_error(d, pi, "unexpected modifier for vmad");
    if (pi->nops != 4)
        return exec_dec_error(d, pi, "expects 4 operands");
    int asel = vid_scalar_sel(&pi->ops[1]), bsel = vid_scalar_sel(&pi->ops[2]);
    if (asel < 0 || bsel < 0)
        return exec_dec_error(d, pi, "selectors must be one of .b0 .b1 .b2 .b3 .h0 .h1");
    if (vid_sel_of(&pi->ops[0]) || vid_sel_of(&pi->ops[3]))
        return exec_dec_error(d, pi, "d and c take no selector");
    if (pi->ops[0].kind == PTX_OP_REG && pi->ops[0].neg)
        return exec_dec_error(d, pi, "the destination cannot be negated");
    int na = pi->ops[1].kind == PTX_OP_REG && pi->ops[1].neg;
    int nb = pi->ops[2].kind == PTX_OP_REG && pi->ops[2].neg;
    int nc = pi->ops[3].kind == PTX_OP_REG && pi->ops[3].neg;
    if (mo.po && (na || nb || nc))
        return exec_dec_error(d, pi, "operands cannot be negated with .po");
    if ((na ^ nb) && nc)
        return exec_dec_error(d, pi, "only one of the product a*b and c may be negated");
    in->flags = (uint8_t)((mo.sgn[1] ? VF_AS : 0) | (mo.sgn[2] ? VF_BS : 0) |
                          (mo.sgn[0] ? VF_DS : 0) | (mo.sat ? VF_SAT : 0) |
                          (mo.po ? VF_PO : 0) | ((na ^ nb) ? VF_NEGP : 0) | (nc ? VF_NEGC : 0));
    in->aux[0] = V_MAD;
    in->aux[1] = asel | bsel << 8;
    in->aux[2] = mo.scale << 8;
    in->type = PTX_T_B32;
    for (int k = 0; k < 4; k++)
        if (vid_opnd(d, pi, in, k, &pi->ops[k], k == 0))
            return -1;
    in->nops = 4;
    in->fn = h_vmad;
    return 0;
}

/* n = 2 (half-words) or 4 (bytes). */
static int exec_dec_vsimd(exec_dec *d, const ptx_insn *pi, exec_insn *in, int op, int n)
{
    vid_mods mo;
    if (vid_parse_mods(d, pi, &mo) || vid_no_neg(d, pi))
        return -1;
    int set = op == V_SET;
    int kind = n == 2 ? PTX_SEL_H : PTX_SEL_B;
    if (mo.ntypes != (set ? 2 : 3))
        return exec_dec_error(d, pi, set ? "expects .atype.btype (.u32/.s32)"
                                         : "expects .dtype.atype.btype (.u32/.s32)");
    if (mo.po || mo.scale || mo.shmode)
        return exec_dec_error(d, pi, "unexpected modifier");
    if (set ? !mo.cmp : mo.cmp != 0)
        return exec_dec_error(d, pi, set ? "requires a comparison (.eq .ne .lt .le .gt .ge)"
                                         : "unexpected comparison");
    if (set && mo.sat)
        return exec_dec_error(d, pi, "no .sat for a comparison");
    if (mo.sec == V_SEC_MIN || mo.sec == V_SEC_MAX)
        return exec_dec_error(d, pi, "the only secondary operation of SIMD video is .add");
    if (mo.sat && mo.sec)
        return exec_dec_error(d, pi, ".sat cannot be used with the .add accumulate");
    if (pi->nops != 4)
        return exec_dec_error(d, pi, "expects 4 operands");
    /* destination mask: a set of element digits, default all */
    uint32_t mask = (1u << n) - 1;
    const ptx_operand *od = &pi->ops[0];
    if (vid_sel_of(od)) {
        if (vid_sel_of(od) != kind)
            return exec_dec_error(d, pi, "the destination mask must be %s",
                                  n == 2 ? ".h0, .h1 or .h10" : "bytes .b0 ... .b3210");
        mask = 0;
        for (int k = 0; k < PTX_SEL_LEN(od->comp); k++) {
            int dg = PTX_SEL_DIGIT(od->comp, k);
            if (dg >= n)
                return exec_dec_error(d, pi, "destination mask element %d out of range", dg);
            mask |= 1u << dg;
        }
    }
    /* source selectors: n digits each naming an element of {b, a}; defaults .h10/.h32,
       .b3210/.b7654 */
    int64_t sel[2] = { n == 2 ? 0x10 : 0x3210, n == 2 ? 0x32 : 0x7654 };
    for (int j = 0; j < 2; j++) {
        const ptx_operand *o = &pi->ops[1 + j];
        if (!vid_sel_of(o))
            continue;
        if (vid_sel_of(o) != kind || PTX_SEL_LEN(o->comp) != n)
            return exec_dec_error(d, pi, "operand %c needs a selector of %d %s", "ab"[j], n,
                                  n == 2 ? "half-words (.hxy)" : "bytes (.bxyzw)");
        sel[j] = o->comp & 0xffff;
    }
    if (vid_sel_of(&pi->ops[3]))
        return exec_dec_error(d, pi, "operand c takes no selector");
    in->flags = (uint8_t)((mo.sgn[set ? 0 : 1] ? VF_AS : 0) | (mo.sgn[set ? 1 : 2] ? VF_BS : 0) |
                          (!set && mo.sgn[0] ? VF_DS : 0) | (mo.sat ? VF_SAT : 0) |
                          (mo.sec ? VF_ACC : 0));
    in->cmp = (uint8_t)mo.cmp;
    in->aux[0] = op | n << 8;
    in->aux[1] = sel[0];
    in->aux[2] = sel[1];
    in->aux[3] = mask;
    in->type = PTX_T_B32;
    for (int k = 0; k < 4; k++)
        if (vid_opnd(d, pi, in, k, &pi->ops[k], k == 0))
            return -1;
    in->nops = 4;
    in->fn = h_vsimd;
    return 0;
}

int exec_dec_vadd2(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vsimd(d, pi, in, V_ADD, 2); }
int exec_dec_vsub2(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vsimd(d, pi, in, V_SUB, 2); }
int exec_dec_vavrg2(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vsimd(d, pi, in, V_AVRG, 2); }
int exec_dec_vabsdiff2(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vsimd(d, pi, in, V_ABSDIFF, 2); }
int exec_dec_vmin2(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vsimd(d, pi, in, V_MIN, 2); }
int exec_dec_vmax2(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vsimd(d, pi, in, V_MAX, 2); }
int exec_dec_vset2(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vsimd(d, pi, in, V_SET, 2); }
int exec_dec_vadd4(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vsimd(d, pi, in, V_ADD, 4); }
int exec_dec_vsub4(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vsimd(d, pi, in, V_SUB, 4); }
int exec_dec_vavrg4(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vsimd(d, pi, in, V_AVRG, 4); }
int exec_dec_vabsdiff4(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vsimd(d, pi, in, V_ABSDIFF, 4); }
int exec_dec_vmin4(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vsimd(d, pi, in, V_MIN, 4); }
int exec_dec_vmax4(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vsimd(d, pi, in, V_MAX, 4); }
int exec_dec_vset4(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_vsimd(d, pi, in, V_SET, 4); }
