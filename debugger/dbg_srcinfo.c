/* dbg_srcinfo.c - source-level information for front ends: frame variables with their values, a scope's variables and where they live, a variable's address, the code of a line or function, source search paths. */
#include <stdio.h>
#include <string.h>
#include "dbg_int.h"

int dbg_need_symbols(dbg_session *s)
{
    if (!s->mod)
        return dbg_err(s, "No symbol table is loaded.  Use the \"file\" command.");
    if (!s->dw || !dw_has_dwarf(s->dw))
        return dbg_err(s, "No symbol table info available.");
    return 0;
}

int dbg_has_dwarf_vars(const dbg_session *s) { return s->dw && dw_has_dwarf(s->dw); }
int dbg_has_lines(const dbg_session *s) { return s->dw != NULL; }

int dbg_frame_vars_each(dbg_session *s, int params,
                        void (*fn)(void *ctx, const char *name, const char *value), void *ctx)
{
    dbg_frame f;
    if (dbg_focus_frame(s, &f) != 0)
        return dbg_err(s, "No frame selected.");
    const dw_var *vs[256];
    int n = dw_vars_at_frame(s->dw, f.pc, f.inl, params ? DW_VARS_PARAMS : DW_VARS_LOCALS, vs,
                             256);
    if (n > 256)
        n = 256;
    int shown = 0;
    const dbg_focus *fo = dbg_get_focus(s);
    dbg_at at = {fo->cta, fo->warp, fo->lane, fo->frame, 0};
    for (int i = 0; i < n; i++) {
        if (vs[i]->artificial)
            continue;
        dbg_value v;
        char err[512], out[8192];
        if (dbg_var_value(s, &at, vs[i], &f, &v, err, sizeof err) != 0)
            snprintf(out, sizeof out, "<error: %s>", err);
        else
            dbg_format_at(s, &at, &v, 0, out, sizeof out);
        fn(ctx, vs[i]->name, out);
        shown++;
    }
    return shown;
}

static void static_where(dw_info *d, const dw_var *v, uint32_t pc, char *out, size_t n)
{
    dw_loc loc;
    uint64_t len = dw_type_size(v->type);
    if (dw_var_location(d, v, pc, &loc) != 0 || loc.kind == DW_LOCK_NONE)
        snprintf(out, n, "Symbol %s is optimized out.", v->name);
    else if (loc.kind == DW_LOCK_UNSUPPORTED)
        snprintf(out, n, "Symbol %s is a variable with complex DWARF expression locating its "
                 "address in memory, length %llu.", v->name, (unsigned long long)len);
    else if (loc.kind == DW_LOCK_REG)
        snprintf(out, n, "Symbol %s is a variable in register %s, length %llu.", v->name, loc.reg,
                 (unsigned long long)len);
    else if (loc.sym)
        snprintf(out, n, "Symbol %s is a variable at %s+%llu in @%s memory, length %llu.",
                 v->name, loc.sym, (unsigned long long)loc.offset, dbg_space_name(loc.space),
                 (unsigned long long)len);
    else
        snprintf(out, n, "Symbol %s is a variable at @%s address 0x%llx, length %llu.", v->name,
                 dbg_space_name(loc.space), (unsigned long long)loc.offset,
                 (unsigned long long)len);
}

int dbg_scope_each(dbg_session *s, uint32_t pc, void (*fn)(void *ctx, const char *line),
                   void *ctx)
{
    const dw_var *vs[256];
    int n = s->dw ? dw_vars_at(s->dw, pc, DW_VARS_LOCALS | DW_VARS_PARAMS, vs, 256) : 0;
    if (n > 256)
        n = 256;
    int shown = 0;
    for (int i = 0; i < n; i++) {
        if (vs[i]->artificial)
            continue;
        char line[1024];
        static_where(s->dw, vs[i], pc, line, sizeof line);
        fn(ctx, line);
        shown++;
    }
    return shown;
}

