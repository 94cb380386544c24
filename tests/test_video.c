/* test_video.c - video instructions (scalar, vmad, SIMD vop2/vop4, vset*) against scalar transcriptions of the spec. */
/* ---- handler harness: a stub decoder (exec_dec_*) and a fake warp, so the video decode
 * functions and handlers run without the rest of the core. Operands are written as text:
 * "r3" (register 3), "r3.b1" / "r3.h10" (with a selector, encoded as the parser does),
 * "-r3" (negated), "#17" (an integer immediate). */
#define STUB_RNG_SEED 0x9e3779b97f4a7c15ull
#include "dec_stub.h"

#define NREG 8
static uint32_t regblk[NREG][EXEC_LANES] __attribute__((aligned(64)));
static uint32_t immpool[8][EXEC_LANES];
static int nimm;

void *exec_dec_alloc(exec_dec *d, size_t n)
{
    (void)d;
    return n <= sizeof immpool[0] && nimm < 8 ? immpool[nimm++] : NULL;
}
int exec_dec_src(exec_dec *d, exec_insn *in, int k, const ptx_operand *o, ptx_type t)
{
    exec_opnd *op = &in->op[k];
    memset(op, 0, sizeof *op);
    op->type = (uint16_t)t;
    if (k >= in->nops)
        in->nops = (uint8_t)(k + 1);
    if (t != PTX_T_B32 || o->comp != -1 || o->neg)
        return -1;   /* the video decoder must strip selectors and negation */
    if (o->kind == PTX_OP_REG) {
        op->kind = EXEC_O_REG;
        op->off = (uint32_t)o->sym->index * (uint32_t)sizeof regblk[0];
        return 0;
    }
    if (o->kind == PTX_OP_IMM) {
        uint32_t *b = exec_dec_alloc(d, sizeof immpool[0]);
        if (!b)
            return -1;
        for (int i = 0; i < EXEC_LANES; i++)
            b[i] = (uint32_t)o->ival;
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
        if (k >= in->nops)
            in->nops = (uint8_t)(k + 1);
        return 0;
    }
    return o->kind == PTX_OP_REG ? exec_dec_src(d, in, k, o, t) : -1;
}

static const stub_dec dectab[] = {
    {"vadd", exec_dec_vadd}, {"vsub", exec_dec_vsub}, {"vabsdiff", exec_dec_vabsdiff}, {"vmin", exec_dec_vmin},
    {"vmax", exec_dec_vmax}, {"vshl", exec_dec_vshl}, {"vshr", exec_dec_vshr}, {"vmad", exec_dec_vmad},
    {"vset", exec_dec_vset}, {"vadd2", exec_dec_vadd2}, {"vsub2", exec_dec_vsub2}, {"vavrg2", exec_dec_vavrg2},
    {"vabsdiff2", exec_dec_vabsdiff2}, {"vmin2", exec_dec_vmin2}, {"vmax2", exec_dec_vmax2},
    {"vset2", exec_dec_vset2}, {"vadd4", exec_dec_vadd4}, {"vsub4", exec_dec_vsub4}, {"vavrg4", exec_dec_vavrg4},
    {"vabsdiff4", exec_dec_vabsdiff4}, {"vmin4", exec_dec_vmin4}, {"vmax4", exec_dec_vmax4},
    {"vset4", exec_dec_vset4},
};

static ptx_sym syms[NREG];
static ptx_operand opnds[8];

/* Selector text ("b3210", "h1") -> ptx_operand.comp encoding (ptx.h). */
static int sel_comp(const char *s)
{
    int v = 0, n = 0;
    for (const char *p = s + 1; *p; p++, n++)
        v = v << 4 | (*p - '0');
    return (s[0] == 'b' ? PTX_SEL_B : PTX_SEL_H) | n << 16 | v;
}

/* Decode `text` (opcode and modifiers) with operands `ops` (NULL-terminated). */
static int decode(const char *text, const char *const *ops)
{
    static char buf[128], obuf[8][32];
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
        syms[k].type = PTX_T_B32;
        syms[k].vec = 1;
        syms[k].name = "%r";
    }
    int n = 0;
    for (; ops[n]; n++) {
        ptx_operand *o = &opnds[n];
        memset(o, 0, sizeof *o);
        o->comp = -1;
        snprintf(obuf[n], sizeof obuf[n], "%s", ops[n]);
        char *p = obuf[n];
        if (*p == '#') {
            o->kind = PTX_OP_IMM;
            o->ival = strtoll(p + 1, NULL, 0);
            continue;
        }
        if (*p == '_') {
            o->kind = PTX_OP_SINK;
            continue;
        }
        if (*p == '-') {
            o->neg = 1;
            p++;
        }
        o->kind = PTX_OP_REG;
        o->sym = &syms[p[1] - '0'];
        char *dot = strchr(p, '.');
        if (dot)
            o->comp = sel_comp(dot + 1);
    }
    pi.ops = opnds;
    pi.nops = n;
    pi.line = 1;
    return stub_dispatch(dectab, sizeof dectab / sizeof dectab[0], &pi);
}
static void run_m(uint32_t m) { stub_exec(regblk, NULL, m); }
#define OPS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define RUN(text, m, ...)                                                                     \
    do {                                                                                     \
        int rc_ = decode(text, OPS(__VA_ARGS__));                                            \
        ck_assert_msg(rc_ == 0, "%s: %s", text, errbuf);                                      \
        run_m(m);                                                                            \
    } while (0)
#define DECODE_FAILS(text, ...)                                                               \
    do {                                                                                     \
        ck_assert_msg(decode(text, OPS(__VA_ARGS__)) != 0, "%s decoded", text);               \
        ck_assert_msg(errbuf[0] != 0, "%s: no message", text);                               \
    } while (0)

