/* dw_info.c - dw_load/dw_free and the lookups: functions, scopes, variables, locations, types. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dw_int.h"

/* DW_OP codes used by nvcc (values from the DWARF standard; libdwarf is not included here). */
enum {
    OP_addr = 0x03, OP_deref = 0x06, OP_const1u = 0x08, OP_const1s = 0x09, OP_const2u = 0x0a,
    OP_const2s = 0x0b, OP_const4u = 0x0c, OP_const4s = 0x0d, OP_const8u = 0x0e,
    OP_const8s = 0x0f, OP_constu = 0x10, OP_consts = 0x11, OP_minus = 0x1c, OP_plus = 0x22,
    OP_plus_uconst = 0x23, OP_lit0 = 0x30, OP_lit31 = 0x4f, OP_reg0 = 0x50, OP_reg31 = 0x6f,
    OP_breg0 = 0x70, OP_breg31 = 0x8f, OP_regx = 0x90, OP_fbreg = 0x91, OP_bregx = 0x92,
    OP_piece = 0x93, OP_stack_value = 0x9f,
};

/* ---- load / free ---------------------------------------------------------------------------- */
static int cmp_func(const void *a, const void *b)
{
    const dw_func *x = *(dw_func *const *)a, *y = *(dw_func *const *)b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return x->hi > y->hi ? -1 : x->hi < y->hi;   /* larger first */
}

int dw_build_funcs(dw_info *d)
{
    /* PTX functions with a body that the DWARF does not describe (all of them without DWARF;
       helpers like __iAtomicAdd with it) */
    int n0 = d->nfuncs;
    for (int i = 0; i < d->m->nfuncs; i++) {
        const ptx_func *pf = d->m->funcs[i];
        if (d->func_first[i] == UINT32_MAX || pf->ninsns <= 0)
            continue;
        int covered = 0;
        for (int k = 0; k < n0; k++)
            if (d->funcs[k]->ptx == pf && d->funcs[k]->lo < d->funcs[k]->hi)
                covered = 1;
        if (covered)
            continue;
        dw_func *f = dw_alloc(d, sizeof *f);
        if (!f)
            return -1;
        f->ptx = pf;
        f->lo = d->func_first[i];
        f->hi = f->lo + (uint32_t)pf->ninsns;
        f->is_kernel = pf->is_entry;
        f->linkage_name = pf->sym ? pf->sym->name : NULL;
        char buf[512];
        if (f->linkage_name && dw_display_name(d, f->linkage_name, buf, sizeof buf) > 0)
            f->name = dw_strdup(d, buf);
        else
            f->name = f->linkage_name;
        if (d->nfuncs == d->capfuncs) {
            int nc = d->capfuncs ? d->capfuncs * 2 : 32;
            dw_func **nf = dw_alloc(d, (size_t)nc * sizeof *nf);
            if (!nf)
                return -1;
            if (d->nfuncs)
                memcpy(nf, d->funcs, (size_t)d->nfuncs * sizeof *nf);
            d->funcs = nf;
            d->capfuncs = nc;
        }
        d->funcs[d->nfuncs++] = f;
    }
    /* sort by pc; variables refer to functions by index, so remap them. Sorting (function,
     * original index) pairs keeps the remap linear (modules have thousands of functions). */
    int *old_of = calloc((size_t)d->nfuncs + 1, sizeof *old_of);
    struct func_at { dw_func *f; int old; } *pairs = calloc((size_t)d->nfuncs + 1, sizeof *pairs);
    if (!old_of || !pairs) {
        free(old_of);
        free(pairs);
        return -1;
    }
    for (int i = 0; i < d->nfuncs; i++)
        pairs[i] = (struct func_at){ d->funcs[i], i };
    if (d->nfuncs > 1)
        qsort(pairs, (size_t)d->nfuncs, sizeof *pairs, cmp_func); /* f is the first member */
    for (int i = 0; i < d->nfuncs; i++) {
        d->funcs[i] = pairs[i].f;
        old_of[pairs[i].old] = i;
    }
    for (int i = 0; i < d->nvars; i++)
        if (d->vars[i]->func >= 0 && d->vars[i]->func < d->nfuncs)
            d->vars[i]->func = old_of[d->vars[i]->func];
    for (int i = 0; i < d->nscopes; i++)
        if (d->scopes[i].func >= 0 && d->scopes[i].func < d->nfuncs)
            d->scopes[i].func = old_of[d->scopes[i].func];
    free(old_of);
    free(pairs);
    return 0;
}

