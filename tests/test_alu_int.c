/* test_alu_int.c - integer ALU handlers (add..madc, div/rem, bit fields, dp4a) against scalar references. */
/* ---- handler harness: a stub decoder (exec_dec_*) and a fake warp, so the ALU decode
 * functions and handlers run without the rest of the core. Registers are numbered: operand
 * code k >= 0 is register k (slot k), or predicate k where a predicate is expected; OP_SINK is
 * `_`; OP_PAIR(p, q) a p|q pair; OP_IMM(v) an integer immediate. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <fenv.h>
#include "exec_int.h"
#include "test_util.h"

struct exec_dec { int unused; };
struct exec_warp { struct exec_warp_regs r; };
#define NREG 16
#define OP_SINK -1
#define OP_PAIR(p, q) (100 + (p) * 10 + (q))
#define OP_IMM(v) (1000 + (v))
static uint8_t regblk[NREG * EXEC_SLOT * 2] __attribute__((aligned(64)));
static uint32_t predblk[NREG];
static struct exec_warp W;
static char errbuf[512];
static uint8_t immpool[16][EXEC_SLOT] __attribute__((aligned(64)));
static int nimm;

int exec_dec_error(exec_dec *d, const ptx_insn *pi, const char *fmt, ...)
{
    (void)d;
    va_list ap;
    va_start(ap, fmt);
    int k = snprintf(errbuf, sizeof errbuf, "%s: ", pi->opcode);
    vsnprintf(errbuf + k, sizeof errbuf - (size_t)k, fmt, ap);
    va_end(ap);
    return -1;
}
ptx_type exec_dec_type(const ptx_insn *pi, int k) { (void)pi; (void)k; return PTX_T_NONE; }
void *exec_dec_alloc(exec_dec *d, size_t n) { (void)d; (void)n; return n <= EXEC_SLOT && nimm < 16 ? immpool[nimm++] : NULL; }
static int tbits(ptx_type t)
{
    switch (t) {
    case PTX_T_B8: case PTX_T_U8: case PTX_T_S8: return 8;
    case PTX_T_B16: case PTX_T_U16: case PTX_T_S16: case PTX_T_F16: case PTX_T_BF16:
    case PTX_T_E4M3X2: case PTX_T_E5M2X2: return 16;
    case PTX_T_B64: case PTX_T_U64: case PTX_T_S64: case PTX_T_F64: return 64;
    default: return 32;
    }
}
int exec_dec_src(exec_dec *d, exec_insn *in, int k, const ptx_operand *o, ptx_type t)
{
    exec_opnd *op = &in->op[k];
    memset(op, 0, sizeof *op);
    op->type = (uint16_t)t;
    if (o->kind == PTX_OP_REG) {
        op->kind = EXEC_O_REG;
        op->off = (uint32_t)o->sym->index * EXEC_SLOT * 2;
        return 0;
    }
    if (o->kind == PTX_OP_IMM) {
        uint8_t *b = exec_dec_alloc(d, EXEC_SLOT);
        for (int i = 0; i < 32; i++)
            switch (tbits(t)) {
            case 8: b[i] = (uint8_t)o->ival; break;
            case 16: ((uint16_t *)(void *)b)[i] = (uint16_t)o->ival; break;
            case 32: ((uint32_t *)(void *)b)[i] = (uint32_t)o->ival; break;
            default: ((uint64_t *)(void *)b)[i] = (uint64_t)o->ival; break;
            }
        op->kind = EXEC_O_IMM;
        op->imm = b;
        return 0;
    }
    return -1;
}
int exec_dec_dst(exec_dec *d, exec_insn *in, int k, const ptx_operand *o, ptx_type t)
{
    if (o->kind == PTX_OP_SINK) {
        memset(&in->op[k], 0, sizeof in->op[k]);
        in->op[k].kind = EXEC_O_SINK;
        return 0;
    }
    return o->kind == PTX_OP_REG ? exec_dec_src(d, in, k, o, t) : -1;
}
static int pred_op(exec_insn *in, int k, const ptx_operand *o, int dst)
{
    exec_opnd *op = &in->op[k];
    memset(op, 0, sizeof *op);
    op->type = PTX_T_PRED;
    if (o->kind == PTX_OP_SINK && dst) { op->kind = EXEC_O_SINK; return 0; }
    if (o->kind != PTX_OP_REG) return -1;
    op->kind = EXEC_O_PRED;
    op->off = (uint32_t)o->sym->index;
    op->neg = (uint8_t)o->neg;
    return 0;
}
int exec_dec_psrc(exec_dec *d, exec_insn *in, int k, const ptx_operand *o) { (void)d; return pred_op(in, k, o, 0); }
int exec_dec_pdst(exec_dec *d, exec_insn *in, int k, const ptx_operand *o) { (void)d; return pred_op(in, k, o, 1); }

static const struct { const char *name; exec_decode_fn fn; } dectab[] = {
    {"add", dec_add}, {"sub", dec_sub}, {"mul", dec_mul}, {"mad", dec_mad}, {"mul24", dec_mul24},
    {"mad24", dec_mad24}, {"sad", dec_sad}, {"div", dec_div}, {"rem", dec_rem}, {"abs", dec_abs},
    {"neg", dec_neg}, {"min", dec_min}, {"max", dec_max}, {"popc", dec_popc}, {"clz", dec_clz},
    {"bfind", dec_bfind}, {"fns", dec_fns}, {"brev", dec_brev}, {"bfe", dec_bfe}, {"bfi", dec_bfi},
    {"dp4a", dec_dp4a}, {"dp2a", dec_dp2a}, {"addc", dec_addc}, {"subc", dec_subc},
    {"madc", dec_madc}, {"testp", dec_testp}, {"copysign", dec_copysign}, {"fma", dec_fma},
    {"rcp", dec_rcp}, {"sqrt", dec_sqrt}, {"rsqrt", dec_rsqrt}, {"sin", dec_sin}, {"cos", dec_cos},
    {"lg2", dec_lg2}, {"ex2", dec_ex2}, {"tanh", dec_tanh}, {"set", dec_set}, {"setp", dec_setp},
    {"selp", dec_selp}, {"slct", dec_slct}, {"and", dec_and}, {"or", dec_or}, {"xor", dec_xor},
    {"not", dec_not}, {"cnot", dec_cnot}, {"lop3", dec_lop3}, {"shf", dec_shf}, {"shl", dec_shl},
    {"shr", dec_shr}, {"prmt", dec_prmt}, {"cvt", dec_cvt},
};

static ptx_sym syms[NREG];
static ptx_operand opnds[8], pairel[8][2];
static exec_insn cur;

/* Decode "add.sat.s32" with operand codes; returns 0 or -1 (message in errbuf). */
static int decode(const char *text, int nops, const int *codes)
{
    static char buf[128];
    static const char *mods[16];
    static ptx_insn pi;
    snprintf(buf, sizeof buf, "%s", text);
    memset(&pi, 0, sizeof pi);
    memset(&cur, 0, sizeof cur);
    nimm = 0;
    errbuf[0] = 0;
    char *save = NULL, *tok = strtok_r(buf, ".", &save);
    pi.opcode = tok;
    while ((tok = strtok_r(NULL, ".", &save)))
        mods[pi.nmods++] = tok;
    pi.mods = mods;
    for (int k = 0; k < NREG; k++) {
        syms[k].kind = PTX_SYM_REG;
        syms[k].index = k;
        syms[k].name = "%r";
    }
    for (int k = 0; k < nops; k++) {
        ptx_operand *o = &opnds[k];
        memset(o, 0, sizeof *o);
        int c = codes[k];
        if (c == OP_SINK) {
            o->kind = PTX_OP_SINK;
        } else if (c >= 1000) {
            o->kind = PTX_OP_IMM;
            o->ival = c - 1000;
        } else if (c >= 100) {
            o->kind = PTX_OP_PAIR;
            o->elems = pairel[k];
            o->nelems = 2;
            int p = (c - 100) / 10, q = (c - 100) % 10;
            memset(pairel[k], 0, sizeof pairel[k]);
            pairel[k][0].kind = PTX_OP_REG; pairel[k][0].sym = &syms[p];
            pairel[k][1].kind = PTX_OP_REG; pairel[k][1].sym = &syms[q];
        } else {
            o->kind = PTX_OP_REG;
            o->sym = &syms[c];
        }
    }
    pi.ops = opnds;
    pi.nops = nops;
    pi.line = 1;
    cur.src = &pi;
    for (size_t j = 0; j < sizeof dectab / sizeof dectab[0]; j++)
        if (!strcmp(dectab[j].name, pi.opcode))
            return dectab[j].fn(NULL, &pi, &cur);
    snprintf(errbuf, sizeof errbuf, "no opcode %s", pi.opcode);
    return -1;
}
static void exec_m(uint32_t m)
{
    W.r.regs = regblk;
    W.r.preds = predblk;
    ck_assert_int_eq(cur.fn(&W, &cur, m), EXEC_NEXT);
}
/* Decode and run on all lanes; fails the test on a decode error. */
#define RUN(text, m, ...)                                                                     \
    do {                                                                                     \
        const int codes_[] = { __VA_ARGS__ };                                                \
        int rc_ = decode(text, (int)(sizeof codes_ / sizeof codes_[0]), codes_);             \
        ck_assert_msg(rc_ == 0, "%s: %s", text, errbuf);                                      \
        exec_m(m);                                                                           \
    } while (0)