/* Random words whose bytes and half-words often sit at the interesting edges. */
static uint32_t edge32(void)
{
    static const uint8_t eb[] = { 0x00, 0x01, 0x7f, 0x80, 0x81, 0xfe, 0xff, 0x20, 0x1f };
    uint64_t r = rnd64();
    switch (r & 3) {
    case 0: {
        uint32_t v = 0;
        for (int k = 0; k < 4; k++)
            v |= (uint32_t)eb[(r >> (8 + 4 * k)) % sizeof eb] << (8 * k);
        return v;
    }
    case 1: {
        static const uint32_t ew[] = { 0, 1, 31, 32, 33, 0x7fffffff, 0x80000000, 0xffffffff,
                                       0x7fff8000, 0x80007fff, 0xffff0000, 0x0000ffff };
        return ew[(r >> 8) % (sizeof ew / sizeof ew[0])];
    }
    case 2:
        return (uint32_t)(r >> 40) & 0x3f;   /* small values: shift amounts */
    default:
        return (uint32_t)(r >> 32);
    }
}
static void fill_regs(void)
{
    for (int k = 0; k < NREG; k++)
        for (int i = 0; i < EXEC_LANES; i++)
            regblk[k][i] = edge32();
}
/* ---- end of harness ---- */

/* ---------------------------------------------------------------------------------------------
 * Reference semantics, transcribed from the PTX ISA pseudo-code (section "Video Instructions").
 * Types are signedness flags; selectors are the modifier text without the dot ("" = none).
 * Interpretation where the spec is silent: the secondary op takes the saturated intermediate
 * as a 32-bit value of dtype; shifts and vmad are computed exactly before saturation.
 * ------------------------------------------------------------------------------------------- */
__extension__ typedef __int128 i128;
#define S8_MAX 127
#define S8_MIN (-128)
#define U8_MAX 255
#define S16_MAX 32767
#define S16_MIN (-32768)
#define U16_MAX 65535
#define S32_MAX 2147483647LL
#define S32_MIN (-2147483648LL)
#define U32_MAX 4294967295LL
static i128 CLAMP(i128 x, i128 hi, i128 lo) { return x > hi ? hi : x < lo ? lo : x; }

static int64_t partSelectSignExtend(uint32_t v, int sgn, const char *sel)
{
    uint32_t x = v;
    int bits = 32;
    if (sel[0] == 'b') {
        x = (v >> (8 * (sel[1] - '0'))) & 0xff;
        bits = 8;
    } else if (sel[0] == 'h') {
        x = (v >> (16 * (sel[1] - '0'))) & 0xffff;
        bits = 16;
    }
    if (sgn && (x >> (bits - 1)))
        return (int64_t)x - ((int64_t)1 << bits);
    return x;
}
static i128 optSaturate(i128 tmp, int sat, int sign, const char *dsel)
{
    if (!sat)
        return tmp;
    if (dsel[0] == 'b')
        return sign ? CLAMP(tmp, S8_MAX, S8_MIN) : CLAMP(tmp, U8_MAX, 0);
    if (dsel[0] == 'h')
        return sign ? CLAMP(tmp, S16_MAX, S16_MIN) : CLAMP(tmp, U16_MAX, 0);
    return sign ? CLAMP(tmp, S32_MAX, S32_MIN) : CLAMP(tmp, U32_MAX, 0);
}
static uint32_t optMerge(const char *dsel, uint32_t tmp, uint32_t c)
{
    if (!strcmp(dsel, "h0")) return (tmp & 0xffff) | (0xffff0000 & c);
    if (!strcmp(dsel, "h1")) return ((tmp & 0xffff) << 16) | (0x0000ffff & c);
    if (!strcmp(dsel, "b0")) return (tmp & 0xff) | (0xffffff00 & c);
    if (!strcmp(dsel, "b1")) return ((tmp & 0xff) << 8) | (0xffff00ff & c);
    if (!strcmp(dsel, "b2")) return ((tmp & 0xff) << 16) | (0xff00ffff & c);
    if (!strcmp(dsel, "b3")) return ((tmp & 0xff) << 24) | (0x00ffffff & c);
    return tmp;
}
static int compare(const char *cmp, int64_t a, int64_t b)
{
    if (!strcmp(cmp, "eq")) return a == b;
    if (!strcmp(cmp, "ne")) return a != b;
    if (!strcmp(cmp, "lt")) return a < b;
    if (!strcmp(cmp, "le")) return a <= b;
    if (!strcmp(cmp, "gt")) return a > b;
    return a >= b;
}

/* vop: "vadd" ... "vshr", "vset"; secop "" or "add"/"min"/"max"; mode "clamp"/"wrap";
 * cmp for vset. */