dw_info *dw_load(const ptx_module *m, char *warn, size_t n)
{
    return dw_load_dm(m, NULL, warn, n);
}

int dw_display_name(const dw_info *d, const char *mangled, char *buf, size_t n)
{
    if (d && d->dm && mangled && d->dm(mangled, buf, n, 1) == 0 && buf[0])
        return (int)strlen(buf);
    return dw_demangle_base(mangled, buf, n);
}

dw_info *dw_load_dm(const ptx_module *m, dw_demangle_fn dm, char *warn, size_t n)
{
    if (warn && n)
        warn[0] = 0;
    if (!m)
        return NULL;
    dw_info *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->m = m;
    d->dm = dm;
    d->warn = warn;
    d->warn_n = warn ? n : 0;
    d->void_type.kind = DW_TY_VOID;
    d->void_type.name = "void";
    if (dw_build_pcs(d) < 0 || dw_assemble_sections(d) < 0 || dw_build_lines(d) < 0) {
        dw_warn(d, "out of memory reading debug information");
    } else {
        if (d->nsects)
            dw_read_dwarf(d);
        if (dw_build_funcs(d) < 0)
            dw_warn(d, "out of memory reading debug information");
    }
    free(d->dies);
    d->dies = NULL;
    d->ndies = d->capdies = 0;
    d->warn = NULL;   /* the caller's buffer is not kept */
    d->warn_n = 0;
    return d;
}

void dw_retain(dw_info *d)
{
    if (d)
        d->refs++;
}

void dw_free(dw_info *d)
{
    if (!d)
        return;
    if (d->refs > 0) {
        d->refs--;
        return;
    }
    for (int i = 0; i < d->nblocks; i++)
        free(d->blocks[i]);
    free(d->blocks);
    free(d->dies);
    free(d->tmap);
    free(d);
}

/* ---- functions ------------------------------------------------------------------------------ */
int dw_nfuncs(const dw_info *d) { return d ? d->nfuncs : 0; }

const dw_func *dw_func_get(const dw_info *d, int i)
{
    return d && i >= 0 && i < d->nfuncs ? d->funcs[i] : NULL;
}

static int func_idx_at(const dw_info *d, uint32_t pc)
{
    int best = -1;
    for (int i = 0; i < d->nfuncs; i++) {   /* sorted by lo: the last one containing pc */
        const dw_func *f = d->funcs[i];
        if (f->lo > pc)
            break;
        if (pc < f->hi)
            best = i;
    }
    return best;
}

const dw_func *dw_func_at(const dw_info *d, uint32_t pc)
{
    if (!d || pc >= d->npcs)
        return NULL;
    int i = func_idx_at(d, pc);
    return i >= 0 ? d->funcs[i] : NULL;
}

const dw_func *dw_func_by_name(const dw_info *d, const char *name)
{
    if (!d || !name)
        return NULL;
    for (int i = 0; i < d->nfuncs; i++)
        if (d->funcs[i]->linkage_name && !strcmp(d->funcs[i]->linkage_name, name))
            return d->funcs[i];
    for (int i = 0; i < d->nfuncs; i++)
        if (d->funcs[i]->name && !strcmp(d->funcs[i]->name, name))
            return d->funcs[i];
    return NULL;
}

const dw_func *dw_func_of_ptx(const dw_info *d, const ptx_func *f)
{
    if (!d || !f)
        return NULL;
    for (int i = 0; i < d->nfuncs; i++)
        if (d->funcs[i]->ptx == f)
            return d->funcs[i];
    return NULL;
}

