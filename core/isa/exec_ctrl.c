/* exec_ctrl.c - control flow: bra brx call ret exit brkpt trap nanosleep pmevent, stack ops. */
#include <inttypes.h>
#include <string.h>
#include "exec_core.h"

/* ---- helpers --------------------------------------------------------------------------------- */
static int exec_label_pc(exec_dec *d, const ptx_insn *pi, const ptx_sym *s, uint32_t *pc)
{
    if (!s || s->kind != PTX_SYM_LABEL || s->owner != d->f || s->section >= 0 ||
        s->index < 0 || s->index >= d->f->ninsns)
        return exec_dec_error(d, pi, "bad branch target %s", s ? s->name : "?");
    *pc = d->fd->pc0 + (uint32_t)s->index;
    return 0;
}

/* Split the group: lanes `taken` continue at per-lane pcs already stored in w->pc, the rest
 * of the group at `next`. */
static int exec_split(exec_warp *w, uint32_t rest, uint32_t next)
{
    EXEC_FOR_LANES(i, rest)
        w->pc[i] = next;
    w->cur_mask = 0;
    w->resched = 1;
    w->npc = next;
    return EXEC_JUMPED;
}

/* ---- bra ------------------------------------------------------------------------------------
 * bra{.uni} L: the executing lanes continue at L, guard-false lanes at the next instruction;
 * a partial jump splits the group (reconvergence by the min-pc scheduler). aux[0] = target. */
static int exec_bra(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint32_t t = (uint32_t)in->aux[0];
    if (m == w->cur_mask) {
        w->npc = t;
        return EXEC_JUMPED;
    }
    EXEC_FOR_LANES(i, m)
        w->pc[i] = t;
    return exec_split(w, w->cur_mask & ~m, in->pc + 1);
}

int exec_dec_bra(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    uint32_t pc;
    if (pi->nops != 1 || (pi->ops[0].kind != PTX_OP_SYM && pi->ops[0].kind != PTX_OP_REG))
        return exec_dec_error(d, pi, "expected bra label");
    if (exec_label_pc(d, pi, pi->ops[0].sym, &pc))
        return -1;
    in->aux[0] = pc;
    in->fn = exec_bra;
    return 0;
}

/* ---- brx.idx ---------------------------------------------------------------------------------
 * brx.idx{.uni} index, tlist: lane continues at the index-th label of the .branchtargets list;
 * an index outside the list is an invalid-pc exception. ext = pcs, aux[1] = count. */
static int exec_brx(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const uint32_t *idx = EXEC_SRC(w, in, 0), *pcs = in->ext;
    uint32_t n = (uint32_t)in->aux[1];
    EXEC_FOR_LANES(i, m)
        if (idx[i] >= n) {
            exec_fault(w, in, EXEC_EXC_INVALID_PC, (int)i, PTX_SPACE_NONE, 0, 0,
                       "brx.idx index %u outside its %u targets", idx[i], n);
            return EXEC_STOPPED;
        }
    uint32_t first = pcs[idx[exec_ctz(m)]], same = 1;
    EXEC_FOR_LANES(i, m) {
        w->pc[i] = pcs[idx[i]];
        same &= w->pc[i] == first;
    }
    if (same && m == w->cur_mask) {
        w->npc = first;
        return EXEC_JUMPED;
    }
    return exec_split(w, w->cur_mask & ~m, in->pc + 1);
}

int exec_dec_brx(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    if (pi->nops != 2 || !ptx_insn_has_mod(pi, "idx"))
        return exec_dec_error(d, pi, "expected brx.idx index, targets");
    if (exec_dec_src(d, in, 0, &pi->ops[0], PTX_T_U32))
        return -1;
    const ptx_sym *l = pi->ops[1].sym;
    for (int k = 0; l && k < d->f->ntargets; k++) {
        if (d->f->targets[k].sym != l)
            continue;
        int n = d->f->targets[k].nitems;
        uint32_t *pcs = exec_dec_alloc(d, sizeof(uint32_t) * (size_t)(n + 1));
        if (!pcs)
            return -1;
        for (int j = 0; j < n; j++)
            if (exec_label_pc(d, pi, d->f->targets[k].items[j], &pcs[j]))
                return -1;
        in->ext = pcs;
        in->aux[1] = n;
        in->fn = exec_brx;
        return 0;
    }
    return exec_dec_error(d, pi, "%s is not a .branchtargets list", l ? l->name : "?");
}

/* ---- call / ret ------------------------------------------------------------------------------
 * The .param ABI: arguments are the caller's call-sequence .param variables (or registers /
 * immediates for .reg parameters); `call` copies them into the new frame's parameter area,
 * `ret` copies the callee's return variables back into the caller's. */
