/* dbg_vsrc.c - expression value source over the debugger (registers, memory, names) and condition hooks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "dbg_expr.h"

static int need_launch(cmd_lane_ref *r, char *err, size_t n)
{
    dbg_session *s = r->c->s;
    const exec_launch_info *li = dbg_launch_info(s);
    if (r->host || !li || !dbg_get_focus(s)->valid) {
        snprintf(err, n, "No registers.");
        return -1;
    }
    /* registers and built-ins belong to a live (or stopped-for-good) thread */
    exec_lane_info st;
    if (exec_lane_get(dbg_machine(s), r->cta, r->warp, r->lane, &st) != 0 ||
        st.state == EXEC_LANE_INVALID || st.state == EXEC_LANE_EXITED) {
        exec_stop last;
        int over = 0;
        if (!dbg_launch_alive(s) && (dbg_last_stop(s, &last, &over) != 0 || over))
            snprintf(err, n, "No live kernel: kernel %u has exited (registers, special registers "
                             "and CUDA built-ins need a stopped kernel).", li->launch_id);
        else
            snprintf(err, n, "The focused thread has exited: it has no registers (\"cuda "
                             "thread\" picks a live one).");
        return -1;
    }
    return 0;
}

int cmd_ref_frame(cmd_lane_ref *r, dbg_frame *out)
{
    dbg_frame fr[DBG_MAX_FRAMES];
    int n = dbg_lane_frames(r->c->s, r->cta, r->warp, r->lane, fr, DBG_MAX_FRAMES);
    if (n <= 0)
        return -1;
    *out = fr[r->frame >= 0 && r->frame < n ? r->frame : n - 1];
    return 0;
}

/* Physical frame (exec_reg_get's numbering) of the reference's source-level frame. */
static int phys_frame(cmd_lane_ref *r)
{
    dbg_frame f;
    return r->frame == 0 || cmd_ref_frame(r, &f) != 0 ? 0 : f.phys;
}

static int v_reg_get(void *ctx, const char *name, uint64_t *bits, ptx_type *t, char *err, size_t n)
{
    cmd_lane_ref *r = ctx;
    if (need_launch(r, err, n) != 0) /* no kernel: what typed PTX set in the standalone REPL */
        return cmd_ptx_repl_reg(r->c, name, bits, t) == 0 ? 0 : -1;
    exec_machine *m = dbg_machine(r->c->s);
    if (exec_reg_get(m, r->cta, r->warp, r->lane, phys_frame(r), name, bits, t) != 0) {
        snprintf(err, n, "%s", exec_errmsg(m));
        return -1;
    }
    return 0;
}

static int v_reg_set(void *ctx, const char *name, uint64_t bits, char *err, size_t n)
{
    cmd_lane_ref *r = ctx;
    if (need_launch(r, err, n) != 0)
        return -1;
    exec_machine *m = dbg_machine(r->c->s);
    if (exec_reg_set(m, r->cta, r->warp, r->lane, phys_frame(r), name, bits) != 0) {
        snprintf(err, n, "%s", exec_errmsg(m));
        return -1;
    }
    return 0;
}

static int v_sreg_get(void *ctx, int id, int comp, uint64_t *val, char *err, size_t n)
{
    cmd_lane_ref *r = ctx;
    if (need_launch(r, err, n) != 0)
        return -1;
    exec_machine *m = dbg_machine(r->c->s);
    if (exec_sreg_get(m, r->cta, r->warp, r->lane, (ptx_sreg_id)id, comp, val) != 0) {
        snprintf(err, n, "%s", exec_errmsg(m));
        return -1;
    }
    return 0;
}

static int v_mem_read(void *ctx, ptx_space sp, uint64_t addr, void *buf, size_t len, char *err,
                      size_t n)
{
    cmd_lane_ref *r = ctx;
    exec_machine *m = dbg_machine(r->c->s);
    if (sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_CONST && need_launch(r, err, n) != 0) {
        snprintf(err, n, "Cannot access %s memory without a running kernel.", ptx_space_name(sp));
        return -1;
    }
    if (!m || exec_mem_read(m, sp, addr, buf, len, r->cta, r->warp, r->lane) != 0) {
        snprintf(err, n, "Cannot access memory at address 0x%llx", (unsigned long long)addr);
        return -1;
    }
    return 0;
}

