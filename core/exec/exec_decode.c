/* exec_decode.c - decoder driver: opcode table, frame layouts, operand resolution, wrappers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec_core.h"
#include "ptx_num.h"

/* ---- the opcode table ---------------------------------------------------------------------- */
const exec_opinfo exec_ops[] = {
#define OP(name, dec, fam, fl, sum) { #name, dec, fam, sum },
#define OPX(name, fam, fl, sum) { #name, NULL, fam, sum },
#include "ptx_ops.def"
#undef OP
#undef OPX
};
const int exec_nops = (int)(sizeof exec_ops / sizeof exec_ops[0]);
_Static_assert(sizeof exec_ops / sizeof exec_ops[0] == PTX_OPC__COUNT, "one row per opcode");

/* Decoder of opcodes the table lists but the machine does not model: a load error naming the
 * instruction and the reason given in the table's summary. */
int exec_dec_refuse(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    return exec_dec_error(d, pi, "not supported: %s", exec_ops[in->opc].summary);
}

int exec_op_lookup(const char *name) { return ptx_op_lookup(name); }

/* ---- arena ----------------------------------------------------------------------------------- */
void *exec_arena_alloc(exec_machine *m, size_t n)
{
    _Static_assert(sizeof(exec_arena_blk) <= 16, "arena header");
    exec_arena_blk *b = calloc(1, 16 + n);
    if (!b)
        return NULL;
    b->next = m->arena;
    m->arena = b;
    return (uint8_t *)b + 16;
}

void *exec_dec_alloc(exec_dec *d, size_t n)
{
    return exec_arena_alloc(d->m, n);
}

/* ---- messages -------------------------------------------------------------------------------- */
static void exec_insn_name(const ptx_insn *pi, char *buf, size_t n)
{
    size_t k = (size_t)snprintf(buf, n, "%s", pi->opcode);
    for (int i = 0; i < pi->nmods && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, ".%s", pi->mods[i]);
}

int exec_dec_error(exec_dec *d, const ptx_insn *pi, const char *fmt, ...)
{
    if (!d->err || d->err[0])
        return -1; /* keep the first error */
    char name[160], msg[512];
    exec_insn_name(pi, name, sizeof name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(d->err, d->errlen, "%s:%d:%d: error: %s: %s", d->mod->path ? d->mod->path : "<string>",
             pi->line, pi->col, name, msg);
    return -1;
}

ptx_type exec_dec_type(const ptx_insn *pi, int k)
{
    for (int i = 0; i < pi->nmods; i++) {
        ptx_type t = ptx_type_from_name(pi->mods[i]);
        if (t != PTX_T_NONE && k-- == 0)
            return t;
    }
    return PTX_T_NONE;
}

/* ---- registers and variables ----------------------------------------------------------------- */
int exec_reg_lookup(const exec_fdec *fd, const ptx_sym *s)
{
    const ptx_func *f = fd->f;
    if (s->index >= 0 && s->index < f->nregs && f->regs[s->index] == s)
        return s->index;
    for (int i = 0; i < f->nregs; i++)
        if (f->regs[i] == s)
            return i;
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i] == s)
            return f->nregs + i;
    for (int i = 0; i < f->nrets; i++)
        if (f->rets[i] == s)
            return f->nregs + f->nparams + i;
    return -1;
}

static int exec_slots_of(const ptx_sym *s)
{
    int v = s->vec > 1 ? s->vec : 1;
    return (s->type == PTX_T_B128 ? 2 : 1) * v;
}

static uint64_t exec_align_up(uint64_t x, uint64_t a)
{
    return a > 1 ? (x + a - 1) / a * a : x;
}

static uint32_t exec_var_align(const ptx_sym *s)
{
    if (s->align > 0)
        return (uint32_t)s->align;
    int b = ptx_type_bits(s->type) / 8;
    if (b <= 0)
        b = 1;
    return (uint32_t)(b * (s->vec > 1 ? s->vec : 1));
}

enum { EXEC_MAX_REG_SLOTS = 16384 };

