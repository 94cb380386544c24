/* exec_mma.c - warp matrix instructions: wmma.load/store/mma, mma.sync, ldmatrix, stmatrix, movmatrix. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec_core.h"
#include "exec_fp.h"

/* ---------------------------------------------------------------------------------------------
 * All of these are warp-collective (.sync.aligned): the handler sees the registers of all 32
 * lanes (slots are lane-contiguous) and requires the whole warp to execute the instruction
 * together: the executing lanes must be exactly the warp's valid lanes, none exited, else the
 * warp raises EXEC_EXC_WARP_SYNC.
 *
 * Fragment layout (the generic rule)
 * The PTX ISA's fragment figures for mma (m16n8k8, m16n8k16, m16n8k32, m8n8k16, m8n8k32,
 * m16n8k4/k8 .tf32, m8n8k4 .f64, m8n8k128 .b1 ...) all follow one rule, which this file
 * implements once. Let g = %laneid >> 2 (groupID) and t = %laneid & 3 (threadID_in_group).
 * A matrix is seen in "lane orientation": A (M x K) and C/D (M x N) as they are, B (K x N)
 * transposed (N x K), since lanes hold columns of B. That R x C view is cut into tiles of
 * 8 rows x 4u columns, where u = elements a lane holds side by side:
 *     multiplicands: u = 32 / element bits (f16/bf16 2, s8/u8/e4m3/e5m2 4, s4/u4 8, b1 32;
 *                    tf32 and f64 1)
 *     accumulators:  u = 2 (f16, f32, s32, f64)
 * Tiles are numbered down the rows first (row tile fastest), then across the columns. Element
 * e of a lane's fragment (e = 0, 1, ... in register order, the lowest bits of a register
 * first) is tile e / u, offset j = e % u: row = 8 * rowtile + g, column = 4u * coltile +
 * u * t + j. Examples: mma.m16n8k16 .f16 A = {(g, 2t..2t+1), (g+8, 2t..), (g, 2t+8..),
 * (g+8, 2t+8..)}; B = {(k = 2t..2t+1, n = g), (k = 2t+8.., n = g)}; C/D f32 = {(g, 2t),
 * (g, 2t+1), (g+8, 2t), (g+8, 2t+1)}; m16n8k8 .tf32 A = {(g, t), (g+8, t), (g, t+4),
 * (g+8, t+4)}; m8n8k4 .f64 A = {(g, t)}, B = {(t, g)}, C = {(g, 2t), (g, 2t+1)}.
 *
 * mma.m8n8k4 with .f16 multiplicands has its own layout (four independent 8x8x4 products,
 * quad pair q = (%laneid >> 2) & 3 uses lanes 4q..4q+3 (low) and 16+4q..16+4q+3 (high);
 * t = %laneid & 3, h = 1 for the high group):
 *     A .row: element i = A[t + 4h][i]        A .col: A[i + 4h][t]
 *     B .row: element i = B[t][i + 4h]        B .col: B[i][t + 4h]
 *     C/D .f16: element i = C[t + 4h][i]
 *     C/D .f32: element i = C[(t & 1) + (i & 2) + 4h][(t & 2) + (i & 1) + (i & 4)]
 *
 * wmma fragments are opaque to programs; this file gives them the generic rule above (so a
 * wmma accumulator m16n16k16 is the 16x16 matrix cut in four 8x8 tiles: registers 0-1
 * (g, 2t..), 2-3 (g+8, 2t..), 4-5 (g, 2t+8..), 6-7 (g+8, 2t+8..)). When the fragment has more
 * registers than the matrix needs (the .f16 A and B fragments always have eight .f16x2
 * registers), element e holds the same value as element e % (R * C / 32): wmma.load fills the
 * copies, wmma.mma reads the first copy only.
 *
 * Precision (a known approximation of the tensor cores, which add products in a wide internal
 * format with implementation-defined alignment and truncation):
 *     .f16/.bf16/.tf32/.e4m3/.e5m2 multiplicands: every product a*b is exact in double; the
 *         products are summed in double in k order (k = 0, 1, ...), then C is added, and the
 *         sum is rounded once (to nearest even) to the .f32 or .f16 destination. .tf32 inputs
 *         use only the top 19 bits of the register. NaN results are the canonical NaN.
 *     .f64: d = C, then d = fma(a[k], b[k], d) for k = 0, 1, ... (IEEE round to nearest).
 *     integers: exact; the 32-bit result wraps, or clamps with .satfinite.
 *     .b1: d = C + popc over k of (a XOR b) (.xor.popc) or (a AND b) (.and.popc).
 * ------------------------------------------------------------------------------------------- */

/* ---- element types --------------------------------------------------------------------------- */
enum {
    MT_NONE = 0, MT_F16, MT_BF16, MT_TF32, MT_F32, MT_F64, MT_E4M3, MT_E5M2,
    MT_S8, MT_U8, MT_S4, MT_U4, MT_B1, MT_S32, MT_B16, MT__COUNT
};
static const struct { const char *name; int bits, fp; } exec_mma_types[MT__COUNT] = {
    [MT_F16] = { "f16", 16, 1 },  [MT_BF16] = { "bf16", 16, 1 }, [MT_TF32] = { "tf32", 32, 1 },
    [MT_F32] = { "f32", 32, 1 },  [MT_F64] = { "f64", 64, 1 },   [MT_E4M3] = { "e4m3", 8, 1 },
    [MT_E5M2] = { "e5m2", 8, 1 }, [MT_S8] = { "s8", 8, 0 },      [MT_U8] = { "u8", 8, 0 },
    [MT_S4] = { "s4", 4, 0 },     [MT_U4] = { "u4", 4, 0 },      [MT_B1] = { "b1", 1, 0 },
    [MT_S32] = { "s32", 32, 0 },  [MT_B16] = { "b16", 16, 0 },
};

static int exec_mma_type(const char *s)
{
    for (int i = 1; i < MT__COUNT; i++)
        if (strcmp(s, exec_mma_types[i].name) == 0)
            return i;
    return MT_NONE;
}

