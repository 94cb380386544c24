/* ptx_parse_insn.c - PTX parser: instructions, operands, constant expressions and .loc. */
#include <stdio.h>
#include <string.h>
#include "ptx_lex.h"

#define MAX_OPS 32
#define MAX_ELEMS 64

/* ---- constant expressions -------------------------------------------------------------------
 * Values are 64-bit; an expression is unsigned when any operand is (U suffix or a cast), as in
 * the spec. Arithmetic wraps (done on uint64_t, so there is no undefined behaviour). */
typedef struct {
    uint64_t v;
    int u;
} cval;

static cval expr_cond(ptx_parser *p);

/* WARP_SZ: the ISA's predefined identifier for the warp size, a constant (32) usable wherever a
 * constant expression is (nvcc emits it for warpSize). */
#define PTX_WARP_SZ 32
int ptx_tok_is_warp_sz(const ptx_token *t)
{
    return t->kind == PTX_TK_IDENT && t->len == 7 && memcmp(t->p, "WARP_SZ", 7) == 0;
}
#define is_warp_sz ptx_tok_is_warp_sz

static void nest_in(ptx_parser *p)
{
    if (++p->nest > PTX_MAX_NEST) {
        ptx_token *t = ptx_peek(p, 0);
        ptx_perr(p, t->line, t->col, "expression nested too deeply");
    }
}

/* primary: INT | 'WARP_SZ' | '(' expr ')' | '(' '.s64' | '.u64' ')' unary
 * unary:   ('+' | '-' | '!' | '~') unary | primary */
static cval expr_unary(ptx_parser *p)
{
    ptx_token *t = ptx_peek(p, 0);
    cval r = {0, 0};
    nest_in(p);
    if (t->kind == PTX_TK_INT) {
        r.v = t->ival;
        r.u = t->is_unsigned;
        ptx_advance(p);
    } else if (is_warp_sz(t)) {
        r.v = PTX_WARP_SZ;
        ptx_advance(p);
    } else if (t->kind == PTX_TK_PUNCT && t->punct == '(') {
        ptx_advance(p);
        ptx_token *c = ptx_peek(p, 0);
        if (c->kind == PTX_TK_DIR && c->len == 4 &&
            (memcmp(c->p, ".s64", 4) == 0 || memcmp(c->p, ".u64", 4) == 0)) {
            int u = c->p[1] == 'u';
            ptx_advance(p);
            ptx_expect_punct(p, ')', "')'");
            r = expr_unary(p);
            r.u = u;
        } else {
            r = expr_cond(p);
            ptx_expect_punct(p, ')', "')'");
        }
    } else if (t->kind == PTX_TK_PUNCT &&
               (t->punct == '-' || t->punct == '+' || t->punct == '!' || t->punct == '~')) {
        int op = t->punct;
        ptx_advance(p);
        r = expr_unary(p);
        if (op == '-') r.v = (uint64_t)0 - r.v;
        else if (op == '!') { r.v = r.v == 0; r.u = 0; }
        else if (op == '~') r.v = ~r.v;
    } else {
        char b[64];
        ptx_perr_tok(p, t, "expected a constant expression, found %s", ptx_tok_desc(t, b, sizeof b));
    }
    p->nest--;
    return r;
}

/* binop: '*' | '/' | '%' | '+' | '-' | '<<' | '>>' | '<' | '>' | '<=' | '>=' | '==' | '!='
 *      | '&' | '^' | '|' | '&&' | '||'  (its precedence, 0 for any other token) */
static int binop_prec(const ptx_token *t)
{
    if (t->kind != PTX_TK_PUNCT)
        return 0;
    switch (t->punct) {
    case '*': case '/': case '%': return 10;
    case '+': case '-': return 9;
    case PTX_P_SHL: case PTX_P_SHR: return 8;
    case '<': case '>': case PTX_P_LE: case PTX_P_GE: return 7;
    case PTX_P_EQ: case PTX_P_NE: return 6;
    case '&': return 5;
    case '^': return 4;
    case '|': return 3;
    case PTX_P_ANDAND: return 2;
    case PTX_P_OROR: return 1;
    default: return 0;
    }
}

