/* ptx_parse.c - PTX parser: module directives, functions, declarations, scopes; ptx_parse(). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fileck.h"
#include "ptx_lex.h"

/* ---- errors -------------------------------------------------------------------------------- */
static void vperr(ptx_parser *p, int line, int col, const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    ptx_format_error(p->err, p->path, p->lx.text, (size_t)(p->lx.end - p->lx.text), line, col,
                     msg);
}

void ptx_perr(ptx_parser *p, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vperr(p, line, col, fmt, ap);
    va_end(ap);
    longjmp(p->jb, 1);
}

void ptx_perr_tok(ptx_parser *p, const ptx_token *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (t->kind == PTX_TK_ERROR)
        ptx_perr(p, t->line, t->col, "%s", t->msg);
    vperr(p, t->line, t->col, fmt, ap);
    va_end(ap);
    longjmp(p->jb, 1);
}

/* ---- tokens -------------------------------------------------------------------------------- */
ptx_token *ptx_peek(ptx_parser *p, int k)
{
    while (p->nla <= k)
        ptx_lex_next(&p->lx, &p->la[p->nla++]);
    return &p->la[k];
}

void ptx_advance(ptx_parser *p)
{
    if (p->nla == 0)
        ptx_peek(p, 0);
    memmove(&p->la[0], &p->la[1], sizeof p->la[0] * (size_t)(p->nla - 1));
    p->nla--;
    ptx_token *t = ptx_peek(p, 0);
    if (t->kind == PTX_TK_ERROR)
        ptx_perr(p, t->line, t->col, "%s", t->msg);
}

int ptx_is_punct(ptx_parser *p, int k, int c)
{
    ptx_token *t = ptx_peek(p, k);
    return t->kind == PTX_TK_PUNCT && t->punct == c;
}

int ptx_is_dir(ptx_parser *p, int k, const char *dir)
{
    ptx_token *t = ptx_peek(p, k);
    size_t n = strlen(dir);
    return t->kind == PTX_TK_DIR && (size_t)t->len == n && memcmp(t->p, dir, n) == 0;
}

static int tok_is(const ptx_token *t, const char *s)
{
    size_t n = strlen(s);
    return (size_t)t->len == n && memcmp(t->p, s, n) == 0;
}

/* punct: the punctuation character c (an error naming `what` otherwise) */
void ptx_expect_punct(ptx_parser *p, int c, const char *what)
{
    ptx_token *t = ptx_peek(p, 0);
    if (t->kind != PTX_TK_PUNCT || t->punct != c) {
        char b[64];
        ptx_perr_tok(p, t, "expected %s, found %s", what, ptx_tok_desc(t, b, sizeof b));
    }
    ptx_advance(p);
}

/* ';' */
static void expect_semi(ptx_parser *p)
{
    ptx_expect_punct(p, ';', "';'");
}

/* name: IDENT */
static ptx_token expect_ident(ptx_parser *p, const char *what)
{
    ptx_token *t = ptx_peek(p, 0);
    if (t->kind != PTX_TK_IDENT) {
        char b[64];
        ptx_perr_tok(p, t, "expected %s, found %s", what, ptx_tok_desc(t, b, sizeof b));
    }
    ptx_token r = *t;
    ptx_advance(p);
    return r;
}

/* A non-negative integer constant (a constant expression). */
static uint64_t expect_uint(ptx_parser *p, const char *what, uint64_t max)
{
    ptx_token at = *ptx_peek(p, 0);
    int u = 0;
    if (at.kind != PTX_TK_INT && !ptx_tok_is_warp_sz(&at) &&
        !(at.kind == PTX_TK_PUNCT && (at.punct == '(' || at.punct == '-' || at.punct == '~'))) {
        char b[64];
        ptx_perr_tok(p, &at, "expected %s, found %s", what, ptx_tok_desc(&at, b, sizeof b));
    }
    int64_t v = ptx_parse_expr(p, &u);
    if (v < 0 || (uint64_t)v > max)
        ptx_perr(p, at.line, at.col, "%s out of range", what);
    return (uint64_t)v;
}

/* ---- memory -------------------------------------------------------------------------------- */
void *ptx_alloc(ptx_parser *p, size_t n)
{
    void *r = ptx_arena_alloc(p->arena, n);
    if (!r) {
        ptx_token *t = &p->la[0];
        ptx_perr(p, t->line, t->col, "out of memory");
    }
    return r;
}

void ptx_grow(ptx_parser *p, void **arr, int *cap, int n, size_t elem)
{
    if (n < *cap)
        return;
    if (*cap > (1 << 29))
        ptx_perr(p, p->la[0].line, p->la[0].col, "too many items");
    int nc = *cap ? *cap * 2 : 8;
    void *na = ptx_alloc(p, (size_t)nc * elem);
    if (n)
        memcpy(na, *arr, (size_t)n * elem);
    *arr = na;
    *cap = nc;
}

void ptx_grow_implicit(ptx_parser *p, void **arr, int n, size_t elem)
{
    if (n == 0 || (n >= 8 && (n & (n - 1)) == 0)) {
        int cap = n;
        ptx_grow(p, arr, &cap, n, elem);
    }
}

const char *ptx_tok_intern(ptx_parser *p, const ptx_token *t)
{
    const char *s = ptx_intern_str(&p->in, t->p, (size_t)t->len);
    if (!s)
        ptx_perr(p, t->line, t->col, "out of memory");
    return s;
}

static const char *intern_cstr(ptx_parser *p, const char *s, size_t n)
{
    const char *r = ptx_intern_str(&p->in, s, n);
    if (!r)
        ptx_perr(p, p->la[0].line, p->la[0].col, "out of memory");
    return r;
}

/* ---- symbols and scopes ---------------------------------------------------------------------
 * Scopes are a shadow stack: each interned name holds its innermost binding and the depth it
 * was made at; declaring pushes the previous binding on the undo stack, leaving a scope pops
 * back to the mark taken when it was entered. Lookup is one pointer load. */
ptx_sym *ptx_new_sym(ptx_parser *p, ptx_symkind kind, const char *name, const ptx_token *at)
{
    ptx_sym *s = ptx_alloc(p, sizeof *s);
    s->kind = kind;
    s->name = name;
    s->vec = 1;
    s->section = -1;
    s->index = -1;
    s->owner = p->fn;
    if (at) {
        s->line = at->line;
        s->col = at->col;
    }
    return s;
}

