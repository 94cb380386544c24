/* dbg_expr.c - expression lexer and recursive-descent parser (C operators, PTX registers, casts). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dbg_expr.h"

typedef enum { T_EOF, T_NUM, T_FNUM, T_IDENT, T_REG, T_DOLLAR, T_SPACE, T_OP } tkind;

typedef struct {
    tkind k;
    char text[128];
    uint64_t ival;
    double fval;
    ptx_type type;
    const char *pos;
} token;

typedef struct {
    const char *src, *p;
    token t;                  /* current token */
    int prev_operand;         /* previous token ends an operand (for % disambiguation) */
    char *err;
    size_t errn;
    int failed;
    int nest;                 /* recursion of parse_cond/parse_unary (bounded: the C stack) */
    dbg_type_oracle is_type;  /* whether a name is a type (C++ casts without struct), or NULL */
    void *tctx;
} parser;

static int perr(parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(parser *ps, const char *fmt, ...)
{
    if (ps->failed)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->err, ps->errn, fmt, ap);
    va_end(ap);
    ps->failed = 1;
    return -1;
}

static int syntax(parser *ps)
{
    if (ps->t.k == T_EOF)
        return perr(ps, "A syntax error in expression, near `'.");
    return perr(ps, "A syntax error in expression, near `%s'.", ps->t.pos);
}

static int is_ident_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* Integer literal type per C: decimal int, long; hex/octal int, unsigned, long, unsigned long. */
static ptx_type int_lit_type(uint64_t v, int hex, int u, int l)
{
    if (!u && !l && v <= INT32_MAX)
        return PTX_T_S32;
    if (!l && (u || hex) && v <= UINT32_MAX)
        return PTX_T_U32;
    if (!u && v <= INT64_MAX)
        return PTX_T_S64;
    return PTX_T_U64;
}

/* The end of a template argument list "<...>" (balanced, of names, numbers, commas, spaces,
 * "::", '*' and '&') that begins at p after spaces; NULL when there is none. */
static const char *template_end(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    if (*p != '<')
        return NULL;
    int depth = 0;
    for (; *p; p++) {
        if (*p == '<')
            depth++;
        else if (*p == '>' && --depth == 0)
            return p + 1;
        else if (!is_ident_char((unsigned char)*p) && !strchr(" \t,:*&", *p))
            return NULL;
    }
    return NULL;
}

