/* dw_hostdw.c - a CUDA program's host DWARF read with libdwarf: compilation units and their
 * pc ranges, line tables, and the inlined-call chains at an address. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <libdwarf.h>
#include "dw_int.h"

/* libdwarf API variants: see dw_libdwarf.c. */
#if defined(DW_LIBDWARF_VERSION_MAJOR)
#define DH_NEWAPI 1
#if DW_LIBDWARF_VERSION_MAJOR > 0 || DW_LIBDWARF_VERSION_MINOR >= 9
#define DH_HAVE_CU_E 1
#endif
#endif

#define DH_MAX_CUS  100000

typedef struct { uint64_t addr; int line; int file; int end; } dh_row;
typedef struct { uint64_t lo, hi; } dh_range;

struct dw_hcu {
    Dwarf_Off off;            /* the CU DIE */
    dh_range *rg; int nrg;    /* pcs it covers */
    int loaded;               /* line table read */
    dh_row *rows; int nrows;  /* sorted by address, sequences kept apart by end rows */
    char **files; int nfiles; /* line-table file names (index = a row's file) */
    char **cfiles; long ncfiles; int cfile_base; /* dwarf_srcfiles names for DW_AT_call_file */
};
typedef struct dw_hcu dh_cu;
#define DBG(h) ((Dwarf_Debug)(h)->dbg)

/* ---- DWARF -------------------------------------------------------------------------------- */
static char *keep(dw_host *h, const char *s)
{
    if (!s)
        return NULL;
    for (int i = h->nstrs - 1; i >= 0; i--)   /* names repeat: keep one copy */
        if (!strcmp(h->strs[i], s))
            return h->strs[i];
    if (h->nstrs == h->capstrs) {
        int nc = h->capstrs ? h->capstrs * 2 : 64;
        char **n = realloc(h->strs, (size_t)nc * sizeof *n);
        if (!n)
            return NULL;
        h->strs = n;
        h->capstrs = nc;
    }
    char *d = strdup(s);
    if (d)
        h->strs[h->nstrs++] = d;
    return d;
}

static int sibling(dw_host *h, Dwarf_Die die, Dwarf_Die *out, Dwarf_Error *e)
{
#ifdef DH_HAVE_CU_E
    (void)h;
    return dwarf_siblingof_c(die, out, e);
#else
    return dwarf_siblingof_b(DBG(h), die, 1, out, e);
#endif
}

static int add_range(dh_range **rg, int *n, uint64_t lo, uint64_t hi)
{
    if (hi <= lo || *n >= 4096)
        return 0;
    dh_range *x = realloc(*rg, (size_t)(*n + 1) * sizeof *x);
    if (!x)
        return -1;
    x[(*n)++] = (dh_range){lo, hi};
    *rg = x;
    return 0;
}

/* The pc ranges of a DIE: low/high pc, or DW_AT_ranges (DWARF 5 rnglists, DWARF 4 ranges).
 * cu_base: the CU's low pc (the base of DWARF 4 range lists). */
