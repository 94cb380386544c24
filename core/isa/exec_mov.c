/* exec_mov.c - mov: registers, immediates, special registers, symbol addresses, pack/unpack. */
#include <string.h>
#include "exec_core.h"

/* mov.type d, a: copy a to d (a register, immediate, special register or a constant address). */
#define EXEC_MOV(name, T)                                                                  \
    static int name(exec_warp *w, const exec_insn *in, uint32_t m)                         \
    {                                                                                      \
        T *d = EXEC_DST(w, in, 0);                                                         \
        const T *a = EXEC_SRC(w, in, 1);                                                   \
        if (m == EXEC_FULL) {                                                              \
            memmove(d, a, sizeof(T) * EXEC_LANES);                                         \
        } else {                                                                           \
            EXEC_FOR_LANES(i, m)                                                           \
                d[i] = a[i];                                                               \
        }                                                                                  \
        return EXEC_NEXT;                                                                  \
    }
EXEC_MOV(exec_mov8, uint8_t)
EXEC_MOV(exec_mov16, uint16_t)
EXEC_MOV(exec_mov32, uint32_t)
EXEC_MOV(exec_mov64, uint64_t)

/* mov.b128 d, a: two 64-bit slots. */
static int exec_mov128(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint64_t *d = EXEC_DST(w, in, 0), *dh = (uint64_t *)(void *)((uint8_t *)d + EXEC_SLOT);
    const uint64_t *a = EXEC_SRC(w, in, 1);
    const uint64_t *ah = (const uint64_t *)(const void *)((const uint8_t *)a + EXEC_SLOT);
    EXEC_FOR_LANES(i, m) {
        d[i] = a[i];
        dh[i] = ah[i];
    }
    return EXEC_NEXT;
}

/* mov.pred d, a */
static int exec_movp(exec_warp *w, const exec_insn *in, uint32_t m)
{
    exec_pred_set(w, &in->op[0], exec_pred_get(w, &in->op[1]), m);
    return EXEC_NEXT;
}

/* mov.u64 d, localvar: the lane's address of a .local variable of the current activation. */
static int exec_mov_local(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint64_t off = (uint64_t)in->aux[0];
    if (in->type == PTX_T_U32 || in->type == PTX_T_B32 || in->type == PTX_T_S32) {
        uint32_t *d = EXEC_DST(w, in, 0);
        EXEC_FOR_LANES(i, m)
            d[i] = (uint32_t)(w->cur_frame->local_base[i] + off);
    } else {
        uint64_t *d = EXEC_DST(w, in, 0);
        EXEC_FOR_LANES(i, m)
            d[i] = w->cur_frame->local_base[i] + off;
    }
    return EXEC_NEXT;
}

/* Pack {e0, e1, ...} -> d (element k at bits k*W) / unpack d -> {e0, e1, ...}.
 * aux[0] = number of elements, aux[1] = element bytes; op[0] = whole, op[1..n] = elements.
 * A `_` element of a pack leaves those bits of d as they were. */
static int exec_pack(exec_warp *w, const exec_insn *in, uint32_t m)
{
    int n = (int)in->aux[0], es = (int)in->aux[1], ws = n * es;
    uint8_t *d = EXEC_DST(w, in, 0);
    const uint8_t *e[EXEC_MAXOPS];
    for (int k = 0; k < n; k++)
        e[k] = in->op[k + 1].kind == EXEC_O_SINK ? NULL : EXEC_SRC(w, in, k + 1);
    EXEC_FOR_LANES(i, m) {
        uint8_t tmp[16];
        if (ws == 16) {
            memcpy(tmp, d + i * 8, 8);
            memcpy(tmp + 8, d + EXEC_SLOT + i * 8, 8);
        } else {
            memcpy(tmp, d + i * (uint32_t)ws, (size_t)ws);
        }
        for (int k = 0; k < n; k++)
            if (e[k])
                memcpy(tmp + k * es, e[k] + i * (uint32_t)es, (size_t)es);
        if (ws == 16) {
            memcpy(d + i * 8, tmp, 8);
            memcpy(d + EXEC_SLOT + i * 8, tmp + 8, 8);
        } else {
            memcpy(d + i * (uint32_t)ws, tmp, (size_t)ws);
        }
    }
    return EXEC_NEXT;
}

static int exec_unpack(exec_warp *w, const exec_insn *in, uint32_t m)
{
    int n = (int)in->aux[0], es = (int)in->aux[1], ws = n * es;
    const uint8_t *a = EXEC_SRC(w, in, 0);
    uint8_t *e[EXEC_MAXOPS];
    for (int k = 0; k < n; k++)
        e[k] = EXEC_DST(w, in, k + 1);
    uint8_t tmp[EXEC_LANES][16];
    EXEC_FOR_LANES(i, m) {   /* read everything first: a may also be a destination */
        if (ws == 16) {
            memcpy(tmp[i], a + i * 8, 8);
            memcpy(tmp[i] + 8, a + EXEC_SLOT + i * 8, 8);
        } else {
            memcpy(tmp[i], a + i * (uint32_t)ws, (size_t)ws);
        }
    }
    for (int k = 0; k < n; k++)
        if (in->op[k + 1].kind != EXEC_O_SINK)
            EXEC_FOR_LANES(i, m)
                memcpy(e[k] + i * (uint32_t)es, tmp[i] + k * es, (size_t)es);
    return EXEC_NEXT;
}

