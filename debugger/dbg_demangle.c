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

/* A name part longer than DM_LEN (cub's kernels) makes the whole name fail: a cut name would
 * be a wrong one. Per thread: the demangler runs in the program's threads too. */
static _Thread_local int dm_cut;

/* snprintf into a DM_LEN buffer. */
static void put(char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(char *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (vsnprintf(out, DM_LEN, fmt, ap) >= DM_LEN)
        dm_cut = 1;
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
    int noparams;             /* the last encoding had no parameter types (main) */
    char quals[16];           /* the function's cv-qualifiers (a const member function) */
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

/* <operator-name>: the two-letter codes of the ABI, as gdb shows them ("operator()"). */
static const char *const dm_ops[][2] = {
    {"nw", "new"}, {"na", "new[]"}, {"dl", "delete"}, {"da", "delete[]"}, {"ps", "+"},
    {"ng", "-"}, {"ad", "&"}, {"de", "*"}, {"co", "~"}, {"pl", "+"}, {"mi", "-"}, {"ml", "*"},
    {"dv", "/"}, {"rm", "%"}, {"an", "&"}, {"or", "|"}, {"eo", "^"}, {"aS", "="}, {"pL", "+="},
    {"mI", "-="}, {"mL", "*="}, {"dV", "/="}, {"rM", "%="}, {"aN", "&="}, {"oR", "|="},
    {"eO", "^="}, {"ls", "<<"}, {"rs", ">>"}, {"lS", "<<="}, {"rS", ">>="}, {"eq", "=="},
    {"ne", "!="}, {"lt", "<"}, {"gt", ">"}, {"le", "<="}, {"ge", ">="}, {"ss", "<=>"},
    {"nt", "!"}, {"aa", "&&"}, {"oo", "||"}, {"pp", "++"}, {"mm", "--"}, {"cm", ","},
    {"pm", "->*"}, {"pt", "->"}, {"cl", "()"}, {"ix", "[]"}, {"qu", "?"}};

/* <unqualified-name>: a source name, an operator, or (after a class name, prev) a constructor
 * or destructor, which are named after their class. */
static int unqualified_name(dm *d, char *out, const char *prev)
{
    if (isdigit((unsigned char)*d->p))
        return source_name(d, out);
    if ((d->p[0] == 'C' && d->p[1] >= '1' && d->p[1] <= '5') ||
        (d->p[0] == 'D' && d->p[1] >= '0' && d->p[1] <= '5')) {
        if (!prev || !prev[0])
            return d->err = 1, -1;
        size_t l = strcspn(prev, "<");   /* a class template's constructor: Vec<int>::Vec */
        put(out, "%s%.*s", d->p[0] == 'D' ? "~" : "", (int)l, prev);
        d->p += 2;
        return 0;
    }
    if (d->p[0] == 'c' && d->p[1] == 'v') {   /* conversion: operator TYPE */
        d->p += 2;
        char t[DM_LEN];
        if (parse_type(d, t) < 0)
            return -1;
        put(out, "operator %s", t);
        return 0;
    }
    for (size_t i = 0; d->p[0] && i < sizeof dm_ops / sizeof dm_ops[0]; i++)
        if (d->p[0] == dm_ops[i][0][0] && d->p[1] == dm_ops[i][0][1]) {
            const char *o = dm_ops[i][1];
            put(out, "operator%s%s", isalpha((unsigned char)o[0]) ? " " : "", o);
            d->p += 2;
            return 0;
        }
    return d->err = 1, -1;
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
    if ((size_t)snprintf(out + l, DM_LEN - l, "%s", s) >= DM_LEN - l)
        dm_cut = 1;
}

static int template_args(dm *d, char *out)
{
    d->p++; /* I */
    char args[DM_MAX][DM_LEN];
    int n = 0, shown = 0;
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
        } else if (*d->p == 'X' && d->p[1] == 'T') {
            /* an expression that is a template parameter of the function, e.g. the 8 of
               thread_block_tile<8, void> in tile_sum<8>'s parameter type (XT_E): its value;
               a parameter in an expression is not a substitution candidate */
            d->p += 2;
            long idx = 0;
            if (*d->p != '_')
                idx = parse_num(d) + 1;
            if (d->err || *d->p++ != '_' || *d->p++ != 'E' || idx >= d->ntargs)
                return d->err = 1, -1;
            put(a, "%s", d->targs[idx]);
        } else if (*d->p == 'J') {
            /* an argument pack: its arguments in the list, the whole pack one argument for
               T_ (a function parameter Dp T_ expands to them) */
            d->p++;
            int k = 0;
            while (*d->p && *d->p != 'E' && !d->err) {
                char t[DM_LEN];
                if (parse_type(d, t) < 0)
                    return -1;
                if (k++)
                    cat(a, ", ");
                cat(a, t);
            }
            if (*d->p++ != 'E')
                return d->err = 1, -1;
        } else if (*d->p == 'X') {
            return d->err = 1, -1;
        } else {
            parse_type(d, a);
        }
        if (n < DM_MAX)
            put(args[n++], "%s", a);
        if (!a[0])
            continue;   /* an empty pack */
        if (shown++)
            cat(out, ", ");
        cat(out, a);
    }
    if (*d->p != 'E')
        return d->err = 1, -1;
    d->p++;
    if (out[strlen(out) - 1] == '>' && shown)
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
        char q[16] = "";
        while (*d->p == 'K' || *d->p == 'V' || *d->p == 'r') {
            if (*d->p != 'r' && strlen(q) < 9)
                strcat(q, *d->p == 'K' ? " const" : " volatile");
            d->p++;
        }
        if (is_func)
            snprintf(d->quals, sizeof d->quals, "%s", q);
        int first = 1;
        char prev[DM_LEN] = "";
        while (*d->p && *d->p != 'E' && !d->err) {
            char comp[DM_LEN];
            if (*d->p == 'S') {
                if (substitution(d, comp) < 0)
                    return -1;
                put(out, "%s", comp);
                const char *lc = comp;   /* its last component names a constructor */
                for (int k = 0, dp = 0; comp[k]; k++) {
                    dp += (comp[k] == '<') - (comp[k] == '>');
                    if (!dp && comp[k] == ':' && comp[k + 1] == ':')
                        lc = comp + k + 2;
                }
                snprintf(prev, sizeof prev, "%s", lc);
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
            if (unqualified_name(d, comp, prev) < 0)
                return -1;
            snprintf(prev, sizeof prev, "%s", comp);
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
        if (unqualified_name(d, out, NULL) < 0)
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

/* Parameter types up to `end` (the 'E' of a function type or lambda, or the end), joined by
 * ", "; a lone void is no parameter, an empty pack adds nothing. */
static int param_list(dm *d, char *out, size_t n, int *count)
{
    size_t pl = 0;
    int np = 0;
    out[0] = 0;
    while (*d->p && *d->p != 'E' && !d->err) {
        char t[DM_LEN];
        if (parse_type(d, t) < 0)
            return -1;
        if (np == 0 && strcmp(t, "void") == 0 && (!*d->p || *d->p == 'E'))
            break;
        if (!t[0])
            continue;
        pl += (size_t)snprintf(out + pl, n - pl, "%s%s", np ? ", " : "", t);
        if (pl >= n)
            return d->err = 1, -1;
        np++;
    }
    if (count)
        *count = np;
    return d->err ? -1 : 0;
}

/* F [Y] <return type> <parameters> E */
static int func_type(dm *d, char *ret, char *params)
{
    d->p++; /* F */
    if (*d->p == 'Y')
        d->p++;
    if (parse_type(d, ret) < 0 || param_list(d, params, DM_LEN, NULL) < 0)
        return -1;
    if (*d->p++ != 'E')
        return d->err = 1, -1;
    return 0;
}

static int encoding(dm *d, char *out, size_t n, int base_only, int local);

/* A local entity: Z <function encoding> E <name | lambda Ul...E[N]_ | Ut[N]_> [discriminator]:
 * "main::{lambda(int)#1}", "kern(int*)::tmp" (a function without parameter types - main -
 * shows without parentheses, as c++filt does). */
static int local_name(dm *d, char *out)
{
    d->p++; /* Z */
    char fn[DM_LEN];
    char (*saved)[DM_LEN] = malloc(sizeof d->targs);
    int nt = d->ntargs;
    if (!saved)
        return d->err = 1, -1;
    memcpy(saved, d->targs, sizeof d->targs);
    int rc = encoding(d, fn, sizeof fn, 0, 1);
    /* the function's template arguments are its own; the enclosing name's come back */
    memcpy(d->targs, saved, sizeof d->targs);
    d->ntargs = nt;
    free(saved);
    if (rc < 0 || *d->p != 'E')
        return d->err = 1, -1;
    d->p++;
    size_t fl = strlen(fn);
    if (fl > 2 && !strcmp(fn + fl - 2, "()") && d->noparams)
        fn[fl - 2] = 0;
    char ent[DM_LEN];
    if (d->p[0] == 'U' && d->p[1] == 'l') {
        d->p += 2;
        char params[DM_LEN];
        int np = 0;
        if (param_list(d, params, sizeof params, &np) < 0 || *d->p++ != 'E')
            return d->err = 1, -1;
        long k = 1;
        if (*d->p != '_')
            k = parse_num(d) + 2;
        if (*d->p++ != '_')
            return d->err = 1, -1;
        put(ent, "{lambda(%s)#%ld}", params, k);
    } else if (d->p[0] == 'U' && d->p[1] == 't') {
        d->p += 2;
        long k = 1;
        if (*d->p != '_')
            k = parse_num(d) + 2;
        if (*d->p++ != '_')
            return d->err = 1, -1;
        put(ent, "{unnamed type#%ld}", k);
    } else if (source_name(d, ent) < 0) {
        return -1;
    }
    if (*d->p == '_') { /* discriminator: _N or __N_ */
        d->p++;
        if (*d->p == '_')
            d->p++;
        while (isdigit((unsigned char)*d->p))
            d->p++;
        if (*d->p == '_')
            d->p++;
    }
    put(out, "%s::%s", fn, ent);
    return 0;
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
        if (c2 == 'p') { /* a pack expansion: the pack's types (T_ of a J...E argument) */
            if (parse_type(d, out) < 0)
                return -1;
            add_sub(d, out);
            return 0;
        }
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
        if (*d->p == 'F') { /* a pointer (reference) to a function: int (*)(int) */
            char ret[DM_LEN], params[DM_LEN];
            if (func_type(d, ret, params) < 0)
                return -1;
            put(inner, "%s (%s)", ret, params);
            add_sub(d, inner);
            put(out, "%s (%s)(%s)", ret, c == 'P' ? "*" : c == 'R' ? "&" : "&&", params);
            add_sub(d, out);
            return 0;
        }
        if (parse_type(d, inner) < 0)
            return -1;
        put(out, "%s%s", inner, c == 'P' ? "*" : c == 'R' ? "&" : "&&");
        add_sub(d, out);
        return 0;
    case 'F': {
        char ret[DM_LEN], params[DM_LEN];
        if (func_type(d, ret, params) < 0)
            return -1;
        put(out, "%s (%s)", ret, params);
        add_sub(d, out);
        return 0;
    }
    case 'Z':
        if (local_name(d, out) < 0)
            return -1;
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
    d->quals[0] = 0;
    if (parse_name(d, name, 1, last) < 0 || d->err)
        return -1;
    char quals[16];
    snprintf(quals, sizeof quals, "%s", d->quals);
    int templated = name[strlen(name) - 1] == '>';
    if (templated) {
        memcpy(d->targs, d->cur_targs, sizeof d->targs);
        d->ntargs = d->ncur;
    }
    char ret[DM_LEN] = "";
    if (templated && *d->p && !(local && *d->p == 'E') && parse_type(d, ret) < 0)
        return -1;
    char params[1024] = "";
    d->noparams = !*d->p || (local && *d->p == 'E');
    if (!local) {
        /* the parameters run to the end; an 'E' among them is an error */
        if (param_list(d, params, sizeof params, NULL) < 0 || *d->p)
            return d->err = 1, -1;
    } else if (param_list(d, params, sizeof params, NULL) < 0) {
        return -1;
    }
    /* a template function's return type is not part of the name users see or type: gdb's
       names drop it ("tile_sum<8>(thread_block_tile<8, void>, int)", not "int tile_sum...") */
    int w;
    if (base_only || (!local && d->noparams && !templated))
        w = snprintf(out, n, "%s", name);   /* a variable has no parameter types: "ns::var" */
    else
        w = snprintf(out, n, "%s(%s)%s", name, params, quals);
    if (w < 0 || (size_t)w >= n)
        return d->err = 1, -1;
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
    dm_cut = 0;
    int rc = demangle_raw(mangled, out, n, base_only);
    if (rc == 0 && dm_cut)
        rc = -1;
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
        size_t fl = strlen(fn);
        if (fl > 2 && !strcmp(fn + fl - 2, "()") && d->noparams)
            fn[fl - 2] = 0;   /* main::x, as c++filt */
        int w = snprintf(out, n, "%s::%s", fn, ent);
        rc = w >= 0 && (size_t)w < n ? 0 : -1;
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
