/* test_alu_bits.c - logic, lop3 (all 256 LUTs), prmt (every mode), shifts, setp/set/selp/slct against scalar references. */
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

/* prmt mode table exactly as printed in the spec: d.b3 d.b2 d.b1 d.b0 per selector. */
static const int spec_prmt[6][4][4] = {
    { {3,2,1,0}, {4,3,2,1}, {5,4,3,2}, {6,5,4,3} },  /* f4e */
    { {5,6,7,0}, {6,7,0,1}, {7,0,1,2}, {0,1,2,3} },  /* b4e */
    { {0,0,0,0}, {1,1,1,1}, {2,2,2,2}, {3,3,3,3} },  /* rc8 */
    { {3,2,1,0}, {3,2,1,1}, {3,2,2,2}, {3,3,3,3} },  /* ecl */
    { {0,0,0,0}, {1,1,1,0}, {2,2,1,0}, {3,2,1,0} },  /* ecr */
    { {1,0,1,0}, {3,2,3,2}, {1,0,1,0}, {3,2,3,2} },  /* rc16 */
};
static const char *prmt_modes[6] = { "prmt.b32.f4e", "prmt.b32.b4e", "prmt.b32.rc8", "prmt.b32.ecl", "prmt.b32.ecr", "prmt.b32.rc16" };

START_TEST(t_lop3_all)
{
    for (int i = 0; i < 32; i++) { R32(1)[i] = edge32(); R32(2)[i] = edge32(); R32(3)[i] = edge32(); }
    for (int lut = 0; lut < 256; lut++) {
        RUN("lop3.b32", EXEC_FULL, 0, 1, 2, 3, OP_IMM(lut));
        for (int i = 0; i < 32; i++) {
            uint32_t r = 0;
            for (int k = 0; k < 32; k++) {
                int idx = (int)((R32(1)[i] >> k & 1) << 2 | (R32(2)[i] >> k & 1) << 1 | (R32(3)[i] >> k & 1));
                r |= (uint32_t)(lut >> idx & 1) << k;
            }
            ck_assert_uint_eq(R32(0)[i], r);
        }
    }
    /* the LUT is F(0xF0, 0xCC, 0xAA) */
    for (int i = 0; i < 32; i++) { R32(1)[i] = 0xF0; R32(2)[i] = 0xCC; R32(3)[i] = 0xAA; }
    for (int lut = 0; lut < 256; lut++) {
        RUN("lop3.b32", EXEC_FULL, 0, 1, 2, 3, OP_IMM(lut));
        ck_assert_uint_eq(R32(0)[7] & 0xff, (uint32_t)lut);
    }
    DECODE_FAILS("lop3.b32", 0, 1, 2, 3, OP_IMM(256));
}
END_TEST

START_TEST(t_prmt_all)
{
    for (int round = 0; round < 20; round++) {
        for (int i = 0; i < 32; i++) { R32(1)[i] = rnd32(); R32(2)[i] = rnd32(); R32(3)[i] = rnd32(); }
        for (int md = 0; md < 6; md++) {
            RUN(prmt_modes[md], EXEC_FULL, 0, 1, 2, 3);
            for (int i = 0; i < 32; i++) {
                uint8_t bytes[8];
                for (int k = 0; k < 4; k++) { bytes[k] = (uint8_t)(R32(1)[i] >> (8 * k)); bytes[4 + k] = (uint8_t)(R32(2)[i] >> (8 * k)); }
                const int *row = spec_prmt[md][R32(3)[i] & 3];
                uint32_t want = (uint32_t)bytes[row[0]] << 24 | (uint32_t)bytes[row[1]] << 16 | (uint32_t)bytes[row[2]] << 8 | bytes[row[3]];
                ck_assert_uint_eq(R32(0)[i], want);
            }
        }
    }
    /* generic form: every selector nibble value in every byte position */
    for (int i = 0; i < 32; i++) { R32(1)[i] = 0x83027f01u ^ (uint32_t)i; R32(2)[i] = 0xff80407fu; }
    for (uint32_t sel = 0; sel < 65536; sel += 7) {
        for (int i = 0; i < 32; i++) R32(3)[i] = sel + (uint32_t)i * 0x10000u;
        RUN("prmt.b32", EXEC_FULL, 0, 1, 2, 3);
        for (int i = 0; i < 32; i++) {
            uint32_t want = 0;
            for (int k = 0; k < 4; k++) {
                uint32_t s = sel >> (4 * k) & 15, src = s & 7;
                uint32_t byte = (src < 4 ? R32(1)[i] >> (8 * src) : R32(2)[i] >> (8 * (src - 4))) & 0xff;
                if (s & 8) byte = (byte >> 7) ? 0xff : 0;
                want |= byte << (8 * k);
            }
            ck_assert_uint_eq(R32(0)[i], want);
        }
    }
}
END_TEST

