/* alu_stub.h - stub decoder and fake warp so the ALU decode functions and handlers run without the rest of the core. */
/* Registers are numbered: operand code k >= 0 is register k (slot k), or predicate k where a
 * predicate is expected; OP_SINK is `_`; OP_PAIR(p, q) a p|q pair; OP_IMM(v) an integer
 * immediate. */
#ifndef ALU_STUB_H
#define ALU_STUB_H

#include "dec_stub.h"

#define NREG 16
#define OP_SINK -1
#define OP_PAIR(p, q) (100 + (p) * 10 + (q))
#define OP_IMM(v) (1000 + (v))
static uint8_t regblk[NREG * EXEC_SLOT * 2] __attribute__((aligned(64)));
static uint32_t predblk[NREG];
static uint8_t immpool[16][EXEC_SLOT] __attribute__((aligned(64)));
static int nimm;

ptx_type exec_dec_type(const ptx_insn *pi, int k) { (void)pi; (void)k; return PTX_T_NONE; }
void *exec_dec_alloc(exec_dec *d, size_t n) { (void)d; (void)n; return n <= EXEC_SLOT && nimm < 16 ? immpool[nimm++] : NULL; }
static inline int tbits(ptx_type t)
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
static inline int pred_op(exec_insn *in, int k, const ptx_operand *o, int dst)
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

static const stub_dec dectab[] = {
    {"add", exec_dec_add}, {"sub", exec_dec_sub}, {"mul", exec_dec_mul}, {"mad", exec_dec_mad}, {"mul24", exec_dec_mul24},
    {"mad24", exec_dec_mad24}, {"sad", exec_dec_sad}, {"div", exec_dec_div}, {"rem", exec_dec_rem}, {"abs", exec_dec_abs},
    {"neg", exec_dec_neg}, {"min", exec_dec_min}, {"max", exec_dec_max}, {"popc", exec_dec_popc}, {"clz", exec_dec_clz},
    {"bfind", exec_dec_bfind}, {"fns", exec_dec_fns}, {"brev", exec_dec_brev}, {"bfe", exec_dec_bfe}, {"bfi", exec_dec_bfi},
    {"dp4a", exec_dec_dp4a}, {"dp2a", exec_dec_dp2a}, {"addc", exec_dec_addc}, {"subc", exec_dec_subc},
    {"madc", exec_dec_madc}, {"testp", exec_dec_testp}, {"copysign", exec_dec_copysign}, {"fma", exec_dec_fma},
    {"rcp", exec_dec_rcp}, {"sqrt", exec_dec_sqrt}, {"rsqrt", exec_dec_rsqrt}, {"sin", exec_dec_sin}, {"cos", exec_dec_cos},
    {"lg2", exec_dec_lg2}, {"ex2", exec_dec_ex2}, {"tanh", exec_dec_tanh}, {"set", exec_dec_set}, {"setp", exec_dec_setp},
    {"selp", exec_dec_selp}, {"slct", exec_dec_slct}, {"and", exec_dec_and}, {"or", exec_dec_or}, {"xor", exec_dec_xor},
    {"not", exec_dec_not}, {"cnot", exec_dec_cnot}, {"lop3", exec_dec_lop3}, {"shf", exec_dec_shf}, {"shl", exec_dec_shl},
    {"shr", exec_dec_shr}, {"prmt", exec_dec_prmt}, {"cvt", exec_dec_cvt},
};

static ptx_sym syms[NREG];
static ptx_operand opnds[8], pairel[8][2];

/* Decode "add.sat.s32" with operand codes; returns 0 or -1 (message in errbuf). */
static inline int decode(const char *text, int nops, const int *codes)
{
    static char buf[128];
    static const char *mods[16];
    static ptx_insn pi;
    memset(&pi, 0, sizeof pi);
    memset(&cur, 0, sizeof cur);
    nimm = 0;
    errbuf[0] = 0;
    stub_opcode(&pi, buf, sizeof buf, mods, text);
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
    return stub_dispatch(dectab, sizeof dectab / sizeof dectab[0], &pi);
}
static inline void exec_m(uint32_t m) { stub_exec(regblk, predblk, m); }
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

#endif
