/* dbg_lines.c - line tables (pc <-> PTX line <-> .loc source line), source files, locations. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "dbg_int.h"

static const char *file_path(const ptx_module *mod, int num)
{
    for (int i = 0; i < mod->nfiles; i++)
        if (mod->files[i].num == num)
            return mod->files[i].path;
    return NULL;
}

int dbg_pc_where(const dbg_session *s, uint32_t pc, dbg_where *w)
{
    memset(w, 0, sizeof *w);
    const ptx_func *f;
    const ptx_insn *in;
    if (!s->m || exec_pc_insn(s->m, pc, &f, &in) != 0)
        return -1;
    w->func = f;
    w->ptx_line = in->line;
    dw_line l;
    if (s->dw && dw_line_at(s->dw, pc, &l) == 0 && l.line > 0) {
        w->file = l.file;
        w->line = l.line;
    }
    return 0;
}

int dbg_pc_func_name(const dbg_session *s, uint32_t pc, int full, char *out, size_t n)
{
    dw_inline_frame ch[16];
    int ni = s->dw ? dw_inline_chain(s->dw, pc, ch, 16) : 0;
    if (ni > 0) {
        const char *mg = ch[0].linkage_name;
        if (!(full && mg && s->demangle && s->demangle(mg, out, n, 0) == 0))
            snprintf(out, n, "%s", ch[0].name ? ch[0].name : mg ? mg : "??");
        return 0;
    }
    dbg_where w;
    if (dbg_pc_where(s, pc, &w) != 0 || !w.func) {
        snprintf(out, n, "??");
        return -1;
    }
    dbg_func_name(s, w.func, full, out, n);
    return 0;
}

int dbg_has_source(const dbg_session *s)
{
    return s->mod && s->mod->nlocs > 0;
}

const char *dbg_default_file(const dbg_session *s)
{
    if (!s->mod)
        return NULL;
    uint32_t pc;
    dbg_where w;
    if (dbg_focus_pc(s, &pc) == 0 && dbg_pc_where(s, pc, &w) == 0 && w.file)
        return w.file;
    /* gdb's default is main's file; a module's counterpart is its first kernel's (the .file
       table of a CUDA build starts with headers: device_atomic_functions.hpp...) */
    for (int k = 0; k < s->mod->nfuncs; k++) {
        const ptx_func *f = s->mod->funcs[k];
        if (!f->is_entry)
            continue;
        for (int j = 0; j < f->ninsns; j++) {
            int l = f->insns[j].loc;
            if (l < 0 || l >= s->mod->nlocs)
                continue;
            const ptx_loc *lc = &s->mod->locs[l];
            const char *p = file_path(s->mod, lc->inl_file ? lc->inl_file : lc->file);
            if (p)
                return p;
        }
    }
    for (int i = 0; i < s->mod->nlocs; i++) {
        const char *p = file_path(s->mod, s->mod->locs[i].file);
        if (p)
            return p;
    }
    return NULL;
}

dw_info *dbg_dwarf(const dbg_session *s) { return s->dw; }
const char *dbg_load_warnings(const dbg_session *s) { return s->dwarn; }
dw_srcpath *dbg_srcpath(dbg_session *s) { return s->srcp; }

/* ---- source files ----------------------------------------------------------------------------- */
static const char *ptx_dir(const dbg_session *s)
{
    return s->dir && s->dir[0] ? s->dir : NULL;
}

const char *dbg_source_line(dbg_session *s, const char *file, int line, int *len)
{
    const char *emb = dbg_core_source_line(s, file, line, len);
    if (emb)
        return emb;
    if (!file || !s->srcp)
        return NULL;
    return dw_src_line(s->srcp, file, ptx_dir(s), line, len);
}

int dbg_source_nlines(dbg_session *s, const char *file)
{
    int emb = dbg_core_source_nlines(s, file);
    if (emb >= 0)
        return emb;
    if (!file || !s->srcp)
        return 0;
    int n = dw_src_nlines(s->srcp, file, ptx_dir(s));
    return n < 0 ? 0 : n;
}

int dbg_source_missing_once(dbg_session *s, const char *file)
{
    for (int i = 0; i < s->nmissing; i++)
        if (!strcmp(s->missing[i], file))
            return 0;
    char **nm = realloc(s->missing, (size_t)(s->nmissing + 1) * sizeof *nm);
    if (!nm)
        return 0;
    s->missing = nm;
    if (!(nm[s->nmissing] = strdup(file)))
        return 0;
    s->nmissing++;
    return 1;
}