static uint32_t ref_scalar(const char *vop, int dsg, int asg, int bsg, int sat, const char *asel,
                           const char *bsel, const char *dsel, const char *secop,
                           const char *mode, const char *cmp, uint32_t a, uint32_t b, uint32_t c)
{
    int shift = !strcmp(vop, "vshl") || !strcmp(vop, "vshr");
    int64_t ta = partSelectSignExtend(a, asg, asel);
    int64_t tb = partSelectSignExtend(b, shift ? 0 : bsg, bsel);
    i128 tmp;
    if (shift) {
        if (!strcmp(mode, "clamp") && tb > 32) tb = 32;
        if (!strcmp(mode, "wrap")) tb = tb & 0x1f;
    }
    if (!strcmp(vop, "vadd")) tmp = (i128)ta + tb;
    else if (!strcmp(vop, "vsub")) tmp = (i128)ta - tb;
    else if (!strcmp(vop, "vabsdiff")) tmp = ta - tb < 0 ? -((i128)ta - tb) : (i128)ta - tb;
    else if (!strcmp(vop, "vmin")) tmp = ta < tb ? ta : tb;
    else if (!strcmp(vop, "vmax")) tmp = ta > tb ? ta : tb;
    else if (!strcmp(vop, "vshl")) {
        tmp = ta;
        for (int k = 0; k < tb; k++) tmp *= 2;
    } else if (!strcmp(vop, "vshr")) {
        tmp = ta;   /* floor division by 2, tb times */
        for (int k = 0; k < tb; k++) tmp = (tmp - (tmp < 0 && (tmp & 1))) / 2;
    } else {
        tmp = compare(cmp, ta, tb) ? 1 : 0;
        dsg = 0;
    }
    tmp = optSaturate(tmp, sat, dsg, dsel);
    uint32_t t32 = (uint32_t)(tmp & 0xffffffff);
    if (*secop) {
        int64_t x = dsg ? partSelectSignExtend(t32, 1, "") : t32;
        int64_t y = dsg ? partSelectSignExtend(c, 1, "") : c;
        int64_t r = !strcmp(secop, "add") ? x + y : !strcmp(secop, "min") ? (x < y ? x : y)
                                                                            : (x > y ? x : y);
        return (uint32_t)((uint64_t)r & 0xffffffff);
    }
    return optMerge(dsel, t32, c);
}

/* vmad, literally: the .po / negation "lsb" trick of the spec's pseudo-code. */
static uint32_t ref_vmad(int asg, int bsg, int sat, int po, int scale, const char *asel,
                         const char *bsel, int aneg, int bneg, int cneg, uint32_t a, uint32_t b,
                         uint32_t c)
{
    int64_t ta = partSelectSignExtend(a, asg, asel);
    int64_t tb = partSelectSignExtend(b, bsg, bsel);
    int signedFinal = asg || bsg || (aneg ^ bneg) || cneg;
    i128 tmp = (i128)ta * tb;
    int lsb = po;
    if (aneg ^ bneg) {
        tmp = ~tmp;
        lsb = 1;
    } else if (cneg) {
        c = ~c;
        lsb = 1;
    }
    i128 c128 = signedFinal ? (i128)partSelectSignExtend(c, 1, "") : (i128)c;
    tmp = tmp + c128 + lsb;
    i128 result = tmp;
    for (int k = 0; k < scale; k++)   /* arithmetic shift right by one */
        result = (result - (result < 0 && (result & 1))) / 2;
    if (sat)
        result = signedFinal ? CLAMP(result, S32_MAX, S32_MIN) : CLAMP(result, U32_MAX, 0);
    return (uint32_t)(result & 0xffffffff);
}

/* SIMD: n = 2 or 4; sel strings are the selector digits ("10", "3210"), mask the mask digits;
 * vop is the base name ("vadd", "vavrg", "vset"...); acc = .add. */
static void extractAndSignExt(int n, uint32_t a, uint32_t b, const char *sel, int sgn, int64_t *V)
{
    int w = 32 / n;
    uint64_t both = (uint64_t)b << 32 | a;
    for (int i = 0; i < n; i++) {
        int idx = sel[n - 1 - i] - '0';
        uint32_t x = (uint32_t)(both >> (w * idx)) & ((1u << w) - 1);
        V[i] = sgn && (x >> (w - 1)) ? (int64_t)x - (1 << w) : (int64_t)x;
    }
}
static uint32_t ref_simd(int n, const char *vop, int dsg, int asg, int bsg, int sat, int acc,
                         const char *mask, const char *asel, const char *bsel, const char *cmp,
                         uint32_t a, uint32_t b, uint32_t c)
{
    int64_t Va[4], Vb[4], Vc[4], t[4];
    int w = 32 / n;
    extractAndSignExt(n, a, b, asel, asg, Va);
    extractAndSignExt(n, a, b, bsel, bsg, Vb);
    extractAndSignExt(n, c, 0, n == 2 ? "10" : "3210", 0, Vc);
    for (int i = 0; i < n; i++) {
        if (!strcmp(vop, "vadd")) t[i] = Va[i] + Vb[i];
        else if (!strcmp(vop, "vsub")) t[i] = Va[i] - Vb[i];
        else if (!strcmp(vop, "vavrg")) {
            if ((Va[i] + Vb[i]) >= 0)
                t[i] = (Va[i] + Vb[i] + 1) / 2;
            else   /* ( Va[i] + Vb[i] ) >> 1, i.e. rounded towards minus infinity */
                t[i] = (Va[i] + Vb[i] - ((Va[i] + Vb[i]) & 1)) / 2;
        }
        else if (!strcmp(vop, "vabsdiff")) t[i] = Va[i] > Vb[i] ? Va[i] - Vb[i] : Vb[i] - Va[i];
        else if (!strcmp(vop, "vmin")) t[i] = Va[i] < Vb[i] ? Va[i] : Vb[i];
        else if (!strcmp(vop, "vmax")) t[i] = Va[i] > Vb[i] ? Va[i] : Vb[i];
        else t[i] = compare(cmp, Va[i], Vb[i]) ? 1 : 0;
        if (sat) {
            if (n == 2) t[i] = dsg ? (int64_t)CLAMP(t[i], S16_MAX, S16_MIN) : (int64_t)CLAMP(t[i], U16_MAX, 0);
            else t[i] = dsg ? (int64_t)CLAMP(t[i], S8_MAX, S8_MIN) : (int64_t)CLAMP(t[i], U8_MAX, 0);
        }
    }
    int mk[4] = { 0, 0, 0, 0 };
    for (const char *p = mask; *p; p++)
        mk[*p - '0'] = 1;
    uint64_t d;
    if (acc) {
        d = c;
        for (int i = 0; i < n; i++)
            d += mk[i] ? (uint64_t)t[i] : 0;
    } else {
        d = 0;
        for (int i = 0; i < n; i++)
            d |= ((uint64_t)(mk[i] ? t[i] : Vc[i]) & ((1u << w) - 1)) << (w * i);
    }
    return (uint32_t)d;
}

