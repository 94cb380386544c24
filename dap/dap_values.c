/* dap_values.c - the DAP server's value layer: the one file of dap/ that calls commands/ (expressions, variables, formatting, CLI commands). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "cmd_prog.h"
#include "dap_int.h"

/* ---------------------------------------------------------------------------------------------
 * Expression evaluation, variable lookup and formatting still live in commands/ (the CLI's value
 * layer). The DAP server reaches them only through this file, so moving that layer into the
 * engine changes this file alone.
 * ------------------------------------------------------------------------------------------- */
struct dapv {
    cmd_ctx c;
};

dapv *dapv_new(dbg_session *s)
{
    dapv *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    cmd_ctx_init(&v->c, s);
    v->c.batch = 1;          /* never ask (confirm), no pager */
    v->c.kernel_events = 0;
    return v;
}

void dapv_free(dapv *v)
{
    if (!v)
        return;
    cmd_ctx_free(&v->c);
    free(v);
}

int dapv_libdir(char *out, size_t n) { return cmd_prog_libdir(out, n); }

int dapv_command(dapv *v, const char *line)
{
    v->c.failed = 0;
    int rc = cmd_execute(&v->c, line);
    return rc != 0 || v->c.failed ? -1 : 0;
}

static int has_alias(const char *aliases, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = aliases; p && *p;) {
        size_t k = strcspn(p, " ");
        if (k == n && !strncmp(p, w, n))
            return 1;
        p += k;
        while (*p == ' ')
            p++;
    }
    return 0;
}

int dapv_is_command(const char *word)
{
    for (const cmd_def *d = cmd_table; d->name; d++)
        if (!strcmp(d->name, word) || has_alias(d->aliases, word))
            return 1;
    return 0;
}

static cmd_lane_ref lane_ref(dapv *v, const dap_lref *r)
{
    cmd_lane_ref ref = {&v->c, r->cta, r->warp, r->lane, r->frame, 0};
    return ref;
}

static void describe(dapv *v, const dbg_value *cv, dapv_val *out)
{
    const dw_type *t = cv->dt ? dw_type_strip(cv->dt) : NULL;
    if (cv->dt)
        dw_type_name(cv->dt, out->type, sizeof out->type);
    else if (cv->kind == DBG_V_PTR)
        snprintf(out->type, sizeof out->type, "%s *",
                 cv->type == PTX_T_NONE ? "void" : dbg_type_c_name(cv->type));
    else if (cv->kind == DBG_V_INT || cv->kind == DBG_V_FLOAT)
        snprintf(out->type, sizeof out->type, "%s", dbg_type_c_name(cv->type));
    else if (cv->kind == DBG_V_DIM3)
        snprintf(out->type, sizeof out->type, "dim3");
    out->kind = DAPV_SCALAR;
    if (cv->lv == DBG_LV_MEM) {
        out->in_mem = 1;
        out->space = cv->mspace;
        out->addr = cv->maddr;
        out->size = cv->dt ? dw_type_size(cv->dt) : (uint64_t)dbg_value_size(cv);
    }
    if (cv->kind == DBG_V_PTR) {
        out->is_ptr = 1;
        out->pspace = cv->space;
        out->paddr = cv->u;
    }
    if (t && (t->kind == DW_TY_STRUCT || t->kind == DW_TY_UNION || t->kind == DW_TY_CLASS) &&
        cv->kind == DBG_V_AGG) {
        out->kind = DAPV_STRUCT;
        out->nchildren = t->nmembers;
    } else if (t && t->kind == DW_TY_ARRAY && cv->kind == DBG_V_AGG && t->ndims > 0 && t->dims[0]) {
        out->kind = DAPV_ARRAY;
        out->nchildren = (int64_t)t->dims[0];
    } else if (cv->kind == DBG_V_PTR && cv->u != 0) {
        const dw_type *pt = t && (t->kind == DW_TY_POINTER || t->kind == DW_TY_REFERENCE)
                                ? dw_type_strip(t->target) : NULL;
        /* a typed pointer expands to what it points to (not void or a function) */
        int ok = pt ? pt->kind != DW_TY_VOID && pt->kind != DW_TY_FUNC && pt->kind != DW_TY_UNKNOWN
                    : cv->type != PTX_T_NONE;
        if (ok) {
            out->kind = DAPV_PTR;
            out->nchildren = 1;
        }
    }
    (void)v;
}