static cval apply(ptx_parser *p, const ptx_token *at, int op, cval a, cval b)
{
    cval r;
    r.u = a.u || b.u;
    int64_t sa = (int64_t)a.v, sb = (int64_t)b.v;
    switch (op) {
    case '*': r.v = a.v * b.v; break;
    case '/': case '%':
        if (b.v == 0)
            ptx_perr(p, at->line, at->col, "division by zero in constant expression");
        if (r.u)
            r.v = op == '/' ? a.v / b.v : a.v % b.v;
        else if (sa == INT64_MIN && sb == -1)
            r.v = op == '/' ? a.v : 0;
        else
            r.v = (uint64_t)(op == '/' ? sa / sb : sa % sb);
        break;
    case '+': r.v = a.v + b.v; break;
    case '-': r.v = a.v - b.v; break;
    case PTX_P_SHL: r.v = b.v >= 64 ? 0 : a.v << b.v; r.u = a.u; break;
    case PTX_P_SHR:
        r.u = a.u;
        if (a.u) r.v = b.v >= 64 ? 0 : a.v >> b.v;
        else r.v = (uint64_t)(b.v >= 64 ? (sa < 0 ? -1 : 0) : (sa < 0 ? ~(~sa >> b.v) : sa >> b.v));
        break;
    case '<': r.v = r.u ? a.v < b.v : sa < sb; r.u = 0; break;
    case '>': r.v = r.u ? a.v > b.v : sa > sb; r.u = 0; break;
    case PTX_P_LE: r.v = r.u ? a.v <= b.v : sa <= sb; r.u = 0; break;
    case PTX_P_GE: r.v = r.u ? a.v >= b.v : sa >= sb; r.u = 0; break;
    case PTX_P_EQ: r.v = a.v == b.v; r.u = 0; break;
    case PTX_P_NE: r.v = a.v != b.v; r.u = 0; break;
    case '&': r.v = a.v & b.v; break;
    case '^': r.v = a.v ^ b.v; break;
    case '|': r.v = a.v | b.v; break;
    case PTX_P_ANDAND: r.v = a.v && b.v; r.u = 0; break;
    case PTX_P_OROR: r.v = a.v || b.v; r.u = 0; break;
    default: r.v = 0; break;
    }
    return r;
}

/* binary: unary { binop unary } by precedence climbing:
 * * / %  >  + -  >  << >>  >  < > <= >=  >  == !=  >  &  >  ^  >  |  >  &&  >  || */
static cval expr_binary(ptx_parser *p, int minprec)
{
    nest_in(p);
    cval lhs = expr_unary(p);
    for (;;) {
        ptx_token *t = ptx_peek(p, 0);
        int prec = binop_prec(t);
        if (!prec || prec < minprec)
            break;
        ptx_token at = *t;
        ptx_advance(p);
        cval rhs = expr_binary(p, prec + 1);
        lhs = apply(p, &at, at.punct, lhs, rhs);
    }
    p->nest--;
    return lhs;
}

/* expr: binary [ '?' expr ':' expr ] */
static cval expr_cond(ptx_parser *p)
{
    nest_in(p);
    cval c = expr_binary(p, 1);
    if (ptx_is_punct(p, 0, '?')) {
        ptx_advance(p);
        cval a = expr_cond(p);
        ptx_expect_punct(p, ':', "':'");
        cval b = expr_cond(p);
        c = c.v ? a : b;
        c.u = a.u || b.u;
    }
    p->nest--;
    return c;
}

/* constant-expression: expr (64-bit; *is_unsigned says whether its type is unsigned) */
int64_t ptx_parse_expr(ptx_parser *p, int *is_unsigned)
{
    cval v = expr_cond(p);
    if (is_unsigned)
        *is_unsigned = v.u;
    return (int64_t)v.v;
}

/* Whether t can start an expr: INT | 'WARP_SZ' | '(' | '-' | '+' | '~' | '!' */
static int starts_expr(const ptx_token *t)
{
    return t->kind == PTX_TK_INT || is_warp_sz(t) ||
           (t->kind == PTX_TK_PUNCT && (t->punct == '(' || t->punct == '-' || t->punct == '+' ||
                                        t->punct == '~' || t->punct == '!'));
}