enum { EXEC_CA_PARAM, EXEC_CA_REG, EXEC_CA_PRED, EXEC_CA_IMM,
       EXEC_CA_SINK /* `_` in a return list */ };
typedef struct {
    int kind;
    uint64_t off;             /* PARAM: offset in caller's param area; REG: slot offset of
                                 the first element; PRED: predicate index */
    uint32_t size;            /* bytes of the value (variable size / register width x
                                 elements; a predicate is one byte, 0 or 1) */
    uint32_t es, nel;         /* REG: element bytes and elements (a whole vector register,
                                 `call (v), f, (v)`, has one slot per element) */
    uint64_t imm;
} exec_carg;

/* One side of an argument or return value in a frame, for every lane: parameter bytes
 * (base + lane * step), register element slots, or a predicate's lane mask. A value moves as
 * packed bytes: a vector's elements one after the other, a predicate as one byte 0/1. */
typedef struct {
    int kind;                 /* EXEC_CA_* */
    uint8_t *base;            /* PARAM: lane 0's bytes; REG: element 0's slot */
    size_t step;              /* PARAM: bytes between lanes */
    uint32_t es, nel, size;   /* REG: element bytes and count; size: bytes of the value */
    uint32_t *pred;           /* PRED */
    const uint64_t *imm;      /* IMM */
} exec_vloc;
#define EXEC_VAL_MAX 64       /* bytes of a register value: .v4 .b64 is 32 */

static size_t exec_elem_stride(uint32_t es)
{
    return ((size_t)es * EXEC_LANES + EXEC_SLOT - 1) / EXEC_SLOT * EXEC_SLOT;
}

/* The packed value of `lane` into buf (at most cap bytes); returns its size. */
static uint32_t exec_vloc_get(const exec_vloc *v, uint32_t lane, uint8_t *buf, uint32_t cap)
{
    uint32_t n = v->size < cap ? v->size : cap;
    switch (v->kind) {
    case EXEC_CA_PARAM:
        memcpy(buf, v->base + lane * v->step, n);
        break;
    case EXEC_CA_REG:
        for (uint32_t e = 0; e < v->nel && (e + 1) * v->es <= n; e++)
            memcpy(buf + e * v->es, v->base + e * exec_elem_stride(v->es) + lane * v->es, v->es);
        break;
    case EXEC_CA_PRED:
        buf[0] = (uint8_t)(*v->pred >> lane & 1);
        break;
    case EXEC_CA_IMM:
        memcpy(buf, v->imm, n < 8 ? n : 8);
        break;
    default:
        break;
    }
    return n;
}

/* Store the packed value buf[0..n) of `lane` (zero-extended to the location's size). */
static void exec_vloc_put(const exec_vloc *v, uint32_t lane, const uint8_t *buf, uint32_t n)
{
    switch (v->kind) {
    case EXEC_CA_PARAM: {
        uint8_t *d = v->base + lane * v->step;
        memset(d, 0, v->size);
        memcpy(d, buf, n < v->size ? n : v->size);
        break;
    }
    case EXEC_CA_REG:
        for (uint32_t e = 0; e < v->nel; e++) {
            uint8_t *d = v->base + e * exec_elem_stride(v->es) + lane * v->es;
            uint32_t lo = e * v->es;
            memset(d, 0, v->es);
            if (lo < n)
                memcpy(d, buf + lo, n - lo < v->es ? n - lo : v->es);
        }
        break;
    case EXEC_CA_PRED: {
        int on = 0;
        for (uint32_t k = 0; k < n && k < 8; k++)
            on |= buf[k] != 0;
        *v->pred = (*v->pred & ~(1u << lane)) | (uint32_t)on << lane;
        break;
    }
    default:
        break;
    }
}

/* Copy a value from src to dst for `lanes`. */
static void exec_vloc_move(const exec_vloc *dst, const exec_vloc *src, uint32_t lanes)
{
    if (dst->kind == EXEC_CA_SINK)
        return;
    if (dst->kind == EXEC_CA_PARAM && src->kind == EXEC_CA_PARAM) {
        uint32_t n = src->size < dst->size ? src->size : dst->size;
        EXEC_FOR_LANES(i, lanes) {
            uint8_t *d = dst->base + i * dst->step;
            memset(d, 0, dst->size);
            memcpy(d, src->base + i * src->step, n);
        }
        return;
    }
    EXEC_FOR_LANES(i, lanes) {
        uint8_t buf[EXEC_VAL_MAX];
        memset(buf, 0, sizeof buf);
        uint32_t n = exec_vloc_get(src, i, buf, sizeof buf);
        exec_vloc_put(dst, i, buf, n);
    }
}