/* ---- tests --------------------------------------------------------------------------------- */
static const char *const TY[2] = { "u32", "s32" };
static const char *const SSEL[7] = { "", "b0", "b1", "b2", "b3", "h0", "h1" };
static const char *const VOPS[7] = { "vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr" };
static const char *const CMPS[6] = { "eq", "ne", "lt", "le", "gt", "ge" };

static void opnd_text(char *buf, size_t n, const char *reg, const char *sel)
{
    snprintf(buf, n, "%s%s%s", reg, *sel ? "." : "", sel);
}

/* One scalar form: vop with types, sat, selectors, and tail: 0..2 secop index+1 or 4.. dsel */
static int nchecked;
static void check_scalar(const char *vop, int ds, int as, int bs, int sat, const char *asel,
                         const char *bsel, const char *dsel, const char *secop,
                         const char *mode, const char *cmp)
{
    char text[96], oa[16], ob[16], od[16];
    int set = !strcmp(vop, "vset");
    if (set)
        snprintf(text, sizeof text, "vset.%s.%s.%s%s%s", TY[as], TY[bs], cmp, *secop ? "." : "", secop);
    else
        snprintf(text, sizeof text, "%s.%s.%s.%s%s%s%s%s%s", vop, TY[ds], TY[as], TY[bs],
                 sat ? ".sat" : "", *mode ? "." : "", mode, *secop ? "." : "", secop);
    opnd_text(oa, sizeof oa, "r1", asel);
    opnd_text(ob, sizeof ob, "r2", bsel);
    opnd_text(od, sizeof od, "r0", dsel);
    uint32_t m = (uint32_t)rnd64() | 1u;
    uint32_t before[EXEC_LANES];
    memcpy(before, regblk[0], sizeof before);
    if (*secop || *dsel)
        RUN(text, m, od, oa, ob, "r3");
    else
        RUN(text, m, od, oa, ob);
    for (int i = 0; i < EXEC_LANES; i++) {
        uint32_t want = (m >> i & 1)
            ? ref_scalar(vop, ds, as, bs, sat, asel, bsel, dsel, secop, mode, cmp, regblk[1][i],
                         regblk[2][i], regblk[3][i])
            : before[i];
        ck_assert_msg(regblk[0][i] == want, "%s %s,%s,%s: a=%08x b=%08x c=%08x: got %08x want %08x",
                      text, od, oa, ob, regblk[1][i], regblk[2][i], regblk[3][i], regblk[0][i], want);
        nchecked++;
    }
}

START_TEST(t_scalar_all_forms)
{
    static const char *const tails[10][2] = {
        { "", "" }, { "add", "" }, { "min", "" }, { "max", "" }, { "", "b0" }, { "", "b1" },
        { "", "b2" }, { "", "b3" }, { "", "h0" }, { "", "h1" },
    };
    int vo = _i;   /* one loop iteration per operation */
    const char *vop = VOPS[vo];
    int shift = vo >= 5;
    for (int ty = 0; ty < 8; ty++) {
        int ds = ty & 1, as = ty >> 1 & 1, bs = ty >> 2 & 1;
        if (shift && bs)
            continue;
        for (int sat = 0; sat < 2; sat++)
            for (int md = 0; md < (shift ? 2 : 1); md++)
                for (int sa = 0; sa < 7; sa++)
                    for (int sb = 0; sb < 7; sb++)
                        for (int tl = 0; tl < 10; tl++) {
                            fill_regs();
                            check_scalar(vop, ds, as, bs, sat, SSEL[sa], SSEL[sb], tails[tl][1],
                                         tails[tl][0], shift ? (md ? "wrap" : "clamp") : "", "");
                        }
    }
}
END_TEST

START_TEST(t_vset_all_forms)
{
    static const char *const tails[10][2] = {
        { "", "" }, { "add", "" }, { "min", "" }, { "max", "" }, { "", "b0" }, { "", "b1" },
        { "", "b2" }, { "", "b3" }, { "", "h0" }, { "", "h1" },
    };
    for (int cm = 0; cm < 6; cm++)
        for (int ty = 0; ty < 4; ty++)
            for (int sa = 0; sa < 7; sa++)
                for (int sb = 0; sb < 7; sb++)
                    for (int tl = 0; tl < 10; tl++) {
                        fill_regs();
                        /* equal inputs are interesting for comparisons */
                        if (tl & 1)
                            memcpy(regblk[2], regblk[1], sizeof regblk[1]);
                        check_scalar("vset", 0, ty & 1, ty >> 1, 0, SSEL[sa], SSEL[sb],
                                     tails[tl][1], tails[tl][0], "", CMPS[cm]);
                    }
}
END_TEST