/* ---- operands ------------------------------------------------------------------------------ */
static void op_init(ptx_operand *o, const ptx_token *t)
{
    memset(o, 0, sizeof *o);
    o->comp = -1;
    o->line = t->line;
    o->col = t->col;
}

/* name-operand: IDENT (a declared symbol, or a label, possibly defined later) */
static ptx_sym *resolve_name(ptx_parser *p, const ptx_token *t)
{
    const char *name = ptx_tok_intern(p, t);
    ptx_sym *s = ptx_lookup(p, name);
    if (s)
        return s;
    if (name[0] == '%')
        ptx_perr(p, t->line, t->col, "use of undeclared register '%s'", name);
    return ptx_use_label(p, name, t);
}

/* component: '.x' | '.y' | '.z' | '.w' | '.r' | '.g' | '.b' | '.a' right after a register */
static int parse_component(ptx_parser *p)
{
    ptx_token *t = ptx_peek(p, 0);
    if (t->kind != PTX_TK_DIR || t->ws_before || t->len != 2)
        return -1;
    const char *c = strchr("xyzwrgba", t->p[1]);
    if (!c || !t->p[1])
        return -1;
    ptx_advance(p);
    return (int)(c - "xyzwrgba") % 4;
}

/* video selector (video instructions only): '.b' d{1,4} with d in 0..7 | '.h' d{1,2} with d in
 * 0..3, right after a register; encoded as described at ptx_operand.comp (ptx.h). */
static int parse_selector(ptx_parser *p)
{
    ptx_token *t = ptx_peek(p, 0);
    if (t->kind != PTX_TK_DIR || t->ws_before || t->len < 3 || (t->p[1] != 'b' && t->p[1] != 'h'))
        return -1;
    int h = t->p[1] == 'h', n = t->len - 2, v = 0;
    if (n > (h ? 2 : 4))
        return -1;
    for (int k = 0; k < n; k++) {
        int c = t->p[2 + k] - '0';
        if (c < 0 || c > (h ? 3 : 7))
            return -1;
        v = v << 4 | c;
    }
    ptx_advance(p);
    return (h ? PTX_SEL_H : PTX_SEL_B) | n << 16 | v;
}

#define OPF_CALL 1   /* parse_operand flags: inside call (lists allowed) */
#define OPF_VSEL 2   /* video instruction: registers may carry a selector */
static void parse_operand(ptx_parser *p, ptx_operand *o, int in_call);

static ptx_operand *copy_ops(ptx_parser *p, const ptx_operand *src, int n)
{
    ptx_operand *d = ptx_alloc(p, sizeof *d * (size_t)(n ? n : 1));
    memcpy(d, src, sizeof *d * (size_t)n);
    return d;
}

/* list: open operand { ',' operand } close  (elements are plain operands) */
static void parse_list(ptx_parser *p, ptx_operand *o, int close, ptx_opkind kind, int allow_empty)
{
    ptx_operand tmp[MAX_ELEMS];
    int n = 0;
    o->kind = kind;
    ptx_advance(p); /* open */
    if (!(allow_empty && ptx_is_punct(p, 0, close))) {
        for (;;) {
            if (n == MAX_ELEMS)
                ptx_perr_tok(p, ptx_peek(p, 0), "too many elements in list");
            ptx_token *t = ptx_peek(p, 0);
            if (t->kind == PTX_TK_PUNCT && (t->punct == '{' || t->punct == '['))
                ptx_perr_tok(p, t, "unexpected '%c' in list", t->punct);
            parse_operand(p, &tmp[n++], 0);
            if (!ptx_is_punct(p, 0, ','))
                break;
            ptx_advance(p);
        }
    }
    ptx_expect_punct(p, close, close == '}' ? "'}'" : close == ')' ? "')'" : "']'");
    o->elems = copy_ops(p, tmp, n);
    o->nelems = n;
}

/* address: '[' ( name [ ('+' | '-') expr ] | expr ) [ ',' operand { ',' operand } ] ']'
 *          [ '.unified' ] */
