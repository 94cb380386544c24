/* exec_fp.h - private helpers of the ALU families: lane loops, modifiers, rounding, FTZ, NaN, formats. */
#ifndef EXEC_FP_H
#define EXEC_FP_H

#include <stdint.h>
#include <string.h>
#include <math.h>
#include "exec_insn.h"

/* ---- lane loops ---------------------------------------------------------------------------
 * EXEC_LANES_DO(m, stmt...) runs the statements with `i` bound to each lane of mask m. The
 * full-mask branch has no per-lane test so gcc can vectorise it. */
#define EXEC_LANES_DO(m, ...)                                                                \
    do {                                                                                     \
        if ((m) == EXEC_FULL) {                                                              \
            for (int i = 0; i < EXEC_LANES; i++) { __VA_ARGS__; }                            \
        } else {                                                                             \
            for (int i = 0; i < EXEC_LANES; i++)                                             \
                if ((m) >> i & 1u) { __VA_ARGS__; }                                          \
        }                                                                                    \
    } while (0)

/* Generators for handlers of shape d = f(a [, b [, c]]) over lane arrays. Inside EXPR the
 * lane's operands are x, y, z and the instruction is `in`. */
#define EXEC_HANDLER1(name, TD, TA, EXPR)                                                    \
    static int name(exec_warp *w, const exec_insn *in, uint32_t m)                           \
    {                                                                                        \
        TD *d = EXEC_DST(w, in, 0);                                                          \
        const TA *a = EXEC_SRC(w, in, 1);                                                    \
        (void)in;                                                                            \
        EXEC_LANES_DO(m, TA x = a[i]; d[i] = (TD)(EXPR));                                    \
        return EXEC_NEXT;                                                                    \
    }
#define EXEC_HANDLER2(name, TD, TA, TB, EXPR)                                                \
    static int name(exec_warp *w, const exec_insn *in, uint32_t m)                           \
    {                                                                                        \
        TD *d = EXEC_DST(w, in, 0);                                                          \
        const TA *a = EXEC_SRC(w, in, 1);                                                    \
        const TB *b = EXEC_SRC(w, in, 2);                                                    \
        (void)in;                                                                            \
        EXEC_LANES_DO(m, TA x = a[i]; TB y = b[i]; d[i] = (TD)(EXPR));                       \
        return EXEC_NEXT;                                                                    \
    }
#define EXEC_HANDLER3(name, TD, TA, TB, TC, EXPR)                                            \
    static int name(exec_warp *w, const exec_insn *in, uint32_t m)                           \
    {                                                                                        \
        TD *d = EXEC_DST(w, in, 0);                                                          \
        const TA *a = EXEC_SRC(w, in, 1);                                                    \
        const TB *b = EXEC_SRC(w, in, 2);                                                    \
        const TC *c = EXEC_SRC(w, in, 3);                                                    \
        (void)in;                                                                            \
        EXEC_LANES_DO(m, TA x = a[i]; TB y = b[i]; TC z = c[i]; d[i] = (TD)(EXPR));          \
        return EXEC_NEXT;                                                                    \
    }

/* ---- modifiers ------------------------------------------------------------------------------
 * exec_alu_parse() classifies every modifier of an instruction: type names are collected in
 * order, comparison operators / testp classes / known words become bits, and anything not in
 * `allowed` is reported as an error. */
enum {
    EXEC_M_RN = 0, EXEC_M_RZ, EXEC_M_RM, EXEC_M_RP, EXEC_M_RNA, EXEC_M_RS,
    EXEC_M_RNI, EXEC_M_RZI, EXEC_M_RMI, EXEC_M_RPI,
    EXEC_M_FTZ, EXEC_M_SAT, EXEC_M_SATFINITE, EXEC_M_RELU, EXEC_M_APPROX, EXEC_M_FULL,
    EXEC_M_CC, EXEC_M_LO, EXEC_M_HI, EXEC_M_WIDE, EXEC_M_NAN, EXEC_M_XORSIGN, EXEC_M_ABS,
    EXEC_M_SHIFTAMT, EXEC_M_L, EXEC_M_R, EXEC_M_WRAP, EXEC_M_CLAMP,
    EXEC_M_AND, EXEC_M_OR, EXEC_M_XOR,
    EXEC_M_F4E, EXEC_M_B4E, EXEC_M_RC8, EXEC_M_ECL, EXEC_M_ECR, EXEC_M_RC16,
    EXEC_M_CMP,      /* any comparison operator (value in exec_alu_mods.cmp) */
    EXEC_M_CLASS,    /* any testp class (value in exec_alu_mods.cls) */
    EXEC_M__COUNT
};
#define EXEC_MB(x) (1ull << EXEC_M_##x)
#define EXEC_MB_RND (EXEC_MB(RN) | EXEC_MB(RZ) | EXEC_MB(RM) | EXEC_MB(RP))
#define EXEC_MB_IRND (EXEC_MB(RNI) | EXEC_MB(RZI) | EXEC_MB(RMI) | EXEC_MB(RPI))

