/* dbg_vsrc.c - values of a lane: the expression value source (registers, memory, names), variables, formatting, evaluation, breakpoint conditions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dbg_int.h"
#include "dbg_expr.h"

static void describe_pc(void *ctx, uint64_t pc, char *out, size_t n);

static int need_launch(dbg_lane_ref *r, char *err, size_t n)
{
    dbg_session *s = r->s;
    const exec_launch_info *li = dbg_launch_info(s);
    if (r->host || !li || !dbg_get_focus(s)->valid) {
        snprintf(err, n, "No registers.");
        return -1;
    }
    /* registers and built-ins belong to a live (or stopped-for-good) thread */
    exec_lane_info st;
    if (exec_lane_get(s->m, r->cta, r->warp, r->lane, &st) != 0 ||
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

int dbg_ref_frame(dbg_lane_ref *r, dbg_frame *out)
{
    dbg_frame fr[DBG_MAX_FRAMES];
    int n = dbg_lane_frames(r->s, r->cta, r->warp, r->lane, fr, DBG_MAX_FRAMES);
    if (n <= 0)
        return -1;
    *out = fr[r->frame >= 0 && r->frame < n ? r->frame : n - 1];
    return 0;
}

/* Physical frame (exec_reg_get's numbering) of the reference's source-level frame. */
static int phys_frame(dbg_lane_ref *r)
{
    dbg_frame f;
    return r->frame == 0 || dbg_ref_frame(r, &f) != 0 ? 0 : f.phys;
}

static int v_reg_get(void *ctx, const char *name, uint64_t *bits, ptx_type *t, char *err, size_t n)
{
    dbg_lane_ref *r = ctx;
    if (need_launch(r, err, n) != 0) /* no kernel: what typed PTX set in the standalone REPL */
        return dbg_ptx_repl_reg(r->s, name, bits, t) == 0 ? 0 : -1;
    exec_machine *m = r->s->m;
    if (exec_reg_get(m, r->cta, r->warp, r->lane, phys_frame(r), name, bits, t) != 0) {
        snprintf(err, n, "%s", exec_errmsg(m));
        return -1;
    }
    return 0;
}

static int v_reg_set(void *ctx, const char *name, uint64_t bits, char *err, size_t n)
{
    dbg_lane_ref *r = ctx;
    if (need_launch(r, err, n) != 0)
        return -1;
    exec_machine *m = r->s->m;
    if (exec_reg_set(m, r->cta, r->warp, r->lane, phys_frame(r), name, bits) != 0) {
        snprintf(err, n, "%s", exec_errmsg(m));
        return -1;
    }
    return 0;
}

static int v_sreg_get(void *ctx, int id, int comp, uint64_t *val, char *err, size_t n)
{
    dbg_lane_ref *r = ctx;
    if (need_launch(r, err, n) != 0)
        return -1;
    exec_machine *m = r->s->m;
    if (exec_sreg_get(m, r->cta, r->warp, r->lane, (ptx_sreg_id)id, comp, val) != 0) {
        snprintf(err, n, "%s", exec_errmsg(m));
        return -1;
    }
    return 0;
}

static int v_mem_read(void *ctx, ptx_space sp, uint64_t addr, void *buf, size_t len, char *err,
                      size_t n)
{
    dbg_lane_ref *r = ctx;
    exec_machine *m = r->s->m;
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
    dbg_lane_ref *r = ctx;
    exec_machine *m = r->s->m;
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
static const ptx_sym *find_var(dbg_lane_ref *r, const char *name)
{
    const ptx_module *mod = r->s->mod;
    if (!mod)
        return NULL;
    const ptx_sym *v = ptx_find_var(mod, name);
    if (v)
        return v;
    const exec_launch_info *li = dbg_launch_info(r->s);
    const ptx_func *k = li ? li->kernel : NULL;
    if (k) {
        for (int i = 0; i < k->nvars; i++)
            if (!strcmp(k->vars[i]->name, name))
                return k->vars[i];
        for (int i = 0; i < k->nparams; i++)
            if (!strcmp(k->params[i]->name, name))
                return k->params[i];
        /* the short name frame lines show without DWARF variables (-O3 -lineinfo):
           param_2 is the kernel's ..._param_2 */
        if (!strncmp(name, "param_", 6))
            for (int i = 0; i < k->nparams; i++) {
                const char *u = strstr(k->params[i]->name, "_param_");
                if (u && !strcmp(u + 1, name))
                    return k->params[i];
            }
    }
    return NULL;
}

/* ---- source-level variables (DWARF) ------------------------------------------------------------ */
/* Address of a memory location: the frame's local depot (exec_frame_local_base; %SPL of that
 * activation, which nvcc's code sets to the depot's local address, as a fallback), or a symbol
 * the core knows, plus the offset. */
static int loc_addr(dbg_lane_ref *r, const dw_loc *loc, const dbg_frame *f, ptx_space *sp,
                    uint64_t *addr, char *err, size_t n)
{
    exec_machine *m = r->s->m;
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

int dbg_ref_var_value(dbg_lane_ref *r, const dw_var *v, const dbg_frame *f, dbg_value *out,
                  char *err, size_t n)
{
    dw_info *d = r->s->dw;
    dbg_vsrc src;
    dbg_vsrc_lane(r, &src);
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
        exec_machine *m = r->s->m;
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

int dbg_ref_var_where(dbg_lane_ref *r, const dw_var *v, const dbg_frame *f, char *out, size_t n)
{
    dw_info *d = r->s->dw;
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
static int dwarf_ident(dbg_lane_ref *r, const char *name, dbg_value *out, char *err, size_t n)
{
    dw_info *d = r->s->dw;
    if (!d || !dw_has_dwarf(d))
        return 0;
    dbg_frame f;
    int have = dbg_launch_info(r->s) && dbg_get_focus(r->s)->valid &&
               dbg_ref_frame(r, &f) == 0;
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
    return dbg_ref_var_value(r, v, have ? &f : NULL, out, err, n) == 0 ? 1 : -1;
}

/* Source-level variables (DWARF) first, then buffers, then the PTX names. */
static int v_ident(void *ctx, const char *name, dbg_value *out, char *err, size_t n)
{
    dbg_lane_ref *r = ctx;
    int dr = r->host ? 0 : dwarf_ident(r, name, out, err, n);
    if (dr != 0)
        return dr;
    const dbg_buffer *b = dbg_buffer_find(r->s, name);
    if (b) {
        memset(out, 0, sizeof *out);
        out->kind = DBG_V_PTR;
        out->type = b->type;
        out->space = PTX_SPACE_GLOBAL;
        out->u = b->addr;
        out->count = b->count;
        return 1;
    }
    if (dbg_tex_ident(r->s, name, out))   /* texture/surface object names: their handles */
        return 1;
    const ptx_sym *v = find_var(r, name);
    if (!v)
        return 0;
    exec_machine *m = r->s->m;
    ptx_space sp;
    uint64_t addr, size;
    if (exec_symbol_addr(m, v->name, &sp, &addr, &size) != 0) {
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
    dbg_lane_ref *r = ctx;
    exec_frame fr[64];
    exec_machine *m = r->s->m;
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

void dbg_vsrc_lane(dbg_lane_ref *ref, dbg_vsrc *src)
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
    src->dw = ref->s->dw;
}

/* ---- formatting with source-level types ------------------------------------------------------- */
static int fmt_read(void *ctx, ptx_space space, uint64_t addr, void *buf, size_t n)
{
    dbg_lane_ref *r = ctx;
    exec_machine *m = r->s->m;
    return m ? exec_mem_read(m, space, addr, buf, n, r->cta, r->warp, r->lane) : -1;
}

int dbg_ref_format(dbg_lane_ref *r, const dbg_value *v, char fmt, char *out, size_t n)
{
    if (v->kind == DBG_V_VOID && v->optout) {
        snprintf(out, n, "<optimized out>");
        return 0;
    }
    if (!v->dt || (fmt && !strchr("xduotcfa", fmt)))
        return dbg_format_value(v, fmt, describe_pc, r->s, out, n);
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
    const dbg_options *o = dbg_opts(r->s);
    dw_format_opts po = {o->print_elements, o->print_repeats, o->print_pretty};
    int rc = dw_format_value_opts(v->dt, bytes, len, fmt, 1, &po, fmt_read, r, out, n);
    if (bytes != small)
        free(bytes);
    if (rc < 0)
        return dbg_format_value(v, fmt, describe_pc, r->s, out, n);
    return 0;
}

dbg_at dbg_at_focus(const dbg_session *s)
{
    const dbg_focus *f = dbg_get_focus(s);
    dbg_at at = {f->cta, f->warp, f->lane, f->frame, 0};
    return at;
}

dbg_lane_ref dbg_ref_at(dbg_session *s, const dbg_at *at)
{
    dbg_lane_ref r = {s, at->cta, at->warp, at->lane, at->frame, at->host};
    return r;
}

dbg_history *dbg_session_history(dbg_session *s) { return &s->hist; }

int dbg_value_read(dbg_session *s, const dbg_at *at, ptx_space sp, uint64_t addr, void *buf,
                   size_t len, char *err, size_t n)
{
    dbg_lane_ref ref = dbg_ref_at(s, at);
    return v_mem_read(&ref, sp, addr, buf, len, err, n);
}

int dbg_format_at(dbg_session *s, const dbg_at *at, const dbg_value *v, char fmt, char *out,
                  size_t n)
{
    dbg_lane_ref ref = dbg_ref_at(s, at);
    return dbg_ref_format(&ref, v, fmt, out, n);
}

int dbg_format_focus(dbg_session *s, const dbg_value *v, char fmt, char *out, size_t n)
{
    dbg_at at = dbg_at_focus(s);
    return dbg_format_at(s, &at, v, fmt, out, n);
}

int dbg_eval_expr_at(dbg_session *s, const dbg_at *at, const dbg_expr *e, dbg_value *out,
                     char *err, size_t n)
{
    dbg_lane_ref ref = dbg_ref_at(s, at);
    dbg_vsrc src;
    dbg_vsrc_lane(&ref, &src);
    return dbg_eval(e, &src, &s->hist, out, err, n);
}

int dbg_eval_at(dbg_session *s, const dbg_at *at, const char *text, dbg_value *out, char *err,
                size_t n)
{
    dbg_lane_ref ref = dbg_ref_at(s, at);
    dbg_vsrc src;
    dbg_vsrc_lane(&ref, &src);
    return dbg_eval_text(text, &src, &s->hist, out, err, n);
}

int dbg_eval_focus(dbg_session *s, const char *text, dbg_value *out, char *err, size_t n)
{
    dbg_at at = dbg_at_focus(s);
    return dbg_eval_at(s, &at, text, out, err, n);
}

int dbg_eval_host(dbg_session *s, const char *text, dbg_value *out, char *err, size_t n)
{
    dbg_at at = dbg_at_focus(s);
    at.host = 1;
    return dbg_eval_at(s, &at, text, out, err, n);
}

int dbg_var_value(dbg_session *s, const dbg_at *at, const dw_var *v, const dbg_frame *f,
                  dbg_value *out, char *err, size_t n)
{
    dbg_lane_ref ref = dbg_ref_at(s, at);
    return dbg_ref_var_value(&ref, v, f, out, err, n);
}

int dbg_var_where(dbg_session *s, const dbg_at *at, const dw_var *v, const dbg_frame *f,
                  char *out, size_t n)
{
    dbg_lane_ref ref = dbg_ref_at(s, at);
    return dbg_ref_var_where(&ref, v, f, out, n);
}

/* "<saxpy+5>" for a pc. */
void dbg_describe_pc(const dbg_session *s, uint64_t pc, char *out, size_t n)
{
    const ptx_func *f;
    const ptx_insn *in;
    out[0] = 0;
    exec_machine *m = s->m;
    if (!m || pc > UINT32_MAX || exec_pc_insn(m, (uint32_t)pc, &f, &in) != 0)
        return;
    char name[512];
    dbg_func_name(s, f, 0, name, sizeof name);
    int64_t base = exec_func_pc(m, f);
    long off = base >= 0 ? (long)(pc - (uint64_t)base) : 0;
    if (off)
        snprintf(out, n, "<%s+%ld>", name, off);
    else
        snprintf(out, n, "<%s>", name);
}

static void describe_pc(void *ctx, uint64_t pc, char *out, size_t n)
{
    dbg_describe_pc(ctx, pc, out, n);
}

/* ---- breakpoint conditions ------------------------------------------------------------------ */
void *dbg_cond_compile(dbg_session *s, const char *text, char *err, size_t n)
{
    return dbg_expr_parse_dw(text, s->dw, err, n);
}

int dbg_cond_eval(dbg_session *s, void *compiled, uint32_t cta, uint32_t warp, uint32_t lane,
                  char *err, size_t n)
{
    dbg_lane_ref ref = {s, cta, warp, lane, 0, 0};
    dbg_vsrc src;
    dbg_vsrc_lane(&ref, &src);
    dbg_value v;
    if (dbg_eval(compiled, &src, &s->hist, &v, err, n) != 0)
        return -1;
    return dbg_value_true(&v);
}

void dbg_cond_release(void *compiled) { dbg_expr_free(compiled); }

/* ---- conditions: every name must mean something where the breakpoint is (gdb) -------------- */
static int name_known_at(dbg_session *s, const char *name, uint32_t pc)
{
    static const char *builtin[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize",
                                    "true", "false", NULL};
    for (int i = 0; builtin[i]; i++)
        if (!strcmp(name, builtin[i]))
            return 1;
    dw_info *d = s->dw;
    if (d && dw_has_dwarf(d)) {
        if (dw_var_lookup_frame(d, pc, 0, name) || dw_var_lookup(d, pc, name))
            return 1;
        for (int i = 0; i < dw_nglobals(d); i++)
            if (!strcmp(dw_global_get(d, i)->name, name))
                return 1;
    }
    dbg_value v;
    if (dbg_buffer_find(s, name) || dbg_tex_ident(s, name, &v))
        return 1;
    const ptx_module *mod = s->mod;
    if (mod && ptx_find_var(mod, name))
        return 1;
    dbg_where w;
    if (dbg_pc_where(s, pc, &w) == 0 && w.func) {
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
static const char *unknown_name(dbg_session *s, const dbg_expr *e, uint32_t pc)
{
    if (!e)
        return NULL;
    if (e->op == EX_IDENT)
        return name_known_at(s, e->name, pc) ? NULL : e->name;
    const char *u = unknown_name(s, e->a, pc);
    if (!u && e->op != EX_MEMBER)
        u = unknown_name(s, e->b, pc);
    if (!u)
        u = unknown_name(s, e->c, pc);
    return u;
}

int dbg_cond_check(dbg_session *s, const char *cond, const uint32_t *pcs, int npcs, char *err,
                   size_t n)
{
    dbg_expr *e = dbg_expr_parse_dw(cond, s->dw, err, n);
    if (!e)
        return -1;
    const char *bad = NULL;
    int ok = npcs == 0;
    for (int i = 0; i < npcs && !ok; i++) {
        const char *u = unknown_name(s, e, pcs[i]);
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