/* Entry block of a function with address-taken parameters (see exec_param_copies). */
typedef struct {
    uint64_t size;            /* depot + parameter copies */
    uint32_t align;
    uint64_t *offs;           /* per parameter: offset of its copy, UINT64_MAX for none */
} exec_pcopy;

int exec_param_copies(const exec_fdec *fd, uint64_t *offs, uint64_t *size, uint32_t *align);

typedef struct {
    const exec_pcopy *pcopy;  /* direct calls: the callee's copies (NULL: none) */
    const exec_pcopy **ptab;  /* indirect calls: per module function (NULL: none) */
    const ptx_func *callee;   /* direct calls */
    const ptx_func *proto;    /* indirect: prototype (may be NULL) */
    const ptx_func **targets; /* indirect: .calltargets (may be NULL) */
    int ntargets;
    int nargs, nrets;
    exec_carg args[16], rets[8];
} exec_call;

static const exec_pcopy *exec_call_pcopy(const exec_call *c, const ptx_func *cf)
{
    if (c->callee)
        return c->pcopy;
    return c->ptab ? c->ptab[cf->sym->index] : NULL;
}

static const exec_pcopy *exec_pcopy_make(exec_dec *d, const exec_fdec *fd)
{
    uint64_t size;
    uint32_t align;
    if (!fd || !exec_param_copies(fd, NULL, &size, &align))
        return NULL;
    exec_pcopy *pc = exec_dec_alloc(d, sizeof *pc);
    uint64_t *offs = exec_dec_alloc(d, sizeof(uint64_t) * (size_t)(fd->f->nparams + 1));
    if (!pc || !offs)
        return NULL;
    exec_param_copies(fd, offs, &pc->size, &pc->align);
    pc->offs = offs;
    return pc;
}

/* The caller's side of argument or return a in frame f. */
static exec_vloc exec_carg_loc(exec_act *f, const exec_carg *a)
{
    exec_vloc v;
    memset(&v, 0, sizeof v);
    v.kind = a->kind;
    v.size = a->size;
    switch (a->kind) {
    case EXEC_CA_PARAM:
        v.base = f->params + a->off;
        v.step = f->fd->param_size;
        break;
    case EXEC_CA_REG:
        v.base = f->regs + a->off;
        v.es = a->es;
        v.nel = a->nel;
        break;
    case EXEC_CA_PRED:
        v.pred = f->preds + a->off;
        break;
    default:
        v.imm = &a->imm;
        break;
    }
    return v;
}

int exec_call_arg(exec_warp *w, const exec_insn *in, int k, uint32_t lane, void *out,
                  uint32_t size)
{
    const exec_call *c = in->ext;
    memset(out, 0, size);
    if (k >= c->nargs)
        return -1;
    exec_vloc v = exec_carg_loc(w->cur_frame, &c->args[k]);
    if (v.kind == EXEC_CA_PARAM) {
        memcpy(out, v.base + lane * v.step, size < v.size ? size : v.size);
        return 0;
    }
    uint8_t buf[EXEC_VAL_MAX];
    memset(buf, 0, sizeof buf);
    uint32_t n = exec_vloc_get(&v, lane, buf, sizeof buf);
    memcpy(out, buf, size < n ? size : n);
    return 0;
}

void exec_call_ret(exec_warp *w, const exec_insn *in, uint32_t lane, const void *val,
                   uint32_t size)
{
    const exec_call *c = in->ext;
    if (c->nrets < 1 || c->rets[0].kind == EXEC_CA_SINK)
        return;
    exec_vloc v = exec_carg_loc(w->cur_frame, &c->rets[0]);
    exec_vloc_put(&v, lane, val, size);
}

static uint32_t exec_sym_bytes(const ptx_sym *s)
{
    if (s->size)
        return (uint32_t)s->size;
    int b = ptx_type_bits(s->type) / 8;
    return (uint32_t)(b > 0 ? b : 1) * (uint32_t)(s->vec > 1 ? s->vec : 1);
}

/* ---- parameters whose address is taken ----------------------------------------------------
 * `mov d, param` in a device function gives the address of input parameter `param` in the
 * .local state space (the parameter is copied to the stack, PTX ISA "Parameter State Space").
 * Each such parameter gets a copy right after the function's depot: `call` pushes the depot
 * and the copies as one block and fills the copies, so the address is the frame's local base
 * plus a fixed offset, which mov computes at decode time. offs[k] receives parameter k's
 * offset (UINT64_MAX when its address is not taken); *size and *align the whole block.
 * Returns the number of address-taken parameters. */
