/* rt_link.c - link the PTX of relocatable device code (nvcc -rdc=true) into one module. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"

/* With -rdc=true each translation unit's fat binary holds its own PTX, whose calls and
 * variable uses may name definitions of other units (.extern declarations). The modules are
 * joined as text: the first one's .version/.target/.address_size header, then every unit's
 * top-level items in order, where
 *   - a .weak definition already given by an earlier unit is dropped (templates and inline
 *     functions are emitted in every unit that uses them);
 *   - an internal (not .visible/.extern/.weak) name that an earlier unit also defines
 *     ($str string constants, static functions) is renamed NAME_rdcK in unit K;
 *   - .file numbers (and the .loc lines naming them) are shifted past the earlier units';
 *   - .extern declarations stay (the parser accepts a declaration before its definition).
 * DWARF sections (-G, -lineinfo) cannot be joined as text: they are left out, with the
 * `function_name` labels of .loc lines that point into them (source lines remain). */

typedef struct {
    const char *s;
    size_t n;
    int unit;
    int header;       /* .version / .target / .address_size */
    int is_func, has_body, linkage;   /* linkage: 0 internal, 1 visible, 2 extern, 3 weak */
    char name[256];
    int drop, emitted;
} lk_item;

typedef struct { char *p; size_t n, cap; int oom; } lk_buf;

