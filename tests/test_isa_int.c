/* test_isa_int.c - end-to-end integer, bit, logic, shift, compare and select instructions against scalar transcriptions of the spec. */
#include "isa_harness.h"

typedef unsigned __int128 u128;
typedef __int128 s128;

/* Value of bits `b` of v as signed / unsigned. */
static int64_t sx(uint64_t v, int b) { return b == 64 ? (int64_t)v : (int64_t)(v << (64 - b)) >> (64 - b); }
static uint64_t zx(uint64_t v, int b) { return v & isa_mask(b); }
static uint64_t bit(uint64_t v, int i) { return v >> i & 1; }

enum {
    ADD, SUB, ADDSAT, SUBSAT, MULLO, MULHI, MULWIDE, MADLO, MADHI, MADHISAT, MADWIDE,
    ADDCHAIN, SUBCHAIN, MADCHAIN, MUL24LO, MUL24HI, MAD24LO, MAD24HI, MAD24HISAT, SAD,
    DIV, REM, ABS, NEG, MIN, MAX, MINRELU, MAXRELU, X2ADD, X2SUB, X2MIN, X2MAX, X2MINR, X2MAXR,
    POPC, CLZ, BFIND, BFINDSH, BREV, BFE, BFI, FNS, DP4A, DP2ALO, DP2AHI,
    AND, OR, XOR, NOT, CNOT, PAND, POR, PXOR, PNOT, LOP3, SHFLW, SHFLC, SHFRW, SHFRC,
    SHL, SHR, PRMT, PRMTM, SETP, SELP, SLCT, SET,
};

typedef struct {
    const char *code, *in, *out;
    int op, bits, sgn, aux, aux2;
    const char *decl;
} irow;

static uint64_t bfe_ref(uint64_t a, uint64_t b, uint64_t c, int msb, int sgn)
{
    int pos = (int)(b & 0xff), len = (int)(c & 0xff);
    uint64_t sbit = (!sgn || len == 0) ? 0 : bit(a, pos + len - 1 < msb ? pos + len - 1 : msb);
    uint64_t d = 0;
    for (int i = 0; i <= msb; i++)
        d |= ((i < len && pos + i <= msb) ? bit(a, pos + i) : sbit) << i;
    return d;
}
static uint64_t bfi_ref(uint64_t a, uint64_t b, uint64_t c, uint64_t dd, int msb)
{
    int pos = (int)(c & 0xff), len = (int)(dd & 0xff);
    uint64_t f = b;
    for (int i = 0; i < len && pos + i <= msb; i++)
        f = (f & ~(1ull << (pos + i))) | bit(a, i) << (pos + i);
    return f;
}
static uint64_t bfind_ref(uint64_t a, int msb, int sgn, int sh)
{
    int64_t d = -1;
    uint64_t s = sgn ? bit(a, msb) : 0;
    for (int i = msb; i >= 0; i--)
        if (bit(a, i) != s) {
            d = i;
            break;
        }
    if (sh && d != -1)
        d = msb - d;
    return (uint32_t)d;
}
static uint64_t fns_ref(uint32_t mask, uint32_t base, int32_t offset)
{
    uint32_t d = 0xffffffffu;
    if (offset == 0) {
        if (base < 32 && bit(mask, (int)base))
            d = base;
    } else {
        int64_t pos = base, count = (offset > 0 ? (int64_t)offset : -(int64_t)offset) - 1;
        int inc = offset > 0 ? 1 : -1;
        while (pos >= 0 && pos < 32) {
            if (bit(mask, (int)pos)) {
                if (count == 0) {
                    d = (uint32_t)pos;
                    break;
                }
                count--;
            }
            pos += inc;
        }
    }
    return d;
}
static const int prmt_modes[6][4][4] = { /* [mode][c&3] = {b3, b2, b1, b0} sources, spec table */
    { {3, 2, 1, 0}, {4, 3, 2, 1}, {5, 4, 3, 2}, {6, 5, 4, 3} },
    { {5, 6, 7, 0}, {6, 7, 0, 1}, {7, 0, 1, 2}, {0, 1, 2, 3} },
    { {0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3} },
    { {3, 2, 1, 0}, {3, 2, 1, 1}, {3, 2, 2, 2}, {3, 3, 3, 3} },
    { {0, 0, 0, 0}, {1, 1, 1, 0}, {2, 2, 1, 0}, {3, 2, 1, 0} },
    { {1, 0, 1, 0}, {3, 2, 3, 2}, {1, 0, 1, 0}, {3, 2, 3, 2} },
};
static uint64_t prmt_ref(uint32_t a, uint32_t b, uint32_t c, int mode)
{
    uint8_t by[8];
    for (int k = 0; k < 4; k++) {
        by[k] = (uint8_t)(a >> (8 * k));
        by[k + 4] = (uint8_t)(b >> (8 * k));
    }
    uint32_t d = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t v;
        if (mode < 0) {
            uint32_t sel = c >> (4 * k) & 15;
            v = by[sel & 7];
            if (sel & 8)
                v = (v & 0x80) ? 0xff : 0;
        } else {
            v = by[prmt_modes[mode][c & 3][3 - k]];
        }
        d |= v << (8 * k);
    }
    return d;
}
static int icmp(int cmp, uint64_t a, uint64_t b, int bits, int sgn)
{
    int64_t x = sgn ? sx(a, bits) : (int64_t)0, y = sgn ? sx(b, bits) : 0;
    uint64_t ux = zx(a, bits), uy = zx(b, bits);
    switch (cmp) {
    case 0: return ux == uy;
    case 1: return ux != uy;
    case 2: return sgn ? x < y : ux < uy;
    case 3: return sgn ? x <= y : ux <= uy;
    case 4: return sgn ? x > y : ux > uy;
    case 5: return sgn ? x >= y : ux >= uy;
    case 6: return ux < uy;
    case 7: return ux <= uy;
    case 8: return ux > uy;
    default: return ux >= uy;
    }
}
static int fcmp(int cmp, double x, double y)
{
    int un = x != x || y != y;
    switch (cmp) {
    case 0: return !un && x == y;
    case 1: return !un && x != y;
    case 2: return !un && x < y;
    case 3: return !un && x <= y;
    case 4: return !un && x > y;
    case 5: return !un && x >= y;
    case 6: return un || x == y;
    case 7: return un || x != y;
    case 8: return un || x < y;
    case 9: return un || x <= y;
    case 10: return un || x > y;
    case 11: return un || x >= y;
    case 12: return !un;
    default: return un;
    }
}
static double fval(uint64_t v, int bits)
{
    if (bits == 64) return isa_d(v);
    if (bits == 32) return isa_f(v);
    uint16_t u = (uint16_t)v;
    _Float16 h;
    memcpy(&h, &u, 2);
    return (double)h;
}

