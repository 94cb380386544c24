/* exec_bits.c - logic and shifts: and/or/xor/not/cnot (incl. .pred), lop3, shf, shl/shr, prmt. */
#include <stdint.h>
#include <string.h>
#include "exec_insn.h"
#include "exec_fp.h"

/* =============================================================================================
 * and / or / xor / not on .b16/.b32/.b64 (bitwise) and .pred (lane masks); cnot: d = (a == 0).
 * ============================================================================================= */
#define LOGIC_W(W)                                                                             \
    EXEC_HANDLER2(h_and##W, uint##W##_t, uint##W##_t, uint##W##_t, x & y)                    \
    EXEC_HANDLER2(h_or##W, uint##W##_t, uint##W##_t, uint##W##_t, x | y)                     \
    EXEC_HANDLER2(h_xor##W, uint##W##_t, uint##W##_t, uint##W##_t, x ^ y)                    \
    EXEC_HANDLER1(h_not##W, uint##W##_t, uint##W##_t, ~x)                                    \
    EXEC_HANDLER1(h_cnot##W, uint##W##_t, uint##W##_t, x == 0)
LOGIC_W(16)
LOGIC_W(32)
LOGIC_W(64)

static int h_pand(exec_warp *w, const exec_insn *in, uint32_t m)
{
    exec_pred_set(w, &in->op[0], exec_pred_get(w, &in->op[1]) & exec_pred_get(w, &in->op[2]), m);
    return EXEC_NEXT;
}
static int h_por(exec_warp *w, const exec_insn *in, uint32_t m)
{
    exec_pred_set(w, &in->op[0], exec_pred_get(w, &in->op[1]) | exec_pred_get(w, &in->op[2]), m);
    return EXEC_NEXT;
}
static int h_pxor(exec_warp *w, const exec_insn *in, uint32_t m)
{
    exec_pred_set(w, &in->op[0], exec_pred_get(w, &in->op[1]) ^ exec_pred_get(w, &in->op[2]), m);
    return EXEC_NEXT;
}
static int h_pnot(exec_warp *w, const exec_insn *in, uint32_t m)
{
    exec_pred_set(w, &in->op[0], ~exec_pred_get(w, &in->op[1]), m);
    return EXEC_NEXT;
}

/* kind: 0 and, 1 or, 2 xor, 3 not, 4 cnot */
static int exec_dec_logic(exec_dec *d, const ptx_insn *pi, exec_insn *in, int kind)
{
    static const exec_fn tb[5][3] = {
        { h_and16, h_and32, h_and64 }, { h_or16, h_or32, h_or64 }, { h_xor16, h_xor32, h_xor64 },
        { h_not16, h_not32, h_not64 }, { h_cnot16, h_cnot32, h_cnot64 },
    };
    static const exec_fn tp[4] = { h_pand, h_por, h_pxor, h_pnot };
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, 0, &mo))
        return -1;
    if (mo.ntypes != 1)
        return exec_dec_error(d, pi, "expects one type");
    ptx_type t = mo.t[0];
    int n = kind >= 3 ? 2 : 3;
    in->type = (uint8_t)t;
    if (t == PTX_T_PRED) {
        if (kind == 4)
            return exec_dec_error(d, pi, "cnot has no .pred form");
        in->fn = tp[kind];
    } else {
        int b = exec_alu_is_int(t) ? exec_alu_bits(t) : 0;
        if (b != 16 && b != 32 && b != 64)
            return exec_dec_error(d, pi, "requires .pred, .b16, .b32 or .b64");
        in->fn = tb[kind][b == 16 ? 0 : b == 32 ? 1 : 2];
    }
    ptx_type ty[3] = { t, t, t };
    return exec_alu_ops(d, pi, in, n, ty);
}
int exec_dec_and(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_logic(d, pi, in, 0); }
int exec_dec_or(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_logic(d, pi, in, 1); }
int exec_dec_xor(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_logic(d, pi, in, 2); }
int exec_dec_not(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_logic(d, pi, in, 3); }
int exec_dec_cnot(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_logic(d, pi, in, 4); }

/* =============================================================================================
 * lop3.b32 d, a, b, c, immLut: bit k of d = immLut[(a_k << 2) | (b_k << 1) | c_k] (the LUT is
 * F(0xF0, 0xCC, 0xAA)). The form lop3.BOP.b32 d|p, a, b, c, immLut, q also sets
 * p = (d != 0) BOP q. aux[0] = immLut, bop = 0 none / 1 and / 2 or.
 * ============================================================================================= */
static inline uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut)
{
    uint32_t r = 0;
    for (int k = 0; k < 8; k++) {
        uint32_t t = (k & 4 ? a : ~a) & (k & 2 ? b : ~b) & (k & 1 ? c : ~c);
        r |= (lut >> k & 1) ? t : 0;
    }
    return r;
}
EXEC_HANDLER3(h_lop3, uint32_t, uint32_t, uint32_t, uint32_t, lop3(x, y, z, (uint32_t)in->aux[0]))
static int h_lop3_p(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint32_t *d = EXEC_DST(w, in, 0);
    const uint32_t *a = EXEC_SRC(w, in, 2), *b = EXEC_SRC(w, in, 3), *c = EXEC_SRC(w, in, 4);
    uint32_t nz = 0, lut = (uint32_t)in->aux[0];
    for (int i = 0; i < EXEC_LANES; i++) {
        uint32_t r = lop3(a[i], b[i], c[i], lut);
        nz |= (uint32_t)(r != 0) << i;
        if (m >> i & 1)
            d[i] = r;
    }
    uint32_t q = exec_pred_get(w, &in->op[5]);
    exec_pred_set(w, &in->op[1], in->bop == 1 ? nz & q : nz | q, m);
    return EXEC_NEXT;
}

int exec_dec_lop3(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, EXEC_MB(AND) | EXEC_MB(OR), &mo))
        return -1;
    if (mo.ntypes != 1 || mo.t[0] != PTX_T_B32)
        return exec_dec_error(d, pi, "requires .b32");
    int bop = (mo.bits & EXEC_MB(AND)) ? 1 : (mo.bits & EXEC_MB(OR)) ? 2 : 0;
    if ((mo.bits & EXEC_MB(AND)) && (mo.bits & EXEC_MB(OR)))
        return exec_dec_error(d, pi, ".and and .or are exclusive");
    int n = bop ? 6 : 5;
    if (pi->nops != n)
        return exec_dec_error(d, pi, "expects %d operands", n);
    const ptx_operand *lut = &pi->ops[4];
    if (lut->kind != PTX_OP_IMM || lut->ival < 0 || lut->ival > 255)
        return exec_dec_error(d, pi, "immLut must be an integer constant 0..255");
    in->aux[0] = lut->ival;
    in->bop = (uint8_t)bop;
    in->type = PTX_T_B32;
    if (!bop) {
        if (exec_dec_dst(d, in, 0, &pi->ops[0], PTX_T_B32) ||
            exec_dec_src(d, in, 1, &pi->ops[1], PTX_T_B32) ||
            exec_dec_src(d, in, 2, &pi->ops[2], PTX_T_B32) ||
            exec_dec_src(d, in, 3, &pi->ops[3], PTX_T_B32))
            return -1;
        in->nops = 4;
        in->fn = h_lop3;
        return 0;
    }
    const ptx_operand *p = &pi->ops[0];
    if (p->kind != PTX_OP_PAIR || p->nelems != 2)
        return exec_dec_error(d, pi, "the .and/.or form needs a destination pair d|p");
    if (exec_dec_dst(d, in, 0, &p->elems[0], PTX_T_B32) || exec_dec_pdst(d, in, 1, &p->elems[1]) ||
        exec_dec_src(d, in, 2, &pi->ops[1], PTX_T_B32) ||
        exec_dec_src(d, in, 3, &pi->ops[2], PTX_T_B32) ||
        exec_dec_src(d, in, 4, &pi->ops[3], PTX_T_B32) || exec_dec_psrc(d, in, 5, &pi->ops[5]))
        return -1;
    in->nops = 6;
    in->fn = h_lop3_p;
    return 0;
}