int dbg_var_address(dbg_session *s, const char *name, char *out, size_t n)
{
    dw_info *d = s->dw;
    dbg_frame f;
    int have = dbg_focus_frame(s, &f) == 0;
    const dw_var *v = NULL;
    if (have)
        v = dw_var_lookup_frame(d, f.pc, f.inl, name);
    for (int i = 0; i < dw_nglobals(d) && !v; i++)
        if (!strcmp(dw_global_get(d, i)->name, name))
            v = dw_global_get(d, i);
    if (!v)
        return dbg_err(s, "No symbol \"%s\" in current context.", name);
    const dbg_focus *fo = dbg_get_focus(s);
    dbg_at at = {fo->cta, fo->warp, fo->lane, fo->frame, 0};
    if (!have || !fo->valid || !dbg_launch_info(s)) {
        static_where(d, v, have ? f.pc : 0, out, n);
        return 0;
    }
    char where[600];
    dbg_var_where(s, &at, v, &f, where, sizeof where);
    snprintf(out, n, "Symbol \"%s\" is %s.", v->name, where);
    return 0;
}

int dbg_pc_line_range(const dbg_session *s, uint32_t pc, const char **file, int *line,
                      uint32_t *lo, uint32_t *hi)
{
    dw_line l;
    if (!s->dw || dw_line_at(s->dw, pc, &l) != 0 || l.line == 0 ||
        dw_line_range(s->dw, pc, lo, hi) != 0)
        return -1;
    *file = l.file;
    *line = l.line;
    return 0;
}

int dbg_line_code(const dbg_session *s, const char *file, int line, uint32_t *lo, uint32_t *hi)
{
    if (!s->dw || !s->mod)
        return -1;
    dw_pc_range r[4];
    if (dw_line_pcs(s->dw, file, line, r, 4) > 0) {
        *lo = r[0].lo;
        *hi = r[0].hi;
        return 1;
    }
    uint32_t pcs[4];
    int actual = 0;
    if (dw_line_breakpoints(s->dw, file, line, pcs, 4, &actual) > 0) {
        *lo = *hi = pcs[0];
        return 2;
    }
    for (int i = 0; i < s->mod->nfiles; i++)
        if (dw_file_matches(s->dw, s->mod->files[i].num, file))
            return 0;
    return -1;
}

int dbg_func_code_start(dbg_session *s, const char *name, uint32_t *lo)
{
    const dw_func *df = s->dw ? dw_func_by_name(s->dw, name) : NULL;
    if (!df) {
        const ptx_func *pf = dbg_find_func(s, name);
        df = pf && s->dw ? dw_func_of_ptx(s->dw, pf) : NULL;
        if (!df)
            return -1;
    }
    if (df->lo == df->hi)
        return -2;
    *lo = df->lo;
    return 0;
}

const char *dbg_source_locate(dbg_session *s, const char *file, char *buf, size_t n)
{
    const char *dir = dbg_module_dir(s);
    return dw_src_resolve(s->srcp, file, dir && dir[0] ? dir : NULL, buf, n);
}

/* ---- source search paths (gdb's directory and substitute-path) ------------------------------ */
int dbg_src_ndirs(const dbg_session *s) { return dw_src_ndirs(s->srcp); }
const char *dbg_src_dir(const dbg_session *s, int i) { return dw_src_dir(s->srcp, i); }
void dbg_src_clear_dirs(dbg_session *s) { dw_src_clear_dirs(s->srcp); }
int dbg_src_add_dir(dbg_session *s, const char *dir) { return dw_src_add_dir(s->srcp, dir); }
int dbg_src_add_subst(dbg_session *s, const char *from, const char *to)
{
    return dw_src_add_subst(s->srcp, from, to);
}
int dbg_src_del_subst(dbg_session *s, const char *from) { return dw_src_del_subst(s->srcp, from); }
int dbg_src_nsubst(const dbg_session *s) { return dw_src_nsubst(s->srcp); }
int dbg_src_subst(const dbg_session *s, int i, const char **from, const char **to)
{
    return dw_src_subst(s->srcp, i, from, to);
}
void dbg_src_flush(dbg_session *s) { dw_src_flush(s->srcp); }