int dapv_eval(dapv *v, const dap_lref *r, const char *expr, int hex, dapv_val *out, char *err,
              size_t n)
{
    memset(out, 0, sizeof *out);
    cmd_lane_ref ref = lane_ref(v, r);
    dbg_vsrc src;
    cmd_vsrc_lane(&ref, &src);
    dbg_value cv;
    if (dbg_eval_text(expr, &src, &v->c.hist, &cv, err, n) != 0)
        return -1;
    char *text = malloc(16384);
    if (!text) {
        snprintf(err, n, "Out of memory.");
        return -1;
    }
    if (cmd_format_lane(&ref, &cv, hex ? 'x' : 0, text, 16384) != 0) {
        snprintf(err, n, "%s", text);
        free(text);
        return -1;
    }
    out->text = text;
    describe(v, &cv, out);
    return 0;
}

void dapv_val_free(dapv_val *val)
{
    free(val->text);
    val->text = NULL;
}

int dapv_child(dapv *v, const dap_lref *r, const char *expr, int64_t i, char *name, size_t nn,
               char **child)
{
    *child = NULL;
    cmd_lane_ref ref = lane_ref(v, r);
    dbg_vsrc src;
    cmd_vsrc_lane(&ref, &src);
    dbg_value cv;
    char err[256];
    if (dbg_eval_text(expr, &src, &v->c.hist, &cv, err, sizeof err) != 0)
        return -1;
    dapv_val d;
    memset(&d, 0, sizeof d);
    describe(v, &cv, &d);
    size_t cap = strlen(expr) + 300;
    char *e = malloc(cap);
    if (!e)
        return -1;
    if (d.kind == DAPV_STRUCT && i >= 0 && i < d.nchildren) {
        const dw_member *m = &dw_type_strip(cv.dt)->members[i];
        if (m->name) {
            snprintf(name, nn, "%s", m->name);
            snprintf(e, cap, "(%s).%s", expr, m->name);
        } else { /* an anonymous member: its bytes as its type, at its offset */
            char tn[160];
            dw_type_name(m->type, tn, sizeof tn);
            snprintf(name, nn, "<anonymous %s>", tn);
            snprintf(e, cap, "*(%s *)((char *)&(%s) + %llu)", tn, expr,
                     (unsigned long long)m->offset);
        }
    } else if (d.kind == DAPV_ARRAY && i >= 0 && i < d.nchildren) {
        snprintf(name, nn, "[%lld]", (long long)i);
        snprintf(e, cap, "(%s)[%lld]", expr, (long long)i);
    } else if (d.kind == DAPV_PTR && i == 0) {
        snprintf(name, nn, "*%s", expr);
        snprintf(e, cap, "*(%s)", expr);
    } else {
        free(e);
        return -1;
    }
    *child = e;
    return 0;
}

int dapv_locals(dapv *v, const dap_lref *r, const char ***names)
{
    *names = NULL;
    dw_info *d = dbg_dwarf(v->c.s);
    if (!d || !dw_has_dwarf(d))
        return -1;
    dbg_frame fr[DBG_MAX_FRAMES];
    int nf = dbg_lane_frames(v->c.s, r->cta, r->warp, r->lane, fr, DBG_MAX_FRAMES);
    if (r->frame < 0 || r->frame >= nf)
        return 0;
    const dbg_frame *f = &fr[r->frame];
    const dw_var *vs[512];
    int np = dw_vars_at_frame(d, f->pc, f->inl, DW_VARS_PARAMS, vs, 256);
    if (np > 256)
        np = 256;
    int nl = dw_vars_at_frame(d, f->pc, f->inl, DW_VARS_LOCALS, vs + np, 256);
    if (nl > 256)
        nl = 256;
    const char **out = malloc((size_t)(np + nl + 1) * sizeof *out);
    if (!out)
        return 0;
    int k = 0;
    for (int i = 0; i < np + nl; i++)
        if (!vs[i]->artificial && vs[i]->name)
            out[k++] = vs[i]->name;
    *names = out;
    return k;
}

void dapv_format_bits(uint64_t bits, ptx_type t, int hex, char *out, size_t n)
{
    dbg_format_bits(bits, t, hex ? 'x' : 0, out, n);
}

int dapv_cond_check(dapv *v, const char *cond, const uint32_t *pcs, int npcs, char *err,
                    size_t n)
{
    return cmd_cond_check(&v->c, cond, pcs, npcs, err, n);
}

const char *dapv_exc_name(exec_exc e, int *num) { return cmd_core_exc_name(e, num); }

void dapv_func_name(dapv *v, const ptx_func *f, int full, char *out, size_t n)
{
    dbg_func_name(v->c.s, f, full, out, n);
}