#define DECODE_FAILS(text, ...)                                                               \
    do {                                                                                     \
        const int codes_[] = { __VA_ARGS__ };                                                \
        ck_assert_msg(decode(text, (int)(sizeof codes_ / sizeof codes_[0]), codes_) != 0,    \
                      "%s decoded", text);                                                   \
        ck_assert_msg(errbuf[0] != 0, "%s: no message", text);                               \
    } while (0)
#define R8(k)  ((uint8_t *)(void *)(regblk + (k) * EXEC_SLOT * 2))
#define R16(k) ((uint16_t *)(void *)(regblk + (k) * EXEC_SLOT * 2))
#define R32(k) ((uint32_t *)(void *)(regblk + (k) * EXEC_SLOT * 2))
#define R64(k) ((uint64_t *)(void *)(regblk + (k) * EXEC_SLOT * 2))
#define RF(k)  ((float *)(void *)(regblk + (k) * EXEC_SLOT * 2))
#define RD(k)  ((double *)(void *)(regblk + (k) * EXEC_SLOT * 2))

/* xorshift64* with a fixed seed per test */
static uint64_t rng_s = 88172645463325252ull;
static uint64_t rnd64(void)
{
    rng_s ^= rng_s >> 12;
    rng_s ^= rng_s << 25;
    rng_s ^= rng_s >> 27;
    return rng_s * 2685821657736338717ull;
}
static inline uint32_t rnd32(void) { return (uint32_t)(rnd64() >> 32); }
/* Interesting 32-bit values mixed with random ones. */
static inline uint32_t edge32(void)
{
    static const uint32_t e[] = { 0, 1, 2, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff,
                                  0xfffffffe, 31, 32, 33, 63, 64, 255, 256, 0x10000, 0xffff };
    uint64_t r = rnd64();
    return (r & 3) == 0 ? e[(r >> 8) % (sizeof e / sizeof e[0])] : (uint32_t)(r >> 32);
}
static inline uint64_t edge64(void)
{
    static const uint64_t e[] = { 0, 1, 2, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                  0xffffffffffffffffull, 63, 64, 65, 0xffffffff, 0x100000000ull };
    uint64_t r = rnd64();
    return (r & 3) == 0 ? e[(r >> 8) % (sizeof e / sizeof e[0])] : rnd64();
}
/* ---- end of harness ---- */