/* Lay out one function's registers, .local depot, param area. */
static int exec_layout_func(exec_machine *m, exec_fdec *fd)
{
    const ptx_func *f = fd->f;
    int nr = f->nregs + f->nparams + f->nrets;
    fd->reg_off = exec_arena_alloc(m, sizeof(uint32_t) * (size_t)(nr + 1));
    fd->var_off = exec_arena_alloc(m, sizeof(uint64_t) * (size_t)(f->nvars + 1));
    fd->prm_off = exec_arena_alloc(m, sizeof(uint64_t) * (size_t)(f->nparams + 1));
    fd->ret_off = exec_arena_alloc(m, sizeof(uint64_t) * (size_t)(f->nrets + 1));
    if (!fd->reg_off || !fd->var_off || !fd->prm_off || !fd->ret_off)
        return -1;
    uint32_t slot = 0, npred = 0;
    for (int i = 0; i < nr; i++) {
        const ptx_sym *s = i < f->nregs ? f->regs[i]
                         : i < f->nregs + f->nparams ? f->params[i - f->nregs]
                                                     : f->rets[i - f->nregs - f->nparams];
        if (s->kind != PTX_SYM_REG && s->space != PTX_SPACE_REG) {
            fd->reg_off[i] = UINT32_MAX;
            continue;
        }
        if (s->type == PTX_T_PRED) {
            fd->reg_off[i] = npred;
            npred += (uint32_t)(s->vec > 1 ? s->vec : 1);
        } else {
            fd->reg_off[i] = slot * EXEC_SLOT;
            slot += (uint32_t)exec_slots_of(s);
        }
    }
    fd->scratch_off = slot * EXEC_SLOT;
    fd->regbytes = (slot + EXEC_NSCRATCH) * EXEC_SLOT;
    fd->npreds = npred ? npred : 1;
    /* param area: own params, rets, then call-sequence .param variables */
    uint64_t po = 0, lo = 0;
    uint32_t la = 1;
    for (int i = 0; i < f->nparams; i++) {
        const ptx_sym *s = f->params[i];
        uint32_t a = exec_var_align(s);
        if (f->is_entry) {
            fd->prm_off[i] = 0; /* set by exec_param_layout users */
            continue;
        }
        po = exec_align_up(po, a);
        fd->prm_off[i] = po;
        po += s->size ? s->size : (uint64_t)(ptx_type_bits(s->type) / 8);
    }
    if (f->is_entry) {
        uint64_t offs[256], sizes[256];
        int np = f->nparams < 256 ? f->nparams : 256;
        exec_param_layout(f, offs, sizes, np);
        for (int i = 0; i < np; i++)
            fd->prm_off[i] = offs[i];
    }
    for (int i = 0; i < f->nrets; i++) {
        const ptx_sym *s = f->rets[i];
        po = exec_align_up(po, exec_var_align(s));
        fd->ret_off[i] = po;
        po += s->size ? s->size : (uint64_t)(ptx_type_bits(s->type) / 8);
    }
    for (int i = 0; i < f->nvars; i++) {
        const ptx_sym *s = f->vars[i];
        uint32_t a = exec_var_align(s);
        if (s->space == PTX_SPACE_PARAM) {
            po = exec_align_up(po, a);
            fd->var_off[i] = po;
            po += s->size;
        } else if (s->space == PTX_SPACE_LOCAL) {
            lo = exec_align_up(lo, a);
            fd->var_off[i] = lo;
            lo += s->size;
            if (a > la)
                la = a;
        } else {
            fd->var_off[i] = UINT64_MAX; /* shared/const/global: module layout (mem.c) */
        }
    }
    fd->param_size = (uint32_t)exec_align_up(po, 16);
    fd->local_size = exec_align_up(lo, 16);
    fd->local_align = la < 16 ? 16 : la;
    return 0;
}

/* Where a variable lives. perlane: 0 = constant address in *sp at *off; 1 = local depot
 * offset (per lane base + off); 2 = offset in the frame's param area; 3 = kernel param. */
int exec_dec_var(exec_dec *d, const ptx_sym *s, ptx_space *sp, uint64_t *off, int *perlane)
{
    exec_machine *m = d->m;
    *sp = s->space == PTX_SPACE_SHARED_CLUSTER ? PTX_SPACE_SHARED : s->space;
    *perlane = 0;
    if (!s->owner) {
        if (s->index >= 0 && s->index < d->mod->nvars && d->mod->vars[s->index] == s) {
            *off = m->gvar_addr[s->index];
            return 0;
        }
        for (int i = 0; i < d->mod->nvars; i++)
            if (d->mod->vars[i] == s) {
                *off = m->gvar_addr[i];
                return 0;
            }
        return -1;
    }
    const ptx_func *f = s->owner;
    const exec_fdec *fd = m->fdec[f->sym->index];
    if (!fd)
        return -1;
    if (f != d->f && s->space != PTX_SPACE_SHARED && s->space != PTX_SPACE_GLOBAL &&
        s->space != PTX_SPACE_CONST)
        return -1;
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i] == s) {
            *off = fd->prm_off[i];
            *perlane = f->is_entry ? 3 : 2;
            *sp = PTX_SPACE_PARAM;
            return 0;
        }
    for (int i = 0; i < f->nrets; i++)
        if (f->rets[i] == s) {
            *off = fd->ret_off[i];
            *perlane = 2;
            *sp = PTX_SPACE_PARAM;
            return 0;
        }
    int idx = -1;
    if (s->index >= 0 && s->index < f->nvars && f->vars[s->index] == s)
        idx = s->index;
    for (int i = 0; idx < 0 && i < f->nvars; i++)
        if (f->vars[i] == s)
            idx = i;
    if (idx < 0)
        return -1;
    if (s->space == PTX_SPACE_LOCAL) {
        *off = fd->var_off[idx];
        *perlane = 1;
    } else if (s->space == PTX_SPACE_PARAM) {
        *off = fd->var_off[idx];
        *perlane = 2;
    } else {
        /* function-scope shared/const/global: laid out by mem_module_init in gvar order
           after module vars; stored in var_off by it */
        *off = fd->var_off[idx];
        if (*off == UINT64_MAX)
            return -1;
    }
    return 0;
}