void ptx_declare(ptx_parser *p, ptx_sym *s, const ptx_token *at)
{
    ptx_name *n = PTX_NAME(s->name);
    if (n->bind && n->depth == p->depth) {
        if (at)
            ptx_perr(p, at->line, at->col, "duplicate declaration of '%s' (first declared at line %d)",
                     s->name, n->bind->line);
        ptx_perr(p, s->line, s->col, "duplicate declaration of '%s'", s->name);
    }
    if (p->nundo >= p->capundo)
        ptx_grow(p, (void **)&p->undo, &p->capundo, p->nundo, sizeof *p->undo);
    p->undo[p->nundo++] = (ptx_undo){n, n->bind, n->depth};
    n->bind = s;
    n->depth = p->depth;
}

static int scope_enter(ptx_parser *p)
{
    p->depth++;
    return p->nundo;
}

static void scope_leave(ptx_parser *p, int mark)
{
    while (p->nundo > mark) {
        ptx_undo *u = &p->undo[--p->nundo];
        u->name->bind = u->old;
        u->name->depth = u->olddepth;
    }
    p->depth--;
}

ptx_sym *ptx_lookup(ptx_parser *p, const char *name)
{
    ptx_name *n = PTX_NAME(name);
    if (n->bind)
        return n->bind;
    if (p->fn && n->label_gen == p->label_gen && n->label)
        return n->label;
    return NULL;
}

/* A code label used as an operand: the defined label, or a placeholder (index -1) filled in
 * when the label is defined; placeholders left at the end of the function are errors. */
ptx_sym *ptx_use_label(ptx_parser *p, const char *name, const ptx_token *at)
{
    ptx_name *n = PTX_NAME(name);
    if (n->label_gen == p->label_gen && n->label)
        return n->label;
    ptx_sym *s = ptx_new_sym(p, PTX_SYM_LABEL, name, at);
    n->label = s;
    n->label_gen = p->label_gen;
    PTX_PUSH(p, p->pending, p->npending, p->cappending, s);
    return s;
}

/* label: IDENT (defined at the next instruction of the function; the caller consumed ':') */
static void define_label(ptx_parser *p, const ptx_token *t, int add_to_labels)
{
    const char *name = ptx_tok_intern(p, t);
    ptx_name *n = PTX_NAME(name);
    ptx_sym *s;
    if (n->label_gen == p->label_gen && n->label) {
        s = n->label;
        if (s->index >= 0 || s->kind != PTX_SYM_LABEL)
            ptx_perr(p, t->line, t->col, "duplicate label '%s' (first defined at line %d)", name,
                     s->line);
    } else {
        s = ptx_new_sym(p, PTX_SYM_LABEL, name, t);
        n->label = s;
        n->label_gen = p->label_gen;
    }
    s->index = p->fn->ninsns;
    s->line = t->line;
    s->col = t->col;
    if (add_to_labels)
        PTX_PUSH(p, p->fn->labels, p->fn->nlabels, p->caplabels, s);
}