static int die_ranges(dw_host *h, Dwarf_Die die, uint64_t cu_base, dh_range **rg, int *n)
{
    Dwarf_Error e = NULL;
    Dwarf_Addr lo = 0, hi = 0;
    Dwarf_Half form = 0;
    enum Dwarf_Form_Class cls;
    *rg = NULL;
    *n = 0;
    if (dwarf_lowpc(die, &lo, &e) == DW_DLV_OK &&
        dwarf_highpc_b(die, &hi, &form, &cls, &e) == DW_DLV_OK) {
        if (cls != DW_FORM_CLASS_ADDRESS)
            hi += lo;
        return add_range(rg, n, lo, hi);
    }
    Dwarf_Attribute at = NULL;
    if (dwarf_attr(die, DW_AT_ranges, &at, &e) != DW_DLV_OK)
        return 0;
    Dwarf_Half f = 0;
    dwarf_whatform(at, &f, &e);
    if (f == DW_FORM_rnglistx || f == DW_FORM_sec_offset) {   /* DWARF 5 first */
        Dwarf_Unsigned v = 0;
        Dwarf_Off off = 0;
        int ok = f == DW_FORM_rnglistx ? dwarf_formudata(at, &v, &e)
                                       : dwarf_global_formref(at, &off, &e);
        if (f != DW_FORM_rnglistx)
            v = off;
        Dwarf_Rnglists_Head head = NULL;
        Dwarf_Unsigned cnt = 0, goff = 0;
        if (ok == DW_DLV_OK &&
            dwarf_rnglists_get_rle_head(at, f, v, &head, &cnt, &goff, &e) == DW_DLV_OK) {
            for (Dwarf_Unsigned i = 0; i < cnt && i < 4096; i++) {
                unsigned len = 0, code = 0;
                Dwarf_Unsigned r1, r2, c1 = 0, c2 = 0;
                Dwarf_Bool noaddr = 0;
                if (dwarf_get_rnglists_entry_fields_a(head, i, &len, &code, &r1, &r2, &noaddr,
                                                      &c1, &c2, &e) != DW_DLV_OK)
                    break;
                if (!noaddr && (code == DW_RLE_offset_pair || code == DW_RLE_startx_endx ||
                                code == DW_RLE_startx_length || code == DW_RLE_start_end ||
                                code == DW_RLE_start_length))
                    add_range(rg, n, c1, c2);
            }
            dwarf_dealloc_rnglists_head(head);
            dwarf_dealloc_attribute(at);
            return 0;
        }
    }
    /* DWARF 4: .debug_ranges */
    Dwarf_Off off = 0;
    if (dwarf_global_formref(at, &off, &e) == DW_DLV_OK) {
        Dwarf_Ranges *r = NULL;
        Dwarf_Signed cnt = 0;
        Dwarf_Unsigned bytes = 0;
        Dwarf_Off real = 0;
        if (dwarf_get_ranges_b(DBG(h), off, die, &real, &r, &cnt, &bytes, &e) == DW_DLV_OK) {
            uint64_t base = cu_base == UINT64_MAX - 1 ? 0 : cu_base;
            for (Dwarf_Signed i = 0; i < cnt; i++) {
                if (r[i].dwr_type == DW_RANGES_ADDRESS_SELECTION)
                    base = r[i].dwr_addr2;
                else if (r[i].dwr_type == DW_RANGES_ENTRY)
                    add_range(rg, n, base + r[i].dwr_addr1, base + r[i].dwr_addr2);
            }
#ifdef DH_NEWAPI
            dwarf_dealloc_ranges(DBG(h), r, cnt);
#else
            dwarf_ranges_dealloc(DBG(h), r, cnt);
#endif
        }
    }
    dwarf_dealloc_attribute(at);
    return 0;
}

static int in_ranges(const dh_range *rg, int n, uint64_t a)
{
    for (int i = 0; i < n; i++)
        if (a >= rg[i].lo && a < rg[i].hi)
            return 1;
    return 0;
}

static void read_cus(dw_host *h)
{
    for (int k = 0; k < DH_MAX_CUS; k++) {
        Dwarf_Error e = NULL;
        Dwarf_Unsigned hlen = 0, typeoff = 0, next = 0;
        Dwarf_Half ver = 0, asz = 0, lsz = 0, esz = 0, cutype = 0;
        Dwarf_Off abbr = 0;
        Dwarf_Sig8 sig;
        Dwarf_Die cu = NULL;
        memset(&sig, 0, sizeof sig);
#ifdef DH_HAVE_CU_E
        int r = dwarf_next_cu_header_e(DBG(h), 1, &cu, &hlen, &ver, &abbr, &asz, &lsz, &esz,
                                       &sig, &typeoff, &next, &cutype, &e);
#else
        int r = dwarf_next_cu_header_d(DBG(h), 1, &hlen, &ver, &abbr, &asz, &lsz, &esz, &sig,
                                       &typeoff, &next, &cutype, &e);
        if (r == DW_DLV_OK)
            r = dwarf_siblingof_b(DBG(h), NULL, 1, &cu, &e);
#endif
        if (r != DW_DLV_OK || !cu)
            return;
        dh_cu *n = realloc(h->cus, (size_t)(h->ncus + 1) * sizeof *n);
        if (!n) {
            dwarf_dealloc_die(cu);
            return;
        }
        h->cus = n;
        dh_cu *c = &h->cus[h->ncus++];
        memset(c, 0, sizeof *c);
        dwarf_dieoffset(cu, &c->off, &e);
        Dwarf_Addr base = 0;
        uint64_t b = dwarf_lowpc(cu, &base, &e) == DW_DLV_OK ? base : UINT64_MAX - 1;
        die_ranges(h, cu, b, &c->rg, &c->nrg);
        dwarf_dealloc_die(cu);
    }
}

