/* dw_line.c - line tables from .file/.loc: pc <-> file:line:col, step ranges, inline chains. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dw_int.h"

const char *dw_file_path(const dw_info *d, int num)
{
    if (!d)
        return NULL;
    for (int i = 0; i < d->m->nfiles; i++)
        if (d->m->files[i].num == num)
            return d->m->files[i].path;
    return NULL;
}

int dw_build_lines(dw_info *d)
{
    const ptx_module *m = d->m;
    d->rows = dw_alloc(d, sizeof(dw_row) * ((size_t)d->npcs + 1));
    if (!d->rows)
        return -1;
    for (int fi = 0; fi < m->nfuncs; fi++) {
        uint32_t first = d->func_first[fi];
        if (first == UINT32_MAX)
            continue;
        const ptx_func *f = m->funcs[fi];
        int prev_loc = -2;
        for (int j = 0; j < f->ninsns; j++) {
            dw_row *r = &d->rows[first + (uint32_t)j];
            int L = f->insns[j].loc;
            r->func = fi;
            r->loc = -1;
            /* a .loc belongs to this function only if it is inside its braces: helpers without
               debug info must not inherit the previous function's last position */
            if (L >= 0 && L < m->nlocs) {
                int pl = m->locs[L].ptx_line;
                if (pl && f->line && f->end_line && (pl < f->line || pl > f->end_line))
                    L = -1;
            } else {
                L = -1;
            }
            if (L >= 0) {
                r->loc = L;
                r->file = m->locs[L].file;
                r->line = m->locs[L].line;
                r->col = m->locs[L].col;
            }
            r->is_stmt = L >= 0 && r->line > 0 && L != prev_loc;
            prev_loc = L;
        }
    }
    /* parent of each inlined .loc: the .loc just before it in the chain, or, when the chain was
       not repeated (nvcc writes only the innermost .loc if the outer ones are unchanged), the
       nearest earlier .loc of an inlined function at the call site */
    d->loc_parent = dw_alloc(d, sizeof(int) * ((size_t)m->nlocs + 1));
    if (!d->loc_parent)
        return -1;
    for (int i = 0; i < m->nlocs; i++) {
        const ptx_loc *l = &m->locs[i];
        d->loc_parent[i] = -1;
        if (!l->function_name)
            continue;
        if (l->prev >= 0 && l->prev < i && m->locs[l->prev].function_name) {
            d->loc_parent[i] = l->prev;
            continue;
        }
        if (!l->inl_file)
            continue;
        int best = -1;
        for (int k = 0; k < m->nlocs; k++) {
            const ptx_loc *c = &m->locs[k];
            if (k == i || !c->function_name || c->file != l->inl_file ||
                c->line != l->inl_line || c->col != l->inl_col)
                continue;
            if (best < 0 || (k < i && (best > i || k > best)))
                best = k;
        }
        /* no cycles: a parent must lead to an outer call site */
        if (best >= 0 && !(m->locs[best].inl_file == l->inl_file &&
                           m->locs[best].inl_line == l->inl_line &&
                           m->locs[best].inl_col == l->inl_col))
            d->loc_parent[i] = best;
    }
    /* display names of inlined functions */
    d->loc_names = dw_alloc(d, sizeof(char *) * ((size_t)m->nlocs + 1));
    if (!d->loc_names)
        return -1;
    for (int i = 0; i < m->nlocs; i++) {
        const char *mg = m->locs[i].function_name ? dw_debug_str(d, m->locs[i].function_name)
                                                    : NULL;
        if (!mg)
            continue;
        char buf[512];
        dw_display_name(d, mg, buf, sizeof buf);
        d->loc_names[i] = dw_strdup(d, buf);
    }
    return 0;
}

int dw_line_at(const dw_info *d, uint32_t pc, dw_line *out)
{
    if (!d || pc >= d->npcs || !out)
        return -1;
    const dw_row *r = &d->rows[pc];
    out->file_num = r->loc >= 0 ? r->file : 0;
    out->file = r->loc >= 0 ? dw_file_path(d, r->file) : NULL;
    out->line = r->loc >= 0 ? r->line : 0;
    out->col = r->loc >= 0 ? r->col : 0;
    out->is_stmt = r->is_stmt;
    return 0;
}

int dw_is_stmt(const dw_info *d, uint32_t pc)
{
    return d && pc < d->npcs && d->rows[pc].is_stmt;
}

