/* exec_atomx.c - atom/red forms beyond one scalar: .b128 cas/exch and vector .v2/.v4/.v8 float additions (sm_90). */
#include <inttypes.h>
#include <string.h>
#include "exec_core.h"
#include "exec_fp.h"

/* =============================================================================================
 * atom{.sem}{.scope}{.space}.cas.b128 d, [a], b, c; atom....exch.b128 d, [a], b (PTX ISA 8.3):
 *   one 16-byte atomic: d = old; memory = (op == cas && old != b) ? old : (cas ? c : b).
 * atom{.sem}{.scope}.global.op{.noftz}.vN.T d, [a], b; red....global.op.vN.T [a], b
 *   (PTX ISA 8.1): .add of .v2/.v4 .f32; .add/.min/.max of .v2/.v4/.v8 .f16/.bf16/.f16x2/
 *   .bf16x2 (at most 16 bytes); each element is an atomic operation of its own (the vector is
 *   not one atomic), f32 without flushing (as atom.global.add.f32 on sm_90), f16/bf16 sums
 *   rounded to nearest, min/max with the min/max instructions' NaN and signed-zero rules.
 * Lanes apply one after the other in lane order, as every atomic here (exec_sync.c). These
 * handlers are not exec_atom_fn, so a module using them never runs CTAs in parallel.
 * Every other atom/red goes to exec_sync.c's decoder unchanged.
 * ============================================================================================= */
enum { AX_CAS = 1, AX_EXCH, AX_ADD, AX_MIN, AX_MAX };

int exec_dec_atom(exec_dec *d, const ptx_insn *pi, exec_insn *in);   /* exec_sync.c */
int exec_dec_red(exec_dec *d, const ptx_insn *pi, exec_insn *in);

/* The generic/global/shared host bytes of lane i's address, or NULL after a fault. */
static uint8_t *ax_host(exec_warp *w, const exec_insn *in, uint32_t i, uint64_t a, uint32_t n)
{
    ptx_space sp = (ptx_space)(in->aux[3] & 0xff);
    uint64_t sa = a;
    if (sp == PTX_SPACE_GENERIC)
        sp = mem_generic_decode(a, &sa);
    if (sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_SHARED) {
        exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, (int)i, sp, a, n,
                   "atomic on %s address 0x%" PRIx64 " (only global and shared)",
                   ptx_space_name(sp), a);
        return NULL;
    }
    if (a % n) {
        exec_fault(w, in, EXEC_EXC_MISALIGNED, (int)i, sp, a, n,
                   "misaligned %u-byte atomic at 0x%" PRIx64, n, a);
        return NULL;
    }
    return mem_xlate(w, in, (int)i, sp, sa, n, EXEC_ACC_ATOMIC);
}

/* A 128-bit register operand: its two 64-bit slots (low, high) for lane i. */
static void ax_get128(exec_warp *w, const exec_insn *in, int k, uint32_t i, uint64_t v[2])
{
    const uint8_t *p = exec_opnd_ptr(EXEC_R(w), &in->op[k]);
    memcpy(&v[0], p + i * 8, 8);
    memcpy(&v[1], p + EXEC_SLOT + i * 8, 8);
}

static int h_atom128(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint64_t addr[EXEC_LANES];
    exec_addr_lanes(w, in, m, addr);
    EXEC_FOR_LANES(i, m) {
        uint8_t *h = ax_host(w, in, i, addr[i], 16);
        if (!h)
            return EXEC_STOPPED;
        uint64_t old[2], b[2], c[2] = { 0, 0 };
        memcpy(old, h, 16);
        ax_get128(w, in, 1, i, b);
        if (in->flags == AX_CAS)
            ax_get128(w, in, 2, i, c);
        if (in->flags == AX_EXCH)
            memcpy(h, b, 16);
        else if (old[0] == b[0] && old[1] == b[1])
            memcpy(h, c, 16);
        if (in->op[0].kind == EXEC_O_REG) {
            uint8_t *dp = EXEC_R(w)->regs + in->op[0].off;
            memcpy(dp + i * 8, &old[0], 8);
            memcpy(dp + EXEC_SLOT + i * 8, &old[1], 8);
        }
    }
    return EXEC_NEXT;
}

static uint16_t ax_hadd(const exec_fmt *f, uint16_t a, uint16_t b)
{
    return (uint16_t)exec_fp_from_double(f, exec_fp_to_double(f, a) + exec_fp_to_double(f, b),
                                         EXEC_RN, 0);
}