/* Hand-computed cases, including the examples printed in the spec. */
START_TEST(t_scalar_examples)
{
    for (int i = 0; i < EXEC_LANES; i++) {
        regblk[1][i] = 0x12345680u;   /* b0 = 0x80 (-128 signed), h1 = 0x1234 */
        regblk[2][i] = 0xfffe7fffu;   /* h0 = 0x7fff, h1 = 0xfffe (-2 signed) */
        regblk[3][i] = 0xaabbccddu;
    }
    RUN("vadd.s32.u32.s32.sat", EXEC_FULL, "r0", "r1.b0", "r2.h0");
    ck_assert_uint_eq(regblk[0][0], 0x80u + 0x7fffu);
    RUN("vadd.s32.s32.s32", EXEC_FULL, "r0", "r1.b0", "r2.h1");
    ck_assert_uint_eq(regblk[0][5], (uint32_t)(-128 - 2));
    RUN("vsub.u32.u32.u32.sat", EXEC_FULL, "r0", "r1.b0", "r2.h0");   /* 0x80 - 0x7fff < 0 */
    ck_assert_uint_eq(regblk[0][1], 0u);
    RUN("vabsdiff.s32.s32.s32.sat", EXEC_FULL, "r0.h0", "r1.b0", "r2.b2", "r3");
    ck_assert_uint_eq(regblk[0][2], 0xaabb0000u | (uint32_t)(128 - 2));   /* |-128 - (-2)| */
    RUN("vmax.u32.u32.u32.sat", EXEC_FULL, "r0.b3", "r1.h1", "r2.h0", "r3");
    ck_assert_uint_eq(regblk[0][3], 0xffbbccddu);   /* 0x7fff saturated to 0xff */
    RUN("vmin.s32.s32.s32.sat.add", EXEC_FULL, "r0", "r1", "r2", "r3");
    ck_assert_uint_eq(regblk[0][4], 0xaabbccddu + 0xfffe7fffu);
    RUN("vshl.s32.u32.u32.clamp", EXEC_FULL, "r0", "r1", "#40");
    ck_assert_uint_eq(regblk[0][0], 0u);
    RUN("vshl.u32.u32.u32.clamp.sat", EXEC_FULL, "r0", "r1.b0", "#31");   /* 2^38 -> max */
    ck_assert_uint_eq(regblk[0][0], 0xffffffffu);
    RUN("vshr.s32.s32.u32.wrap", EXEC_FULL, "r0", "r2", "#33");   /* shift by 1 */
    ck_assert_uint_eq(regblk[0][0], 0xffff3fffu);
    RUN("vshr.u32.u32.u32.wrap", EXEC_FULL, "r0", "r2", "r1.h1");   /* 0x1234 & 31 = 20 */
    ck_assert_uint_eq(regblk[0][0], 0xfffu);
    RUN("vset.s32.u32.lt", EXEC_FULL, "r0", "r1", "r2");   /* 0x12345680 < 0xfffe7fff */
    ck_assert_uint_eq(regblk[0][0], 1u);
    RUN("vset.s32.s32.lt", EXEC_FULL, "r0", "r1", "r2.h1");   /* 0x12345680 < -2: no */
    ck_assert_uint_eq(regblk[0][0], 0u);
    RUN("vset.u32.u32.ne.add", EXEC_FULL, "r0", "r1", "r2", "r3");
    ck_assert_uint_eq(regblk[0][0], 0xaabbccdeu);
    /* data merge of an unsaturated result keeps its low byte */
    RUN("vadd.u32.u32.u32", EXEC_FULL, "r0.b1", "r1.h1", "r2.h0", "r3");
    ck_assert_uint_eq(regblk[0][0], 0xaabb33ddu);   /* 0x1234 + 0x7fff = 0x9233 */
}
END_TEST

START_TEST(t_vmad_all_forms)
{
    static const int negs[6][3] = { {0,0,0}, {1,0,0}, {0,1,0}, {1,1,0}, {0,0,1}, {1,1,1} };
    static const char *const scl[3] = { "", ".shr7", ".shr15" };
    for (int ty = 0; ty < 8; ty++)
        for (int sat = 0; sat < 2; sat++)
            for (int sc = 0; sc < 3; sc++)
                for (int ng = 0; ng < 7; ng++) {   /* 6 = .po */
                    int po = ng == 6;
                    const int *nn = negs[po ? 0 : ng];
                    char text[64];
                    snprintf(text, sizeof text, "vmad.%s.%s.%s%s%s%s", TY[ty & 1], TY[ty >> 1 & 1],
                             TY[ty >> 2 & 1], po ? ".po" : "", sat ? ".sat" : "", scl[sc]);
                    for (int sa = 0; sa < 7; sa++)
                        for (int sb = 0; sb < 7; sb++) {
                            char oa[16], ob[16], oc[8];
                            snprintf(oa, sizeof oa, "%sr1%s%s", nn[0] ? "-" : "", *SSEL[sa] ? "." : "", SSEL[sa]);
                            snprintf(ob, sizeof ob, "%sr2%s%s", nn[1] ? "-" : "", *SSEL[sb] ? "." : "", SSEL[sb]);
                            snprintf(oc, sizeof oc, "%sr3", nn[2] ? "-" : "");
                            fill_regs();
                            RUN(text, EXEC_FULL, "r0", oa, ob, oc);
                            for (int i = 0; i < EXEC_LANES; i++) {
                                uint32_t want = ref_vmad(ty >> 1 & 1, ty >> 2 & 1, sat, po,
                                                         sc == 0 ? 0 : sc == 1 ? 7 : 15, SSEL[sa],
                                                         SSEL[sb], nn[0], nn[1], nn[2],
                                                         regblk[1][i], regblk[2][i], regblk[3][i]);
                                ck_assert_msg(regblk[0][i] == want,
                                              "%s %s,%s,%s: a=%08x b=%08x c=%08x got %08x want %08x",
                                              text, oa, ob, oc, regblk[1][i], regblk[2][i],
                                              regblk[3][i], regblk[0][i], want);
                            }
                        }
                }
}
END_TEST