/* =============================================================================================
 * Shifts. shl: a << b, 0 when b >= width. shr: logical for .b/.u, arithmetic for .s (b >= width
 * gives 0 or the replicated sign). b is .u32 (its full value counts).
 * shf.l/.r.wrap/.clamp.b32 d, a, b, c: funnel shift of the 64-bit b:a by n = c & 31 (.wrap) or
 * min(c, 32) (.clamp); .l returns the high word, .r the low word.
 * ============================================================================================= */
#define SHIFT_W(W)                                                                            \
    EXEC_HANDLER2(h_shl##W, uint##W##_t, uint##W##_t, uint32_t, y >= W ? 0 : (uint##W##_t)(x << y)) \
    EXEC_HANDLER2(h_shru##W, uint##W##_t, uint##W##_t, uint32_t, y >= W ? 0 : x >> y)        \
    EXEC_HANDLER2(h_shrs##W, uint##W##_t, uint##W##_t, uint32_t,                             \
                  (x >> (W - 1) & 1) ? (uint##W##_t) ~((uint##W##_t)(~x) >> (y >= W ? W - 1 : y)) \
                                     : (y >= W ? 0 : x >> y))
SHIFT_W(16)
SHIFT_W(32)
SHIFT_W(64)

static inline uint32_t shf_l(uint32_t a, uint32_t b, uint32_t n)
{
    return n == 0 ? b : n >= 32 ? a : (b << n) | (a >> (32 - n));
}
static inline uint32_t shf_r(uint32_t a, uint32_t b, uint32_t n)
{
    return n == 0 ? a : n >= 32 ? b : (a >> n) | (b << (32 - n));
}
EXEC_HANDLER3(h_shf_lw, uint32_t, uint32_t, uint32_t, uint32_t, shf_l(x, y, z & 31))
EXEC_HANDLER3(h_shf_lc, uint32_t, uint32_t, uint32_t, uint32_t, shf_l(x, y, z > 32 ? 32 : z))
EXEC_HANDLER3(h_shf_rw, uint32_t, uint32_t, uint32_t, uint32_t, shf_r(x, y, z & 31))
EXEC_HANDLER3(h_shf_rc, uint32_t, uint32_t, uint32_t, uint32_t, shf_r(x, y, z > 32 ? 32 : z))

static int exec_dec_shift(exec_dec *d, const ptx_insn *pi, exec_insn *in, int right)
{
    static const exec_fn tl[3] = { h_shl16, h_shl32, h_shl64 };
    static const exec_fn tu[3] = { h_shru16, h_shru32, h_shru64 };
    static const exec_fn ts[3] = { h_shrs16, h_shrs32, h_shrs64 };
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, 0, &mo))
        return -1;
    if (mo.ntypes != 1)
        return exec_dec_error(d, pi, "expects one type");
    ptx_type t = mo.t[0];
    int b = exec_alu_is_int(t) ? exec_alu_bits(t) : 0;
    if (b != 16 && b != 32 && b != 64)
        return exec_dec_error(d, pi, "requires a 16-, 32- or 64-bit integer type");
    if (!right && !(t == PTX_T_B16 || t == PTX_T_B32 || t == PTX_T_B64))
        return exec_dec_error(d, pi, "shl requires a .b type");
    int k = b == 16 ? 0 : b == 32 ? 1 : 2;
    in->fn = !right ? tl[k] : exec_alu_is_signed(t) ? ts[k] : tu[k];
    in->type = (uint8_t)t;
    ptx_type ty[3] = { t, t, PTX_T_U32 };
    return exec_alu_ops(d, pi, in, 3, ty);
}
int exec_dec_shl(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_shift(d, pi, in, 0); }
int exec_dec_shr(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_shift(d, pi, in, 1); }

int exec_dec_shf(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, EXEC_MB(L) | EXEC_MB(R) | EXEC_MB(WRAP) | EXEC_MB(CLAMP), &mo))
        return -1;
    int l = !!(mo.bits & EXEC_MB(L)), r = !!(mo.bits & EXEC_MB(R));
    int wr = !!(mo.bits & EXEC_MB(WRAP)), cl = !!(mo.bits & EXEC_MB(CLAMP));
    if (l + r != 1 || wr + cl != 1)
        return exec_dec_error(d, pi, "requires one of .l/.r and one of .wrap/.clamp");
    if (mo.ntypes != 1 || exec_alu_bits(mo.t[0]) != 32 || !exec_alu_is_int(mo.t[0]))
        return exec_dec_error(d, pi, "requires .b32");
    in->fn = l ? (wr ? h_shf_lw : h_shf_lc) : (wr ? h_shf_rw : h_shf_rc);
    in->type = (uint8_t)mo.t[0];
    ptx_type ty[4] = { PTX_T_B32, PTX_T_B32, PTX_T_B32, PTX_T_U32 };
    return exec_alu_ops(d, pi, in, 4, ty);
}