/* One f16/bf16 element: add (rounded to nearest), min or max (exec_half_minmax). */
static uint16_t ax_half(const exec_fmt *f, int op, uint16_t a, uint16_t b)
{
    return op == AX_ADD ? ax_hadd(f, a, b) : exec_half_minmax(f, a, b, op == AX_MAX);
}

/* Vector add/min/max: in->flags = elements n, in->type = element type, in->ext = the element
 * operands (d sinks for red); the address uses aux[0..3] as every memory instruction. */
typedef struct {
    exec_opnd d[8], b[8];
    int op;                   /* AX_ADD, AX_MIN, AX_MAX */
} ax_vec;

static int h_atomv(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint64_t addr[EXEC_LANES];
    const ax_vec *x = in->ext;
    int n = (int)in->flags;
    ptx_type t = (ptx_type)in->type;
    uint32_t es = (uint32_t)ptx_type_bits(t) / 8;
    exec_addr_lanes(w, in, m, addr);
    EXEC_FOR_LANES(i, m) {
        uint8_t *h = ax_host(w, in, i, addr[i], es * (uint32_t)n);
        if (!h)
            return EXEC_STOPPED;
        for (int k = 0; k < n; k++) {
            uint64_t old = 0, b = 0, nv;
            memcpy(&old, h + (uint32_t)k * es, es);
            memcpy(&b, (const uint8_t *)exec_opnd_ptr(EXEC_R(w), &x->b[k]) + i * es, es);
            if (t == PTX_T_F32) {
                nv = exec_f2u(exec_u2f((uint32_t)old) + exec_u2f((uint32_t)b));
            } else {
                const exec_fmt *f = (t == PTX_T_F16 || t == PTX_T_F16X2) ? &exec_fmt_f16
                                                                         : &exec_fmt_bf16;
                nv = ax_half(f, x->op, (uint16_t)old, (uint16_t)b);
                if (es == 4)
                    nv |= (uint64_t)ax_half(f, x->op, (uint16_t)(old >> 16),
                                            (uint16_t)(b >> 16)) << 16;
            }
            memcpy(h + (uint32_t)k * es, &nv, es);
            if (x->d[k].kind == EXEC_O_REG)   /* old element into d's element register */
                memcpy(EXEC_R(w)->regs + x->d[k].off + i * es, &old, es);
        }
    }
    return EXEC_NEXT;
}

/* Modifiers of the extended forms: op, type, vector, space; the rest must be orderings,
 * scopes or hints that change nothing here. */
static int ax_mods(exec_dec *d, const ptx_insn *pi, int *op, ptx_type *t, int *vec, ptx_space *sp,
                   int *hint)
{
    *op = 0;
    *t = PTX_T_NONE;
    *vec = 1;
    *sp = PTX_SPACE_GENERIC;
    *hint = 0;
    for (int i = 0; i < pi->nmods; i++) {
        const char *s = pi->mods[i];
        ptx_type tt = ptx_type_from_name(s);
        if (tt != PTX_T_NONE) *t = tt;
        else if (!strcmp(s, "cas")) *op = AX_CAS;
        else if (!strcmp(s, "exch")) *op = AX_EXCH;
        else if (!strcmp(s, "add")) *op = AX_ADD;
        else if (!strcmp(s, "min")) *op = AX_MIN;
        else if (!strcmp(s, "max")) *op = AX_MAX;
        else if (!strcmp(s, "v2") || !strcmp(s, "v4") || !strcmp(s, "v8")) *vec = s[1] - '0';
        else if (!strcmp(s, "global")) *sp = PTX_SPACE_GLOBAL;
        else if (!strcmp(s, "shared") || !strcmp(s, "shared::cta") || !strcmp(s, "shared::cluster"))
            *sp = PTX_SPACE_SHARED;
        else if (!strcmp(s, "L2::cache_hint")) *hint = 1;
        else if (strcmp(s, "relaxed") && strcmp(s, "acquire") && strcmp(s, "release") &&
                 strcmp(s, "acq_rel") && strcmp(s, "cta") && strcmp(s, "gpu") &&
                 strcmp(s, "sys") && strcmp(s, "cluster") && strcmp(s, "noftz"))
            return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
    }
    return 0;
}

