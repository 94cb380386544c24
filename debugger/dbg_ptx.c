/* dbg_ptx.c - the PTX REPL: one typed instruction on scratch registers (reading real memory); prints its destination. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dbg_int.h"

/* ---------------------------------------------------------------------------------------------
 * Each instruction is wrapped in a one-instruction kernel with the declared registers, parsed,
 * and run on a fresh machine with one thread: a breakpoint before it loads the saved register
 * values, a breakpoint after it reads them back.
 *
 * The model: typed PTX runs on a SCRATCH COPY of registers and READS the real memory.
 *   - Standalone (no kernel running) the scratch registers and the carry flag persist between
 *     lines (`print %r1` shows them); `.reg` lines declare more, and %r %rd %rs %f %fd %p (100
 *     each) exist without declaring.
 *   - During a session (`eval`, or PTX typed while a kernel is stopped) each line starts from
 *     a copy of the focused lane's registers (those of its function) and carry flag; results
 *     are printed and never written back: the kernel is not changed (`set var %r3 = V` does
 *     that).
 *   - ld and ldu read the real memory as the focused lane would (global buffers and variables,
 *     the CTA's shared memory, the lane's local stack, kernel params, const; generic addresses
 *     too); without a kernel, global memory (buffers). Instructions that write or synchronize
 *     memory (st, atom, red, cp.*, ...) are refused. Special registers are those of a lone
 *     thread (0,0,0).
 * ------------------------------------------------------------------------------------------- */

typedef struct {
    char name[40];
    uint64_t bits;
    ptx_type type;
} saved_reg;

typedef struct dbg_ptx_repl {
    char **decls;
    int ndecls;
    saved_reg *vals;
    int nvals;
    int cf;                   /* standalone: the carry flag left by the last line */
} ptx_repl;

static const char *default_decls[][2] = {
    {"%r", ".reg .b32 %r<100>;"},   {"%rd", ".reg .b64 %rd<100>;"},
    {"%rs", ".reg .b16 %rs<100>;"}, {"%f", ".reg .f32 %f<100>;"},
    {"%fd", ".reg .f64 %fd<100>;"}, {"%p", ".reg .pred %p<100>;"},
};

static ptx_repl *repl(dbg_session *s)
{
    if (!s->ptx)
        s->ptx = calloc(1, sizeof(ptx_repl));
    return s->ptx;
}

void dbg_ptx_free(dbg_session *s)
{
    ptx_repl *r = s->ptx;
    if (!r)
        return;
    for (int i = 0; i < r->ndecls; i++)
        free(r->decls[i]);
    free(r->decls);
    free(r->vals);
    free(r);
    s->ptx = NULL;
}

static saved_reg *find_val(ptx_repl *r, const char *name)
{
    for (int i = 0; i < r->nvals; i++)
        if (!strcmp(r->vals[i].name, name))
            return &r->vals[i];
    return NULL;
}

static void save_val(ptx_repl *r, const char *name, uint64_t bits, ptx_type type)
{
    saved_reg *v = find_val(r, name);
    if (!v) {
        saved_reg *n = realloc(r->vals, (size_t)(r->nvals + 1) * sizeof *n);
        if (!n)
            return;
        r->vals = n;
        v = &r->vals[r->nvals++];
        snprintf(v->name, sizeof v->name, "%s", name);
    }
    v->bits = bits;
    v->type = type;
}

int dbg_ptx_repl_reg(dbg_session *s, const char *name, uint64_t *bits, ptx_type *type)
{
    ptx_repl *r = s->ptx;
    saved_reg *v = r ? find_val(r, name) : NULL;
    if (!v)
        return -1;
    *bits = v->bits;
    *type = v->type;
    return 0;
}

/* Does some user declaration declare registers with this prefix ("%f" for "%f<4>")? */
static int user_declares(ptx_repl *r, const char *prefix)
{
    size_t l = strlen(prefix);
    for (int i = 0; i < r->ndecls; i++)
        for (const char *p = strchr(r->decls[i], '%'); p; p = strchr(p + 1, '%'))
            if (!strncmp(p, prefix, l) && (p[l] == '<' || isdigit((unsigned char)p[l])))
                return 1;
    return 0;
}