/* ---- scopes and variables -------------------------------------------------------------------- */
int dw_scopes_at(const dw_info *d, uint32_t pc, dw_scope *out, int max)
{
    if (!d)
        return 0;
    int fi = func_idx_at(d, pc);
    if (fi < 0)
        return 0;
    int n = 0;
    /* innermost first: smaller ranges first */
    int used[64];
    int nused = 0;
    for (;;) {
        int best = -1;
        for (int i = 0; i < d->nscopes && nused < 64; i++) {
            const dw_scope_int *s = &d->scopes[i];
            if (s->func != fi || pc < s->lo || pc >= s->hi)
                continue;
            int dup = 0;
            for (int k = 0; k < nused; k++)
                dup |= used[k] == i;
            if (dup)
                continue;
            if (best < 0 || s->hi - s->lo < d->scopes[best].hi - d->scopes[best].lo)
                best = i;
        }
        if (best < 0)
            break;
        used[nused++] = best;
        if (n < max && out) {
            out[n].lo = d->scopes[best].lo;
            out[n].hi = d->scopes[best].hi;
            out[n].is_inlined = d->scopes[best].is_inlined;
            out[n].name = d->scopes[best].name;
        }
        n++;
    }
    const dw_func *f = d->funcs[fi];
    if (n < max && out) {
        out[n].lo = f->lo;
        out[n].hi = f->hi;
        out[n].is_inlined = 0;
        out[n].name = f->name;
    }
    return n + 1;
}

int dw_inline_scopes(const dw_info *d, uint32_t pc, int *out, int max)
{
    int fi = func_idx_at(d, pc);
    if (fi < 0)
        return 0;
    int best = -1;
    for (int i = 0; i < d->nscopes; i++) {
        const dw_scope_int *s = &d->scopes[i];
        if (!s->is_inlined || s->func != fi || pc < s->lo || pc >= s->hi)
            continue;
        if (best < 0 || s->hi - s->lo < d->scopes[best].hi - d->scopes[best].lo)
            best = i;
    }
    int n = 0;
    for (int s = best; s >= 0 && n < 64; s = d->scopes[s].parent) {
        if (!d->scopes[s].is_inlined)
            continue;
        if (n < max && out)
            out[n] = s;
        n++;
    }
    return n;
}

static int var_visible(const dw_var *v, int fi, uint32_t pc, int inl)
{
    return v->func == fi && pc >= v->scope_lo && pc < v->scope_hi && v->inl_scope == inl;
}

int dw_vars_at_frame(const dw_info *d, uint32_t pc, int depth, unsigned flags,
                     const dw_var **out, int max)
{
    if (!d || depth < 0)
        return 0;
    int n = 0;
    int fi = pc < d->npcs ? func_idx_at(d, pc) : -1;
    int chain[64];
    int nchain = fi >= 0 ? dw_inline_scopes(d, pc, chain, 64) : 0;
    if (nchain > 64)
        nchain = 64;
    if (depth > nchain)
        fi = -1;
    int inl = depth < nchain ? chain[depth] : -1;
    if ((flags & DW_VARS_LOCALS) && fi >= 0) {
        /* innermost scope first: order candidates by scope size; drop shadowed names */
        for (;;) {
            const dw_var *best = NULL;
            uint32_t best_size = 0;
            for (int i = 0; i < d->nvars; i++) {
                const dw_var *v = d->vars[i];
                if (v->kind != DW_VAR_LOCAL || !var_visible(v, fi, pc, inl) || !v->name)
                    continue;
                int seen = 0;
                for (int k = 0; k < n && k < max; k++)
                    if (out[k] == v || (out[k]->name && !strcmp(out[k]->name, v->name)))
                        seen = 1;
                if (seen)
                    continue;
                uint32_t sz = v->scope_hi - v->scope_lo;
                if (!best || sz < best_size) {
                    best = v;
                    best_size = sz;
                }
            }
            if (!best || n >= max)
                break;
            out[n++] = best;
        }
    }
    if ((flags & DW_VARS_PARAMS) && fi >= 0)
        for (int i = 0; i < d->nvars; i++) {
            const dw_var *v = d->vars[i];
            if (v->kind == DW_VAR_PARAM && var_visible(v, fi, pc, inl)) {
                if (n < max && out)
                    out[n] = v;
                n++;
            }
        }
    if (flags & DW_VARS_GLOBALS)
        for (int i = 0; i < d->nglobals; i++) {
            if (n < max && out)
                out[n] = d->globals[i];
            n++;
        }
    return n;
}