/* =============================================================================================
 * bmsk.{clamp,wrap}.b32 d, a, b: a mask of b one bits starting at bit a (spec pseudocode:
 * positions and widths taken mod 32; .clamp makes a >= 32 give 0 and b >= 32 fill to bit 31;
 * a mask reaching past bit 31 is cut there; width 0 gives 0).
 * ============================================================================================= */
static inline uint32_t bmsk(uint32_t a, uint32_t b, int clamp)
{
    uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
    uint32_t mask0 = ~0u << a1, mask1 = sum >= 32 ? 0 : ~0u << sum;
    int ovf = sum >= 32;
    if (clamp) {
        if (a >= 32) {
            ovf = 1;
            mask0 = 0;
        }
        if (b >= 32)
            ovf = 1;
    }
    if (ovf)
        mask1 = 0;
    else if (b1 == 0)
        mask1 = ~0u;
    return mask0 & ~mask1;
}
EXEC_HANDLER2(h_bmsk_w, uint32_t, uint32_t, uint32_t, bmsk(x, y, 0))
EXEC_HANDLER2(h_bmsk_c, uint32_t, uint32_t, uint32_t, bmsk(x, y, 1))

/* The modifiers of bmsk and szext: exactly one of .wrap/.clamp (*clamp set), one type. */
static int exec_dec_wrap_clamp(exec_dec *d, const ptx_insn *pi, exec_alu_mods *mo, int *clamp)
{
    if (exec_alu_parse(d, pi, EXEC_MB(WRAP) | EXEC_MB(CLAMP), mo))
        return -1;
    int wr = !!(mo->bits & EXEC_MB(WRAP));
    *clamp = !!(mo->bits & EXEC_MB(CLAMP));
    if (wr + *clamp != 1)
        return exec_dec_error(d, pi, "requires one of .wrap/.clamp");
    return 0;
}