static void next(parser *ps)
{
    token *t = &ps->t;
    int was_operand = t->k == T_NUM || t->k == T_FNUM || t->k == T_IDENT || t->k == T_REG ||
                      t->k == T_DOLLAR || (t->k == T_OP && (!strcmp(t->text, ")") ||
                                                            !strcmp(t->text, "]")));
    memset(t, 0, sizeof *t);
    while (isspace((unsigned char)*ps->p))
        ps->p++;
    const char *p = ps->p;
    t->pos = p;
    if (!*p) {
        t->k = T_EOF;
        return;
    }
    if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
        /* 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX: PTX float bit patterns */
        if (p[0] == '0' && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D') &&
            isxdigit((unsigned char)p[2])) {
            int dbl = p[1] == 'd' || p[1] == 'D';
            char *end;
            uint64_t bits = strtoull(p + 2, &end, 16);
            ps->p = end;
            t->k = T_FNUM;
            if (dbl) {
                memcpy(&t->fval, &bits, 8);
                t->type = PTX_T_F64;
            } else {
                uint32_t b32 = (uint32_t)bits;
                float f;
                memcpy(&f, &b32, 4);
                t->fval = f;
                t->type = PTX_T_F32;
            }
            return;
        }
        const char *q = p;
        int isfloat = 0, hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
        if (hex) {
            q += 2;
            while (isxdigit((unsigned char)*q))
                q++;
        } else {
            while (isdigit((unsigned char)*q) || *q == '.' ||
                   ((*q == 'e' || *q == 'E') && (isdigit((unsigned char)q[1]) ||
                                                 ((q[1] == '-' || q[1] == '+') &&
                                                  isdigit((unsigned char)q[2]))))) {
                if (*q == '.' || *q == 'e' || *q == 'E') {
                    isfloat = 1;
                    if (*q != '.')
                        q++;
                }
                q++;
            }
        }
        char buf[128];
        snprintf(buf, sizeof buf, "%.*s", (int)(q - p), p);
        if (isfloat) {
            t->k = T_FNUM;
            t->fval = strtod(buf, NULL);
            t->type = PTX_T_F64;
            if (*q == 'f' || *q == 'F') {
                q++;
                t->type = PTX_T_F32;
                t->fval = (float)t->fval;
            }
        } else {
            errno = 0;
            t->ival = strtoull(buf, NULL, 0);
            int u = 0, l = 0;
            while (*q == 'u' || *q == 'U' || *q == 'l' || *q == 'L') {
                if (*q == 'u' || *q == 'U')
                    u = 1;
                else
                    l = 1;
                q++;
            }
            t->k = T_NUM;
            t->type = int_lit_type(t->ival, hex || (buf[0] == '0' && buf[1]), u, l);
            if (errno == ERANGE) {
                ps->p = q;
                perr(ps, "Numeric constant too large.");
                return;
            }
        }
        if (is_ident_char((unsigned char)*q)) {
            ps->p = q;
            perr(ps, "Invalid number \"%.*s\".", (int)(strcspn(p, " \t)]+-*/") ), p);
            return;
        }
        snprintf(t->text, sizeof t->text, "%.*s", (int)(q - p), p);
        ps->p = q;
        return;
    }
    if (isalpha((unsigned char)*p) || *p == '_') {
        const char *q = p;
        while (is_ident_char((unsigned char)*q))
            q++;
        /* C++ names: "ns::name" is one name, and "name<ARGS>" too when the oracle knows it as
           a type (thread_block_tile<8U,void>; "a < b" stays a comparison) */
        while (q[0] == ':' && q[1] == ':' && (isalpha((unsigned char)q[2]) || q[2] == '_')) {
            q += 2;
            while (is_ident_char((unsigned char)*q))
                q++;
        }
        const char *tq = template_end(q);
        if (tq && ps->is_type && tq - p < (long)sizeof t->text) {
            char name[sizeof t->text];
            snprintf(name, sizeof name, "%.*s", (int)(tq - p), p);
            if (ps->is_type(ps->tctx, name))
                q = tq;
        }
        t->k = T_IDENT;
        snprintf(t->text, sizeof t->text, "%.*s", (int)(q - p), p);
        ps->p = q;
        return;
    }
    if (*p == '%' && !was_operand && (isalpha((unsigned char)p[1]) || p[1] == '_')) {
        const char *q = p + 1;
        while (is_ident_char((unsigned char)*q))
            q++;
        /* component: %tid.x, %ctaid.y, %r1.x is not a thing but harmless */
        if (*q == '.' && strchr("xyzw", q[1]) && q[1] && !is_ident_char((unsigned char)q[2]))
            q += 2;
        t->k = T_REG;
        snprintf(t->text, sizeof t->text, "%.*s", (int)(q - p), p);
        ps->p = q;
        return;
    }
    if (*p == '$') {
        const char *q = p + 1;
        if (*q == '$') {
            q++;
            while (isdigit((unsigned char)*q))
                q++;
        } else {
            while (is_ident_char((unsigned char)*q) && *q != '$')
                q++;
        }
        t->k = T_DOLLAR;
        snprintf(t->text, sizeof t->text, "%.*s", (int)(q - p - 1), p + 1);
        ps->p = q;
        return;
    }
    if (*p == '@' && was_operand) { /* gdb's artificial array: VALUE@COUNT */
        t->k = T_OP;
        snprintf(t->text, sizeof t->text, "@");
        ps->p = p + 1;
        return;
    }
    if (*p == '@') {
        const char *q = p + 1;
        while (isalpha((unsigned char)*q))
            q++;
        t->k = T_SPACE;
        snprintf(t->text, sizeof t->text, "%.*s", (int)(q - p - 1), p + 1);
        ps->p = q;
        return;
    }
    static const char *ops[] = {"->", "<<=", ">>=", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
                                "+", "-", "*", "/", "%", "<", ">", "&", "|", "^", "!", "~",
                                "(", ")", "[", "]", "?", ":", "=", ".", ",", "{", "}", NULL};
    for (int i = 0; ops[i]; i++) {
        size_t l = strlen(ops[i]);
        if (strncmp(p, ops[i], l) == 0) {
            t->k = T_OP;
            snprintf(t->text, sizeof t->text, "%s", ops[i]);
            ps->p = p + l;
            return;
        }
    }
    ps->p = p + 1;
    perr(ps, "Invalid character '%c' in expression.", *p);
}