/* mov.v2/.v4.type {d...}, {a...}: element-wise copies (vector registers arrive expanded to their
 * elements). Every source is read before any destination is written, so a permutation of one
 * vector register (`mov.v2.u32 v, {v.y, v.x}`) sees the old values. aux[0] = elements, aux[1]
 * = element bytes; op[0..n-1] = destinations, op[n..2n-1] = sources. */
static int exec_mov_vec(exec_warp *w, const exec_insn *in, uint32_t m)
{
    int n = (int)in->aux[0], es = (int)in->aux[1];
    uint8_t tmp[4][EXEC_LANES * 8];
    for (int k = 0; k < n; k++)
        memcpy(tmp[k], EXEC_SRC(w, in, n + k), (size_t)es * EXEC_LANES);
    for (int k = 0; k < n; k++) {
        if (in->op[k].kind == EXEC_O_SINK)
            continue;
        uint8_t *d = EXEC_DST(w, in, k);
        EXEC_FOR_LANES(i, m)
            memcpy(d + i * (uint32_t)es, tmp[k] + i * (uint32_t)es, (size_t)es);
    }
    return EXEC_NEXT;
}

static int exec_dec_mov_vec(exec_dec *d, const ptx_insn *pi, exec_insn *in, ptx_type t, int n)
{
    const ptx_operand *dst = &pi->ops[0], *src = &pi->ops[1];
    int bits = ptx_type_bits(t);
    if (t == PTX_T_PRED || bits > 64)
        return exec_dec_error(d, pi, "mov.v%d takes .b8-.b64 element types", n);
    if (dst->kind != PTX_OP_VEC || src->kind != PTX_OP_VEC || dst->nelems != n ||
        src->nelems != n)
        return exec_dec_error(d, pi, "mov.v%d needs vectors of %d elements on both sides", n,
                              n);
    for (int k = 0; k < n; k++) {
        if (dst->elems[k].kind == PTX_OP_SINK)
            in->op[k].kind = EXEC_O_SINK;
        else if (exec_dec_dst(d, in, k, &dst->elems[k], t))
            return -1;
        if (src->elems[k].kind == PTX_OP_SINK)
            return exec_dec_error(d, pi, "a source element cannot be '_'");
        if (exec_dec_src(d, in, n + k, &src->elems[k], t))
            return -1;
    }
    in->nops = (uint8_t)(2 * n);
    in->aux[0] = n;
    in->aux[1] = bits / 8;
    in->fn = exec_mov_vec;
    return 0;
}

static ptx_type exec_uint_of_bytes(int b)
{
    switch (b) {
    case 1: return PTX_T_B8;
    case 2: return PTX_T_B16;
    case 4: return PTX_T_B32;
    default: return PTX_T_B64;
    }
}

static int exec_mov_explicit(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint32_t v = *(const uint32_t *)(const void *)(w->r.sregs + EXEC_SR_IS_EXPLICIT * EXEC_SLOT);
    exec_pred_set(w, &in->op[0], v ? EXEC_FULL : 0, m);
    return EXEC_NEXT;
}