static int ax_dec(exec_dec *d, const ptx_insn *pi, exec_insn *in, int red)
{
    int op, vec, hint;
    ptx_type t;
    ptx_space sp;
    if (ax_mods(d, pi, &op, &t, &vec, &sp, &hint))
        return -1;
    int k = 0;
    if (t == PTX_T_B128) {
        if (vec != 1 || (op != AX_CAS && op != AX_EXCH) || red)
            return exec_dec_error(d, pi, ".b128 atomics are atom.cas and atom.exch");
        int want = (op == AX_CAS ? 4 : 3) + hint;
        if (pi->nops != want)
            return exec_dec_error(d, pi, "expected %d operands", want);
        if (exec_dec_dst(d, in, 0, &pi->ops[k++], PTX_T_B128) ||
            exec_dec_address(d, pi, in, &pi->ops[k++], sp) ||
            exec_dec_src(d, in, 1, &pi->ops[k++], PTX_T_B128) ||
            (op == AX_CAS && exec_dec_src(d, in, 2, &pi->ops[k++], PTX_T_B128)))
            return -1;
        if (in->op[1].kind != EXEC_O_REG || (op == AX_CAS && in->op[2].kind != EXEC_O_REG))
            return exec_dec_error(d, pi, ".b128 operands must be .b128 registers");
        in->flags = (uint8_t)op;
        in->fn = h_atom128;
    } else {
        int es = ptx_type_bits(t) / 8;
        int half = t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_F16X2 || t == PTX_T_BF16X2;
        if (!(op == AX_ADD || ((op == AX_MIN || op == AX_MAX) && half)) ||
            !(t == PTX_T_F32 || half) || (t == PTX_T_F32 && vec == 8) || es * vec > 16)
            return exec_dec_error(d, pi, "vector atomics are .add of .v2/.v4 .f32, or .add, "
                                  ".min, .max of .v2/.v4/.v8 .f16/.bf16/.f16x2/.bf16x2 (16 bytes "
                                  "at most)");
        if (sp != PTX_SPACE_GLOBAL)
            return exec_dec_error(d, pi, "vector atomics need .global");
        int want = (red ? 2 : 3) + hint;
        if (pi->nops != want)
            return exec_dec_error(d, pi, "expected %d operands", want);
        const ptx_operand *dv = red ? NULL : &pi->ops[k++];
        const ptx_operand *av = &pi->ops[k++], *bv = &pi->ops[k++];
        if ((dv && (dv->kind != PTX_OP_VEC || dv->nelems != vec)) || bv->kind != PTX_OP_VEC ||
            bv->nelems != vec)
            return exec_dec_error(d, pi, "expected vectors of %d elements", vec);
        ax_vec *x = exec_dec_alloc(d, sizeof *x);
        if (!x)
            return exec_dec_error(d, pi, "out of memory");
        for (int e = 0; e < vec; e++) {      /* decoded through op[0]/op[1], kept in x */
            if (!dv || dv->elems[e].kind == PTX_OP_SINK)
                x->d[e].kind = EXEC_O_SINK;
            else if (exec_dec_dst(d, in, 0, &dv->elems[e], t))
                return -1;
            else
                x->d[e] = in->op[0];
            if (exec_dec_src(d, in, 1, &bv->elems[e], t))
                return -1;
            x->b[e] = in->op[1];
        }
        memset(in->op, 0, sizeof in->op);
        in->nops = 0;
        if (exec_dec_address(d, pi, in, av, sp))
            return -1;
        in->ext = x;
        in->flags = (uint8_t)vec;
        x->op = op;
        in->fn = h_atomv;
    }
    in->type = (uint8_t)t;
    ptx_space vs = (ptx_space)(in->aux[3] & 0xff);
    if (vs != PTX_SPACE_GLOBAL && vs != PTX_SPACE_SHARED && vs != PTX_SPACE_GENERIC)
        return exec_dec_error(d, pi, "atomics need global, shared or generic addresses");
    return 0;
}

static int ax_extended(const ptx_insn *pi)
{
    for (int i = 0; i < pi->nmods; i++)
        if (!strcmp(pi->mods[i], "b128") || !strcmp(pi->mods[i], "v2") ||
            !strcmp(pi->mods[i], "v4") || !strcmp(pi->mods[i], "v8"))
            return 1;
    return 0;
}

int exec_dec_atom_any(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    return ax_extended(pi) ? ax_dec(d, pi, in, 0) : exec_dec_atom(d, pi, in);
}

int exec_dec_red_any(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    if (pi->nmods && !strcmp(pi->mods[0], "async"))
        return exec_dec_st_async(d, pi, in, 1);   /* red.async: exec_async.c */
    return ax_extended(pi) ? ax_dec(d, pi, in, 1) : exec_dec_red(d, pi, in);
}