/* ---- state spaces and declarations ------------------------------------------------------ */
ptx_space ptx_space_from_dir(const char *d, int len)
{
    static const struct { const char *s; ptx_space sp; } tab[] = {
        {".reg", PTX_SPACE_REG}, {".sreg", PTX_SPACE_SREG}, {".const", PTX_SPACE_CONST},
        {".global", PTX_SPACE_GLOBAL}, {".local", PTX_SPACE_LOCAL},
        {".param", PTX_SPACE_PARAM}, {".param::entry", PTX_SPACE_PARAM},
        {".param::func", PTX_SPACE_PARAM}, {".shared", PTX_SPACE_SHARED},
        {".shared::cta", PTX_SPACE_SHARED}, {".shared::cluster", PTX_SPACE_SHARED_CLUSTER},
        {".tex", PTX_SPACE_TEX},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if ((int)strlen(tab[i].s) == len && memcmp(tab[i].s, d, (size_t)len) == 0)
            return tab[i].sp;
    return PTX_SPACE_NONE;
}

/* type: '.b8' | '.u16' | '.s32' | '.f64' | '.pred' | ...  (one token; PTX_T_NONE if none) */
static ptx_type tok_type(const ptx_token *t)
{
    if (t->kind != PTX_TK_DIR || t->len > 16)
        return PTX_T_NONE;
    char b[20];
    memcpy(b, t->p, (size_t)t->len);
    b[t->len] = 0;
    return ptx_type_from_name(b);
}

typedef struct {
    ptx_space space;
    ptx_type type;
    int vec, align;
    unsigned flags;
    ptx_space ptr_space;
    int ptr_align;
} decl_attrs;

/* attrs: { '.align' N | '.v2' | '.v4' | '.v8' | '.ptr' [space] ['.align' N] | type
 *        | '.attribute' '(' '.managed' | '.unified' ['(' N ',' N ')'] ')' } */
static void parse_attrs(ptx_parser *p, decl_attrs *a)
{
    for (;;) {
        ptx_token *t = ptx_peek(p, 0);
        if (t->kind != PTX_TK_DIR)
            return;
        ptx_token at = *t;
        ptx_type ty = tok_type(t);
        if (ty != PTX_T_NONE) {
            if (a->type != PTX_T_NONE)
                ptx_perr_tok(p, t, "more than one type in declaration");
            a->type = ty;
            ptx_advance(p);
        } else if (tok_is(t, ".align")) {
            ptx_advance(p);
            uint64_t v = expect_uint(p, "alignment", 1u << 20);
            if (v == 0 || (v & (v - 1)))
                ptx_perr(p, at.line, at.col, "alignment must be a power of two");
            if (a->ptr_space && !a->ptr_align)
                a->ptr_align = (int)v;
            else
                a->align = (int)v;
        } else if (tok_is(t, ".v2") || tok_is(t, ".v4") || tok_is(t, ".v8")) {
            if (a->vec > 1)
                ptx_perr_tok(p, t, "more than one vector size in declaration");
            a->vec = t->p[2] - '0';
            ptx_advance(p);
        } else if (tok_is(t, ".ptr")) {
            ptx_advance(p);
            a->ptr_space = PTX_SPACE_GENERIC;
            ptx_token *s = ptx_peek(p, 0);
            ptx_space sp = s->kind == PTX_TK_DIR ? ptx_space_from_dir(s->p, s->len) : PTX_SPACE_NONE;
            if (sp != PTX_SPACE_NONE) {
                if (sp != PTX_SPACE_CONST && sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_LOCAL &&
                    sp != PTX_SPACE_SHARED)
                    ptx_perr_tok(p, s, ".ptr space must be .const, .global, .local or .shared");
                a->ptr_space = sp;
                ptx_advance(p);
            }
        } else if (tok_is(t, ".attribute")) {
            ptx_advance(p);
            ptx_expect_punct(p, '(', "'('");
            for (;;) {
                ptx_token *d = ptx_peek(p, 0);
                if (tok_is(d, ".managed"))
                    a->flags |= PTX_ATTR_MANAGED;
                else if (tok_is(d, ".unified"))
                    a->flags |= PTX_ATTR_UNIFIED;
                else
                    ptx_perr_tok(p, d, "unknown attribute");
                ptx_advance(p);
                if (ptx_is_punct(p, 0, '(')) { /* .unified(uuid1, uuid2) */
                    ptx_advance(p);
                    int u;
                    ptx_parse_expr(p, &u);
                    ptx_expect_punct(p, ',', "','");
                    ptx_parse_expr(p, &u);
                    ptx_expect_punct(p, ')', "')'");
                }
                if (!ptx_is_punct(p, 0, ','))
                    break;
                ptx_advance(p);
            }
            ptx_expect_punct(p, ')', "')'");
        } else {
            return;
        }
    }
}

static uint64_t type_bytes(ptx_type t)
{
    int b = ptx_type_bits(t);
    return (uint64_t)(b + 7) / 8;
}

/* Compute s->size from type, vector and dimensions; error when too large. */
static void compute_size(ptx_parser *p, ptx_sym *s, const ptx_token *at)
{
    uint64_t n = type_bytes(s->type) * (uint64_t)s->vec;
    for (int d = 0; d < s->ndims; d++) {
        uint64_t k = s->dims[d];
        if (k && n > PTX_MAX_VAR_SIZE / k)
            ptx_perr(p, at->line, at->col, "variable '%s' is too large", s->name);
        n *= k;
    }
    if (n > PTX_MAX_VAR_SIZE)
        ptx_perr(p, at->line, at->col, "variable '%s' is too large", s->name);
    s->size = n;
}

/* dims: { '[' [expr] ']' } */
static void parse_dims(ptx_parser *p, ptx_sym *s)
{
    while (ptx_is_punct(p, 0, '[')) {
        ptx_token at = *ptx_peek(p, 0);
        if (s->ndims == 4)
            ptx_perr(p, at.line, at.col, "too many array dimensions");
        ptx_advance(p);
        uint64_t k = 0;
        if (ptx_is_punct(p, 0, ']')) {
            if (s->ndims > 0)
                ptx_perr(p, at.line, at.col, "only the first array dimension may be unsized");
        } else {
            k = expect_uint(p, "array dimension", PTX_MAX_VAR_SIZE);
            if (k == 0)
                ptx_perr(p, at.line, at.col, "array dimension must be positive");
        }
        s->dims[s->ndims++] = k;
        ptx_expect_punct(p, ']', "']'");
    }
}

static void apply_attrs(ptx_sym *s, const decl_attrs *a)
{
    s->space = a->space;
    s->type = a->type;
    s->vec = a->vec ? a->vec : 1;
    s->align = a->align;
    s->flags = a->flags;
    s->ptr_space = a->ptr_space;
    s->ptr_align = a->ptr_align;
}

/* Add a declared variable/register to the current function or the module. */
static void add_decl(ptx_parser *p, ptx_sym *s, int declare, const ptx_token *at)
{
    if (declare)
        ptx_declare(p, s, at);
    if (s->kind == PTX_SYM_REG) {
        s->index = p->fn->nregs;
        PTX_PUSH(p, p->fn->regs, p->fn->nregs, p->capregs, s);
    } else if (p->fn) {
        s->index = p->fn->nvars;
        PTX_PUSH(p, p->fn->vars, p->fn->nvars, p->capfvars, s);
    } else {
        s->index = p->m->nvars;
        PTX_PUSH(p, p->m->vars, p->m->nvars, p->capvars, s);
    }
}

/* var-decl: space attrs declarator { ',' declarator } ';'
 * declarator: name [ '<' N '>' ] dims [ '=' initializer ] */
static void parse_var_decl(ptx_parser *p, ptx_space space, unsigned flags)
{
    ptx_token sp = *ptx_peek(p, 0);
    ptx_advance(p); /* the space directive */
    decl_attrs a = {0};
    a.space = space;
    a.flags = flags;
    parse_attrs(p, &a);
    if (a.type == PTX_T_NONE)
        ptx_perr_tok(p, ptx_peek(p, 0), "expected a type in declaration");
    if (space == PTX_SPACE_REG && !p->fn)
        ptx_perr(p, sp.line, sp.col, ".reg declarations are only allowed inside functions");
    if (a.type == PTX_T_PRED && space != PTX_SPACE_REG)
        ptx_perr(p, sp.line, sp.col, ".pred is only allowed for registers");
    for (;;) {
        ptx_token nt = expect_ident(p, "a name");
        const char *name = ptx_tok_intern(p, &nt);
        if (ptx_is_punct(p, 0, '<')) {
            /* parameterized register names %r<N> */
            ptx_token lt = *ptx_peek(p, 0);
            if (space != PTX_SPACE_REG)
                ptx_perr(p, lt.line, lt.col, "'<N>' is only allowed in .reg declarations");
            ptx_advance(p);
            ptx_token *ct = ptx_peek(p, 0);
            if (ct->kind != PTX_TK_INT) {
                char b[64];
                ptx_perr_tok(p, ct, "expected a register count, found %s",
                             ptx_tok_desc(ct, b, sizeof b));
            }
            uint64_t cnt = ct->ival;
            ptx_advance(p);
            ptx_expect_punct(p, '>', "'>'");
            if (cnt > PTX_MAX_PARAM_REGS || p->nparam_regs + cnt > PTX_MAX_PARAM_REGS)
                ptx_perr(p, lt.line, lt.col, "too many registers (limit %d per module)",
                         PTX_MAX_PARAM_REGS);
            p->nparam_regs += cnt;
            char buf[300];
            if (nt.len > 256)
                ptx_perr(p, nt.line, nt.col, "register name too long");
            for (uint64_t i = 0; i < cnt; i++) {
                int n = snprintf(buf, sizeof buf, "%.*s%llu", nt.len, nt.p, (unsigned long long)i);
                ptx_sym *s = ptx_new_sym(p, PTX_SYM_REG, intern_cstr(p, buf, (size_t)n), &nt);
                apply_attrs(s, &a);
                s->size = type_bytes(a.type) * (uint64_t)s->vec;
                add_decl(p, s, 1, &nt);
            }
        } else {
            ptx_sym *s = ptx_new_sym(p, space == PTX_SPACE_REG ? PTX_SYM_REG : PTX_SYM_VAR, name,
                                     &nt);
            apply_attrs(s, &a);
            parse_dims(p, s);
            compute_size(p, s, &nt);
            add_decl(p, s, 1, &nt);
            if (ptx_is_punct(p, 0, '=')) {
                ptx_token eq = *ptx_peek(p, 0);
                if (space == PTX_SPACE_REG || space == PTX_SPACE_PARAM ||
                    space == PTX_SPACE_LOCAL || space == PTX_SPACE_SHARED ||
                    space == PTX_SPACE_SHARED_CLUSTER)
                    ptx_perr(p, eq.line, eq.col, "initializers are not allowed in %s space",
                             ptx_space_name(space));
                ptx_advance(p);
                ptx_parse_init(p, s);
            }
        }
        if (!ptx_is_punct(p, 0, ','))
            break;
        ptx_advance(p);
    }
    expect_semi(p);
}

/* param: ('.param' | '.reg') attrs name dims  (prototype parameters may be named `_`) */
static ptx_sym *parse_param(ptx_parser *p, int is_entry, int declare)
{
    ptx_token *t = ptx_peek(p, 0);
    ptx_space space = t->kind == PTX_TK_DIR ? ptx_space_from_dir(t->p, t->len) : PTX_SPACE_NONE;
    if (space != PTX_SPACE_PARAM && !(space == PTX_SPACE_REG && !is_entry))
        ptx_perr_tok(p, t, is_entry ? "expected '.param'" : "expected '.param' or '.reg'");
    ptx_advance(p);
    decl_attrs a = {0};
    a.space = space;
    parse_attrs(p, &a);
    if (a.type == PTX_T_NONE)
        ptx_perr_tok(p, ptx_peek(p, 0), "expected a type in parameter declaration");
    ptx_token nt = expect_ident(p, "a parameter name");
    ptx_sym *s = ptx_new_sym(p, space == PTX_SPACE_REG ? PTX_SYM_REG : PTX_SYM_VAR,
                             ptx_tok_intern(p, &nt), &nt);
    apply_attrs(s, &a);
    parse_dims(p, s);
    compute_size(p, s, &nt);
    if (declare && s->name != p->s_underscore)
        ptx_declare(p, s, &nt);
    return s;
}

/* param-list: '(' [ param { ',' param } ] ')' */
static void parse_param_list(ptx_parser *p, ptx_func *f, int rets, int declare)
{
    ptx_expect_punct(p, '(', "'('");
    int cap = 0;
    ptx_sym **list = NULL;
    int n = 0;
    if (!ptx_is_punct(p, 0, ')')) {
        for (;;) {
            ptx_sym *s = parse_param(p, f->is_entry, declare);
            s->index = n;
            PTX_PUSH(p, list, n, cap, s);
            if (!ptx_is_punct(p, 0, ','))
                break;
            ptx_advance(p);
        }
    }
    ptx_expect_punct(p, ')', "')'");
    if (rets) {
        f->rets = list;
        f->nrets = n;
    } else {
        f->params = list;
        f->nparams = n;
    }
}

/* N [',' N [',' N]] */
static void parse_dim3(ptx_parser *p, uint32_t d[3])
{
    d[0] = (uint32_t)expect_uint(p, "dimension", UINT32_MAX);
    d[1] = d[2] = 1;
    for (int i = 1; i < 3 && ptx_is_punct(p, 0, ','); i++) {
        ptx_advance(p);
        d[i] = (uint32_t)expect_uint(p, "dimension", UINT32_MAX);
    }
}

/* pragma: '.pragma' STRING { ',' STRING } ';'  (kept on `keep` when given) */
static void parse_pragma(ptx_parser *p, ptx_func *keep)
{
    ptx_advance(p); /* .pragma */
    for (;;) {
        ptx_token *s = ptx_peek(p, 0);
        if (s->kind != PTX_TK_STRING)
            ptx_perr_tok(p, s, "expected a string after .pragma");
        if (keep) {
            const char *str = intern_cstr(p, s->p + 1, (size_t)s->len - 2);
            PTX_PUSHI(p, keep->pragmas, keep->npragmas, str);
            /* nvcc marks a load of which only some bytes matter (a structure's padding) */
            if (p->depth >= 2 && !strncmp(str, "used_bytes_mask ", 16))
                p->used_mask = (uint32_t)strtoul(str + 16, NULL, 0);
        }
        ptx_advance(p);
        if (!ptx_is_punct(p, 0, ','))
            break;
        ptx_advance(p);
    }
    expect_semi(p);
}

/* perf-directive: .maxntid d3 | .reqntid d3 | .minnctapersm N | .maxnctapersm N | .maxnreg N
 *               | .noreturn | .explicitcluster | .reqnctapercluster d3 | .maxclusterrank N
 *               | .pragma strings ';' */
static int parse_perf(ptx_parser *p, ptx_func *f)
{
    ptx_token *t = ptx_peek(p, 0);
    if (t->kind != PTX_TK_DIR)
        return 0;
    if (tok_is(t, ".maxntid") || tok_is(t, ".reqntid")) {
        int is_max = tok_is(t, ".maxntid"), line = t->line, col = t->col;
        ptx_advance(p);
        uint32_t *d = is_max ? f->maxntid : f->reqntid;
        parse_dim3(p, d);
        /* a CTA has 1 to 1024 threads: a bound outside that can launch nothing */
        uint64_t n = (uint64_t)d[0] * d[1] * d[2];
        if (n == 0 || n > 1024)
            ptx_perr(p, line, col, "%s %u,%u,%u: a block has 1 to 1024 threads",
                     is_max ? ".maxntid" : ".reqntid", d[0], d[1], d[2]);
    } else if (tok_is(t, ".reqnctapercluster")) {
        ptx_advance(p);
        parse_dim3(p, f->reqnctapercluster);
    } else if (tok_is(t, ".minnctapersm") || tok_is(t, ".maxnctapersm")) {
        ptx_advance(p);
        f->minnctapersm = (uint32_t)expect_uint(p, "CTA count", UINT32_MAX);
    } else if (tok_is(t, ".maxnreg")) {
        ptx_advance(p);
        f->maxnreg = (uint32_t)expect_uint(p, "register count", UINT32_MAX);
    } else if (tok_is(t, ".maxclusterrank")) {
        ptx_advance(p);
        f->maxclusterrank = (uint32_t)expect_uint(p, "cluster rank", UINT32_MAX);
    } else if (tok_is(t, ".noreturn")) {
        ptx_advance(p);
        f->noreturn = 1;
    } else if (tok_is(t, ".explicitcluster") || tok_is(t, ".blocksareclusters")) {
        ptx_advance(p);
        f->explicitcluster = 1;
    } else if (tok_is(t, ".pragma")) {
        parse_pragma(p, f);
    } else {
        return 0;
    }
    return 1;
}

/* ---- function bodies ----------------------------------------------------------------------- */
static void parse_block(ptx_parser *p);

/* label ':' .callprototype [ '(' param ')' ] '_' '(' params ')' { perf } ';' */
static void parse_callprototype(ptx_parser *p, const ptx_token *lt)
{
    ptx_advance(p); /* .callprototype */
    ptx_func *outer = p->fn;
    ptx_func *f = ptx_alloc(p, sizeof *f);
    ptx_sym *s = ptx_new_sym(p, PTX_SYM_FUNC, ptx_tok_intern(p, lt), lt);
    s->func = f;
    f->sym = s;
    f->is_prototype = 1;
    f->line = lt->line;
    f->col = lt->col;
    if (ptx_is_punct(p, 0, '('))
        parse_param_list(p, f, 1, 0);
    ptx_token u = expect_ident(p, "'_'");
    if (u.len != 1 || u.p[0] != '_')
        ptx_perr(p, u.line, u.col, "expected '_' in .callprototype");
    if (ptx_is_punct(p, 0, '('))
        parse_param_list(p, f, 0, 0);
    while (parse_perf(p, f))
        ;
    expect_semi(p);
    f->end_line = lt->line;
    ptx_declare(p, s, lt);
    s->index = p->m->nfuncs;
    s->owner = outer;
    PTX_PUSH(p, p->m->funcs, p->m->nfuncs, p->capfuncs, f);
}

/* label ':' ( .branchtargets | .calltargets ) name { ',' name } ';' */
static void parse_targets(ptx_parser *p, const ptx_token *lt, int calls)
{
    ptx_advance(p);
    ptx_func *f = p->fn;
    ptx_sym *s;
    if (calls) {
        s = ptx_new_sym(p, PTX_SYM_LABEL, ptx_tok_intern(p, lt), lt);
        ptx_declare(p, s, lt);
    } else {
        define_label(p, lt, 0);
        s = PTX_NAME(ptx_tok_intern(p, lt))->label;
    }
    int n = 0, cap = 0;
    ptx_sym **items = NULL;
    for (;;) {
        ptx_token it = expect_ident(p, calls ? "a function name" : "a label");
        const char *name = ptx_tok_intern(p, &it);
        ptx_sym *x;
        if (calls) {
            x = ptx_lookup(p, name);
            if (!x || x->kind != PTX_SYM_FUNC)
                ptx_perr(p, it.line, it.col, "'%s' is not a declared function", name);
        } else {
            x = ptx_use_label(p, name, &it);
        }
        PTX_PUSH(p, items, n, cap, x);
        if (!ptx_is_punct(p, 0, ','))
            break;
        ptx_advance(p);
    }
    expect_semi(p);
    ptx_grow_implicit(p, (void **)&f->targets, f->ntargets, sizeof *f->targets);
    f->targets[f->ntargets].sym = s;
    f->targets[f->ntargets].items = items;
    f->targets[f->ntargets].nitems = n;
    f->ntargets++;
}

/* statement: label ':' [ .callprototype | .branchtargets | .calltargets ... ]
 *          | '{' { statement } '}' | var-decl | .loc | .pragma | [ '@' ['!'] pred ] insn */
static void parse_statement(ptx_parser *p)
{
    ptx_token *t = ptx_peek(p, 0);
    if (t->kind == PTX_TK_IDENT && ptx_is_punct(p, 1, ':')) {
        ptx_token lt = *t;
        ptx_advance(p);
        ptx_advance(p);
        if (ptx_is_dir(p, 0, ".callprototype"))
            parse_callprototype(p, &lt);
        else if (ptx_is_dir(p, 0, ".branchtargets"))
            parse_targets(p, &lt, 0);
        else if (ptx_is_dir(p, 0, ".calltargets"))
            parse_targets(p, &lt, 1);
        else
            define_label(p, &lt, 1);
        return;
    }
    if (t->kind == PTX_TK_PUNCT && t->punct == '{') {
        parse_block(p);
        return;
    }
    if (t->kind == PTX_TK_DIR) {
        ptx_space sp = ptx_space_from_dir(t->p, t->len);
        if (sp != PTX_SPACE_NONE && sp != PTX_SPACE_TEX) {
            parse_var_decl(p, sp, 0);
            return;
        }
        if (tok_is(t, ".loc")) {
            ptx_parse_loc(p);
            return;
        }
        if (tok_is(t, ".pragma")) {
            parse_pragma(p, p->fn);
            return;
        }
        ptx_perr_tok(p, t, "unexpected directive '%.*s' in function body", t->len, t->p);
    }
    if (t->kind == PTX_TK_IDENT || (t->kind == PTX_TK_PUNCT && t->punct == '@')) {
        ptx_parse_insn(p);
        return;
    }
    char b[64];
    ptx_perr_tok(p, t, "expected an instruction, found %s", ptx_tok_desc(t, b, sizeof b));
}

/* block: '{' { statement } '}' */
static void parse_block(ptx_parser *p)
{
    ptx_token open = *ptx_peek(p, 0);
    ptx_advance(p);
    if (++p->nest > PTX_MAX_NEST)
        ptx_perr(p, open.line, open.col, "blocks nested too deeply");
    int mark = scope_enter(p);
    for (;;) {
        ptx_token *t = ptx_peek(p, 0);
        if (t->kind == PTX_TK_EOF)
            ptx_perr(p, open.line, open.col, "unterminated block: missing '}'");
        if (t->kind == PTX_TK_PUNCT && t->punct == '}')
            break;
        parse_statement(p);
    }
    p->fn->end_line = ptx_peek(p, 0)->line;
    ptx_advance(p);
    scope_leave(p, mark);
    p->nest--;
}

/* ---- functions ----------------------------------------------------------------------------- */
/* entry: '.entry' name [ param-list ] { perf } ( block | ';' )
 * func:  '.func' [ param-list ] name [ param-list ] { perf } ( block | ';' ) */
static void parse_function(ptx_parser *p, unsigned flags)
{
    ptx_token kw = *ptx_peek(p, 0);
    int is_entry = tok_is(&kw, ".entry");
    ptx_advance(p);
    ptx_func tmp = {0};
    tmp.is_entry = is_entry;
    ptx_func *saved = p->fn;
    p->fn = &tmp; /* owner of parameter syms is fixed below */
    int mark = scope_enter(p);
    if (!is_entry && ptx_is_punct(p, 0, '('))
        parse_param_list(p, &tmp, 1, 1);
    ptx_token nt = expect_ident(p, "a function name");
    const char *name = ptx_tok_intern(p, &nt);
    if (ptx_is_punct(p, 0, '('))
        parse_param_list(p, &tmp, 0, 1);
    while (parse_perf(p, &tmp))
        ;
    int has_body = ptx_is_punct(p, 0, '{');
    /* find or create the function (a definition may follow a declaration) */
    ptx_name *n = PTX_NAME(name);
    ptx_func *f = NULL;
    if (n->bind && n->depth == 1) {
        ptx_sym *old = n->bind;
        if (old->kind != PTX_SYM_FUNC || old->func->is_prototype)
            ptx_perr(p, nt.line, nt.col, "'%s' redeclared as a different kind of symbol", name);
        f = old->func;
        if (f->is_entry != is_entry)
            ptx_perr(p, nt.line, nt.col, "'%s' redeclared with a different kind (.entry/.func)",
                     name);
        if (f->has_body && has_body)
            ptx_perr(p, nt.line, nt.col, "redefinition of '%s' (first defined at line %d)", name,
                     f->line);
        if (f->has_body) {
            /* a declaration after the definition: just check and keep the definition */
            if (!ptx_is_punct(p, 0, ';'))
                ptx_perr_tok(p, ptx_peek(p, 0), "expected ';' or a function body");
            ptx_advance(p);
            scope_leave(p, mark);
            p->fn = saved;
            return;
        }
    }
    if (!f) {
        f = ptx_alloc(p, sizeof *f);
        ptx_sym *s = ptx_new_sym(p, PTX_SYM_FUNC, name, &nt);
        s->func = f;
        s->owner = NULL;
        s->index = p->m->nfuncs;
        f->sym = s;
        /* declare at module scope (depth 1) */
        int d = p->depth;
        p->depth = 1;
        ptx_declare(p, s, &nt);
        p->depth = d;
        /* the undo entry belongs to module scope: move it below the function's mark */
        ptx_undo u = p->undo[p->nundo - 1];
        memmove(&p->undo[mark + 1], &p->undo[mark], sizeof u * (size_t)(p->nundo - 1 - mark));
        p->undo[mark] = u;
        mark++;
        PTX_PUSH(p, p->m->funcs, p->m->nfuncs, p->capfuncs, f);
    }
    /* fill the function from the header just parsed */
    f->is_entry = is_entry;
    f->flags |= flags;
    f->sym->flags = f->flags;
    f->params = tmp.params; f->nparams = tmp.nparams;
    f->rets = tmp.rets; f->nrets = tmp.nrets;
    memcpy(f->maxntid, tmp.maxntid, sizeof f->maxntid);
    memcpy(f->reqntid, tmp.reqntid, sizeof f->reqntid);
    memcpy(f->reqnctapercluster, tmp.reqnctapercluster, sizeof f->reqnctapercluster);
    f->minnctapersm = tmp.minnctapersm;
    f->maxnreg = tmp.maxnreg;
    f->maxclusterrank = tmp.maxclusterrank;
    f->noreturn = tmp.noreturn;
    f->explicitcluster = tmp.explicitcluster;
    f->pragmas = tmp.pragmas; f->npragmas = tmp.npragmas;
    f->line = kw.line;
    f->col = kw.col;
    f->end_line = kw.line;
    for (int i = 0; i < f->nparams; i++)
        f->params[i]->owner = f;
    for (int i = 0; i < f->nrets; i++)
        f->rets[i]->owner = f;
    p->fn = f;
    if (has_body) {
        if (flags & PTX_LINK_EXTERN)
            ptx_perr(p, kw.line, kw.col, ".extern function '%s' cannot have a body", name);
        f->has_body = 1;
        p->label_gen++;
        p->npending = 0;
        p->capregs = p->capfvars = p->caplabels = p->capinsns = 0;
        p->last_loc = -1;
        p->loc_open = 0;
        parse_block(p);
        for (int i = 0; i < p->npending; i++) {
            ptx_sym *s = p->pending[i];
            if (s->index < 0)
                ptx_perr(p, s->line, s->col, "use of undeclared identifier '%s'", s->name);
            s->owner = f;
        }
        p->npending = 0;
    } else {
        expect_semi(p);
    }
    scope_leave(p, mark);
    p->fn = saved;
}

/* ---- module -------------------------------------------------------------------------------- */
/* .version MAJOR.MINOR */
static void parse_version(ptx_parser *p)
{
    ptx_advance(p);
    ptx_token *t = ptx_peek(p, 0);
    if (t->kind != PTX_TK_FLOAT || t->fsize != 64)
        ptx_perr_tok(p, t, "expected a version number like 9.0");
    int maj = 0, min = 0, i = 0;
    for (; i < t->len && t->p[i] >= '0' && t->p[i] <= '9' && maj < 1000; i++)
        maj = maj * 10 + (t->p[i] - '0');
    if (i >= t->len || t->p[i] != '.')
        ptx_perr_tok(p, t, "expected a version number like 9.0");
    for (i++; i < t->len && t->p[i] >= '0' && t->p[i] <= '9' && min < 1000; i++)
        min = min * 10 + (t->p[i] - '0');
    if (i != t->len)
        ptx_perr_tok(p, t, "expected a version number like 9.0");
    if (maj > PTX_MAX_VERSION_MAJOR ||
        (maj == PTX_MAX_VERSION_MAJOR && min > PTX_MAX_VERSION_MINOR)) {
        p->err->kind = PTX_ERR_VERSION;
        ptx_perr_tok(p, t, "unsupported .version %d.%d; the newest PTX ISA version supported "
                     "is %d.%d (CUDA 13.0)", maj, min, PTX_MAX_VERSION_MAJOR,
                     PTX_MAX_VERSION_MINOR);
    }
    p->m->version_major = maj;
    p->m->version_minor = min;
    ptx_advance(p);
}

/* A target ptxdbg knows: sm_NN or compute_NN with a known NN, optionally followed by the
 * architecture-specific 'a' or family 'f' suffix (sm_90a, sm_100f). */
static int known_target(const ptx_token *t)
{
    static const int known[] = {10, 11, 12, 13, 20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61, 62,
                                70, 72, 75, 80, 86, 87, 88, 89, 90, 100, 101, 103, 110, 120,
                                121};
    int i = t->len > 3 && !strncmp(t->p, "sm_", 3) ? 3
            : t->len > 8 && !strncmp(t->p, "compute_", 8) ? 8 : 0;
    if (!i)
        return 0;
    int n = 0, digits = 0;
    for (; i < t->len && t->p[i] >= '0' && t->p[i] <= '9' && digits < 4; i++, digits++)
        n = n * 10 + (t->p[i] - '0');
    if (!digits || (i < t->len && !(i + 1 == t->len && (t->p[i] == 'a' || t->p[i] == 'f'))))
        return 0;
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (known[k] == n)
            return 1;
    return 0;
}

/* .target name { ',' name } */
static void parse_target(ptx_parser *p)
{
    ptx_advance(p);
    for (;;) {
        ptx_token t = expect_ident(p, "a target name");
        if (tok_is(&t, "debug"))
            p->m->target_debug = 1;
        else if (tok_is(&t, "texmode_independent"))
            p->m->texmode_independent = 1;
        else if (tok_is(&t, "texmode_unified") || tok_is(&t, "map_f64_to_f32"))
            ;
        else if (!known_target(&t))
            ptx_perr(p, t.line, t.col, "unknown target '%.*s'", t.len, t.p);
        else if (!p->m->target)
            p->m->target = ptx_tok_intern(p, &t);
        if (!ptx_is_punct(p, 0, ','))
            break;
        ptx_advance(p);
    }
}

/* .file N "path" [ ',' mtime ',' size ] */
static void parse_file(ptx_parser *p)
{
    ptx_advance(p);
    ptx_file fl = {0};
    fl.num = (int)expect_uint(p, "file number", INT32_MAX);
    ptx_token *s = ptx_peek(p, 0);
    if (s->kind != PTX_TK_STRING)
        ptx_perr_tok(p, s, "expected a file name string");
    fl.path = intern_cstr(p, s->p + 1, (size_t)s->len - 2);
    ptx_advance(p);
    if (ptx_is_punct(p, 0, ',')) {
        ptx_advance(p);
        fl.mtime = expect_uint(p, "timestamp", UINT64_MAX >> 1);
        ptx_expect_punct(p, ',', "','");
        fl.size = expect_uint(p, "file size", UINT64_MAX >> 1);
    }
    for (int i = 0; i < p->m->nfiles; i++)
        if (p->m->files[i].num == fl.num)
            ptx_perr(p, s->line, s->col, "duplicate .file %d", fl.num);
    PTX_PUSH(p, p->m->files, p->m->nfiles, p->capfiles, fl);
}

/* .alias alias ',' target ';' */
static void parse_alias(ptx_parser *p)
{
    ptx_advance(p);
    ptx_sym *s[2];
    for (int i = 0; i < 2; i++) {
        ptx_token t = expect_ident(p, "a function name");
        s[i] = ptx_lookup(p, ptx_tok_intern(p, &t));
        if (!s[i] || s[i]->kind != PTX_SYM_FUNC)
            ptx_perr(p, t.line, t.col, "'%.*s' is not a declared function", t.len, t.p);
        if (i == 0)
            ptx_expect_punct(p, ',', "','");
    }
    expect_semi(p);
    ptx_grow(p, (void **)&p->m->aliases, &p->capaliases, p->m->naliases, sizeof *p->m->aliases);
    p->m->aliases[p->m->naliases].alias = s[0];
    p->m->aliases[p->m->naliases].target = s[1];
    p->m->naliases++;
}

/* module: { directive } EOF
 * directive: .version | .target | .address_size | .file | .section | .pragma | .alias | .loc
 *          | { linkage } ( .entry | .func | var-decl ) */
static void parse_module(ptx_parser *p)
{
    /* as ptxas: .version first, then .target ("Missing .version directive at start of file") */
    for (int k = 0;; k++) {
        ptx_token *t = ptx_peek(p, 0);
        if (k < 2 && !(t->kind == PTX_TK_DIR && tok_is(t, k ? ".target" : ".version")))
            ptx_perr(p, t->line, t->col, "missing %s directive at the start of the module%s",
                     k ? ".target" : ".version",
                     t->kind == PTX_TK_EOF && !k ? " (no PTX in it)" : "");
        if (t->kind == PTX_TK_EOF)
            return;
        if (t->kind != PTX_TK_DIR) {
            char b[64];
            ptx_perr_tok(p, t, "expected a directive, found %s", ptx_tok_desc(t, b, sizeof b));
        }
        if (tok_is(t, ".version")) {
            if (k)
                ptx_perr_tok(p, t, "a second .version directive");
            parse_version(p);
        } else if (tok_is(t, ".target")) {
            parse_target(p);
        } else if (tok_is(t, ".address_size")) {
            ptx_advance(p);
            ptx_token at = *ptx_peek(p, 0);
            uint64_t v = expect_uint(p, "address size", 64);
            if (v != 32 && v != 64)
                ptx_perr(p, at.line, at.col, "address size must be 32 or 64");
            p->m->address_size = (int)v;
        } else if (tok_is(t, ".file")) {
            parse_file(p);
        } else if (tok_is(t, ".section")) {
            ptx_parse_section(p);
        } else if (tok_is(t, ".pragma")) {
            parse_pragma(p, NULL);
        } else if (tok_is(t, ".alias")) {
            parse_alias(p);
        } else if (tok_is(t, ".loc")) {
            ptx_parse_loc(p);
        } else {
            unsigned flags = 0;
            for (;;) {
                t = ptx_peek(p, 0);
                if (tok_is(t, ".visible")) flags |= PTX_LINK_VISIBLE;
                else if (tok_is(t, ".extern")) flags |= PTX_LINK_EXTERN;
                else if (tok_is(t, ".weak")) flags |= PTX_LINK_WEAK;
                else if (tok_is(t, ".common")) flags |= PTX_LINK_COMMON;
                else break;
                ptx_advance(p);
            }
            ptx_space sp = t->kind == PTX_TK_DIR ? ptx_space_from_dir(t->p, t->len)
                                                 : PTX_SPACE_NONE;
            if (tok_is(t, ".entry") || tok_is(t, ".func"))
                parse_function(p, flags);
            else if (sp != PTX_SPACE_NONE && sp != PTX_SPACE_REG)
                parse_var_decl(p, sp, flags);
            else if (t->kind == PTX_TK_DIR)
                ptx_perr_tok(p, t, "unknown or misplaced directive '%.*s'", t->len, t->p);
            else {
                char b[64];
                ptx_perr_tok(p, t, "expected a declaration, found %s", ptx_tok_desc(t, b, sizeof b));
            }
        }
    }
}

/* The constant bank holds 64 KB: the .const variables of the module and of its functions. */
#define PTX_CONST_BANK 65536u

static uint64_t const_add(uint64_t off, const ptx_sym *v)
{
    if (v->space != PTX_SPACE_CONST)
        return off;
    uint64_t a = v->align > 0 ? (uint64_t)v->align : 1;
    off = (off + a - 1) / a * a;
    return v->size > UINT64_MAX / 2 - off ? UINT64_MAX / 2 : off + v->size;
}

static void check_const_bank(ptx_parser *p)
{
    const ptx_module *m = p->m;
    const ptx_sym *first = NULL; /* where the bank overflows */
    uint64_t off = 0;
    for (int i = 0; i < m->nvars; i++)
        if ((off = const_add(off, m->vars[i])) > PTX_CONST_BANK && !first)
            first = m->vars[i];
    for (int f = 0; f < m->nfuncs; f++)
        for (int i = 0; i < m->funcs[f]->nvars; i++)
            if ((off = const_add(off, m->funcs[f]->vars[i])) > PTX_CONST_BANK && !first)
                first = m->funcs[f]->vars[i];
    if (first)
        ptx_perr(p, first->line, first->col, "constant bank overflow: %llu bytes, limit %u",
                 (unsigned long long)off, PTX_CONST_BANK);
}

/* ---- entry points -------------------------------------------------------------------------- */
static int setup(ptx_parser *p, const char *text, size_t len, const char *path)
{
    p->arena = ptx_arena_new();
    if (!p->arena)
        return -1;
    p->m = ptx_arena_alloc(p->arena, sizeof *p->m);
    char *copy = ptx_arena_alloc(p->arena, len + 1);
    if (!p->m || !copy || ptx_intern_init(&p->in, p->arena) < 0)
        return -1;
    if (len)
        memcpy(copy, text, len);
    copy[len] = 0;
    p->m->text = copy;
    p->m->arena = p->arena;
    p->m->address_size = 64;
    p->path = path ? path : "<string>";
    p->m->path = ptx_intern_str(&p->in, p->path, strlen(p->path));
    ptx_lex_init(&p->lx, copy, len);
    return p->m->path ? 0 : -1;
}

static void bind_builtins(ptx_parser *p)
{
    /* special registers at depth 0, below module scope */
    p->depth = 0;
    char buf[64];
    for (int i = 0; i < PTX_SREG__COUNT; i++) {
        if (i == PTX_SREG_ENVREG || i == PTX_SREG_RESERVED_SMEM_OFFSET_2) {
            int count = i == PTX_SREG_ENVREG ? 32 : 2;
            for (int k = 0; k < count; k++) {
                int n = snprintf(buf, sizeof buf, "%s%d", ptx_sreg_names[i], k);
                ptx_name *nm = PTX_NAME(intern_cstr(p, buf, (size_t)n));
                nm->bind = &ptx_sregs[i];
                nm->depth = 0;
            }
            continue;
        }
        ptx_name *nm = PTX_NAME(intern_cstr(p, ptx_sreg_names[i], strlen(ptx_sreg_names[i])));
        nm->bind = &ptx_sregs[i];
        nm->depth = 0;
    }
    for (int i = 0; i < PTX_OPC__COUNT; i++)
        PTX_NAME(intern_cstr(p, ptx_ops[i].name, strlen(ptx_ops[i].name)))->op = i + 1;
    p->s_underscore = intern_cstr(p, "_", 1);
    p->depth = 1;
}

/* module (see parse_module), from text; NULL with *err filled on the first error */
ptx_module *ptx_parse(const char *text, size_t len, const char *path, ptx_error *err)
{
    ptx_error dummy;
    if (!err)
        err = &dummy;
    memset(err, 0, sizeof *err);
    ptx_parser *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err->msg, sizeof err->msg, "%s: error: out of memory", path ? path : "<string>");
        return NULL;
    }
    p->err = err;
    if (!text && len)
        len = 0;
    if (setup(p, text ? text : "", len, path) < 0) {
        snprintf(err->msg, sizeof err->msg, "%s: error: out of memory", path ? path : "<string>");
        ptx_intern_free(&p->in);
        ptx_arena_free(p->arena);
        free(p);
        return NULL;
    }
    ptx_module *m = p->m;
    if (setjmp(p->jb)) {
        ptx_intern_free(&p->in);
        ptx_arena_free(p->arena);
        free(p);
        return NULL;
    }
    p->last_loc = -1;
    bind_builtins(p);
    ptx_token *t = ptx_peek(p, 0);
    if (t->kind == PTX_TK_ERROR)
        ptx_perr(p, t->line, t->col, "%s", t->msg);
    parse_module(p);
    check_const_bank(p);
    ptx_intern_free(&p->in);
    free(p);
    return m;
}