static void ref_int(const uint64_t *in, uint64_t *out, const void *ctx)
{
    const irow *r = ctx;
    int b = r->bits, s = r->sgn;
    uint64_t a0 = in[0], a1 = in[1], a2 = in[2];
    s128 A = s ? sx(a0, b) : (s128)zx(a0, b), B = s ? sx(a1, b) : (s128)zx(a1, b);
    s128 C = s ? sx(a2, b) : (s128)zx(a2, b);
    uint64_t M = isa_mask(b);
    /* full product: signed fits in s128; unsigned 64x64 needs the unsigned type */
    u128 P = s ? (u128)(A * B) : (u128)zx(a0, b) * zx(a1, b);
    s128 PS = s ? A * B : 0;
    switch (r->op) {
    case ADD: out[0] = (uint64_t)(A + B) & M; break;
    case SUB: out[0] = (uint64_t)(A - B) & M; break;
    case ADDSAT: case SUBSAT: {
        s128 v = r->op == ADDSAT ? A + B : A - B;
        out[0] = (uint64_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v) & M;
        break;
    }
    case MULLO: out[0] = (uint64_t)P & M; break;
    case MULHI: out[0] = (uint64_t)(s ? (u128)(PS >> b) : P >> b) & M; break;
    case MULWIDE: out[0] = (uint64_t)P & isa_mask(2 * b); break;
    case MADLO: out[0] = (uint64_t)(P + (u128)C) & M; break;
    case MADHI: out[0] = (uint64_t)((s ? (u128)(PS >> b) : P >> b) + (u128)C) & M; break;
    case MADHISAT: {
        s128 v = ((A * B) >> 32) + C;
        out[0] = (uint64_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v) & M;
        break;
    }
    case MADWIDE: out[0] = (uint64_t)(A * B + (s ? (s128)sx(a2, 2 * b) : (s128)zx(a2, 2 * b))) & isa_mask(2 * b); break;
    case ADDCHAIN: case SUBCHAIN: {
        /* 96-bit (3 x u32) add or subtract, carry through CC.CF; d3 = final carry/borrow via addc 0,0 */
        u128 x = (u128)zx(in[0], 32) | (u128)zx(in[2], 32) << 32 | (u128)zx(in[4], 32) << 64;
        u128 y = (u128)zx(in[1], 32) | (u128)zx(in[3], 32) << 32 | (u128)zx(in[5], 32) << 64;
        u128 z = r->op == ADDCHAIN ? x + y : x - y;
        for (int k = 0; k < 3; k++) out[k] = (uint64_t)(z >> (32 * k)) & 0xffffffffu;
        out[3] = (uint64_t)(z >> 96) & 1;
        break;
    }
    case MADCHAIN: {
        /* 64-bit accumulate of a 32x32 product: {d1:d0} = a*b + {c1:c0} via mad.lo.cc / madc.hi */
        u128 p = (u128)zx(in[0], 32) * zx(in[1], 32) + (zx(in[2], 32) | zx(in[3], 32) << 32);
        out[0] = (uint64_t)p & 0xffffffffu;
        out[1] = (uint64_t)(p >> 32) & 0xffffffffu;
        break;
    }
    case MUL24LO: case MUL24HI: case MAD24LO: case MAD24HI: case MAD24HISAT: {
        s128 x = s ? sx(a0, 24) : (s128)zx(a0, 24), y = s ? sx(a1, 24) : (s128)zx(a1, 24), p = x * y;
        s128 v = (r->op == MUL24HI || r->op == MAD24HI || r->op == MAD24HISAT) ? (s128)(p >> 16) : p;
        if (r->op == MAD24HISAT) {
            v = sx((uint64_t)v, 32) + C;
            v = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
        } else if (r->op >= MAD24LO) {
            v += C;
        }
        out[0] = (uint64_t)v & M;
        break;
    }
    case SAD: out[0] = (uint64_t)(C + (A > B ? A - B : B - A)) & M; break;
    case DIV:
        if (B == 0) out[0] = s ? (A < 0 ? 1 : M) : M;
        else if (s && B == -1) out[0] = (uint64_t)(-A) & M;
        else out[0] = (uint64_t)(A / B) & M;
        break;
    case REM:
        if (B == 0) out[0] = (uint64_t)A & M;
        else if (s && B == -1) out[0] = 0;
        else out[0] = (uint64_t)(A % B) & M;
        break;
    case ABS: out[0] = (uint64_t)(A < 0 ? -A : A) & M; break;
    case NEG: out[0] = (uint64_t)(-A) & M; break;
    case MIN: out[0] = (uint64_t)(A < B ? A : B) & M; break;
    case MAX: out[0] = (uint64_t)(A > B ? A : B) & M; break;
    case MINRELU: { s128 v = A < B ? A : B; out[0] = (uint64_t)(v < 0 ? 0 : v) & M; break; }
    case MAXRELU: { s128 v = A > B ? A : B; out[0] = (uint64_t)(v < 0 ? 0 : v) & M; break; }
    case X2ADD: case X2SUB: case X2MIN: case X2MAX: case X2MINR: case X2MAXR: {
        uint64_t d = 0;
        for (int k = 0; k < 2; k++) {
            int64_t x = s ? sx(a0 >> (16 * k), 16) : (int64_t)zx(a0 >> (16 * k), 16);
            int64_t y = s ? sx(a1 >> (16 * k), 16) : (int64_t)zx(a1 >> (16 * k), 16), v;
            switch (r->op) {
            case X2ADD: v = x + y; break;
            case X2SUB: v = x - y; break;
            case X2MIN: case X2MINR: v = x < y ? x : y; break;
            default: v = x > y ? x : y; break;
            }
            if ((r->op == X2MINR || r->op == X2MAXR) && v < 0) v = 0;
            d |= ((uint64_t)v & 0xffff) << (16 * k);
        }
        out[0] = d;
        break;
    }
    case POPC: { int n = 0; for (int i = 0; i < b; i++) n += (int)bit(a0, i); out[0] = (uint64_t)n; break; }
    case CLZ: { int n = 0; for (int i = b - 1; i >= 0 && !bit(a0, i); i--) n++; out[0] = (uint64_t)n; break; }
    case BFIND: case BFINDSH: out[0] = bfind_ref(zx(a0, b), b - 1, s, r->op == BFINDSH); break;
    case BREV: { uint64_t d = 0; for (int i = 0; i < b; i++) d |= bit(a0, i) << (b - 1 - i); out[0] = d; break; }
    case BFE: out[0] = bfe_ref(zx(a0, b), a1, a2, b - 1, s) & M; break;
    case BFI: out[0] = bfi_ref(zx(a0, b), zx(a1, b), in[2], in[3], b - 1) & M; break;
    case FNS: out[0] = fns_ref((uint32_t)a0, (uint32_t)a1 % 40, (int32_t)(sx(a2, 32) % 40)); break;
    case DP4A: case DP2ALO: case DP2AHI: {
        int as = r->aux & 1, bs = r->aux >> 1 & 1;
        int64_t acc = (as | bs) ? sx(a2, 32) : (int64_t)zx(a2, 32);
        if (r->op == DP4A)
            for (int k = 0; k < 4; k++)
                acc += (as ? sx(a0 >> (8 * k), 8) : (int64_t)zx(a0 >> (8 * k), 8)) *
                       (bs ? sx(a1 >> (8 * k), 8) : (int64_t)zx(a1 >> (8 * k), 8));
        else
            for (int k = 0; k < 2; k++) {
                int bb = (r->op == DP2AHI ? 2 : 0) + k;
                acc += (as ? sx(a0 >> (16 * k), 16) : (int64_t)zx(a0 >> (16 * k), 16)) *
                       (bs ? sx(a1 >> (8 * bb), 8) : (int64_t)zx(a1 >> (8 * bb), 8));
            }
        out[0] = (uint64_t)acc & 0xffffffffu;
        break;
    }
    case AND: out[0] = a0 & a1 & M; break;
    case OR: out[0] = (a0 | a1) & M; break;
    case XOR: out[0] = (a0 ^ a1) & M; break;
    case NOT: out[0] = ~a0 & M; break;
    case CNOT: out[0] = zx(a0, b) == 0; break;
    case PAND: out[0] = a0 & a1 & 1; break;
    case POR: out[0] = (a0 | (r->aux ? !(a1 & 1) : a1)) & 1; break;
    case PXOR: out[0] = (a0 ^ a1) & 1; break;
    case PNOT: out[0] = !a0; break;
    case LOP3: {
        uint64_t d = 0;
        for (int i = 0; i < 32; i++)
            d |= (uint64_t)((r->aux >> (bit(a0, i) << 2 | bit(a1, i) << 1 | bit(a2, i))) & 1) << i;
        out[0] = d;
        break;
    }
    case SHFLW: case SHFLC: case SHFRW: case SHFRC: {
        uint64_t n = (r->op == SHFLW || r->op == SHFRW) ? (a2 & 31) : (zx(a2, 32) > 32 ? 32 : zx(a2, 32));
        u128 v = (u128)zx(a1, 32) << 32 | zx(a0, 32);
        if (r->op <= SHFLC) out[0] = (uint64_t)((v << n) >> 32) & 0xffffffffu;
        else out[0] = (uint64_t)(v >> n) & 0xffffffffu;
        break;
    }
    case SHL: out[0] = zx(a1, 32) >= (uint64_t)b ? 0 : (zx(a0, b) << zx(a1, 32)) & M; break;
    case SHR: {
        uint64_t n = zx(a1, 32);
        if (s) out[0] = (uint64_t)(sx(a0, b) >> (n >= (uint64_t)b ? (uint64_t)b - 1 : n)) & M;
        else out[0] = n >= (uint64_t)b ? 0 : zx(a0, b) >> n;
        break;
    }
    case PRMT: out[0] = prmt_ref((uint32_t)a0, (uint32_t)a1, (uint32_t)a2, -1); break;
    case PRMTM: out[0] = prmt_ref((uint32_t)a0, (uint32_t)a1, (uint32_t)a2, r->aux); break;
    case SETP: case SET: {
        /* aux = comparison index, aux2 = bool op (0 none, 1 and, 2 or, 3 xor), sgn: 2 = float */
        int t = s == 2 ? fcmp(r->aux, fval(a0, b), fval(a1, b)) : icmp(r->aux, a0, a1, b, s);
        int c = (int)(in[2] & 1);
        int p = t, q = !t;
        if (r->aux2 == 1) { p &= c; q &= c; }
        if (r->aux2 == 2) { p |= c; q |= c; }
        if (r->aux2 == 3) { p ^= c; q ^= c; }
        if (r->op == SETP) {
            out[0] = (uint64_t)p;
            out[1] = (uint64_t)q;
        } else {
            out[0] = p ? 0xffffffffu : 0;
            out[1] = p ? 0x3f800000u : 0;
        }
        break;
    }
    case SELP: out[0] = (in[2] & 1) ? a0 & M : a1 & M; break;
    case SLCT: {
        /* aux: 0 = .s32 selector, 1 = .f32 (NaN selects b), 2 = .ftz.f32 (subnormal = 0) */
        float f = isa_f(a2);
        if (r->aux == 2 && fpclassify(f) == FP_SUBNORMAL)
            f = 0;
        int ge = r->aux ? f >= 0 : sx(a2, 32) >= 0;
        out[0] = (ge ? a0 : a1) & M;
        break;
    }
    default: break;
    }
}

