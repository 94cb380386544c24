/* cmd_vsrc.c - expression value source over the debugger (registers, memory, names) and condition hooks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_expr.h"

static int need_launch(cmd_lane_ref *r, char *err, size_t n)
{
    if (!dbg_launch_info(r->c->s) || !dbg_get_focus(r->c->s)->valid) {
        snprintf(err, n, "No registers.");
        return -1;
    }
    return 0;
}

static int v_reg_get(void *ctx, const char *name, uint64_t *bits, ptx_type *t, char *err, size_t n)
{
    cmd_lane_ref *r = ctx;
    if (need_launch(r, err, n) != 0)
        return -1;
    exec_machine *m = dbg_machine(r->c->s);
    if (exec_reg_get(m, r->cta, r->warp, r->lane, r->frame, name, bits, t) != 0) {
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
    if (exec_reg_set(m, r->cta, r->warp, r->lane, r->frame, name, bits) != 0) {
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

/* Source-level variables (DWARF) plug in here, before the PTX names. */
static int v_ident(void *ctx, const char *name, cmd_value *out, char *err, size_t n)
{
    cmd_lane_ref *r = ctx;
    const dbg_buffer *b = dbg_buffer_find(r->c->s, name);
    if (b) {
        memset(out, 0, sizeof *out);
        out->kind = CV_PTR;
        out->type = b->type;
        out->space = PTX_SPACE_GLOBAL;
        out->u = b->addr;
        out->count = b->count;
        return 1;
    }
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
        out->kind = CV_PTR;
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
    cmd_value_from_bits(out, t, bits);
    out->lv = CMD_LV_MEM;
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
    *pc = fr[r->frame < nf ? r->frame : nf - 1].pc;
    return 0;
}

void cmd_vsrc_lane(cmd_lane_ref *ref, cmd_vsrc *src)
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
}

void cmd_vsrc_focus(cmd_ctx *c, cmd_lane_ref *ref, cmd_vsrc *src)
{
    const dbg_focus *f = dbg_get_focus(c->s);
    ref->c = c;
    ref->cta = f->cta;
    ref->warp = f->warp;
    ref->lane = f->lane;
    ref->frame = f->frame;
    cmd_vsrc_lane(ref, src);
}

int cmd_eval_focus(cmd_ctx *c, const char *text, cmd_value *out, char *err, size_t n)
{
    cmd_lane_ref ref;
    cmd_vsrc src;
    cmd_vsrc_focus(c, &ref, &src);
    return cmd_eval_text(text, &src, &c->hist, out, err, n);
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
    (void)ctx;
    return cmd_expr_parse(text, err, n);
}

static int cond_eval(void *ctx, void *compiled, uint32_t cta, uint32_t warp, uint32_t lane,
                     char *err, size_t n)
{
    cmd_ctx *c = ctx;
    cmd_lane_ref ref = {c, cta, warp, lane, 0};
    cmd_vsrc src;
    cmd_vsrc_lane(&ref, &src);
    cmd_value v;
    if (cmd_eval(compiled, &src, &c->hist, &v, err, n) != 0) {
        cmd_error(c, "Error in testing condition for breakpoint: %s", err);
        return -1;
    }
    return cmd_value_true(&v);
}

static void cond_release(void *ctx, void *compiled)
{
    (void)ctx;
    cmd_expr_free(compiled);
}

void cmd_install_cond_hooks(cmd_ctx *c)
{
    dbg_cond_hooks h = {c, cond_compile, cond_eval, cond_release};
    dbg_set_cond_hooks(c->s, &h);
}