static void lk_put(lk_buf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 65536;
        while (nc < b->n + n + 1)
            nc *= 2;
        char *np = realloc(b->p, nc);
        if (!np) {
            b->oom = 1;
            return;
        }
        b->p = np;
        b->cap = nc;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static int lk_idc(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$';
}

/* Skip white space and comments; returns the new position. */
static const char *lk_skip(const char *p, const char *e)
{
    for (;;) {
        while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
            p++;
        if (e - p >= 2 && p[0] == '/' && p[1] == '/') {
            while (p < e && *p != '\n')
                p++;
        } else if (e - p >= 2 && p[0] == '/' && p[1] == '*') {
            p += 2;
            while (e - p >= 2 && !(p[0] == '*' && p[1] == '/'))
                p++;
            p = e - p >= 2 ? p + 2 : e;
        } else {
            return p;
        }
    }
}

/* End of the top-level item starting at p. */
static const char *lk_item_end(const char *p, const char *e, int line_item)
{
    if (line_item) {
        while (p < e && *p != '\n')
            p++;
        return p;
    }
    int depth = 0;
    while (p < e) {
        if (e - p >= 2 && p[0] == '/' && (p[1] == '/' || p[1] == '*')) {
            p = lk_skip(p, e);
            continue;
        }
        char c = *p++;
        if (c == '"') {
            while (p < e && *p != '"')
                p += *p == '\\' && e - p > 1 ? 2 : 1;
            if (p < e)
                p++;
        } else if (c == '{' || c == '(') {
            depth++;
        } else if ((c == '}' || c == ')') && depth > 0) {
            depth--;
            if (c == '}' && depth == 0) {
                const char *q = lk_skip(p, e);
                return q < e && *q == ';' ? q + 1 : p;
            }
        } else if (c == ';' && depth == 0) {
            return p;
        }
    }
    return e;
}

static int lk_starts(const char *p, const char *e, const char *w)
{
    size_t n = strlen(w);
    return (size_t)(e - p) >= n && !memcmp(p, w, n) && ((size_t)(e - p) == n || !lk_idc(p[n]));
}

/* Linkage, kind and name of an item. */
static void lk_classify(lk_item *it)
{
    const char *p = it->s, *e = it->s + it->n;
    int seen_func = 0;
    it->name[0] = 0;
    while ((p = lk_skip(p, e)) < e) {
        if (*p == '.') {
            const char *q = p + 1;
            while (q < e && lk_idc(*q))
                q++;
            if (lk_starts(p, e, ".visible")) it->linkage = 1;
            else if (lk_starts(p, e, ".extern")) it->linkage = 2;
            else if (lk_starts(p, e, ".weak")) it->linkage = 3;
            else if (lk_starts(p, e, ".func") || lk_starts(p, e, ".entry")) seen_func = 1;
            p = q;
        } else if (*p == '(') {
            if (seen_func && it->name[0])
                break;   /* the parameter list: the name came before it */
            int depth = 0;   /* skip the return-parameter list */
            do {
                if (*p == '(')
                    depth++;
                else if (*p == ')')
                    depth--;
                p++;
            } while (p < e && depth > 0);
        } else if (lk_idc(*p) && !(*p >= '0' && *p <= '9')) {
            const char *q = p;
            while (q < e && lk_idc(*q))
                q++;
            if (!it->name[0]) {
                size_t n = (size_t)(q - p) < sizeof it->name - 1 ? (size_t)(q - p)
                                                                  : sizeof it->name - 1;
                memcpy(it->name, p, n);
                it->name[n] = 0;
            }
            p = q;
            if (!seen_func)
                break;   /* a variable: its name is the first identifier */
        } else if (*p == '{' || *p == ';' || *p == '=' || *p == '[') {
            break;
        } else {
            p++;
        }
    }
    it->is_func = seen_func;
    it->has_body = seen_func && it->n && it->s[it->n - 1] == '}';
}

static int lk_defines(const lk_item *it)
{
    return !it->header && it->name[0] && it->linkage != 2 && (!it->is_func || it->has_body);
}

/* Append unit text [s, s+n) with identifier `from` renamed (when from) and .file/.loc numbers
 * shifted by off. */
static void lk_emit(lk_buf *b, const char *s, size_t n, char **from, int nfrom, int unit,
                    int off)
{
    const char *p = s, *e = s + n;
    while (p < e) {
        if (*p == '"') {   /* strings verbatim */
            const char *q = p + 1;
            while (q < e && *q != '"')
                q += *q == '\\' && e - q > 1 ? 2 : 1;
            q = q < e ? q + 1 : e;
            lk_put(b, p, (size_t)(q - p));
            p = q;
        } else if (off && (lk_starts(p, e, ".file") || lk_starts(p, e, ".loc"))) {
            const char *q = p + (p[1] == 'f' ? 5 : 4);
            while (q < e && (*q == ' ' || *q == '\t'))
                q++;
            lk_put(b, p, (size_t)(q - p));
            char *end;
            long v = strtol(q, &end, 10);
            if (end > q && end <= e) {
                char num[32];
                int k = snprintf(num, sizeof num, "%ld", v + off);
                lk_put(b, num, (size_t)k);
                p = end;
            } else {
                p = q;
            }
        } else if (lk_starts(p, e, "function_name")) {
            /* `.loc F L C, function_name LABEL`: the label lives in .debug_str, dropped */
            while (b->n && (b->p[b->n - 1] == ' ' || b->p[b->n - 1] == '\t' ||
                            b->p[b->n - 1] == ','))
                b->n--;
            p += 13;
            while (p < e && (*p == ' ' || *p == '\t'))
                p++;
            while (p < e && lk_idc(*p))
                p++;
        } else if (lk_idc(*p) && (p == s || !lk_idc(p[-1]))) {
            const char *q = p;
            while (q < e && lk_idc(*q))
                q++;
            lk_put(b, p, (size_t)(q - p));
            for (int i = 0; i < nfrom; i++)
                if (strlen(from[i]) == (size_t)(q - p) && !memcmp(from[i], p, (size_t)(q - p))) {
                    char suf[32];
                    int k = snprintf(suf, sizeof suf, "_rdc%d", unit);
                    lk_put(b, suf, (size_t)k);
                    break;
                }
            p = q;
        } else {
            lk_put(b, p, 1);
            p++;
        }
    }
}

/* Highest .file number in [s, s+n). */
static int lk_max_file(const char *s, size_t n)
{
    int mx = 0;
    const char *p = s, *e = s + n;
    while ((p = memmem(p, (size_t)(e - p), ".file", 5)) != NULL) {
        p += 5;
        long v = strtol(p, NULL, 10);
        if (v > mx && v < 1000000)
            mx = (int)v;
    }
    return mx;
}

int rt_ptx_link(char **texts, const size_t *lens, int n, char **out, size_t *outlen, char *err,
                size_t errlen)
{
    int dropped = 0, *dropped_debug = &dropped;
    lk_item *items = NULL;
    int ni = 0, cap = 0, rc = -1;
    lk_buf b = {0};
    char **ren = NULL;
    *out = NULL;
    for (int u = 0; u < n; u++) {
        if (memmem(texts[u], lens[u], ".debug_info", 11) && !*dropped_debug) {
            *dropped_debug = 1;
            rt_warn("relocatable device code: the DWARF sections of its translation units "
                    "cannot be joined; source lines are kept, variables are not");
        }
        const char *p = texts[u], *e = texts[u] + lens[u];
        while ((p = lk_skip(p, e)) < e) {
            int line = lk_starts(p, e, ".version") || lk_starts(p, e, ".target") ||
                       lk_starts(p, e, ".address_size") || lk_starts(p, e, ".file");
            const char *q = lk_item_end(p, e, line);
            if (ni == cap) {
                cap = cap ? cap * 2 : 256;
                lk_item *nx = realloc(items, sizeof *items * (size_t)cap);
                if (!nx) {
                    snprintf(err, errlen, "out of memory");
                    goto done;
                }
                items = nx;
            }
            lk_item *it = &items[ni++];
            memset(it, 0, sizeof *it);
            it->s = p;
            it->n = (size_t)(q - p);
            it->unit = u;
            it->header = line && !lk_starts(p, e, ".file");
            if (!line)
                lk_classify(it);
            if (lk_starts(p, e, ".section"))
                it->drop = 1;   /* DWARF: cannot be joined as text */
            p = q > p ? q : p + 1;
        }
    }
    /* weak definitions given earlier are dropped; a second strong definition is an error */
    for (int i = 0; i < ni; i++) {
        if (!lk_defines(&items[i]) || items[i].linkage == 0)
            continue;
        for (int j = 0; j < i; j++)
            if (lk_defines(&items[j]) && items[j].linkage != 0 && !items[j].drop &&
                !strcmp(items[j].name, items[i].name)) {
                if (items[i].linkage == 3 || items[j].linkage == 3) {
                    items[i].drop = 1;
                } else {
                    snprintf(err, errlen, "%s is defined by two translation units",
                             items[i].name);
                    goto done;
                }
                break;
            }
    }
    /* per unit: the internal names an earlier unit also defines, and its .file offset */
    ren = calloc((size_t)ni + 1, sizeof *ren);
    int *nren = calloc((size_t)n + 1, sizeof *nren), *roff = calloc((size_t)n + 1, sizeof *roff);
    char ***uren = calloc((size_t)n + 1, sizeof *uren);
    if (!ren || !nren || !roff || !uren) {
        free(nren);
        free(roff);
        free(uren);
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    int used = 0;
    for (int u = 0; u < n; u++) {
        uren[u] = ren + used;
        roff[u] = u ? roff[u - 1] + lk_max_file(texts[u - 1], lens[u - 1]) : 0;
        for (int i = 0; i < ni; i++) {
            if (items[i].unit != u || !lk_defines(&items[i]) || items[i].linkage != 0)
                continue;
            for (int j = 0; j < ni; j++)
                if (items[j].unit < u && lk_defines(&items[j]) &&
                    !strcmp(items[j].name, items[i].name)) {
                    ren[used++] = items[i].name;
                    nren[u]++;
                    break;
                }
        }
    }
    for (int i = 0; i < ni; i++) {
        lk_item *it = &items[i];
        if (it->drop || it->emitted || (it->header && it->unit > 0))
            continue;
        /* an .extern variable declared before its definition (in a later unit): the parser
         * wants variables declared once, so the definition moves here */
        if (!it->is_func && it->linkage == 2 && it->name[0]) {
            for (int j = 0; j < ni; j++)
                if (j != i && !items[j].is_func && lk_defines(&items[j]) &&
                    items[j].linkage != 0 && !strcmp(items[j].name, it->name)) {
                    if (!items[j].drop && !items[j].emitted) {
                        lk_emit(&b, items[j].s, items[j].n, uren[items[j].unit],
                                nren[items[j].unit], items[j].unit, roff[items[j].unit]);
                        lk_put(&b, "\n", 1);
                        items[j].emitted = 1;
                    }
                    it->drop = 1;
                    break;
                }
            /* a second .extern declaration of the same variable */
            for (int j = 0; j < i && !it->drop; j++)
                if (!items[j].is_func && items[j].linkage == 2 &&
                    !strcmp(items[j].name, it->name))
                    it->drop = 1;
            if (it->drop)
                continue;
        }
        lk_emit(&b, it->s, it->n, uren[it->unit], nren[it->unit], it->unit, roff[it->unit]);
        lk_put(&b, "\n", 1);
        it->emitted = 1;
    }
    free(nren);
    free(roff);
    free(uren);
    if (b.oom) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    *out = b.p;
    *outlen = b.n;
    b.p = NULL;
    rc = 0;
done:
    free(ren);
    free(items);
    free(b.p);
    return rc;
}