static const char too_deep[] = "Expression nested too deeply.";

/* Enter one level of parser recursion; -1 (message set) beyond DBG_EXPR_MAX_DEPTH. Every
 * recursive cycle of the grammar goes through parse_cond or parse_unary, which count. */
static int enter(parser *ps)
{
    if (++ps->nest > DBG_EXPR_MAX_DEPTH)
        return perr(ps, "%s", too_deep);
    return 0;
}

static int is_op(parser *ps, const char *op)
{
    return ps->t.k == T_OP && strcmp(ps->t.text, op) == 0;
}

static int depth_of(const dbg_expr *e) { return e ? e->depth : 0; }

/* A node over a and b (ownership taken; both freed on failure). Trees deeper than
 * DBG_EXPR_MAX_DEPTH fail with too_deep in ps (left-nested chains like 1+1+...+1 are built
 * without recursion, so the parser's own count does not bound them). */
static dbg_expr *node_ps(parser *ps, dbg_exop op, dbg_expr *a, dbg_expr *b)
{
    int d = 1 + (depth_of(a) > depth_of(b) ? depth_of(a) : depth_of(b));
    dbg_expr *e = d > DBG_EXPR_MAX_DEPTH ? NULL : calloc(1, sizeof *e);
    if (!e) {
        if (d > DBG_EXPR_MAX_DEPTH && ps)
            perr(ps, "%s", too_deep);
        dbg_expr_free(a);
        dbg_expr_free(b);
        return NULL;
    }
    e->op = op;
    e->depth = d;
    e->a = a;
    e->b = b;
    return e;
}
#define node(op, a, b) node_ps(ps, op, a, b)

void dbg_expr_free(dbg_expr *e)
{
    if (!e)
        return;
    dbg_expr_free(e->a);
    dbg_expr_free(e->b);
    dbg_expr_free(e->c);
    free(e->name);
    free(e->tname);
    free(e);
}

ptx_space dbg_space_from_name(const char *s)
{
    if (!strcmp(s, "shared"))
        return PTX_SPACE_SHARED;
    if (!strcmp(s, "global"))
        return PTX_SPACE_GLOBAL;
    if (!strcmp(s, "local"))
        return PTX_SPACE_LOCAL;
    if (!strcmp(s, "param") || !strcmp(s, "parameter"))
        return PTX_SPACE_PARAM;
    if (!strcmp(s, "const") || !strcmp(s, "constant"))
        return PTX_SPACE_CONST;
    if (!strcmp(s, "generic"))
        return PTX_SPACE_GENERIC;
    return PTX_SPACE_NONE;
}

static int is_type_word(const char *w)
{
    static const char *words[] = {"const", "volatile", "unsigned", "signed", "char", "short",
                                  "int", "long", "float", "double", "void", "bool", "half",
                                  "__half", NULL};
    for (int i = 0; words[i]; i++)
        if (!strcmp(w, words[i]))
            return 1;
    return dbg_type_from_c(w) != PTX_T_NONE;
}

/* Append " word" to a type-name buffer of 128 bytes; -1 when it does not fit. */
static int append_word(char *words, const char *w)
{
    size_t l = strlen(words), wl = strlen(w);
    if (l + wl + 2 > 128)
        return -1;
    if (l)
        words[l++] = ' ';
    memcpy(words + l, w, wl + 1);
    return 0;
}

static dbg_expr *parse_expr(parser *ps);
static dbg_expr *parse_assign(parser *ps);
static dbg_expr *parse_unary(parser *ps);

static int is_tag_word(const char *w)
{
    return !strcmp(w, "struct") || !strcmp(w, "union") || !strcmp(w, "enum") ||
           !strcmp(w, "class");
}

/* Whether the current token can only begin an operand (never a binary operator). */
static int operand_start(parser *ps)
{
    return ps->t.k == T_IDENT || ps->t.k == T_NUM || ps->t.k == T_FNUM || ps->t.k == T_REG ||
           ps->t.k == T_DOLLAR || is_op(ps, "(") || is_op(ps, "!") || is_op(ps, "~");
}