static void parse_address(ptx_parser *p, ptx_operand *o)
{
    ptx_advance(p); /* [ */
    o->kind = PTX_OP_ADDR;
    ptx_token *t = ptx_peek(p, 0);
    if (t->kind == PTX_TK_IDENT && !is_warp_sz(t)) {
        ptx_token nt = *t;
        const char *name = ptx_tok_intern(p, &nt);
        ptx_sym *s = ptx_lookup(p, name);
        if (!s)
            ptx_perr(p, nt.line, nt.col, "use of undeclared identifier '%s'", name);
        if (s->kind != PTX_SYM_REG && s->kind != PTX_SYM_VAR && s->kind != PTX_SYM_SREG)
            ptx_perr(p, nt.line, nt.col, "'%s' cannot be used as an address", name);
        o->sym = s;
        ptx_advance(p);
        if (s->kind != PTX_SYM_VAR) {
            int c = parse_component(p);
            if (c >= 0)
                o->comp = c;
        }
        if (ptx_is_punct(p, 0, '+')) {
            ptx_advance(p);
            o->ival = ptx_parse_expr(p, NULL);
        } else if (ptx_is_punct(p, 0, '-')) {
            ptx_advance(p);
            o->ival = (int64_t)((uint64_t)0 - (uint64_t)ptx_parse_expr(p, NULL));
        }
    } else if (starts_expr(t)) {
        o->ival = ptx_parse_expr(p, NULL);
    } else {
        char b[64];
        ptx_perr_tok(p, t, "expected an address, found %s", ptx_tok_desc(t, b, sizeof b));
    }
    if (ptx_is_punct(p, 0, ',')) {
        /* texture/surface forms: [tex, sampler, {coords}] */
        ptx_operand tmp[8];
        int n = 0;
        while (ptx_is_punct(p, 0, ',')) {
            ptx_advance(p);
            if (n == 8)
                ptx_perr_tok(p, ptx_peek(p, 0), "too many elements in address");
            parse_operand(p, &tmp[n++], 0);
        }
        o->elems = copy_ops(p, tmp, n);
        o->nelems = n;
    }
    ptx_expect_punct(p, ']', "']'");
    /* `[a].unified` (ld, PTX 8.x): the address is a unified (generic) one, which every
       generic address here is; the attribute changes nothing and is not kept */
    ptx_token *u = ptx_peek(p, 0);
    if (u->kind == PTX_TK_DIR && !u->ws_before && u->len == 8 && !memcmp(u->p, ".unified", 8))
        ptx_advance(p);
}

/* operand: '_' | reg [comp] | reg '+' expr | '!' reg | '-' reg | name [ '+' expr ] | expr
 *        | float | '-' float
 *        | '{' operand { ',' operand } '}' | address | '(' list ')' (call only)
 *        | operand '|' operand (predicate pair) */