/* ---- references: straightforward scalar transcriptions of the spec text ---- */
static uint32_t ref_bfind(uint64_t a, int msb, int sgn, int shamt)
{
    if (sgn && (a >> msb & 1)) a = ~a;
    uint32_t d = 0xffffffff;
    for (int i = msb; i >= 0; i--)
        if (a >> i & 1) { d = (uint32_t)i; break; }
    if (shamt && d != 0xffffffff) d = (uint32_t)msb - d;
    return d;
}
static uint64_t ref_bfe(uint64_t a, uint32_t b, uint32_t c, int msb, int sgn)
{
    uint32_t pos = b & 0xff, len = c & 0xff;
    uint64_t sbit = 0, d = 0;
    if (sgn && len) { uint32_t t = pos + len - 1; sbit = a >> (t < (uint32_t)msb ? t : (uint32_t)msb) & 1; }
    for (uint32_t i = 0; i <= (uint32_t)msb; i++) {
        uint64_t bit = (i < len && pos + i <= (uint32_t)msb) ? a >> (pos + i) & 1 : sbit;
        d |= bit << i;
    }
    return d;
}
static uint64_t ref_bfi(uint64_t a, uint64_t b, uint32_t c, uint32_t dd, int msb)
{
    uint32_t pos = c & 0xff, len = dd & 0xff;
    uint64_t f = b;
    for (uint32_t i = 0; i < len && pos + i <= (uint32_t)msb; i++)
        f = (f & ~(1ull << (pos + i))) | ((a >> i & 1) << (pos + i));
    return f;
}
static uint32_t ref_fns(uint32_t mask, uint32_t base, int32_t offset)
{
    uint32_t d = 0xffffffff;
    if (offset == 0) { if (base < 32 && (mask >> base & 1)) d = base; return d; }
    long pos = base, count = labs((long)offset) - 1, inc = offset > 0 ? 1 : -1;
    while (pos >= 0 && pos < 32) {
        if (mask >> pos & 1) { if (count == 0) { d = (uint32_t)pos; break; } count--; }
        pos += inc;
    }
    return d;
}