static int v_mem_write(void *ctx, ptx_space sp, uint64_t addr, const void *buf, size_t len,
                       char *err, size_t n)
{
    cmd_lane_ref *r = ctx;
    exec_machine *m = dbg_machine(r->c->s);
    if (sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_CONST && need_launch(r, err, n) != 0) {
        snprintf(err, n, "Cannot access %s memory without a running kernel.", ptx_space_name(sp));
        return -1;
    }
    if (!m || exec_mem_write(m, sp, addr, buf, len, r->cta, r->warp, r->lane) != 0) {
        snprintf(err, n, "Cannot access memory at address 0x%llx", (unsigned long long)addr);
        return -1;
    }
    return 0;
}

/* The declaration of a variable visible from the lane: module scope, then the kernel's. */
static const ptx_sym *find_var(cmd_lane_ref *r, const char *name)
{
    const ptx_module *mod = dbg_module(r->c->s);
    if (!mod)
        return NULL;
    const ptx_sym *v = ptx_find_var(mod, name);
    if (v)
        return v;
    const exec_launch_info *li = dbg_launch_info(r->c->s);
    const ptx_func *k = li ? li->kernel : NULL;
    if (k) {
        for (int i = 0; i < k->nvars; i++)
            if (!strcmp(k->vars[i]->name, name))
                return k->vars[i];
        for (int i = 0; i < k->nparams; i++)
            if (!strcmp(k->params[i]->name, name))
                return k->params[i];
    }
    return NULL;
}

/* ---- source-level variables (DWARF) ------------------------------------------------------------ */
/* Address of a memory location: the frame's local depot (exec_frame_local_base; %SPL of that
 * activation, which nvcc's code sets to the depot's local address, as a fallback), or a symbol
 * the core knows, plus the offset. */
static int loc_addr(cmd_lane_ref *r, const dw_loc *loc, const dbg_frame *f, ptx_space *sp,
                    uint64_t *addr, char *err, size_t n)
{
    exec_machine *m = dbg_machine(r->c->s);
    *sp = loc->space;
    if (!loc->sym) {
        *addr = loc->offset;
        return 0;
    }
    if (!strncmp(loc->sym, "__local_depot", 13)) {
        uint64_t base;
        ptx_type t;
        if (!f || need_launch(r, err, n) != 0) {
            snprintf(err, n, "No frame selected.");
            return -1;
        }
        /* the activation's own depot, else %SPL (set to the depot's address by nvcc's code) */
        if (exec_frame_local_base(m, r->cta, r->warp, r->lane, f->phys, loc->sym, &base) == 0 ||
            exec_reg_get(m, r->cta, r->warp, r->lane, f->phys, "%SPL", &base, &t) == 0) {
            *sp = PTX_SPACE_LOCAL;
            *addr = base + loc->offset;
            return 0;
        }
    }
    uint64_t a, size;
    ptx_space s2;
    if (!m || exec_symbol_addr(m, loc->sym, &s2, &a, &size) != 0) {
        snprintf(err, n, "Cannot find the address of %s.", loc->sym);
        return -1;
    }
    *sp = s2;
    *addr = a + loc->offset;
    return 0;
}

