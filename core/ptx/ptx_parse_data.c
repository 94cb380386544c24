/* ptx_parse_data.c - PTX parser: variable initializers and .section data blocks. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "ptx_lex.h"
#include "ptx_num.h"

/* ---- initializers --------------------------------------------------------------------------
 * The initializer is written straight into var->init (var->size bytes). A brace list at level
 * i fills aggregates of stride[i] bytes; scalars inside a list are laid out consecutively, so
 * flat lists initialise multi-dimensional arrays in row-major order. An unsized first
 * dimension grows the buffer and is fixed from the number of elements at the end. */
typedef struct {
    ptx_sym *var;
    uint64_t elsize;
    int levels;
    uint64_t stride[6];       /* bytes of one item at each level */
    uint64_t count[6];        /* items at each level (0 = unsized) */
    uint8_t *buf;
    uint64_t cap;             /* bytes allocated */
    uint64_t used;            /* highest byte written + 1 */
    int caprelocs;
} initctx;

static void ensure(ptx_parser *p, initctx *c, uint64_t end, const ptx_token *at)
{
    if (end <= c->cap)
        return;
    if (end > PTX_MAX_INIT_SIZE)
        ptx_perr(p, at->line, at->col, "initializer too large");
    uint64_t nc = c->cap ? c->cap : 64;
    while (nc < end)
        nc *= 2;
    uint8_t *nb = ptx_alloc(p, (size_t)nc);
    if (c->used)
        memcpy(nb, c->buf, (size_t)c->used);
    c->buf = nb;
    c->cap = nc;
}

static void put_bytes(initctx *c, uint64_t off, uint64_t v, uint64_t n)
{
    for (uint64_t i = 0; i < n && i < 8; i++)
        c->buf[off + i] = (uint8_t)(v >> (8 * i));
    if (off + n > c->used)
        c->used = off + n;
}

/* item: expr | float | name [ '+' expr ] | 'generic' '(' name ')' [ '+' expr ] */
static void parse_init_item(ptx_parser *p, initctx *c, uint64_t off)
{
    ptx_token t = *ptx_peek(p, 0);
    ptx_type ty = c->var->type;
    ensure(p, c, off + c->elsize, &t);
    if (t.kind == PTX_TK_IDENT && !ptx_tok_is_warp_sz(&t)) {
        int generic = 0;
        ptx_token nt = t;
        if (t.len == 7 && memcmp(t.p, "generic", 7) == 0 && ptx_is_punct(p, 1, '(')) {
            generic = 1;
            ptx_advance(p);
            ptx_advance(p);
            nt = *ptx_peek(p, 0);
            if (nt.kind != PTX_TK_IDENT)
                ptx_perr_tok(p, &nt, "expected a variable name in generic()");
        }
        const char *name = ptx_tok_intern(p, &nt);
        ptx_sym *s = ptx_lookup(p, name);
        if (!s || (s->kind != PTX_SYM_VAR && s->kind != PTX_SYM_FUNC))
            ptx_perr(p, nt.line, nt.col, "use of undeclared identifier '%s' in initializer", name);
        ptx_advance(p);
        if (generic)
            ptx_expect_punct(p, ')', "')'");
        int64_t add = 0;
        if (ptx_is_punct(p, 0, '+')) {
            ptx_advance(p);
            add = ptx_parse_expr(p, NULL);
        } else if (ptx_is_punct(p, 0, '-')) {
            ptx_advance(p);
            add = (int64_t)(0 - (uint64_t)ptx_parse_expr(p, NULL));
        }
        if (c->elsize < 4)
            ptx_perr(p, t.line, t.col, "address initializer needs a 32- or 64-bit element type");
        ptx_sym *v = c->var;
        ptx_grow(p, (void **)&v->relocs, &c->caprelocs, v->nrelocs, sizeof *v->relocs);
        v->relocs[v->nrelocs++] = (ptx_reloc){off, (int)c->elsize, s, add, generic};
        if (off + c->elsize > c->used)
            c->used = off + c->elsize;
        return;
    }
    if (t.kind == PTX_TK_FLOAT ||
        (t.kind == PTX_TK_PUNCT && t.punct == '-' && ptx_peek(p, 1)->kind == PTX_TK_FLOAT)) {
        int neg = t.kind != PTX_TK_FLOAT;
        if (neg)
            ptx_advance(p);
        ptx_token f = *ptx_peek(p, 0);
        ptx_advance(p);
        double d = neg ? -f.fval : f.fval;
        uint64_t bits = f.fbits;
        if (neg)
            bits ^= f.fsize == 32 ? 0x80000000u : 0x8000000000000000ull;
        int hexlit = f.len > 1 && f.p[0] == '0' && ((f.p[1] | 0x20) == 'f' || (f.p[1] | 0x20) == 'd');
        if (ty == PTX_T_F32) {
            if (hexlit && f.fsize == 32) {
                put_bytes(c, off, bits, 4);
            } else {
                float x = (float)d;
                uint32_t b;
                memcpy(&b, &x, 4);
                put_bytes(c, off, b, 4);
            }
        } else if (ty == PTX_T_F64) {
            if (hexlit && f.fsize == 64) {
                put_bytes(c, off, bits, 8);
            } else {
                uint64_t b;
                memcpy(&b, &d, 8);
                put_bytes(c, off, b, 8);
            }
        } else if (ty == PTX_T_F16 || ty == PTX_T_BF16) {
            float x = (float)d;
            put_bytes(c, off, ty == PTX_T_F16 ? ptx_f32_to_f16(x) : ptx_f32_to_bf16(x), 2);
        } else if (hexlit && (uint64_t)f.fsize / 8 == c->elsize) {
            put_bytes(c, off, bits, c->elsize); /* raw bits into a .b32/.b64 */
        } else {
            ptx_perr(p, t.line, t.col, "floating-point initializer for a %s variable",
                     ptx_type_name(ty));
        }
        return;
    }
    int u = 0;
    int64_t v = ptx_parse_expr(p, &u);
    if (ty == PTX_T_F32) {
        float x = u ? (float)(uint64_t)v : (float)v;
        uint32_t b;
        memcpy(&b, &x, 4);
        put_bytes(c, off, b, 4);
    } else if (ty == PTX_T_F64) {
        double x = u ? (double)(uint64_t)v : (double)v;
        uint64_t b;
        memcpy(&b, &x, 8);
        put_bytes(c, off, b, 8);
    } else if (ty == PTX_T_F16 || ty == PTX_T_BF16) {
        float x = (float)v;
        put_bytes(c, off, ty == PTX_T_F16 ? ptx_f32_to_f16(x) : ptx_f32_to_bf16(x), 2);
    } else {
        put_bytes(c, off, (uint64_t)v, c->elsize);
    }
}