int exec_dec_bmsk(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_alu_mods mo;
    int cl;
    if (exec_dec_wrap_clamp(d, pi, &mo, &cl))
        return -1;
    if (mo.ntypes != 1 || mo.t[0] != PTX_T_B32)
        return exec_dec_error(d, pi, "requires .b32");
    in->fn = cl ? h_bmsk_c : h_bmsk_w;
    in->type = PTX_T_B32;
    ptx_type ty[3] = { PTX_T_B32, PTX_T_U32, PTX_T_U32 };
    return exec_alu_ops(d, pi, in, 3, ty);
}

/* szext.{clamp,wrap}.{u32,s32} d, a, b: the low N = b bits of a, sign- (.s32) or zero-extended
 * (.u32) to 32 bits (PTX ISA 7.6 pseudo code): N = b & 31; with .clamp, b >= 32 keeps a whole;
 * N = 0 gives 0. */
static inline uint32_t szext(uint32_t a, uint32_t b, int clamp, int sgn)
{
    uint32_t b1 = b & 0x1f;
    int too_large = b >= 32 && clamp;
    uint32_t mask = too_large ? 0 : ~0u << b1;
    int sign = !(b1 == 0 || too_large || !sgn) && (a >> ((b1 - 1) & 0x1f) & 1);
    return (a & ~mask) | (sign ? mask : 0);
}
EXEC_HANDLER2(h_szext, uint32_t, uint32_t, uint32_t, szext(x, y, (int)in->aux[0], (int)in->aux[1]))