static int row_cmp(const void *a, const void *b)
{
    const dh_row *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return y->end - x->end;   /* an end row before a row starting at the same address */
}

/* nvcc compiles a .cu's host code from a generated "tmpxft_..._NAME.cudafe1.cpp" whose line
 * numbers are NAME.cu's (cudafe writes "# LINE" directives without a file for code it
 * rewrites): such rows mean NAME.cu, named as the unit's other rows name it. */
static const char *cudafe_source(const dh_cu *c, const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t bl = strlen(b), sl = strlen(".cudafe1.cpp");
    if (bl <= sl || strcmp(b + bl - sl, ".cudafe1.cpp"))
        return NULL;
    const char *stem = b;
    if (!strncmp(stem, "tmpxft_", 7)) {   /* tmpxft_<pid>_<n>-<k>_NAME */
        const char *dash = strchr(stem, '-');
        const char *us = dash ? strchr(dash, '_') : NULL;
        if (us && us < b + bl - sl)
            stem = us + 1;
    }
    char want[512];
    snprintf(want, sizeof want, "%.*s.cu", (int)(b + bl - sl - stem), stem);
    for (int pass = 0; pass < 2; pass++) {
        char **list = pass ? c->cfiles : c->files;
        long n = pass ? c->ncfiles : c->nfiles;
        for (long i = 0; i < n; i++)
            if (list[i] && dw_path_matches(list[i], want))
                return list[i];
    }
    return NULL;
}

static void map_cudafe(dh_cu *c)
{
    for (int i = 0; i < c->nfiles; i++) {
        const char *src = c->files[i] ? cudafe_source(c, c->files[i]) : NULL;
        if (src)
            c->files[i] = (char *)src;
    }
    for (long i = 0; i < c->ncfiles; i++) {
        const char *src = c->cfiles[i] ? cudafe_source(c, c->cfiles[i]) : NULL;
        if (src)
            c->cfiles[i] = (char *)src;
    }
}

