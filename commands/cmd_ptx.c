/* cmd_ptx.c - the PTX REPL: run one typed instruction on a scratch lane and print its destination. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"

/* ---------------------------------------------------------------------------------------------
 * Each instruction is wrapped in a one-instruction kernel with the declared registers, parsed,
 * and run on a fresh machine with one thread: a breakpoint before it loads the saved register
 * values, a breakpoint after it reads them back. Standalone (no kernel running) the registers
 * persist between lines; `.reg` lines declare more, and %r %rd %rs %f %fd %p (100 each) exist
 * without declaring. During a session (`eval` or PTX typed while a kernel is stopped) the
 * scratch lane starts from the focused lane's registers (those of its function), and the
 * destination is written back to the focused lane. Memory instructions see scratch memory, not
 * the kernel's, and special registers are those of a lone thread (0,0,0).
 * ------------------------------------------------------------------------------------------- */

typedef struct {
    char name[40];
    uint64_t bits;
} saved_reg;

typedef struct {
    char **decls;
    int ndecls;
    saved_reg *vals;
    int nvals;
} ptx_repl;

static const char *default_decls[][2] = {
    {"%r", ".reg .b32 %r<100>;"},   {"%rd", ".reg .b64 %rd<100>;"},
    {"%rs", ".reg .b16 %rs<100>;"}, {"%f", ".reg .f32 %f<100>;"},
    {"%fd", ".reg .f64 %fd<100>;"}, {"%p", ".reg .pred %p<100>;"},
};

static ptx_repl *repl(cmd_ctx *c)
{
    if (!c->ptx_repl)
        c->ptx_repl = calloc(1, sizeof(ptx_repl));
    return c->ptx_repl;
}

void cmd_ptx_free(cmd_ctx *c)
{
    ptx_repl *r = c->ptx_repl;
    if (!r)
        return;
    for (int i = 0; i < r->ndecls; i++)
        free(r->decls[i]);
    free(r->decls);
    free(r->vals);
    free(r);
    c->ptx_repl = NULL;
}

static saved_reg *find_val(ptx_repl *r, const char *name)
{
    for (int i = 0; i < r->nvals; i++)
        if (!strcmp(r->vals[i].name, name))
            return &r->vals[i];
    return NULL;
}