/* Whether the tokens after '(' (or "sizeof(") begin a type: a C type word, an address space,
 * struct/union/enum/class, a name followed by '*' or "(*" (which no expression is), or, as in
 * C++, a lone name in parentheses that an operand follows ("(Particle) q", "(float3)(v)"); one
 * that a unary-or-binary operator follows ("(T) -x", "(T) *p") is a cast when the caller's
 * oracle knows the name as a type. */
static int type_follows(parser *ps)
{
    if (ps->t.k == T_SPACE || (ps->t.k == T_IDENT && (is_type_word(ps->t.text) ||
                                                      is_tag_word(ps->t.text))))
        return 1;
    if (ps->t.k != T_IDENT)
        return 0;
    parser look = *ps;
    next(&look);
    if (is_op(&look, "*")) {
        next(&look);
        return is_op(&look, ")") || is_op(&look, "*") || is_op(&look, "}");
    }
    if (is_op(&look, ")")) {
        next(&look);
        if (operand_start(&look))
            return 1;
        if (ps->is_type && (is_op(&look, "-") || is_op(&look, "+") || is_op(&look, "*") ||
                            is_op(&look, "&")))
            return ps->is_type(ps->tctx, ps->t.text);
    }
    return 0;
}

typedef struct {
    char words[128];
    ptx_space space;
    int nptrs, ndims;
    uint64_t dims[4];
} typespec;

/* "[N]" array dimensions into ts; -1 (message set) when malformed. */
static int parse_dims(parser *ps, typespec *ts)
{
    while (is_op(ps, "[")) {
        next(ps);
        if (ps->t.k != T_NUM || ts->ndims == 4) {
            perr(ps, ts->ndims == 4 ? "Too many array dimensions." : "Array size expected.");
            return -1;
        }
        ts->dims[ts->ndims++] = ps->t.ival;
        next(ps);
        if (!is_op(ps, "]")) {
            syntax(ps);
            return -1;
        }
        next(ps);
    }
    return 0;
}

/* A type name up to (not including) `close` (")" or "}"): "[@space] [const] [struct] WORDS
 * [@space] *..." optionally "(*)" or "(**)" and "[N]...". */
static int parse_typespec(parser *ps, typespec *ts, const char *close)
{
    memset(ts, 0, sizeof *ts);
    ts->space = PTX_SPACE_NONE;
    int words = 0;
    for (;;) {
        if (ps->t.k == T_SPACE) {
            ts->space = dbg_space_from_name(ps->t.text);
            if (ts->space == PTX_SPACE_NONE) {
                perr(ps, "Unknown address space \"@%s\".", ps->t.text);
                return -1;
            }
        } else if (ps->t.k == T_IDENT && ts->nptrs == 0 &&
                   (is_type_word(ps->t.text) || is_tag_word(ps->t.text) || !words ||
                    is_tag_word(ts->words))) {
            if (strcmp(ps->t.text, "const") && strcmp(ps->t.text, "volatile")) {
                if (append_word(ts->words, ps->t.text) != 0) {
                    perr(ps, "Type name too long.");
                    return -1;
                }
                words++;
            }
        } else if (is_op(ps, "*")) {
            ts->nptrs++;
        } else {
            break;
        }
        next(ps);
    }
    if (is_op(ps, "(")) { /* abstract declarator: (*)[N] */
        next(ps);
        int inner = 0;
        while (is_op(ps, "*")) {
            inner++;
            next(ps);
        }
        if (!inner || !is_op(ps, ")")) {
            syntax(ps);
            return -1;
        }
        next(ps);
        if (!is_op(ps, "[")) {
            syntax(ps);
            return -1;
        }
        if (ts->nptrs) {
            perr(ps, "Pointers to arrays of pointers are not supported in casts.");
            return -1;
        }
        if (parse_dims(ps, ts) != 0)
            return -1;
        ts->nptrs = inner;
    } else if (parse_dims(ps, ts) != 0) {
        return -1;
    } else if (ts->ndims && ts->nptrs) {
        perr(ps, "Arrays of pointers are not supported in casts.");
        return -1;
    }
    if (!is_op(ps, close)) {
        syntax(ps);
        return -1;
    }
    if (!ts->words[0]) {
        perr(ps, "A type name is expected.");
        return -1;
    }
    next(ps);
    return 0;
}

