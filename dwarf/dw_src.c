/* dw_src.c - find source files (directory / substitute-path rules as in gdb) and cache lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "dw.h"

typedef struct {
    char *key;            /* path as asked + '\n' + ptx_dir */
    char *text;           /* NULL: not found */
    size_t *lines;        /* offsets of line starts */
    int nlines;
} srcfile;

struct dw_srcpath {
    char **dirs; int ndirs;
    struct { char *from, *to; } *subst; int nsubst;
    srcfile *files; int nfiles;
};

dw_srcpath *dw_src_new(void) { return calloc(1, sizeof(dw_srcpath)); }

void dw_src_flush(dw_srcpath *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nfiles; i++) {
        free(s->files[i].key);
        free(s->files[i].text);
        free(s->files[i].lines);
    }
    free(s->files);
    s->files = NULL;
    s->nfiles = 0;
}

void dw_src_clear_dirs(dw_srcpath *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->ndirs; i++)
        free(s->dirs[i]);
    free(s->dirs);
    s->dirs = NULL;
    s->ndirs = 0;
    dw_src_flush(s);
}

void dw_src_free(dw_srcpath *s)
{
    if (!s)
        return;
    dw_src_clear_dirs(s);
    dw_src_del_subst(s, NULL);
    free(s->subst);
    free(s);
}

static char *xstrdup(const char *p)
{
    size_t n = strlen(p) + 1;
    char *r = malloc(n);
    if (r)
        memcpy(r, p, n);
    return r;
}

int dw_src_add_dir(dw_srcpath *s, const char *dir)
{
    if (!s || !dir || !*dir)
        return -1;
    for (int i = 0; i < s->ndirs; i++)
        if (!strcmp(s->dirs[i], dir))
            return 0;
    char **nd = realloc(s->dirs, sizeof *nd * (size_t)(s->ndirs + 1));
    if (!nd)
        return -1;
    s->dirs = nd;
    if (!(s->dirs[s->ndirs] = xstrdup(dir)))
        return -1;
    s->ndirs++;
    dw_src_flush(s);
    return 0;
}

int dw_src_ndirs(const dw_srcpath *s) { return s ? s->ndirs : 0; }
const char *dw_src_dir(const dw_srcpath *s, int i)
{
    return s && i >= 0 && i < s->ndirs ? s->dirs[i] : NULL;
}

int dw_src_add_subst(dw_srcpath *s, const char *from, const char *to)
{
    if (!s || !from || !*from || !to)
        return -1;
    for (int i = 0; i < s->nsubst; i++)
        if (!strcmp(s->subst[i].from, from)) {
            char *t = xstrdup(to);
            if (!t)
                return -1;
            free(s->subst[i].to);
            s->subst[i].to = t;
            dw_src_flush(s);
            return 0;
        }
    void *ns = realloc(s->subst, sizeof *s->subst * (size_t)(s->nsubst + 1));
    if (!ns)
        return -1;
    s->subst = ns;
    char *f = xstrdup(from), *t = xstrdup(to);
    if (!f || !t) {
        free(f);
        free(t);
        return -1;
    }
    s->subst[s->nsubst].from = f;
    s->subst[s->nsubst].to = t;
    s->nsubst++;
    dw_src_flush(s);
    return 0;
}

int dw_src_del_subst(dw_srcpath *s, const char *from)
{
    if (!s)
        return -1;
    int found = -1;
    for (int i = 0; i < s->nsubst;) {
        if (!from || !strcmp(s->subst[i].from, from)) {
            free(s->subst[i].from);
            free(s->subst[i].to);
            memmove(&s->subst[i], &s->subst[i + 1], sizeof *s->subst * (size_t)(s->nsubst - i - 1));
            s->nsubst--;
            found = 0;
        } else {
            i++;
        }
    }
    dw_src_flush(s);
    return from ? found : 0;
}

int dw_src_nsubst(const dw_srcpath *s) { return s ? s->nsubst : 0; }
int dw_src_subst(const dw_srcpath *s, int i, const char **from, const char **to)
{
    if (!s || i < 0 || i >= s->nsubst)
        return -1;
    if (from)
        *from = s->subst[i].from;
    if (to)
        *to = s->subst[i].to;
    return 0;
}