START_TEST(t_add_sub_mul)
{
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 32; i++) { R32(1)[i] = edge32(); R32(2)[i] = edge32(); R32(3)[i] = edge32(); }
        RUN("add.s32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], (uint32_t)(R32(1)[i] + R32(2)[i]));
        RUN("add.sat.s32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++) {
            long long s = (long long)(int32_t)R32(1)[i] + (int32_t)R32(2)[i];
            if (s > 2147483647LL) s = 2147483647LL;
            if (s < -2147483648LL) s = -2147483648LL;
            ck_assert_uint_eq(R32(0)[i], (uint32_t)s);
        }
        RUN("sub.sat.s32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++) {
            long long s = (long long)(int32_t)R32(1)[i] - (int32_t)R32(2)[i];
            if (s > 2147483647LL) s = 2147483647LL;
            if (s < -2147483648LL) s = -2147483648LL;
            ck_assert_uint_eq(R32(0)[i], (uint32_t)s);
        }
        RUN("mul.hi.s32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++) {
            long long p = (long long)(int32_t)R32(1)[i] * (int32_t)R32(2)[i];
            ck_assert_uint_eq(R32(0)[i], (uint32_t)((unsigned long long)p >> 32));
        }
        RUN("mul.hi.u32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++)
            ck_assert_uint_eq(R32(0)[i], (uint32_t)(((unsigned long long)R32(1)[i] * R32(2)[i]) >> 32));
        RUN("mul.wide.s32", EXEC_FULL, 4, 1, 2);
        for (int i = 0; i < 32; i++)
            ck_assert_uint_eq(R64(4)[i], (uint64_t)((long long)(int32_t)R32(1)[i] * (int32_t)R32(2)[i]));
        RUN("mad.lo.s32", EXEC_FULL, 0, 1, 2, 3);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], R32(1)[i] * R32(2)[i] + R32(3)[i]);
        RUN("mad.hi.sat.s32", EXEC_FULL, 0, 1, 2, 3);
        for (int i = 0; i < 32; i++) {
            long long p = (long long)(int32_t)R32(1)[i] * (int32_t)R32(2)[i];
            long long s = (long long)(int32_t)(uint32_t)((unsigned long long)p >> 32) + (int32_t)R32(3)[i];
            if (s > 2147483647LL) s = 2147483647LL;
            if (s < -2147483648LL) s = -2147483648LL;
            ck_assert_uint_eq(R32(0)[i], (uint32_t)s);
        }
        RUN("mul24.hi.s32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++) {
            long long a = (long long)(R32(1)[i] & 0xffffff), b = (long long)(R32(2)[i] & 0xffffff);
            if (a & 0x800000) a -= 0x1000000;
            if (b & 0x800000) b -= 0x1000000;
            ck_assert_uint_eq(R32(0)[i], (uint32_t)((unsigned long long)(a * b) >> 16));
        }
        RUN("sad.s32", EXEC_FULL, 0, 1, 2, 3);
        for (int i = 0; i < 32; i++) {
            long long a = (int32_t)R32(1)[i], b = (int32_t)R32(2)[i];
            ck_assert_uint_eq(R32(0)[i], (uint32_t)(R32(3)[i] + (uint32_t)(a > b ? a - b : b - a)));
        }
        for (int i = 0; i < 32; i++) { R64(5)[i] = edge64(); R64(6)[i] = edge64(); }
        RUN("mul.hi.u64", EXEC_FULL, 4, 5, 6);
        for (int i = 0; i < 32; i++) {
            /* schoolbook 32x32 pieces */
            uint64_t a = R64(5)[i], b = R64(6)[i], al = a & 0xffffffff, ah = a >> 32, bl = b & 0xffffffff, bh = b >> 32;
            uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
            uint64_t mid = (ll >> 32) + (lh & 0xffffffff) + (hl & 0xffffffff);
            ck_assert_uint_eq(R64(4)[i], hh + (lh >> 32) + (hl >> 32) + (mid >> 32));
        }
    }
}
END_TEST