START_TEST(t_vmad_examples)
{
    for (int i = 0; i < EXEC_LANES; i++) {
        regblk[1][i] = 0xffffffffu;
        regblk[2][i] = 0xffffffffu;
        regblk[3][i] = 5;
    }
    RUN("vmad.u32.u32.u32", EXEC_FULL, "r0", "r1", "r2", "r3");   /* (2^32-1)^2 + 5 */
    ck_assert_uint_eq(regblk[0][0], 6u);
    RUN("vmad.u32.u32.u32.sat", EXEC_FULL, "r0", "r1", "r2", "r3");
    ck_assert_uint_eq(regblk[0][0], 0xffffffffu);
    RUN("vmad.s32.u32.u32.sat", EXEC_FULL, "r0", "-r1", "r2", "r3");   /* hugely negative */
    ck_assert_uint_eq(regblk[0][0], 0x80000000u);
    RUN("vmad.s32.s32.s32", EXEC_FULL, "r0", "r1", "r2", "-r3");   /* (-1)(-1) - 5 */
    ck_assert_uint_eq(regblk[0][0], (uint32_t)-4);
    RUN("vmad.u32.u32.u32.po", EXEC_FULL, "r0", "r1.h0", "r2.b0", "r3");   /* 65535*255+5+1 */
    ck_assert_uint_eq(regblk[0][0], 65535u * 255u + 6u);
    RUN("vmad.u32.u32.u32.shr15", EXEC_FULL, "r0", "r1.h0", "r2.h0", "r3");
    ck_assert_uint_eq(regblk[0][0], (uint32_t)((65535ull * 65535ull + 5) >> 15));
    RUN("vmad.s32.s32.s32.shr7", EXEC_FULL, "r0", "r1.b0", "r2.h0", "-r3");   /* (1 - 5) >> 7 */
    ck_assert_uint_eq(regblk[0][0], 0xffffffffu);
}
END_TEST

/* SIMD: every op, types, sat / merge / accumulate, masks, sampled selectors. */
static void check_simd(int n, const char *vop, int ty, int sat, int acc, const char *mask,
                       const char *asel, const char *bsel, const char *cmp)
{
    char text[80], od[16], oa[16], ob[16];
    int set = !strcmp(vop, "vset");
    char k = n == 2 ? 'h' : 'b';
    int ds = ty & 1, as = ty >> 1 & 1, bs = ty >> 2 & 1;
    if (set)
        snprintf(text, sizeof text, "vset%d.%s.%s.%s%s", n, TY[as], TY[bs], cmp, acc ? ".add" : "");
    else
        snprintf(text, sizeof text, "%s%d.%s.%s.%s%s%s", vop, n, TY[ds], TY[as], TY[bs],
                 sat ? ".sat" : "", acc ? ".add" : "");
    snprintf(od, sizeof od, "r0%s%c%s", *mask ? "." : "", *mask ? k : 0, mask);
    snprintf(oa, sizeof oa, "r1%s%c%s", *asel ? "." : "", *asel ? k : 0, asel);
    snprintf(ob, sizeof ob, "r2%s%c%s", *bsel ? "." : "", *bsel ? k : 0, bsel);
    fill_regs();
    RUN(text, EXEC_FULL, od, oa, ob, "r3");
    const char *dm = n == 2 ? "10" : "3210";
    for (int i = 0; i < EXEC_LANES; i++) {
        uint32_t want = ref_simd(n, vop, set ? 0 : ds, as, bs, sat, acc, *mask ? mask : dm,
                                 *asel ? asel : dm, *bsel ? bsel : (n == 2 ? "32" : "7654"), cmp,
                                 regblk[1][i], regblk[2][i], regblk[3][i]);
        ck_assert_msg(regblk[0][i] == want, "%s %s,%s,%s: a=%08x b=%08x c=%08x got %08x want %08x",
                      text, od, oa, ob, regblk[1][i], regblk[2][i], regblk[3][i], regblk[0][i], want);
        nchecked++;
    }
}
static void rand_sel(char *s, int n)
{
    for (int k = 0; k < n; k++)
        s[k] = (char)('0' + rnd64() % (uint64_t)(2 * n));
    s[n] = 0;
}

START_TEST(t_simd2_all_forms)
{
    static const char *const ops[7] = { "vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax", "vset" };
    static const char *const masks[4] = { "", "0", "1", "10" };
    for (int o = 0; o < 7; o++)
        for (int cm = 0; cm < (o == 6 ? 6 : 1); cm++)
            for (int ty = 0; ty < 8; ty++)
                for (int md = 0; md < 3; md++) {   /* 0 merge, 1 merge + sat, 2 accumulate */
                    if (o == 6 && md == 1)
                        continue;
                    for (int mk = 0; mk < 4; mk++)
                        for (int r = 0; r < 6; r++) {
                            char sa[5] = "", sb[5] = "";
                            if (r > 0) rand_sel(sa, 2);
                            if (r > 1) rand_sel(sb, 2);
                            check_simd(2, ops[o], ty, md == 1, md == 2, masks[mk], sa, sb, CMPS[cm]);
                        }
                }
    /* every selector pair once */
    for (int x = 0; x < 16; x++)
        for (int y = 0; y < 16; y++) {
            char sa[3] = { (char)('0' + x / 4), (char)('0' + x % 4), 0 };
            char sb[3] = { (char)('0' + y / 4), (char)('0' + y % 4), 0 };
            check_simd(2, "vsub", 7, 1, 0, "", sa, sb, "");
        }
}
END_TEST