/* Comparison operators (exec_insn.cmp). */
enum {
    EXEC_CMP_EQ = 1, EXEC_CMP_NE, EXEC_CMP_LT, EXEC_CMP_LE, EXEC_CMP_GT, EXEC_CMP_GE,
    EXEC_CMP_LO, EXEC_CMP_LS, EXEC_CMP_HI, EXEC_CMP_HS,
    EXEC_CMP_EQU, EXEC_CMP_NEU, EXEC_CMP_LTU, EXEC_CMP_LEU, EXEC_CMP_GTU, EXEC_CMP_GEU,
    EXEC_CMP_NUM, EXEC_CMP_NAN, EXEC_CMP__COUNT
};
/* testp classes. */
enum {
    EXEC_CLS_FINITE = 1, EXEC_CLS_INFINITE, EXEC_CLS_NUMBER, EXEC_CLS_NOTANUMBER,
    EXEC_CLS_NORMAL, EXEC_CLS_SUBNORMAL
};

typedef struct {
    uint64_t bits;      /* EXEC_MB() of each modifier present */
    int cmp;            /* EXEC_CMP_* or 0 */
    int cls;            /* EXEC_CLS_* or 0 */
    int ntypes;
    ptx_type t[4];      /* type modifiers in source order */
} exec_alu_mods;

int exec_alu_parse(exec_dec *d, const ptx_insn *pi, uint64_t allowed, exec_alu_mods *mo);
/* Rounding mode of the modifiers: EXEC_RN.. for .rn/.rz/.rm/.rp (and .rni.. for integer
 * rounding: same numbering), `def` when none is given. */
enum { EXEC_RN = 0, EXEC_RZ, EXEC_RM, EXEC_RP, EXEC_RNA };
int exec_alu_rnd(const exec_alu_mods *mo, int def);
int exec_alu_irnd(const exec_alu_mods *mo, int def);
/* Width in bits / signedness / class of a type without calling into the parser. */
int exec_alu_bits(ptx_type t);
static inline int exec_alu_is_signed(ptx_type t) { return t >= PTX_T_S8 && t <= PTX_T_S64; }
static inline int exec_alu_is_int(ptx_type t) { return t >= PTX_T_B8 && t <= PTX_T_S64 && t != PTX_T_B128; }
static inline int exec_alu_is_half(ptx_type t)
{
    return t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2;
}
/* Check the operand count and fill destination 0 and sources 1..n-1 of the given types. */
int exec_alu_ops(exec_dec *d, const ptx_insn *pi, exec_insn *in, int n, const ptx_type *types);

/* Decode helpers of the other ALU files (shared opcode entries dispatch on the type). */
enum {
    EXEC_ALU_ADD, EXEC_ALU_SUB, EXEC_ALU_MUL, EXEC_ALU_FMA, EXEC_ALU_DIV, EXEC_ALU_ABS,
    EXEC_ALU_NEG, EXEC_ALU_MIN, EXEC_ALU_MAX, EXEC_ALU_EX2, EXEC_ALU_TANH
};
int exec_float_decode(exec_dec *d, const ptx_insn *pi, exec_insn *in, int op);
int exec_half_decode(exec_dec *d, const ptx_insn *pi, exec_insn *in, int op);