/* Whether a type spec needs the evaluator's source-level types (not only the PTX scalar path). */
static int needs_dw(const typespec *ts)
{
    return ts->ndims || (dbg_type_from_c(ts->words) == PTX_T_NONE && strcmp(ts->words, "void"));
}

static dbg_expr *type_node(parser *ps, dbg_exop op, dbg_expr *operand, const typespec *ts)
{
    dbg_expr *e = node(op, operand, NULL);
    if (!e)
        return NULL;
    e->space = ts->space == PTX_SPACE_NONE ? PTX_SPACE_GENERIC : ts->space;
    ptx_type t = dbg_type_from_c(ts->words);
    e->type = ts->nptrs > 1 ? PTX_T_U64 : t;
    e->nptr = ts->nptrs > 0;
    if (needs_dw(ts) || op == EX_SIZEOF) {
        e->tname = strdup(ts->words);
        e->nptrs = ts->nptrs;
        e->ndims = ts->ndims;
        memcpy(e->dims, ts->dims, sizeof e->dims);
        if (!e->tname) {
            dbg_expr_free(e);
            return NULL;
        }
    }
    return e;
}

/* After '(' when a type follows: the type, ')' and the operand. */
static dbg_expr *parse_cast(parser *ps)
{
    typespec ts;
    if (parse_typespec(ps, &ts, ")") != 0)
        return NULL;
    if (!needs_dw(&ts) && !strcmp(ts.words, "void") && !ts.nptrs) {
        perr(ps, "Invalid cast.");
        return NULL;
    }
    /* "(f)(x)" is a cast when f is a type, else a call (refused when evaluated) */
    int call_form = is_op(ps, "(") && !ts.nptrs && !ts.ndims && !strchr(ts.words, ' ');
    dbg_expr *operand = parse_unary(ps);
    if (!operand)
        return NULL;
    dbg_expr *e = type_node(ps, EX_CAST, operand, &ts);
    if (!e)
        dbg_expr_free(operand);
    else
        e->call_form = call_form;
    return e;
}

/* gdb's message for NAME(ARGS): ptxdbg never runs device code on behalf of an expression. */
static void call_refused(parser *ps, const char *name)
{
    perr(ps, "%s%scalling functions is not supported: ptxdbg does not run device code from "
         "an expression.", name ? name : "", name ? "(...): " : "");
}

/* gdb's {TYPE} ADDR: the TYPE object at ADDR, *(TYPE *) ADDR. */
static dbg_expr *parse_brace(parser *ps)
{
    typespec ts;
    if (parse_typespec(ps, &ts, "}") != 0)
        return NULL;
    if (ts.nptrs == 4) {
        perr(ps, "Type too deep.");
        return NULL;
    }
    ts.nptrs++;
    dbg_expr *operand = parse_unary(ps);
    if (!operand)
        return NULL;
    dbg_expr *e = type_node(ps, EX_CAST, operand, &ts);
    if (!e) {
        dbg_expr_free(operand);
        return NULL;
    }
    dbg_expr *d = node(EX_DEREF, e, NULL);
    if (!d)
        dbg_expr_free(e);
    return d;
}