/* ---- decoded form ---------------------------------------------------------------------------- */
#define MMA_MAXREGS 8

/* One matrix operand: its geometry, element type and registers. */
typedef struct {
    int rows, cols;        /* the matrix: A M x K, B K x N, C/D M x N */
    int trans;             /* lanes hold columns (B): lane orientation is the transpose */
    int et, bits;
    int per_reg;           /* elements per register */
    int u;                 /* elements side by side in a tile row (see the rule above) */
    int distinct;          /* rows * cols / 32 */
    int nel;               /* elements in the fragment (>= distinct for wmma copies) */
    int nregs;
    exec_opnd r[MMA_MAXREGS];
} exec_mma_frag;

enum { MK_WLOAD = 1, MK_WSTORE, MK_MMA, MK_LDM, MK_STM, MK_MOVM };
enum { MX_A = 0, MX_B, MX_C };
enum { BOP_MUL = 0, BOP_XOR, BOP_AND };

typedef struct {
    int kind;
    int M, N, K;
    int m884;              /* mma.m8n8k4 .f16: quad-pair layout */
    int which;             /* wmma.load: MX_A/MX_B/MX_C; wmma.store: MX_C */
    int layout;            /* wmma.load/store: 0 row-major, 1 column-major */
    int alay, blay;        /* mma: layouts of A and B (only m8n8k4 .f16 allows all four) */
    int satf, bop;
    int num, trans;        /* ldmatrix/stmatrix: .x1/.x2/.x4, .trans */
    exec_mma_frag f[4];    /* mma: D, A, B, C; wmma.load/store, ld/st/movmatrix: f[0] (+ f[1]) */
    exec_opnd stride;      /* wmma.load/store: EXEC_O_NONE = the default stride */
} exec_mma_x;

/* ---- modifiers ------------------------------------------------------------------------------- */
typedef struct {
    const char *sub;       /* wmma: "load" "store" "mma" */
    int which;             /* a b c d -> 0 1 2 2; -1 none */
    int M, N, K, shape;    /* shape: 0 none, 2 = mMnN, 3 = mMnNkK */
    int lay[2], nlay;
    int et[4], net;
    ptx_space sp;
    int sync, satf, rn, bop, popc, trans, num;
} exec_mma_mods;

static int exec_mma_parse(exec_dec *d, const ptx_insn *pi, exec_mma_mods *mo)
{
    memset(mo, 0, sizeof *mo);
    mo->which = -1;
    mo->sp = PTX_SPACE_GENERIC;
    for (int i = 0; i < pi->nmods; i++) {
        const char *s = pi->mods[i];
        int t, a, b, c, n = 0;
        if (strcmp(s, "sync") == 0)
            mo->sync = 1;
        else if (strcmp(s, "aligned") == 0)
            ;
        else if (i == 0 && (strcmp(s, "load") == 0 || strcmp(s, "store") == 0 ||
                            strcmp(s, "mma") == 0))
            mo->sub = s;
        else if (s[1] == 0 && s[0] >= 'a' && s[0] <= 'd' && mo->which < 0)
            mo->which = s[0] == 'd' ? 2 : s[0] - 'a';
        else if (sscanf(s, "m%dn%dk%d%n", &a, &b, &c, &n) == 3 && s[n] == 0 && !mo->shape)
            mo->M = a, mo->N = b, mo->K = c, mo->shape = 3;
        else if (sscanf(s, "m%dn%d%n", &a, &b, &n) == 2 && s[n] == 0 && !mo->shape)
            mo->M = a, mo->N = b, mo->shape = 2;
        else if ((strcmp(s, "row") == 0 || strcmp(s, "col") == 0) && mo->nlay < 2)
            mo->lay[mo->nlay++] = s[0] == 'c';
        else if ((t = exec_mma_type(s)) != MT_NONE && mo->net < 4)
            mo->et[mo->net++] = t;
        else if (strcmp(s, "global") == 0)
            mo->sp = PTX_SPACE_GLOBAL;
        else if (strcmp(s, "shared") == 0 || strcmp(s, "shared::cta") == 0)
            mo->sp = PTX_SPACE_SHARED;
        else if (strcmp(s, "satfinite") == 0)
            mo->satf = 1;
        else if (strcmp(s, "rn") == 0)
            mo->rn = 1;
        else if (strcmp(s, "xor") == 0)
            mo->bop = BOP_XOR;
        else if (strcmp(s, "and") == 0)
            mo->bop = BOP_AND;
        else if (strcmp(s, "popc") == 0)
            mo->popc = 1;
        else if (strcmp(s, "trans") == 0)
            mo->trans = 1;
        else if (strcmp(s, "x1") == 0 || strcmp(s, "x2") == 0 || strcmp(s, "x4") == 0)
            mo->num = s[1] - '0';
        else
            return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
    }
    if (!mo->sync)
        return exec_dec_error(d, pi, "missing .sync");
    return 0;
}

/* ---- shapes and types ------------------------------------------------------------------------
 * Which multiplicand types each shape supports, for wmma and for mma. */