int dw_vars_at(const dw_info *d, uint32_t pc, unsigned flags, const dw_var **out, int max)
{
    return dw_vars_at_frame(d, pc, 0, flags, out, max);
}

const dw_var *dw_var_lookup_frame(const dw_info *d, uint32_t pc, int depth, const char *name)
{
    if (!d || !name)
        return NULL;
    const dw_var *vs[512];
    int n = dw_vars_at_frame(d, pc, depth, DW_VARS_ALL, vs, 512);
    if (n > 512)
        n = 512;
    for (int i = 0; i < n; i++)
        if (vs[i]->name && !strcmp(vs[i]->name, name))
            return vs[i];
    return NULL;
}

const dw_var *dw_var_lookup(const dw_info *d, uint32_t pc, const char *name)
{
    return dw_var_lookup_frame(d, pc, 0, name);
}

int dw_nglobals(const dw_info *d) { return d ? d->nglobals : 0; }
const dw_var *dw_global_get(const dw_info *d, int i)
{
    return d && i >= 0 && i < d->nglobals ? d->globals[i] : NULL;
}

/* ---- locations ------------------------------------------------------------------------------- */
static void loc_unsupported(dw_loc *out, const char *why)
{
    out->kind = DW_LOCK_UNSUPPORTED;
    snprintf(out->reg, sizeof out->reg, "%s", why);
}

static uint64_t rd_le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static int eval_expr(const dw_info *d, const dw_var *v, const uint8_t *p, size_t n, dw_loc *out)
{
    uint64_t st[16];
    int sp = 0;
    size_t i = 0;
    memset(out, 0, sizeof *out);
    while (i < n) {
        uint8_t op = p[i++];
        uint64_t u = 0;
        int64_t s = 0;
        size_t k = 0;
        if (op == OP_addr) {
            if (i + 8 > n || sp >= 16)
                goto bad;
            st[sp++] = rd_le(p + i, 8);
            i += 8;
        } else if (op == OP_regx) {
            if (!(k = dw_uleb(p + i, n - i, &u)))
                goto bad;
            i += k;
            if (dw_regname_unpack(u, out->reg, sizeof out->reg) < 0) {
                loc_unsupported(out, "register number");
                return 0;
            }
            out->kind = DW_LOCK_REG;
            return 0;
        } else if (op == OP_plus_uconst) {
            if (!(k = dw_uleb(p + i, n - i, &u)) || sp < 1)
                goto bad;
            i += k;
            st[sp - 1] += u;
        } else if (op == OP_constu || op == OP_consts) {
            k = op == OP_constu ? dw_uleb(p + i, n - i, &u) : dw_sleb(p + i, n - i, &s);
            if (!k || sp >= 16)
                goto bad;
            i += k;
            st[sp++] = op == OP_constu ? u : (uint64_t)s;
        } else if (op >= OP_const1u && op <= OP_const8s) {
            static const int sz[] = {1, 1, 2, 2, 4, 4, 8, 8};
            int b = sz[op - OP_const1u];
            if (i + (size_t)b > n || sp >= 16)
                goto bad;
            u = rd_le(p + i, b);
            if ((op - OP_const1u) % 2 == 1 && b < 8 && (u >> (8 * b - 1)) & 1)
                u |= ~(uint64_t)0 << (8 * b);
            st[sp++] = u;
            i += (size_t)b;
        } else if (op >= OP_lit0 && op <= OP_lit31) {
            if (sp >= 16)
                goto bad;
            st[sp++] = (uint64_t)(op - OP_lit0);
        } else if (op == OP_plus || op == OP_minus) {
            if (sp < 2)
                goto bad;
            sp--;
            st[sp - 1] = op == OP_plus ? st[sp - 1] + st[sp] : st[sp - 1] - st[sp];
        } else if (op == OP_piece) {
            break;  /* the first piece only */
        } else if (op == OP_deref) {
            loc_unsupported(out, "DW_OP_deref");
            return 0;
        } else if (op == OP_stack_value) {
            loc_unsupported(out, "DW_OP_stack_value");
            return 0;
        } else {
            char why[32];
            snprintf(why, sizeof why, "DW_OP 0x%02x", op);
            loc_unsupported(out, why);
            return 0;
        }
    }
    if (sp < 1)
        goto bad;
    out->kind = DW_LOCK_MEM;
    uint64_t a = st[sp - 1];
    const char *sym = NULL;
    uint64_t off = 0;
    ptx_space sp_ = dw_addr_class_space(v ? v->addr_class : 0);
    if (dw_symaddr_decode(d, a, &sym, &off) == 0) {
        out->sym = sym;
        out->offset = off;
        const dw_symbol *ds = dw_symbol_find(d, sym);
        if (ds && ds->sym && ds->sym->kind == PTX_SYM_VAR && ds->sym->space != PTX_SPACE_NONE)
            sp_ = ds->sym->space;
    } else {
        out->sym = NULL;
        out->offset = a;
    }
    if (sp_ == PTX_SPACE_NONE || sp_ == PTX_SPACE_REG)
        sp_ = PTX_SPACE_GENERIC;
    out->space = sp_;
    return 0;
bad:
    loc_unsupported(out, "malformed expression");
    return 0;
}

