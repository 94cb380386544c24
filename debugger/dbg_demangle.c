/* dbg_demangle.c - a small Itanium C++ demangler for kernel and device-function names. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dbg_int.h"

/* Covers what nvcc emits for ordinary CUDA C: source names, namespaces (incl. anonymous),
 * builtin types, pointers/references/const/volatile, substitutions (S_, S0_, St), templates with
 * type and integer-literal arguments, template parameters (T_), arrays. Anything else makes
 * the whole name fail, and callers show the mangled name. */

#define DM_MAX 64
#define DM_LEN 256

/* snprintf into a DM_LEN buffer (truncation is harmless here: names are short). */
static void put(char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(char *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, DM_LEN, fmt, ap);
    va_end(ap);
}

typedef struct {
    const char *p;
    int err;
    char subs[DM_MAX][DM_LEN];
    int nsubs;
    char targs[DM_MAX][DM_LEN];   /* template arguments of the function name */
    int ntargs;
    char cur_targs[DM_MAX][DM_LEN];
    int ncur;
} dm;

static void add_sub(dm *d, const char *s)
{
    if (d->nsubs < DM_MAX)
        snprintf(d->subs[d->nsubs++], DM_LEN, "%s", s);
}

static int parse_type(dm *d, char *out);

static long parse_num(dm *d)
{
    if (!isdigit((unsigned char)*d->p)) {
        d->err = 1;
        return 0;
    }
    long v = 0;
    while (isdigit((unsigned char)*d->p))
        v = v * 10 + (*d->p++ - '0');
    return v;
}

static int source_name(dm *d, char *out)
{
    long n = parse_num(d);
    if (d->err || n <= 0 || (long)strlen(d->p) < n || n >= DM_LEN)
        return d->err = 1, -1;
    if (n >= 11 && strncmp(d->p, "_GLOBAL__N_", 11) == 0)
        put(out, "(anonymous namespace)");
    else
        put(out, "%.*s", (int)n, d->p);
    d->p += n;
    return 0;
}

/* S_ S0_ ... and the std:: abbreviations. */
static int substitution(dm *d, char *out)
{
    d->p++; /* S */
    if (*d->p == 't') {
        d->p++;
        put(out, "std");
        return 1; /* a prefix, caller continues with a name */
    }
    static const struct { char c; const char *s; } ab[] = {
        {'a', "std::allocator"}, {'b', "std::basic_string"}, {'s', "std::string"},
        {'i', "std::istream"}, {'o', "std::ostream"}, {'d', "std::iostream"}};
    for (size_t i = 0; i < sizeof ab / sizeof ab[0]; i++)
        if (*d->p == ab[i].c) {
            d->p++;
            put(out, "%s", ab[i].s);
            return 0;
        }
    long idx = 0;
    if (*d->p == '_') {
        idx = 0;
    } else {
        long v = 0;
        while (isdigit((unsigned char)*d->p) || isupper((unsigned char)*d->p)) {
            int dig = isdigit((unsigned char)*d->p) ? *d->p - '0' : *d->p - 'A' + 10;
            v = v * 36 + dig;
            d->p++;
        }
        idx = v + 1;
    }
    if (*d->p != '_' || idx >= d->nsubs)
        return d->err = 1, -1;
    d->p++;
    put(out, "%s", d->subs[idx]);
    return 0;
}

static void cat(char *out, const char *s)
{
    size_t l = strlen(out);
    snprintf(out + l, DM_LEN - l, "%s", s);
}

static int template_args(dm *d, char *out)
{
    d->p++; /* I */
    char args[DM_MAX][DM_LEN];
    int n = 0;
    strcpy(out, "<");
    while (*d->p && *d->p != 'E' && !d->err) {
        char a[DM_LEN] = "";
        if (*d->p == 'L') {
            d->p++;
            char t[DM_LEN];
            if (*d->p == '_' && d->p[1] == 'Z')
                return d->err = 1, -1;
            parse_type(d, t);
            int neg = 0;
            if (*d->p == 'n') {
                neg = 1;
                d->p++;
            }
            const char *st = d->p;
            while (*d->p && *d->p != 'E')
                d->p++;
            if (*d->p != 'E')
                return d->err = 1, -1;
            int len = (int)(d->p - st);
            d->p++;
            if (strcmp(t, "bool") == 0)
                put(a, "%s", len == 1 && *st == '1' ? "true" : "false");
            else if (strcmp(t, "int") == 0)
                put(a, "%s%.*s", neg ? "-" : "", len, st);
            else if (strcmp(t, "unsigned int") == 0)
                put(a, "%.*su", len, st);
            else if (strcmp(t, "long") == 0)
                put(a, "%s%.*sl", neg ? "-" : "", len, st);
            else if (strcmp(t, "unsigned long") == 0)
                put(a, "%.*sul", len, st);
            else
                put(a, "(%s)%s%.*s", t, neg ? "-" : "", len, st);
        } else if (*d->p == 'X' || *d->p == 'J') {
            return d->err = 1, -1;
        } else {
            parse_type(d, a);
        }
        if (n < DM_MAX)
            put(args[n++], "%s", a);
        if (n > 1)
            cat(out, ", ");
        cat(out, a);
    }
    if (*d->p != 'E')
        return d->err = 1, -1;
    d->p++;
    if (out[strlen(out) - 1] == '>')
        cat(out, " ");
    cat(out, ">");
    memcpy(d->cur_targs, args, sizeof args);
    d->ncur = n;
    return 0;
}

