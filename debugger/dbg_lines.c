/* dbg_lines.c - line tables (pc <-> PTX line <-> .loc source line), source files, locations. */
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
    if (in->loc >= 0 && in->loc < s->mod->nlocs) {
        const ptx_loc *l = &s->mod->locs[in->loc];
        w->file = file_path(s->mod, l->file);
        w->line = l->line;
    }
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
    for (int i = 0; i < s->mod->nlocs; i++) {
        const char *p = file_path(s->mod, s->mod->locs[i].file);
        if (p)
            return p;
    }
    return NULL;
}

/* ---- source files ----------------------------------------------------------------------------- */
static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0)
            break;
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = 0;
    return buf;
}

static dbg_srcfile *source(dbg_session *s, const char *file)
{
    if (!file)
        return NULL;
    for (int i = 0; i < s->nsrcs; i++)
        if (strcmp(s->srcs[i].path, file) == 0)
            return s->srcs[i].nlines < 0 ? NULL : &s->srcs[i];
    dbg_srcfile *ns = realloc(s->srcs, (size_t)(s->nsrcs + 1) * sizeof *ns);
    if (!ns)
        return NULL;
    s->srcs = ns;
    dbg_srcfile *sf = &s->srcs[s->nsrcs++];
    memset(sf, 0, sizeof *sf);
    sf->path = strdup(file);
    sf->nlines = -1;
    /* beside the .ptx first (fixtures are compiled elsewhere), then as named */
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    char buf[4096];
    snprintf(buf, sizeof buf, "%s%s%s", s->dir, s->dir[0] ? "/" : "", base);
    char *text = read_all(buf);
    if (!text)
        text = read_all(file);
    if (!text || !sf->path)
        return free(text), NULL;
    sf->text = text;
    int cap = 64;
    sf->lines = malloc((size_t)cap * sizeof *sf->lines);
    sf->lens = malloc((size_t)cap * sizeof *sf->lens);
    sf->nlines = 0;
    for (char *p = text; *p && sf->lines && sf->lens;) {
        char *e = strchr(p, '\n');
        int len = e ? (int)(e - p) : (int)strlen(p);
        if (sf->nlines == cap) {
            cap *= 2;
            char **nl = realloc(sf->lines, (size_t)cap * sizeof *nl);
            int *nn = realloc(sf->lens, (size_t)cap * sizeof *nn);
            if (nl)
                sf->lines = nl;
            if (nn)
                sf->lens = nn;
            if (!nl || !nn)
                break;
        }
        sf->lines[sf->nlines] = p;
        sf->lens[sf->nlines++] = len > 0 && p[len - 1] == '\r' ? len - 1 : len;
        if (!e)
            break;
        p = e + 1;
    }
    return sf;
}

const char *dbg_source_line(dbg_session *s, const char *file, int line, int *len)
{
    dbg_srcfile *sf = source(s, file);
    if (!sf || line < 1 || line > sf->nlines)
        return NULL;
    *len = sf->lens[line - 1];
    return sf->lines[line - 1];
}

int dbg_source_nlines(dbg_session *s, const char *file)
{
    dbg_srcfile *sf = source(s, file);
    return sf ? sf->nlines : 0;
}