/* ---- immediates ------------------------------------------------------------------------------ */
/* Fill `buf` (EXEC_SLOT bytes) with operand value o converted to t, broadcast. */
static int exec_imm_fill(uint8_t *buf, const ptx_operand *o, ptx_type t)
{
    int bits = ptx_type_bits(t);
    uint64_t v = 0;
    int isf = ptx_type_is_float(t);
    double dv = o->kind == PTX_OP_FIMM ? o->fval : (double)o->ival;
    if (o->kind == PTX_OP_FIMM && o->fsize == 32) {
        float fv;
        uint32_t b32 = (uint32_t)o->fbits;
        memcpy(&fv, &b32, 4);
        dv = fv;
    } else if (o->kind == PTX_OP_FIMM && o->fsize == 64) {
        memcpy(&dv, &o->fbits, 8);
    }
    if (t == PTX_T_F32) {
        if (o->kind == PTX_OP_FIMM && o->fsize == 32) {
            v = (uint32_t)o->fbits;
        } else {
            float f = (float)dv;
            uint32_t b;
            memcpy(&b, &f, 4);
            v = b;
        }
    } else if (t == PTX_T_F64) {
        if (o->kind == PTX_OP_FIMM && o->fsize == 64)
            v = o->fbits;
        else
            memcpy(&v, &dv, 8);
    } else if (t == PTX_T_F16 || t == PTX_T_BF16) {
        v = t == PTX_T_F16 ? ptx_f32_to_f16((float)dv) : ptx_f32_to_bf16((float)dv);
    } else if (isf && o->kind == PTX_OP_IMM) {
        v = (uint64_t)o->ival; /* packed types: raw bits */
    } else if (o->kind == PTX_OP_FIMM) {
        v = o->fbits; /* bit types: the literal's bits */
    } else {
        v = (uint64_t)o->ival;
    }
    switch (bits) {
    case 8:  for (int i = 0; i < 32; i++) buf[i] = (uint8_t)v; break;
    case 16: for (int i = 0; i < 32; i++) ((uint16_t *)(void *)buf)[i] = (uint16_t)v; break;
    case 32: for (int i = 0; i < 32; i++) ((uint32_t *)(void *)buf)[i] = (uint32_t)v; break;
    case 64: for (int i = 0; i < 32; i++) ((uint64_t *)(void *)buf)[i] = v; break;
    default: return -1;
    }
    return 0;
}

/* ---- operand resolution ---------------------------------------------------------------------- */
static int exec_fix_add(exec_dec *d, const ptx_insn *pi, exec_fix fx)
{
    if (d->nfix >= (int)(sizeof d->fix / sizeof d->fix[0]) || d->nscratch >= EXEC_NSCRATCH)
        return exec_dec_error(d, pi, "too many operands needing conversion");
    d->fix[d->nfix++] = fx;
    return 0;
}

static const ptx_insn *exec_cur_pi;   /* for messages from operand helpers (decode time only) */

/* ---- operand sizes (PTX ISA 9.4.1 "Operand Size Exceeding Instruction-Type Size") -------------
 * Only ld, st and cvt (and their relatives ldu, st variants) may take a data register wider
 * than the instruction type: a wider source is truncated, a wider destination zero- or
 * sign-extended (by the wrapper). Every other instruction needs registers of exactly the size
 * its decoder asks for; the decoders ask for the size the ISA gives each operand (shift amounts
 * .u32, mul.wide/mad.wide destinations twice the type, cvt.pack, prmt/bfe/bfi selectors, mov
 * pack/unpack, the value types of atom/red/shfl/vote/match, tex coordinates...), so those
 * exceptions need nothing here. The opcode table's WIDE flag is the one place that grants the
 * relaxed rule (suld/sust have it too: nvcc keeps their .b8 data in 16-bit registers). */

/* 1-based position of parsed operand o in pi (elements of a vector count as their vector's
 * position); 0 when o is not one of pi's operands (decoder-made). */
static int exec_opnd_pos(const ptx_insn *pi, const ptx_operand *o)
{
    for (int i = 0; pi && i < pi->nops; i++) {
        const ptx_operand *p = &pi->ops[i];
        if (o == p || (p->elems && o >= p->elems && o < p->elems + p->nelems))
            return i + 1;
    }
    return 0;
}