static const irow rows[] = {
    { "\tadd.u16 %d0, %a0, %a1;", "u16 u16", "u16", ADD, 16, 0, 0, 0, 0 },
    { "\tadd.s32 %d0, %a0, %a1;", "s32 s32", "s32", ADD, 32, 1, 0, 0, 0 },
    { "\tadd.u64 %d0, %a0, %a1;", "u64 u64", "u64", ADD, 64, 0, 0, 0, 0 },
    { "\tsub.s16 %d0, %a0, %a1;", "s16 s16", "s16", SUB, 16, 1, 0, 0, 0 },
    { "\tsub.u32 %d0, %a0, %a1;", "u32 u32", "u32", SUB, 32, 0, 0, 0, 0 },
    { "\tsub.s64 %d0, %a0, %a1;", "s64 s64", "s64", SUB, 64, 1, 0, 0, 0 },
    { "\tadd.sat.s32 %d0, %a0, %a1;", "s32 s32", "s32", ADDSAT, 32, 1, 0, 0, 0 },
    { "\tsub.sat.s32 %d0, %a0, %a1;", "s32 s32", "s32", SUBSAT, 32, 1, 0, 0, 0 },
    { "\tmul.lo.s16 %d0, %a0, %a1;", "s16 s16", "s16", MULLO, 16, 1, 0, 0, 0 },
    { "\tmul.lo.u32 %d0, %a0, %a1;", "u32 u32", "u32", MULLO, 32, 0, 0, 0, 0 },
    { "\tmul.lo.s64 %d0, %a0, %a1;", "s64 s64", "s64", MULLO, 64, 1, 0, 0, 0 },
    { "\tmul.hi.u16 %d0, %a0, %a1;", "u16 u16", "u16", MULHI, 16, 0, 0, 0, 0 },
    { "\tmul.hi.s16 %d0, %a0, %a1;", "s16 s16", "s16", MULHI, 16, 1, 0, 0, 0 },
    { "\tmul.hi.u32 %d0, %a0, %a1;", "u32 u32", "u32", MULHI, 32, 0, 0, 0, 0 },
    { "\tmul.hi.s32 %d0, %a0, %a1;", "s32 s32", "s32", MULHI, 32, 1, 0, 0, 0 },
    { "\tmul.hi.u64 %d0, %a0, %a1;", "u64 u64", "u64", MULHI, 64, 0, 0, 0, 0 },
    { "\tmul.hi.s64 %d0, %a0, %a1;", "s64 s64", "s64", MULHI, 64, 1, 0, 0, 0 },
    { "\tmul.wide.u16 %d0, %a0, %a1;", "u16 u16", "u32", MULWIDE, 16, 0, 0, 0, 0 },
    { "\tmul.wide.s16 %d0, %a0, %a1;", "s16 s16", "s32", MULWIDE, 16, 1, 0, 0, 0 },
    { "\tmul.wide.u32 %d0, %a0, %a1;", "u32 u32", "u64", MULWIDE, 32, 0, 0, 0, 0 },
    { "\tmul.wide.s32 %d0, %a0, %a1;", "s32 s32", "s64", MULWIDE, 32, 1, 0, 0, 0 },
    { "\tmad.lo.u32 %d0, %a0, %a1, %a2;", "u32 u32 u32", "u32", MADLO, 32, 0, 0, 0, 0 },
    { "\tmad.lo.s64 %d0, %a0, %a1, %a2;", "s64 s64 s64", "s64", MADLO, 64, 1, 0, 0, 0 },
    { "\tmad.hi.s32 %d0, %a0, %a1, %a2;", "s32 s32 s32", "s32", MADHI, 32, 1, 0, 0, 0 },
    { "\tmad.hi.u64 %d0, %a0, %a1, %a2;", "u64 u64 u64", "u64", MADHI, 64, 0, 0, 0, 0 },
    { "\tmad.hi.sat.s32 %d0, %a0, %a1, %a2;", "s32 s32 s32", "s32", MADHISAT, 32, 1, 0, 0, 0 },
    { "\tmad.wide.s32 %d0, %a0, %a1, %a2;", "s32 s32 s64", "s64", MADWIDE, 32, 1, 0, 0, 0 },
    { "\tmad.wide.u16 %d0, %a0, %a1, %a2;", "u16 u16 u32", "u32", MADWIDE, 16, 0, 0, 0, 0 },
    { "\tadd.cc.u32 %d0, %a0, %a1;\n\taddc.cc.u32 %d1, %a2, %a3;\n\taddc.cc.u32 %d2, %a4, %a5;\n\taddc.u32 %d3, 0, 0;",
      "u32 u32 u32 u32 u32 u32", "u32 u32 u32 u32", ADDCHAIN, 32, 0, 0, 0, 0 },
    { "\tsub.cc.u32 %d0, %a0, %a1;\n\tsubc.cc.u32 %d1, %a2, %a3;\n\tsubc.cc.u32 %d2, %a4, %a5;\n\tsubc.u32 %d3, 0, 0;\n\tneg.s32 %d3, %d3;",
      "u32 u32 u32 u32 u32 u32", "u32 u32 u32 u32", SUBCHAIN, 32, 0, 0, 0, 0 },
    { "\tmad.lo.cc.u32 %d0, %a0, %a1, %a2;\n\tmadc.hi.u32 %d1, %a0, %a1, %a3;", "u32 u32 u32 u32", "u32 u32", MADCHAIN, 32, 0, 0, 0, 0 },
    { "\tmul24.lo.u32 %d0, %a0, %a1;", "u32 u32", "u32", MUL24LO, 32, 0, 0, 0, 0 },
    { "\tmul24.lo.s32 %d0, %a0, %a1;", "s32 s32", "s32", MUL24LO, 32, 1, 0, 0, 0 },
    { "\tmul24.hi.u32 %d0, %a0, %a1;", "u32 u32", "u32", MUL24HI, 32, 0, 0, 0, 0 },
    { "\tmul24.hi.s32 %d0, %a0, %a1;", "s32 s32", "s32", MUL24HI, 32, 1, 0, 0, 0 },
    { "\tmad24.lo.s32 %d0, %a0, %a1, %a2;", "s32 s32 s32", "s32", MAD24LO, 32, 1, 0, 0, 0 },
    { "\tmad24.hi.u32 %d0, %a0, %a1, %a2;", "u32 u32 u32", "u32", MAD24HI, 32, 0, 0, 0, 0 },
    { "\tmad24.hi.sat.s32 %d0, %a0, %a1, %a2;", "s32 s32 s32", "s32", MAD24HISAT, 32, 1, 0, 0, 0 },
    { "\tsad.u32 %d0, %a0, %a1, %a2;", "u32 u32 u32", "u32", SAD, 32, 0, 0, 0, 0 },
    { "\tsad.s16 %d0, %a0, %a1, %a2;", "s16 s16 s16", "s16", SAD, 16, 1, 0, 0, 0 },
    { "\tsad.s64 %d0, %a0, %a1, %a2;", "s64 s64 s64", "s64", SAD, 64, 1, 0, 0, 0 },
    { "\tdiv.u32 %d0, %a0, %a1;", "u32 u32", "u32", DIV, 32, 0, 0, 0, 0 },
    { "\tdiv.s32 %d0, %a0, %a1;", "s32 s32", "s32", DIV, 32, 1, 0, 0, 0 },
    { "\tdiv.u16 %d0, %a0, %a1;", "u16 u16", "u16", DIV, 16, 0, 0, 0, 0 },
    { "\tdiv.s64 %d0, %a0, %a1;", "s64 s64", "s64", DIV, 64, 1, 0, 0, 0 },
    { "\trem.u64 %d0, %a0, %a1;", "u64 u64", "u64", REM, 64, 0, 0, 0, 0 },
    { "\trem.s32 %d0, %a0, %a1;", "s32 s32", "s32", REM, 32, 1, 0, 0, 0 },
    { "\trem.s16 %d0, %a0, %a1;", "s16 s16", "s16", REM, 16, 1, 0, 0, 0 },
    { "\tabs.s16 %d0, %a0;", "s16", "s16", ABS, 16, 1, 0, 0, 0 },
    { "\tabs.s32 %d0, %a0;", "s32", "s32", ABS, 32, 1, 0, 0, 0 },
    { "\tabs.s64 %d0, %a0;", "s64", "s64", ABS, 64, 1, 0, 0, 0 },
    { "\tneg.s32 %d0, %a0;", "s32", "s32", NEG, 32, 1, 0, 0, 0 },
    { "\tneg.s64 %d0, %a0;", "s64", "s64", NEG, 64, 1, 0, 0, 0 },
    { "\tmin.u16 %d0, %a0, %a1;", "u16 u16", "u16", MIN, 16, 0, 0, 0, 0 },
    { "\tmin.s32 %d0, %a0, %a1;", "s32 s32", "s32", MIN, 32, 1, 0, 0, 0 },
    { "\tmax.u64 %d0, %a0, %a1;", "u64 u64", "u64", MAX, 64, 0, 0, 0, 0 },
    { "\tmax.s16 %d0, %a0, %a1;", "s16 s16", "s16", MAX, 16, 1, 0, 0, 0 },
    { "\tmax.s64 %d0, %a0, %a1;", "s64 s64", "s64", MAX, 64, 1, 0, 0, 0 },
    { "\tmin.relu.s32 %d0, %a0, %a1;", "s32 s32", "s32", MINRELU, 32, 1, 0, 0, 0 },
    { "\tmax.relu.s32 %d0, %a0, %a1;", "s32 s32", "s32", MAXRELU, 32, 1, 0, 0, 0 },
    { "\tadd.u16x2 %d0, %a0, %a1;", "b32 b32", "b32", X2ADD, 32, 0, 0, 0, 0 },
    { "\tadd.s16x2 %d0, %a0, %a1;", "b32 b32", "b32", X2ADD, 32, 1, 0, 0, 0 },
    { "\tsub.u16x2 %d0, %a0, %a1;", "b32 b32", "b32", X2SUB, 32, 0, 0, 0, 0 },
    { "\tmin.u16x2 %d0, %a0, %a1;", "b32 b32", "b32", X2MIN, 32, 0, 0, 0, 0 },
    { "\tmin.s16x2 %d0, %a0, %a1;", "b32 b32", "b32", X2MIN, 32, 1, 0, 0, 0 },
    { "\tmax.u16x2 %d0, %a0, %a1;", "b32 b32", "b32", X2MAX, 32, 0, 0, 0, 0 },
    { "\tmax.s16x2 %d0, %a0, %a1;", "b32 b32", "b32", X2MAX, 32, 1, 0, 0, 0 },
    { "\tmin.relu.s16x2 %d0, %a0, %a1;", "b32 b32", "b32", X2MINR, 32, 1, 0, 0, 0 },
    { "\tmax.s16x2.relu %d0, %a0, %a1;", "b32 b32", "b32", X2MAXR, 32, 1, 0, 0, 0 },
    { "\tpopc.b32 %d0, %a0;", "b32", "u32", POPC, 32, 0, 0, 0, 0 },
    { "\tpopc.b64 %d0, %a0;", "b64", "u32", POPC, 64, 0, 0, 0, 0 },
    { "\tclz.b32 %d0, %a0;", "b32", "u32", CLZ, 32, 0, 0, 0, 0 },
    { "\tclz.b64 %d0, %a0;", "b64", "u32", CLZ, 64, 0, 0, 0, 0 },
    { "\tbfind.u32 %d0, %a0;", "u32", "u32", BFIND, 32, 0, 0, 0, 0 },
    { "\tbfind.s32 %d0, %a0;", "s32", "u32", BFIND, 32, 1, 0, 0, 0 },
    { "\tbfind.u64 %d0, %a0;", "u64", "u32", BFIND, 64, 0, 0, 0, 0 },
    { "\tbfind.s64 %d0, %a0;", "s64", "u32", BFIND, 64, 1, 0, 0, 0 },
    { "\tbfind.shiftamt.u32 %d0, %a0;", "u32", "u32", BFINDSH, 32, 0, 0, 0, 0 },
    { "\tbfind.shiftamt.s64 %d0, %a0;", "s64", "u32", BFINDSH, 64, 1, 0, 0, 0 },
    { "\tbrev.b32 %d0, %a0;", "b32", "b32", BREV, 32, 0, 0, 0, 0 },
    { "\tbrev.b64 %d0, %a0;", "b64", "b64", BREV, 64, 0, 0, 0, 0 },
    { "\tbfe.u32 %d0, %a0, %a1, %a2;", "u32 u32 u32", "u32", BFE, 32, 0, 0, 0, 0 },
    { "\tbfe.s32 %d0, %a0, %a1, %a2;", "s32 u32 u32", "s32", BFE, 32, 1, 0, 0, 0 },
    { "\tbfe.u64 %d0, %a0, %a1, %a2;", "u64 u32 u32", "u64", BFE, 64, 0, 0, 0, 0 },
    { "\tbfe.s64 %d0, %a0, %a1, %a2;", "s64 u32 u32", "s64", BFE, 64, 1, 0, 0, 0 },
    { "\tbfi.b32 %d0, %a0, %a1, %a2, %a3;", "b32 b32 u32 u32", "b32", BFI, 32, 0, 0, 0, 0 },
    { "\tbfi.b64 %d0, %a0, %a1, %a2, %a3;", "b64 b64 u32 u32", "b64", BFI, 64, 0, 0, 0, 0 },
    { "\trem.u32 %hx_b, %a1, 40;\n\trem.s32 %hx_o, %a2, 40;\n\tfns.b32 %d0, %a0, %hx_b, %hx_o;", "b32 u32 s32", "b32", FNS, 32, 0, 0, 0,
      ".reg .u32 %hx_b; .reg .s32 %hx_o;" },
    { "\tdp4a.u32.u32 %d0, %a0, %a1, %a2;", "u32 u32 u32", "u32", DP4A, 32, 0, 0, 0, 0 },
    { "\tdp4a.s32.u32 %d0, %a0, %a1, %a2;", "u32 u32 s32", "s32", DP4A, 32, 0, 1, 0, 0 },
    { "\tdp4a.u32.s32 %d0, %a0, %a1, %a2;", "u32 u32 s32", "s32", DP4A, 32, 0, 2, 0, 0 },
    { "\tdp4a.s32.s32 %d0, %a0, %a1, %a2;", "s32 s32 s32", "s32", DP4A, 32, 0, 3, 0, 0 },
    { "\tdp2a.lo.u32.u32 %d0, %a0, %a1, %a2;", "u32 u32 u32", "u32", DP2ALO, 32, 0, 0, 0, 0 },
    { "\tdp2a.hi.s32.u32 %d0, %a0, %a1, %a2;", "u32 u32 s32", "s32", DP2AHI, 32, 0, 1, 0, 0 },
    { "\tdp2a.lo.u32.s32 %d0, %a0, %a1, %a2;", "u32 u32 s32", "s32", DP2ALO, 32, 0, 2, 0, 0 },
    { "\tdp2a.hi.s32.s32 %d0, %a0, %a1, %a2;", "s32 s32 s32", "s32", DP2AHI, 32, 0, 3, 0, 0 },
    { "\tand.b16 %d0, %a0, %a1;", "b16 b16", "b16", AND, 16, 0, 0, 0, 0 },
    { "\tor.b32 %d0, %a0, %a1;", "b32 b32", "b32", OR, 32, 0, 0, 0, 0 },
    { "\txor.b64 %d0, %a0, %a1;", "b64 b64", "b64", XOR, 64, 0, 0, 0, 0 },
    { "\tnot.b32 %d0, %a0;", "b32", "b32", NOT, 32, 0, 0, 0, 0 },
    { "\tcnot.b16 %d0, %a0;", "b16", "b16", CNOT, 16, 0, 0, 0, 0 },
    { "\tcnot.b64 %d0, %a0;", "b64", "b64", CNOT, 64, 0, 0, 0, 0 },
    { "\tand.pred %d0, %a0, %a1;", "pred pred", "pred", PAND, 1, 0, 0, 0, 0 },
    { "\tor.pred %d0, %a0, !%a1;", "pred pred", "pred", POR, 1, 0, 1, 0, 0 },
    { "\txor.pred %d0, %a0, %a1;", "pred pred", "pred", PXOR, 1, 0, 0, 0, 0 },
    { "\tnot.pred %d0, %a0;", "pred", "pred", PNOT, 1, 0, 0, 0, 0 },
    { "\tlop3.b32 %d0, %a0, %a1, %a2, 0x96;", "b32 b32 b32", "b32", LOP3, 32, 0, 0x96, 0, 0 },
    { "\tlop3.b32 %d0, %a0, %a1, %a2, 0xE8;", "b32 b32 b32", "b32", LOP3, 32, 0, 0xe8, 0, 0 },
    { "\tlop3.b32 %d0, %a0, %a1, %a2, 1;", "b32 b32 b32", "b32", LOP3, 32, 0, 1, 0, 0 },
    { "\tlop3.b32 %d0, %a0, %a1, %a2, 0xf0 & 0xcc | 0xaa;", "b32 b32 b32", "b32", LOP3, 32, 0, (0xf0 & 0xcc) | 0xaa, 0, 0 },
    { "\tlop3.b32 %d0, %a0, %a1, %a2, 254;", "b32 b32 b32", "b32", LOP3, 32, 0, 254, 0, 0 },
    { "\tshf.l.wrap.b32 %d0, %a0, %a1, %a2;", "b32 b32 u32", "b32", SHFLW, 32, 0, 0, 0, 0 },
    { "\tshf.l.clamp.b32 %d0, %a0, %a1, %a2;", "b32 b32 u32", "b32", SHFLC, 32, 0, 0, 0, 0 },
    { "\tshf.r.wrap.b32 %d0, %a0, %a1, %a2;", "b32 b32 u32", "b32", SHFRW, 32, 0, 0, 0, 0 },
    { "\tshf.r.clamp.b32 %d0, %a0, %a1, %a2;", "b32 b32 u32", "b32", SHFRC, 32, 0, 0, 0, 0 },
    { "\tshl.b16 %d0, %a0, %a1;", "b16 u32", "b16", SHL, 16, 0, 0, 0, 0 },
    { "\tshl.b32 %d0, %a0, %a1;", "b32 u32", "b32", SHL, 32, 0, 0, 0, 0 },
    { "\tshl.b64 %d0, %a0, %a1;", "b64 u32", "b64", SHL, 64, 0, 0, 0, 0 },
    { "\tshr.u16 %d0, %a0, %a1;", "u16 u32", "u16", SHR, 16, 0, 0, 0, 0 },
    { "\tshr.s32 %d0, %a0, %a1;", "s32 u32", "s32", SHR, 32, 1, 0, 0, 0 },
    { "\tshr.b64 %d0, %a0, %a1;", "b64 u32", "b64", SHR, 64, 0, 0, 0, 0 },
    { "\tshr.s64 %d0, %a0, %a1;", "s64 u32", "s64", SHR, 64, 1, 0, 0, 0 },
    { "\tshr.s16 %d0, %a0, %a1;", "s16 u32", "s16", SHR, 16, 1, 0, 0, 0 },
    { "\tprmt.b32 %d0, %a0, %a1, %a2;", "b32 b32 b32", "b32", PRMT, 32, 0, 0, 0, 0 },
    { "\tprmt.b32.f4e %d0, %a0, %a1, %a2;", "b32 b32 b32", "b32", PRMTM, 32, 0, 0, 0, 0 },
    { "\tprmt.b32.b4e %d0, %a0, %a1, %a2;", "b32 b32 b32", "b32", PRMTM, 32, 0, 1, 0, 0 },
    { "\tprmt.b32.rc8 %d0, %a0, %a1, %a2;", "b32 b32 b32", "b32", PRMTM, 32, 0, 2, 0, 0 },
    { "\tprmt.b32.ecl %d0, %a0, %a1, %a2;", "b32 b32 b32", "b32", PRMTM, 32, 0, 3, 0, 0 },
    { "\tprmt.b32.ecr %d0, %a0, %a1, %a2;", "b32 b32 b32", "b32", PRMTM, 32, 0, 4, 0, 0 },
    { "\tprmt.b32.rc16 %d0, %a0, %a1, %a2;", "b32 b32 b32", "b32", PRMTM, 32, 0, 5, 0, 0 },
    { "\tselp.b16 %d0, %a0, %a1, %a2;", "b16 b16 pred", "b16", SELP, 16, 0, 0, 0, 0 },
    { "\tselp.f64 %d0, %a0, %a1, %a2;", "f64 f64 pred", "f64", SELP, 64, 0, 0, 0, 0 },
    { "\tslct.u32.s32 %d0, %a0, %a1, %a2;", "u32 u32 s32", "u32", SLCT, 32, 0, 0, 0, 0 },
    { "\tslct.b64.f32 %d0, %a0, %a1, %a2;", "b64 b64 f32", "b64", SLCT, 64, 0, 1, 0, 0 },
    { "\tslct.ftz.s16.f32 %d0, %a0, %a1, %a2;", "s16 s16 f32", "s16", SLCT, 16, 0, 2, 0, 0 },
};