typedef struct { int M, N, K, et, wmma, mma; } exec_mma_shape;
static const exec_mma_shape exec_mma_shapes[] = {
    { 16, 16, 16, MT_F16, 1, 0 }, { 8, 32, 16, MT_F16, 1, 0 }, { 32, 8, 16, MT_F16, 1, 0 },
    { 16, 16, 16, MT_BF16, 1, 0 }, { 8, 32, 16, MT_BF16, 1, 0 }, { 32, 8, 16, MT_BF16, 1, 0 },
    { 16, 16, 16, MT_S8, 1, 0 }, { 8, 32, 16, MT_S8, 1, 0 }, { 32, 8, 16, MT_S8, 1, 0 },
    { 16, 16, 8, MT_TF32, 1, 0 }, { 8, 8, 4, MT_F64, 1, 1 }, { 8, 8, 32, MT_S4, 1, 1 },
    { 8, 8, 128, MT_B1, 1, 1 },
    { 8, 8, 4, MT_F16, 0, 1 }, { 16, 8, 8, MT_F16, 0, 1 }, { 16, 8, 16, MT_F16, 0, 1 },
    { 16, 8, 8, MT_BF16, 0, 1 }, { 16, 8, 16, MT_BF16, 0, 1 },
    { 16, 8, 4, MT_TF32, 0, 1 }, { 16, 8, 8, MT_TF32, 0, 1 },
    { 16, 8, 4, MT_F64, 0, 1 }, { 16, 8, 8, MT_F64, 0, 1 }, { 16, 8, 16, MT_F64, 0, 1 },
    { 8, 8, 16, MT_S8, 0, 1 }, { 16, 8, 16, MT_S8, 0, 1 }, { 16, 8, 32, MT_S8, 0, 1 },
    { 16, 8, 32, MT_S4, 0, 1 }, { 16, 8, 64, MT_S4, 0, 1 },
    { 16, 8, 16, MT_E4M3, 0, 1 }, { 16, 8, 32, MT_E4M3, 0, 1 },
    { 16, 8, 128, MT_B1, 0, 1 }, { 16, 8, 256, MT_B1, 0, 1 },
};

/* Family of a multiplicand type for the shape table (u8 like s8, u4 like s4, e5m2 like e4m3). */
static int exec_mma_family(int et)
{
    switch (et) {
    case MT_U8: return MT_S8;
    case MT_U4: return MT_S4;
    case MT_E5M2: return MT_E4M3;
    default: return et;
    }
}

static int exec_mma_shape_ok(int M, int N, int K, int et, int is_wmma)
{
    int fam = exec_mma_family(et);
    for (size_t i = 0; i < sizeof exec_mma_shapes / sizeof exec_mma_shapes[0]; i++) {
        const exec_mma_shape *s = &exec_mma_shapes[i];
        if (s->M == M && s->N == N && s->K == K && s->et == fam && (is_wmma ? s->wmma : s->mma))
            return 1;
    }
    return 0;
}

/* Accumulator types allowed with a multiplicand type. */
static int exec_mma_acc_ok(int et, int acc)
{
    switch (exec_mma_family(et)) {
    case MT_F16: case MT_E4M3: return acc == MT_F16 || acc == MT_F32;
    case MT_BF16: case MT_TF32: return acc == MT_F32;
    case MT_F64: return acc == MT_F64;
    default: return acc == MT_S32;
    }
}

/* Fill the geometry of operand `which` (MX_A/MX_B/MX_C) of an M x N x K product. wmma: the
 * fragment of .f16 multiplicands has 8 registers whatever the shape. */
static void exec_mma_geom(exec_mma_frag *f, int which, int M, int N, int K, int et, int wmma)
{
    memset(f, 0, sizeof *f);
    f->et = et;
    f->bits = exec_mma_types[et].bits;
    f->per_reg = f->bits < 32 ? 32 / f->bits : 1;
    f->rows = which == MX_B ? K : M;
    f->cols = which == MX_A ? K : N;
    f->trans = which == MX_B;
    f->u = which == MX_C ? 2 : (f->bits < 32 ? 32 / f->bits : 1);
    f->distinct = f->rows * f->cols / 32;
    f->nregs = (f->distinct + f->per_reg - 1) / f->per_reg;
    if (wmma && which != MX_C && et == MT_F16)
        f->nregs = 8;
    f->nel = f->nregs * f->per_reg;
}

/* ---- operands ------------------------------------------------------------------------------- */
/* Resolve the registers of a fragment (a brace vector, or one register). Registers must have
 * the fragment's register width: no conversion wrapper is allowed here. */
static int exec_mma_regs(exec_dec *d, const ptx_insn *pi, const ptx_operand *o, exec_mma_frag *f,
                         int dst, const char *what)
{
    const ptx_operand *el = o;
    int n = 1;
    if (o->kind == PTX_OP_VEC) {
        el = o->elems;
        n = o->nelems;
    }
    if (n != f->nregs)
        return exec_dec_error(d, pi, "%s: expected %d register%s, got %d", what, f->nregs,
                              f->nregs == 1 ? "" : "s", n);
    ptx_type t = f->bits == 64 ? (exec_mma_types[f->et].fp ? PTX_T_F64 : PTX_T_B64)
                 : f->et == MT_F32 ? PTX_T_F32 : PTX_T_B32;
    for (int k = 0; k < n; k++) {
        exec_insn tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.src = pi;
        int nfix = d->nfix;
        if (dst && el[k].kind != PTX_OP_REG && el[k].kind != PTX_OP_SINK)
            return exec_dec_error(d, pi, "%s: destination must be a register", what);
        if (dst ? exec_dec_dst(d, &tmp, 0, &el[k], t) : exec_dec_src(d, &tmp, 0, &el[k], t))
            return -1;
        if (d->nfix != nfix || tmp.op[0].kind == EXEC_O_SREG)
            return exec_dec_error(d, pi, "%s: operand %d must be a %d-bit register", what, k,
                                  f->bits == 64 ? 64 : 32);
        f->r[k] = tmp.op[0];
    }
    return 0;
}

/* The address operand of a memory form; aux[0..3] as exec_dec_address leaves them. */
static int exec_mma_addr(exec_dec *d, const ptx_insn *pi, exec_insn *in, const ptx_operand *o,
                         ptx_space sp)
{
    if (o->kind != PTX_OP_ADDR)
        return exec_dec_error(d, pi, "expected an address operand [p]");
    if (exec_dec_address(d, pi, in, o, sp))
        return -1;
    if (in->aux[2] == EXEC_AM_PARAMVAR || in->aux[2] == EXEC_AM_KPARAM ||
        (ptx_space)in->aux[3] == PTX_SPACE_PARAM || (ptx_space)in->aux[3] == PTX_SPACE_CONST)
        return exec_dec_error(d, pi, "matrix memory must be .global or .shared");
    return 0;
}