/* The one message for a register whose size does not fit the instruction type. */
static int exec_width_error(exec_dec *d, const ptx_insn *pi, const ptx_operand *o,
                            const ptx_sym *s, int rb, ptx_type t)
{
    char pos[32] = "";
    int k = exec_opnd_pos(pi, o);
    if (k)
        snprintf(pos, sizeof pos, "operand %d: ", k);
    return exec_dec_error(d, pi, "%sregister %s is %d bits, instruction type .%s needs %d", pos,
                          s->name, rb, ptx_type_name(t), ptx_type_bits(t));
}

/* A source `reg + imm` (address-free register plus constant, which ptxas accepts): before the
 * handler, a scratch slot gets the register (truncated to the type where the instruction
 * allows wider registers) plus the constant, wrapping in the operand type's width. Integer
 * and bit types only: ptxas gives no defined meaning to it on floating-point operands. */
static int exec_dec_regadd(exec_dec *d, exec_opnd *op, const ptx_insn *pi, const ptx_operand *o,
                           uint32_t off, int rb, ptx_type t, int dst)
{
    int tb = ptx_type_bits(t);
    if (dst)
        return exec_dec_error(d, pi, "a destination cannot be register + constant (%s+%lld)",
                              o->sym->name, (long long)o->ival);
    if (o->sym->vec > 1)
        return exec_dec_error(d, pi, "vector register %s cannot take a constant (%s+%lld)",
                              o->sym->name, o->sym->name, (long long)o->ival);
    if (ptx_type_is_float(t) || t == PTX_T_PRED || tb > 64 || rb > 64)
        return exec_dec_error(d, pi, "register + constant (%s+%lld) needs an integer or bit "
                              "operand type, not .%s", o->sym->name, (long long)o->ival,
                              ptx_type_name(t));
    if (rb < tb || (rb > tb && !d->wide_ok))
        return exec_width_error(d, pi, o, o->sym, rb, t);
    exec_fix fx = { .dir = 3, .wide_bits = (uint8_t)rb, .narrow_bits = (uint8_t)tb,
                    .wide_off = off, .imm = (uint64_t)o->ival,
                    .narrow_off = d->fd->scratch_off + (uint32_t)d->nscratch * EXEC_SLOT };
    if (exec_fix_add(d, pi, fx))
        return -1;
    d->nscratch++;
    d->nregadd++;
    op->kind = EXEC_O_REG;
    op->off = fx.narrow_off;
    return 0;
}

static int exec_dec_reg(exec_dec *d, exec_insn *in, int k, const ptx_operand *o, ptx_type t,
                        int dst)
{
    const ptx_insn *pi = in->src ? in->src : exec_cur_pi;
    const ptx_sym *s = o->sym;
    exec_opnd *op = &in->op[k];
    int tb = ptx_type_bits(t);
    op->type = (uint16_t)t;
    if (s->kind == PTX_SYM_SREG || s->space == PTX_SPACE_SREG) {
        if (dst)
            return exec_dec_error(d, pi, "cannot write special register %s", s->name);
        int sb = 32;
        int slot = exec_sreg_slot((ptx_sreg_id)s->sreg_id, o->comp < 0 ? 0 : o->comp, &sb);
        if (slot < 0)
            return exec_dec_error(d, pi, "unsupported special register %s", s->name);
        if (slot == EXEC_SR_CLOCK || slot == EXEC_SR_CLOCK_HI || slot == EXEC_SR_CLOCK64 ||
            slot == EXEC_SR_GTIMER || slot == EXEC_SR_GTIMER_LO || slot == EXEC_SR_GTIMER_HI) {
            exec_fix fx = { .dir = 2, .sreg = slot };
            if (exec_fix_add(d, pi, fx))
                return -1;
        }
        if (tb == sb || (tb > sb && slot == EXEC_SR_ZERO)) {
            op->kind = EXEC_O_SREG;
            op->off = (uint32_t)slot * EXEC_SLOT;
            return 0;
        }
        if (tb > sb)
            return exec_dec_error(d, pi, "special register %s is narrower than .%s", s->name,
                                  ptx_type_name(t));
        exec_fix fx = { .dir = 0, .from_sreg = 1, .wide_bits = (uint8_t)sb,
                        .narrow_bits = (uint8_t)tb, .wide_off = (uint32_t)slot * EXEC_SLOT,
                        .narrow_off = d->fd->scratch_off + (uint32_t)d->nscratch * EXEC_SLOT };
        if (exec_fix_add(d, pi, fx))
            return -1;
        d->nscratch++;
        op->kind = EXEC_O_REG;
        op->off = fx.narrow_off;
        return 0;
    }
    if (s->kind != PTX_SYM_REG)
        return exec_dec_error(d, pi, "operand %s is not a register", s->name);
    int ri = exec_reg_lookup(d->fd, s);
    if (ri < 0 || d->fd->reg_off[ri] == UINT32_MAX)
        return exec_dec_error(d, pi, "register %s is not declared in this function", s->name);
    if (s->type == PTX_T_PRED)
        return exec_dec_error(d, pi, "predicate %s used where a .%s value is expected",
                              s->name, ptx_type_name(t));
    int rb = ptx_type_bits(s->type);
    uint32_t off = d->fd->reg_off[ri];
    if (o->comp > 0 && s->vec > 1)
        off += (uint32_t)o->comp * (uint32_t)(s->type == PTX_T_B128 ? 2 : 1) * EXEC_SLOT;
    if (o->reg_add)
        return exec_dec_regadd(d, op, pi, o, off, rb, t, dst);
    if (rb == tb || t == PTX_T_PRED) {
        op->kind = EXEC_O_REG;
        op->off = off;
        return 0;
    }
    if (rb < tb || tb == 128 || rb == 128 || !d->wide_ok)
        return exec_width_error(d, pi, o, s, rb, t);
    exec_fix fx = { .dir = (uint8_t)(dst ? 1 : 0), .wide_bits = (uint8_t)rb,
                    .narrow_bits = (uint8_t)tb, .sign = (uint8_t)ptx_type_is_signed(t),
                    .wide_off = off,
                    .narrow_off = d->fd->scratch_off + (uint32_t)d->nscratch * EXEC_SLOT };
    if (exec_fix_add(d, pi, fx))
        return -1;
    d->nscratch++;
    op->kind = EXEC_O_REG;
    op->off = fx.narrow_off;
    return 0;
}

