/* exec_int.c - integer arithmetic (add..madc, mul24, sad, div/rem, bit counting, bfe/bfi, dp4a). */
#include <stdint.h>
#include <string.h>
#include "exec_insn.h"
#include "exec_fp.h"

/* Width index of an integer type: 0 = 16, 1 = 32, 2 = 64 bits; -1 otherwise. */
static int wix(ptx_type t)
{
    if (!exec_alu_is_int(t))
        return -1;
    switch (exec_alu_bits(t)) {
    case 16: return 0;
    case 32: return 1;
    case 64: return 2;
    default: return -1;
    }
}

static void cc_set(exec_warp *w, uint32_t carry, uint32_t m)
{
    uint32_t *cc = &EXEC_R(w)->cc;
    *cc = (*cc & ~m) | (carry & m);
}

/* =============================================================================================
 * add / sub / mul / mad: two's-complement arithmetic, computed in unsigned (so signed and
 * unsigned types share handlers except where the result differs: .hi, .wide, .sat).
 *   .lo   low half of the double-width product   .hi  high half    .wide  full product
 *   .sat  (s32 only) clamp to [INT32_MIN, INT32_MAX]
 * ============================================================================================= */
static inline uint32_t sat_s32(int64_t v)
{
    return (uint32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}
static inline int64_t s32v(uint32_t x) { return (int32_t)x; }

EXEC_HANDLER2(h_add16, uint16_t, uint16_t, uint16_t, (uint32_t)x + y)
EXEC_HANDLER2(h_add32, uint32_t, uint32_t, uint32_t, x + y)
EXEC_HANDLER2(h_add64, uint64_t, uint64_t, uint64_t, x + y)
EXEC_HANDLER2(h_sub16, uint16_t, uint16_t, uint16_t, (uint32_t)x - y)
EXEC_HANDLER2(h_sub32, uint32_t, uint32_t, uint32_t, x - y)
EXEC_HANDLER2(h_sub64, uint64_t, uint64_t, uint64_t, x - y)
EXEC_HANDLER2(h_addsat, uint32_t, uint32_t, uint32_t, sat_s32(s32v(x) + s32v(y)))
EXEC_HANDLER2(h_subsat, uint32_t, uint32_t, uint32_t, sat_s32(s32v(x) - s32v(y)))

/* Carry forms: CC.CF is a per-lane bit. Subtraction is a + ~b + 1 as in the hardware, so
 * sub.cc leaves CF = 1 when there was NO borrow (a >= b) and subc computes a + ~b + CF, i.e.
 * a - b - (1 - CF). (The ISA text words subc as "a - (b + CF)" with CF a borrow; the code
 * nvcc emits - 128-bit division, for one - reads CF after sub.cc/subc.cc with addc and relies
 * on the carry meaning, and a chain of subtractions gives the same differences either way.) */
#define CARRY_HANDLER(name, T, cin_expr, EXPR, COUT)                                          \
    static int name(exec_warp *w, const exec_insn *in, uint32_t m)                           \
    {                                                                                        \
        T *d = EXEC_DST(w, in, 0);                                                           \
        const T *a = EXEC_SRC(w, in, 1), *b = EXEC_SRC(w, in, 2);                            \
        uint32_t cc = EXEC_R(w)->cc, out = 0; (void)cc;                                      \
        EXEC_LANES_DO(m, T x = a[i]; T y = b[i]; T ci = (T)(cin_expr); (void)ci;             \
                      T r = (T)(EXPR); out |= (uint32_t)(COUT) << i; d[i] = r);              \
        if (in->flags & 1)                                                                   \
            cc_set(w, out, m);                                                               \
        return EXEC_NEXT;                                                                    \
    }
CARRY_HANDLER(h_addcc32, uint32_t, 0, x + y, r < x)
CARRY_HANDLER(h_addcc64, uint64_t, 0, x + y, r < x)
CARRY_HANDLER(h_subcc32, uint32_t, 0, x - y, x >= y)
CARRY_HANDLER(h_subcc64, uint64_t, 0, x - y, x >= y)
CARRY_HANDLER(h_addc32, uint32_t, cc >> i & 1, x + y + ci, (r < x) || (ci && r == x))
CARRY_HANDLER(h_addc64, uint64_t, cc >> i & 1, x + y + ci, (r < x) || (ci && r == x))
CARRY_HANDLER(h_subc32, uint32_t, cc >> i & 1, x - y - (1 - ci), ci ? x >= y : x > y)
CARRY_HANDLER(h_subc64, uint64_t, cc >> i & 1, x - y - (1 - ci), ci ? x >= y : x > y)

/* Products of the three halves; mulhi_* give the high half of the double-width product. */
static inline uint16_t mulhi_u16(uint16_t x, uint16_t y) { return (uint16_t)(((uint32_t)x * y) >> 16); }
static inline uint16_t mulhi_s16(uint16_t x, uint16_t y)
{
    return (uint16_t)((uint32_t)((int32_t)(int16_t)x * (int16_t)y) >> 16);
}
static inline uint32_t mulhi_u32(uint32_t x, uint32_t y) { return (uint32_t)(((uint64_t)x * y) >> 32); }
static inline uint32_t mulhi_s32(uint32_t x, uint32_t y)
{
    return (uint32_t)((uint64_t)((int64_t)(int32_t)x * (int32_t)y) >> 32);
}
static inline uint64_t mulhi_u64(uint64_t x, uint64_t y)
{
    return (uint64_t)(((unsigned __int128)x * y) >> 64);
}
static inline uint64_t mulhi_s64(uint64_t x, uint64_t y)
{
    return (uint64_t)((unsigned __int128)((__int128)(int64_t)x * (int64_t)y) >> 64);
}

EXEC_HANDLER2(h_mullo16, uint16_t, uint16_t, uint16_t, (uint32_t)x * y)
EXEC_HANDLER2(h_mullo32, uint32_t, uint32_t, uint32_t, x * y)
EXEC_HANDLER2(h_mullo64, uint64_t, uint64_t, uint64_t, x * y)
EXEC_HANDLER2(h_mulhi_u16, uint16_t, uint16_t, uint16_t, mulhi_u16(x, y))
EXEC_HANDLER2(h_mulhi_s16, uint16_t, uint16_t, uint16_t, mulhi_s16(x, y))
EXEC_HANDLER2(h_mulhi_u32, uint32_t, uint32_t, uint32_t, mulhi_u32(x, y))
EXEC_HANDLER2(h_mulhi_s32, uint32_t, uint32_t, uint32_t, mulhi_s32(x, y))
EXEC_HANDLER2(h_mulhi_u64, uint64_t, uint64_t, uint64_t, mulhi_u64(x, y))
EXEC_HANDLER2(h_mulhi_s64, uint64_t, uint64_t, uint64_t, mulhi_s64(x, y))
EXEC_HANDLER2(h_mulwide_u16, uint32_t, uint16_t, uint16_t, (uint32_t)x * y)
EXEC_HANDLER2(h_mulwide_s16, uint32_t, uint16_t, uint16_t, (uint32_t)((int32_t)(int16_t)x * (int16_t)y))
EXEC_HANDLER2(h_mulwide_u32, uint64_t, uint32_t, uint32_t, (uint64_t)x * y)
EXEC_HANDLER2(h_mulwide_s32, uint64_t, uint32_t, uint32_t, (uint64_t)((int64_t)(int32_t)x * (int32_t)y))

EXEC_HANDLER3(h_madlo16, uint16_t, uint16_t, uint16_t, uint16_t, (uint32_t)x * y + z)
EXEC_HANDLER3(h_madlo32, uint32_t, uint32_t, uint32_t, uint32_t, x * y + z)
EXEC_HANDLER3(h_madlo64, uint64_t, uint64_t, uint64_t, uint64_t, x * y + z)
EXEC_HANDLER3(h_madhi_u16, uint16_t, uint16_t, uint16_t, uint16_t, (uint32_t)mulhi_u16(x, y) + z)
EXEC_HANDLER3(h_madhi_s16, uint16_t, uint16_t, uint16_t, uint16_t, (uint32_t)mulhi_s16(x, y) + z)
EXEC_HANDLER3(h_madhi_u32, uint32_t, uint32_t, uint32_t, uint32_t, mulhi_u32(x, y) + z)
EXEC_HANDLER3(h_madhi_s32, uint32_t, uint32_t, uint32_t, uint32_t, mulhi_s32(x, y) + z)
EXEC_HANDLER3(h_madhi_u64, uint64_t, uint64_t, uint64_t, uint64_t, mulhi_u64(x, y) + z)
EXEC_HANDLER3(h_madhi_s64, uint64_t, uint64_t, uint64_t, uint64_t, mulhi_s64(x, y) + z)
EXEC_HANDLER3(h_madhi_sat, uint32_t, uint32_t, uint32_t, uint32_t, sat_s32(s32v(mulhi_s32(x, y)) + s32v(z)))
EXEC_HANDLER3(h_madwide_u16, uint32_t, uint16_t, uint16_t, uint32_t, (uint32_t)x * y + z)
EXEC_HANDLER3(h_madwide_s16, uint32_t, uint16_t, uint16_t, uint32_t, (uint32_t)((int32_t)(int16_t)x * (int16_t)y) + z)
EXEC_HANDLER3(h_madwide_u32, uint64_t, uint32_t, uint32_t, uint64_t, (uint64_t)x * y + z)
EXEC_HANDLER3(h_madwide_s32, uint64_t, uint32_t, uint32_t, uint64_t, (uint64_t)((int64_t)(int32_t)x * (int32_t)y) + z)

/* mad.cc / madc: d = part(a*b) + c [+ CF]; .cc writes the carry out of that addition.
 * in->aux[0]: 0 = .lo, 1 = .hi unsigned, 2 = .hi signed; flags bit0 = .cc, bit1 = carry-in. */
#define MADC_HANDLER(name, T, LO, HIU, HIS)                                                  \
    static int name(exec_warp *w, const exec_insn *in, uint32_t m)                           \
    {                                                                                        \
        T *d = EXEC_DST(w, in, 0);                                                           \
        const T *a = EXEC_SRC(w, in, 1), *b = EXEC_SRC(w, in, 2), *c = EXEC_SRC(w, in, 3);   \
        uint32_t cc = (in->flags & 2) ? EXEC_R(w)->cc : 0, out = 0;                          \
        int part = (int)in->aux[0];                                                          \
        EXEC_LANES_DO(m, T x = a[i]; T y = b[i];                                             \
                      T p = part == 0 ? (T)(LO) : part == 1 ? HIU(x, y) : HIS(x, y);         \
                      T ci = (T)(cc >> i & 1); T r = p + c[i] + ci;                          \
                      out |= (uint32_t)((r < p) || (ci && r == p)) << i; d[i] = r);          \
        if (in->flags & 1)                                                                   \
            cc_set(w, out, m);                                                               \
        return EXEC_NEXT;                                                                    \
    }
MADC_HANDLER(h_madc32, uint32_t, x * y, mulhi_u32, mulhi_s32)
MADC_HANDLER(h_madc64, uint64_t, x * y, mulhi_u64, mulhi_s64)

/* mul24/mad24: operands are the sign- or zero-extended low 24 bits; .lo gives bits 31..0 of
 * the 48-bit product, .hi bits 47..16. mad24.hi.sat.s32 clamps hi + c. */
static inline int64_t s24(uint32_t x) { return (int64_t)((int32_t)((x & 0xffffffu) ^ 0x800000u) - 0x800000); }
static inline uint64_t p24u(uint32_t x, uint32_t y) { return (uint64_t)(x & 0xffffffu) * (y & 0xffffffu); }
static inline uint64_t p24s(uint32_t x, uint32_t y) { return (uint64_t)(s24(x) * s24(y)); }
EXEC_HANDLER2(h_mul24lo_u, uint32_t, uint32_t, uint32_t, p24u(x, y))
EXEC_HANDLER2(h_mul24lo_s, uint32_t, uint32_t, uint32_t, p24s(x, y))
EXEC_HANDLER2(h_mul24hi_u, uint32_t, uint32_t, uint32_t, p24u(x, y) >> 16)
EXEC_HANDLER2(h_mul24hi_s, uint32_t, uint32_t, uint32_t, p24s(x, y) >> 16)
EXEC_HANDLER3(h_mad24lo_u, uint32_t, uint32_t, uint32_t, uint32_t, (uint32_t)p24u(x, y) + z)
EXEC_HANDLER3(h_mad24lo_s, uint32_t, uint32_t, uint32_t, uint32_t, (uint32_t)p24s(x, y) + z)
EXEC_HANDLER3(h_mad24hi_u, uint32_t, uint32_t, uint32_t, uint32_t, (uint32_t)(p24u(x, y) >> 16) + z)
EXEC_HANDLER3(h_mad24hi_s, uint32_t, uint32_t, uint32_t, uint32_t, (uint32_t)(p24s(x, y) >> 16) + z)
EXEC_HANDLER3(h_mad24hi_sat, uint32_t, uint32_t, uint32_t, uint32_t,
              sat_s32(s32v((uint32_t)(p24s(x, y) >> 16)) + s32v(z)))

/* =============================================================================================
 * sad, div, rem, abs, neg, min, max for 16/32/64-bit u/s types.
 *   div by zero: unsigned -> all ones; signed -> -1 when a >= 0, +1 when a < 0 (what the
 *     hardware's |a|/|b| sequence with a final sign fix gives); MIN / -1 = MIN.
 *   rem by zero -> a; MIN % -1 = 0. abs(MIN) = MIN, neg(MIN) = MIN.
 * ============================================================================================= */
#define INT_FAMILY(W)                                                                         \
    static inline uint##W##_t sdiv##W(uint##W##_t x, uint##W##_t y)                          \
    {                                                                                        \
        int##W##_t a = (int##W##_t)x, b = (int##W##_t)y;                                     \
        if (b == 0) return a < 0 ? 1 : (uint##W##_t)-1;                                      \
        if (b == -1) return (uint##W##_t)(0 - x);                                            \
        return (uint##W##_t)(a / b);                                                         \
    }                                                                                        \
    static inline uint##W##_t srem##W(uint##W##_t x, uint##W##_t y)                          \
    {                                                                                        \
        int##W##_t a = (int##W##_t)x, b = (int##W##_t)y;                                     \
        if (b == 0) return x;                                                                \
        if (b == -1) return 0;                                                               \
        return (uint##W##_t)(a % b);                                                         \
    }                                                                                        \
    EXEC_HANDLER2(h_divu##W, uint##W##_t, uint##W##_t, uint##W##_t, y ? x / y : (uint##W##_t)-1) \
    EXEC_HANDLER2(h_divs##W, uint##W##_t, uint##W##_t, uint##W##_t, sdiv##W(x, y))           \
    EXEC_HANDLER2(h_remu##W, uint##W##_t, uint##W##_t, uint##W##_t, y ? x % y : x)           \
    EXEC_HANDLER2(h_rems##W, uint##W##_t, uint##W##_t, uint##W##_t, srem##W(x, y))           \
    EXEC_HANDLER1(h_abs##W, uint##W##_t, uint##W##_t, (int##W##_t)x < 0 ? (uint##W##_t)(0 - x) : x) \
    EXEC_HANDLER1(h_neg##W, uint##W##_t, uint##W##_t, (uint##W##_t)(0 - x))                  \
    EXEC_HANDLER2(h_minu##W, uint##W##_t, uint##W##_t, uint##W##_t, x < y ? x : y)           \
    EXEC_HANDLER2(h_maxu##W, uint##W##_t, uint##W##_t, uint##W##_t, x > y ? x : y)           \
    EXEC_HANDLER2(h_mins##W, uint##W##_t, uint##W##_t, uint##W##_t,                           \
                  (int##W##_t)x < (int##W##_t)y ? x : y)                                     \
    EXEC_HANDLER2(h_maxs##W, uint##W##_t, uint##W##_t, uint##W##_t,                           \
                  (int##W##_t)x > (int##W##_t)y ? x : y)                                     \
    EXEC_HANDLER3(h_sadu##W, uint##W##_t, uint##W##_t, uint##W##_t, uint##W##_t,             \
                  (uint##W##_t)(z + (x < y ? y - x : x - y)))                                \
    EXEC_HANDLER3(h_sads##W, uint##W##_t, uint##W##_t, uint##W##_t, uint##W##_t,             \
                  (uint##W##_t)(z + ((int##W##_t)x < (int##W##_t)y ? y - x : x - y)))
INT_FAMILY(16)
INT_FAMILY(32)
INT_FAMILY(64)
EXEC_HANDLER2(h_mins32_relu, uint32_t, uint32_t, uint32_t,
              (int32_t)x < (int32_t)y ? ((int32_t)x < 0 ? 0 : x) : ((int32_t)y < 0 ? 0 : y))
EXEC_HANDLER2(h_maxs32_relu, uint32_t, uint32_t, uint32_t,
              (int32_t)x > (int32_t)y ? ((int32_t)x < 0 ? 0 : x) : ((int32_t)y < 0 ? 0 : y))

#define BY_W(p) { p##16, p##32, p##64 }
static const exec_fn t_divu[3] = BY_W(h_divu), t_divs[3] = BY_W(h_divs);
static const exec_fn t_remu[3] = BY_W(h_remu), t_rems[3] = BY_W(h_rems);
static const exec_fn t_abs[3] = BY_W(h_abs), t_neg[3] = BY_W(h_neg);
static const exec_fn t_minu[3] = BY_W(h_minu), t_maxu[3] = BY_W(h_maxu);
static const exec_fn t_mins[3] = BY_W(h_mins), t_maxs[3] = BY_W(h_maxs);
static const exec_fn t_sadu[3] = BY_W(h_sadu), t_sads[3] = BY_W(h_sads);
static const exec_fn t_add[3] = BY_W(h_add), t_sub[3] = BY_W(h_sub);
static const exec_fn t_mullo[3] = BY_W(h_mullo), t_madlo[3] = BY_W(h_madlo);
static const exec_fn t_mulhi_u[3] = BY_W(h_mulhi_u), t_mulhi_s[3] = BY_W(h_mulhi_s);
static const exec_fn t_madhi_u[3] = BY_W(h_madhi_u), t_madhi_s[3] = BY_W(h_madhi_s);
static const exec_fn t_mulwide_u[2] = { h_mulwide_u16, h_mulwide_u32 };
static const exec_fn t_mulwide_s[2] = { h_mulwide_s16, h_mulwide_s32 };
static const exec_fn t_madwide_u[2] = { h_madwide_u16, h_madwide_u32 };
static const exec_fn t_madwide_s[2] = { h_madwide_s16, h_madwide_s32 };

/* Double-width type of a 16/32-bit integer type. */
static ptx_type wide_of(ptx_type t)
{
    switch (t) {
    case PTX_T_U16: return PTX_T_U32;
    case PTX_T_S16: return PTX_T_S32;
    case PTX_T_U32: return PTX_T_U64;
    case PTX_T_S32: return PTX_T_S64;
    default: return PTX_T_NONE;
    }
}

/* Common front of integer decoders: exactly one u/s integer type (b types rejected unless
 * allow_b). Returns the width index or -1 (error reported). */
static int int_type(exec_dec *d, const ptx_insn *pi, const exec_alu_mods *mo, int allow_b)
{
    if (mo->ntypes != 1)
        return exec_dec_error(d, pi, "expects one type modifier");
    ptx_type t = mo->t[0];
    int w = wix(t);
    if (w < 0 || (!allow_b && !exec_alu_is_signed(t) && !(t >= PTX_T_U8 && t <= PTX_T_U64)))
        return exec_dec_error(d, pi, "unsupported type .%s for integer %s",
                              ptx_type_name(t), pi->opcode);
    return w;
}

static int has_mod(const ptx_insn *pi, const char *m)
{
    for (int k = 0; k < pi->nmods; k++)
        if (!strcmp(pi->mods[k], m))
            return 1;
    return 0;
}

static int is_fp_type(ptx_type t)
{
    return t == PTX_T_F32 || t == PTX_T_F64;
}

/* Route float / half forms of the shared opcodes; returns 1 if the instruction is not one. */
static int route_float(exec_dec *d, const ptx_insn *pi, exec_insn *in, int op, int *rc)
{
    exec_alu_mods mo;
    uint64_t all = ~0ull;
    if (ptx_insn_has_mod(pi, "f32x2")) {   /* two f32 in a .b64 (exec_float.c) */
        *rc = exec_float_decode(d, pi, in, op);
        return 0;
    }
    if (exec_alu_parse(d, pi, all, &mo)) {
        *rc = -1;
        return 0;
    }
    for (int k = 0; k < mo.ntypes; k++) {
        if (is_fp_type(mo.t[k])) {
            *rc = exec_float_decode(d, pi, in, op);
            return 0;
        }
        if (exec_alu_is_half(mo.t[k])) {
            *rc = exec_half_decode(d, pi, in, op);
            return 0;
        }
    }
    return 1;
}

/* =============================================================================================
 * SIMD 16x2 forms (PTX 8.0+, emitted by nvcc for __vadd2/__vsub2/__vmaxs2/__vminu2...):
 *   add/sub.{u16x2,s16x2}: each half wraps independently.
 *   min/max{.relu}.{u16x2,s16x2}: per half, signed or unsigned; .relu (signed only) clamps a
 *   negative half to 0.
 * The types are not ptx_type values, so these are recognised by their modifier text.
 * ============================================================================================= */
static inline uint32_t x2_join(uint32_t lo, uint32_t hi) { return (lo & 0xffffu) | hi << 16; }
static inline uint32_t x2_add(uint32_t x, uint32_t y) { return x2_join(x + y, (x >> 16) + (y >> 16)); }
static inline uint32_t x2_sub(uint32_t x, uint32_t y) { return x2_join(x - y, (x >> 16) - (y >> 16)); }
static inline int32_t x2_s(uint32_t x, int k) { return (int16_t)(uint16_t)(x >> (16 * k)); }
static inline uint32_t x2_u(uint32_t x, int k) { return x >> (16 * k) & 0xffffu; }
static inline uint32_t x2_minmax(uint32_t x, uint32_t y, int max, int sgn, int relu)
{
    uint32_t r = 0;
    for (int k = 0; k < 2; k++) {
        int32_t a = sgn ? x2_s(x, k) : (int32_t)x2_u(x, k), b = sgn ? x2_s(y, k) : (int32_t)x2_u(y, k);
        int32_t v = (a < b) != max ? a : b;
        if (relu && v < 0)
            v = 0;
        r |= ((uint32_t)v & 0xffffu) << (16 * k);
    }
    return r;
}
EXEC_HANDLER2(h_add_x2, uint32_t, uint32_t, uint32_t, x2_add(x, y))
EXEC_HANDLER2(h_sub_x2, uint32_t, uint32_t, uint32_t, x2_sub(x, y))
EXEC_HANDLER2(h_min_u16x2, uint32_t, uint32_t, uint32_t, x2_minmax(x, y, 0, 0, 0))
EXEC_HANDLER2(h_max_u16x2, uint32_t, uint32_t, uint32_t, x2_minmax(x, y, 1, 0, 0))
EXEC_HANDLER2(h_min_s16x2, uint32_t, uint32_t, uint32_t, x2_minmax(x, y, 0, 1, 0))
EXEC_HANDLER2(h_max_s16x2, uint32_t, uint32_t, uint32_t, x2_minmax(x, y, 1, 1, 0))
EXEC_HANDLER2(h_min_s16x2_relu, uint32_t, uint32_t, uint32_t, x2_minmax(x, y, 0, 1, 1))
EXEC_HANDLER2(h_max_s16x2_relu, uint32_t, uint32_t, uint32_t, x2_minmax(x, y, 1, 1, 1))

/* If the instruction is a 16x2 SIMD form, decode it (return 0 and *rc) ; else return 1.
 * op: 0 add, 1 sub, 2 min, 3 max. */
static int exec_dec_simd16x2(exec_dec *d, const ptx_insn *pi, exec_insn *in, int op, int *rc)
{
    int sgn = -1, relu = 0;
    for (int k = 0; k < pi->nmods; k++) {
        const char *s = pi->mods[k];
        if (!strcmp(s, "u16x2") || !strcmp(s, "s16x2"))
            sgn = s[0] == 's';
    }
    if (sgn < 0)
        return 1;
    for (int k = 0; k < pi->nmods; k++) {
        const char *s = pi->mods[k];
        if (!strcmp(s, "u16x2") || !strcmp(s, "s16x2"))
            continue;
        if (!strcmp(s, "relu") && op >= 2 && sgn && !relu) {
            relu = 1;
            continue;
        }
        *rc = exec_dec_error(d, pi, "unsupported modifier .%s for a 16x2 form", s);
        return 0;
    }
    if (pi->nmods != 1 + relu) {
        *rc = exec_dec_error(d, pi, "expects one .u16x2/.s16x2 type");
        return 0;
    }
    switch (op) {
    case 0: in->fn = h_add_x2; break;
    case 1: in->fn = h_sub_x2; break;
    case 2: in->fn = sgn ? (relu ? h_min_s16x2_relu : h_min_s16x2) : h_min_u16x2; break;
    default: in->fn = sgn ? (relu ? h_max_s16x2_relu : h_max_s16x2) : h_max_u16x2; break;
    }
    in->type = PTX_T_B32;
    ptx_type ty[3] = { PTX_T_B32, PTX_T_B32, PTX_T_B32 };
    *rc = exec_alu_ops(d, pi, in, 3, ty);
    return 0;
}

static int exec_dec_addsub(exec_dec *d, const ptx_insn *pi, exec_insn *in, int sub)
{
    int rc;
    if (!exec_dec_simd16x2(d, pi, in, sub, &rc))
        return rc;
    if (!route_float(d, pi, in, sub ? EXEC_ALU_SUB : EXEC_ALU_ADD, &rc))
        return rc;
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, EXEC_MB(SAT) | EXEC_MB(CC), &mo))
        return -1;
    int w = int_type(d, pi, &mo, 0);
    if (w < 0)
        return -1;
    ptx_type t = mo.t[0];
    ptx_type ty[3] = { t, t, t };
    if (mo.bits & EXEC_MB(SAT)) {
        if (t != PTX_T_S32 || (mo.bits & EXEC_MB(CC)))
            return exec_dec_error(d, pi, ".sat requires .s32 (and no .cc)");
        in->fn = sub ? h_subsat : h_addsat;
    } else if (mo.bits & EXEC_MB(CC)) {
        if (w == 0)
            return exec_dec_error(d, pi, ".cc requires a 32- or 64-bit type");
        in->flags = 1;
        in->fn = w == 1 ? (sub ? h_subcc32 : h_addcc32) : (sub ? h_subcc64 : h_addcc64);
    } else {
        in->fn = sub ? t_sub[w] : t_add[w];
    }
    in->type = (uint8_t)t;
    return exec_alu_ops(d, pi, in, 3, ty);
}

/* add: integer / float / half. */
int exec_dec_add(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_addsub(d, pi, in, 0); }
/* sub: integer / float / half. */
int exec_dec_sub(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_addsub(d, pi, in, 1); }

/* addc / subc {.cc}: add/subtract with carry-in (borrow-in). */
static int exec_dec_xc(exec_dec *d, const ptx_insn *pi, exec_insn *in, int sub)
{
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, EXEC_MB(CC), &mo))
        return -1;
    int w = int_type(d, pi, &mo, 0);
    if (w < 0)
        return -1;
    if (w == 0)
        return exec_dec_error(d, pi, "requires a 32- or 64-bit type");
    ptx_type ty[3] = { mo.t[0], mo.t[0], mo.t[0] };
    in->flags = (mo.bits & EXEC_MB(CC)) ? 1 : 0;
    in->fn = w == 1 ? (sub ? h_subc32 : h_addc32) : (sub ? h_subc64 : h_addc64);
    in->type = (uint8_t)mo.t[0];
    return exec_alu_ops(d, pi, in, 3, ty);
}
int exec_dec_addc(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_xc(d, pi, in, 0); }
int exec_dec_subc(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_xc(d, pi, in, 1); }

/* mul / mad (integer): .lo (default) / .hi / .wide; mad.hi.sat.s32; mad{.lo,.hi}.cc. */
static int exec_dec_mulmad(exec_dec *d, const ptx_insn *pi, exec_insn *in, int mad)
{
    int rc;
    if (!route_float(d, pi, in, mad ? EXEC_ALU_FMA : EXEC_ALU_MUL, &rc))
        return rc;
    exec_alu_mods mo;
    uint64_t allow = EXEC_MB(LO) | EXEC_MB(HI) | EXEC_MB(WIDE);
    if (mad)
        allow |= EXEC_MB(SAT) | EXEC_MB(CC);
    if (exec_alu_parse(d, pi, allow, &mo))
        return -1;
    int w = int_type(d, pi, &mo, 0);
    if (w < 0)
        return -1;
    ptx_type t = mo.t[0];
    int sgn = exec_alu_is_signed(t);
    uint64_t modes = mo.bits & (EXEC_MB(LO) | EXEC_MB(HI) | EXEC_MB(WIDE));
    if (modes & (modes - 1))
        return exec_dec_error(d, pi, "more than one of .lo/.hi/.wide");
    ptx_type ty[4] = { t, t, t, t };
    in->type = (uint8_t)t;
    if (mo.bits & EXEC_MB(CC)) {
        if (w == 0 || (mo.bits & (EXEC_MB(WIDE) | EXEC_MB(SAT))))
            return exec_dec_error(d, pi, ".cc requires .lo/.hi and a 32/64-bit type");
        in->aux[0] = (mo.bits & EXEC_MB(HI)) ? (sgn ? 2 : 1) : 0;
        in->flags = 1;
        in->fn = w == 1 ? h_madc32 : h_madc64;
        return exec_alu_ops(d, pi, in, 4, ty);
    }
    if (mo.bits & EXEC_MB(SAT)) {
        if (t != PTX_T_S32 || !(mo.bits & EXEC_MB(HI)))
            return exec_dec_error(d, pi, ".sat is only supported as mad.hi.sat.s32");
        in->fn = h_madhi_sat;
    } else if (mo.bits & EXEC_MB(WIDE)) {
        if (w == 2)
            return exec_dec_error(d, pi, ".wide requires a 16- or 32-bit type");
        ty[0] = wide_of(t);
        if (mad)
            ty[3] = ty[0];
        in->fn = mad ? (sgn ? t_madwide_s : t_madwide_u)[w] : (sgn ? t_mulwide_s : t_mulwide_u)[w];
    } else if (mo.bits & EXEC_MB(HI)) {
        in->fn = mad ? (sgn ? t_madhi_s : t_madhi_u)[w] : (sgn ? t_mulhi_s : t_mulhi_u)[w];
    } else {
        in->fn = mad ? t_madlo[w] : t_mullo[w];
    }
    return exec_alu_ops(d, pi, in, mad ? 4 : 3, ty);
}
int exec_dec_mul(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_mulmad(d, pi, in, 0); }
int exec_dec_mad(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_mulmad(d, pi, in, 1); }

/* madc{.lo,.hi}{.cc}: d = part(a*b) + c + CF. */
int exec_dec_madc(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, EXEC_MB(LO) | EXEC_MB(HI) | EXEC_MB(CC), &mo))
        return -1;
    int w = int_type(d, pi, &mo, 0);
    if (w < 0)
        return -1;
    if (w == 0)
        return exec_dec_error(d, pi, "requires a 32- or 64-bit type");
    ptx_type t = mo.t[0];
    ptx_type ty[4] = { t, t, t, t };
    in->aux[0] = (mo.bits & EXEC_MB(HI)) ? (exec_alu_is_signed(t) ? 2 : 1) : 0;
    in->flags = (uint8_t)(2 | ((mo.bits & EXEC_MB(CC)) ? 1 : 0));
    in->fn = w == 1 ? h_madc32 : h_madc64;
    in->type = (uint8_t)t;
    return exec_alu_ops(d, pi, in, 4, ty);
}

/* mul24 / mad24 {.lo,.hi} .u32/.s32; mad24.hi.sat.s32. */
static int exec_dec_x24(exec_dec *d, const ptx_insn *pi, exec_insn *in, int mad)
{
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, EXEC_MB(LO) | EXEC_MB(HI) | (mad ? EXEC_MB(SAT) : 0), &mo))
        return -1;
    if (mo.ntypes != 1 || (mo.t[0] != PTX_T_U32 && mo.t[0] != PTX_T_S32))
        return exec_dec_error(d, pi, "requires .u32 or .s32");
    int sgn = mo.t[0] == PTX_T_S32, hi = !!(mo.bits & EXEC_MB(HI));
    if (!(mo.bits & (EXEC_MB(LO) | EXEC_MB(HI))))
        return exec_dec_error(d, pi, "a mode is required: %s.lo or %s.hi", pi->opcode,
                              pi->opcode);
    if ((mo.bits & EXEC_MB(SAT)) && !(hi && sgn))
        return exec_dec_error(d, pi, ".sat is only supported as mad24.hi.sat.s32");
    if (mo.bits & EXEC_MB(SAT))
        in->fn = h_mad24hi_sat;
    else if (mad)
        in->fn = hi ? (sgn ? h_mad24hi_s : h_mad24hi_u) : (sgn ? h_mad24lo_s : h_mad24lo_u);
    else
        in->fn = hi ? (sgn ? h_mul24hi_s : h_mul24hi_u) : (sgn ? h_mul24lo_s : h_mul24lo_u);
    ptx_type ty[4] = { mo.t[0], mo.t[0], mo.t[0], mo.t[0] };
    in->type = (uint8_t)mo.t[0];
    return exec_alu_ops(d, pi, in, mad ? 4 : 3, ty);
}
int exec_dec_mul24(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_x24(d, pi, in, 0); }
int exec_dec_mad24(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_x24(d, pi, in, 1); }

/* Plain integer ops with one table per signedness. */
static int exec_dec_simple(exec_dec *d, const ptx_insn *pi, exec_insn *in, int nops,
                      const exec_fn *tu, const exec_fn *ts, uint64_t allow)
{
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, allow, &mo))
        return -1;
    int w = int_type(d, pi, &mo, 0);
    if (w < 0)
        return -1;
    ptx_type t = mo.t[0];
    if (!ts && exec_alu_is_signed(t)) /* unreachable with current callers */
        return exec_dec_error(d, pi, "signed type not supported");
    if (!tu && !exec_alu_is_signed(t))
        return exec_dec_error(d, pi, "requires a signed type");
    in->fn = (exec_alu_is_signed(t) ? ts : tu)[w];
    in->type = (uint8_t)t;
    ptx_type ty[4] = { t, t, t, t };
    return exec_alu_ops(d, pi, in, nops, ty);
}

int exec_dec_sad(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    return exec_dec_simple(d, pi, in, 4, t_sadu, t_sads, 0);
}
/* An op with a float form (float type: float op `op`) and plain integer tables. */
static int exec_dec_simple_or_float(exec_dec *d, const ptx_insn *pi, exec_insn *in, int op, int nops,
                               const exec_fn *tu, const exec_fn *ts)
{
    int rc;
    if (!route_float(d, pi, in, op, &rc))
        return rc;
    return exec_dec_simple(d, pi, in, nops, tu, ts, 0);
}
int exec_dec_div(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    return exec_dec_simple_or_float(d, pi, in, EXEC_ALU_DIV, 3, t_divu, t_divs);
}
int exec_dec_rem(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    return exec_dec_simple(d, pi, in, 3, t_remu, t_rems, 0);
}
int exec_dec_abs(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    return exec_dec_simple_or_float(d, pi, in, EXEC_ALU_ABS, 2, NULL, t_abs);
}
int exec_dec_neg(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    return exec_dec_simple_or_float(d, pi, in, EXEC_ALU_NEG, 2, NULL, t_neg);
}
static int exec_dec_minmax(exec_dec *d, const ptx_insn *pi, exec_insn *in, int max)
{
    int rc;
    if (!exec_dec_simd16x2(d, pi, in, max ? 3 : 2, &rc))
        return rc;
    if (!route_float(d, pi, in, max ? EXEC_ALU_MAX : EXEC_ALU_MIN, &rc))
        return rc;
    if (has_mod(pi, "relu")) {
        exec_alu_mods mo;
        if (exec_alu_parse(d, pi, EXEC_MB(RELU), &mo))
            return -1;
        if (mo.ntypes != 1 || mo.t[0] != PTX_T_S32)
            return exec_dec_error(d, pi, ".relu requires .s32 for integer min/max");
        in->fn = max ? h_maxs32_relu : h_mins32_relu;
        in->type = PTX_T_S32;
        ptx_type ty[3] = { PTX_T_S32, PTX_T_S32, PTX_T_S32 };
        return exec_alu_ops(d, pi, in, 3, ty);
    }
    return exec_dec_simple(d, pi, in, 3, max ? t_maxu : t_minu, max ? t_maxs : t_mins, 0);
}
int exec_dec_min(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_minmax(d, pi, in, 0); }
int exec_dec_max(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_minmax(d, pi, in, 1); }

/* =============================================================================================
 * Bit counting and fields.
 *   popc/clz .b32/.b64 -> u32.  brev .b32/.b64.
 *   bfind .u/.s 32/64 {.shiftamt}: position of the most significant bit that differs from the
 *     sign (negative signed inputs are complemented first); 0xffffffff when none.
 *   bfe: d = a[pos .. pos+len-1] zero/sign-extended (pos = b & 255, len = c & 255).
 *   bfi: f = b with a's low len bits inserted at pos (bits beyond msb dropped).
 *   fns: position of the offset-th set bit of mask starting at base (spec loop).
 * ============================================================================================= */
static inline uint32_t clz32(uint32_t x) { return x ? (uint32_t)__builtin_clz(x) : 32; }
static inline uint32_t clz64(uint64_t x) { return x ? (uint32_t)__builtin_clzll(x) : 64; }
static inline uint32_t brev32(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    return (x >> 16) | (x << 16);
}
static inline uint64_t brev64(uint64_t x)
{
    return ((uint64_t)brev32((uint32_t)x) << 32) | brev32((uint32_t)(x >> 32));
}
static inline uint32_t bfind(uint64_t a, int msb, int sgn, int shamt)
{
    if (sgn && (a >> msb & 1))
        a = ~a;
    if (msb == 31)
        a &= 0xffffffffu;
    if (!a)
        return 0xffffffffu;
    uint32_t pos = 63 - clz64(a);
    return shamt ? (uint32_t)msb - pos : pos;
}
EXEC_HANDLER1(h_popc32, uint32_t, uint32_t, __builtin_popcount(x))
EXEC_HANDLER1(h_popc64, uint32_t, uint64_t, __builtin_popcountll(x))
EXEC_HANDLER1(h_clz32, uint32_t, uint32_t, clz32(x))
EXEC_HANDLER1(h_clz64, uint32_t, uint64_t, clz64(x))
EXEC_HANDLER1(h_brev32, uint32_t, uint32_t, brev32(x))
EXEC_HANDLER1(h_brev64, uint64_t, uint64_t, brev64(x))
EXEC_HANDLER1(h_bfind_u32, uint32_t, uint32_t, bfind(x, 31, 0, in->flags & 1))
EXEC_HANDLER1(h_bfind_s32, uint32_t, uint32_t, bfind(x, 31, 1, in->flags & 1))
EXEC_HANDLER1(h_bfind_u64, uint32_t, uint64_t, bfind(x, 63, 0, in->flags & 1))
EXEC_HANDLER1(h_bfind_s64, uint32_t, uint64_t, bfind(x, 63, 1, in->flags & 1))

static inline uint64_t bfe(uint64_t a, uint32_t b, uint32_t c, int msb, int sgn)
{
    uint32_t pos = b & 0xff, len = c & 0xff;
    uint64_t sbit = 0;
    if (sgn && len) {
        uint32_t top = pos + len - 1 < (uint32_t)msb ? pos + len - 1 : (uint32_t)msb;
        sbit = a >> top & 1;
    }
    uint64_t field = pos <= (uint32_t)msb ? a >> pos : 0;
    uint32_t avail = pos <= (uint32_t)msb ? (uint32_t)msb + 1 - pos : 0; /* bits of a left */
    uint32_t n = len < avail ? len : avail;                               /* bits copied */
    uint64_t keep = n >= 64 ? ~0ull : ((1ull << n) - 1);
    uint64_t r = (field & keep) | (sbit ? ~keep : 0);
    return msb == 31 ? (r & 0xffffffffu) : r;
}
static inline uint64_t bfi(uint64_t a, uint64_t b, uint32_t c, uint32_t dd, int msb)
{
    uint32_t pos = c & 0xff, len = dd & 0xff;
    if (!len || pos > (uint32_t)msb)
        return b;
    uint32_t n = (uint32_t)msb + 1 - pos;
    if (len < n)
        n = len;
    uint64_t mask = (n >= 64 ? ~0ull : ((1ull << n) - 1)) << pos;
    return (b & ~mask) | ((a << pos) & mask);
}
EXEC_HANDLER3(h_bfe_u32, uint32_t, uint32_t, uint32_t, uint32_t, bfe(x, y, z, 31, 0))
EXEC_HANDLER3(h_bfe_s32, uint32_t, uint32_t, uint32_t, uint32_t, bfe(x, y, z, 31, 1))
EXEC_HANDLER3(h_bfe_u64, uint64_t, uint64_t, uint32_t, uint32_t, bfe(x, y, z, 63, 0))
EXEC_HANDLER3(h_bfe_s64, uint64_t, uint64_t, uint32_t, uint32_t, bfe(x, y, z, 63, 1))

#define BFI_HANDLER(name, T, MSB)                                                             \
    static int name(exec_warp *w, const exec_insn *in, uint32_t m)                           \
    {                                                                                        \
        T *f = EXEC_DST(w, in, 0);                                                           \
        const T *a = EXEC_SRC(w, in, 1), *b = EXEC_SRC(w, in, 2);                            \
        const uint32_t *c = EXEC_SRC(w, in, 3), *l = EXEC_SRC(w, in, 4);                     \
        EXEC_LANES_DO(m, f[i] = (T)bfi(a[i], b[i], c[i], l[i], MSB));                        \
        return EXEC_NEXT;                                                                    \
    }
BFI_HANDLER(h_bfi32, uint32_t, 31)
BFI_HANDLER(h_bfi64, uint64_t, 63)

static inline uint32_t fns(uint32_t mask, uint32_t base, int32_t offset)
{
    if (offset == 0)
        return base < 32 && (mask >> base & 1) ? base : 0xffffffffu;
    int64_t pos = base, inc = offset > 0 ? 1 : -1;
    int64_t count = (offset > 0 ? (int64_t)offset : -(int64_t)offset) - 1;
    while (pos >= 0 && pos < 32) {
        if (mask >> pos & 1) {
            if (count == 0)
                return (uint32_t)pos;
            count--;
        }
        pos += inc;
    }
    return 0xffffffffu;
}
EXEC_HANDLER3(h_fns, uint32_t, uint32_t, uint32_t, uint32_t, fns(x, y, (int32_t)z))

/* dp4a / dp2a: bytes/halves sign- or zero-extended by atype/btype (flags bit0 = a signed,
 * bit1 = b signed), products summed into c; aux[0] = b half for dp2a (0 lo, 2 hi). */
static inline int32_t ext8(uint32_t v, int k, int s)
{
    uint32_t b = v >> (8 * k) & 0xff;
    return s ? (int32_t)b - (int32_t)((b & 0x80) << 1) : (int32_t)b;
}
static inline int32_t ext16(uint32_t v, int k, int s)
{
    uint32_t h = v >> (16 * k) & 0xffff;
    return s ? (int32_t)h - (int32_t)((h & 0x8000) << 1) : (int32_t)h;
}
static inline uint32_t dp4a(uint32_t a, uint32_t b, uint32_t c, int fl)
{
    uint32_t acc = c;
    for (int k = 0; k < 4; k++)
        acc += (uint32_t)(ext8(a, k, fl & 1) * ext8(b, k, fl >> 1 & 1));
    return acc;
}
static inline uint32_t dp2a(uint32_t a, uint32_t b, uint32_t c, int fl, int sel)
{
    uint32_t acc = c;
    for (int k = 0; k < 2; k++)
        acc += (uint32_t)((int64_t)ext16(a, k, fl & 1) * ext8(b, sel + k, fl >> 1 & 1));
    return acc;
}
EXEC_HANDLER3(h_dp4a, uint32_t, uint32_t, uint32_t, uint32_t, dp4a(x, y, z, in->flags))
EXEC_HANDLER3(h_dp2a, uint32_t, uint32_t, uint32_t, uint32_t, dp2a(x, y, z, in->flags, (int)in->aux[0]))

static int exec_dec_bits_1(exec_dec *d, const ptx_insn *pi, exec_insn *in, exec_fn f32, exec_fn f64,
                      int same_dst)
{
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, 0, &mo))
        return -1;
    if (mo.ntypes != 1 || (mo.t[0] != PTX_T_B32 && mo.t[0] != PTX_T_B64))
        return exec_dec_error(d, pi, "requires .b32 or .b64");
    int is64 = mo.t[0] == PTX_T_B64;
    in->fn = is64 ? f64 : f32;
    in->type = (uint8_t)mo.t[0];
    ptx_type ty[2] = { same_dst ? mo.t[0] : PTX_T_U32, mo.t[0] };
    return exec_alu_ops(d, pi, in, 2, ty);
}
int exec_dec_popc(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_bits_1(d, pi, in, h_popc32, h_popc64, 0); }
int exec_dec_clz(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_bits_1(d, pi, in, h_clz32, h_clz64, 0); }
int exec_dec_brev(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_bits_1(d, pi, in, h_brev32, h_brev64, 1); }

int exec_dec_bfind(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, EXEC_MB(SHIFTAMT), &mo))
        return -1;
    static const exec_fn t[4] = { h_bfind_u32, h_bfind_s32, h_bfind_u64, h_bfind_s64 };
    int k;
    switch (mo.ntypes == 1 ? mo.t[0] : PTX_T_NONE) {
    case PTX_T_U32: k = 0; break;
    case PTX_T_S32: k = 1; break;
    case PTX_T_U64: k = 2; break;
    case PTX_T_S64: k = 3; break;
    default: return exec_dec_error(d, pi, "requires .u32, .s32, .u64 or .s64");
    }
    in->fn = t[k];
    in->flags = (mo.bits & EXEC_MB(SHIFTAMT)) ? 1 : 0;
    in->type = (uint8_t)mo.t[0];
    ptx_type ty[2] = { PTX_T_U32, mo.t[0] };
    return exec_alu_ops(d, pi, in, 2, ty);
}

int exec_dec_bfe(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, 0, &mo))
        return -1;
    static const exec_fn t[4] = { h_bfe_u32, h_bfe_s32, h_bfe_u64, h_bfe_s64 };
    int k;
    switch (mo.ntypes == 1 ? mo.t[0] : PTX_T_NONE) {
    case PTX_T_U32: k = 0; break;
    case PTX_T_S32: k = 1; break;
    case PTX_T_U64: k = 2; break;
    case PTX_T_S64: k = 3; break;
    default: return exec_dec_error(d, pi, "requires .u32, .s32, .u64 or .s64");
    }
    in->fn = t[k];
    in->type = (uint8_t)mo.t[0];
    ptx_type ty[4] = { mo.t[0], mo.t[0], PTX_T_U32, PTX_T_U32 };
    return exec_alu_ops(d, pi, in, 4, ty);
}

int exec_dec_bfi(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, 0, &mo))
        return -1;
    if (mo.ntypes != 1 || (mo.t[0] != PTX_T_B32 && mo.t[0] != PTX_T_B64))
        return exec_dec_error(d, pi, "requires .b32 or .b64");
    in->fn = mo.t[0] == PTX_T_B64 ? h_bfi64 : h_bfi32;
    in->type = (uint8_t)mo.t[0];
    ptx_type ty[5] = { mo.t[0], mo.t[0], mo.t[0], PTX_T_U32, PTX_T_U32 };
    return exec_alu_ops(d, pi, in, 5, ty);
}

int exec_dec_fns(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, 0, &mo))
        return -1;
    if (mo.ntypes != 1 || mo.t[0] != PTX_T_B32)
        return exec_dec_error(d, pi, "requires .b32");
    in->fn = h_fns;
    in->type = PTX_T_B32;
    ptx_type ty[4] = { PTX_T_B32, PTX_T_B32, PTX_T_U32, PTX_T_S32 };
    return exec_alu_ops(d, pi, in, 4, ty);
}

static int exec_dec_dp(exec_dec *d, const ptx_insn *pi, exec_insn *in, int two)
{
    exec_alu_mods mo;
    if (exec_alu_parse(d, pi, two ? EXEC_MB(LO) | EXEC_MB(HI) : 0, &mo))
        return -1;
    if (mo.ntypes != 2)
        return exec_dec_error(d, pi, "expects .atype and .btype");
    for (int k = 0; k < 2; k++)
        if (mo.t[k] != PTX_T_U32 && mo.t[k] != PTX_T_S32)
            return exec_dec_error(d, pi, "types must be .u32 or .s32");
    if (two && !(mo.bits & (EXEC_MB(LO) | EXEC_MB(HI))))
        return exec_dec_error(d, pi, "requires .lo or .hi");
    if ((mo.bits & EXEC_MB(LO)) && (mo.bits & EXEC_MB(HI)))
        return exec_dec_error(d, pi, ".lo and .hi are exclusive");
    in->flags = (uint8_t)((mo.t[0] == PTX_T_S32) | (mo.t[1] == PTX_T_S32) << 1);
    in->aux[0] = (mo.bits & EXEC_MB(HI)) ? 2 : 0;
    ptx_type ct = in->flags ? PTX_T_S32 : PTX_T_U32;
    in->fn = two ? h_dp2a : h_dp4a;
    in->type = (uint8_t)ct;
    ptx_type ty[4] = { ct, mo.t[0], mo.t[1], ct };
    return exec_alu_ops(d, pi, in, 4, ty);
}
int exec_dec_dp4a(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_dp(d, pi, in, 0); }
int exec_dec_dp2a(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_dp(d, pi, in, 1); }