/* A parameter whose register an ld.param of the function's prologue (before its breakpoint
 * address, dw_func_body_pc) loads from its .param slot reads from that slot until the load has
 * run (pc at or before it): at the function's first instruction the register is not yet set.
 * The slot is named as the core names registers (exec_reg_get reads a .param of the frame's
 * function by name). A parameter the prologue stores into the local depot is not available
 * until those stores have run. */
static void param_slot_before_load(const dw_info *d, const dw_var *v, uint32_t pc, dw_loc *out)
{
    if (v->kind != DW_VAR_PARAM || (out->kind != DW_LOCK_REG && out->kind != DW_LOCK_MEM) ||
        pc >= d->npcs)
        return;
    int fi = d->rows[pc].func;
    if (fi < 0 || fi >= d->m->nfuncs || d->func_first[fi] == UINT32_MAX)
        return;
    const ptx_func *f = d->m->funcs[fi];
    uint32_t at = pc - d->func_first[fi];
    int64_t body = dw_func_body_pc(d, f);
    int end = body > (int64_t)d->func_first[fi] ? (int)(body - d->func_first[fi]) : f->ninsns;
    if (out->kind == DW_LOCK_MEM) {
        /* a parameter the prologue copies into the frame's depot (a struct passed by value):
           until its stores have run the depot holds nothing of it; say so (gdb's <optimized
           out>) rather than show zeros */
        if (!out->sym || strncmp(out->sym, "__local_depot", 13) != 0)
            return;
        uint64_t lo = out->offset, hi = lo + dw_type_size(v->type);
        for (int i = (int)at; i < end && i < f->ninsns; i++) {
            const ptx_insn *in = &f->insns[i];
            const ptx_operand *a = in->nops == 2 ? &in->ops[0] : NULL;
            if (in->opc != PTX_OPC_st || !a || a->kind != PTX_OP_ADDR || !a->sym)
                continue;
            const char *b = a->sym->name;
            if ((!strcmp(b, "%SP") || !strcmp(b, "%SPL") || !strcmp(b, out->sym)) &&
                (uint64_t)a->ival >= lo && (uint64_t)a->ival < hi) {
                out->kind = DW_LOCK_NONE;
                return;
            }
        }
        return;
    }
    for (int i = 0; i < end && i < f->ninsns; i++) {
        const ptx_insn *in = &f->insns[i];
        if (in->opc != PTX_OPC_ld || !ptx_insn_has_mod(in, "param") || in->nops != 2)
            continue;
        const ptx_operand *dst = &in->ops[0], *src = &in->ops[1];
        if (dst->kind != PTX_OP_REG || !dst->sym || strcmp(dst->sym->name, out->reg) != 0 ||
            src->kind != PTX_OP_ADDR || !src->sym || src->ival != 0)
            continue;
        int own = 0;
        for (int k = 0; k < f->nparams; k++)
            own |= f->params[k] == src->sym;
        if (own && at <= (uint32_t)i && strlen(src->sym->name) < sizeof out->reg)
            snprintf(out->reg, sizeof out->reg, "%s", src->sym->name);
        return;
    }
}