START_TEST(t_carry_chain)
{
    /* 128-bit add and sub from add.cc/addc.cc/addc chains vs unsigned __int128 */
    for (int round = 0; round < 100; round++) {
        unsigned __int128 A[32], B[32];
        for (int i = 0; i < 32; i++) {
            A[i] = (unsigned __int128)edge64() << 64 | edge64();
            B[i] = (unsigned __int128)edge64() << 64 | edge64();
            for (int k = 0; k < 4; k++) {
                R32(1 + k)[i] = (uint32_t)(A[i] >> (32 * k));
                R32(5 + k)[i] = (uint32_t)(B[i] >> (32 * k));
            }
        }
        int sub = round & 1;
        RUN(sub ? "sub.cc.u32" : "add.cc.u32", EXEC_FULL, 9, 1, 5);
        RUN(sub ? "subc.cc.u32" : "addc.cc.u32", EXEC_FULL, 10, 2, 6);
        RUN(sub ? "subc.cc.u32" : "addc.cc.u32", EXEC_FULL, 11, 3, 7);
        RUN(sub ? "subc.u32" : "addc.u32", EXEC_FULL, 12, 4, 8);
        for (int i = 0; i < 32; i++) {
            unsigned __int128 r = sub ? A[i] - B[i] : A[i] + B[i];
            for (int k = 0; k < 4; k++)
                ck_assert_uint_eq(R32(9 + k)[i], (uint32_t)(r >> (32 * k)));
        }
    }
    /* 64x64 -> 128 product with mad.lo.cc / madc.hi */
    for (int i = 0; i < 32; i++) { R64(1)[i] = edge64(); R64(2)[i] = edge64(); R64(3)[i] = edge64(); R64(4)[i] = edge64(); }
    RUN("mad.lo.cc.u64", EXEC_FULL, 5, 1, 2, 3);
    RUN("madc.hi.u64", EXEC_FULL, 6, 1, 2, 4);
    for (int i = 0; i < 32; i++) {
        unsigned __int128 r = (unsigned __int128)R64(1)[i] * R64(2)[i] + R64(3)[i] + ((unsigned __int128)R64(4)[i] << 64);
        ck_assert_uint_eq(R64(5)[i], (uint64_t)r);
        ck_assert_uint_eq(R64(6)[i], (uint64_t)(r >> 64));
    }
}
END_TEST

START_TEST(t_div_rem)
{
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 32; i++) {
            R32(1)[i] = edge32();
            R32(2)[i] = (i & 7) == 0 ? 0 : (i & 7) == 1 ? 0xffffffff : edge32();
        }
        R32(1)[9] = 0x80000000;
        RUN("div.u32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++)
            ck_assert_uint_eq(R32(0)[i], R32(2)[i] ? R32(1)[i] / R32(2)[i] : 0xffffffffu);
        RUN("rem.u32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++)
            ck_assert_uint_eq(R32(0)[i], R32(2)[i] ? R32(1)[i] % R32(2)[i] : R32(1)[i]);
        RUN("div.s32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++) {
            long long a = (int32_t)R32(1)[i], b = (int32_t)R32(2)[i];
            long long q = b == 0 ? (a < 0 ? 1 : -1) : a / b; /* exact in 64 bits */
            ck_assert_uint_eq(R32(0)[i], (uint32_t)q);
        }
        RUN("rem.s32", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++) {
            long long a = (int32_t)R32(1)[i], b = (int32_t)R32(2)[i];
            ck_assert_uint_eq(R32(0)[i], (uint32_t)(b == 0 ? a : a % b));
        }
    }
    for (int i = 0; i < 32; i++) { R64(1)[i] = 0x8000000000000000ull; R64(2)[i] = ~0ull; }
    RUN("div.s64", EXEC_FULL, 0, 1, 2);
    ck_assert_uint_eq(R64(0)[3], 0x8000000000000000ull);
    RUN("rem.s64", EXEC_FULL, 0, 1, 2);
    ck_assert_uint_eq(R64(0)[3], 0);
    for (int i = 0; i < 32; i++) { R16(1)[i] = 0x8000; R16(2)[i] = 0xffff; }
    RUN("div.s16", EXEC_FULL, 0, 1, 2);
    ck_assert_uint_eq(R16(0)[0], 0x8000);
    RUN("abs.s16", EXEC_FULL, 0, 1);
    ck_assert_uint_eq(R16(0)[0], 0x8000);
    RUN("neg.s16", EXEC_FULL, 0, 2);
    ck_assert_uint_eq(R16(0)[0], 1);
}
END_TEST