int exec_dec_src(exec_dec *d, exec_insn *in, int k, const ptx_operand *o, ptx_type t)
{
    const ptx_insn *pi = in->src ? in->src : exec_cur_pi;
    exec_opnd *op = &in->op[k];
    memset(op, 0, sizeof *op);
    op->type = (uint16_t)t;
    if (k >= in->nops)
        in->nops = (uint8_t)(k + 1);
    switch (o->kind) {
    case PTX_OP_REG:
        return exec_dec_reg(d, in, k, o, t, 0);
    case PTX_OP_IMM:
    case PTX_OP_FIMM: {
        uint8_t *buf = exec_dec_alloc(d, EXEC_SLOT);
        if (!buf || exec_imm_fill(buf, o, t))
            return exec_dec_error(d, pi, "bad immediate for .%s", ptx_type_name(t));
        op->kind = EXEC_O_IMM;
        op->imm = buf;
        return 0;
    }
    case PTX_OP_SYM: {
        const ptx_sym *s = o->sym;
        uint64_t a;
        if (s->kind == PTX_SYM_FUNC) {
            a = MEM_CODE_BASE + 16ull * (uint64_t)s->index;
        } else if (s->kind == PTX_SYM_VAR) {
            ptx_space sp;
            int pl;
            if (exec_dec_var(d, s, &sp, &a, &pl) || (pl != 0 && pl != 3))
                return exec_dec_error(d, pi, "the address of %s is not a constant here",
                                      s->name);
        } else {
            return exec_dec_error(d, pi, "%s cannot be used as a value", s->name);
        }
        a += (uint64_t)o->ival;
        ptx_operand tmp = { .kind = PTX_OP_IMM, .ival = (int64_t)a };
        uint8_t *buf = exec_dec_alloc(d, EXEC_SLOT);
        if (!buf || exec_imm_fill(buf, &tmp, ptx_type_is_float(t) ? PTX_T_B64 : t))
            return exec_dec_error(d, pi, "bad address operand");
        op->kind = EXEC_O_IMM;
        op->imm = buf;
        return 0;
    }
    default:
        return exec_dec_error(d, pi, "unexpected operand kind for a .%s source",
                              ptx_type_name(t));
    }
}

int exec_dec_dst(exec_dec *d, exec_insn *in, int k, const ptx_operand *o, ptx_type t)
{
    const ptx_insn *pi = in->src ? in->src : exec_cur_pi;
    exec_opnd *op = &in->op[k];
    memset(op, 0, sizeof *op);
    op->type = (uint16_t)t;
    if (k >= in->nops)
        in->nops = (uint8_t)(k + 1);
    if (o->kind == PTX_OP_SINK) {
        op->kind = EXEC_O_SINK;
        return 0;
    }
    if (o->kind != PTX_OP_REG)
        return exec_dec_error(d, pi, "destination must be a register");
    return exec_dec_reg(d, in, k, o, t, 1);
}