/* ---- run-time helpers ------------------------------------------------------------------------ */
/* .aligned: every valid lane of the warp, none exited, executes the instruction together. */
static int exec_mma_converged(exec_warp *w, const exec_insn *in, uint32_t m)
{
    if (m == w->valid && !(w->exited & w->valid))
        return 1;
    exec_fault(w, in, EXEC_EXC_WARP_SYNC, -1, PTX_SPACE_NONE, 0, 0,
               "warp-collective matrix instruction executed by lanes 0x%08x of 0x%08x: "
               ".aligned requires the whole warp, converged", m, w->valid);
    return 0;
}

/* Element e of lane `lane` of a fragment, as raw bits. */
static uint64_t exec_mma_rget(exec_warp *w, const exec_mma_frag *f, int e, int lane)
{
    const void *p = exec_opnd_ptr(EXEC_R(w), &f->r[e / f->per_reg]);
    if (f->bits == 64)
        return ((const uint64_t *)p)[lane];
    uint32_t v = ((const uint32_t *)p)[lane];
    if (f->bits >= 32)
        return v;
    return (v >> ((e % f->per_reg) * f->bits)) & ((1u << f->bits) - 1);
}

/* Put raw bits of element e of a lane into out[reg][lane]. */
static void exec_mma_rput(const exec_mma_frag *f, uint64_t out[][EXEC_LANES], int e, int lane,
                          uint64_t v)
{
    uint64_t *o = &out[e / f->per_reg][lane];
    if (f->bits >= 32) {
        *o = v;
        return;
    }
    int sh = (e % f->per_reg) * f->bits;
    uint64_t mask = ((1ull << f->bits) - 1) << sh;
    *o = (*o & ~mask) | ((v << sh) & mask);
}

/* Write the assembled registers of the lanes in m. */
static void exec_mma_wregs(exec_warp *w, const exec_mma_frag *f, uint64_t out[][EXEC_LANES],
                           uint32_t m)
{
    for (int k = 0; k < f->nregs; k++) {
        void *p = exec_opnd_ptr(EXEC_R(w), &f->r[k]);
        if (f->r[k].kind == EXEC_O_IMM)
            continue;
        if (f->bits == 64) {
            EXEC_FOR_LANES(i, m)
                ((uint64_t *)p)[i] = out[k][i];
        } else {
            EXEC_FOR_LANES(i, m)
                ((uint32_t *)p)[i] = (uint32_t)out[k][i];
        }
    }
}

/* Position of element e of a lane in the matrix (generic rule): *r, *c in the matrix's own
 * orientation. */
static void exec_mma_pos(const exec_mma_frag *f, int lane, int e, int *r, int *c)
{
    e %= f->distinct;
    int lrows = f->trans ? f->cols : f->rows;
    int nrt = lrows / 8, tile = e / f->u, j = e % f->u;
    int lr = (tile % nrt) * 8 + (lane >> 2);
    int lc = (tile / nrt) * 4 * f->u + (lane & 3) * f->u + j;
    if (f->trans) {
        *r = lc;
        *c = lr;
    } else {
        *r = lr;
        *c = lc;
    }
}

/* mma.m8n8k4 .f16: quad pair *q and position of element e of a lane (see the top). */
static void exec_mma_pos884(const exec_mma_x *x, int which, const exec_mma_frag *f, int lane,
                            int e, int *q, int *r, int *c)
{
    int t = lane & 3, h = lane >= 16 ? 4 : 0;
    *q = (lane >> 2) & 3;
    switch (which) {
    case MX_A:
        if (x->alay) { *r = e + h; *c = t; } else { *r = t + h; *c = e; }
        break;
    case MX_B:
        if (x->blay) { *r = e; *c = t + h; } else { *r = t; *c = e + h; }
        break;
    default:
        if (f->et == MT_F16) {
            *r = t + h;
            *c = e;
        } else {
            *r = (t & 1) + (e & 2) + h;
            *c = (t & 2) + (e & 1) + (e & 4);
        }
        break;
    }
}

/* A matrix element's value. */
typedef union { double f; int64_t i; } exec_mma_v;

static exec_mma_v exec_mma_value(int et, uint64_t b)
{
    exec_mma_v v;
    switch (et) {
    case MT_F16:  v.f = exec_fp_to_double(&exec_fmt_f16, (uint32_t)b); break;
    case MT_BF16: v.f = exec_bf2f((uint16_t)b); break;
    case MT_TF32: v.f = exec_u2f((uint32_t)b & 0xffffe000u); break;
    case MT_F32:  v.f = exec_u2f((uint32_t)b); break;
    case MT_F64:  v.f = exec_u2d(b); break;
    case MT_E4M3: v.f = exec_fp_to_double(&exec_fmt_e4m3, (uint32_t)b); break;
    case MT_E5M2: v.f = exec_fp_to_double(&exec_fmt_e5m2, (uint32_t)b); break;
    case MT_S8:   v.i = (int8_t)b; break;
    case MT_U8:   v.i = (uint8_t)b; break;
    case MT_S4:   v.i = (int64_t)((b & 0xf) ^ 8) - 8; break;
    case MT_U4:   v.i = (int64_t)(b & 0xf); break;
    case MT_B1:   v.i = (int64_t)(b & 1); break;
    case MT_S32:  v.i = (int32_t)(uint32_t)b; break;
    default:      v.i = (int64_t)b; break;
    }
    return v;
}

/* Encode a result value (f: the sum, exact or rounded once to double; i: exact integer). */
static uint64_t exec_mma_encode(int et, exec_mma_v v, int satf)
{
    switch (et) {
    case MT_F16:
        return exec_fp_from_double(&exec_fmt_f16, v.f, EXEC_RN, satf);
    case MT_F32: {
        float f = (float)v.f;
        if (satf) {
            if (f != f)
                f = 0.0f;
            else if (isinf(f))
                f = f > 0 ? 3.40282347e+38f : -3.40282347e+38f;
        }
        return exec_f2u(exec_cnan32(f));
    }
    case MT_F64:
        return exec_d2u(v.f);
    default: {
        int64_t s = v.i;
        if (satf)
            s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
        return (uint32_t)(int32_t)(uint32_t)(uint64_t)s;
    }
    }
}