int exec_param_copies(const exec_fdec *fd, uint64_t *offs, uint64_t *size, uint32_t *align)
{
    const ptx_func *f = fd->f;
    uint64_t cur = fd->local_size;
    uint32_t al = fd->local_align ? fd->local_align : 1;
    int n = 0;
    for (int k = 0; k < f->nparams; k++) {
        const ptx_sym *p = f->params[k];
        int taken = 0;
        if (!f->is_entry && p->kind == PTX_SYM_VAR && p->space == PTX_SPACE_PARAM)
            for (int i = 0; i < f->ninsns && !taken; i++) {
                const ptx_insn *pi = &f->insns[i];
                taken = pi->nops == 2 && pi->opc == PTX_OPC_mov &&
                        pi->ops[1].kind == PTX_OP_SYM && pi->ops[1].sym == p;
            }
        if (offs)
            offs[k] = UINT64_MAX;
        if (!taken)
            continue;
        uint32_t pa = p->align > 16 ? (uint32_t)p->align : 16;
        cur = (cur + pa - 1) / pa * pa;
        if (offs)
            offs[k] = cur;
        cur += exec_sym_bytes(p);
        al = al > pa ? al : pa;
        n++;
    }
    *size = n ? cur : fd->local_size;
    *align = n ? al : fd->local_align;
    return n;
}

/* Where callee parameter/return k (symbol s) lives in frame f: a .reg parameter is a register
 * (a vector's element slots, a predicate's mask), a .param one bytes of the param area. A
 * location whose register is unknown is a sink. */
static exec_vloc exec_callee_loc(exec_act *f, const ptx_sym *s, int idx, int is_ret)
{
    const exec_fdec *fd = f->fd;
    exec_vloc v;
    memset(&v, 0, sizeof v);
    v.size = exec_sym_bytes(s);
    if (s->kind == PTX_SYM_REG || s->space == PTX_SPACE_REG) {
        int ri = exec_reg_lookup(fd, s);
        if (ri < 0 || fd->reg_off[ri] == UINT32_MAX) {
            v.kind = EXEC_CA_SINK;
        } else if (s->type == PTX_T_PRED) {
            v.kind = EXEC_CA_PRED;
            v.pred = f->preds + fd->reg_off[ri];
            v.size = 1;
        } else {
            v.kind = EXEC_CA_REG;
            v.base = f->regs + fd->reg_off[ri];
            v.es = (uint32_t)ptx_type_bits(s->type) / 8;
            v.nel = s->vec > 1 ? (uint32_t)s->vec : 1;
            v.size = v.es * v.nel;
        }
        return v;
    }
    v.kind = EXEC_CA_PARAM;
    v.base = f->params + (is_ret ? fd->ret_off[idx] : fd->prm_off[idx]);
    v.step = fd->param_size;
    return v;
}

/* Enter function cf for `lanes` of the running group. Returns 0, or -1 after a fault. */
static int exec_enter(exec_warp *w, const exec_insn *in, uint32_t lanes, const ptx_func *cf)
{
    exec_machine *m = w->m;
    const exec_call *c = in->ext;
    const exec_fdec *cfd = m->fdec[cf->sym->index];
    exec_act *caller = w->cur_frame;
    if (caller->depth + 1 >= EXEC_MAX_DEPTH) {
        exec_fault(w, in, EXEC_EXC_STACK_OVERFLOW, exec_ctz(lanes), PTX_SPACE_LOCAL, 0, 0,
                   "stack overflow: call depth %u exceeds %d", caller->depth + 1,
                   EXEC_MAX_DEPTH);
        return -1;
    }
    if (cf->nparams != c->nargs) {
        exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, exec_ctz(lanes), PTX_SPACE_NONE, 0, 0,
                   "call of %s with %d arguments, it takes %d", cf->sym->name, c->nargs,
                   cf->nparams);
        return -1;
    }
    exec_act *f = exec_act_new(w, cfd);
    if (!f) {
        exec_fault(w, in, EXEC_EXC_STACK_OVERFLOW, exec_ctz(lanes), PTX_SPACE_LOCAL, 0, 0,
                   "stack overflow: out of call frames");
        return -1;
    }
    f->parent = caller;
    f->depth = caller->depth + 1;
    f->members = lanes;
    f->call_pc = in->pc;
    for (int k = 0; k < cf->nparams; k++) {
        exec_vloc dst = exec_callee_loc(f, cf->params[k], k, 0);
        exec_vloc src = exec_carg_loc(caller, &c->args[k]);
        exec_vloc_move(&dst, &src, lanes);
    }
    EXEC_FOR_LANES(i, lanes) {
        uint64_t base, lsize = cfd->local_size;
        uint32_t lalign = cfd->local_align;
        const exec_pcopy *pc = exec_call_pcopy(c, cf);
        if (pc) {
            lsize = pc->size;
            lalign = pc->align;
        }
        f->entry_sp[i] = w->lsp[i];
        if (mem_local_push(w, in, (int)i, lsize, lalign, &base)) {
            f->members = 0;
            f->in_use = 0;
            f->next_free = w->free_frames;
            w->free_frames = f;
            return -1;
        }
        f->local_base[i] = base;
        for (int k = 0; pc && k < cf->nparams; k++) {
            if (pc->offs[k] == UINT64_MAX)
                continue;
            exec_vloc src = exec_callee_loc(f, cf->params[k], k, 0);
            if (src.kind == EXEC_CA_PARAM)
                memcpy(mem_local_host(w, (int)i, base + pc->offs[k]), src.base + i * src.step,
                       src.size);
        }
    }
    EXEC_FOR_LANES(i, lanes) {
        w->lframe[i] = f;
        w->pc[i] = cfd->pc0;
    }
    return 0;
}