START_TEST(t_minmax_masks)
{
    for (int i = 0; i < 32; i++) { R32(1)[i] = edge32(); R32(2)[i] = edge32(); R32(0)[i] = 0xdeadbeef; }
    RUN("min.s32", 0x0000ff0f, 0, 1, 2);
    for (int i = 0; i < 32; i++) {
        int32_t a = (int32_t)R32(1)[i], b = (int32_t)R32(2)[i];
        ck_assert_uint_eq(R32(0)[i], (0x0000ff0fu >> i & 1) ? (uint32_t)(a < b ? a : b) : 0xdeadbeefu);
    }
    RUN("max.u32", EXEC_FULL, 0, 1, 2);
    for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], R32(1)[i] > R32(2)[i] ? R32(1)[i] : R32(2)[i]);
    RUN("max.relu.s32", EXEC_FULL, 0, 1, 2);
    for (int i = 0; i < 32; i++) {
        int32_t a = (int32_t)R32(1)[i], b = (int32_t)R32(2)[i], m = a > b ? a : b;
        ck_assert_uint_eq(R32(0)[i], (uint32_t)(m < 0 ? 0 : m));
    }
}
END_TEST

START_TEST(t_bitcount)
{
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 32; i++) {
            R32(1)[i] = edge32(); R64(2)[i] = edge64();
            R32(3)[i] = rnd32() % 80; R32(4)[i] = rnd32() % 80;
            if (i == 5) { R32(3)[i] = 0x1ff; R32(4)[i] = 0x205; }
        }
        RUN("popc.b32", EXEC_FULL, 0, 1);
        for (int i = 0; i < 32; i++) { uint32_t n = 0; for (int k = 0; k < 32; k++) n += R32(1)[i] >> k & 1; ck_assert_uint_eq(R32(0)[i], n); }
        RUN("popc.b64", EXEC_FULL, 0, 2);
        for (int i = 0; i < 32; i++) { uint32_t n = 0; for (int k = 0; k < 64; k++) n += R64(2)[i] >> k & 1; ck_assert_uint_eq(R32(0)[i], n); }
        RUN("clz.b32", EXEC_FULL, 0, 1);
        for (int i = 0; i < 32; i++) { uint32_t n = 0; while (n < 32 && !(R32(1)[i] >> (31 - n) & 1)) n++; ck_assert_uint_eq(R32(0)[i], n); }
        RUN("clz.b64", EXEC_FULL, 0, 2);
        for (int i = 0; i < 32; i++) { uint32_t n = 0; while (n < 64 && !(R64(2)[i] >> (63 - n) & 1)) n++; ck_assert_uint_eq(R32(0)[i], n); }
        RUN("brev.b32", EXEC_FULL, 0, 1);
        for (int i = 0; i < 32; i++) { uint32_t r = 0; for (int k = 0; k < 32; k++) r |= (R32(1)[i] >> k & 1) << (31 - k); ck_assert_uint_eq(R32(0)[i], r); }
        RUN("brev.b64", EXEC_FULL, 5, 2);
        for (int i = 0; i < 32; i++) { uint64_t r = 0; for (int k = 0; k < 64; k++) r |= (R64(2)[i] >> k & 1) << (63 - k); ck_assert_uint_eq(R64(5)[i], r); }
        static const char *bf[] = { "bfind.u32", "bfind.s32", "bfind.shiftamt.u32", "bfind.shiftamt.s32" };
        for (int k = 0; k < 4; k++) {
            RUN(bf[k], EXEC_FULL, 0, 1);
            for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], ref_bfind(R32(1)[i], 31, k & 1, k >> 1));
        }
        RUN("bfind.s64", EXEC_FULL, 0, 2);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], ref_bfind(R64(2)[i], 63, 1, 0));
        RUN("bfe.u32", EXEC_FULL, 0, 1, 3, 4);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], (uint32_t)ref_bfe(R32(1)[i], R32(3)[i], R32(4)[i], 31, 0));
        RUN("bfe.s32", EXEC_FULL, 0, 1, 3, 4);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], (uint32_t)ref_bfe(R32(1)[i], R32(3)[i], R32(4)[i], 31, 1));
        RUN("bfe.s64", EXEC_FULL, 5, 2, 3, 4);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R64(5)[i], ref_bfe(R64(2)[i], R32(3)[i], R32(4)[i], 63, 1));
        RUN("bfe.u64", EXEC_FULL, 5, 2, 3, 4);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R64(5)[i], ref_bfe(R64(2)[i], R32(3)[i], R32(4)[i], 63, 0));
        for (int i = 0; i < 32; i++) R32(6)[i] = edge32();
        RUN("bfi.b32", EXEC_FULL, 0, 1, 6, 3, 4);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], (uint32_t)ref_bfi(R32(1)[i], R32(6)[i], R32(3)[i], R32(4)[i], 31));
        for (int i = 0; i < 32; i++) R64(7)[i] = edge64();
        RUN("bfi.b64", EXEC_FULL, 5, 2, 7, 3, 4);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R64(5)[i], ref_bfi(R64(2)[i], R64(7)[i], R32(3)[i], R32(4)[i], 63));
        for (int i = 0; i < 32; i++) { R32(3)[i] = rnd32() % 40; R32(4)[i] = (uint32_t)((int32_t)(rnd32() % 80) - 40); }
        R32(4)[0] = 0x80000000u;
        RUN("fns.b32", EXEC_FULL, 0, 1, 3, 4);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], ref_fns(R32(1)[i], R32(3)[i], (int32_t)R32(4)[i]));
    }
}
END_TEST