/* ---- wmma.load / wmma.store ------------------------------------------------------------------
 * wmma.load.{a,b,c}.sync.aligned.layout.shape{.ss}.type r, [p]{, stride};
 * wmma.store.d.sync.aligned.layout.shape{.ss}.type [p], r{, stride};
 * Element (row, col) of the matrix is at p + (row * stride + col) * size (.row) or
 * p + (col * stride + row) * size (.col); the default stride is the leading dimension (the
 * column count for .row, the row count for .col). Sub-byte elements (.s4/.u4/.b1) are packed
 * from the lowest bits of each byte. Each lane accesses its own elements with its own p. */
static int exec_mma_mem(exec_warp *w, const exec_insn *in, int lane, uint64_t a, uint64_t idx,
                        int bits, uint64_t *val, int write)
{
    ptx_space sp = (ptx_space)(in->aux[3] & 0xff);
    uint64_t bit = idx * (uint64_t)bits;
    uint32_t n = bits < 8 ? 1 : (uint32_t)bits / 8;
    uint8_t *h = mem_xlate(w, in, lane, sp, a + bit / 8, n, write);
    if (!h)
        return -1;
    if (!write) {
        uint64_t v = 0;
        memcpy(&v, h, n);
        if (bits < 8)
            v = (v >> (bit % 8)) & ((1u << bits) - 1);
        *val = v;
    } else if (bits < 8) {
        unsigned sh = (unsigned)(bit % 8), mk = ((1u << bits) - 1) << sh;
        *h = (uint8_t)((*h & ~mk) | (((unsigned)*val << sh) & mk));
    } else {
        memcpy(h, val, n);
    }
    return 0;
}

static int exec_wmma_ldst(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const exec_mma_x *x = in->ext;
    const exec_mma_frag *f = &x->f[0];
    if (!exec_mma_converged(w, in, m))
        return EXEC_STOPPED;
    uint64_t addr[EXEC_LANES];
    exec_addr_lanes(w, in, m, addr);
    uint64_t defstride = (uint64_t)(x->layout ? f->rows : f->cols);
    const uint32_t *sv = x->stride.kind != EXEC_O_NONE
                             ? exec_opnd_ptr(EXEC_R(w), &x->stride) : NULL;
    uint64_t out[MMA_MAXREGS][EXEC_LANES];
    memset(out, 0, sizeof out);
    int store = x->kind == MK_WSTORE;
    EXEC_FOR_LANES(l, m) {
        uint64_t stride = sv ? sv[l] : defstride;
        int n = store ? f->distinct : f->nel;
        for (int e = 0; e < n; e++) {
            int r, c;
            exec_mma_pos(f, (int)l, e, &r, &c);
            uint64_t idx = x->layout ? (uint64_t)c * stride + (uint64_t)r
                                     : (uint64_t)r * stride + (uint64_t)c;
            uint64_t v = store ? exec_mma_rget(w, f, e, (int)l) : 0;
            if (exec_mma_mem(w, in, (int)l, addr[l], idx, f->bits, &v, store))
                return EXEC_STOPPED;
            if (!store)
                exec_mma_rput(f, out, e, (int)l, v);
        }
    }
    if (!store)
        exec_mma_wregs(w, f, out, m);
    return EXEC_NEXT;
}

/* ---- wmma.mma / mma.sync ---------------------------------------------------------------------
 * D = A * B + C over the whole warp: gather the three matrices from every lane's fragment,
 * compute each element in the precision described at the top, scatter D. mma.m8n8k4 .f16
 * computes four independent products (one per quad pair), the other shapes one. */
#define MMA_MAXA 4096      /* M * K of m16n8k256 */
#define MMA_MAXB 2048
#define MMA_MAXC 256

typedef struct {
    exec_mma_v a[MMA_MAXA], b[MMA_MAXB], c[MMA_MAXC], d[MMA_MAXC];
} exec_mma_work;

static void exec_mma_gather(exec_warp *w, const exec_mma_x *x, int which,
                            const exec_mma_frag *f, exec_mma_v *mat, uint32_t m)
{
    int qsz = f->rows * f->cols;
    EXEC_FOR_LANES(l, m) {
        for (int e = 0; e < f->distinct; e++) {
            int q = 0, r, c;
            if (x->m884)
                exec_mma_pos884(x, which, f, (int)l, e, &q, &r, &c);
            else
                exec_mma_pos(f, (int)l, e, &r, &c);
            mat[q * qsz + r * f->cols + c] = exec_mma_value(f->et, exec_mma_rget(w, f, e, (int)l));
        }
    }
}

static void exec_mma_product(const exec_mma_x *x, exec_mma_work *wk, int q)
{
    int M = x->M, N = x->N, K = x->K;
    const exec_mma_v *A = wk->a + q * M * K, *B = wk->b + q * K * N, *C = wk->c + q * M * N;
    exec_mma_v *D = wk->d + q * M * N;
    int aet = x->f[1].et;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            exec_mma_v r;
            if (aet == MT_F64) {
                double s = C[i * N + j].f;
                for (int k = 0; k < K; k++)
                    s = fma(A[i * K + k].f, B[k * N + j].f, s);
                r.f = s;
            } else if (exec_mma_types[aet].fp) {
                double s = 0;
                for (int k = 0; k < K; k++)
                    s += A[i * K + k].f * B[k * N + j].f;
                r.f = s + C[i * N + j].f;
            } else {
                int64_t s = 0;
                for (int k = 0; k < K; k++) {
                    int64_t a = A[i * K + k].i, b = B[k * N + j].i;
                    s += x->bop == BOP_XOR ? (a ^ b) : x->bop == BOP_AND ? (a & b) : a * b;
                }
                r.i = s + C[i * N + j].i;
            }
            D[i * N + j] = r;
        }
}