/* The wrapper module text: registers from the focused function in a session, else defaults. */
static char *wrap(dbg_session *ss, const char *insn, const ptx_func *live)
{
    ptx_repl *r = repl(ss);
    size_t cap = 4096, n = 0;
    char *t = malloc(cap);
    if (!t)
        return NULL;
#define EMIT(s)                                                                               \
    do {                                                                                      \
        size_t l_ = strlen(s);                                                                \
        while (n + l_ + 2 > cap) {                                                            \
            char *nt_ = realloc(t, cap * 2);                                                  \
            if (!nt_) {                                                                       \
                free(t);                                                                      \
                return NULL;                                                                  \
            }                                                                                 \
            t = nt_;                                                                          \
            cap *= 2;                                                                         \
        }                                                                                     \
        memcpy(t + n, s, l_);                                                                 \
        n += l_;                                                                              \
        t[n++] = '\n';                                                                        \
        t[n] = 0;                                                                             \
    } while (0)
    EMIT(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry __ptxdbg_repl()\n{");
    if (live) {
        for (int i = 0; i < live->nregs; i++) {
            char d[128];
            const ptx_sym *s = live->regs[i];
            snprintf(d, sizeof d, ".reg .%s %s;", ptx_type_name(s->type), s->name);
            EMIT(d);
        }
    } else {
        for (size_t i = 0; i < sizeof default_decls / sizeof default_decls[0]; i++)
            if (!user_declares(r, default_decls[i][0]))
                EMIT(default_decls[i][1]);
    }
    for (int i = 0; i < r->ndecls; i++)
        EMIT(r->decls[i]);
    if (insn)
        EMIT(insn);
    EMIT("ret;\n}");
#undef EMIT
    return t;
}

/* Parse error text without the wrapper's file position. */
static int parse_error(dbg_session *s, const char *msg)
{
    const char *e = strstr(msg, "error: ");
    const char *end = e ? strchr(e, '\n') : NULL;
    if (e)
        return dbg_err(s, "%.*s", end ? (int)(end - e) : (int)strlen(e), e);
    return dbg_err(s, "%s", msg);
}

/* The register(s) an instruction writes: its first operand, unless the opcode table says the
 * first operand is a source (st's address, bra's label, bar's barrier number...). */
static int dest_regs(const ptx_insn *in, const ptx_sym **out, int max)
{
    if (in->nops == 0 || !ptx_insn_writes_op0(in))
        return 0;
    const ptx_operand *o = &in->ops[0];
    int n = 0;
    if (o->kind == PTX_OP_REG && o->sym && o->sym->kind == PTX_SYM_REG)
        out[n++] = o->sym;
    else if (o->kind == PTX_OP_VEC || o->kind == PTX_OP_PAIR)
        for (int i = 0; i < o->nelems && n < max; i++)
            if (o->elems[i].kind == PTX_OP_REG && o->elems[i].sym)
                out[n++] = o->elems[i].sym;
    return n;
}

/* The type the instruction writes its destination as (PTX ISA): the first type modifier (the
 * destination type of cvt, set, slct, tex, ...), twice as wide with .wide; popc, clz, bfind
 * and fns write .u32; dp4a/dp2a .u32 only when both sources are unsigned. NONE when untyped. */
static ptx_type insn_dest_type(const ptx_insn *in)
{
    ptx_type ts[4];
    int nt = 0, wide = 0;
    for (int i = 0; i < in->nmods; i++) {
        ptx_type t = ptx_type_from_name(in->mods[i]);
        if (t != PTX_T_NONE && nt < 4)
            ts[nt++] = t;
        wide |= !strcmp(in->mods[i], "wide");
    }
    if (ptx_op_is(in, PTX_OPF_U32DST))
        return PTX_T_U32;
    if (!nt)
        return PTX_T_NONE;
    if (in->opc == PTX_OPC_dp4a || in->opc == PTX_OPC_dp2a)
        return nt >= 2 && !ptx_type_is_signed(ts[0]) && !ptx_type_is_signed(ts[1]) ? PTX_T_U32
                                                                                  : PTX_T_S32;
    if (wide) {
        switch (ts[0]) {
        case PTX_T_S16: return PTX_T_S32;
        case PTX_T_S32: return PTX_T_S64;
        case PTX_T_U16: return PTX_T_U32;
        case PTX_T_U32: return PTX_T_U64;
        default: break;
        }
    }
    return ts[0];
}

/* How a destination register of declared type rt is shown after an instruction writing type
 * it: predicates as predicates; integers with the instruction's signedness at the register's
 * width (ld.s8 into a .b32 shows the sign-extended value); floats (f16/bf16 pairs too) as the
 * instruction's type when the widths agree; bit types as the register's declared type. */
static ptx_type shown_type(ptx_type it, ptx_type rt)
{
    if (it == PTX_T_NONE || it == PTX_T_PRED || rt == PTX_T_PRED)
        return rt;
    int rb = ptx_type_bits(rt), ib = ptx_type_bits(it);
    if (ptx_type_is_float(it))
        return ib == rb ? it : rt;
    if (ptx_type_is_signed(it))
        return rb == 8 ? PTX_T_S8 : rb == 16 ? PTX_T_S16 : rb == 64 ? PTX_T_S64 : PTX_T_S32;
    if (it >= PTX_T_U8 && it <= PTX_T_U64)
        return rb == 8 ? PTX_T_U8 : rb == 16 ? PTX_T_U16 : rb == 64 ? PTX_T_U64 : PTX_T_U32;
    return rt;
}

static int has_addr(const ptx_operand *o)
{
    if (o->kind == PTX_OP_ADDR)
        return 1;
    if (o->kind == PTX_OP_LIST || o->kind == PTX_OP_VEC || o->kind == PTX_OP_PAIR)
        for (int i = 0; i < o->nelems; i++)
            if (has_addr(&o->elems[i]))
                return 1;
    return 0;
}

/* ld/ldu on the real memory: the address from the scratch registers, the bytes from the
 * session's machine as the focused lane sees them, the destination(s) set in the scratch
 * machine m. 0, or -1 with the message given. */
static int real_load(dbg_session *s, exec_machine *m, const ptx_insn *in, int live)
{
    ptx_space sp = PTX_SPACE_GENERIC;
    ptx_type t = PTX_T_NONE;
    int vec = 1;
    for (int i = 0; i < in->nmods; i++) {
        const char *md = in->mods[i];
        ptx_type mt = ptx_type_from_name(md);
        if (mt != PTX_T_NONE)
            t = mt;
        else if (md[0] == 'v' && (md[1] == '2' || md[1] == '4' || md[1] == '8') && !md[2])
            vec = md[1] - '0';
        else if (!strncmp(md, "global", 6))
            sp = PTX_SPACE_GLOBAL;
        else if (!strncmp(md, "shared", 6))
            sp = PTX_SPACE_SHARED;
        else if (!strcmp(md, "local"))
            sp = PTX_SPACE_LOCAL;
        else if (!strcmp(md, "const"))
            sp = PTX_SPACE_CONST;
        else if (!strncmp(md, "param", 5))
            sp = PTX_SPACE_PARAM;
    }
    int esz = ptx_type_bits(t) / 8;
    const ptx_operand *a = in->nops == 2 ? &in->ops[1] : NULL;
    if (esz <= 0 || esz > 8 || !a || a->kind != PTX_OP_ADDR ||
        (a->sym && a->sym->kind != PTX_SYM_REG))
        return dbg_err(s, "eval reads memory through a register or an absolute address "
                         "([%%rd1+8], [0x...]); print or x read variables by name.");
    uint64_t base = 0;
    ptx_type bt;
    if (a->sym && exec_reg_get(m, 0, 0, 0, 0, a->sym->name, &base, &bt) != 0)
        return dbg_err(s, "%s", exec_errmsg(m));
    uint64_t addr = base + (uint64_t)a->ival;
    const ptx_sym *dst[8];
    int nd = dest_regs(in, dst, 8);
    if (nd != vec)
        return dbg_err(s, "Bad destination for %s.", in->opcode);
    const dbg_focus *f = dbg_get_focus(s);
    exec_machine *real = s->m;
    for (int i = 0; i < nd; i++) {
        uint64_t v = 0, at = addr + (uint64_t)i * (uint64_t)esz;
        if (exec_mem_read(real, sp, at, &v, (size_t)esz, live ? f->cta : 0, live ? f->warp : 0,
                          live ? f->lane : 0) != 0)
            return dbg_err(s, "Cannot access %s memory at address 0x%llx%s",
                             ptx_space_name(sp), (unsigned long long)at,
                             live ? "" : " (no kernel is running: only global memory exists)");
        if (ptx_type_is_signed(t) && esz < 8 && (v >> (8 * esz - 1)) & 1)
            v |= ~UINT64_C(0) << (8 * esz);
        if (exec_reg_set(m, 0, 0, 0, 0, dst[i]->name, v) != 0)
            return dbg_err(s, "%s", exec_errmsg(m));
    }
    return 0;
}

static int run_insn(dbg_session *s, const char *insn, dbg_ptx_row *rows, int max)
{
    ptx_repl *r = repl(s);
    if (!r)
        return dbg_err(s, "Out of memory.");
    /* in a session: the focused lane's function and registers */
    const dbg_focus *f = dbg_get_focus(s);
    exec_machine *real = s->m;
    const ptx_func *live = NULL;
    uint32_t fpc;
    if (dbg_launch_alive(s) && f->valid && dbg_focus_pc(s, &fpc) == 0) {
        const ptx_insn *pi;
        if (exec_pc_insn(real, fpc, &live, &pi) != 0)
            live = NULL;
    }
    char *text = wrap(s, insn, live);
    if (!text)
        return dbg_err(s, "Out of memory.");
    ptx_error perr;
    memset(&perr, 0, sizeof perr);
    ptx_module *mod = ptx_parse(text, strlen(text), "<ptx>", &perr);
    free(text);
    if (!mod)
        return parse_error(s, perr.msg);
    char err[1024] = "";
    exec_machine *m = exec_new(mod, err, sizeof err);
    if (!m) {
        ptx_module_free(mod);
        return parse_error(s, err);
    }
    dbg_output_apply(s, m);
    int rc = -1;
    const ptx_func *k = ptx_find_func(mod, "__ptxdbg_repl");
    exec_dim3 one = {1, 1, 1};
    exec_stop st;
    exec_run_opts o;
    memset(&o, 0, sizeof o);
    o.mode = EXEC_RUN_CONTINUE;
    o.max_steps = 1000;
    int64_t pc0 = k ? exec_func_pc(m, k) : -1;
    const ptx_insn *target = insn && k && k->ninsns >= 2 ? &k->insns[k->ninsns - 2] : NULL;
    if (!k || pc0 < 0 || exec_launch(m, k, one, one, 0, NULL, 0) != 0) {
        dbg_err(s, "%s", exec_errmsg(m));
        goto out;
    }
    exec_set_break(m, (uint32_t)pc0, 1);
    exec_set_break(m, (uint32_t)pc0 + (uint32_t)k->ninsns - 1, 1);
    if (exec_run(m, &o, &st) != 0 || st.kind != EXEC_STOP_BREAKPOINT) {
        dbg_err(s, "The scratch lane did not start: %s", st.msg[0] ? st.msg : exec_errmsg(m));
        goto out;
    }
    /* load register values */
    for (int i = 0; i < k->nregs; i++) {
        const char *name = k->regs[i]->name;
        uint64_t bits;
        ptx_type t;
        if (live) {
            if (exec_reg_get(real, f->cta, f->warp, f->lane, dbg_focus_phys(s), name, &bits, &t) == 0)
                exec_reg_set(m, 0, 0, 0, 0, name, bits);
        } else {
            saved_reg *v = find_val(r, name);
            if (v)
                exec_reg_set(m, 0, 0, 0, 0, name, v->bits);
        }
    }
    if (!insn) {
        rc = 0;
        goto out;
    }
    /* the carry flag: the focused lane's, or the previous line's */
    int cf = r->cf;
    if (live && exec_lane_cc(real, f->warp, f->lane, 0, &cf) != 0)
        cf = 0;
    exec_lane_cc(m, 0, 0, 1, &cf);
    int mem = 0;
    for (int i = 0; target && i < target->nops; i++)
        mem |= has_addr(&target->ops[i]);
    if (mem && target->opc != PTX_OPC_ld && target->opc != PTX_OPC_ldu) {
        dbg_err(s, "eval does not change memory: '%s' is refused (ld and ldu read memory; "
                  "set var writes it).", target->opcode);
        goto out;
    }
    int guard_on = 1;
    if (mem && target->guard) {
        uint64_t g = 0;
        ptx_type gt;
        exec_reg_get(m, 0, 0, 0, 0, target->guard->name, &g, &gt);
        guard_on = (g != 0) != target->guard_neg;
    }
    if (mem) {
        if (guard_on && real_load(s, m, target, live != NULL) != 0)
            goto out;
    } else if (exec_run(m, &o, &st) != 0) {
        dbg_err(s, "%s", exec_errmsg(m));
        goto out;
    }
    if (!mem && st.kind != EXEC_STOP_BREAKPOINT) {
        if (st.kind == EXEC_STOP_EXCEPTION || st.kind == EXEC_STOP_TRAP)
            dbg_err(s, "The instruction faulted: %s%s", st.msg[0] ? st.msg : "exception",
                      "");
        else if (st.kind == EXEC_STOP_DONE)
            dbg_err(s, "The instruction left the scratch kernel (branch or exit).");
        else
            dbg_err(s, "The instruction did not complete.");
        goto out;
    }
    /* standalone: keep every register and the carry flag for the next line; in a session
     * the scratch copy is dropped (the kernel is not changed) */
    if (!live) {
        for (int i = 0; i < k->nregs; i++) {
            uint64_t bits;
            ptx_type t;
            if (exec_reg_get(m, 0, 0, 0, 0, k->regs[i]->name, &bits, &t) == 0)
                save_val(r, k->regs[i]->name, bits, t);
        }
        exec_lane_cc(m, 0, 0, 0, &r->cf);
    }
    const ptx_sym *dst[8];
    int nd = target ? dest_regs(target, dst, 8) : 0, nrows = 0;
    ptx_type it = target ? insn_dest_type(target) : PTX_T_NONE;
    for (int i = 0; i < nd; i++) {
        uint64_t bits;
        ptx_type t;
        if (exec_reg_get(m, 0, 0, 0, 0, dst[i]->name, &bits, &t) != 0)
            continue;
        t = shown_type(it, t);
        char nat[128], hex[64];
        dbg_format_bits(bits, t, 0, nat, sizeof nat);
        /* the hex of a float is its bits: the unsigned type of its width */
        int tb = ptx_type_bits(t);
        ptx_type ht = !ptx_type_is_float(t) ? t : tb <= 8 ? PTX_T_U8 : tb == 16 ? PTX_T_U16
                                                  : tb == 32 ? PTX_T_U32 : PTX_T_U64;
        dbg_format_bits(bits, ht, 'x', hex, sizeof hex);
        if (nrows < max) {
            dbg_ptx_row *row = &rows[nrows++];
            snprintf(row->name, sizeof row->name, "%s", dst[i]->name);
            snprintf(row->value, sizeof row->value, "%s", nat);
            snprintf(row->hex, sizeof row->hex, "%s", t == PTX_T_PRED ? "" : hex);
        }
    }
    rc = nrows;
out:
    exec_free(m);
    ptx_module_free(mod);
    return rc;
}

int dbg_ptx_line(dbg_session *s, const char *line, dbg_ptx_row *rows, int max)
{
    while (isspace((unsigned char)*line))
        line++;
    if (!strncmp(line, ".reg", 4)) {
        ptx_repl *r = repl(s);
        if (!r)
            return dbg_err(s, "Out of memory.");
        char *d = strdup(line);
        if (!d)
            return dbg_err(s, "Out of memory.");
        size_t l = strlen(d);
        if (l && d[l - 1] != ';') {
            char *nd = realloc(d, l + 2);
            if (!nd) {
                free(d);
                return dbg_err(s, "Out of memory.");
            }
            d = nd;
            strcat(d, ";");
        }
        char **nl = realloc(r->decls, (size_t)(r->ndecls + 1) * sizeof *nl);
        if (!nl) {
            free(d);
            return dbg_err(s, "Out of memory.");
        }
        r->decls = nl;
        r->decls[r->ndecls++] = d;
        if (run_insn(s, NULL, NULL, 0) != 0) { /* the declaration must parse */
            free(r->decls[--r->ndecls]);
            return -1;
        }
        return 0;
    }
    char insn[1024];
    size_t l = strlen(line);
    while (l && isspace((unsigned char)line[l - 1]))
        l--;
    if (l + 2 >= sizeof insn)
        return dbg_err(s, "Instruction too long.");
    snprintf(insn, sizeof insn, "%.*s%s", (int)l, line, l && line[l - 1] == ';' ? "" : ";");
    return run_insn(s, insn, rows, max);
}