static void save_val(ptx_repl *r, const char *name, uint64_t bits)
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
static char *wrap(cmd_ctx *c, const char *insn, const ptx_func *live)
{
    ptx_repl *r = repl(c);
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
static int parse_error(cmd_ctx *c, const char *msg)
{
    const char *e = strstr(msg, "error: ");
    const char *end = e ? strchr(e, '\n') : NULL;
    if (e)
        return cmd_error(c, "%.*s", end ? (int)(end - e) : (int)strlen(e), e);
    return cmd_error(c, "%s", msg);
}

/* The register(s) an instruction writes: its first operand. */
static int dest_regs(const ptx_insn *in, const ptx_sym **out, int max)
{
    if (in->nops == 0 || !strcmp(in->opcode, "st") || !strcmp(in->opcode, "bra") ||
        !strcmp(in->opcode, "red"))
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

static int run_insn(cmd_ctx *c, const char *insn)
{
    ptx_repl *r = repl(c);
    if (!r)
        return cmd_error(c, "Out of memory.");
    /* in a session: the focused lane's function and registers */
    const dbg_focus *f = dbg_get_focus(c->s);
    exec_machine *real = dbg_machine(c->s);
    const ptx_func *live = NULL;
    uint32_t fpc;
    if (dbg_launch_alive(c->s) && f->valid && dbg_focus_pc(c->s, &fpc) == 0) {
        const ptx_insn *pi;
        if (exec_pc_insn(real, fpc, &live, &pi) != 0)
            live = NULL;
    }
    char *text = wrap(c, insn, live);
    if (!text)
        return cmd_error(c, "Out of memory.");
    ptx_error perr;
    memset(&perr, 0, sizeof perr);
    ptx_module *mod = ptx_parse(text, strlen(text), "<ptx>", &perr);
    free(text);
    if (!mod)
        return parse_error(c, perr.msg);
    char err[1024] = "";
    exec_machine *m = exec_new(mod, err, sizeof err);
    if (!m) {
        ptx_module_free(mod);
        return parse_error(c, err);
    }
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
        cmd_error(c, "%s", exec_errmsg(m));
        goto out;
    }
    exec_set_break(m, (uint32_t)pc0, 1);
    exec_set_break(m, (uint32_t)pc0 + (uint32_t)k->ninsns - 1, 1);
    if (exec_run(m, &o, &st) != 0 || st.kind != EXEC_STOP_BREAKPOINT) {
        cmd_error(c, "The scratch lane did not start: %s", st.msg[0] ? st.msg : exec_errmsg(m));
        goto out;
    }
    /* load register values */
    for (int i = 0; i < k->nregs; i++) {
        const char *name = k->regs[i]->name;
        uint64_t bits;
        ptx_type t;
        if (live) {
            if (exec_reg_get(real, f->cta, f->warp, f->lane, dbg_focus_phys(c->s), name, &bits, &t) == 0)
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
    if (exec_run(m, &o, &st) != 0) {
        cmd_error(c, "%s", exec_errmsg(m));
        goto out;
    }
    if (st.kind != EXEC_STOP_BREAKPOINT) {
        if (st.kind == EXEC_STOP_EXCEPTION || st.kind == EXEC_STOP_TRAP)
            cmd_error(c, "The instruction faulted: %s%s", st.msg[0] ? st.msg : "exception",
                      strstr(st.msg, " access ") ? "\n(eval runs on scratch memory, not the "
                      "kernel's buffers or shared memory: read those with print or x.)" : "");
        else if (st.kind == EXEC_STOP_DONE)
            cmd_error(c, "The instruction left the scratch kernel (branch or exit).");
        else
            cmd_error(c, "The instruction did not complete.");
        goto out;
    }
    /* save every register, print the destination(s) */
    for (int i = 0; i < k->nregs; i++) {
        uint64_t bits;
        ptx_type t;
        if (exec_reg_get(m, 0, 0, 0, 0, k->regs[i]->name, &bits, &t) == 0)
            save_val(r, k->regs[i]->name, bits);
    }
    const ptx_sym *dst[8];
    int nd = target ? dest_regs(target, dst, 8) : 0;
    for (int i = 0; i < nd; i++) {
        uint64_t bits;
        ptx_type t;
        if (exec_reg_get(m, 0, 0, 0, 0, dst[i]->name, &bits, &t) != 0)
            continue;
        char nat[128], hex[64];
        cmd_format_bits(bits, t, 0, nat, sizeof nat);
        cmd_format_bits(bits, t == PTX_T_F32 ? PTX_T_U32 : t == PTX_T_F64 ? PTX_T_U64 : t, 'x',
                        hex, sizeof hex);
        if (t == PTX_T_PRED)
            printf("%s = %s\n", dst[i]->name, nat);
        else
            printf("%s = %s  (%s)\n", dst[i]->name, nat, hex);
        if (live && exec_reg_set(real, f->cta, f->warp, f->lane, dbg_focus_phys(c->s), dst[i]->name, bits) != 0)
            cmd_error(c, "Cannot write %s back to the focused lane: %s", dst[i]->name,
                      exec_errmsg(real));
    }
    rc = 0;
out:
    exec_free(m);
    ptx_module_free(mod);
    return rc;
}

int cmd_ptx_repl_line(cmd_ctx *c, const char *line)
{
    while (isspace((unsigned char)*line))
        line++;
    if (!strncmp(line, ".reg", 4)) {
        ptx_repl *r = repl(c);
        if (!r)
            return cmd_error(c, "Out of memory.");
        char *d = strdup(line);
        if (!d)
            return cmd_error(c, "Out of memory.");
        size_t l = strlen(d);
        if (l && d[l - 1] != ';') {
            char *nd = realloc(d, l + 2);
            if (!nd) {
                free(d);
                return cmd_error(c, "Out of memory.");
            }
            d = nd;
            strcat(d, ";");
        }
        char **nl = realloc(r->decls, (size_t)(r->ndecls + 1) * sizeof *nl);
        if (!nl) {
            free(d);
            return cmd_error(c, "Out of memory.");
        }
        r->decls = nl;
        r->decls[r->ndecls++] = d;
        if (run_insn(c, NULL) != 0) { /* the declaration must parse */
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
        return cmd_error(c, "Instruction too long.");
    snprintf(insn, sizeof insn, "%.*s%s", (int)l, line, l && line[l - 1] == ';' ? "" : ";");
    return run_insn(c, insn);
}

int cmd_eval_ptx(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cmd_ptx_repl_line(c, args);
}