static int exec_mma_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const exec_mma_x *x = in->ext;
    if (!exec_mma_converged(w, in, m))
        return EXEC_STOPPED;
    exec_mma_work *wk = calloc(1, sizeof *wk);
    if (!wk) {
        exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, -1, PTX_SPACE_NONE, 0, 0,
                   "out of host memory for a matrix instruction");
        return EXEC_STOPPED;
    }
    exec_mma_gather(w, x, MX_A, &x->f[1], wk->a, m);
    exec_mma_gather(w, x, MX_B, &x->f[2], wk->b, m);
    exec_mma_gather(w, x, MX_C, &x->f[3], wk->c, m);
    int nq = x->m884 ? 4 : 1;
    for (int q = 0; q < nq; q++)
        exec_mma_product(x, wk, q);
    const exec_mma_frag *fd = &x->f[0];
    uint64_t out[MMA_MAXREGS][EXEC_LANES];
    memset(out, 0, sizeof out);
    int qsz = fd->rows * fd->cols;
    EXEC_FOR_LANES(l, m) {
        for (int e = 0; e < fd->nel; e++) {
            int q = 0, r, c;
            if (x->m884)
                exec_mma_pos884(x, MX_C, fd, (int)l, e, &q, &r, &c);
            else
                exec_mma_pos(fd, (int)l, e, &r, &c);
            exec_mma_rput(fd, out, e, (int)l,
                          exec_mma_encode(fd->et, wk->d[q * qsz + r * fd->cols + c], x->satf));
        }
    }
    free(wk);
    exec_mma_wregs(w, fd, out, m);
    return EXEC_NEXT;
}

/* ---- decoding of wmma and mma ---------------------------------------------------------------- */
static int exec_dec_wmma_ldst(exec_dec *d, const ptx_insn *pi, exec_insn *in,
                              const exec_mma_mods *mo, exec_mma_x *x, int store)
{
    if (mo->shape != 3 || mo->nlay != 1 || mo->net != 1)
        return exec_dec_error(d, pi, "expected .layout.shape.type");
    if (store ? mo->which != 2 : (mo->which < 0 || mo->which > 2))
        return exec_dec_error(d, pi, store ? "expected wmma.store.d" : "expected .a, .b or .c");
    int et = mo->et[0], which = mo->which;
    x->kind = store ? MK_WSTORE : MK_WLOAD;
    x->which = which;
    x->layout = mo->lay[0];
    x->M = mo->M, x->N = mo->N, x->K = mo->K;
    /* find the multiplicand type this shape is used with: A/B give it, C/D must fit one */
    int ok = 0;
    if (which != MX_C) {
        ok = exec_mma_shape_ok(x->M, x->N, x->K, et, 1);
    } else {
        for (int t = 1; t < MT__COUNT && !ok; t++)
            ok = exec_mma_types[t].bits < 32 || t == MT_TF32 || t == MT_F64
                     ? exec_mma_shape_ok(x->M, x->N, x->K, t, 1) && exec_mma_acc_ok(t, et)
                     : 0;
    }
    if (!ok)
        return exec_dec_error(d, pi, "unsupported shape/type combination m%dn%dk%d.%s",
                              x->M, x->N, x->K, exec_mma_types[et].name);
    if ((et == MT_S4 || et == MT_U4 || et == MT_B1) && x->layout != (which == MX_B))
        return exec_dec_error(d, pi, "sub-byte matrices must be .row for A and .col for B");
    if (mo->sp != PTX_SPACE_GENERIC && mo->sp != PTX_SPACE_GLOBAL && mo->sp != PTX_SPACE_SHARED)
        return exec_dec_error(d, pi, "state space must be .global or .shared");
    exec_mma_geom(&x->f[0], which, x->M, x->N, x->K, et, 1);
    if (pi->nops != 2 && pi->nops != 3)
        return exec_dec_error(d, pi, "expected 2 or 3 operands");
    const ptx_operand *frag = &pi->ops[store ? 1 : 0], *ad = &pi->ops[store ? 0 : 1];
    if (exec_mma_regs(d, pi, frag, &x->f[0], !store, "fragment"))
        return -1;
    if (exec_mma_addr(d, pi, in, ad, mo->sp))
        return -1;
    if (pi->nops == 3) {
        exec_insn tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.src = pi;
        int nfix = d->nfix;
        if (exec_dec_src(d, &tmp, 0, &pi->ops[2], PTX_T_U32))
            return -1;
        if (d->nfix != nfix || tmp.op[0].kind == EXEC_O_SREG)
            return exec_dec_error(d, pi, "stride must be a 32-bit register or an immediate");
        x->stride = tmp.op[0];
    }
    in->fn = exec_wmma_ldst;
    return 0;
}

/* wmma.mma.sync.aligned.alayout.blayout.shape.dtype.ctype d, a, b, c;            (.f16)
 * wmma.mma{.op.popc}.sync.aligned.alayout.blayout.shape.dtype.atype.btype.ctype{.satfinite}{.rn}
 * mma.sync.aligned.shape.alayout.blayout{.satfinite}.dtype.atype.btype.ctype{.op.popc} d, a, b, c; */