START_TEST(t_shifts)
{
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < 32; i++) { R32(1)[i] = edge32(); R32(2)[i] = edge32(); R32(3)[i] = (round & 1) ? rnd32() % 70 : edge32(); R64(4)[i] = edge64(); }
        RUN("shl.b32", EXEC_FULL, 0, 1, 3);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], R32(3)[i] >= 32 ? 0 : R32(1)[i] << R32(3)[i]);
        RUN("shr.u32", EXEC_FULL, 0, 1, 3);
        for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], R32(3)[i] >= 32 ? 0 : R32(1)[i] >> R32(3)[i]);
        RUN("shr.s32", EXEC_FULL, 0, 1, 3);
        for (int i = 0; i < 32; i++) {
            long long v = (int32_t)R32(1)[i];
            uint32_t n = R32(3)[i] > 40 ? 40 : R32(3)[i];
            ck_assert_uint_eq(R32(0)[i], (uint32_t)(long long)floorl((long double)v / powl(2, n)));
        }
        RUN("shr.s64", EXEC_FULL, 5, 4, 3);
        for (int i = 0; i < 32; i++) {
            uint64_t v = R64(4)[i], sgn = v >> 63;
            uint64_t want = v;
            for (uint32_t k = 0; k < R32(3)[i] && k < 70; k++) want = (want >> 1) | (sgn << 63);
            ck_assert_uint_eq(R64(5)[i], want);
        }
        static const char *shf[4] = { "shf.l.wrap.b32", "shf.l.clamp.b32", "shf.r.wrap.b32", "shf.r.clamp.b32" };
        for (int f = 0; f < 4; f++) {
            RUN(shf[f], EXEC_FULL, 0, 1, 2, 3);
            for (int i = 0; i < 32; i++) {
                unsigned __int128 t = (unsigned __int128)((uint64_t)R32(2)[i] << 32 | R32(1)[i]);
                uint32_t n = (f & 1) ? (R32(3)[i] > 32 ? 32 : R32(3)[i]) : (R32(3)[i] & 31);
                uint32_t want = (f < 2) ? (uint32_t)((t << n) >> 32) : (uint32_t)(t >> n);
                ck_assert_uint_eq(R32(0)[i], want);
            }
        }
    }
}
END_TEST

START_TEST(t_logic_pred)
{
    predblk[1] = 0xf0f0f0f0; predblk[2] = 0xff00ff00; predblk[0] = 0x12345678;
    RUN("and.pred", 0x0000ffff, 0, 1, 2);
    ck_assert_uint_eq(predblk[0], 0x1234f000);
    RUN("xor.pred", EXEC_FULL, 3, 1, 2);
    ck_assert_uint_eq(predblk[3], 0x0ff00ff0);
    RUN("not.pred", EXEC_FULL, 3, 1);
    ck_assert_uint_eq(predblk[3], 0x0f0f0f0f);
    for (int i = 0; i < 32; i++) { R64(1)[i] = i & 1 ? 0 : edge64() | 1; R16(2)[i] = (uint16_t)(i & 2); }
    RUN("cnot.b64", EXEC_FULL, 3, 1);
    for (int i = 0; i < 32; i++) ck_assert_uint_eq(R64(3)[i], (uint64_t)(i & 1));
    RUN("not.b16", EXEC_FULL, 4, 2);
    for (int i = 0; i < 32; i++) ck_assert_uint_eq(R16(4)[i], (uint16_t)~(i & 2));
    DECODE_FAILS("cnot.pred", 0, 1);
    DECODE_FAILS("shl.s32", 0, 1, 2);
}
END_TEST