int exec_dec_szext(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_alu_mods mo;
    int cl;
    if (exec_dec_wrap_clamp(d, pi, &mo, &cl))
        return -1;
    if (mo.ntypes != 1 || (mo.t[0] != PTX_T_U32 && mo.t[0] != PTX_T_S32))
        return exec_dec_error(d, pi, "requires .u32 or .s32");
    in->fn = h_szext;
    in->type = (uint8_t)mo.t[0];
    in->aux[0] = cl;
    in->aux[1] = mo.t[0] == PTX_T_S32;
    ptx_type ty[3] = { mo.t[0], mo.t[0], PTX_T_U32 };
    return exec_alu_ops(d, pi, in, 3, ty);
}

/* =============================================================================================
 * prmt.b32{.mode} d, a, b, c: bytes of {b, a} (a = bytes 0-3, b = bytes 4-7). Generic: byte k
 * of d comes from selector nibble k of c (bit 3 = replicate that byte's sign bit). Modes use
 * c[1:0] and the fixed table of the spec (f4e b4e rc8 ecl ecr rc16), no sign replication.
 * ============================================================================================= */
static inline uint32_t prmt_generic(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t t = (uint64_t)b << 32 | a;
    uint32_t r = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t sel = c >> (4 * k) & 0xf;
        uint32_t byte = (uint32_t)(t >> (8 * (sel & 7))) & 0xff;
        if (sel & 8)
            byte = (byte & 0x80) ? 0xff : 0;
        r |= byte << (8 * k);
    }
    return r;
}
/* Source byte index of d.b0..b3 (nibbles 0..3) for each mode and selector c[1:0]. */
static const uint16_t prmt_tab[6][4] = {
    { 0x3210, 0x4321, 0x5432, 0x6543 },   /* f4e */
    { 0x5670, 0x6701, 0x7012, 0x0123 },   /* b4e */
    { 0x0000, 0x1111, 0x2222, 0x3333 },   /* rc8 */
    { 0x3210, 0x3211, 0x3222, 0x3333 },   /* ecl */
    { 0x0000, 0x1110, 0x2210, 0x3210 },   /* ecr */
    { 0x1010, 0x3232, 0x1010, 0x3232 },   /* rc16 */
};
static inline uint32_t prmt_mode(uint32_t a, uint32_t b, uint32_t c, int md)
{
    return prmt_generic(a, b, prmt_tab[md][c & 3]);   /* entries < 8: no sign replication */
}
EXEC_HANDLER3(h_prmt, uint32_t, uint32_t, uint32_t, uint32_t, prmt_generic(x, y, z))
EXEC_HANDLER3(h_prmt_mode, uint32_t, uint32_t, uint32_t, uint32_t, prmt_mode(x, y, z, (int)in->aux[0]))

int exec_dec_prmt(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_alu_mods mo;
    uint64_t modes = EXEC_MB(F4E) | EXEC_MB(B4E) | EXEC_MB(RC8) | EXEC_MB(ECL) | EXEC_MB(ECR) |
                     EXEC_MB(RC16);
    if (exec_alu_parse(d, pi, modes, &mo))
        return -1;
    if (mo.ntypes != 1 || mo.t[0] != PTX_T_B32)
        return exec_dec_error(d, pi, "requires .b32");
    uint64_t md = mo.bits & modes;
    if (md & (md - 1))
        return exec_dec_error(d, pi, "more than one mode");
    if (md) {
        in->aux[0] = __builtin_ctzll(md) - EXEC_M_F4E;
        in->fn = h_prmt_mode;
    } else {
        in->fn = h_prmt;
    }
    in->type = PTX_T_B32;
    ptx_type ty[4] = { PTX_T_B32, PTX_T_B32, PTX_T_B32, PTX_T_B32 };
    return exec_alu_ops(d, pi, in, 4, ty);
}