static int exec_dec_mma_common(exec_dec *d, const ptx_insn *pi, exec_insn *in,
                               const exec_mma_mods *mo, exec_mma_x *x, int wmma)
{
    int dt, at, bt, ct;
    if (mo->shape != 3 || mo->nlay != 2)
        return exec_dec_error(d, pi, "expected .shape.alayout.blayout");
    if (wmma && mo->net == 2) {
        dt = mo->et[0], ct = mo->et[1], at = bt = MT_F16;
    } else if (mo->net == 4) {
        dt = mo->et[0], at = mo->et[1], bt = mo->et[2], ct = mo->et[3];
    } else {
        return exec_dec_error(d, pi, "expected .dtype.atype.btype.ctype");
    }
    x->kind = MK_MMA;
    x->M = mo->M, x->N = mo->N, x->K = mo->K;
    x->alay = mo->lay[0], x->blay = mo->lay[1];
    x->satf = mo->satf;
    x->bop = mo->bop;
    if (!exec_mma_shape_ok(x->M, x->N, x->K, at, wmma) ||
        exec_mma_family(at) != exec_mma_family(bt) ||
        (exec_mma_family(at) == MT_F16 && at != bt) ||
        (exec_mma_family(at) == MT_BF16 && at != bt) ||
        (exec_mma_family(at) == MT_TF32 && at != bt) ||
        (exec_mma_family(at) == MT_F64 && at != bt))
        return exec_dec_error(d, pi, "unsupported shape/type combination m%dn%dk%d.%s.%s",
                              x->M, x->N, x->K, exec_mma_types[at].name,
                              exec_mma_types[bt].name);
    if (!exec_mma_acc_ok(at, dt) || !exec_mma_acc_ok(at, ct))
        return exec_dec_error(d, pi, "bad accumulator types .%s/.%s for .%s",
                              exec_mma_types[dt].name, exec_mma_types[ct].name,
                              exec_mma_types[at].name);
    x->m884 = !wmma && x->M == 8 && x->N == 8 && x->K == 4 && at == MT_F16;
    if (!wmma && !x->m884 && (x->alay != 0 || x->blay != 1))
        return exec_dec_error(d, pi, "this shape requires .row.col");
    if (at == MT_B1 ? (x->bop == BOP_MUL || !mo->popc) : (x->bop != BOP_MUL || mo->popc))
        return exec_dec_error(d, pi, at == MT_B1 ? "expected .xor.popc or .and.popc"
                                                 : ".popc operations need .b1 operands");
    if (mo->satf && exec_mma_types[at].fp && !wmma)
        return exec_dec_error(d, pi, ".satfinite needs integer operands");
    if (mo->rn && at != MT_F64)
        return exec_dec_error(d, pi, ".rn is only for .f64");
    if (mo->sp != PTX_SPACE_GENERIC || mo->which >= 0 || mo->trans || mo->num)
        return exec_dec_error(d, pi, "unexpected qualifier");
    if (x->m884) {
        /* quad-pair layout: per lane A and B hold 4 elements, C/D 8 */
        exec_mma_geom(&x->f[1], MX_A, 8, 8, 4, at, 0);
        exec_mma_geom(&x->f[2], MX_B, 8, 8, 4, bt, 0);
        exec_mma_geom(&x->f[3], MX_C, 8, 8, 4, ct, 0);
        exec_mma_geom(&x->f[0], MX_C, 8, 8, 4, dt, 0);
        for (int k = 0; k < 4; k++) {
            exec_mma_frag *f = &x->f[k];
            f->distinct = k == 1 || k == 2 ? 4 : 8;
            f->nregs = f->distinct / f->per_reg;
            f->nel = f->distinct;
        }
    } else {
        exec_mma_geom(&x->f[0], MX_C, x->M, x->N, x->K, dt, wmma);
        exec_mma_geom(&x->f[1], MX_A, x->M, x->N, x->K, at, wmma);
        exec_mma_geom(&x->f[2], MX_B, x->M, x->N, x->K, bt, wmma);
        exec_mma_geom(&x->f[3], MX_C, x->M, x->N, x->K, ct, wmma);
    }
    if (pi->nops != 4)
        return exec_dec_error(d, pi, "expected 4 operands d, a, b, c");
    static const char *const names[4] = { "d", "a", "b", "c" };
    for (int k = 0; k < 4; k++)
        if (exec_mma_regs(d, pi, &pi->ops[k], &x->f[k], k == 0, names[k]))
            return -1;
    in->type = (uint8_t)PTX_T_NONE;
    in->fn = exec_mma_fn;
    return 0;
}

int exec_dec_wmma(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_mma_mods mo;
    if (exec_mma_parse(d, pi, &mo))
        return -1;
    exec_mma_x *x = exec_dec_alloc(d, sizeof *x);
    if (!x)
        return exec_dec_error(d, pi, "out of memory");
    in->ext = x;
    if (!mo.sub)
        return exec_dec_error(d, pi, "expected wmma.load, wmma.store or wmma.mma");
    if (strcmp(mo.sub, "mma") == 0) {
        if (mo.which >= 0)
            return exec_dec_error(d, pi, "unexpected .a/.b/.c/.d");
        return exec_dec_mma_common(d, pi, in, &mo, x, 1);
    }
    if (mo.satf || mo.rn || mo.bop || mo.popc || mo.trans || mo.num)
        return exec_dec_error(d, pi, "unexpected qualifier");
    return exec_dec_wmma_ldst(d, pi, in, &mo, x, strcmp(mo.sub, "store") == 0);
}

int exec_dec_mma(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_mma_mods mo;
    if (exec_mma_parse(d, pi, &mo))
        return -1;
    if (mo.sub)
        return exec_dec_error(d, pi, "unsupported qualifier .%s", mo.sub);
    exec_mma_x *x = exec_dec_alloc(d, sizeof *x);
    if (!x)
        return exec_dec_error(d, pi, "out of memory");
    in->ext = x;
    return exec_dec_mma_common(d, pi, in, &mo, x, 0);
}

/* ---- ldmatrix / stmatrix / movmatrix ---------------------------------------------------------
 * ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16 r, [p];
 * stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16 [p], r;
 * movmatrix.sync.aligned.m8n8.trans.b16 d, a;
 * Matrix j (0..num-1) is 8 rows of 8 .b16 elements (16 bytes, 16-byte aligned); the address of
 * its row r is given by lane 8j + r (lanes beyond 8 * num give none). Register j of lane l
 * holds row l / 4, elements 2 (l % 4) (low half) and 2 (l % 4) + 1 (high half) of matrix j;
 * with .trans, of its transpose (element (r, c) of the transpose is row c, element r of the
 * matrix in memory). movmatrix: d of lane l = element pair (l / 4, 2 (l % 4) + h) of the
 * transpose of the matrix that a holds in that same layout. */