static int exec_call_one(exec_warp *w, const exec_insn *in, uint32_t lanes,
                         const ptx_func *cf, uint32_t *back)
{
    if (!w->m->fdec[cf->sym->index]) {
        if (!exec_libc_known(cf->sym->name)) {
            exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, exec_ctz(lanes), PTX_SPACE_NONE, 0, 0,
                       "call to external function %s, which has no body", cf->sym->name);
            return -1;
        }
        if (exec_libc_call(w, in, lanes, cf) == EXEC_STOPPED)
            return -1;
        *back |= lanes;
        return 0;
    }
    return exec_enter(w, in, lanes, cf);
}

static int exec_call_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const exec_call *c = in->ext;
    uint32_t back = w->cur_mask & ~m;
    if (c->callee) {
        if (exec_call_one(w, in, m, c->callee, &back))
            return EXEC_STOPPED;
    } else {
        const uint64_t *t = EXEC_SRC(w, in, 0);
        uint32_t left = m;
        while (left) {
            uint64_t v = t[exec_ctz(left)];
            uint32_t sub = 0;
            EXEC_FOR_LANES(i, left)
                if (t[i] == v)
                    sub |= 1u << i;
            left &= ~sub;
            const ptx_module *mod = w->m->mod;
            uint64_t idx = (v - MEM_CODE_BASE) / 16;
            const ptx_func *cf = NULL;
            if (v >= MEM_CODE_BASE && (v - MEM_CODE_BASE) % 16 == 0 &&
                idx < (uint64_t)mod->nfuncs && !mod->funcs[idx]->is_prototype &&
                !mod->funcs[idx]->is_entry)
                cf = mod->funcs[idx];
            if (cf && c->targets) {
                int ok = 0;
                for (int k = 0; k < c->ntargets; k++)
                    ok |= c->targets[k] == cf;
                if (!ok)
                    cf = NULL;
            }
            if (!cf) {
                exec_fault(w, in, EXEC_EXC_INVALID_PC, exec_ctz(sub), PTX_SPACE_NONE, v, 0,
                           "indirect call to 0x%" PRIx64 ", which is not a callable function",
                           v);
                return EXEC_STOPPED;
            }
            if (exec_call_one(w, in, sub, cf, &back))
                return EXEC_STOPPED;
        }
    }
    if (back == w->cur_mask)
        return EXEC_NEXT; /* only external functions ran */
    return exec_split(w, back, in->pc + 1);
}