static int readable(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* gdb: FROM matches a leading part of the path ending at a directory separator. */
static int apply_subst(const dw_srcpath *s, const char *path, char *buf, size_t n)
{
    for (int i = 0; i < s->nsubst; i++) {
        const char *f = s->subst[i].from;
        size_t lf = strlen(f);
        while (lf > 1 && f[lf - 1] == '/')
            lf--;
        if (strncmp(path, f, lf) != 0 || (path[lf] != '/' && path[lf] != 0))
            continue;
        int k = snprintf(buf, n, "%s%s", s->subst[i].to, path + lf);
        return k >= 0 && (size_t)k < n;
    }
    return 0;
}

static const char *base_of(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static int try_join(const char *dir, const char *name, char *buf, size_t n)
{
    int k = snprintf(buf, n, "%s%s%s", dir, dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/",
                     name);
    return k >= 0 && (size_t)k < n && readable(buf);
}

const char *dw_src_resolve(const dw_srcpath *s, const char *path, const char *ptx_dir,
                           char *buf, size_t n)
{
    if (!path || !*path || !buf || !n)
        return NULL;
    /* as in gdb, a path a rule rewrites is looked for only as rewritten (then by base name in
       the directories), never at its original place */
    char rw[4096];
    int rewritten = s && apply_subst(s, path, rw, sizeof rw);
    if (rewritten) {
        if (readable(rw) && strlen(rw) < n) {
            snprintf(buf, n, "%s", rw);
            return buf;
        }
    } else if (readable(path) && strlen(path) < n) {
        snprintf(buf, n, "%s", path);
        return buf;
    }
    const char *b = base_of(path);
    if (ptx_dir && *ptx_dir && try_join(ptx_dir, b, buf, n))
        return buf;
    if (!s)
        return NULL;
    for (int i = 0; i < s->ndirs; i++) {
        char tmp[4096];
        /* substitution rules also apply to the directories (gdb does so) */
        const char *dir = apply_subst(s, s->dirs[i], tmp, sizeof tmp) ? tmp : s->dirs[i];
        if (path[0] != '/' && try_join(dir, path, buf, n))
            return buf;
        if (try_join(dir, b, buf, n))
            return buf;
    }
    return NULL;
}

static srcfile *load(dw_srcpath *s, const char *path, const char *ptx_dir)
{
    if (!s || !path)
        return NULL;
    size_t kl = strlen(path) + (ptx_dir ? strlen(ptx_dir) : 0) + 2;
    char *key = malloc(kl);
    if (!key)
        return NULL;
    snprintf(key, kl, "%s\n%s", path, ptx_dir ? ptx_dir : "");
    for (int i = 0; i < s->nfiles; i++)
        if (!strcmp(s->files[i].key, key)) {
            free(key);
            return &s->files[i];
        }
    srcfile *nf = realloc(s->files, sizeof *nf * (size_t)(s->nfiles + 1));
    if (!nf) {
        free(key);
        return NULL;
    }
    s->files = nf;
    srcfile *f = &s->files[s->nfiles++];
    memset(f, 0, sizeof *f);
    f->key = key;
    char rp[4096];
    const char *p = dw_src_resolve(s, path, ptx_dir, rp, sizeof rp);
    FILE *fp = p ? fopen(p, "rb") : NULL;
    if (!fp)
        return f;
    size_t cap = 0, len = 0;
    char *text = NULL;
    for (;;) {
        if (len + 4097 > cap) {
            cap = cap ? cap * 2 : 16384;
            char *nt = realloc(text, cap);
            if (!nt) {
                free(text);
                fclose(fp);
                return f;
            }
            text = nt;
        }
        size_t r = fread(text + len, 1, cap - len - 1, fp);
        len += r;
        if (!r)
            break;
    }
    fclose(fp);
    text[len] = 0;
    int nl = 0;
    for (size_t i = 0; i < len; i++)
        nl += text[i] == '\n';
    f->lines = malloc(sizeof(size_t) * (size_t)(nl + 2));
    if (!f->lines) {
        free(text);
        return f;
    }
    f->text = text;
    size_t start = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n') {
            f->lines[f->nlines++] = start;
            start = i + 1;
        }
    if (start < len)
        f->lines[f->nlines++] = start;
    /* sentinel: the start the line after the last would have */
    f->lines[f->nlines] = (len && text[len - 1] == '\n') ? len : len + 1;
    return f;
}

const char *dw_src_line(dw_srcpath *s, const char *path, const char *ptx_dir, int line,
                        int *len)
{
    srcfile *f = load(s, path, ptx_dir);
    if (!f || !f->text || line < 1 || line > f->nlines)
        return NULL;
    size_t a = f->lines[line - 1], b = f->lines[line] - 1;
    if (b > a && f->text[b - 1] == '\r')
        b--;
    if (len)
        *len = (int)(b - a);
    return f->text + a;
}

int dw_src_nlines(dw_srcpath *s, const char *path, const char *ptx_dir)
{
    srcfile *f = load(s, path, ptx_dir);
    return f && f->text ? f->nlines : -1;
}