void dbg_src_free_all(dbg_session *s)
{
    if (s->srcp)
        dw_src_flush(s->srcp);
    for (int i = 0; i < s->nmissing; i++)
        free(s->missing[i]);
    free(s->missing);
    s->missing = NULL;
    s->nmissing = 0;
}

/* ---- locations -------------------------------------------------------------------------------- */
static int same_file(const char *module_path, const char *user)
{
    if (strcmp(module_path, user) == 0)
        return 1;
    const char *b1 = strrchr(module_path, '/');
    b1 = b1 ? b1 + 1 : module_path;
    size_t lu = strlen(user), lm = strlen(module_path);
    /* the user may give a trailing part of the path: "k.cu" or "dir/k.cu" */
    return (lu < lm && module_path[lm - lu - 1] == '/' && strcmp(module_path + lm - lu, user) == 0) ||
           strcmp(b1, user) == 0;
}

static int file_known(dbg_session *s, const char *file)
{
    for (int i = 0; i < s->mod->nfiles; i++)
        if (same_file(s->mod->files[i].path, file) ||
            (s->dw && dw_file_matches(s->dw, s->mod->files[i].num, file)))
            return 1;
    return 0;
}

/* gdb's choice for FILE:LINE: the first instruction of that line (or of the next line with code)
 * in every function and inlined instance. */
static int resolve_source_line(dbg_session *s, const char *file, int line, uint32_t *pcs,
                               int max)
{
    if (!file_known(s, file))
        return dbg_err(s, "No source file named %s.", file);
    int actual = 0;
    int n = s->dw ? dw_line_breakpoints(s->dw, file, line, pcs, max, &actual) : 0;
    if (n <= 0)
        return dbg_err(s, "No line %d in file \"%s\".", line, file);
    return n < max ? n : max;
}

static int resolve_ptx_line(dbg_session *s, int line, uint32_t *pcs, int max)
{
    uint32_t total = exec_ninsns(s->m);
    uint32_t best = UINT32_MAX;
    int bestline = 0;
    for (uint32_t pc = 0; pc < total; pc++) {
        dbg_where w;
        if (dbg_pc_where(s, pc, &w) == 0 && w.ptx_line >= line &&
            (best == UINT32_MAX || w.ptx_line < bestline)) {
            best = pc;
            bestline = w.ptx_line;
        }
    }
    if (best == UINT32_MAX || max < 1)
        return dbg_err(s, "No instruction at or after PTX line %d.", line);
    pcs[0] = best;
    return 1;
}

static int parse_int(const char *p, long *v)
{
    char *end;
    if (!isdigit((unsigned char)*p))
        return -1;
    errno = 0;
    *v = strtol(p, &end, 0);
    while (isspace((unsigned char)*end))
        end++;
    if (*end)
        return -1;
    return errno == ERANGE || *v > INT_MAX ? 1 : 0; /* 1: a number, but no line can have it */
}

/* Whether name is spec with template arguments: "block_reduce<double, 64>" for "block_reduce". */
static int same_template(const char *name, const char *spec)
{
    size_t n = strlen(spec);
    if (strncmp(name, spec, n) != 0 || name[n] != '<')
        return 0;
    int depth = 0;
    const char *p = name + n;
    for (; *p; p++) {
        depth += *p == '<' ? 1 : *p == '>' ? -1 : 0;
        if (depth == 0)
            break;
    }
    return *p == '>' && p[1] == 0;
}

/* Whether an inlined frame is of the function spec names ("row_sum", "row_sum<4>", or the
 * mangled name). */
static int inline_named(const dw_inline_frame *f, const char *spec)
{
    return (f->name && (!strcmp(f->name, spec) || same_template(f->name, spec))) ||
           (f->linkage_name && !strcmp(f->linkage_name, spec));
}

/* A function that exists only inlined (a __forceinline__ device function, or any at -O3):
 * a location at the start of each inlined instance, as gdb's breakpoints on inline
 * functions. An instance starts at a pc whose chain has it and whose predecessor's chain has
 * no instance of it called from the same place. */