START_TEST(t_simd4_all_forms)
{
    static const char *const ops[7] = { "vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax", "vset" };
    static const char *const masks[16] = { "", "0", "1", "10", "2", "20", "21", "210", "3", "30",
                                           "31", "310", "32", "320", "321", "3210" };
    for (int o = 0; o < 7; o++)
        for (int cm = 0; cm < (o == 6 ? 6 : 1); cm++)
            for (int ty = 0; ty < 8; ty++)
                for (int md = 0; md < 3; md++) {
                    if (o == 6 && md == 1)
                        continue;
                    for (int mk = 0; mk < 16; mk++)
                        for (int r = 0; r < 3; r++) {
                            char sa[5] = "", sb[5] = "";
                            if (r > 0) rand_sel(sa, 4);
                            if (r > 1) rand_sel(sb, 4);
                            check_simd(4, ops[o], ty, md == 1, md == 2, masks[mk], sa, sb, CMPS[cm]);
                        }
                }
    /* the spec's examples */
    check_simd(4, "vadd", 3, 1, 0, "", "", "", "");   /* vadd4.s32.s32.u32.sat */
    check_simd(4, "vsub", 7, 1, 0, "0", "3210", "7654", "");
    check_simd(4, "vmin", 1, 0, 1, "00", "0000", "2222", "");
}
END_TEST

START_TEST(t_simd_examples)
{
    for (int i = 0; i < EXEC_LANES; i++) {
        regblk[1][i] = 0x80017fffu;
        regblk[2][i] = 0x7fff0001u;
        regblk[3][i] = 0x11223344u;
    }
    RUN("vadd2.s32.s32.s32.sat", EXEC_FULL, "r0", "r1", "r2", "r3");   /* .h10 / .h32 */
    ck_assert_uint_eq(regblk[0][0], 0x00007fffu);   /* 32767+1 -> 32767; -32767+32767 = 0 */
    RUN("vadd2.u32.u32.u32", EXEC_FULL, "r0.h1", "r1", "r2", "r3");
    ck_assert_uint_eq(regblk[0][0], 0x00003344u);   /* 0x8001 + 0x7fff = 0x10000 -> 0 */
    RUN("vabsdiff4.u32.u32.u32.add", EXEC_FULL, "r0", "r1", "r2", "r3");
    /* bytes a: 80 01 7f ff, b: 7f ff 00 01 -> 1 + 254 + 127 + 254 = 636 */
    ck_assert_uint_eq(regblk[0][0], 0x11223344u + 636u);
    RUN("vavrg4.s32.s32.s32", EXEC_FULL, "r0", "r1", "r2", "r3");
    /* (-128+127)=-1 -> -1; (1-1)=0 -> 0; (127+0)=127 -> 64; (-1+1)=0 -> 0 */
    ck_assert_uint_eq(regblk[0][0], 0xff004000u);
    RUN("vset4.u32.u32.lt", EXEC_FULL, "r0.b20", "r1", "r2", "r3");
    ck_assert_uint_eq(regblk[0][0], 0x11013300u);   /* b0: ff<01 no, b2: 01<ff yes */
}
END_TEST

START_TEST(t_decode_errors)
{
    DECODE_FAILS("vadd.s32.s32", "r0", "r1", "r2");
    DECODE_FAILS("vadd.s32.s32.s32.f32", "r0", "r1", "r2");
    DECODE_FAILS("vadd.s32.s32.s32", "r0", "r1", "r2", "r3");          /* c without secop */
    DECODE_FAILS("vadd.s32.s32.s32.add", "r0", "r1", "r2");            /* secop without c */
    DECODE_FAILS("vadd.s32.s32.s32.add", "r0.b0", "r1", "r2", "r3");   /* both */
    DECODE_FAILS("vadd.s32.s32.s32.add.min", "r0", "r1", "r2", "r3");
    DECODE_FAILS("vadd.s32.s32.s32", "r0", "r1.b10", "r2");
    DECODE_FAILS("vadd.s32.s32.s32", "r0", "r1.h2", "r2");
    DECODE_FAILS("vadd.s32.s32.s32", "r0", "-r1", "r2");
    DECODE_FAILS("vadd.s32.s32.s32.clamp", "r0", "r1", "r2");
    DECODE_FAILS("vadd.s32.s32.s32.sat.sat", "r0", "r1", "r2");
    DECODE_FAILS("vshl.s32.s32.u32", "r0", "r1", "r2");                 /* no mode */
    DECODE_FAILS("vshl.s32.s32.s32.wrap", "r0", "r1", "r2");            /* signed amount */
    DECODE_FAILS("vshr.s32.s32.u32.wrap.clamp", "r0", "r1", "r2");
    DECODE_FAILS("vset.s32.s32", "r0", "r1", "r2");                    /* no cmp */
    DECODE_FAILS("vset.s32.s32.lo", "r0", "r1", "r2");
    DECODE_FAILS("vset.s32.s32.lt.sat", "r0", "r1", "r2");
    DECODE_FAILS("vset.s32.s32.s32.lt", "r0", "r1", "r2");
    DECODE_FAILS("vmad.s32.s32.s32.po", "r0", "-r1", "r2", "r3");
    DECODE_FAILS("vmad.s32.s32.s32", "r0", "-r1", "r2", "-r3");
    DECODE_FAILS("vmad.s32.s32.s32", "r0", "r1", "r2");
    DECODE_FAILS("vmad.s32.s32.s32.add", "r0", "r1", "r2", "r3");
    DECODE_FAILS("vmad.s32.s32.s32", "r0.h0", "r1", "r2", "r3");
    DECODE_FAILS("vadd2.s32.s32.s32.sat.add", "r0", "r1", "r2", "r3");
    DECODE_FAILS("vadd2.s32.s32.s32.min", "r0", "r1", "r2", "r3");
    DECODE_FAILS("vadd2.s32.s32.s32", "r0", "r1", "r2");
    DECODE_FAILS("vadd2.s32.s32.s32", "r0.b0", "r1", "r2", "r3");
    DECODE_FAILS("vadd2.s32.s32.s32", "r0", "r1.h1", "r2", "r3");
    DECODE_FAILS("vadd2.s32.s32.s32", "r0", "r1", "r2", "r3.h0");
    DECODE_FAILS("vadd4.s32.s32.s32", "r0.b4", "r1", "r2", "r3");
    DECODE_FAILS("vadd4.s32.s32.s32", "r0", "r1.b321", "r2", "r3");
    DECODE_FAILS("vset4.s32.s32.lt.sat", "r0", "r1", "r2", "r3");
    DECODE_FAILS("vset4.s32.s32", "r0", "r1", "r2", "r3");
    DECODE_FAILS("vset4.s32.s32.eq.max", "r0", "r1", "r2", "r3");
    /* operands must be 32-bit integer registers */
    ck_assert_int_eq(decode("vadd.u32.u32.u32", OPS("r0", "r1", "r2")), 0);
    syms[1].type = PTX_T_U64;
    {
        ptx_insn pi = *cur.src;
        exec_insn in;
        memset(&in, 0, sizeof in);
        in.src = &pi;
        ck_assert_int_ne(exec_dec_vadd(NULL, &pi, &in), 0);
    }
}
END_TEST