int cmd_var_value(cmd_lane_ref *r, const dw_var *v, const dbg_frame *f, dbg_value *out,
                  char *err, size_t n)
{
    dw_info *d = dbg_dwarf(r->c->s);
    dbg_vsrc src;
    cmd_vsrc_lane(r, &src);
    memset(out, 0, sizeof *out);
    dw_loc loc;
    uint32_t pc = f ? f->pc : 0;
    if (!d || dw_var_location(d, v, pc, &loc) != 0 || loc.kind == DW_LOCK_NONE) {
        out->optout = 1;
        out->dt = v->type;
        return 0;
    }
    if (loc.kind == DW_LOCK_UNSUPPORTED) {
        snprintf(err, n, "Cannot evaluate the location of \"%s\": %s.", v->name, loc.reg);
        return -1;
    }
    if (loc.kind == DW_LOCK_REG) {
        uint64_t bits;
        ptx_type t;
        if (!f || need_launch(r, err, n) != 0)
            return -1;
        exec_machine *m = dbg_machine(r->c->s);
        if (exec_reg_get(m, r->cta, r->warp, r->lane, f->phys, loc.reg, &bits, &t) != 0) {
            snprintf(err, n, "%s", exec_errmsg(m));
            return -1;
        }
        if (dbg_value_from_dw(out, v->type, bits) != 0) {
            char tn[128];
            dw_type_name(v->type, tn, sizeof tn);
            snprintf(err, n, "Cannot read a value of type `%s' from register %s.", tn, loc.reg);
            return -1;
        }
        /* a name too long to keep (a long .param slot name) leaves a value, not an lvalue */
        size_t len = strlen(loc.reg);
        if (len < sizeof out->reg) {
            out->lv = DBG_LV_REG;
            memcpy(out->reg, loc.reg, len + 1);
        }
        return 0;
    }
    ptx_space sp;
    uint64_t addr;
    if (loc_addr(r, &loc, f, &sp, &addr, err, n) != 0)
        return -1;
    return dbg_load_typed(&src, v->type, sp, addr, out, err, n);
}

int cmd_var_where(cmd_lane_ref *r, const dw_var *v, const dbg_frame *f, char *out, size_t n)
{
    dw_info *d = dbg_dwarf(r->c->s);
    dw_loc loc;
    char err[256];
    if (!d || dw_var_location(d, v, f ? f->pc : 0, &loc) != 0 || loc.kind == DW_LOCK_NONE) {
        snprintf(out, n, "optimized out here");
        return 0;
    }
    if (loc.kind == DW_LOCK_UNSUPPORTED) {
        snprintf(out, n, "at a location that cannot be evaluated (%s)", loc.reg);
        return 0;
    }
    if (loc.kind == DW_LOCK_REG) {
        snprintf(out, n, "a variable in register %s", loc.reg);
        return 0;
    }
    ptx_space sp;
    uint64_t addr;
    char sym[300] = "";
    if (loc.sym)
        snprintf(sym, sizeof sym, " (%s+%llu)", loc.sym, (unsigned long long)loc.offset);
    if (loc_addr(r, &loc, f, &sp, &addr, err, sizeof err) != 0)
        snprintf(out, n, "a variable in @%s memory at %s+%llu", ptx_space_name(loc.space),
                 loc.sym ? loc.sym : "", (unsigned long long)loc.offset);
    else
        snprintf(out, n, "%s at @%s address 0x%llx%s",
                 v->kind == DW_VAR_GLOBAL ? "static storage" : "a variable",
                 ptx_space_name(sp), (unsigned long long)addr, sym);
    return 0;
}

/* A DWARF variable visible in the reference's frame (globals without a frame): 1, 0, -1. */
static int dwarf_ident(cmd_lane_ref *r, const char *name, dbg_value *out, char *err, size_t n)
{
    dw_info *d = dbg_dwarf(r->c->s);
    if (!d || !dw_has_dwarf(d))
        return 0;
    dbg_frame f;
    int have = dbg_launch_info(r->c->s) && dbg_get_focus(r->c->s)->valid &&
               cmd_ref_frame(r, &f) == 0;
    const dw_var *v = NULL;
    if (have) {
        v = dw_var_lookup_frame(d, f.pc, f.inl, name);
    } else {
        for (int i = 0; i < dw_nglobals(d) && !v; i++)
            if (!strcmp(dw_global_get(d, i)->name, name))
                v = dw_global_get(d, i);
    }
    if (!v)
        return 0;
    return cmd_var_value(r, v, have ? &f : NULL, out, err, n) == 0 ? 1 : -1;
}