START_TEST(t_dp)
{
    static const char *forms[] = { "dp4a.u32.u32", "dp4a.u32.s32", "dp4a.s32.u32", "dp4a.s32.s32" };
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < 32; i++) { R32(1)[i] = edge32(); R32(2)[i] = edge32(); R32(3)[i] = edge32(); }
        for (int f = 0; f < 4; f++) {
            RUN(forms[f], EXEC_FULL, 0, 1, 2, 3);
            for (int i = 0; i < 32; i++) {
                long long acc = (f == 0) ? (long long)R32(3)[i] : (long long)(int32_t)R32(3)[i];
                for (int k = 0; k < 4; k++) {
                    long long a = R32(1)[i] >> (8 * k) & 0xff, b = R32(2)[i] >> (8 * k) & 0xff;
                    if ((f & 2) && a > 127) a -= 256;
                    if ((f & 1) && b > 127) b -= 256;
                    acc += a * b;
                }
                ck_assert_uint_eq(R32(0)[i], (uint32_t)acc);
            }
        }
        RUN("dp2a.hi.s32.s32", EXEC_FULL, 0, 1, 2, 3);
        for (int i = 0; i < 32; i++) {
            long long acc = (int32_t)R32(3)[i];
            for (int k = 0; k < 2; k++) {
                long long a = (int16_t)(R32(1)[i] >> (16 * k)), b = (int8_t)(R32(2)[i] >> (8 * (2 + k)));
                acc += a * b;
            }
            ck_assert_uint_eq(R32(0)[i], (uint32_t)acc);
        }
    }
}
END_TEST

START_TEST(t_decode_errors)
{
    DECODE_FAILS("add.sat.u32", 0, 1, 2);
    DECODE_FAILS("add.foo.s32", 0, 1, 2);
    DECODE_FAILS("mul.wide.u64", 0, 1, 2);
    DECODE_FAILS("add.s32", 0, 1);
    DECODE_FAILS("bfe.b32", 0, 1, 2, 3);
    DECODE_FAILS("abs.u32", 0, 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("alu_int");
    TCase *tc = tcase_create("int");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, t_add_sub_mul);
    tcase_add_test(tc, t_carry_chain);
    tcase_add_test(tc, t_div_rem);
    tcase_add_test(tc, t_minmax_masks);
    tcase_add_test(tc, t_bitcount);
    tcase_add_test(tc, t_dp);
    tcase_add_test(tc, t_decode_errors);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