static void load_lines(dw_host *h, dh_cu *c)
{
    if (c->loaded)
        return;
    c->loaded = 1;
    Dwarf_Error e = NULL;
    Dwarf_Die die = NULL;
    if (dwarf_offdie_b(DBG(h), c->off, 1, &die, &e) != DW_DLV_OK)
        return;
    Dwarf_Unsigned ver = 0;
    Dwarf_Small tc = 0;
    Dwarf_Line_Context ctx = NULL;
    if (dwarf_srclines_b(die, &ver, &tc, &ctx, &e) == DW_DLV_OK) {
        Dwarf_Line *lines = NULL;
        Dwarf_Signed n = 0;
        if (dwarf_srclines_from_linecontext(ctx, &lines, &n, &e) == DW_DLV_OK && n > 0) {
            c->rows = calloc((size_t)n, sizeof *c->rows);
            for (Dwarf_Signed i = 0; c->rows && i < n; i++) {
                Dwarf_Addr a = 0;
                Dwarf_Unsigned ln = 0;
                Dwarf_Bool end = 0;
                char *src = NULL;
                if (dwarf_lineaddr(lines[i], &a, &e) != DW_DLV_OK)
                    continue;
                dwarf_lineno(lines[i], &ln, &e);
                dwarf_lineendsequence(lines[i], &end, &e);
                int fi = -1;
                if (dwarf_linesrc(lines[i], &src, &e) == DW_DLV_OK && src) {
                    for (int k = c->nfiles - 1; k >= 0 && fi < 0; k--)
                        if (!strcmp(c->files[k], src))
                            fi = k;
                    if (fi < 0) {
                        char **nf = realloc(c->files, (size_t)(c->nfiles + 1) * sizeof *nf);
                        if (nf) {
                            c->files = nf;
                            c->files[c->nfiles] = keep(h, src);
                            fi = c->nfiles++;
                        }
                    }
                    dwarf_dealloc(DBG(h), src, DW_DLA_STRING);
                }
                c->rows[c->nrows++] = (dh_row){a, (int)ln, fi, end ? 1 : 0};
            }
            if (c->rows)
                qsort(c->rows, (size_t)c->nrows, sizeof *c->rows, row_cmp);
        }
        dwarf_srclines_dealloc_b(ctx);
    }
    char **sf = NULL;
    Dwarf_Signed nsf = 0;
    if (dwarf_srcfiles(die, &sf, &nsf, &e) == DW_DLV_OK) {
        c->cfiles = calloc((size_t)nsf + 1, sizeof *c->cfiles);
        for (Dwarf_Signed i = 0; i < nsf; i++) {
            if (c->cfiles)
                c->cfiles[i] = keep(h, sf[i]);
            dwarf_dealloc(DBG(h), sf[i], DW_DLA_STRING);
        }
        dwarf_dealloc(DBG(h), sf, DW_DLA_LIST);
        c->ncfiles = c->cfiles ? nsf : 0;
        c->cfile_base = ver >= 5 ? 0 : 1;   /* DW_AT_call_file counts from 1 before DWARF 5 */
    }
    map_cudafe(c);
    dwarf_dealloc_die(die);
}

static const dh_row *row_at(const dh_cu *c, uint64_t a)
{
    int lo = 0, hi = c->nrows - 1, best = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (c->rows[mid].addr <= a) {
            best = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    if (best < 0 || c->rows[best].end)
        return NULL;
    return &c->rows[best];
}

static dh_cu *cu_at(dw_host *h, uint64_t a)
{
    for (int i = 0; i < h->ncus; i++)
        if (in_ranges(h->cus[i].rg, h->cus[i].nrg, a))
            return &h->cus[i];
    return NULL;
}

/* A DIE's name: DW_AT_linkage_name, else DW_AT_name, through abstract_origin/specification. */
static const char *die_fn_name(dw_host *h, Dwarf_Die die, int depth)
{
    Dwarf_Error e = NULL;
    static const Dwarf_Half names[] = {DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *s = NULL;
        if (dwarf_die_text(die, names[i], &s, &e) == DW_DLV_OK && s)
            return keep(h, s);
    }
    if (depth > 4)
        return NULL;
    static const Dwarf_Half refs[] = {DW_AT_abstract_origin, DW_AT_specification};
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
        Dwarf_Attribute at = NULL;
        Dwarf_Off off = 0;
        if (dwarf_attr(die, refs[i], &at, &e) != DW_DLV_OK)
            continue;
        int ok = dwarf_global_formref(at, &off, &e) == DW_DLV_OK;
        dwarf_dealloc_attribute(at);
        Dwarf_Die o = NULL;
        if (ok && dwarf_offdie_b(DBG(h), off, 1, &o, &e) == DW_DLV_OK) {
            const char *n = die_fn_name(h, o, depth + 1);
            dwarf_dealloc_die(o);
            if (n)
                return n;
        }
    }
    return NULL;
}

static int die_udata(Dwarf_Die die, Dwarf_Half attr, Dwarf_Unsigned *v)
{
    Dwarf_Error e = NULL;
    Dwarf_Attribute at = NULL;
    if (dwarf_attr(die, attr, &at, &e) != DW_DLV_OK)
        return -1;
    int r = dwarf_formudata(at, v, &e);
    dwarf_dealloc_attribute(at);
    return r == DW_DLV_OK ? 0 : -1;
}

typedef struct { const char *name; const char *call_file; int call_line; } dh_level;