/* Source-level variables (DWARF) first, then buffers, then the PTX names. */
static int v_ident(void *ctx, const char *name, dbg_value *out, char *err, size_t n)
{
    cmd_lane_ref *r = ctx;
    int dr = r->host ? 0 : dwarf_ident(r, name, out, err, n);
    if (dr != 0)
        return dr;
    const dbg_buffer *b = dbg_buffer_find(r->c->s, name);
    if (b) {
        memset(out, 0, sizeof *out);
        out->kind = DBG_V_PTR;
        out->type = b->type;
        out->space = PTX_SPACE_GLOBAL;
        out->u = b->addr;
        out->count = b->count;
        return 1;
    }
    if (cmd_tex_ident(r->c, name, out))   /* texture/surface object names: their handles */
        return 1;
    const ptx_sym *v = find_var(r, name);
    if (!v)
        return 0;
    exec_machine *m = dbg_machine(r->c->s);
    ptx_space sp;
    uint64_t addr, size;
    if (exec_symbol_addr(m, name, &sp, &addr, &size) != 0) {
        snprintf(err, n, "%s", exec_errmsg(m));
        return -1;
    }
    ptx_type t = v->type == PTX_T_NONE ? PTX_T_U8 : v->type;
    if (v->ndims > 0 || v->vec > 1) {
        memset(out, 0, sizeof *out);
        out->kind = DBG_V_PTR;
        out->type = t;
        out->space = sp;
        out->u = addr;
        int eb = ptx_type_bits(t) / 8;
        out->count = eb > 0 ? size / (uint64_t)eb : 0;
        return 1;
    }
    uint64_t bits = 0;
    int eb = ptx_type_bits(t) / 8;
    if (eb <= 0 || eb > 8 || v_mem_read(ctx, sp, addr, &bits, (size_t)eb, err, n) != 0)
        return -1;
    dbg_value_from_bits(out, t, bits);
    out->lv = DBG_LV_MEM;
    out->mspace = sp;
    out->maddr = addr;
    return 1;
}

static int v_pc(void *ctx, uint64_t *pc, char *err, size_t n)
{
    cmd_lane_ref *r = ctx;
    exec_frame fr[64];
    exec_machine *m = dbg_machine(r->c->s);
    if (need_launch(r, err, n) != 0)
        return -1;
    int nf = exec_backtrace(m, r->cta, r->warp, r->lane, fr, 64);
    if (nf <= 0) {
        snprintf(err, n, "No registers.");
        return -1;
    }
    int pf = phys_frame(r);
    *pc = fr[pf < nf ? pf : nf - 1].pc;
    return 0;
}

void cmd_vsrc_lane(cmd_lane_ref *ref, dbg_vsrc *src)
{
    memset(src, 0, sizeof *src);
    src->ctx = ref;
    src->reg_get = v_reg_get;
    src->reg_set = v_reg_set;
    src->sreg_get = v_sreg_get;
    src->mem_read = v_mem_read;
    src->mem_write = v_mem_write;
    src->ident = v_ident;
    src->pc = v_pc;
    src->dw = dbg_dwarf(ref->c->s);
}

/* ---- formatting with source-level types ------------------------------------------------------- */
static int fmt_read(void *ctx, ptx_space space, uint64_t addr, void *buf, size_t n)
{
    cmd_lane_ref *r = ctx;
    exec_machine *m = dbg_machine(r->c->s);
    return m ? exec_mem_read(m, space, addr, buf, n, r->cta, r->warp, r->lane) : -1;
}

