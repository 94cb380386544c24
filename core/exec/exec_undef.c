/* exec_undef.c - initcheck's companions in the core: registers read before written, fill bytes. */
#include <stdlib.h>
#include <string.h>
#include "exec_core.h"

/* ---------------------------------------------------------------------------------------------
 * Registers. While an observer wants EXEC_OBS_REGS, every instruction's fn is exec_undef_stub
 * (the real one kept in m->reg_orig, beside a breakpoint's stub, which calls whatever it
 * replaced): before the instruction it tests that the running lanes wrote every register it
 * reads in this activation (exec_act.defd: one lane mask per register), reporting the lanes that
 * did not as EXEC_SYNC_REG_UNDEF; after it, the lanes that ran it have written its destinations.
 * A frame's masks start empty (a callee's parameters passed in registers start written). When
 * nothing wants it, instructions keep their own fn and frames carry no masks: it costs nothing.
 *
 * Which operands an instruction writes is decided once per instruction from the parsed PTX:
 * the first operand when it is a register, a vector or a `d|p` pair (and the return list of a
 * call), except for the instructions whose first operand is read (bar/barrier without .red,
 * bar.warp.sync, brx.idx, nanosleep, stackrestore, setmaxnreg, tcgen05.dealloc). Everything
 * else named as a register is read, except the values that st, stmatrix, sust, selp, shfl and
 * a packing mov ({a, b}) only move (a copy is not a use: -G code copies structures whole, padding and unused
 * members included). A destination is never taken for a read, so a register an instruction
 * writes is never reported by a later read: the check errs towards silence.
 * ------------------------------------------------------------------------------------------- */

typedef struct exec_rw {
    uint16_t nr, nw;
    int32_t guard;            /* the guard predicate's register index, -1 none */
    int32_t idx[];            /* nr read registers, then nw written ones */
} exec_rw;

typedef struct { int32_t *r, *w; int nr, nw, cap; } undef_acc;

static void undef_add(undef_acc *a, const exec_fdec *fd, const ptx_sym *s, int write)
{
    if (!s || s->kind != PTX_SYM_REG)
        return;
    int i = exec_reg_lookup(fd, s);
    if (i < 0)
        return;
    int32_t *v = write ? a->w : a->r;
    int *n = write ? &a->nw : &a->nr;
    for (int k = 0; k < *n; k++)
        if (v[k] == i)
            return;
    if (*n < a->cap)
        v[(*n)++] = i;
}

static void undef_opnd(undef_acc *a, const exec_fdec *fd, const ptx_operand *o, int write)
{
    switch (o->kind) {
    case PTX_OP_REG:
        undef_add(a, fd, o->sym, write);
        break;
    case PTX_OP_ADDR:
        if (o->sym)
            undef_add(a, fd, o->sym, 0);   /* an address's base register is read */
        break;
    case PTX_OP_VEC: case PTX_OP_LIST: case PTX_OP_PAIR:
        for (int k = 0; k < o->nelems; k++)
            undef_opnd(a, fd, &o->elems[k], write);
        break;
    default:
        break;
    }
}

/* The registers instruction pi (of fd) reads and writes; NULL when it names none. */
static exec_rw *undef_classify(const exec_fdec *fd, const ptx_insn *pi)
{
    enum { CAP = 64 };
    int32_t r[CAP], w[CAP];
    undef_acc a = { r, w, 0, 0, CAP };
    int first = 0;
    if (pi->opc == PTX_OPC_call) {
        if (pi->call_has_ret && pi->nops > 0) {
            undef_opnd(&a, fd, &pi->ops[0], 1);
            first = 1;
        }
    } else if (pi->nops > 0 && ptx_insn_writes_op0(pi)) {
        ptx_opkind k = pi->ops[0].kind;
        if (k == PTX_OP_REG || k == PTX_OP_VEC || k == PTX_OP_PAIR || k == PTX_OP_SINK) {
            undef_opnd(&a, fd, &pi->ops[0], 1);
            first = 1;
        }
    }
    /* instructions that only move a value (into a register, memory or another lane) copy an
       unwritten register without using it: -G code copies structures whole, unused members
       included; their address registers still count */
    int move = ptx_op_is(pi, PTX_OPF_PASS);
    int pack = pi->opc == PTX_OPC_mov;   /* mov d, {a, b}: packing halves, some unused */
    for (int k = first; k < pi->nops; k++)
        if (pack && pi->ops[k].kind == PTX_OP_VEC)
            continue;
        else if (!move || pi->ops[k].kind == PTX_OP_ADDR)
            undef_opnd(&a, fd, &pi->ops[k], 0);
        else if (pi->opc == PTX_OPC_shfl && k > first)
            undef_opnd(&a, fd, &pi->ops[k], 0);   /* shfl's lane, clamp and mask are used */
    /* a register both written and read by the instruction (an accumulator): not a read here */
    int nr = 0;
    for (int i = 0; i < a.nr; i++) {
        int both = 0;
        for (int j = 0; j < a.nw; j++)
            both |= r[i] == w[j];
        if (!both)
            r[nr++] = r[i];
    }
    int guard = pi->guard ? exec_reg_lookup(fd, pi->guard) : -1;
    if (!nr && !a.nw && guard < 0)
        return NULL;
    exec_rw *rw = malloc(sizeof *rw + sizeof(int32_t) * (size_t)(nr + a.nw));
    if (!rw)
        return NULL;
    rw->nr = (uint16_t)nr;
    rw->nw = (uint16_t)a.nw;
    rw->guard = guard;
    memcpy(rw->idx, r, sizeof(int32_t) * (size_t)nr);
    memcpy(rw->idx + nr, w, sizeof(int32_t) * (size_t)a.nw);
    return rw;
}

