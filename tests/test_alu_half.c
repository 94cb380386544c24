/* test_alu_half.c - f16/bf16 arithmetic and conversions (all 65536 f16 encodings) against _Float16 and grid-scan references. */
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

static uint16_t h16(_Float16 h) { uint16_t u; memcpy(&u, &h, 2); return u; }
static _Float16 f16of(uint16_t u) { _Float16 h; memcpy(&h, &u, 2); return h; }
static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

START_TEST(t_f16_to_f32_exhaustive)
{
    for (uint32_t base = 0; base < 65536; base += 32) {
        for (int i = 0; i < 32; i++) R16(1)[i] = (uint16_t)(base + (uint32_t)i);
        RUN("cvt.f32.f16", EXEC_FULL, 0, 1);
        for (int i = 0; i < 32; i++) {
            float want = (float)f16of(R16(1)[i]);
            ck_assert_uint_eq(fb(RF(0)[i]), want != want ? 0x7fffffffu : fb(want));
        }
        /* and back: f16 -> f32 -> f16 is the identity (NaN canonical) */
        RUN("cvt.rn.f16.f32", EXEC_FULL, 2, 0);
        for (int i = 0; i < 32; i++) {
            uint16_t h = R16(1)[i];
            int nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
            ck_assert_uint_eq(R16(2)[i], nan ? 0x7fff : h);
        }
    }
}
END_TEST

START_TEST(t_f32_to_f16_modes)
{
    /* reference: the two f16 neighbours found by scanning the sorted f16 grid */
    for (int round = 0; round < 300; round++) {
        for (int i = 0; i < 32; i++) {
            uint32_t u = (uint32_t)(rnd64() >> 32);
            u = (u & 0x807fffffu) | (uint32_t)(100 + (rnd64() >> 40) % 50) << 23;
            memcpy(&RF(1)[i], &u, 4);
        }
        static const char *m[4] = { "cvt.rn.f16.f32", "cvt.rz.f16.f32", "cvt.rm.f16.f32", "cvt.rp.f16.f32" };
        for (int k = 0; k < 4; k++) {
            RUN(m[k], EXEC_FULL, 0, 1);
            for (int i = 0; i < 32; i++) {
                double x = RF(1)[i], ax = fabs(x);
                uint16_t lo = 0;   /* largest magnitude encoding <= |x| */
                for (uint16_t e = 0; e < 0x7c00; e++) if ((double)(float)f16of(e) <= ax) lo = e; else break;
                uint16_t hi = lo + 1; /* 0x7c00 = inf */
                double vlo = (float)f16of(lo), vhi = (float)f16of(hi);
                uint16_t want;
                if (vlo == ax) want = lo;
                else if (k == 0) { double dl = ax - vlo, dh = vhi - ax; want = dl < dh ? lo : dh < dl ? hi : (lo & 1 ? hi : lo);
                                   if (lo == 0x7bff && ax >= 65520.0) want = 0x7c00; }
                else if (k == 1) want = lo;
                else if ((k == 2) == (x < 0)) want = hi; else want = lo;
                if (x < 0) want |= 0x8000;
                ck_assert_msg(R16(0)[i] == want, "%s %a got %04x want %04x", m[k], x, R16(0)[i], want);
            }
        }
    }
}
END_TEST

START_TEST(t_f16_arith)
{
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 32; i++) { R16(1)[i] = (uint16_t)rnd64(); R16(2)[i] = (uint16_t)rnd64(); R16(3)[i] = (uint16_t)rnd64(); }
        RUN("add.f16", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++) { _Float16 r = f16of(R16(1)[i]) + f16of(R16(2)[i]); ck_assert_uint_eq(R16(0)[i], r != r ? 0x7fff : h16(r)); }
        RUN("mul.f16", EXEC_FULL, 0, 1, 2);
        for (int i = 0; i < 32; i++) { _Float16 r = f16of(R16(1)[i]) * f16of(R16(2)[i]); ck_assert_uint_eq(R16(0)[i], r != r ? 0x7fff : h16(r)); }
        RUN("fma.rn.f16", EXEC_FULL, 0, 1, 2, 3);
        for (int i = 0; i < 32; i++) {
            /* exact in long double (products of f16 fit in 64 bits of mantissa), then RN via fmaf on the exact float parts */
            float a = (float)f16of(R16(1)[i]), b = (float)f16of(R16(2)[i]), c = (float)f16of(R16(3)[i]);
            long double ex = (long double)a * b + c;
            _Float16 r = (_Float16)ex;   /* gcc converts long double -> _Float16 in one rounding */
            uint16_t want = r != r ? 0x7fff : h16(r);
            if (!isnan((double)ex) && ex != 0 && (double)ex == (double)(float)ex) ck_assert_uint_eq(R16(0)[i], want);
        }
        RUN("add.f16x2", EXEC_FULL, 4, 5, 6);
    }
    /* .relu and min/max of f16x2 */
    for (int i = 0; i < 32; i++) { R32(5)[i] = 0xbc003c00u; R32(6)[i] = 0x7e003800u; }
    RUN("max.f16x2", EXEC_FULL, 4, 5, 6);
    ck_assert_uint_eq(R32(4)[0], 0xbc003c00u);
    RUN("min.NaN.f16x2", EXEC_FULL, 4, 5, 6);
    ck_assert_uint_eq(R32(4)[0], 0x7fff3800u);
    RUN("fma.rn.relu.f16x2", EXEC_FULL, 4, 5, 5, 5);  /* hi: -1*-1-1 = 0, lo: 1+1 = 2 */
    ck_assert_uint_eq(R32(4)[0], 0x00004000u);
}
END_TEST