static int exec_ldstmatrix(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const exec_mma_x *x = in->ext;
    const exec_mma_frag *f = &x->f[0];
    if (!exec_mma_converged(w, in, m))
        return EXEC_STOPPED;
    uint16_t mat[4][8][8];
    memset(mat, 0, sizeof mat);
    uint64_t addr[EXEC_LANES];
    exec_addr_lanes(w, in, m, addr);
    ptx_space sp = (ptx_space)(in->aux[3] & 0xff);
    /* lanes giving row addresses: 8 per matrix */
    uint32_t rows = (x->num == 4 ? EXEC_FULL : (1u << (8 * x->num)) - 1) & m;
    int store = x->kind == MK_STM;
    if (store) {
        EXEC_FOR_LANES(l, m)
            for (int j = 0; j < x->num; j++) {
                uint32_t v = (uint32_t)exec_mma_rget(w, f, j, (int)l);
                int r = (int)l / 4, c = 2 * ((int)l % 4);
                for (int h = 0; h < 2; h++) {
                    uint16_t e = (uint16_t)(v >> (16 * h));
                    if (x->trans)
                        mat[j][c + h][r] = e;
                    else
                        mat[j][r][c + h] = e;
                }
            }
    }
    EXEC_FOR_LANES(l, rows) {
        uint8_t *h = mem_xlate(w, in, (int)l, sp, addr[l], 16, store);
        if (!h)
            return EXEC_STOPPED;
        if (store)
            memcpy(h, mat[l / 8][l % 8], 16);
        else
            memcpy(mat[l / 8][l % 8], h, 16);
    }
    if (store)
        return EXEC_NEXT;
    uint64_t out[MMA_MAXREGS][EXEC_LANES];
    memset(out, 0, sizeof out);
    EXEC_FOR_LANES(l, m)
        for (int j = 0; j < x->num; j++) {
            int r = (int)l / 4, c = 2 * ((int)l % 4);
            uint32_t lo = x->trans ? mat[j][c][r] : mat[j][r][c];
            uint32_t hi = x->trans ? mat[j][c + 1][r] : mat[j][r][c + 1];
            out[j][l] = lo | hi << 16;
        }
    exec_mma_wregs(w, f, out, m);
    return EXEC_NEXT;
}

static int exec_movmatrix(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const exec_mma_x *x = in->ext;
    if (!exec_mma_converged(w, in, m))
        return EXEC_STOPPED;
    uint16_t mat[8][8];
    memset(mat, 0, sizeof mat);
    EXEC_FOR_LANES(l, m) {
        uint32_t v = (uint32_t)exec_mma_rget(w, &x->f[1], 0, (int)l);
        mat[l / 4][2 * (l % 4)] = (uint16_t)v;
        mat[l / 4][2 * (l % 4) + 1] = (uint16_t)(v >> 16);
    }
    uint64_t out[MMA_MAXREGS][EXEC_LANES];
    memset(out, 0, sizeof out);
    EXEC_FOR_LANES(l, m) {
        int r = (int)l / 4, c = 2 * ((int)l % 4);
        out[0][l] = (uint32_t)mat[c][r] | (uint32_t)mat[c + 1][r] << 16;
    }
    exec_mma_wregs(w, &x->f[0], out, m);
    return EXEC_NEXT;
}

/* Shared decode: kind MK_LDM, MK_STM or MK_MOVM. */
static int exec_dec_matrix(exec_dec *d, const ptx_insn *pi, exec_insn *in, int kind)
{
    exec_mma_mods mo;
    if (exec_mma_parse(d, pi, &mo))
        return -1;
    exec_mma_x *x = exec_dec_alloc(d, sizeof *x);
    if (!x)
        return exec_dec_error(d, pi, "out of memory");
    in->ext = x;
    x->kind = kind;
    if (mo.shape != 2 || mo.M != 8 || mo.N != 8 || mo.net != 1 || mo.et[0] != MT_B16)
        return exec_dec_error(d, pi, "only .m8n8 matrices of .b16 are supported");
    if (mo.sub || mo.which >= 0 || mo.nlay || mo.satf || mo.rn || mo.bop || mo.popc)
        return exec_dec_error(d, pi, "unexpected qualifier");
    if (pi->nops != 2)
        return exec_dec_error(d, pi, "expected 2 operands");
    exec_mma_frag *f = &x->f[0];
    f->et = MT_B16;
    f->bits = 16;
    f->per_reg = 1;    /* one register per matrix (both halves handled by the handler) */
    x->trans = mo.trans;
    if (kind == MK_MOVM) {
        if (!mo.trans || mo.num || mo.sp != PTX_SPACE_GENERIC)
            return exec_dec_error(d, pi, "expected movmatrix.sync.aligned.m8n8.trans.b16");
        x->num = 1;
        f->bits = 32;
        f->nregs = f->nel = f->distinct = 1;
        x->f[1] = *f;
        if (exec_mma_regs(d, pi, &pi->ops[0], &x->f[0], 1, "d") ||
            exec_mma_regs(d, pi, &pi->ops[1], &x->f[1], 0, "a"))
            return -1;
        in->fn = exec_movmatrix;
        return 0;
    }
    if (!mo.num)
        return exec_dec_error(d, pi, "expected .x1, .x2 or .x4");
    if (mo.sp != PTX_SPACE_GENERIC && mo.sp != PTX_SPACE_SHARED)
        return exec_dec_error(d, pi, "state space must be .shared");
    x->num = mo.num;
    f->bits = 32;
    f->nregs = f->nel = f->distinct = mo.num;
    int store = kind == MK_STM;
    if (exec_mma_regs(d, pi, &pi->ops[store ? 1 : 0], f, !store, "r"))
        return -1;
    if (exec_mma_addr(d, pi, in, &pi->ops[store ? 0 : 1], mo.sp))
        return -1;
    in->fn = exec_ldstmatrix;
    return 0;
}

int exec_dec_ldmatrix(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    return exec_dec_matrix(d, pi, in, MK_LDM);
}

int exec_dec_stmatrix(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    return exec_dec_matrix(d, pi, in, MK_STM);
}

int exec_dec_movmatrix(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    return exec_dec_matrix(d, pi, in, MK_MOVM);
}