int cmd_format_lane(cmd_lane_ref *r, const dbg_value *v, char fmt, char *out, size_t n)
{
    if (v->kind == DBG_V_VOID && v->optout) {
        snprintf(out, n, "<optimized out>");
        return 0;
    }
    if (!v->dt || (fmt && !strchr("xduotcfa", fmt)))
        return dbg_format_value(v, fmt, cmd_describe, r->c, out, n);
    const dw_type *st = dw_type_strip(v->dt);
    uint64_t len = dw_type_size(v->dt);
    uint8_t small[8];
    uint8_t *bytes = small;
    if (v->kind == DBG_V_AGG) {
        if (len == 0 || len > (1u << 20)) {
            snprintf(out, n, "<value of %llu bytes>", (unsigned long long)len);
            return 0;
        }
        char err[256];
        bytes = malloc(len);
        if (!bytes) {
            snprintf(out, n, "Out of memory.");
            return -1;
        }
        if (v_mem_read(r, v->mspace, v->maddr, bytes, len, err, sizeof err) != 0) {
            free(bytes);
            snprintf(out, n, "<error: %s>", err);
            return 0;
        }
    } else {
        uint64_t bits;
        if (v->kind == DBG_V_PTR)
            bits = v->u;
        else if (st && st->enc == DW_BT_BF16) {
            float f = (float)v->f;
            uint32_t b;
            memcpy(&b, &f, 4);
            bits = b >> 16;
        } else
            bits = dbg_value_to_bits(v, v->type);
        if (len == 0 || len > 8)
            len = 8;
        memcpy(small, &bits, 8);
    }
    dw_format_opts po = cmd_print_opts(r->c);
    int rc = dw_format_value_opts(v->dt, bytes, len, fmt, 1, &po, fmt_read, r, out, n);
    if (bytes != small)
        free(bytes);
    if (rc < 0)
        return dbg_format_value(v, fmt, cmd_describe, r->c, out, n);
    return 0;
}

int cmd_format_focus(cmd_ctx *c, const dbg_value *v, char fmt, char *out, size_t n)
{
    cmd_lane_ref ref;
    dbg_vsrc src;
    cmd_vsrc_focus(c, &ref, &src);
    return cmd_format_lane(&ref, v, fmt, out, n);
}

void cmd_vsrc_focus(cmd_ctx *c, cmd_lane_ref *ref, dbg_vsrc *src)
{
    const dbg_focus *f = dbg_get_focus(c->s);
    ref->c = c;
    ref->cta = f->cta;
    ref->warp = f->warp;
    ref->lane = f->lane;
    ref->frame = f->frame;
    ref->host = 0;
    cmd_vsrc_lane(ref, src);
}

static int eval_at_focus(cmd_ctx *c, int host, const char *text, dbg_value *out, char *err,
                         size_t n)
{
    cmd_lane_ref ref;
    dbg_vsrc src;
    cmd_vsrc_focus(c, &ref, &src);
    ref.host = host;
    return dbg_eval_text(text, &src, &c->hist, out, err, n);
}

int cmd_eval_focus(cmd_ctx *c, const char *text, dbg_value *out, char *err, size_t n)
{
    return eval_at_focus(c, 0, text, out, err, n);
}

int cmd_eval_host(cmd_ctx *c, const char *text, dbg_value *out, char *err, size_t n)
{
    return eval_at_focus(c, 1, text, out, err, n);
}

/* "<saxpy+5>" for a pc. */
void cmd_describe(void *ctx, uint64_t pc, char *out, size_t n)
{
    cmd_ctx *c = ctx;
    const ptx_func *f;
    const ptx_insn *in;
    out[0] = 0;
    exec_machine *m = dbg_machine(c->s);
    if (!m || pc > UINT32_MAX || exec_pc_insn(m, (uint32_t)pc, &f, &in) != 0)
        return;
    char name[512];
    dbg_func_name(c->s, f, 0, name, sizeof name);
    int64_t base = exec_func_pc(m, f);
    long off = base >= 0 ? (long)(pc - (uint64_t)base) : 0;
    if (off)
        snprintf(out, n, "<%s+%ld>", name, off);
    else
        snprintf(out, n, "<%s>", name);
}

/* ---- breakpoint conditions ------------------------------------------------------------------ */
static void *cond_compile(void *ctx, const char *text, char *err, size_t n)
{
    cmd_ctx *c = ctx;
    return dbg_expr_parse_dw(text, c ? dbg_dwarf(c->s) : NULL, err, n);
}

