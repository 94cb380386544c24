/* dbg_inspect.c - values as a front end browses them: type, kind, children (members, elements, pointees), the variables of a frame. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dbg_int.h"

void dbg_value_describe(const dbg_value *cv, dbg_value_info *out)
{
    memset(out, 0, sizeof *out);
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
    out->kind = DBG_VAL_SCALAR;
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
        out->kind = DBG_VAL_STRUCT;
        out->nchildren = t->nmembers;
    } else if (t && t->kind == DW_TY_ARRAY && cv->kind == DBG_V_AGG && t->ndims > 0 && t->dims[0]) {
        out->kind = DBG_VAL_ARRAY;
        out->nchildren = (int64_t)t->dims[0];
    } else if (cv->kind == DBG_V_PTR && cv->u != 0) {
        const dw_type *pt = t && (t->kind == DW_TY_POINTER || t->kind == DW_TY_REFERENCE)
                                ? dw_type_strip(t->target) : NULL;
        /* a typed pointer expands to what it points to (not void or a function) */
        int ok = pt ? pt->kind != DW_TY_VOID && pt->kind != DW_TY_FUNC && pt->kind != DW_TY_UNKNOWN
                    : cv->type != PTX_T_NONE;
        if (ok) {
            out->kind = DBG_VAL_PTR;
            out->nchildren = 1;
        }
    }
}

int dbg_value_child(dbg_session *s, const dbg_at *at, const char *expr, int64_t i, char *name,
                    size_t nn, char **child)
{
    *child = NULL;
    dbg_value cv;
    char err[256];
    if (dbg_eval_at(s, at, expr, &cv, err, sizeof err) != 0)
        return -1;
    dbg_value_info d;
    dbg_value_describe(&cv, &d);
    size_t cap = strlen(expr) + 300;
    char *e = malloc(cap);
    if (!e)
        return -1;
    if (d.kind == DBG_VAL_STRUCT && i >= 0 && i < d.nchildren) {
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
    } else if (d.kind == DBG_VAL_ARRAY && i >= 0 && i < d.nchildren) {
        snprintf(name, nn, "[%lld]", (long long)i);
        snprintf(e, cap, "(%s)[%lld]", expr, (long long)i);
    } else if (d.kind == DBG_VAL_PTR && i == 0) {
        snprintf(name, nn, "*%s", expr);
        snprintf(e, cap, "*(%s)", expr);
    } else {
        free(e);
        return -1;
    }
    *child = e;
    return 0;
}

int dbg_frame_var_names(dbg_session *s, const dbg_at *at, int params_only, const char ***names)
{
    *names = NULL;
    dw_info *d = s->dw;
    if (!d || !dw_has_dwarf(d))
        return -1;
    dbg_frame fr[DBG_MAX_FRAMES];
    int nf = dbg_lane_frames(s, at->cta, at->warp, at->lane, fr, DBG_MAX_FRAMES);
    if (at->frame < 0 || at->frame >= nf)
        return 0;
    const dbg_frame *f = &fr[at->frame];
    const dw_var *vs[512];
    int np = dw_vars_at_frame(d, f->pc, f->inl, DW_VARS_PARAMS, vs, 256);
    if (np > 256)
        np = 256;
    int nl = params_only ? 0 : dw_vars_at_frame(d, f->pc, f->inl, DW_VARS_LOCALS, vs + np, 256);
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