/* The subprogram and inlined subroutines containing a (outermost first) under `die`. */
static int chain(dw_host *h, dh_cu *c, Dwarf_Die die, uint64_t a, dh_level *out, int n, int max,
                 int depth)
{
    Dwarf_Error e = NULL;
    Dwarf_Die ch = NULL;
    if (depth > 64 || dwarf_child(die, &ch, &e) != DW_DLV_OK)
        return n;
    while (ch) {
        Dwarf_Half tag = 0;
        dwarf_tag(ch, &tag, &e);
        int found = 0;
        if (tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
            tag == DW_TAG_structure_type || tag == DW_TAG_union_type) {
            int m = chain(h, c, ch, a, out, n, max, depth + 1);
            found = m > n;
            n = m;
        } else if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
                   tag == DW_TAG_lexical_block) {
            dh_range *rg = NULL;
            int nrg = 0;
            die_ranges(h, ch, UINT64_MAX - 1, &rg, &nrg);
            if (in_ranges(rg, nrg, a)) {
                found = 1;
                if (tag != DW_TAG_lexical_block && n < max) {
                    dh_level *l = &out[n++];
                    memset(l, 0, sizeof *l);
                    l->name = die_fn_name(h, ch, 0);
                    Dwarf_Unsigned f = 0, ln = 0;
                    if (tag == DW_TAG_inlined_subroutine &&
                        die_udata(ch, DW_AT_call_file, &f) == 0 &&
                        die_udata(ch, DW_AT_call_line, &ln) == 0) {
                        long k = (long)f - c->cfile_base;
                        l->call_file = k >= 0 && k < c->ncfiles ? c->cfiles[k] : NULL;
                        l->call_line = (int)ln;
                    }
                }
                n = chain(h, c, ch, a, out, n, max, depth + 1);
            }
            free(rg);
        }
        Dwarf_Die next = NULL;
        int r = found ? DW_DLV_NO_ENTRY : sibling(h, ch, &next, &e);
        dwarf_dealloc_die(ch);
        ch = r == DW_DLV_OK ? next : NULL;
    }
    return n;
}

int dw_host_frames(dw_host *h, uint64_t a, dw_host_frame *out, int max)
{
    if (!h || max <= 0)
        return 0;
    dh_cu *c = h->dbg ? cu_at(h, a) : NULL;
    const char *sym = dw_host_symbol(h, a, NULL);
    if (!c) {
        if (!sym)
            return 0;
        memset(out, 0, sizeof *out);
        out[0].name = sym;
        return 1;
    }
    load_lines(h, c);
    const dh_row *r = row_at(c, a);
    dh_level lv[32];
    int nl = 0;
    Dwarf_Error e = NULL;
    Dwarf_Die die = NULL;
    if (dwarf_offdie_b(DBG(h), c->off, 1, &die, &e) == DW_DLV_OK) {
        nl = chain(h, c, die, a, lv, 0, 32, 0);
        dwarf_dealloc_die(die);
    }
    /* innermost first: level nl-1 runs at the row's line; each outer level at the call site
       of the level inside it */
    int n = 0;
    for (int i = nl - 1; i >= 0 && n < max; i--) {
        dw_host_frame *f = &out[n++];
        memset(f, 0, sizeof *f);
        f->name = lv[i].name ? lv[i].name : i == 0 ? sym : NULL;
        if (i == nl - 1) {
            f->file = r && r->file >= 0 ? c->files[r->file] : NULL;
            f->line = r ? r->line : 0;
        } else {
            f->file = lv[i + 1].call_file;
            f->line = lv[i + 1].call_line;
        }
    }
    if (!n) {
        memset(out, 0, sizeof *out);
        out[0].name = sym;
        out[0].file = r && r->file >= 0 ? c->files[r->file] : NULL;
        out[0].line = r ? r->line : 0;
        n = 1;
    }
    return n;
}

int dw_host_has_lines(const dw_host *h) { return h && h->dbg && h->ncus > 0; }