START_TEST(t_compare)
{
    static const char *ops[] = { "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan" };
    float vals[] = { 0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, 1e-40f, 3.0f };
    for (int i = 0; i < 32; i++) { RF(1)[i] = vals[i % 9]; RF(2)[i] = vals[(i / 3) % 9]; }
    predblk[5] = 0xaaaaaaaa;
    for (int k = 0; k < 14; k++) {
        char name[64];
        snprintf(name, sizeof name, "setp.%s.and.f32", ops[k]);
        RUN(name, EXEC_FULL, OP_PAIR(3, 4), 1, 2, 5);
        for (int i = 0; i < 32; i++) {
            float a = RF(1)[i], b = RF(2)[i];
            int un = isnan(a) || isnan(b), r;
            switch (k) {
            case 0: r = !un && a == b; break;
            case 1: r = !un && a != b; break;
            case 2: r = !un && a < b; break;
            case 3: r = !un && a <= b; break;
            case 4: r = !un && a > b; break;
            case 5: r = !un && a >= b; break;
            case 6: r = un || a == b; break;
            case 7: r = un || a != b; break;
            case 8: r = un || a < b; break;
            case 9: r = un || a <= b; break;
            case 10: r = un || a > b; break;
            case 11: r = un || a >= b; break;
            case 12: r = !un; break;
            default: r = un; break;
            }
            int c = (int)(predblk[5] >> i & 1);
            ck_assert_int_eq((int)(predblk[3] >> i & 1), r && c);
            ck_assert_int_eq((int)(predblk[4] >> i & 1), !r && c);
        }
    }
    /* integer unsigned operators on signed types, set to u32 / f32 */
    for (int i = 0; i < 32; i++) { R32(1)[i] = edge32(); R32(2)[i] = edge32(); }
    RUN("setp.lo.s32", EXEC_FULL, 3, 1, 2);
    RUN("set.lt.u32.s32", EXEC_FULL, 0, 1, 2);
    for (int i = 0; i < 32; i++) {
        ck_assert_int_eq((int)(predblk[3] >> i & 1), R32(1)[i] < R32(2)[i]);
        ck_assert_uint_eq(R32(0)[i], (int32_t)R32(1)[i] < (int32_t)R32(2)[i] ? 0xffffffffu : 0);
    }
    RUN("set.ge.f32.u32", EXEC_FULL, 0, 1, 2);
    for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], R32(1)[i] >= R32(2)[i] ? 0x3f800000u : 0);
    /* selp / slct */
    predblk[6] = 0x0f0f0f0f;
    RUN("selp.b32", EXEC_FULL, 0, 1, 2, 6);
    for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], (0x0f0f0f0fu >> i & 1) ? R32(1)[i] : R32(2)[i]);
    for (int i = 0; i < 32; i++) RF(3)[i] = vals[i % 9];
    RUN("slct.b32.f32", EXEC_FULL, 0, 1, 2, 3);
    for (int i = 0; i < 32; i++) ck_assert_uint_eq(R32(0)[i], RF(3)[i] >= 0 ? R32(1)[i] : R32(2)[i]);
    DECODE_FAILS("setp.ltu.s32", 3, 1, 2);
    DECODE_FAILS("setp.lo.f32", 3, 1, 2);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("alu_bits");
    TCase *tc = tcase_create("bits");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, t_lop3_all);
    tcase_add_test(tc, t_prmt_all);
    tcase_add_test(tc, t_shifts);
    tcase_add_test(tc, t_logic_pred);
    tcase_add_test(tc, t_compare);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