int dw_var_location(const dw_info *d, const dw_var *v, uint32_t pc, dw_loc *out)
{
    if (!d || !v || !out || !v->has_loc)
        return -1;
    memset(out, 0, sizeof *out);
    if (v->loclist < 0) {
        int r = eval_expr(d, v, v->loc_expr, v->loc_len, out);
        if (r == 0)
            param_slot_before_load(d, v, pc, out);
        return r;
    }
    const dw_sect *s = dw_sect_find(d, ".debug_loc");
    if (!s || (uint64_t)v->loclist >= s->len) {
        loc_unsupported(out, "bad location list");
        return 0;
    }
    const uint8_t *p = s->data;
    size_t i = (size_t)v->loclist, n = s->len;
    uint64_t base = 0;
    for (int guard = 0; guard < 100000; guard++) {
        if (i + 16 > n)
            break;
        uint64_t b = rd_le(p + i, 8), e = rd_le(p + i + 8, 8);
        i += 16;
        if (b == 0 && e == 0)
            break;
        if (b == ~(uint64_t)0) {
            base = e;
            continue;
        }
        if (i + 2 > n)
            break;
        size_t len = (size_t)rd_le(p + i, 2);
        i += 2;
        if (i + len > n)
            break;
        if (pc >= b + base && pc < e + base) {
            int r = eval_expr(d, v, p + i, len, out);
            if (r == 0)
                param_slot_before_load(d, v, pc, out);
            return r;
        }
        i += len;
    }
    out->kind = DW_LOCK_NONE;
    return 0;
}

/* ---- types ----------------------------------------------------------------------------------- */
const dw_type *dw_type_strip(const dw_type *t)
{
    for (int k = 0; t && k < 64; k++) {
        if (t->kind != DW_TY_TYPEDEF && t->kind != DW_TY_CONST && t->kind != DW_TY_VOLATILE)
            return t;
        t = t->target;
    }
    return t;
}

uint64_t dw_type_size(const dw_type *t)
{
    for (int k = 0; t && k < 64; k++) {
        if (t->size || (t->kind != DW_TY_TYPEDEF && t->kind != DW_TY_CONST &&
                        t->kind != DW_TY_VOLATILE))
            return t->size;
        t = t->target;
    }
    return 0;
}

const dw_member *dw_type_member(const dw_type *t, const char *name)
{
    t = dw_type_strip(t);
    if (!t || !name)
        return NULL;
    for (int i = 0; i < t->nmembers; i++)
        if (t->members[i].name && !strcmp(t->members[i].name, name))
            return &t->members[i];
    /* anonymous members (unions inside structs) */
    for (int i = 0; i < t->nmembers; i++)
        if (!t->members[i].name) {
            const dw_member *m = dw_type_member(t->members[i].type, name);
            if (m)
                return m;   /* note: offset relative to the anonymous member */
        }
    return NULL;
}

static dw_type *synth_new(dw_info *d)
{
    dw_type *t = dw_alloc(d, sizeof *t);
    if (!t)
        return NULL;
    if (d->nsynth == d->capsynth) {
        int nc = d->capsynth ? d->capsynth * 2 : 16;
        dw_type **ns = dw_alloc(d, (size_t)nc * sizeof *ns);
        if (!ns)
            return NULL;
        if (d->nsynth)
            memcpy(ns, d->synth, (size_t)d->nsynth * sizeof *ns);
        d->synth = ns;
        d->capsynth = nc;
    }
    d->synth[d->nsynth++] = t;
    return t;
}