static int exec_dec_pred(exec_dec *d, exec_insn *in, int k, const ptx_operand *o, int dst)
{
    const ptx_insn *pi = in->src ? in->src : exec_cur_pi;
    exec_opnd *op = &in->op[k];
    memset(op, 0, sizeof *op);
    op->type = PTX_T_PRED;
    if (k >= in->nops)
        in->nops = (uint8_t)(k + 1);
    if (o->kind == PTX_OP_SINK && dst) {
        op->kind = EXEC_O_SINK;
        return 0;
    }
    if (o->kind == PTX_OP_IMM && !dst) {
        static const uint32_t one = 1, zero = 0;
        op->kind = EXEC_O_IMM;
        op->imm = o->ival ? &one : &zero;
        return 0;
    }
    if (o->kind != PTX_OP_REG || o->sym->type != PTX_T_PRED || o->sym->kind != PTX_SYM_REG)
        return exec_dec_error(d, pi, "expected a predicate operand");
    int ri = exec_reg_lookup(d->fd, o->sym);
    if (ri < 0)
        return exec_dec_error(d, pi, "predicate %s is not declared in this function",
                              o->sym->name);
    op->kind = EXEC_O_PRED;
    op->off = d->fd->reg_off[ri] + (o->comp > 0 ? (uint32_t)o->comp : 0);
    op->neg = (uint8_t)(o->neg ? 1 : 0);
    return 0;
}

int exec_dec_psrc(exec_dec *d, exec_insn *in, int k, const ptx_operand *o)
{
    return exec_dec_pred(d, in, k, o, 0);
}

int exec_dec_pdst(exec_dec *d, exec_insn *in, int k, const ptx_operand *o)
{
    return exec_dec_pred(d, in, k, o, 1);
}

/* ---- the operand wrapper --------------------------------------------------------------------- */
static void exec_narrow(uint8_t *dst, const uint8_t *src, int wb, int nb)
{
    for (int i = 0; i < EXEC_LANES; i++) {
        uint64_t v;
        switch (wb) {
        case 16: v = ((const uint16_t *)(const void *)src)[i]; break;
        case 32: v = ((const uint32_t *)(const void *)src)[i]; break;
        default: v = ((const uint64_t *)(const void *)src)[i]; break;
        }
        switch (nb) {
        case 8:  dst[i] = (uint8_t)v; break;
        case 16: ((uint16_t *)(void *)dst)[i] = (uint16_t)v; break;
        default: ((uint32_t *)(void *)dst)[i] = (uint32_t)v; break;
        }
    }
}

/* narrow = (wide truncated to nb bits) + imm, wrapping at nb bits; every lane. */
static void exec_addimm(uint8_t *dst, const uint8_t *src, int wb, int nb, uint64_t imm)
{
    for (int i = 0; i < EXEC_LANES; i++) {
        uint64_t v;
        switch (wb) {
        case 8:  v = src[i]; break;
        case 16: v = ((const uint16_t *)(const void *)src)[i]; break;
        case 32: v = ((const uint32_t *)(const void *)src)[i]; break;
        default: v = ((const uint64_t *)(const void *)src)[i]; break;
        }
        v += imm;
        switch (nb) {
        case 8:  dst[i] = (uint8_t)v; break;
        case 16: ((uint16_t *)(void *)dst)[i] = (uint16_t)v; break;
        case 32: ((uint32_t *)(void *)dst)[i] = (uint32_t)v; break;
        default: ((uint64_t *)(void *)dst)[i] = v; break;
        }
    }
}

static void exec_widen(uint8_t *dst, const uint8_t *src, int wb, int nb, int sign, uint32_t m)
{
    EXEC_FOR_LANES(i, m) {
        uint64_t v;
        switch (nb) {
        case 8:  v = sign ? (uint64_t)(int64_t)(int8_t)src[i] : src[i]; break;
        case 16: {
            uint16_t x = ((const uint16_t *)(const void *)src)[i];
            v = sign ? (uint64_t)(int64_t)(int16_t)x : x;
            break;
        }
        default: {
            uint32_t x = ((const uint32_t *)(const void *)src)[i];
            v = sign ? (uint64_t)(int64_t)(int32_t)x : x;
            break;
        }
        }
        switch (wb) {
        case 16: ((uint16_t *)(void *)dst)[i] = (uint16_t)v; break;
        case 32: ((uint32_t *)(void *)dst)[i] = (uint32_t)v; break;
        default: ((uint64_t *)(void *)dst)[i] = v; break;
        }
    }
}

/* Converts wide source registers into scratch slots, runs the handler, then extends narrow
 * results into their wide destination registers (for the executing lanes only). */