static int cond_eval(void *ctx, void *compiled, uint32_t cta, uint32_t warp, uint32_t lane,
                     char *err, size_t n)
{
    cmd_ctx *c = ctx;
    cmd_lane_ref ref = {c, cta, warp, lane, 0, 0};
    dbg_vsrc src;
    cmd_vsrc_lane(&ref, &src);
    dbg_value v;
    if (dbg_eval(compiled, &src, &c->hist, &v, err, n) != 0) {
        cmd_error(c, "Error in testing condition for breakpoint: %s", err);
        return -1;
    }
    return dbg_value_true(&v);
}

static void cond_release(void *ctx, void *compiled)
{
    (void)ctx;
    dbg_expr_free(compiled);
}

static int cond_core(void *ctx, void *compiled, const ptx_func *f, exec_cond *prog, int max)
{
    cmd_ctx *c = ctx;
    return dbg_cond_core(dbg_machine(c->s), compiled, f, prog, max);
}

void cmd_install_cond_hooks(cmd_ctx *c)
{
    dbg_cond_hooks h = {c, cond_compile, cond_eval, cond_release, cond_core};
    dbg_set_cond_hooks(c->s, &h);
}

/* ---- conditions: every name must mean something where the breakpoint is (gdb) -------------- */
static int name_known_at(cmd_ctx *c, const char *name, uint32_t pc)
{
    static const char *builtin[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize",
                                    "true", "false", NULL};
    for (int i = 0; builtin[i]; i++)
        if (!strcmp(name, builtin[i]))
            return 1;
    dw_info *d = dbg_dwarf(c->s);
    if (d && dw_has_dwarf(d)) {
        if (dw_var_lookup_frame(d, pc, 0, name) || dw_var_lookup(d, pc, name))
            return 1;
        for (int i = 0; i < dw_nglobals(d); i++)
            if (!strcmp(dw_global_get(d, i)->name, name))
                return 1;
    }
    dbg_value v;
    if (dbg_buffer_find(c->s, name) || cmd_tex_ident(c, name, &v))
        return 1;
    const ptx_module *mod = dbg_module(c->s);
    if (mod && ptx_find_var(mod, name))
        return 1;
    dbg_where w;
    if (dbg_pc_where(c->s, pc, &w) == 0 && w.func) {
        const ptx_func *f = w.func;
        for (int i = 0; i < f->nvars; i++)
            if (!strcmp(f->vars[i]->name, name))
                return 1;
        for (int i = 0; i < f->nparams; i++)
            if (!strcmp(f->params[i]->name, name))
                return 1;
    }
    return 0;
}

/* The first identifier of e unknown at pc, or NULL. Member names are not identifiers. */
static const char *unknown_name(cmd_ctx *c, const dbg_expr *e, uint32_t pc)
{
    if (!e)
        return NULL;
    if (e->op == EX_IDENT)
        return name_known_at(c, e->name, pc) ? NULL : e->name;
    const char *u = unknown_name(c, e->a, pc);
    if (!u && e->op != EX_MEMBER)
        u = unknown_name(c, e->b, pc);
    if (!u)
        u = unknown_name(c, e->c, pc);
    return u;
}

int cmd_cond_check(cmd_ctx *c, const char *cond, const uint32_t *pcs, int npcs, char *err,
                   size_t n)
{
    dbg_expr *e = dbg_expr_parse_dw(cond, dbg_dwarf(c->s), err, n);
    if (!e)
        return -1;
    const char *bad = NULL;
    int ok = npcs == 0;
    for (int i = 0; i < npcs && !ok; i++) {
        const char *u = unknown_name(c, e, pcs[i]);
        if (!u)
            ok = 1;
        else if (!bad)
            bad = u;
    }
    if (!ok)
        snprintf(err, n, "No symbol \"%s\" in current context.", bad);
    dbg_expr_free(e);
    return ok ? 0 : -1;
}