static int resolve_inlined(dbg_session *s, const char *spec, uint32_t *pcs, int max)
{
    if (!s->dw)
        return 0;
    int n = 0;
    uint32_t npc = exec_ninsns(s->m);
    dw_inline_frame prev[16];
    int nprev = 0;
    for (uint32_t pc = 0; pc < npc && n < max; pc++) {
        dw_inline_frame ch[16];
        int nc = dw_inline_chain(s->dw, pc, ch, 16);
        if (nc > 16)
            nc = 16;
        for (int i = 0; i < nc; i++) {
            if (!inline_named(&ch[i], spec))
                continue;
            int cont = 0;
            for (int k = 0; k < nprev && !cont; k++)
                cont = inline_named(&prev[k], spec) && prev[k].call_line == ch[i].call_line &&
                       ((!prev[k].call_file && !ch[i].call_file) ||
                        (prev[k].call_file && ch[i].call_file &&
                         !strcmp(prev[k].call_file, ch[i].call_file)));
            if (!cont && n < max)
                pcs[n++] = pc;
            break;
        }
        memcpy(prev, ch, (size_t)nc * sizeof ch[0]);
        nprev = nc;
    }
    return n;
}

int dbg_resolve_location(dbg_session *s, const char *spec, uint32_t *pcs, int max)
{
    if (!s->m)
        return dbg_err(s, "No symbol table is loaded.  Use the \"file\" command.");
    while (isspace((unsigned char)*spec))
        spec++;
    long v;
    if (*spec == '*') {
        char *end;
        unsigned long long a = strtoull(spec + 1, &end, 0);
        if (end == spec + 1 || a >= exec_ninsns(s->m))
            return dbg_err(s, "Invalid instruction address \"%s\".", spec + 1);
        pcs[0] = (uint32_t)a;
        return 1;
    }
    if (strncmp(spec, "ptx:", 4) == 0) {
        int rc = parse_int(spec + 4, &v);
        if (rc == 1)
            return dbg_err(s, "Line number %s out of range.", spec + 4);
        if (rc != 0 || v < 1)
            return dbg_err(s, "Invalid PTX line \"%s\".", spec + 4);
        return resolve_ptx_line(s, (int)v, pcs, max);
    }
    const char *colon = strrchr(spec, ':');
    long cv = 0;
    int whole = parse_int(spec, &v), after = colon ? parse_int(colon + 1, &cv) : -1;
    if (whole == 1 || after == 1)
        return dbg_err(s, "Line number %s out of range.", whole == 1 ? spec : colon + 1);
    if (whole == 0) {
        if (v < 1)
            return dbg_err(s, "Invalid line number %ld.", v);
        const char *file = dbg_has_source(s) ? dbg_default_file(s) : NULL;
        if (!file)
            return resolve_ptx_line(s, (int)v, pcs, max);
        return resolve_source_line(s, file, (int)v, pcs, max);
    }
    if (after == 0) {
        char file[1024];
        snprintf(file, sizeof file, "%.*s", (int)(colon - spec), spec);
        /* FILE:LINE naming the .ptx itself means a PTX line */
        const char *mp = s->mod->path ? s->mod->path : "";
        if (same_file(mp, file) || (!dbg_has_source(s) && strstr(file, ".ptx")))
            return resolve_ptx_line(s, (int)cv, pcs, max);
        return resolve_source_line(s, file, (int)cv, pcs, max);
    }
    /* a name several functions with bodies share (template instances, overloads): a location
     * in each, as gdb's breakpoints with several locations */
    int nsame = 0;
    for (int i = 0; i < s->mod->nfuncs && nsame < max; i++) {
        const ptx_func *g = s->mod->funcs[i];
        char base[512];
        if (g->is_prototype || !g->has_body || !strcmp(g->sym->name, spec))
            continue;
        dbg_func_name(s, g, 0, base, sizeof base);
        if (strcmp(base, spec) != 0 && !same_template(base, spec))
            continue;
        int64_t gpc = s->dw ? dw_func_body_pc(s->dw, g) : exec_func_pc(s->m, g);
        if (gpc >= 0)
            pcs[nsame++] = (uint32_t)gpc;
    }
    if (nsame > 1)
        return nsame;
    const ptx_func *f = dbg_find_func(s, spec);
    if (!f && nsame != 1) {
        int ni = resolve_inlined(s, spec, pcs, max);
        if (ni > 0)
            return ni;
    }
    if (!f)
        return nsame == 1 ? 1 : -1;   /* the one instance of a template named bare */
    int64_t pc = s->dw ? dw_func_body_pc(s->dw, f) : exec_func_pc(s->m, f);
    if (pc < 0)
        return dbg_err(s, "Function \"%s\" has no body.", spec);
    pcs[0] = (uint32_t)pc;
    return 1;
}