START_TEST(t_cvt_int)
{
    float v[] = { 0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 2147483648.0f, -3e9f, NAN, INFINITY, -INFINITY, 1e-40f, -1e-40f, 4294967040.0f, 1e20f, -0.0f };
    for (int i = 0; i < 32; i++) RF(1)[i] = v[i % 16];
    static const char *m[4] = { "cvt.rni.s32.f32", "cvt.rzi.s32.f32", "cvt.rmi.s32.f32", "cvt.rpi.s32.f32" };
    for (int k = 0; k < 4; k++) {
        RUN(m[k], EXEC_FULL, 0, 1);
        for (int i = 0; i < 32; i++) {
            double x = RF(1)[i], r = k == 0 ? nearbyint(x) : k == 1 ? trunc(x) : k == 2 ? floor(x) : ceil(x);
            int32_t want = isnan(r) ? 0 : r >= 2147483647.0 ? INT32_MAX : r <= -2147483648.0 ? INT32_MIN : (int32_t)r;
            ck_assert_int_eq((int32_t)R32(0)[i], want);
        }
    }
    RUN("cvt.rmi.ftz.u32.f32", EXEC_FULL, 0, 1);
    ck_assert_uint_eq(R32(0)[12], 0);        /* -1e-40 flushed: floor(-0) = 0 */
    ck_assert_uint_eq(R32(0)[13], 4294967040u);
    ck_assert_uint_eq(R32(0)[14], 0xffffffffu);
    RUN("cvt.rmi.s32.f32", EXEC_FULL, 0, 1);
    ck_assert_int_eq((int32_t)R32(0)[12], -1);
    /* integer -> f32 in every mode against the host conversion in that mode */
    static const char *im[4] = { "cvt.rn.f32.s64", "cvt.rz.f32.s64", "cvt.rm.f32.s64", "cvt.rp.f32.s64" };
    static const int fe[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
    for (int round = 0; round < 100; round++) {
        for (int i = 0; i < 32; i++) R64(2)[i] = rnd64() >> (rnd64() % 64);
        for (int k = 0; k < 4; k++) {
            RUN(im[k], EXEC_FULL, 0, 2);
            for (int i = 0; i < 32; i++) {
                volatile int64_t x = (int64_t)R64(2)[i];
                volatile float r;
                fesetround(fe[k]); r = (float)x; fesetround(FE_TONEAREST);
                ck_assert_uint_eq(fb(RF(0)[i]), fb(r));
            }
        }
    }
    /* int -> int saturation */
    for (int i = 0; i < 32; i++) R32(1)[i] = (uint32_t)(i * 37 - 600);
    RUN("cvt.sat.u8.s32", EXEC_FULL, 0, 1);
    for (int i = 0; i < 32; i++) { int v2 = i * 37 - 600; ck_assert_uint_eq(R8(0)[i], v2 < 0 ? 0 : v2 > 255 ? 255 : v2); }
    RUN("cvt.s16.s32", EXEC_FULL, 0, 1);
    for (int i = 0; i < 32; i++) ck_assert_uint_eq(R16(0)[i], (uint16_t)(i * 37 - 600));
    /* pack forms */
    for (int i = 0; i < 32; i++) { RF(1)[i] = 1.0f; RF(2)[i] = -2.0f; }
    RUN("cvt.rn.f16x2.f32", EXEC_FULL, 0, 1, 2);
    ck_assert_uint_eq(R32(0)[0], 0x3c00c000u);
    RUN("cvt.rn.bf16x2.f32", EXEC_FULL, 0, 1, 2);
    ck_assert_uint_eq(R32(0)[0], 0x3f80c000u);
    for (int i = 0; i < 32; i++) { RF(1)[i] = 1000.0f; RF(2)[i] = 0.5f; }
    RUN("cvt.rn.satfinite.e4m3x2.f32", EXEC_FULL, 0, 1, 2);
    ck_assert_uint_eq(R16(0)[0], 0x7e30);   /* 448 (saturated) | 0.5 */
    RUN("cvt.rn.f16x2.e4m3x2", EXEC_FULL, 3, 0);
    ck_assert_uint_eq(R32(3)[0], 0x5f003800u); /* 448.0h | 0.5h */
    for (int i = 0; i < 32; i++) RF(1)[i] = 1.00048828125f; /* 1 + 2^-11: tf32 tie */
    RUN("cvt.rna.tf32.f32", EXEC_FULL, 0, 1);
    ck_assert_uint_eq(R32(0)[0], 0x3f802000u);
    DECODE_FAILS("cvt.rn.s32.f32", 0, 1);
    DECODE_FAILS("cvt.rzi.f32.s32", 0, 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("alu_half");
    TCase *tc = tcase_create("half");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, t_f16_to_f32_exhaustive);
    tcase_add_test(tc, t_f32_to_f16_modes);
    tcase_add_test(tc, t_f16_arith);
    tcase_add_test(tc, t_cvt_int);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