static dbg_expr *parse_primary(parser *ps)
{
    token t = ps->t;
    dbg_expr *e = NULL;
    switch (t.k) {
    case T_NUM:
        e = node(EX_INT, NULL, NULL);
        if (e) {
            e->ival = t.ival;
            e->type = t.type;
        }
        next(ps);
        return e;
    case T_FNUM:
        e = node(EX_FLOAT, NULL, NULL);
        if (e) {
            e->fval = t.fval;
            e->type = t.type;
        }
        next(ps);
        return e;
    case T_IDENT:
        if (!strcmp(t.text, "sizeof")) {
            next(ps);
            if (is_op(ps, "(")) {
                /* sizeof(TYPE): look ahead without consuming when it is an expression */
                parser save = *ps;
                next(ps);
                if (type_follows(ps)) {
                    typespec ts;
                    if (parse_typespec(ps, &ts, ")") != 0)
                        return NULL;
                    ptx_type ty = dbg_type_from_c(ts.words);
                    if (!needs_dw(&ts)) { /* a PTX scalar or a pointer: known now */
                        e = node(EX_INT, NULL, NULL);
                        if (e) {
                            e->type = PTX_T_U64;
                            e->ival = ts.nptrs ? 8 : (uint64_t)(ty == PTX_T_PRED ? 1
                                                                : ptx_type_bits(ty) / 8);
                        }
                        return e;
                    }
                    return type_node(ps, EX_SIZEOF, NULL, &ts);
                }
                *ps = save;
            }
            dbg_expr *a = parse_unary(ps);
            return a ? node(EX_SIZEOF, a, NULL) : NULL;
        }
        /* fallthrough */
    case T_REG:
    case T_DOLLAR:
        e = node(t.k == T_REG ? EX_REG : t.k == T_IDENT ? EX_IDENT : EX_DOLLAR, NULL, NULL);
        if (e && !(e->name = strdup(t.text))) {
            free(e);
            e = NULL;
        }
        next(ps);
        return e;
    case T_OP:
        if (!strcmp(t.text, "{")) {
            next(ps);
            return parse_brace(ps);
        }
        if (!strcmp(t.text, "(")) {
            next(ps);
            if (type_follows(ps))
                return parse_cast(ps);
            e = parse_expr(ps);
            if (!e)
                return NULL;
            if (!is_op(ps, ")")) {
                dbg_expr_free(e);
                syntax(ps);
                return NULL;
            }
            next(ps);
            return e;
        }
        /* fallthrough */
    default:
        syntax(ps);
        return NULL;
    }
}

static dbg_expr *parse_postfix(parser *ps)
{
    dbg_expr *e = parse_primary(ps);
    while (e && !ps->failed) {
        if (is_op(ps, "(")) { /* a call */
            call_refused(ps, e->op == EX_IDENT ? e->name : NULL);
            break;
        }
        if (is_op(ps, "[")) {
            next(ps);
            dbg_expr *idx = parse_expr(ps);
            if (!idx || !is_op(ps, "]")) {
                dbg_expr_free(e);
                dbg_expr_free(idx);
                syntax(ps);
                return NULL;
            }
            next(ps);
            e = node(EX_INDEX, e, idx);
        } else if (is_op(ps, ".") || is_op(ps, "->")) {
            if (is_op(ps, "->")) {
                e = node(EX_DEREF, e, NULL);
                if (!e)
                    return NULL;
            }
            next(ps);
            if (ps->t.k != T_IDENT) {
                dbg_expr_free(e);
                syntax(ps);
                return NULL;
            }
            dbg_expr *m = node(EX_MEMBER, e, NULL);
            if (m && !(m->name = strdup(ps->t.text))) {
                dbg_expr_free(m);
                m = NULL;
            }
            e = m;
            next(ps);
        } else {
            break;
        }
    }
    if (ps->failed) {
        dbg_expr_free(e);
        return NULL;
    }
    return e;
}

static dbg_expr *parse_unary_in(parser *ps)
{
    static const struct { const char *op; dbg_exop ex; } un[] = {
        {"-", EX_NEG}, {"+", EX_POS}, {"!", EX_NOT}, {"~", EX_BITNOT}, {"*", EX_DEREF},
        {"&", EX_ADDR}};
    if (ps->t.k == T_OP)
        for (size_t i = 0; i < sizeof un / sizeof un[0]; i++)
            if (!strcmp(ps->t.text, un[i].op)) {
                next(ps);
                dbg_expr *a = parse_unary(ps);
                return a ? node(un[i].ex, a, NULL) : NULL;
            }
    return parse_postfix(ps);
}

static dbg_expr *parse_unary(parser *ps)
{
    dbg_expr *e = enter(ps) == 0 ? parse_unary_in(ps) : NULL;
    ps->nest--;
    return e;
}