static int exec_carg_dec(exec_dec *d, const ptx_insn *pi, const ptx_operand *o, exec_carg *a,
                         uint32_t want)
{
    memset(a, 0, sizeof *a);
    const ptx_sym *s = o->sym;
    if ((o->kind == PTX_OP_SYM || o->kind == PTX_OP_ADDR) && s && s->kind == PTX_SYM_VAR) {
        ptx_space sp;
        uint64_t off;
        int pl;
        if (exec_dec_var(d, s, &sp, &off, &pl) || pl != 2)
            return exec_dec_error(d, pi, "call argument %s is not a .param variable of this "
                                  "function", s->name);
        a->kind = EXEC_CA_PARAM;
        a->off = off + (uint64_t)o->ival;
        a->size = exec_sym_bytes(s);
        return 0;
    }
    if (o->kind == PTX_OP_REG && s && s->kind == PTX_SYM_REG) {
        int ri = exec_reg_lookup(d->fd, s);
        if (ri < 0 || d->fd->reg_off[ri] == UINT32_MAX)
            return exec_dec_error(d, pi, "undeclared register %s", s->name);
        a->off = d->fd->reg_off[ri];
        if (s->type == PTX_T_PRED) {
            /* predicates as arguments and results (ptxas accepts them outside its ABI) */
            if (s->vec > 1 || o->neg)
                return exec_dec_error(d, pi, "bad predicate call operand %s", s->name);
            a->kind = EXEC_CA_PRED;
            a->size = 1;
            return 0;
        }
        a->kind = EXEC_CA_REG;
        a->es = (uint32_t)ptx_type_bits(s->type) / 8;
        a->nel = 1;
        if (s->vec > 1 && o->comp < 0)   /* the whole vector: its elements, in order */
            a->nel = (uint32_t)s->vec;
        else if (s->vec > 1 && o->comp > 0) /* v.y: elements have consecutive slots */
            a->off += (uint32_t)(o->comp * (int)exec_elem_stride(a->es));
        a->size = a->es * a->nel;
        return 0;
    }
    if (o->kind == PTX_OP_SINK && want == 0) {
        a->kind = EXEC_CA_SINK;
        return 0;
    }
    if (o->kind == PTX_OP_IMM || o->kind == PTX_OP_FIMM) {
        a->kind = EXEC_CA_IMM;
        a->imm = o->kind == PTX_OP_IMM ? (uint64_t)o->ival : o->fbits;
        if (o->kind == PTX_OP_FIMM && o->fsize == 64 && want == 4) {
            float f = (float)o->fval;
            uint32_t b;
            memcpy(&b, &f, 4);
            a->imm = b;
        }
        a->size = 8;
        return 0;
    }
    return exec_dec_error(d, pi, "bad call argument");
}

int exec_dec_call(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_call *c = exec_dec_alloc(d, sizeof *c);
    if (!c)
        return -1;
    int k = 0;
    const ptx_operand *rl = NULL, *al = NULL;
    if (pi->call_has_ret)
        rl = &pi->ops[k++];
    if (k >= pi->nops)
        return exec_dec_error(d, pi, "missing call target");
    const ptx_operand *tg = &pi->ops[k++];
    if (k < pi->nops && pi->ops[k].kind == PTX_OP_LIST)
        al = &pi->ops[k++];
    const ptx_operand *pr = k < pi->nops ? &pi->ops[k] : NULL;
    const ptx_func *shape = NULL;
    if (tg->kind == PTX_OP_SYM && tg->sym->kind == PTX_SYM_FUNC && tg->sym->func) {
        c->callee = tg->sym->func;
        shape = c->callee;
        if (c->callee->is_entry)
            return exec_dec_error(d, pi, "cannot call kernel %s", tg->sym->name);
    } else if (tg->kind == PTX_OP_REG) {
        if (exec_dec_src(d, in, 0, tg, PTX_T_U64))
            return -1;
        if (pr && pr->sym && pr->sym->kind == PTX_SYM_FUNC && pr->sym->func) {
            c->proto = pr->sym->func;
            shape = c->proto;
        } else if (pr && pr->sym) {
            for (int t = 0; t < d->f->ntargets; t++)
                if (d->f->targets[t].sym == pr->sym) {
                    int n = d->f->targets[t].nitems;
                    c->targets = exec_dec_alloc(d, sizeof(ptx_func *) * (size_t)(n + 1));
                    if (!c->targets)
                        return -1;
                    for (int j = 0; j < n; j++)
                        c->targets[j] = d->f->targets[t].items[j]->func;
                    c->ntargets = n;
                    shape = n ? c->targets[0] : NULL;
                }
        }
    } else {
        return exec_dec_error(d, pi, "bad call target");
    }
    c->nargs = al ? al->nelems : 0;
    c->nrets = rl ? (rl->kind == PTX_OP_LIST ? rl->nelems : 1) : 0;
    if (c->nargs > 16 || c->nrets > 8)
        return exec_dec_error(d, pi, "too many call arguments");
    if (shape && (shape->nparams != c->nargs || shape->nrets != c->nrets))
        return exec_dec_error(d, pi, "call of %s with %d arguments and %d results, it takes "
                              "%d and %d", shape->sym->name, c->nargs, c->nrets,
                              shape->nparams, shape->nrets);
    for (int i = 0; i < c->nargs; i++)
        if (exec_carg_dec(d, pi, &al->elems[i], &c->args[i],
                          shape ? exec_sym_bytes(shape->params[i]) : 8))
            return -1;
    for (int i = 0; i < c->nrets; i++) {
        const ptx_operand *o = rl->kind == PTX_OP_LIST ? &rl->elems[i] : rl;
        if (exec_carg_dec(d, pi, o, &c->rets[i], 0) || c->rets[i].kind == EXEC_CA_IMM)
            return c->rets[i].kind == EXEC_CA_IMM ? exec_dec_error(d, pi, "bad return operand")
                                                  : -1;
    }
    if (c->callee) {
        c->pcopy = exec_pcopy_make(d, d->m->fdec[c->callee->sym->index]);
    } else {
        const ptx_module *mod = d->mod;
        const exec_pcopy **tab = NULL;
        for (int i = 0; i < mod->nfuncs; i++) {
            const exec_fdec *fd = d->m->fdec[i];
            const exec_pcopy *pc = fd && !fd->f->is_entry ? exec_pcopy_make(d, fd) : NULL;
            if (!pc)
                continue;
            if (!tab && !(tab = exec_dec_alloc(d, sizeof *tab * (size_t)(mod->nfuncs + 1))))
                return -1;
            tab[i] = pc;
        }
        c->ptab = tab;
    }
    in->ext = c;
    in->fn = exec_call_fn;
    return 0;
}