static void func_bounds(const dw_info *d, uint32_t pc, uint32_t *lo, uint32_t *hi)
{
    int fi = d->rows[pc].func;
    *lo = d->func_first[fi];
    *hi = *lo + (uint32_t)d->m->funcs[fi]->ninsns;
}

static int same_line(const dw_row *a, const dw_row *b)
{
    return a->loc >= 0 && b->loc >= 0 && a->file == b->file && a->line == b->line;
}

int dw_line_range(const dw_info *d, uint32_t pc, uint32_t *lo, uint32_t *hi)
{
    if (!d || pc >= d->npcs || d->rows[pc].loc < 0 || d->rows[pc].line == 0)
        return -1;
    uint32_t flo, fhi;
    func_bounds(d, pc, &flo, &fhi);
    const dw_row *r = &d->rows[pc];
    uint32_t l = pc, h = pc + 1;
    for (uint32_t j = pc + 1; j < fhi; j++) {
        const dw_row *x = &d->rows[j];
        if (same_line(x, r))
            h = j + 1;
        else if (x->loc >= 0 && x->line != 0)
            break;
    }
    for (uint32_t j = pc; j-- > flo;) {
        const dw_row *x = &d->rows[j];
        if (same_line(x, r))
            l = j;
        else if (x->loc >= 0 && x->line != 0)
            break;
    }
    if (lo)
        *lo = l;
    if (hi)
        *hi = h;
    return 0;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

int dw_file_matches(const dw_info *d, int num, const char *file)
{
    const char *p = dw_file_path(d, num);
    if (!p || !file || !*file)
        return 0;
    if (strcmp(p, file) == 0)
        return 1;
    if (!strchr(file, '/'))
        return strcmp(base_name(p), file) == 0;
    size_t lp = strlen(p), lf = strlen(file);
    return lf < lp && p[lp - lf - 1] == '/' && strcmp(p + lp - lf, file) == 0;
}

int dw_line_pcs(const dw_info *d, const char *file, int line, dw_pc_range *out, int max)
{
    if (!d)
        return 0;
    int n = 0;
    for (uint32_t pc = 0; pc < d->npcs; pc++) {
        const dw_row *r = &d->rows[pc];
        if (r->loc < 0 || r->line != line || !dw_file_matches(d, r->file, file))
            continue;
        uint32_t lo = pc;
        while (pc + 1 < d->npcs && d->rows[pc + 1].func == r->func &&
               same_line(&d->rows[pc + 1], r))
            pc++;
        if (n < max && out) {
            out[n].lo = lo;
            out[n].hi = pc + 1;
        }
        n++;
    }
    return n;
}

/* Identity of the inline instance a row belongs to (0 when not inlined). */
static uint64_t inline_key(const dw_info *d, const dw_row *r)
{
    if (r->loc < 0)
        return 0;
    const ptx_loc *l = &d->m->locs[r->loc];
    if (!l->function_name)
        return 0;
    return ((uint64_t)(uint32_t)l->inl_file << 48) ^ ((uint64_t)(uint32_t)l->inl_line << 20) ^
           (uint64_t)(uint32_t)l->inl_col ^ ((uint64_t)(uintptr_t)l->function_name << 8);
}

int dw_line_breakpoints(const dw_info *d, const char *file, int line, uint32_t *pcs, int max,
                        int *actual_line)
{
    if (!d || line <= 0)
        return 0;
    int best = 0;
    for (uint32_t pc = 0; pc < d->npcs; pc++) {
        const dw_row *r = &d->rows[pc];
        if (!r->is_stmt || r->line < line || !dw_file_matches(d, r->file, file))
            continue;
        if (!best || r->line < best)
            best = r->line;
    }
    if (actual_line)
        *actual_line = best;
    if (!best)
        return 0;
    int n = 0;
    /* per function and inline instance, the lowest pc (pcs are visited in increasing order) */
    struct { int func; uint64_t key; } seen[256];
    int nseen = 0;
    for (uint32_t pc = 0; pc < d->npcs; pc++) {
        const dw_row *r = &d->rows[pc];
        if (!r->is_stmt || r->line != best || !dw_file_matches(d, r->file, file))
            continue;
        uint64_t key = inline_key(d, r);
        int dup = 0;
        for (int i = 0; i < nseen; i++)
            if (seen[i].func == r->func && seen[i].key == key)
                dup = 1;
        if (dup)
            continue;
        if (nseen < 256) {
            seen[nseen].func = r->func;
            seen[nseen].key = key;
            nseen++;
        }
        if (n < max && pcs)
            pcs[n] = pc;
        n++;
    }
    return n;
}

int64_t dw_func_body_pc(const dw_info *d, const ptx_func *f)
{
    int64_t first = dw_func_first_pc(d, f);
    if (first < 0)
        return -1;
    uint32_t lo = (uint32_t)first, hi = lo + (uint32_t)f->ninsns;
    /* gdb: the second row of the line table (a one-line function has its parameter loads
       under one row of its line and its body under a second row of the same line) */
    int open = 0;
    for (uint32_t pc = lo; pc < hi; pc++) {
        const dw_row *r = &d->rows[pc];
        if (r->loc < 0 || r->line == 0)
            continue;
        if (!open) {
            open = 1;
            continue;
        }
        if (r->is_stmt)
            return pc;
    }
    return first;
}

/* ---- inline chains --------------------------------------------------------------------- */
const char *dw_debug_str(const dw_info *d, const char *label)
{
    const dw_symbol *s = dw_symbol_find(d, label);
    if (!s || s->kind != DW_SK_SECTLABEL || s->sect < 0)
        return NULL;
    const dw_sect *sec = &d->sects[s->sect];
    if (s->addr >= sec->len || !memchr(sec->data + s->addr, 0, sec->len - s->addr))
        return NULL;
    return (const char *)sec->data + s->addr;
}

int dw_inline_chain(const dw_info *d, uint32_t pc, dw_inline_frame *out, int max)
{
    if (!d || pc >= d->npcs)
        return 0;
    int L = d->rows[pc].loc;
    int n = 0;
    while (L >= 0 && L < d->m->nlocs && n < 64) {
        const ptx_loc *l = &d->m->locs[L];
        if (!l->function_name)
            break;
        if (n < max && out) {
            dw_inline_frame *fr = &out[n];
            const char *mangled = dw_debug_str(d, l->function_name);
            fr->linkage_name = mangled;
            fr->name = d->loc_names && d->loc_names[L] ? d->loc_names[L] : l->function_name;
            fr->file = dw_file_path(d, l->file);
            fr->line = l->line;
            fr->col = l->col;
            fr->call_file = dw_file_path(d, l->inl_file);
            fr->call_line = l->inl_line;
            fr->call_col = l->inl_col;
        }
        n++;
        L = d->loc_parent ? d->loc_parent[L] : -1;
    }
    if (n)
        return n;
    /* -G: DWARF inlined subroutines */
    int sc[64];
    int ns = dw_inline_scopes(d, pc, sc, 64);
    if (ns > 64)
        ns = 64;
    for (int i = 0; i < ns; i++) {
        const dw_scope_int *s = &d->scopes[sc[i]];
        if (i < max && out) {
            dw_inline_frame *fr = &out[i];
            fr->name = s->name;
            fr->linkage_name = s->linkage;
            if (i == 0) {
                const dw_row *r = &d->rows[pc];
                fr->file = r->loc >= 0 ? dw_file_path(d, r->file) : NULL;
                fr->line = r->loc >= 0 ? r->line : 0;
                fr->col = r->loc >= 0 ? r->col : 0;
            } else {
                const dw_scope_int *in = &d->scopes[sc[i - 1]];
                fr->file = in->call_file;
                fr->line = in->call_line;
                fr->col = in->call_col;
            }
            fr->call_file = s->call_file;
            fr->call_line = s->call_line;
            fr->call_col = s->call_col;
        }
    }
    return ns;
}

/* ---- demangling (display base names only) ----------------------------------------------- */
typedef struct { const char *p; char *out; size_t n, len; int bad; } dm;

static void dm_put(dm *s, const char *t, size_t k)
{
    if (s->len && k)
        for (const char *c = "::"; *c; c++)
            if (s->len + 1 < s->n)
                s->out[s->len++] = *c;
    for (size_t i = 0; i < k && s->len + 1 < s->n; i++)
        s->out[s->len++] = t[i];
    if (s->n)
        s->out[s->len < s->n ? s->len : s->n - 1] = 0;
}

static int dm_srcname(dm *s, const char **name, size_t *len)
{
    size_t k = 0;
    if (*s->p < '0' || *s->p > '9')
        return -1;
    while (*s->p >= '0' && *s->p <= '9')
        k = k * 10 + (size_t)(*s->p++ - '0');
    if (k > strlen(s->p))
        return -1;
    *name = s->p;
    *len = k;
    s->p += k;
    return 0;
}

static void dm_skip_template(dm *s)
{
    int depth = 0;
    while (*s->p) {
        char c = *s->p;
        if (c >= '0' && c <= '9') {
            const char *nm;
            size_t k;
            if (dm_srcname(s, &nm, &k) < 0) {
                s->bad = 1;
                return;
            }
            continue;
        }
        s->p++;
        if (c == 'I' || c == 'N' || c == 'X' || c == 'L')
            depth++;
        else if (c == 'E' && --depth == 0)
            return;
    }
    s->bad = 1;
}

static int hidden_component(const char *nm, size_t k)
{
    return (k >= 10 && strncmp(nm, "_INTERNAL_", 10) == 0) ||
           (k >= 11 && strncmp(nm, "_GLOBAL__N_", 11) == 0);
}

static void dm_component(dm *s, const char **last, size_t *lastlen)
{
    const char *nm;
    size_t k;
    if (dm_srcname(s, &nm, &k) < 0) {
        s->bad = 1;
        return;
    }
    if (!hidden_component(nm, k))
        dm_put(s, nm, k);
    *last = nm;
    *lastlen = k;
    if (*s->p == 'I')
        dm_skip_template(s);
}

int dw_demangle_base(const char *mg, char *buf, size_t n)
{
    if (!buf || n == 0)
        return -1;
    buf[0] = 0;
    if (!mg)
        return -1;
    dm s = {mg, buf, n, 0, 0};
    const char *last = NULL;
    size_t lastlen = 0;
    if (strncmp(mg, "_Z", 2) != 0)
        goto copy;
    s.p = mg + 2;
    if (*s.p == 'Z') {
        /* local entity: _ZZ <encoding> E <name>: show outer::name */
        char outer[256];
        const char *e = strrchr(mg, 'E');
        dm o = {mg + 3, outer, sizeof outer, 0, 0};
        const char *l2 = NULL;
        size_t ll2 = 0;
        if (*o.p == 'N') {
            o.p++;
            while (*o.p && *o.p != 'E' && !o.bad)
                dm_component(&o, &l2, &ll2);
        } else {
            dm_component(&o, &l2, &ll2);
        }
        if (o.bad || !e)
            goto copy;
        s.p = e + 1;
        dm_put(&s, outer, strlen(outer));
        dm_component(&s, &last, &lastlen);
        if (s.bad)
            goto copy;
        return (int)s.len;
    }
    if (*s.p == 'N') {
        s.p++;
        while (*s.p == 'r' || *s.p == 'V' || *s.p == 'K' || *s.p == 'R' || *s.p == 'O')
            s.p++;
        while (*s.p && *s.p != 'E' && !s.bad) {
            if (*s.p >= '0' && *s.p <= '9') {
                dm_component(&s, &last, &lastlen);
            } else if (s.p[0] == 'S' && s.p[1] == 't') {
                dm_put(&s, "std", 3);
                s.p += 2;
            } else if ((s.p[0] == 'C' || s.p[0] == 'D') && s.p[1] >= '0' && s.p[1] <= '9' &&
                       last) {
                char t[260];
                int k = snprintf(t, sizeof t, "%s%.*s", s.p[0] == 'D' ? "~" : "",
                                 (int)(lastlen < 250 ? lastlen : 250), last);
                dm_put(&s, t, (size_t)k);
                s.p += 2;
            } else if (*s.p == 'L') {
                s.p++;
            } else {
                s.bad = 1;
            }
        }
        if (s.bad || *s.p != 'E')
            goto copy;
        return (int)s.len;
    }
    if (s.p[0] == 'S' && s.p[1] == 't') {
        dm_put(&s, "std", 3);
        s.p += 2;
    } else if (*s.p == 'L') {
        s.p++;
    }
    dm_component(&s, &last, &lastlen);
    if (s.bad || !s.len)
        goto copy;
    return (int)s.len;
copy:
    snprintf(buf, n, "%s", mg);
    return (int)strlen(buf);
}