START_TEST(int_table)
{
    int n = 700;
    for (size_t i = 0; i < ISA_NE(rows); i++) {
        isa_case k = { rows[i].code, rows[i].in, rows[i].out, rows[i].decl };
        uint64_t *in = isa_inputs(rows[i].in, n, 1000 + i);
        if (rows[i].op == BFE || rows[i].op == BFI || rows[i].op == SHFLW || rows[i].op == SHFLC ||
            rows[i].op == SHFRW || rows[i].op == SHFRC || rows[i].op == SHL || rows[i].op == SHR) {
            /* boundary positions / lengths / shift counts for half of the vectors */
            isa_types ti;
            isa_parse_types(rows[i].in, &ti);
            isa_rng r = { 77 + i };
            for (int v = 0; v < n; v += 2)
                for (int c = 1; c < ti.n; c++)
                    in[(size_t)v * (size_t)ti.n + (size_t)c] = isa_next(&r) % 70 + (isa_next(&r) % 8 == 0 ? 250 : 0);
        }
        isa_check(&k, n, in, ref_int, &rows[i]);
        free(in);
    }
}
END_TEST

/* Immediates of every kind in integer operands: negative, hex, octal, binary, expressions,
 * 64-bit; and the sink `_` as a destination. */
typedef struct { int64_t k; int bits; } ictx;
static void ref_addimm(const uint64_t *in, uint64_t *out, const void *ctx)
{
    const ictx *c = ctx;
    out[0] = (in[0] + (uint64_t)c->k) & isa_mask(c->bits);
}
START_TEST(int_immediates)
{
    static const struct { const char *lit; int64_t v; int bits; } t[] = {
        { "-1", -1, 32 }, { "0x7fffffff", 0x7fffffff, 32 }, { "-2147483648", -2147483647 - 1, 32 },
        { "017", 15, 32 }, { "0b1011", 11, 32 }, { "(3 << 4) - 1", 47, 32 }, { "0xffffffff", -1, 32 },
        { "-5", -5, 64 }, { "0x123456789abcdef0", 0x123456789abcdef0ll, 64 }, { "-1", -1, 16 },
        { "0x8000", 0x8000, 16 }, { "~0", -1, 64 }, { "1U", 1, 32 },
    };
    int n = 70;
    for (size_t i = 0; i < ISA_NE(t); i++) {
        char code[128];
        const char *ty = t[i].bits == 16 ? "u16" : t[i].bits == 32 ? "s32" : "s64";
        snprintf(code, sizeof code, "\tadd.%s %%d0, %%a0, %s;", ty, t[i].lit);
        isa_case k = { code, ty, ty, NULL };
        ictx c = { t[i].v, t[i].bits };
        uint64_t *in = isa_inputs(ty, n, 50 + i);
        isa_check(&k, n, in, ref_addimm, &c);
        free(in);
    }
}
END_TEST