/* ret: lanes at depth 0 end; others copy their return values to the caller and resume
 * after the call. */
static int exec_ret_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    exec_act *f = w->cur_frame;
    uint32_t rest = w->cur_mask & ~m;
    if (f->depth == 0 || !f->parent) {
        exec_lanes_retire(w, in, m);
        w->npc = in->pc + 1;
        return EXEC_JUMPED;
    }
    exec_act *p = f->parent;
    const exec_insn *ci = &w->m->code[f->call_pc];
    const exec_call *c = ci->ext;
    const ptx_func *cf = f->fd->f;
    for (int k = 0; k < cf->nrets && k < c->nrets; k++) {
        exec_vloc src = exec_callee_loc(f, cf->rets[k], k, 1);
        exec_vloc dst = exec_carg_loc(p, &c->rets[k]);
        if (src.kind != EXEC_CA_SINK)
            exec_vloc_move(&dst, &src, m);
    }
    EXEC_FOR_LANES(i, m) {
        w->lframe[i] = p;
        w->pc[i] = f->call_pc + 1;
        w->lsp[i] = f->entry_sp[i];
    }
    f->members &= ~m;
    if (!f->members && f->in_use) {
        f->in_use = 0;
        f->next_free = w->free_frames;
        w->free_frames = f;
    }
    return exec_split(w, rest, in->pc + 1);
}

int exec_dec_ret(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    (void)d; (void)pi;
    in->fn = exec_ret_fn;
    return 0;
}

static int exec_exit_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    exec_lanes_retire(w, in, m);
    w->npc = in->pc + 1;
    return EXEC_JUMPED;
}

int exec_dec_exit(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    (void)d; (void)pi;
    in->fn = exec_exit_fn;
    return 0;
}

/* ---- brkpt / trap / nanosleep / pmevent ----------------------------------------------------- */
static int exec_brkpt_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    exec_stop_raise(w, in, EXEC_STOP_BRKPT, EXEC_EXC_NONE, m, "brkpt");
    w->npc = in->pc + 1;
    return EXEC_STOPPED;
}

int exec_dec_brkpt(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    (void)d; (void)pi;
    in->fn = exec_brkpt_fn;
    return 0;
}

static int exec_trap_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    exec_stop_raise(w, in, EXEC_STOP_TRAP, EXEC_EXC_NONE, m, "trap executed by lanes 0x%08x",
                    m);
    return EXEC_STOPPED;
}

int exec_dec_trap(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    (void)d; (void)pi;
    in->fn = exec_trap_fn;
    return 0;
}

static int exec_nop_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    (void)w; (void)in; (void)m;
    return EXEC_NEXT;
}

/* nanosleep: no time passes, but the CTA's turn ends (exec_sched.c): it is backing off. */
static int exec_nanosleep_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    (void)in; (void)m;
    w->m->turn_yield = 1;
    return EXEC_NEXT;
}

/* nanosleep.u32 t: t is a register or an immediate (the sleep is at most 1 ms; none here). */
int exec_dec_nanosleep(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    if (pi->nops != 1 || pi->nmods != 1 || strcmp(pi->mods[0], "u32"))
        return exec_dec_error(d, pi, "expected nanosleep.u32 t");
    if (exec_dec_src(d, in, 0, &pi->ops[0], PTX_T_U32))
        return -1;
    in->fn = exec_nanosleep_fn;
    return 0;
}