const dw_type *dw_type_subarray(dw_info *d, const dw_type *t, int drop)
{
    const dw_type *a = dw_type_strip(t);
    if (!d || !a || a->kind != DW_TY_ARRAY || drop < 0 || drop > a->ndims)
        return NULL;
    if (drop == 0)
        return t;
    if (drop == a->ndims)
        return a->target ? a->target : &d->void_type;
    for (int i = 0; i < d->nsynth; i++) {
        const dw_type *s = d->synth[i];
        if (s->kind == DW_TY_ARRAY && s->target == a->target && s->ndims == a->ndims - drop &&
            !memcmp(s->dims, a->dims + drop, sizeof(uint64_t) * (size_t)s->ndims))
            return s;
    }
    dw_type *s = synth_new(d);
    if (!s)
        return NULL;
    s->kind = DW_TY_ARRAY;
    s->target = a->target;
    s->ndims = a->ndims - drop;
    memcpy(s->dims, a->dims + drop, sizeof(uint64_t) * (size_t)s->ndims);
    s->size = dw_type_size(a->target);
    for (int k = 0; k < s->ndims; k++)
        s->size *= s->dims[k];
    return s;
}

const dw_type *dw_type_pointer_to(dw_info *d, const dw_type *t, ptx_space space)
{
    if (!d)
        return NULL;
    for (int i = 0; i < d->nsynth; i++) {
        const dw_type *s = d->synth[i];
        if (s->kind == DW_TY_POINTER && s->target == t && s->space == space)
            return s;
    }
    dw_type *s = synth_new(d);
    if (!s)
        return NULL;
    s->kind = DW_TY_POINTER;
    s->target = t;
    s->size = 8;
    s->space = space;
    return s;
}

/* Whether a type's DWARF name is the name a user typed: spaces do not count, nor the case of
 * an integer's U suffix (DWARF's "thread_block_tile<8U,void>", the demangler's "<8u, void>"),
 * and a qualified name ("cg::thread_group", "cooperative_groups::__v1::thread_group") names the
 * type by its last component, the one DWARF gives (the namespaces are the DIE's parents). */
static int type_name_is(const char *dwname, const char *user)
{
    const char *last = user;
    int depth = 0;
    for (const char *q = user; *q; q++) {
        if (*q == '<')
            depth++;
        else if (*q == '>')
            depth--;
        else if (!depth && q[0] == ':' && q[1] == ':')
            last = q + 2;
    }
    const char *a = dwname, *b = last;
    for (;;) {
        while (*a == ' ')
            a++;
        while (*b == ' ')
            b++;
        if (!*a || !*b)
            return !*a && !*b;
        int ca = *a, cb = *b;
        if ((ca == 'U' || ca == 'u') && (cb == 'U' || cb == 'u') && a > dwname &&
            isdigit((unsigned char)a[-1]))
            ca = cb;
        if (ca != cb)
            return 0;
        a++;
        b++;
    }
}

const dw_type *dw_type_lookup(const dw_info *d, const char *name)
{
    if (!d || !name)
        return NULL;
    int want = -1;
    static const struct { const char *p; int k; } pre[] = {
        {"struct ", DW_TY_STRUCT}, {"union ", DW_TY_UNION}, {"enum ", DW_TY_ENUM},
        {"class ", DW_TY_CLASS}};
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
        if (!strncmp(name, pre[i].p, strlen(pre[i].p))) {
            name += strlen(pre[i].p);
            want = pre[i].k;
        }
    const dw_type *found = NULL;
    for (int i = 0; i < d->ntypes; i++) {
        const dw_type *t = d->types[i];
        if (!t->name || (strcmp(t->name, name) && !type_name_is(t->name, name)))
            continue;
        if (t->kind == DW_TY_CONST || t->kind == DW_TY_VOLATILE || t->kind == DW_TY_POINTER)
            continue;
        if (want >= 0 && (int)t->kind != want && !(want == DW_TY_STRUCT && t->kind == DW_TY_CLASS))
            continue;
        if (!found || (!found->size && t->size))
            found = t;
    }
    if (!found && !strcmp(name, "void"))
        return &d->void_type;
    return found;
}

/* ---- type names ------------------------------------------------------------------------------ */
typedef struct { char *b; size_t n, len; } sbuf;