static void undef_report(exec_warp *w, const exec_insn *in, const exec_fdec *fd, uint32_t lanes,
                         int32_t idx)
{
    const ptx_func *f = fd->f;
    const ptx_sym *s = idx < f->nregs ? f->regs[idx]
                     : idx < f->nregs + f->nparams ? f->params[idx - f->nregs]
                     : f->rets[idx - f->nregs - f->nparams];
    exec_sync_ev ev = { .kind = EXEC_SYNC_REG_UNDEF, .cta = w->cta->id, .warp = w->id,
                        .pc = in->pc, .lanes = lanes, .id = idx, .what = s->name, .priv = w };
    exec_obs_sync_ev(w->m, &ev);
}

static int exec_undef_stub(exec_warp *w, const exec_insn *in, uint32_t m)
{
    exec_machine *mc = w->m;
    const exec_rw *rw = mc->reg_rw[in->pc];
    exec_act *f = w->cur_frame;
    uint32_t *d = f ? f->defd : NULL;
    if (rw && d && f->fd && (mc->obs_want & EXEC_OBS_REGS)) {
        if (rw->guard >= 0 && (uint32_t)rw->guard < f->ndefd && (w->cur_mask & ~d[rw->guard]))
            undef_report(w, in, f->fd, w->cur_mask & ~d[rw->guard], rw->guard);
        for (int k = 0; k < rw->nr; k++) {
            int32_t i = rw->idx[k];
            if ((uint32_t)i < f->ndefd && (m & ~d[i]))
                undef_report(w, in, f->fd, m & ~d[i], i);
        }
    }
    int rc = mc->reg_orig[in->pc](w, in, m);
    if (rw && d && rc != EXEC_YIELD)
        for (int k = 0; k < rw->nw; k++) {
            int32_t i = rw->idx[rw->nr + k];
            if ((uint32_t)i < f->ndefd)
                d[i] |= m;
        }
    return rc;
}

void exec_undef_frame(exec_warp *w, exec_act *f)
{
    if (!w->m->reg_track || !f->fd) {
        if (f->defd)
            memset(f->defd, 0, sizeof *f->defd * f->ndefd);
        return;
    }
    const ptx_func *fn = f->fd->f;
    uint32_t n = (uint32_t)(fn->nregs + fn->nparams + fn->nrets);
    if (n > f->ndefd || !f->defd) {
        uint32_t *nd = realloc(f->defd, sizeof *nd * (n ? n : 1));
        if (!nd) {
            free(f->defd);
            f->defd = NULL;
            f->ndefd = 0;
            return;
        }
        f->defd = nd;
    }
    f->ndefd = n;
    memset(f->defd, 0, sizeof *f->defd * n);
    /* parameters and return values passed in registers: written by the call */
    for (uint32_t i = (uint32_t)fn->nregs; i < n; i++)
        f->defd[i] = EXEC_FULL;
}

/* Put the stub in front of every instruction (or take it away). */
void exec_undef_sync(exec_machine *m)
{
    int want = (m->obs_want & EXEC_OBS_REGS) != 0;
    if (m->is_worker || want == m->reg_track)   /* a worker shares the main machine's code */
        return;
    if (want) {
        if (!m->reg_orig)
            m->reg_orig = calloc(m->ncode ? m->ncode : 1, sizeof *m->reg_orig);
        if (!m->reg_rw)
            m->reg_rw = calloc(m->ncode ? m->ncode : 1, sizeof *m->reg_rw);
        if (!m->reg_orig || !m->reg_rw)
            return;
        for (uint32_t pc = 0; pc < m->ncode; pc++) {
            exec_insn *in = &m->code[pc];
            if (!in->src || !in->fn)
                continue;
            const exec_fdec *fd = exec_fdec_of_pc(m, pc);
            if (!m->reg_rw[pc] && fd)
                m->reg_rw[pc] = undef_classify(fd, in->src);
            exec_fn *slot = in->fn == exec_bp_stub ? &m->bp_orig[pc] : &in->fn;
            m->reg_orig[pc] = *slot;
            *slot = exec_undef_stub;
        }
    } else {
        for (uint32_t pc = 0; pc < m->ncode; pc++) {
            exec_insn *in = &m->code[pc];
            if (in->fn == exec_undef_stub)
                in->fn = m->reg_orig[pc];
            else if (in->fn == exec_bp_stub && m->bp_orig[pc] == exec_undef_stub)
                m->bp_orig[pc] = m->reg_orig[pc];
        }
    }
    m->reg_track = want;
}

/* What exec_free calls. */
void exec_undef_free(exec_machine *m)
{
    for (uint32_t pc = 0; m->reg_rw && pc < m->ncode; pc++)
        free(m->reg_rw[pc]);
    free(m->reg_rw);
    free(m->reg_orig);
    m->reg_rw = NULL;
    m->reg_orig = NULL;
}

/* ---- fill ------------------------------------------------------------------------------------ */
void exec_set_fill(exec_machine *m, int byte) { m->fill = byte < 0 ? 0 : (byte & 0xff) + 1; }
int exec_get_fill(const exec_machine *m) { return m->fill - 1; }
