/* dbg_frameargs.c - a frame line's arguments as gdb prints them (source parameters, else the PTX parameters of the kernel or device function) and whether it shows its address. */
#include <stdio.h>
#include <string.h>
#include "dbg_int.h"

/* Is a (demangled) parameter type a pointer? Parameter i of the signature "f(int, float*)". */
static int param_is_pointer(const char *sig, int i)
{
    const char *p = strchr(sig, '(');
    if (!p)
        return 0;
    p++;
    int depth = 0, k = 0;
    const char *start = p;
    for (; *p; p++) {
        if (*p == '<' || *p == '(')
            depth++;
        else if ((*p == '>' || *p == ')') && depth > 0)
            depth--;
        else if ((*p == ',' || *p == ')') && depth == 0) {
            if (k == i)
                return p > start && p[-1] == '*';
            k++;
            start = p + 1;
        }
    }
    return 0;
}

/* "n=1024, a=2, x=0x..." for a kernel's parameters (read from param space). */
static void kernel_args(dbg_session *s, const ptx_func *k, char *out, size_t n)
{
    out[0] = 0;
    uint64_t offs[64], sizes[64];
    int64_t total = exec_param_layout(k, offs, sizes, 64);
    const dbg_focus *f = dbg_get_focus(s);
    char sig[1024];
    dbg_func_name(s, k, 1, sig, sizeof sig);
    size_t len = 0;
    for (int i = 0; i < k->nparams && i < 64 && total >= 0; i++) {
        const ptx_sym *p = k->params[i];
        const char *nm = p->name;
        const char *u = strstr(nm, "_param_");
        char pname[64];
        snprintf(pname, sizeof pname, "%s", u ? u + 1 : nm);
        char val[128] = "...";
        uint64_t bits = 0;
        if (sizes[i] <= 8 && p->ndims == 0 &&
            exec_mem_read(s->m, PTX_SPACE_PARAM, offs[i], &bits, sizes[i], f->cta,
                          f->warp, f->lane) == 0) {
            if (param_is_pointer(sig, i) || p->ptr_space != PTX_SPACE_NONE)
                snprintf(val, sizeof val, "0x%llx", (unsigned long long)bits);
            else
                dbg_format_bits(bits, p->type, 0, val, sizeof val);
        }
        int w = snprintf(out + len, n - len, "%s%s=%s", i ? ", " : "", pname, val);
        if (w < 0 || (size_t)w >= n - len)
            break;
        len += (size_t)w;
    }
}

/* "foo (a=1)" for a device function frame: register parameters of that frame. */
static void func_args(dbg_session *s, const ptx_func *fn, int frame, char *out, size_t n)
{
    out[0] = 0;
    const dbg_focus *f = dbg_get_focus(s);
    size_t len = 0;
    for (int i = 0; i < fn->nparams; i++) {
        const ptx_sym *p = fn->params[i];
        char val[128] = "...";
        uint64_t bits;
        ptx_type t;
        if (exec_reg_get(s->m, f->cta, f->warp, f->lane, frame, p->name, &bits,
                         &t) == 0)
            dbg_format_bits(bits, t, 0, val, sizeof val);
        const char *u = strstr(p->name, "_param_");
        int w = snprintf(out + len, n - len, "%s%s=%s", i ? ", " : "", u ? u + 1 : p->name, val);
        if (w < 0 || (size_t)w >= n - len)
            break;
        len += (size_t)w;
    }
}

/* A parameter's value as a frame line shows it (gdb's "print frame-arguments scalars"). */
static void arg_text(dbg_session *s, const dw_var *v, const dbg_frame *f, char *out, size_t n)
{
    const dbg_focus *fo = dbg_get_focus(s);
    dbg_at at = {fo->cta, fo->warp, fo->lane, fo->frame, 0};
    dbg_value val;
    char err[256];
    if (dbg_var_value(s, &at, v, f, &val, err, sizeof err) != 0)
        snprintf(out, n, "<error: %s>", err);
    else if (val.kind == DBG_V_VOID && val.optout)
        snprintf(out, n, "<optimized out>");
    else if (val.kind == DBG_V_AGG)
        snprintf(out, n, "...");
    else if (val.kind == DBG_V_PTR && val.dt && dw_type_strip(val.dt) &&
             dw_type_strip(val.dt)->kind == DW_TY_REFERENCE) {
        /* gdb: a reference to a scalar is "count=@0x7ffe...: 1024", to an aggregate "..." */
        const dw_type *rt = dw_type_strip(dw_type_strip(val.dt)->target);
        char full[512];
        const char *p;
        if (!rt || rt->kind == DW_TY_STRUCT || rt->kind == DW_TY_CLASS ||
            rt->kind == DW_TY_UNION || rt->kind == DW_TY_ARRAY ||
            dbg_format_at(s, &at, &val, 0, full, sizeof full) != 0 || !(p = strchr(full, '@')))
            snprintf(out, n, "...");
        else
            snprintf(out, n, "%s", p);
    } else if (val.kind == DBG_V_PTR)
        snprintf(out, n, "0x%llx", (unsigned long long)val.u);
    else if (dbg_format_at(s, &at, &val, 0, out, n) != 0)
        snprintf(out, n, "...");
}

void dbg_frame_args(dbg_session *s, const dbg_frame *f, char *out, size_t n)
{
    out[0] = 0;
    dw_info *d = s->dw;
    if (!d || !dw_has_dwarf(d)) {
        if (f->inl_name)
            return;
        if (f->func->is_entry)
            kernel_args(s, f->func, out, n);
        else
            func_args(s, f->func, f->phys, out, n);
        return;
    }
    const dw_var *vs[64];
    int nv = dw_vars_at_frame(d, f->pc, f->inl, DW_VARS_PARAMS, vs, 64);
    size_t len = 0;
    for (int i = 0; i < nv && i < 64; i++) {
        if (vs[i]->artificial)
            continue;
        char val[512];
        arg_text(s, vs[i], f, val, sizeof val);
        int w = snprintf(out + len, n - len, "%s%s=%s", len ? ", " : "", vs[i]->name, val);
        if (w < 0 || (size_t)w >= n - len)
            break;
        len += (size_t)w;
    }
}

/* gdb shows "0x... in" when the pc is not where a line starts (callers, after finish). */
int dbg_frame_shows_addr(const dbg_session *s, const dbg_frame *f)
{
    if (f->inl != 0)
        return 0;
    if (f->show_addr)
        return 1;
    dw_info *d = s->dw;
    return d && dbg_has_source(s) && f->file && !dw_is_stmt(d, f->pc);
}