void dbg_src_free_all(dbg_session *s)
{
    for (int i = 0; i < s->nsrcs; i++) {
        free(s->srcs[i].path);
        free(s->srcs[i].lines);
        free(s->srcs[i].lens);
        free(s->srcs[i].text);
    }
    free(s->srcs);
    s->srcs = NULL;
    s->nsrcs = 0;
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

/* pc of the first instruction after a function's prologue: its second distinct source line
 * (gdb's line-table prologue skip), or its first instruction without .loc rows. */
static int64_t func_body_pc(dbg_session *s, const ptx_func *f)
{
    int64_t pc0 = exec_func_pc(s->m, f);
    if (pc0 < 0 || !dbg_has_source(s) || f->ninsns == 0)
        return pc0;
    dbg_where w0, w;
    dbg_pc_where(s, (uint32_t)pc0, &w0);
    for (int i = 1; i < f->ninsns; i++) {
        dbg_pc_where(s, (uint32_t)(pc0 + i), &w);
        if (w.line > 0 && w.line != w0.line)
            return pc0 + i;
        /* a branch or call before the body means there is no simple prologue */
        const char *op = f->insns[i].opcode;
        if (strcmp(op, "bra") == 0 || strcmp(op, "call") == 0 || strcmp(op, "ret") == 0 ||
            strcmp(op, "exit") == 0)
            break;
    }
    return pc0;
}

/* Every pc whose source line is `line` of `file`, the lowest of each function. */
static int line_pcs(dbg_session *s, const char *file, int line, uint32_t *pcs, int max)
{
    int n = 0;
    uint32_t total = exec_ninsns(s->m);
    const ptx_func *lastf = NULL;
    for (uint32_t pc = 0; pc < total && n < max; pc++) {
        dbg_where w;
        if (dbg_pc_where(s, pc, &w) != 0 || !w.file || w.line != line || !same_file(w.file, file))
            continue;
        if (w.func == lastf)
            continue;
        lastf = w.func;
        pcs[n++] = pc;
    }
    return n;
}

static int file_known(dbg_session *s, const char *file)
{
    for (int i = 0; i < s->mod->nfiles; i++)
        if (same_file(s->mod->files[i].path, file))
            return 1;
    return 0;
}

static int resolve_source_line(dbg_session *s, const char *file, int line, uint32_t *pcs,
                               int max)
{
    if (!file_known(s, file))
        return dbg_err(s, "No source file named %s.", file);
    /* no code on that line: the next line that has some (gdb) */
    int maxline = 0;
    for (int i = 0; i < s->mod->nlocs; i++)
        if (s->mod->locs[i].line > maxline)
            maxline = s->mod->locs[i].line;
    for (int l = line; l <= maxline; l++) {
        int n = line_pcs(s, file, l, pcs, max);
        if (n > 0)
            return n;
    }
    return dbg_err(s, "No line %d in file \"%s\".", line, file);
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
    *v = strtol(p, &end, 0);
    while (isspace((unsigned char)*end))
        end++;
    return *end ? -1 : 0;
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
        if (parse_int(spec + 4, &v) != 0 || v < 1)
            return dbg_err(s, "Invalid PTX line \"%s\".", spec + 4);
        return resolve_ptx_line(s, (int)v, pcs, max);
    }
    if (parse_int(spec, &v) == 0) {
        if (v < 1)
            return dbg_err(s, "Invalid line number %ld.", v);
        const char *file = dbg_has_source(s) ? dbg_default_file(s) : NULL;
        if (!file)
            return resolve_ptx_line(s, (int)v, pcs, max);
        return resolve_source_line(s, file, (int)v, pcs, max);
    }
    const char *colon = strrchr(spec, ':');
    if (colon && parse_int(colon + 1, &v) == 0) {
        char file[1024];
        snprintf(file, sizeof file, "%.*s", (int)(colon - spec), spec);
        /* FILE:LINE naming the .ptx itself means a PTX line */
        const char *mp = s->mod->path ? s->mod->path : "";
        if (same_file(mp, file) || (!dbg_has_source(s) && strstr(file, ".ptx")))
            return resolve_ptx_line(s, (int)v, pcs, max);
        return resolve_source_line(s, file, (int)v, pcs, max);
    }
    const ptx_func *f = dbg_find_func(s, spec);
    if (!f)
        return -1;
    int64_t pc = func_body_pc(s, f);
    if (pc < 0)
        return dbg_err(s, "Function \"%s\" has no body.", spec);
    pcs[0] = (uint32_t)pc;
    return 1;
}