/* Inactive lanes keep their value; d may alias a source; `_` is accepted as d. */
START_TEST(t_mask_alias_sink)
{
    fill_regs();
    uint32_t a[EXEC_LANES], b[EXEC_LANES];
    memcpy(a, regblk[1], sizeof a);
    memcpy(b, regblk[2], sizeof b);
    RUN("vadd4.u32.u32.u32.sat", 0x0000ffffu, "r1", "r1", "r2", "r1");
    for (int i = 0; i < EXEC_LANES; i++) {
        uint32_t want = i < 16 ? ref_simd(4, "vadd", 0, 0, 0, 1, 0, "3210", "3210", "7654", "", a[i], b[i], a[i])
                               : a[i];
        ck_assert_uint_eq(regblk[1][i], want);
    }
    RUN("vmax.s32.s32.s32", EXEC_FULL, "_", "r1", "r2");
    RUN("vmad.s32.s32.s32", EXEC_FULL, "r2", "r2", "r2", "r2");
    for (int i = 0; i < EXEC_LANES; i++)
        ck_assert_uint_eq(regblk[2][i], (uint32_t)((uint64_t)b[i] * b[i] + b[i]));
}
END_TEST

/* Every SIMD opcode spelled out once (default selectors and mask), against the reference. */
START_TEST(t_simd_each_opcode)
{
    static const struct { const char *text, *vop; int n, ty, sat, acc; const char *cmp; } f[] = {
        { "vadd2.s32.s32.s32.sat", "vadd", 2, 7, 1, 0, "" },
        { "vsub2.u32.s32.u32", "vsub", 2, 2, 0, 0, "" },
        { "vavrg2.s32.u32.s32", "vavrg", 2, 5, 0, 0, "" },
        { "vabsdiff2.u32.u32.u32.add", "vabsdiff", 2, 0, 0, 1, "" },
        { "vmin2.s32.s32.u32.sat", "vmin", 2, 3, 1, 0, "" },
        { "vmax2.u32.s32.s32.add", "vmax", 2, 6, 0, 1, "" },
        { "vset2.s32.u32.le", "vset", 2, 2, 0, 0, "le" },
        { "vset2.u32.u32.ne.add", "vset", 2, 0, 0, 1, "ne" },
        { "vadd4.u32.u32.u32.sat", "vadd", 4, 0, 1, 0, "" },
        { "vsub4.s32.s32.s32.sat", "vsub", 4, 7, 1, 0, "" },
        { "vavrg4.u32.u32.u32", "vavrg", 4, 0, 0, 0, "" },
        { "vabsdiff4.u32.u32.u32.add", "vabsdiff", 4, 0, 0, 1, "" },
        { "vmin4.s32.u32.u32.add", "vmin", 4, 1, 0, 1, "" },
        { "vmax4.s32.s32.s32", "vmax", 4, 7, 0, 0, "" },
        { "vset4.s32.s32.gt", "vset", 4, 6, 0, 0, "gt" },
        { "vset4.u32.s32.eq.add", "vset", 4, 4, 0, 1, "eq" },
    };
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
        for (int rep = 0; rep < 20; rep++) {
            fill_regs();
            RUN(f[k].text, EXEC_FULL, "r0", "r1", "r2", "r3");
            int set = !strcmp(f[k].vop, "vset");
            for (int i = 0; i < EXEC_LANES; i++) {
                uint32_t want = ref_simd(f[k].n, f[k].vop, set ? 0 : f[k].ty & 1, f[k].ty >> 1 & 1,
                                         f[k].ty >> 2 & 1, f[k].sat, f[k].acc,
                                         f[k].n == 2 ? "10" : "3210", f[k].n == 2 ? "10" : "3210",
                                         f[k].n == 2 ? "32" : "7654", f[k].cmp, regblk[1][i],
                                         regblk[2][i], regblk[3][i]);
                ck_assert_msg(regblk[0][i] == want, "%s: got %08x want %08x", f[k].text,
                              regblk[0][i], want);
            }
        }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("video");
    TCase *tc = tcase_create("video");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, t_scalar_all_forms, 0, 7);
    tcase_add_test(tc, t_vset_all_forms);
    tcase_add_test(tc, t_scalar_examples);
    tcase_add_test(tc, t_vmad_all_forms);
    tcase_add_test(tc, t_vmad_examples);
    tcase_add_test(tc, t_simd2_all_forms);
    tcase_add_test(tc, t_simd4_all_forms);
    tcase_add_test(tc, t_simd_examples);
    tcase_add_test(tc, t_simd_each_opcode);
    tcase_add_test(tc, t_decode_errors);
    tcase_add_test(tc, t_mask_alias_sink);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