/* list at level i: '{' item-or-list { ',' item-or-list } '}' ; returns bytes consumed */
static void parse_init_list(ptx_parser *p, initctx *c, int level, uint64_t base)
{
    ptx_token open = *ptx_peek(p, 0);
    if (level >= c->levels)
        ptx_perr(p, open.line, open.col, "too many braces in initializer");
    if (++p->nest > PTX_MAX_NEST)
        ptx_perr(p, open.line, open.col, "initializer nested too deeply");
    ptx_advance(p);
    uint64_t limit = c->count[level] ? base + c->count[level] * c->stride[level] : UINT64_MAX;
    uint64_t cur = base;
    for (;;) {
        ptx_token t = *ptx_peek(p, 0);
        if (t.kind == PTX_TK_PUNCT && t.punct == '{') {
            uint64_t st = c->stride[level];
            cur = base + (cur - base + st - 1) / st * st; /* next aggregate boundary */
            if (cur + st > limit)
                ptx_perr(p, t.line, t.col, "too many initializers for '%s'", c->var->name);
            parse_init_list(p, c, level + 1, cur);
            cur += st;
        } else {
            if (cur + c->elsize > limit)
                ptx_perr(p, t.line, t.col, "too many initializers for '%s'", c->var->name);
            parse_init_item(p, c, cur);
            cur += c->elsize;
        }
        if (!ptx_is_punct(p, 0, ','))
            break;
        ptx_advance(p);
    }
    ptx_token *cl = ptx_peek(p, 0);
    if (cl->kind == PTX_TK_EOF)
        ptx_perr(p, open.line, open.col, "unterminated initializer: missing '}'");
    ptx_expect_punct(p, '}', "'}' or ','");
    if (cur > c->used) { /* a partially given aggregate still occupies its elements */
        ensure(p, c, cur, &open);
        c->used = cur;
    }
    p->nest--;
}

/* initializer: item | list */
void ptx_parse_init(ptx_parser *p, ptx_sym *var)
{
    initctx c;
    memset(&c, 0, sizeof c);
    c.var = var;
    c.elsize = (uint64_t)(ptx_type_bits(var->type) + 7) / 8;
    for (int d = 0; d < var->ndims; d++)
        c.count[c.levels++] = var->dims[d];
    if (var->vec > 1)
        c.count[c.levels++] = (uint64_t)var->vec;
    uint64_t st = c.elsize;
    for (int l = c.levels - 1; l >= 0; l--) {
        c.stride[l] = st;
        st *= c.count[l] ? c.count[l] : 1;
    }
    ptx_token at = *ptx_peek(p, 0);
    if (var->size)
        ensure(p, &c, var->size, &at);
    if (ptx_is_punct(p, 0, '{')) {
        if (c.levels == 0)
            ptx_perr(p, at.line, at.col, "brace initializer for scalar '%s'", var->name);
        /* with one level, the list's items are elements */
        parse_init_list(p, &c, 0, 0);
    } else {
        if (c.levels > 0 && !(var->ndims == 0))
            ptx_perr(p, at.line, at.col, "array '%s' needs a brace initializer", var->name);
        parse_init_item(p, &c, 0);
    }
    if (var->ndims > 0 && var->dims[0] == 0) {
        uint64_t n = (c.used + c.stride[0] - 1) / c.stride[0];
        if (n == 0)
            ptx_perr(p, at.line, at.col, "empty initializer for unsized array '%s'", var->name);
        var->dims[0] = n;
        var->size = n * c.stride[0];
        ensure(p, &c, var->size, &at);
    }
    var->init = c.buf;
    var->init_size = var->size;
}