static void parse_operand(ptx_parser *p, ptx_operand *o, int in_call)
{
    ptx_token t = *ptx_peek(p, 0);
    op_init(o, &t);
    if (t.kind == PTX_TK_PUNCT && t.punct == '{') {
        parse_list(p, o, '}', PTX_OP_VEC, 0);
        return;
    }
    if (t.kind == PTX_TK_PUNCT && t.punct == '[') {
        parse_address(p, o);
        return;
    }
    if (t.kind == PTX_TK_PUNCT && t.punct == '(' && (in_call & OPF_CALL)) {
        parse_list(p, o, ')', PTX_OP_LIST, 1);
        return;
    }
    if (t.kind == PTX_TK_FLOAT ||
        (t.kind == PTX_TK_PUNCT && t.punct == '-' && ptx_peek(p, 1)->kind == PTX_TK_FLOAT)) {
        int neg = t.kind != PTX_TK_FLOAT;
        if (neg)
            ptx_advance(p);
        ptx_token *f = ptx_peek(p, 0);
        o->kind = PTX_OP_FIMM;
        o->fsize = f->fsize;
        o->fbits = f->fbits;
        o->fval = neg ? -f->fval : f->fval;
        if (neg)
            o->fbits ^= f->fsize == 32 ? 0x80000000u : 0x8000000000000000ull;
        ptx_advance(p);
        return;
    }
    int neg = 0;
    if (t.kind == PTX_TK_PUNCT && (t.punct == '!' || t.punct == '-') &&
        ptx_peek(p, 1)->kind == PTX_TK_IDENT && !is_warp_sz(ptx_peek(p, 1))) {
        neg = 1;
        ptx_advance(p);
    } else if (starts_expr(&t)) {
        o->kind = PTX_OP_IMM;
        o->ival = ptx_parse_expr(p, NULL);
        return;
    }
    ptx_token nt = *ptx_peek(p, 0);
    if (nt.kind != PTX_TK_IDENT) {
        char b[64];
        ptx_perr_tok(p, &nt, "expected an operand, found %s", ptx_tok_desc(&nt, b, sizeof b));
    }
    if (nt.len == 1 && nt.p[0] == '_' && !neg) {
        o->kind = PTX_OP_SINK;
        ptx_advance(p);
    } else {
        ptx_sym *s = resolve_name(p, &nt);
        ptx_advance(p);
        o->sym = s;
        if (s->kind == PTX_SYM_REG || s->kind == PTX_SYM_SREG) {
            o->kind = PTX_OP_REG;
            o->neg = neg;
            if (s->kind == PTX_SYM_SREG &&
                (s->sreg_id == PTX_SREG_ENVREG || s->sreg_id == PTX_SREG_RESERVED_SMEM_OFFSET_2)) {
                int k = 0;
                const char *d = nt.p + nt.len;
                while (d > nt.p && d[-1] >= '0' && d[-1] <= '9')
                    d--;
                for (; d < nt.p + nt.len; d++)
                    k = k * 10 + (*d - '0');
                o->comp = k;
            } else {
                o->comp = parse_component(p);
                if (o->comp < 0 && (in_call & OPF_VSEL) && s->kind == PTX_SYM_REG)
                    o->comp = parse_selector(p);
                /* %tid.x .. %tid.w; scalar special registers take no component */
                if (s->kind == PTX_SYM_SREG && s->vec > 1 && o->comp < 0)
                    ptx_perr(p, nt.line, nt.col, "special register '%s' needs a component "
                             "(%s.x, .y, .z)", s->name, s->name);
                if (s->kind == PTX_SYM_SREG && s->vec == 1 && o->comp >= 0)
                    ptx_perr(p, nt.line, nt.col, "special register '%s' has no components",
                             s->name);
            }
            /* register + constant (no address brackets): `st.u64 [a], r + 1;` */
            if (s->kind == PTX_SYM_REG && o->comp < 0 && !neg && ptx_is_punct(p, 0, '+')) {
                ptx_advance(p);
                o->reg_add = 1;
                o->ival = ptx_parse_expr(p, NULL);
            }
        } else {
            if (neg)
                ptx_perr(p, t.line, t.col, "'%c' can only be applied to a register", t.punct);
            o->kind = PTX_OP_SYM;
            if (ptx_is_punct(p, 0, '+')) {
                ptx_advance(p);
                o->ival = ptx_parse_expr(p, NULL);
            }
        }
    }
    if ((o->kind == PTX_OP_REG || o->kind == PTX_OP_SINK) && ptx_is_punct(p, 0, '|')) {
        /* predicate pair p|q */
        ptx_operand pair[2];
        pair[0] = *o;
        ptx_advance(p);
        ptx_token *q = ptx_peek(p, 0);
        if (q->kind != PTX_TK_IDENT)
            ptx_perr_tok(p, q, "expected a predicate after '|'");
        parse_operand(p, &pair[1], 0);
        if (pair[1].kind != PTX_OP_REG && pair[1].kind != PTX_OP_SINK)
            ptx_perr(p, pair[1].line, pair[1].col, "expected a predicate after '|'");
        op_init(o, &t);
        o->kind = PTX_OP_PAIR;
        o->elems = copy_ops(p, pair, 2);
        o->nelems = 2;
    }
}