/* <name>: nested, unscoped, or a substitution, each optionally followed by template args.
 * is_func: the final component names the function (not a substitution candidate). */
static int parse_name(dm *d, char *out, int is_func, char *last)
{
    out[0] = 0;
    if (*d->p == 'N') {
        d->p++;
        while (*d->p == 'K' || *d->p == 'V' || *d->p == 'r')
            d->p++;
        int first = 1;
        while (*d->p && *d->p != 'E' && !d->err) {
            char comp[DM_LEN];
            if (*d->p == 'S') {
                if (substitution(d, comp) < 0)
                    return -1;
                put(out, "%s", comp);
                first = 0;
                continue;
            }
            if (*d->p == 'I') {
                char ta[DM_LEN];
                if (template_args(d, ta) < 0)
                    return -1;
                cat(out, ta);
                if (!(is_func && *d->p == 'E'))
                    add_sub(d, out);
                continue;
            }
            if (source_name(d, comp) < 0)
                return -1;
            if (!first)
                cat(out, "::");
            cat(out, comp);
            if (last)
                put(last, "%s", comp);
            first = 0;
            if (!(is_func && *d->p == 'E'))
                add_sub(d, out);
        }
        if (*d->p != 'E')
            return d->err = 1, -1;
        d->p++;
        return 0;
    }
    if (*d->p == 'S') {
        char comp[DM_LEN];
        int r = substitution(d, comp);
        if (r < 0)
            return -1;
        put(out, "%s", comp);
        if (r == 1) { /* St <name> */
            char n2[DM_LEN];
            if (source_name(d, n2) < 0)
                return -1;
            cat(out, "::");
            cat(out, n2);
            if (last)
                put(last, "%s", n2);
        }
    } else {
        if (source_name(d, out) < 0)
            return -1;
        if (last)
            put(last, "%s", out);
    }
    if (*d->p == 'I') {
        add_sub(d, out);
        char ta[DM_LEN];
        if (template_args(d, ta) < 0)
            return -1;
        cat(out, ta);
        if (!is_func)
            add_sub(d, out);
    } else if (!is_func) {
        add_sub(d, out);
    }
    return 0;
}

static const char *builtin(char c)
{
    switch (c) {
    case 'v': return "void";
    case 'w': return "wchar_t";
    case 'b': return "bool";
    case 'c': return "char";
    case 'a': return "signed char";
    case 'h': return "unsigned char";
    case 's': return "short";
    case 't': return "unsigned short";
    case 'i': return "int";
    case 'j': return "unsigned int";
    case 'l': return "long";
    case 'm': return "unsigned long";
    case 'x': return "long long";
    case 'y': return "unsigned long long";
    case 'n': return "__int128";
    case 'o': return "unsigned __int128";
    case 'f': return "float";
    case 'd': return "double";
    case 'e': return "long double";
    case 'g': return "__float128";
    case 'z': return "...";
    default: return NULL;
    }
}

static int parse_type(dm *d, char *out)
{
    out[0] = 0;
    if (d->err || !*d->p)
        return d->err = 1, -1;
    char c = *d->p;
    const char *b = builtin(c);
    if (b) {
        d->p++;
        put(out, "%s", b);
        return 0;
    }
    char inner[DM_LEN];
    switch (c) {
    case 'D': {
        d->p++;
        char c2 = *d->p++;
        const char *s = c2 == 'h' ? "half" : c2 == 'n' ? "decltype(nullptr)" : c2 == 's' ? "char16_t"
                      : c2 == 'i' ? "char32_t" : c2 == 'u' ? "char8_t" : NULL;
        if (c2 == 'F') { /* DF16_ */
            long bits = parse_num(d);
            if (*d->p++ != '_')
                return d->err = 1, -1;
            put(out, "_Float%ld", bits);
            return 0;
        }
        if (!s)
            return d->err = 1, -1;
        put(out, "%s", s);
        return 0;
    }
    case 'P': case 'R': case 'O':
        d->p++;
        if (parse_type(d, inner) < 0)
            return -1;
        put(out, "%s%s", inner, c == 'P' ? "*" : c == 'R' ? "&" : "&&");
        add_sub(d, out);
        return 0;
    case 'K': case 'V': case 'r': {
        d->p++;
        if (parse_type(d, inner) < 0)
            return -1;
        put(out, "%s %s", inner, c == 'K' ? "const" : c == 'V' ? "volatile" : "restrict");
        add_sub(d, out);
        return 0;
    }
    case 'A': {
        d->p++;
        long n = parse_num(d);
        if (d->err || *d->p++ != '_' || parse_type(d, inner) < 0)
            return d->err = 1, -1;
        put(out, "%s [%ld]", inner, n);
        add_sub(d, out);
        return 0;
    }
    case 'T': {
        d->p++;
        long idx = 0;
        if (*d->p != '_')
            idx = parse_num(d) + 1;
        if (*d->p++ != '_' || idx >= d->ntargs)
            return d->err = 1, -1;
        put(out, "%s", d->targs[idx]);
        add_sub(d, out);
        return 0;
    }
    case 'S':
        if (d->p[1] != 't') {
            if (substitution(d, out) < 0)
                return -1;
            if (*d->p == 'I') {
                char ta[DM_LEN];
                if (template_args(d, ta) < 0)
                    return -1;
                cat(out, ta);
                add_sub(d, out);
            }
            return 0;
        }
        return parse_name(d, out, 0, NULL);
    case 'N':
        return parse_name(d, out, 0, NULL);
    default:
        if (isdigit((unsigned char)c))
            return parse_name(d, out, 0, NULL);
        return d->err = 1, -1;
    }
}