/* ---- .section ------------------------------------------------------------------------------ */
static const char *section_name(ptx_parser *p, const ptx_token *t)
{
    if (t->kind != PTX_TK_IDENT && t->kind != PTX_TK_DIR) {
        char b[64];
        ptx_perr_tok(p, t, "expected a symbol or section name, found %s",
                     ptx_tok_desc(t, b, sizeof b));
    }
    return ptx_tok_intern(p, t);
}

/* datum: expr | name [ ('+' | '-') expr ] | name '-' name [ ('+' | '-') expr ] */
static void parse_datum(ptx_parser *p, ptx_datum *d)
{
    ptx_token t = *ptx_peek(p, 0);
    d->line = t.line;
    if (t.kind == PTX_TK_IDENT || t.kind == PTX_TK_DIR) {
        d->kind = PTX_DATUM_SYM;
        d->sym = section_name(p, &t);
        ptx_advance(p);
        if (ptx_is_punct(p, 0, '-')) {
            ptx_token *n = ptx_peek(p, 1);
            if (n->kind == PTX_TK_IDENT || n->kind == PTX_TK_DIR) {
                ptx_advance(p);
                d->kind = PTX_DATUM_DIFF;
                d->sym2 = section_name(p, n);
                ptx_advance(p);
            }
        }
        if (ptx_is_punct(p, 0, '+')) {
            ptx_advance(p);
            d->addend = ptx_parse_expr(p, NULL);
        } else if (ptx_is_punct(p, 0, '-')) {
            ptx_advance(p);
            d->addend = (int64_t)(0 - (uint64_t)ptx_parse_expr(p, NULL));
        }
        return;
    }
    d->kind = PTX_DATUM_INT;
    int u;
    d->value = (uint64_t)ptx_parse_expr(p, &u);
    if (d->size < 8)
        d->value &= ((uint64_t)1 << (8 * d->size)) - 1;
}

/* section: '.section' name '{' { label ':' | ('.b8' | '.b16' | '.b32' | '.b64') datum
 *          { ',' datum } } '}' */
void ptx_parse_section(ptx_parser *p)
{
    ptx_advance(p);
    ptx_token nt = *ptx_peek(p, 0);
    ptx_section sec;
    memset(&sec, 0, sizeof sec);
    sec.name = section_name(p, &nt);
    sec.line = nt.line;
    ptx_advance(p);
    ptx_token open = *ptx_peek(p, 0);
    ptx_expect_punct(p, '{', "'{'");
    int secidx = p->m->nsections;
    int capdata = 0, caplabels = 0;
    for (;;) {
        ptx_token t = *ptx_peek(p, 0);
        if (t.kind == PTX_TK_EOF)
            ptx_perr(p, open.line, open.col, "unterminated .section: missing '}'");
        if (t.kind == PTX_TK_PUNCT && t.punct == '}')
            break;
        if (t.kind == PTX_TK_IDENT && ptx_is_punct(p, 1, ':')) {
            ptx_sym *s = ptx_new_sym(p, PTX_SYM_LABEL, ptx_tok_intern(p, &t), &t);
            s->section = secidx;
            s->index = sec.ndata;
            ptx_declare(p, s, &t);
            PTX_PUSH(p, sec.labels, sec.nlabels, caplabels, s);
            ptx_advance(p);
            ptx_advance(p);
            continue;
        }
        int size = 0;
        if (t.kind == PTX_TK_DIR) {
            if (t.len == 3 && memcmp(t.p, ".b8", 3) == 0) size = 1;
            else if (t.len == 4 && memcmp(t.p, ".b16", 4) == 0) size = 2;
            else if (t.len == 4 && memcmp(t.p, ".b32", 4) == 0) size = 4;
            else if (t.len == 4 && memcmp(t.p, ".b64", 4) == 0) size = 8;
        }
        if (!size) {
            char b[64];
            ptx_perr_tok(p, &t, "expected .b8, .b16, .b32, .b64 or a label in .section, found %s",
                         ptx_tok_desc(&t, b, sizeof b));
        }
        ptx_advance(p);
        for (;;) {
            ptx_datum d;
            memset(&d, 0, sizeof d);
            d.size = size;
            parse_datum(p, &d);
            PTX_PUSH(p, sec.data, sec.ndata, capdata, d);
            if (!ptx_is_punct(p, 0, ','))
                break;
            ptx_advance(p);
        }
    }
    ptx_advance(p);
    PTX_PUSH(p, p->m->sections, p->m->nsections, p->capsections, sec);
}