int dw_host_next_line(dw_host *h, const char *file, int line)
{
    if (!h || !DBG(h))
        return 0;
    int best = 0;
    for (int i = 0; i < h->ncus; i++) {
        dh_cu *c = &h->cus[i];
        load_lines(h, c);
        int *match = calloc((size_t)c->nfiles + 1, sizeof *match);
        if (!match)
            return 0;
        for (int f = 0; f < c->nfiles; f++)
            match[f] = dw_path_matches(c->files[f], file);
        for (int k = 0; k < c->nrows; k++) {
            const dh_row *r = &c->rows[k];
            if (r->line >= line && (!best || r->line < best) && !r->end && r->file >= 0 &&
                match[r->file])
                best = r->line;
        }
        free(match);
    }
    return best;
}

/* Whether a subprogram DIE under die (namespaces and classes too) is named name. */
static int has_subprogram(dw_host *h, Dwarf_Die die, const char *name, dw_demangle_fn dm,
                          int depth)
{
    Dwarf_Error e = NULL;
    Dwarf_Die ch = NULL;
    int found = 0;
    if (depth > 16 || dwarf_child(die, &ch, &e) != DW_DLV_OK)
        return 0;
    while (ch && !found) {
        Dwarf_Half tag = 0;
        dwarf_tag(ch, &tag, &e);
        if (tag == DW_TAG_subprogram) {
            char *nm = NULL, *lk = NULL, b[512];
            dwarf_die_text(ch, DW_AT_name, &nm, &e);
            dwarf_die_text(ch, DW_AT_linkage_name, &lk, &e);
            found = (nm && !strcmp(nm, name)) || (lk && !strcmp(lk, name)) ||
                    (lk && dm && dm(lk, b, sizeof b, 1) == 0 && !strcmp(b, name));
        } else if (tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
                   tag == DW_TAG_structure_type) {
            found = has_subprogram(h, ch, name, dm, depth + 1);
        }
        Dwarf_Die next = NULL;
        int r = found ? DW_DLV_NO_ENTRY : sibling(h, ch, &next, &e);
        dwarf_dealloc_die(ch);
        ch = r == DW_DLV_OK ? next : NULL;
    }
    return found;
}

int dw_host_func_named(dw_host *h, const char *name, dw_demangle_fn dm)
{
    for (int i = 0; h && h->dbg && i < h->ncus; i++) {
        Dwarf_Error e = NULL;
        Dwarf_Die die = NULL;
        if (dwarf_offdie_b(DBG(h), h->cus[i].off, 1, &die, &e) != DW_DLV_OK)
            continue;
        int f = has_subprogram(h, die, name, dm, 0);
        dwarf_dealloc_die(die);
        if (f)
            return 1;
    }
    return 0;
}


void dw_hostdw_load(dw_host *h)
{
    static const char *const want[] = {".debug_info", ".debug_abbrev", ".debug_line",
                                       ".debug_str", ".debug_line_str", ".debug_rnglists",
                                       ".debug_ranges", ".debug_addr", ".debug_str_offsets"};
    const char *names[16];
    uint8_t *data[16];
    uint64_t sizes[16];
    int n = 0, have_info = 0, have_line = 0;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const uint8_t *d;
        size_t l;
        if (dw_host_section(h, want[i], &d, &l) != 0 || !l)
            continue;
        names[n] = want[i];
        data[n] = (uint8_t *)(uintptr_t)d;   /* libdwarf only reads them */
        sizes[n++] = l;
        have_info |= i == 0;
        have_line |= i == 2;
    }
    if (have_info && have_line) {
        h->lib = dw_lib_open_mem(names, data, sizes, n, &h->dbg);
        if (!h->lib)
            h->dbg = NULL;
        if (DBG(h))
            read_cus(h);
    }
}

void dw_hostdw_free(dw_host *h)
{
    for (int i = 0; i < h->ncus; i++) {
        free(h->cus[i].rg);
        free(h->cus[i].rows);
        free(h->cus[i].files);
        free(h->cus[i].cfiles);
    }
    free(h->cus);
    dw_lib_close_mem(h->lib);
    for (int i = 0; i < h->nstrs; i++)
        free(h->strs[i]);
    free(h->strs);
}