/* module, from the file at path */
ptx_module *ptx_parse_file(const char *path, ptx_error *err)
{
    ptx_error dummy;
    if (!err)
        err = &dummy;
    memset(err, 0, sizeof *err);
    /* directories, devices and FIFOs never end or block: refuse them before opening */
    char why[160];
    struct stat st;
    if (path && stat(path, &st) == 0 && fileck_regular(path, FILECK_PTX_MAX, NULL, why,
                                                        sizeof why) != 0) {
        snprintf(err->msg, sizeof err->msg, "%s: error: %s", path, why);
        return NULL;
    }
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "%s: error: cannot open file", path ? path : "(null)");
        return NULL;
    }
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (cap - n < 65536) {
            size_t nc = cap ? cap * 2 : 1 << 20;
            char *nb = realloc(buf, nc);
            if (!nb) {
                free(buf);
                fclose(f);
                snprintf(err->msg, sizeof err->msg, "%s: error: out of memory", path);
                return NULL;
            }
            buf = nb;
            cap = nc;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0)
            break;
        if (n > FILECK_PTX_MAX) { /* it grew while being read */
            free(buf);
            fclose(f);
            fileck_too_large(n, FILECK_PTX_MAX, why, sizeof why);
            snprintf(err->msg, sizeof err->msg, "%s: error: %s", path, why);
            return NULL;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        snprintf(err->msg, sizeof err->msg, "%s: error: read error", path);
        return NULL;
    }
    ptx_module *m = ptx_parse(buf, n, path, err);
    free(buf);
    return m;
}