static void ref_sink(const uint64_t *in, uint64_t *out, const void *ctx)
{
    (void)ctx;
    uint32_t a = (uint32_t)in[0], b = (uint32_t)in[1];
    out[0] = (uint32_t)(a + b) < a;                 /* carry of add.cc into a sink */
    out[1] = ((int32_t)a < (int32_t)b) ? 0 : 1;     /* q of a pair whose p is `_` */
}
START_TEST(sink_operands)
{
    isa_case k = { "\tadd.cc.u32 _, %a0, %a1;\n\taddc.u32 %d0, 0, 0;\n\tsetp.lt.s32 _|%d1, %a0, %a1;",
                   "u32 u32", "u32 pred", NULL };
    int n = 300;
    uint64_t *in = isa_inputs(k.in, n, 61);
    isa_check(&k, n, in, ref_sink, NULL);
    free(in);
}
END_TEST

/* setp / set: every operator for integer and float types, with .and/.or/.xor and p|q. */
START_TEST(compare_all)
{
    static const char *const iops[] = { "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs" };
    static const char *const fops[] = { "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu",
                                        "leu", "gtu", "geu", "num", "nan" };
    static const char *const bops[] = { "", ".and", ".or", ".xor" };
    static const struct { const char *t; int bits, sgn; } types[] = {
        { "u16", 16, 0 }, { "s16", 16, 1 }, { "b32", 32, 0 }, { "s32", 32, 1 }, { "u64", 64, 0 },
        { "s64", 64, 1 }, { "f32", 32, 2 }, { "f64", 64, 2 }, { "f16", 16, 2 },
    };
    int n = 200;
    for (size_t t = 0; t < ISA_NE(types); t++) {
        int flt = types[t].sgn == 2;
        int nops = flt ? 14 : 10;
        char intypes[64];
        snprintf(intypes, sizeof intypes, "%s %s pred", types[t].t, types[t].t);
        uint64_t *in = isa_inputs(intypes, n, 300 + t);
        for (int i = 0; i < n; i += 4)
            in[(size_t)i * 3 + 1] = in[(size_t)i * 3];   /* equal operands too */
        for (int op = 0; op < nops; op++)
            for (int bo = 0; bo < 4; bo++) {
                if (types[t].bits == 16 && flt && op >= 6 && bo)
                    continue;
                char code[256];
                const char *o = flt ? fops[op] : iops[op];
                irow r = { NULL, intypes, "pred pred", SETP, types[t].bits, types[t].sgn, op, bo, NULL };
                if (bo)
                    snprintf(code, sizeof code, "\tsetp.%s%s.%s %%d0|%%d1, %%a0, %%a1, %%a2;", o, bops[bo], types[t].t);
                else
                    snprintf(code, sizeof code, "\tsetp.%s.%s %%d0|%%d1, %%a0, %%a1;", o, types[t].t);
                isa_case k = { code, intypes, "pred pred", NULL };
                isa_check(&k, n, in, ref_int, &r);
                if (types[t].bits >= 32 && (bo == 0 || bo == 3)) {
                    irow r2 = r;
                    r2.op = SET;
                    if (bo)
                        snprintf(code, sizeof code, "\tset.%s%s.u32.%s %%d0, %%a0, %%a1, %%a2;\n\tset.%s%s.f32.%s %%d1, %%a0, %%a1, %%a2;",
                                 o, bops[bo], types[t].t, o, bops[bo], types[t].t);
                    else
                        snprintf(code, sizeof code, "\tset.%s.u32.%s %%d0, %%a0, %%a1;\n\tset.%s.f32.%s %%d1, %%a0, %%a1;",
                                 o, types[t].t, o, types[t].t);
                    isa_case k2 = { code, intypes, "u32 f32", NULL };
                    isa_check(&k2, n, in, ref_int, &r2);
                }
            }
        free(in);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("isa_int");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, int_table);
    tcase_add_test(tc, int_immediates);
    tcase_add_test(tc, sink_operands);
    tcase_add_test(tc, compare_all);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