int exec_wrap_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const exec_wrap *x = in->wrap;
    struct exec_warp_regs *r = EXEC_R(w);
    for (int i = 0; i < x->n; i++) {
        const exec_fix *f = &x->f[i];
        if (f->dir == 2)
            exec_sreg_refresh(w, f->sreg);
        else if (f->dir == 3)
            exec_addimm(r->regs + f->narrow_off, r->regs + f->wide_off, f->wide_bits,
                        f->narrow_bits, f->imm);
        else if (f->dir == 0)
            exec_narrow(r->regs + f->narrow_off,
                        (f->from_sreg ? r->sregs : r->regs) + f->wide_off, f->wide_bits,
                        f->narrow_bits);
    }
    uint8_t *regs = r->regs;
    int rc = x->inner(w, in, m);
    if (rc == EXEC_NEXT || (rc == EXEC_STOPPED && r->regs == regs && w->watch_hit))
        for (int i = 0; i < x->n; i++) {
            const exec_fix *f = &x->f[i];
            if (f->dir == 1)
                exec_widen(regs + f->wide_off, regs + f->narrow_off, f->wide_bits,
                           f->narrow_bits, f->sign, m);
        }
    return rc;
}

/* ---- the driver ------------------------------------------------------------------------------ */
/* Number of `reg + imm` operands of pi (elements of vectors and lists included). */
static int exec_count_regadd(const ptx_insn *pi)
{
    int n = 0;
    for (int i = 0; i < pi->nops; i++) {
        const ptx_operand *o = &pi->ops[i];
        n += o->kind == PTX_OP_REG && o->reg_add;
        for (int k = 0; k < o->nelems && o->kind != PTX_OP_ADDR; k++)
            n += o->elems[k].kind == PTX_OP_REG && o->elems[k].reg_add;
    }
    return n;
}

/* A vector register named whole (`.reg .v4 .f32 q;` ... `ld.global.v4.f32 q, [a];`) stands
 * for the vector of its elements, `{q.x, q.y, q.z, q.w}` (PTX ISA "Vectors"): decoders see
 * that form, so every instruction taking a vector operand takes a vector register too, and
 * one taking a scalar refuses it. Returns pi itself when nothing is to expand, else a copy in
 * the machine's arena (NULL: out of memory). */
static const ptx_insn *exec_vec_expand(exec_dec *d, const ptx_insn *pi)
{
    int need = 0;
    for (int i = 0; i < pi->nops; i++) {
        const ptx_operand *o = &pi->ops[i];
        need |= o->kind == PTX_OP_REG && o->sym && o->sym->kind == PTX_SYM_REG &&
                o->sym->vec > 1 && o->comp < 0;
    }
    if (!need || pi->opc == PTX_OPC_call)
        return pi;
    ptx_insn *c = exec_dec_alloc(d, sizeof *c);
    ptx_operand *ops = exec_dec_alloc(d, sizeof *ops * (size_t)pi->nops);
    if (!c || !ops)
        return NULL;
    *c = *pi;
    memcpy(ops, pi->ops, sizeof *ops * (size_t)pi->nops);
    c->ops = ops;
    for (int i = 0; i < pi->nops; i++) {
        ptx_operand *o = &ops[i];
        if (!(o->kind == PTX_OP_REG && o->sym && o->sym->kind == PTX_SYM_REG &&
              o->sym->vec > 1 && o->comp < 0))
            continue;
        int n = o->sym->vec;
        ptx_operand *e = exec_dec_alloc(d, sizeof *e * (size_t)n);
        if (!e)
            return NULL;
        for (int k = 0; k < n; k++) {
            e[k] = *o;
            e[k].comp = k;
            e[k].reg_add = 0;
            e[k].ival = 0;
        }
        if (o->reg_add)
            return pi; /* `v + 1`: left whole, refused by the regadd count */
        o->kind = PTX_OP_VEC;
        o->elems = e;
        o->nelems = n;
        o->sym = NULL;
    }
    return c;
}

static int exec_decode_insn(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    char name[160];
    int oi = pi->opc;
    if (oi < 0 || oi >= exec_nops || !exec_ops[oi].decode) {
        exec_insn_name(pi, name, sizeof name);
        snprintf(d->err, d->errlen, "%s:%d:%d: error: unsupported instruction '%s'",
                 d->mod->path ? d->mod->path : "<string>", pi->line, pi->col, name);
        return -1;
    }
    in->opc = (uint16_t)oi;
    in->src = pi;
    in->guard = -1;
    if (pi->guard) {
        int ri = exec_reg_lookup(d->fd, pi->guard);
        if (ri < 0 || pi->guard->type != PTX_T_PRED)
            return exec_dec_error(d, pi, "bad guard predicate %s", pi->guard->name);
        in->guard = (int32_t)d->fd->reg_off[ri];
        in->guard_neg = (uint8_t)(pi->guard_neg ? 1 : 0);
    }
    d->nfix = 0;
    d->nscratch = 0;
    d->nregadd = 0;
    d->wide_ok = ptx_op_is(pi, PTX_OPF_WIDE);
    exec_cur_pi = pi;
    const ptx_insn *dpi = exec_vec_expand(d, pi);
    if (!dpi)
        return exec_dec_error(d, pi, "out of memory");
    in->src = dpi;
    exec_cur_pi = dpi;
    int rc = exec_ops[oi].decode(d, dpi, in);
    in->src = pi;
    exec_cur_pi = pi;
    if (rc)
        return -1;
    if (d->nregadd != exec_count_regadd(pi))
        return exec_dec_error(d, pi, "register + constant is not supported in this operand");
    if (!in->fn)
        return exec_dec_error(d, pi, "no handler");
    if (!in->real)
        in->real = in->fn;
    if (d->nfix) {
        exec_wrap *x = exec_dec_alloc(d, sizeof *x + sizeof(exec_fix) * (size_t)d->nfix);
        if (!x)
            return exec_dec_error(d, pi, "out of memory");
        x->inner = in->fn;
        x->n = d->nfix;
        memcpy(x->f, d->fix, sizeof(exec_fix) * (size_t)d->nfix);
        in->wrap = x;
        in->fn = exec_wrap_fn;
    }
    return 0;
}