/* Binary levels, loosest first. */
static const struct { const char *op; dbg_exop ex; int level; } binops[] = {
    {"||", EX_LOR, 0}, {"&&", EX_LAND, 1}, {"|", EX_BOR, 2}, {"^", EX_BXOR, 3},
    {"&", EX_BAND, 4}, {"==", EX_EQ, 5}, {"!=", EX_NE, 5}, {"<", EX_LT, 6}, {">", EX_GT, 6},
    {"<=", EX_LE, 6}, {">=", EX_GE, 6}, {"<<", EX_SHL, 7}, {">>", EX_SHR, 7},
    {"@", EX_ARRAY, 8},  /* gdb: '@' binds tighter than shifts, looser than + and - */
    {"+", EX_ADD, 9}, {"-", EX_SUB, 9}, {"*", EX_MUL, 10}, {"/", EX_DIV, 10}, {"%", EX_MOD, 10}};
#define NLEVELS 11

static dbg_expr *parse_binary(parser *ps, int level)
{
    if (level == NLEVELS)
        return parse_unary(ps);
    dbg_expr *e = parse_binary(ps, level + 1);
    while (e && ps->t.k == T_OP) {
        int found = -1;
        for (size_t i = 0; i < sizeof binops / sizeof binops[0]; i++)
            if (binops[i].level == level && !strcmp(ps->t.text, binops[i].op))
                found = (int)i;
        if (found < 0)
            break;
        next(ps);
        dbg_expr *b = parse_binary(ps, level + 1);
        if (!b) {
            dbg_expr_free(e);
            return NULL;
        }
        e = node(binops[found].ex, e, b);
    }
    return e;
}

static dbg_expr *parse_cond_in(parser *ps);

static dbg_expr *parse_cond(parser *ps)
{
    dbg_expr *e = enter(ps) == 0 ? parse_cond_in(ps) : NULL;
    ps->nest--;
    return e;
}

static dbg_expr *parse_cond_in(parser *ps)
{
    dbg_expr *e = parse_binary(ps, 0);
    if (e && is_op(ps, "?")) {
        next(ps);
        dbg_expr *b = parse_expr(ps);
        if (!b || !is_op(ps, ":")) {
            dbg_expr_free(e);
            dbg_expr_free(b);
            syntax(ps);
            return NULL;
        }
        next(ps);
        dbg_expr *c = parse_cond(ps);
        if (!c) {
            dbg_expr_free(e);
            dbg_expr_free(b);
            return NULL;
        }
        dbg_expr *n = node(EX_COND, e, b);
        if (n && c->depth >= n->depth) {
            n->depth = c->depth + 1;
            if (n->depth > DBG_EXPR_MAX_DEPTH) {
                dbg_expr_free(n);
                n = NULL;
                perr(ps, "%s", too_deep);
            }
        }
        if (n)
            n->c = c;
        else
            dbg_expr_free(c);
        e = n;
    }
    return e;
}

static dbg_expr *parse_assign(parser *ps)
{
    dbg_expr *e = parse_cond(ps);
    if (e && is_op(ps, "=")) {
        next(ps);
        dbg_expr *b = parse_assign(ps);
        if (!b) {
            dbg_expr_free(e);
            return NULL;
        }
        e = node(EX_ASSIGN, e, b);
    }
    return e;
}

static dbg_expr *parse_expr(parser *ps) { return parse_assign(ps); }

dbg_expr *dbg_expr_parse(const char *text, char *err, size_t n)
{
    return dbg_expr_parse_typed(text, NULL, NULL, err, n);
}

dbg_expr *dbg_expr_parse_typed(const char *text, dbg_type_oracle is_type, void *tctx, char *err,
                               size_t n)
{
    parser ps;
    memset(&ps, 0, sizeof ps);
    ps.is_type = is_type;
    ps.tctx = tctx;
    ps.src = ps.p = text;
    ps.err = err;
    ps.errn = n;
    if (n)
        err[0] = 0;
    next(&ps);
    if (ps.t.k == T_EOF && !ps.failed) {
        snprintf(err, n, "Argument required (expression to compute).");
        return NULL;
    }
    dbg_expr *e = ps.failed ? NULL : parse_expr(&ps);
    if (e && !ps.failed && ps.t.k != T_EOF)
        syntax(&ps);
    if (ps.failed) {
        dbg_expr_free(e);
        return NULL;
    }
    if (!e && n && !err[0])
        snprintf(err, n, "Out of memory.");
    return e;
}