/* <encoding> at d->p: a function name and its parameters; in a local name (_ZZ...E) the
 * parameters end at the 'E' before the entity. */
static int encoding(dm *d, char *out, size_t n, int base_only, int local)
{
    char name[DM_LEN], last[DM_LEN] = "";
    if (parse_name(d, name, 1, last) < 0 || d->err)
        return -1;
    int templated = name[strlen(name) - 1] == '>';
    if (templated) {
        memcpy(d->targs, d->cur_targs, sizeof d->targs);
        d->ntargs = d->ncur;
    }
    char ret[DM_LEN] = "";
    if (templated && *d->p && !(local && *d->p == 'E') && parse_type(d, ret) < 0)
        return -1;
    char params[1024] = "";
    size_t pl = 0;
    int np = 0;
    while (*d->p && !d->err && !(local && *d->p == 'E')) {
        char t[DM_LEN];
        if (parse_type(d, t) < 0)
            return -1;
        if (np == 0 && strcmp(t, "void") == 0 && (!*d->p || (local && *d->p == 'E')))
            break;
        pl += (size_t)snprintf(params + pl, sizeof params - pl, "%s%s", np ? ", " : "", t);
        if (pl >= sizeof params)
            return -1;
        np++;
    }
    if (d->err)
        return -1;
    if (base_only)
        snprintf(out, n, "%s", name);
    else
        snprintf(out, n, "%s%s%s(%s)", ret, ret[0] ? " " : "", name, params);
    return 0;
}

/* nvcc gives internal-linkage entities a per-file namespace "_INTERNAL_<hash>_<n>_<file>_<hash>";
 * it is noise to a reader (the file is known), so names show without it: "atomicAdd". */
static int demangle_raw(const char *mangled, char *out, size_t n, int base_only);

static void drop_internal_ns(char *out)
{
    char *p;
    while ((p = strstr(out, "_INTERNAL_")) != NULL) {
        char *e = strstr(p, "::");
        if (!e || (p > out && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
            return;
        memmove(p, e + 2, strlen(e + 2) + 1);
    }
}

int dbg_demangle(const char *mangled, char *out, size_t n, int base_only)
{
    int rc = demangle_raw(mangled, out, n, base_only);
    if (rc == 0)
        drop_internal_ns(out);
    return rc;
}

static int demangle_raw(const char *mangled, char *out, size_t n, int base_only)
{
    if (strncmp(mangled, "_Z", 2) != 0 || n == 0)
        return -1;
    dm *d = calloc(1, sizeof *d);
    if (!d)
        return -1;
    int rc = -1;
    if (mangled[2] == 'Z') {
        /* a local entity: _ZZ <function encoding> E <name> [_ <discriminator>], gdb's
           "scen(int*, float*, int)::sh" (a function's static or __shared__ variable) */
        d->p = mangled + 3;
        char fn[1024], ent[DM_LEN];
        if (encoding(d, fn, sizeof fn, base_only, 1) < 0 || *d->p != 'E')
            goto done;
        d->p++;
        if (source_name(d, ent) < 0 || d->err)
            goto done;
        if (*d->p == '_') { /* discriminator: _N or __N_ */
            d->p++;
            if (*d->p == '_')
                d->p++;
            while (isdigit((unsigned char)*d->p))
                d->p++;
            if (*d->p == '_')
                d->p++;
        }
        if (*d->p)
            goto done;
        snprintf(out, n, "%s::%s", fn, ent);
        rc = 0;
        goto done;
    }
    d->p = mangled + 2;
    if (encoding(d, out, n, base_only, 0) < 0)
        goto done;
    rc = 0;
done:
    free(d);
    return rc;
}