/* ---- instructions -------------------------------------------------------------------------- */
/* call: 'call' mods [ '(' rets ')' ',' ] target [ ',' '(' args ')' ] [ ',' proto ] ';' */
static int parse_call_operands(ptx_parser *p, ptx_operand *ops, ptx_insn *in)
{
    int n = 0;
    if (ptx_is_punct(p, 0, '(')) {
        parse_operand(p, &ops[n++], 1);
        in->call_has_ret = 1;
        ptx_expect_punct(p, ',', "',' after the return list");
    }
    ptx_token t = *ptx_peek(p, 0);
    if (t.kind != PTX_TK_IDENT)
        ptx_perr_tok(p, &t, "expected a function or register to call");
    parse_operand(p, &ops[n], 0);
    if (ops[n].kind == PTX_OP_SYM && ops[n].sym->kind == PTX_SYM_LABEL && ops[n].sym->index < 0)
        ptx_perr(p, t.line, t.col, "use of undeclared function '%.*s'", t.len, t.p);
    if (ops[n].kind == PTX_OP_SYM && ops[n].sym->kind != PTX_SYM_FUNC)
        ptx_perr(p, t.line, t.col, "'%.*s' is not a function", t.len, t.p);
    n++;
    while (ptx_is_punct(p, 0, ',')) {
        ptx_advance(p);
        if (n >= 4)
            ptx_perr_tok(p, ptx_peek(p, 0), "too many operands for call");
        parse_operand(p, &ops[n++], 1);
    }
    return n;
}

/* insn: [ '@' ['!'] pred ] opcode { '.' mod } [ operand { ',' operand } ] ';' */
void ptx_parse_insn(ptx_parser *p)
{
    ptx_insn in;
    memset(&in, 0, sizeof in);
    ptx_token start = *ptx_peek(p, 0);
    in.line = start.line;
    in.col = start.col;
    if (start.kind == PTX_TK_PUNCT && start.punct == '@') {
        ptx_advance(p);
        if (ptx_is_punct(p, 0, '!')) {
            in.guard_neg = 1;
            ptx_advance(p);
        }
        ptx_token g = *ptx_peek(p, 0);
        if (g.kind != PTX_TK_IDENT)
            ptx_perr_tok(p, &g, "expected a predicate register after '@'");
        const char *name = ptx_tok_intern(p, &g);
        ptx_sym *s = ptx_lookup(p, name);
        if (!s)
            ptx_perr(p, g.line, g.col, "use of undeclared register '%s'", name);
        if (s->kind != PTX_SYM_REG || s->type != PTX_T_PRED)
            ptx_perr(p, g.line, g.col, "guard '%s' is not a predicate register", name);
        in.guard = s;
        ptx_advance(p);
    }
    ptx_token op = *ptx_peek(p, 0);
    if (op.kind != PTX_TK_IDENT) {
        char b[64];
        ptx_perr_tok(p, &op, "expected an instruction, found %s", ptx_tok_desc(&op, b, sizeof b));
    }
    in.opcode = ptx_tok_intern(p, &op);
    if (!PTX_NAME(in.opcode)->op)
        ptx_perr(p, op.line, op.col, "unknown instruction '%s'", in.opcode);
    in.opc = PTX_NAME(in.opcode)->op - 1;
    ptx_advance(p);
    const char *mods[32];
    int nm = 0;
    while (ptx_peek(p, 0)->kind == PTX_TK_DIR) {
        ptx_token *d = ptx_peek(p, 0);
        if (nm == 32)
            ptx_perr_tok(p, d, "too many instruction modifiers");
        const char *m = ptx_intern_str(&p->in, d->p + 1, (size_t)d->len - 1);
        if (!m)
            ptx_perr(p, d->line, d->col, "out of memory");
        mods[nm++] = m;
        ptx_advance(p);
    }
    in.nmods = nm;
    in.mods = ptx_alloc(p, sizeof *in.mods * (size_t)(nm ? nm : 1));
    memcpy(in.mods, mods, sizeof *mods * (size_t)nm);
    ptx_operand ops[MAX_OPS];
    int n = 0;
    ptx_token *nx = ptx_peek(p, 0);
    if (nx->kind == PTX_TK_EOF || (nx->kind == PTX_TK_PUNCT && nx->punct == '}'))
        ptx_perr_tok(p, nx, "expected ';' after instruction");
    if (!ptx_is_punct(p, 0, ';')) {
        if (in.opc == PTX_OPC_call) {
            n = parse_call_operands(p, ops, &in);
        } else {
            int vsel = ptx_op_is(&in, PTX_OPF_VSEL);
            for (;;) {
                if (n == MAX_OPS)
                    ptx_perr_tok(p, ptx_peek(p, 0), "too many operands");
                parse_operand(p, &ops[n++], vsel ? OPF_VSEL : 0);
                if (!ptx_is_punct(p, 0, ','))
                    break;
                ptx_advance(p);
            }
        }
    }
    ptx_token *semi = ptx_peek(p, 0);
    if (semi->kind == PTX_TK_EOF)
        ptx_perr(p, op.line, op.col, "unterminated instruction: missing ';'");
    if (!(semi->kind == PTX_TK_PUNCT && semi->punct == ';')) {
        char b[64];
        ptx_perr_tok(p, semi, "expected ',' or ';' after operand, found %s",
                     ptx_tok_desc(semi, b, sizeof b));
    }
    ptx_advance(p);
    in.ops = copy_ops(p, ops, n);
    in.nops = n;
    in.loc = p->last_loc;
    in.used_bytes_mask = p->used_mask;
    p->used_mask = 0;
    p->loc_open = 0;
    ptx_func *f = p->fn;
    PTX_PUSH(p, f->insns, f->ninsns, p->capinsns, in);
}