int exec_dec_mov(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    ptx_type t = exec_dec_type(pi, 0);
    if (t == PTX_T_NONE || pi->nops != 2)
        return exec_dec_error(d, pi, "expected mov.type d, a");
    int vn = 0;
    for (int i = 0; i < pi->nmods; i++) {
        if (!strcmp(pi->mods[i], "v2") || !strcmp(pi->mods[i], "v4")) {
            vn = pi->mods[i][1] - '0';
            continue;
        }
        if (ptx_type_from_name(pi->mods[i]) == PTX_T_NONE)
            return exec_dec_error(d, pi, "unsupported qualifier .%s", pi->mods[i]);
    }
    in->type = (uint8_t)t;
    if (vn)
        return exec_dec_mov_vec(d, pi, in, t, vn);
    const ptx_operand *dst = &pi->ops[0], *src = &pi->ops[1];
    int bits = ptx_type_bits(t);
    if (t == PTX_T_PRED) {
        if (src->kind == PTX_OP_REG && src->sym && src->sym->kind == PTX_SYM_SREG &&
            src->sym->sreg_id == PTX_SREG_IS_EXPLICIT_CLUSTER) {
            /* .sreg .pred %is_explicit_cluster: true when the launch has explicit cluster
             * dimensions (exec_cluster.c); read from the warp's EXEC_SR_IS_EXPLICIT slot */
            if (exec_dec_pdst(d, in, 0, dst))
                return -1;
            in->nops = 2;
            in->fn = exec_mov_explicit;
            return 0;
        }
        if (exec_dec_pdst(d, in, 0, dst) || exec_dec_psrc(d, in, 1, src))
            return -1;
        in->fn = exec_movp;
        return 0;
    }
    if (dst->kind == PTX_OP_VEC || src->kind == PTX_OP_VEC) {
        const ptx_operand *v = dst->kind == PTX_OP_VEC ? dst : src;
        const ptx_operand *whole = dst->kind == PTX_OP_VEC ? src : dst;
        int n = v->nelems;
        const ptx_sym *vs = v->elems[0].kind == PTX_OP_REG ? v->elems[0].sym : NULL;
        if (vs && vs->vec == n && vs->kind == PTX_SYM_REG && ptx_type_bits(vs->type) * n != bits)
            /* a vector register named whole: its size must be the instruction's */
            return exec_dec_error(d, pi, "vector register %s (.v%d .%s) is %d bits, .%s needs %d",
                                  vs->name, n, ptx_type_name(vs->type),
                                  ptx_type_bits(vs->type) * n, ptx_type_name(t), bits);
        if (n < 2 || n > 4 || bits % n || (bits / n) % 8)
            return exec_dec_error(d, pi, "bad vector of %d elements for .%s", n,
                                  ptx_type_name(t));
        ptx_type et = exec_uint_of_bytes(bits / n / 8);
        int unpack = dst->kind == PTX_OP_VEC;
        if (t == PTX_T_B128) {
            if (whole->kind != PTX_OP_REG || whole->sym->type != PTX_T_B128)
                return exec_dec_error(d, pi, ".b128 operand must be a .b128 register");
            int ri = exec_reg_lookup(d->fd, whole->sym);
            if (ri < 0)
                return exec_dec_error(d, pi, "undeclared register %s", whole->sym->name);
            in->op[0].kind = EXEC_O_REG;
            in->op[0].off = d->fd->reg_off[ri];
            in->op[0].type = PTX_T_B128;
        } else if (unpack ? exec_dec_src(d, in, 0, whole, t) : exec_dec_dst(d, in, 0, whole, t)) {
            return -1;
        }
        for (int k = 0; k < n; k++) {
            int rc;
            if (unpack)
                rc = v->elems[k].kind == PTX_OP_SINK ? (in->op[k + 1].kind = EXEC_O_SINK, 0)
                                                     : exec_dec_dst(d, in, k + 1, &v->elems[k], et);
            else if (v->elems[k].kind == PTX_OP_SINK)
                rc = (in->op[k + 1].kind = EXEC_O_SINK, 0);
            else
                rc = exec_dec_src(d, in, k + 1, &v->elems[k], et);
            if (rc)
                return -1;
        }
        in->nops = (uint8_t)(n + 1);
        in->aux[0] = n;
        in->aux[1] = bits / n / 8;
        in->fn = unpack ? exec_unpack : exec_pack;
        return 0;
    }
    if (exec_dec_dst(d, in, 0, dst, t))
        return -1;
    if (src->kind == PTX_OP_SYM && src->sym->kind == PTX_SYM_VAR) {
        ptx_space sp;
        uint64_t off;
        int pl;
        if (exec_dec_var(d, src->sym, &sp, &off, &pl))
            return exec_dec_error(d, pi, "cannot take the address of %s", src->sym->name);
        if (pl == 1) {
            in->aux[0] = (int64_t)(off + (uint64_t)src->ival);
            in->fn = exec_mov_local;
            return 0;
        }
        if (pl == 2) {
            /* an input parameter of this device function: its copy on the stack (.local) */
            int k = -1;
            for (int i = 0; i < d->f->nparams; i++)
                if (d->f->params[i] == src->sym)
                    k = i;
            if (k < 0)
                return exec_dec_error(d, pi, "taking the address of %s is not supported "
                                      "(only input parameters of the function)",
                                      src->sym->name);
            uint64_t *offs = exec_dec_alloc(d, sizeof(uint64_t) * (size_t)(d->f->nparams + 1));
            uint64_t size;
            uint32_t align;
            if (!offs)
                return -1;
            exec_param_copies(d->fd, offs, &size, &align);
            if (offs[k] == UINT64_MAX)
                return exec_dec_error(d, pi, "parameter %s has no stack copy", src->sym->name);
            in->aux[0] = (int64_t)(offs[k] + (uint64_t)src->ival);
            in->fn = exec_mov_local;
            return 0;
        }
    }
    if (t == PTX_T_B128) {
        if (src->kind != PTX_OP_REG || dst->kind != PTX_OP_REG)
            return exec_dec_error(d, pi, "mov.b128 needs registers");
        int ri = exec_reg_lookup(d->fd, src->sym);
        if (ri < 0 || src->sym->type != PTX_T_B128)
            return exec_dec_error(d, pi, "bad .b128 source");
        in->op[1].kind = EXEC_O_REG;
        in->op[1].off = d->fd->reg_off[ri];
        in->nops = 2;
        in->fn = exec_mov128;
        return 0;
    }
    if (exec_dec_src(d, in, 1, src, t))
        return -1;
    switch (bits) {
    case 8: in->fn = exec_mov8; break;
    case 16: in->fn = exec_mov16; break;
    case 32: in->fn = exec_mov32; break;
    case 64: in->fn = exec_mov64; break;
    default: return exec_dec_error(d, pi, "unsupported type .%s", ptx_type_name(t));
    }
    return 0;
}