static void sb_put(sbuf *s, const char *t)
{
    while (*t) {
        if (s->len + 1 < s->n)
            s->b[s->len] = *t;
        s->len++;
        t++;
    }
    if (s->n)
        s->b[s->len < s->n ? s->len : s->n - 1] = 0;
}

static void type_base(const dw_type *t, char *out, size_t n, char *suffix, size_t sn, int depth);

int dw_type_name(const dw_type *t, char *buf, size_t n)
{
    if (!buf || !n)
        return -1;
    char base[256], suf[256];
    suf[0] = 0;
    type_base(t, base, sizeof base, suf, sizeof suf, 0);
    sbuf s = {buf, n, 0};
    buf[0] = 0;
    sb_put(&s, base);
    if (suf[0]) {
        sb_put(&s, " ");
        sb_put(&s, suf[0] == ' ' ? suf + 1 : suf);
    }
    return (int)s.len;
}

/* Base part in out, declarator suffix (" *", "[3]", ...) in suffix. */
static void type_base(const dw_type *t, char *out, size_t n, char *suffix, size_t sn, int depth)
{
    if (!t || depth > 32) {
        snprintf(out, n, "void");
        return;
    }
    char tmp[256];
    switch (t->kind) {
    case DW_TY_VOID: snprintf(out, n, "void"); return;
    case DW_TY_BASE: case DW_TY_TYPEDEF: case DW_TY_STRUCT: case DW_TY_UNION:
    case DW_TY_CLASS: case DW_TY_ENUM:
        if (t->name)
            snprintf(out, n, "%s", t->name);
        else
            snprintf(out, n, "%s {...}", t->kind == DW_TY_UNION ? "union" :
                     t->kind == DW_TY_ENUM ? "enum" : "struct");
        return;
    case DW_TY_CONST: case DW_TY_VOLATILE: {
        const char *q = t->kind == DW_TY_CONST ? "const" : "volatile";
        const dw_type *tg = t->target;
        if (tg && (tg->kind == DW_TY_POINTER || tg->kind == DW_TY_REFERENCE)) {
            type_base(tg, out, n, suffix, sn, depth + 1);
            snprintf(tmp, sizeof tmp, "%.200s %s", suffix, q);
            snprintf(suffix, sn, "%s", tmp);
        } else {
            char b[200];
            type_base(tg, b, sizeof b, suffix, sn, depth + 1);
            snprintf(out, n, "%s %s", q, b);
        }
        return;
    }
    case DW_TY_POINTER: case DW_TY_REFERENCE: {
        const char *star = t->kind == DW_TY_POINTER ? "*" : "&";
        const dw_type *tg = t->target;
        char inner[200];
        inner[0] = 0;
        type_base(tg, out, n, inner, sizeof inner, depth + 1);
        if (tg && (tg->kind == DW_TY_ARRAY || tg->kind == DW_TY_FUNC)) {
            /* inner is "[5]" or "(void)": int (*)[5] */
            snprintf(suffix, sn, "(%s)%s", star, inner);
            return;
        }
        snprintf(suffix, sn, "%s%s", star, inner);
        return;
    }
    case DW_TY_ARRAY: {
        char dims[200];
        sbuf s = {dims, sizeof dims, 0};
        dims[0] = 0;
        for (int i = 0; i < t->ndims; i++) {
            char one[32];
            if (t->dims[i])
                snprintf(one, sizeof one, "[%llu]", (unsigned long long)t->dims[i]);
            else
                snprintf(one, sizeof one, "[]");
            sb_put(&s, one);
        }
        char inner[200];
        inner[0] = 0;
        type_base(t->target, out, n, inner, sizeof inner, depth + 1);
        snprintf(suffix, sn, "%s%s", inner, dims);
        return;
    }
    case DW_TY_FUNC:
        type_base(t->target, out, n, suffix, sn, depth + 1);
        snprintf(tmp, sizeof tmp, "%.200s(void)", suffix);
        snprintf(suffix, sn, "%s", tmp);
        return;
    default:
        snprintf(out, n, "<unknown type>");
        return;
    }
}