/* ---- bit casts, FTZ, canonical NaNs --------------------------------------------------------- */
#define EXEC_NAN32 0x7fffffffu
#define EXEC_NAN64 0x7fffffffffffffffull
#define EXEC_NAN16 0x7fffu
static inline uint32_t exec_f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float exec_u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t exec_d2u(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static inline double exec_u2d(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
/* Flush an f32 subnormal to a zero of the same sign. */
static inline float exec_ftz32(float f)
{
    uint32_t u = exec_f2u(f);
    return (u & 0x7f800000u) ? f : exec_u2f(u & 0x80000000u);
}
/* Canonicalise an f32 NaN. */
static inline float exec_cnan32(float f) { return f == f ? f : exec_u2f(EXEC_NAN32); }
/* Clamp to [0, 1], NaN -> +0 (.sat of float results). */
static inline float exec_sat32(float f) { return f > 0.0f ? (f < 1.0f ? f : 1.0f) : 0.0f; }
static inline double exec_sat64(double f) { return f > 0.0 ? (f < 1.0 ? f : 1.0) : 0.0; }

/* ---- exact rounding --------------------------------------------------------------------------
 * Small binary formats: p = significand bits incl. the hidden one, emin = exponent of the
 * smallest normal, ebits = exponent field width. `ieee` = 1 when the all-ones exponent encodes
 * inf/NaN; e4m3 instead uses only S.1111.111 as NaN and has no infinity. */
typedef struct {
    int p, ebits, emin, ieee;
    uint32_t nan;       /* canonical NaN bits (positive) */
} exec_fmt;
extern const exec_fmt exec_fmt_f16, exec_fmt_bf16, exec_fmt_tf32, exec_fmt_f32, exec_fmt_e4m3,
    exec_fmt_e5m2;

/* Round the exact value (-1)^neg * mant * 2^exp to fmt under mode (EXEC_RN/RZ/RM/RP/RNA).
 * satfinite: overflow (and infinities) give the largest finite value of the sign instead of
 * infinity / NaN. Returns the encoding (sign in the top bit of the format). */
uint32_t exec_fp_round(const exec_fmt *f, int neg, uint64_t mant, int exp, int mode, int satfinite);
/* Round a double to fmt (NaN -> canonical NaN, satfinite also maps NaN to NaN). */
uint32_t exec_fp_from_double(const exec_fmt *f, double x, int mode, int satfinite);
/* Exact value of an encoding as double (every format here fits in a double). */
double exec_fp_to_double(const exec_fmt *f, uint32_t bits);
/* Exact value s + e (e the TwoSum/TwoProd error of s) rounded to odd in double: the result
 * can then be rounded once more to any format with <= 51 bits without double rounding. */
static inline double exec_fp_odd(double s, double e)
{
    if (e == 0 || s != s || s - s != 0)
        return s;
    uint64_t u = exec_d2u(s);
    if (u & 1)
        return s;
    /* move one ulp towards e: magnitudes grow when e has the sign of s */
    int same = (e > 0) == (s > 0);
    return exec_u2d(same ? u + 1 : u - 1);
}
/* TwoSum: s = fl(a + b), returns the exact error (a + b = s + e). */
static inline double exec_fp_twosum(double a, double b, double *s)
{
    double x = a + b, bv = x - a, av = x - bv;
    *s = x;
    return (a - av) + (b - bv);
}
/* Round a double to f32 in any mode (exact: x is the exact value). */
float exec_fp_f32_mode(double x, int mode);
/* f32 <-> f16 / bf16 quick helpers (exact or RN). */
static inline float exec_h2f(uint16_t h) { return (float)exec_fp_to_double(&exec_fmt_f16, h); }
static inline float exec_bf2f(uint16_t h) { return exec_u2f((uint32_t)h << 16); }
static inline uint16_t exec_f2h_rn(float f) { return (uint16_t)exec_fp_from_double(&exec_fmt_f16, f, EXEC_RN, 0); }
static inline uint16_t exec_f2bf_rn(float f) { return (uint16_t)exec_fp_from_double(&exec_fmt_bf16, f, EXEC_RN, 0); }

/* f64 arithmetic in a directed rounding mode (exact; slow path for rare instructions).
 * op: 0 add, 1 mul, 2 fma, 3 div, 4 sqrt. */
double exec_fp_f64_mode(int op, double a, double b, double c, int mode);

/* exec_half.c: min (max = 0) or max of two f16/bf16 encodings, NaN rules of min/max (a NaN
 * loses to a number; two NaNs give the canonical NaN), -0 < +0. */
uint16_t exec_half_minmax(const exec_fmt *f, uint16_t a, uint16_t b, int max);

#endif