/* pmevent a (immediate 0..15) / pmevent.mask a (16-bit immediate mask of events). */
int exec_dec_pmevent(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    int mask = pi->nmods == 1 && !strcmp(pi->mods[0], "mask");
    if ((pi->nmods && !mask) || pi->nops != 1 || pi->ops[0].kind != PTX_OP_IMM)
        return exec_dec_error(d, pi, "expected pmevent a or pmevent.mask a with an immediate a");
    if (pi->ops[0].ival < 0 || pi->ops[0].ival > (mask ? 0xffff : 15))
        return exec_dec_error(d, pi, "event %s %" PRId64 " out of range (%s)",
                              mask ? "mask" : "number", pi->ops[0].ival,
                              mask ? "16 bits" : "0..15");
    in->fn = exec_nop_fn;
    return 0;
}

/* ---- stack: the local stack grows down, below the activation's depot (mem.h) ---------------- */
static int exec_stacksave_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    if (in->type == PTX_T_U32) {
        uint32_t *d = EXEC_DST(w, in, 0);
        EXEC_FOR_LANES(i, m)
            d[i] = (uint32_t)w->lsp[i];
    } else {
        uint64_t *d = EXEC_DST(w, in, 0);
        EXEC_FOR_LANES(i, m)
            d[i] = w->lsp[i];
    }
    return EXEC_NEXT;
}

static int exec_stackrestore_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const void *a = EXEC_SRC(w, in, 0);
    EXEC_FOR_LANES(i, m) {
        uint64_t v = in->type == PTX_T_U32 ? ((const uint32_t *)a)[i] : ((const uint64_t *)a)[i];
        if (v < w->lsp[i] || v > w->cur_frame->local_base[i]) {
            exec_fault(w, in, EXEC_EXC_STACK_OVERFLOW, (int)i, PTX_SPACE_LOCAL, v, 0,
                       "stackrestore to 0x%" PRIx64 ", outside the current frame", v);
            return EXEC_STOPPED;
        }
        w->lsp[i] = v;
    }
    return EXEC_NEXT;
}

static int exec_alloca_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const void *sz = EXEC_SRC(w, in, 1);
    void *d = EXEC_DST(w, in, 0);
    uint32_t al = (uint32_t)in->aux[0];
    EXEC_FOR_LANES(i, m) {
        uint64_t n = in->type == PTX_T_U32 ? ((const uint32_t *)sz)[i] : ((const uint64_t *)sz)[i];
        uint64_t base;
        if (mem_local_push(w, in, (int)i, n, al, &base))
            return EXEC_STOPPED;
        if (in->type == PTX_T_U32)
            ((uint32_t *)d)[i] = (uint32_t)base;
        else
            ((uint64_t *)d)[i] = base;
    }
    return EXEC_NEXT;
}

static int exec_stack_type(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    ptx_type t = exec_dec_type(pi, 0);
    if (t == PTX_T_NONE && pi->nmods == 0 && pi->nops >= 1 && pi->ops[0].kind == PTX_OP_REG &&
        pi->ops[0].sym && pi->ops[0].sym->kind == PTX_SYM_REG) {
        /* the ISA's own alloca example omits the type: take the pointer register's width */
        int b = ptx_type_bits(pi->ops[0].sym->type);
        t = b == 32 ? PTX_T_U32 : b == 64 ? PTX_T_U64 : PTX_T_NONE;
    }
    if (t != PTX_T_U32 && t != PTX_T_U64)
        return exec_dec_error(d, pi, "type must be .u32 or .u64");
    in->type = (uint8_t)t;
    return 0;
}

int exec_dec_stacksave(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    if (exec_stack_type(d, pi, in) || pi->nops != 1 ||
        exec_dec_dst(d, in, 0, &pi->ops[0], (ptx_type)in->type))
        return -1;
    in->fn = exec_stacksave_fn;
    return 0;
}

int exec_dec_stackrestore(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    if (exec_stack_type(d, pi, in) || pi->nops != 1 ||
        exec_dec_src(d, in, 0, &pi->ops[0], (ptx_type)in->type))
        return -1;
    in->fn = exec_stackrestore_fn;
    return 0;
}

int exec_dec_alloca(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    if (exec_stack_type(d, pi, in) || pi->nops < 2 || pi->nops > 3 ||
        exec_dec_dst(d, in, 0, &pi->ops[0], (ptx_type)in->type) ||
        exec_dec_src(d, in, 1, &pi->ops[1], (ptx_type)in->type))
        return -1;
    int64_t al = 8;
    if (pi->nops == 3) {
        if (pi->ops[2].kind != PTX_OP_IMM || pi->ops[2].ival <= 0 ||
            (pi->ops[2].ival & (pi->ops[2].ival - 1)) || pi->ops[2].ival > (1 << 23))
            return exec_dec_error(d, pi, "alignment must be a power of 2 up to 2^23");
        al = pi->ops[2].ival;
    }
    in->aux[0] = al < 8 ? 8 : al;
    in->fn = exec_alloca_fn;
    return 0;
}