/* ---- .loc -------------------------------------------------------------------------------- */
/* loc: '.loc' file line col [ ',' 'function_name' label [ '+' expr ] ]
 *      [ ',' 'inlined_at' file line col ] */
void ptx_parse_loc(ptx_parser *p)
{
    ptx_token kw = *ptx_peek(p, 0);
    ptx_advance(p);
    ptx_loc l;
    memset(&l, 0, sizeof l);
    int v[3];
    for (int i = 0; i < 3; i++) {
        ptx_token *t = ptx_peek(p, 0);
        if (t->kind != PTX_TK_INT || t->ival > INT32_MAX)
            ptx_perr_tok(p, t, "expected a number in .loc");
        v[i] = (int)t->ival;
        ptx_advance(p);
    }
    l.file = v[0];
    l.line = v[1];
    l.col = v[2];
    while (ptx_is_punct(p, 0, ',')) {
        ptx_advance(p);
        ptx_token k = *ptx_peek(p, 0);
        if (k.kind == PTX_TK_IDENT && k.len == 13 && memcmp(k.p, "function_name", 13) == 0) {
            ptx_advance(p);
            ptx_token n = *ptx_peek(p, 0);
            if (n.kind != PTX_TK_IDENT)
                ptx_perr_tok(p, &n, "expected a label after function_name");
            l.function_name = ptx_tok_intern(p, &n);
            ptx_advance(p);
            if (ptx_is_punct(p, 0, '+')) {
                ptx_advance(p);
                ptx_parse_expr(p, NULL);
            }
        } else if (k.kind == PTX_TK_IDENT && k.len == 10 && memcmp(k.p, "inlined_at", 10) == 0) {
            ptx_advance(p);
            for (int i = 0; i < 3; i++) {
                ptx_token *t = ptx_peek(p, 0);
                if (t->kind != PTX_TK_INT || t->ival > INT32_MAX)
                    ptx_perr_tok(p, t, "expected a number after inlined_at");
                v[i] = (int)t->ival;
                ptx_advance(p);
            }
            l.inl_file = v[0];
            l.inl_line = v[1];
            l.inl_col = v[2];
        } else {
            ptx_perr_tok(p, &k, "expected 'function_name' or 'inlined_at' in .loc");
        }
    }
    l.ptx_line = kw.line;
    l.prev = (p->fn && p->loc_open) ? p->last_loc : -1;
    PTX_PUSH(p, p->m->locs, p->m->nlocs, p->caplocs, l);
    if (p->fn) {
        p->last_loc = p->m->nlocs - 1;
        p->loc_open = 1;
    }
}
