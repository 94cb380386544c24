/* test_alu_float.c - f32/f64 arithmetic: every rounding mode against the host FPU in that mode, NaN/FTZ/sat rules. */
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

static float rndf(void)
{
    uint64_t r = rnd64();
    uint32_t u = (uint32_t)r;
    switch (r >> 60) {
    case 0: return (float)(int)(r >> 40 & 255) - 100.0f;
    case 1: u &= 0x807fffffu; break;                       /* subnormal */
    default: u = (u & 0x807fffffu) | (uint32_t)(100 + (r >> 33) % 56) << 23; break; /* near 1 */
    case 15: break;                                         /* anything */
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint32_t canon(float f) { return f != f ? 0x7fffffffu : fbits(f); }
/* Reference: the host FPU in the requested rounding mode (an independent method). */
static float ref_f32(int op, float a, float b, float c, int fe)
{
    volatile float va = a, vb = b, vc = c, r;
    fesetround(fe);
    switch (op) {
    case 0: r = va + vb; break;
    case 1: r = va * vb; break;
    case 2: r = fmaf(va, vb, vc); break;
    case 3: r = va / vb; break;
    default: r = sqrtf(va); break;
    }
    fesetround(FE_TONEAREST);
    return r;
}

START_TEST(t_f32_rounding)
{
    static const char *rn[4] = { "rn", "rz", "rm", "rp" };
    static const int fe[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
    static const char *opn[5] = { "add", "mul", "fma", "div", "sqrt" };
    for (int round = 0; round < 300; round++) {
        for (int i = 0; i < 32; i++) { RF(1)[i] = rndf(); RF(2)[i] = rndf(); RF(3)[i] = rndf(); }
        if (round == 0) { RF(1)[0] = 1.0f; RF(2)[0] = -1.0f; RF(1)[1] = INFINITY; RF(2)[1] = -INFINITY; RF(2)[2] = 0.0f; }
        for (int op = 0; op < 5; op++)
            for (int m = 0; m < 4; m++) {
                char name[64];
                snprintf(name, sizeof name, "%s.%s.f32", opn[op], rn[m]);
                if (op == 2) RUN(name, EXEC_FULL, 0, 1, 2, 3);
                else if (op == 4) RUN(name, EXEC_FULL, 0, 1);
                else RUN(name, EXEC_FULL, 0, 1, 2);
                for (int i = 0; i < 32; i++) {
                    float want = ref_f32(op, RF(1)[i], RF(2)[i], RF(3)[i], fe[m]);
                    ck_assert_msg(fbits(RF(0)[i]) == canon(want), "%s %a %a %a: got %a want %a", name,
                                  (double)RF(1)[i], (double)RF(2)[i], (double)RF(3)[i], (double)RF(0)[i], (double)want);
                }
            }
    }
}
END_TEST

START_TEST(t_f64_rounding)
{
    static const char *rn[4] = { "rn", "rz", "rm", "rp" };
    static const int fe[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 32; i++) {
            RD(1)[i] = ldexp((double)(int64_t)rnd64(), (int)(rnd64() % 120) - 120);
            RD(2)[i] = ldexp((double)(int64_t)rnd64(), (int)(rnd64() % 120) - 120);
        }
        RD(1)[0] = 1.7976931348623157e308; RD(2)[0] = 1.7976931348623157e308;
        RD(1)[1] = 1.0; RD(2)[1] = -1.0;
        for (int m = 0; m < 4; m++) {
            char name[64];
            snprintf(name, sizeof name, "add.%s.f64", rn[m]);
            RUN(name, EXEC_FULL, 0, 1, 2);
            for (int i = 0; i < 32; i++) {
                volatile double a = RD(1)[i], b = RD(2)[i], r;
                fesetround(fe[m]); r = a + b; fesetround(FE_TONEAREST);
                ck_assert_msg(memcmp((const void *)&r, &RD(0)[i], 8) == 0, "%s %a %a got %a want %a", name, a, b, RD(0)[i], r);
            }
        }
    }
}
END_TEST

START_TEST(t_f32_special)
{
    float v[8] = { NAN, 1.0f, -0.0f, 0.0f, 1e-40f, -1e-40f, INFINITY, -2.0f };
    for (int i = 0; i < 32; i++) { RF(1)[i] = v[i % 8]; RF(2)[i] = v[i / 4 % 8]; }
    RUN("min.f32", EXEC_FULL, 0, 1, 2);
    for (int i = 0; i < 32; i++) {
        float a = RF(1)[i], b = RF(2)[i];
        uint32_t want = isnan(a) && isnan(b) ? 0x7fffffffu : isnan(a) ? fbits(b) : isnan(b) ? fbits(a)
                        : (a == 0 && b == 0) ? (fbits(a) | fbits(b)) : fbits(a < b ? a : b);
        ck_assert_uint_eq(fbits(RF(0)[i]), want);
    }
    RUN("max.NaN.f32", EXEC_FULL, 0, 1, 2);
    for (int i = 0; i < 32; i++) {
        float a = RF(1)[i], b = RF(2)[i];
        uint32_t want = isnan(a) || isnan(b) ? 0x7fffffffu : (a == 0 && b == 0) ? (fbits(a) & fbits(b)) : fbits(a > b ? a : b);
        ck_assert_uint_eq(fbits(RF(0)[i]), want);
    }
    RUN("add.ftz.f32", EXEC_FULL, 0, 1, 2);
    for (int i = 0; i < 32; i++) {
        float a = RF(1)[i], b = RF(2)[i];
        if (fabsf(a) < 1e-38f) a = copysignf(0.0f, a);
        if (fabsf(b) < 1e-38f) b = copysignf(0.0f, b);
        ck_assert_uint_eq(fbits(RF(0)[i]), canon(a + b));
    }
    RUN("mul.sat.f32", EXEC_FULL, 0, 1, 2);
    for (int i = 0; i < 32; i++) {
        float p = RF(1)[i] * RF(2)[i];
        float want = isnan(p) ? 0.0f : p < 0 ? 0.0f : p > 1 ? 1.0f : p;
        ck_assert_uint_eq(fbits(RF(0)[i]), fbits(want) & (p < 0 || (p == 0 && signbit(p)) ? 0 : ~0u));
    }
    RUN("sub.f32", EXEC_FULL, 0, 6, 6); /* INFINITY - INFINITY in reg 6? fill first */
    for (int i = 0; i < 32; i++) RF(6)[i] = INFINITY;
    RUN("sub.f32", EXEC_FULL, 0, 6, 6);
    ck_assert_uint_eq(fbits(RF(0)[0]), 0x7fffffffu);
    RUN("testp.subnormal.f32", EXEC_FULL, 7, 1);
    for (int i = 0; i < 32; i++) ck_assert_int_eq((int)(predblk[7] >> i & 1), fpclassify(RF(1)[i]) == FP_SUBNORMAL);
    RUN("testp.notanumber.f32", EXEC_FULL, 7, 1);
    for (int i = 0; i < 32; i++) ck_assert_int_eq((int)(predblk[7] >> i & 1), isnan(RF(1)[i]) != 0);
    RUN("copysign.f32", EXEC_FULL, 0, 1, 2);
    for (int i = 0; i < 32; i++) ck_assert_uint_eq(fbits(RF(0)[i]), (fbits(RF(2)[i]) & 0x7fffffffu) | (fbits(RF(1)[i]) & 0x80000000u));
    /* approximations stay within 2 ulp of the correctly rounded value */
    for (int i = 0; i < 32; i++) RF(1)[i] = rndf();
    RUN("ex2.approx.f32", EXEC_FULL, 0, 1);
    for (int i = 0; i < 32; i++) {
        float want = exp2f(RF(1)[i]);
        if (!isnan(want) && !isinf(want) && want != 0) ck_assert_msg(fabsf(RF(0)[i] - want) <= 2 * (nextafterf(fabsf(want), INFINITY) - fabsf(want)), "ex2");
    }
    RUN("rcp.approx.ftz.f64", EXEC_FULL, 0, 1); /* decodes; gross approximation */
    DECODE_FAILS("div.f32", 0, 1, 2);
    DECODE_FAILS("add.ftz.f64", 0, 1, 2);
    DECODE_FAILS("sin.f32", 0, 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("alu_float");
    TCase *tc = tcase_create("float");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, t_f32_rounding);
    tcase_add_test(tc, t_f64_rounding);
    tcase_add_test(tc, t_f32_special);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