const exec_fdec *exec_fdec_of_pc(const exec_machine *m, uint32_t pc)
{
    const ptx_module *mod = m->mod;
    int lo = 0, hi = mod->nfuncs - 1;
    const exec_fdec *best = NULL;
    /* functions with bodies are numbered in module order: binary search on pc0 */
    while (lo <= hi) {
        int mid = (lo + hi) / 2, j = mid;
        while (j <= hi && !m->fdec[j])
            j++;
        if (j > hi) {
            hi = mid - 1;
            continue;
        }
        const exec_fdec *fd = m->fdec[j];
        if (pc < fd->pc0)
            hi = mid - 1;
        else if (pc >= fd->pc0 + fd->n)
            lo = j + 1;
        else {
            best = fd;
            break;
        }
    }
    return best;
}

int exec_decode_module(exec_machine *m, char *err, size_t errlen)
{
    const ptx_module *mod = m->mod;
    m->fdec = exec_arena_alloc(m, sizeof(exec_fdec *) * (size_t)(mod->nfuncs + 1));
    if (!m->fdec)
        return -1;
    uint32_t pc = 0;
    for (int i = 0; i < mod->nfuncs; i++) {
        const ptx_func *f = mod->funcs[i];
        if (!f->has_body || f->is_prototype)
            continue;
        exec_fdec *fd = exec_arena_alloc(m, sizeof *fd);
        if (!fd)
            return -1;
        fd->f = f;
        fd->pc0 = pc;
        fd->n = (uint32_t)f->ninsns;
        pc += fd->n;
        if (exec_layout_func(m, fd))
            return -1;
        /* every register costs a 256-byte slot per warp in every frame: bound the declared
         * registers (real kernels declare a few thousand; sm_80 allocates at most 255 per
         * thread), so a 100-byte file cannot ask for gigabytes per CTA */
        if (fd->regbytes / EXEC_SLOT > EXEC_MAX_REG_SLOTS) {
            snprintf(err, errlen, "%s:%d: error: function %s declares %u registers; ptxdbg "
                     "allows at most %u per function (%u bytes per thread)",
                     mod->path ? mod->path : "<string>", f->sym->line, f->sym->name,
                     (unsigned)(fd->regbytes / EXEC_SLOT - EXEC_NSCRATCH),
                     (unsigned)EXEC_MAX_REG_SLOTS, (unsigned)EXEC_MAX_REG_SLOTS * 8);
            return -1;
        }
        m->fdec[i] = fd;
    }
    m->ncode = pc;
    m->code = exec_arena_alloc(m, sizeof(exec_insn) * (size_t)(pc + 1));
    m->bp_orig = exec_arena_alloc(m, sizeof(exec_fn) * (size_t)(pc + 1));
    if (!m->code || !m->bp_orig)
        return -1;
    if (mem_module_init(m, err, errlen))
        return -1;
    exec_dec d = { .m = m, .mod = mod, .err = err, .errlen = errlen };
    err[0] = 0;
    for (int i = 0; i < mod->nfuncs; i++) {
        exec_fdec *fd = m->fdec[i];
        if (!fd)
            continue;
        d.f = fd->f;
        d.fd = fd;
        for (uint32_t k = 0; k < fd->n; k++) {
            exec_insn *in = &m->code[fd->pc0 + k];
            in->pc = fd->pc0 + k;
            if (exec_decode_insn(&d, &fd->f->insns[k], in)) {
                if (!err[0])
                    snprintf(err, errlen, "%s:%d:%d: error: cannot decode '%s'",
                             mod->path ? mod->path : "<string>", fd->f->insns[k].line,
                             fd->f->insns[k].col, fd->f->insns[k].opcode);
                return -1;
            }
        }
    }
    return 0;
}
