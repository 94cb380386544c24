/* dbg_ccond.c - breakpoint conditions compiled for the core (exec_cond programs).
 *
 * A condition that only reads registers, special registers, the CUDA built-ins (threadIdx.x,
 * blockIdx.y, warpSize, ...) and literals, with C operators, is translated into an exec_cond
 * program the core evaluates over a group's lanes without stopping; the debugger then sees only
 * the stops where the condition holds for some lane (and evaluates it there as before, so the
 * message, hit and ignore counts do not change). The translation mirrors dbg_eval.c's typed
 * arithmetic exactly (usual arithmetic conversions, values fitted to their type after every
 * operation, float results rounded to float); anything else (variables, memory, history,
 * casts to f16, ?:, float-to-integer casts) is not translated and keeps the debugger's path. */
#include <string.h>
#include "dbg_expr.h"

typedef struct {
    exec_machine *m;
    const ptx_func *f;
    exec_cond *prog;
    int n, max, dry;
} cc;

typedef struct { int isf; ptx_type t; } cty;   /* a value's static type */

static int tbytes(ptx_type t)
{
    if (t == PTX_T_PRED)
        return 1;
    int b = ptx_type_bits(t);
    return b > 0 ? b / 8 : 0;
}

/* dbg_eval.c's arith_type */
static ptx_type arith(cty a, cty b)
{
    if (a.isf || b.isf) {
        ptx_type ta = a.isf ? a.t : PTX_T_NONE, tb = b.isf ? b.t : PTX_T_NONE;
        return ta == PTX_T_F64 || tb == PTX_T_F64 ? PTX_T_F64 : PTX_T_F32;
    }
    int sa = tbytes(a.t) < 4 ? 4 : tbytes(a.t), sb = tbytes(b.t) < 4 ? 4 : tbytes(b.t);
    int ua = tbytes(a.t) >= 4 && !ptx_type_is_signed(a.t);
    int ub = tbytes(b.t) >= 4 && !ptx_type_is_signed(b.t);
    int size = sa > sb ? sa : sb;
    int uns = (sa == size && ua) || (sb == size && ub);
    if (size == 8)
        return uns ? PTX_T_U64 : PTX_T_S64;
    return uns ? PTX_T_U32 : PTX_T_S32;
}

static int emit(cc *x, int op)
{
    if (x->n >= x->max)
        return -1;
    if (!x->dry) {
        memset(&x->prog[x->n], 0, sizeof x->prog[x->n]);
        x->prog[x->n].op = (uint8_t)op;
    }
    x->n++;
    return 0;
}
#define LAST(x) (&(x)->prog[(x)->n - 1])

static int emit_fit(cc *x, ptx_type t)
{
    int bits = t == PTX_T_PRED ? 1 : ptx_type_bits(t);
    if (bits == 1 || bits >= 64)
        return bits > 0 ? 0 : -1;   /* 64 bits: nothing to do; predicates stay 0/1 */
    if (bits != 8 && bits != 16 && bits != 32)
        return -1;
    if (emit(x, EXEC_C_FIT))
        return -1;
    if (!x->dry) {
        LAST(x)->bits = (uint8_t)bits;
        LAST(x)->sgn = (uint8_t)ptx_type_is_signed(t);
    }
    return 0;
}

static int emit_imm(cc *x, uint64_t v)
{
    if (emit(x, EXEC_C_IMM))
        return -1;
    if (!x->dry)
        LAST(x)->imm = v;
    return 0;
}

/* integer value -> double (dbg_value_double) */
static int to_double(cc *x, cty v)
{
    if (v.isf)
        return 0;
    if (emit(x, EXEC_C_I2F))
        return -1;
    if (!x->dry)
        LAST(x)->sgn = (uint8_t)ptx_type_is_signed(v.t);
    return 0;
}

static int gen(cc *x, const dbg_expr *e, cty *out);

static int gen_sreg(cc *x, int id, int comp, cty *out)
{
    if (emit(x, EXEC_C_SREG))
        return -1;
    if (!x->dry) {
        LAST(x)->id = id;
        LAST(x)->comp = comp;
    }
    out->isf = 0;
    out->t = id == PTX_SREG_CLOCK64 || id == PTX_SREG_GLOBALTIMER || id == PTX_SREG_GRIDID
             ? PTX_T_U64 : PTX_T_U32;
    return 0;
}

static int gen_reg(cc *x, const char *name, cty *out)
{
    int id, comp;
    if (dbg_sreg_lookup(name, &id, &comp) == 0) {
        if (id == PTX_SREG_CLOCK || id == PTX_SREG_CLOCK_HI || id == PTX_SREG_CLOCK64 ||
            id == PTX_SREG_GLOBALTIMER || id == PTX_SREG_GLOBALTIMER_LO ||
            id == PTX_SREG_GLOBALTIMER_HI)
            return -1;
        return gen_sreg(x, id, comp, out);
    }
    ptx_type t;
    if (strlen(name) >= sizeof x->prog[0].name || exec_func_reg_type(x->m, x->f, name, &t) != 0)
        return -1;
    int ok = t == PTX_T_PRED || t == PTX_T_F16 || t == PTX_T_F32 || t == PTX_T_F64 ||
             (t >= PTX_T_B8 && t <= PTX_T_S64 && t != PTX_T_B128 && tbytes(t) >= 1);
    if (!ok || emit(x, EXEC_C_REG))
        return -1;
    if (!x->dry) {
        LAST(x)->type = (uint16_t)t;
        strcpy(LAST(x)->name, name);
    }
    out->t = dbg_type_norm(t);
    out->isf = t == PTX_T_F16 || t == PTX_T_F32 || t == PTX_T_F64;
    return 0;
}

static int gen_binary(cc *x, const dbg_expr *e, cty *out)
{
    cty a, b;
    /* the right operand's type decides the left one's conversion: find it first */
    int n0 = x->n;
    x->dry++;
    int r = gen(x, e->b, &b);
    x->dry--;
    x->n = n0;
    if (r || gen(x, e->a, &a))
        return -1;
    dbg_exop op = e->op;
    ptx_type t = arith(a, b);
    int isf = t == PTX_T_F32 || t == PTX_T_F64, sgn = ptx_type_is_signed(t);
    int cmp = op >= EX_LT && op <= EX_NE;
    if (isf) {
        static const int fops[] = {
            [EX_LT] = EXEC_C_FLT, [EX_GT] = EXEC_C_FGT, [EX_LE] = EXEC_C_FLE,
            [EX_GE] = EXEC_C_FGE, [EX_EQ] = EXEC_C_FEQ, [EX_NE] = EXEC_C_FNE,
            [EX_ADD] = EXEC_C_FADD, [EX_SUB] = EXEC_C_FSUB, [EX_MUL] = EXEC_C_FMUL,
            [EX_DIV] = EXEC_C_FDIV};
        if (!cmp && op != EX_ADD && op != EX_SUB && op != EX_MUL && op != EX_DIV)
            return -1;   /* integer-only operation on a float: the debugger reports it */
        if (to_double(x, a) || gen(x, e->b, &b) || to_double(x, b) || emit(x, fops[op]))
            return -1;
        if (cmp) {
            out->isf = 0;
            out->t = PTX_T_S32;
            return 0;
        }
        if (t == PTX_T_F32 && emit(x, EXEC_C_F32))
            return -1;
        out->isf = 1;
        out->t = t;
        return 0;
    }
    if (op == EX_SHL || op == EX_SHR) {
        ptx_type tl = arith(a, a);
        if (emit_fit(x, tl) || gen(x, e->b, &b))
            return -1;
        int sop = op == EX_SHL ? EXEC_C_SHL : ptx_type_is_signed(tl) ? EXEC_C_SHRS : EXEC_C_SHRU;
        if (emit(x, sop) || emit_fit(x, tl))
            return -1;
        out->isf = 0;
        out->t = tl;
        return 0;
    }
    int iop;
    switch (op) {
    case EX_LT: iop = sgn ? EXEC_C_LTS : EXEC_C_LTU; break;
    case EX_GT: iop = sgn ? EXEC_C_GTS : EXEC_C_GTU; break;
    case EX_LE: iop = sgn ? EXEC_C_LES : EXEC_C_LEU; break;
    case EX_GE: iop = sgn ? EXEC_C_GES : EXEC_C_GEU; break;
    case EX_EQ: iop = EXEC_C_EQ; break;
    case EX_NE: iop = EXEC_C_NE; break;
    case EX_ADD: iop = EXEC_C_ADD; break;
    case EX_SUB: iop = EXEC_C_SUB; break;
    case EX_MUL: iop = EXEC_C_MUL; break;
    case EX_DIV: iop = sgn ? EXEC_C_DIVS : EXEC_C_DIVU; break;
    case EX_MOD: iop = sgn ? EXEC_C_MODS : EXEC_C_MODU; break;
    case EX_BAND: iop = EXEC_C_AND; break;
    case EX_BOR: iop = EXEC_C_OR; break;
    case EX_BXOR: iop = EXEC_C_XOR; break;
    default: return -1;
    }
    if (emit_fit(x, t) || gen(x, e->b, &b) || emit_fit(x, t) || emit(x, iop))
        return -1;
    if (cmp) {
        out->isf = 0;
        out->t = PTX_T_S32;
        return 0;
    }
    if (emit_fit(x, t))
        return -1;
    out->isf = 0;
    out->t = t;
    return 0;
}

static int truth(cc *x, cty v)
{
    return emit(x, v.isf ? EXEC_C_FBOOL : EXEC_C_BOOL);
}

static int gen(cc *x, const dbg_expr *e, cty *out)
{
    static const struct { const char *n; int id; } dims[] = {
        {"threadIdx", PTX_SREG_TID}, {"blockIdx", PTX_SREG_CTAID},
        {"blockDim", PTX_SREG_NTID}, {"gridDim", PTX_SREG_NCTAID}};
    cty a, b;
    switch (e->op) {
    case EX_INT: {
        ptx_type t = e->type;
        if (!(t >= PTX_T_B8 && t <= PTX_T_S64 && t != PTX_T_B128))
            return -1;
        int bits = ptx_type_bits(t);
        uint64_t v = e->ival;
        if (bits < 64) {
            uint64_t mask = (UINT64_C(1) << bits) - 1;
            v &= mask;
            if (ptx_type_is_signed(t) && (v >> (bits - 1) & 1))
                v |= ~mask;
        }
        out->isf = 0;
        out->t = t;
        return emit_imm(x, v);
    }
    case EX_FLOAT: {
        if (e->type != PTX_T_F32 && e->type != PTX_T_F64 && e->type != PTX_T_F16)
            return -1;
        uint64_t bits;
        memcpy(&bits, &e->fval, 8);
        out->isf = 1;
        out->t = e->type;
        return emit_imm(x, bits);
    }
    case EX_REG:
        return gen_reg(x, e->name, out);
    case EX_IDENT:
        if (!strcmp(e->name, "warpSize") || !strcmp(e->name, "true") ||
            !strcmp(e->name, "false")) {
            out->isf = 0;
            out->t = PTX_T_S32;
            return emit_imm(x, e->name[0] == 'f' ? 0 : e->name[0] == 't' ? 1 : 32);
        }
        return -1;
    case EX_MEMBER:
        if (e->a->op != EX_IDENT || strlen(e->name) != 1 || !strchr("xyz", e->name[0]))
            return -1;
        for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++)
            if (!strcmp(e->a->name, dims[i].n))
                return gen_sreg(x, dims[i].id, e->name[0] - 'x', out);
        return -1;
    case EX_NEG: case EX_POS: case EX_NOT: case EX_BITNOT:
        if (gen(x, e->a, &a))
            return -1;
        if (e->op == EX_NOT) {
            out->isf = 0;
            out->t = PTX_T_S32;
            return emit(x, a.isf ? EXEC_C_FNOT : EXEC_C_NOT);
        }
        if (a.isf) {
            if (e->op == EX_BITNOT)
                return -1;
            *out = a;
            return e->op == EX_NEG ? emit(x, EXEC_C_FNEG) : 0;
        }
        out->isf = 0;
        out->t = arith(a, a);
        if (e->op == EX_NEG && emit(x, EXEC_C_NEG))
            return -1;
        if (e->op == EX_BITNOT && emit(x, EXEC_C_BNOT))
            return -1;
        return emit_fit(x, out->t);
    case EX_CAST: {
        if (e->nptr || e->tname || gen(x, e->a, &a))
            return -1;
        ptx_type t = dbg_type_norm(e->type);
        out->t = t;
        out->isf = t == PTX_T_F32 || t == PTX_T_F64;
        if (t == PTX_T_PRED) {
            out->isf = 0;
            return truth(x, a);
        }
        if (t == PTX_T_F32 || t == PTX_T_F64) {
            if (to_double(x, a))
                return -1;
            return t == PTX_T_F32 ? emit(x, EXEC_C_F32) : 0;
        }
        if (a.isf || !(t >= PTX_T_U8 && t <= PTX_T_S64 && t != PTX_T_B128))
            return -1;   /* float -> integer and casts to f16 stay with the debugger */
        return emit_fit(x, t);
    }
    case EX_LAND:
    case EX_LOR:
        if (gen(x, e->a, &a) || truth(x, a) || gen(x, e->b, &b) || truth(x, b) ||
            emit(x, e->op == EX_LAND ? EXEC_C_LAND : EXEC_C_LOR))
            return -1;
        out->isf = 0;
        out->t = PTX_T_S32;
        return 0;
    case EX_MUL: case EX_DIV: case EX_MOD: case EX_ADD: case EX_SUB: case EX_SHL: case EX_SHR:
    case EX_LT: case EX_GT: case EX_LE: case EX_GE: case EX_EQ: case EX_NE: case EX_BAND:
    case EX_BXOR: case EX_BOR:
        return gen_binary(x, e, out);
    default:
        return -1;
    }
}

int dbg_cond_core(exec_machine *m, const dbg_expr *e, const ptx_func *f, exec_cond *prog,
                  int max)
{
    cc x = {m, f, prog, 0, max, 0};
    cty v;
    if (!m || !f || !e || e->depth > 64 || gen(&x, e, &v) || truth(&x, v))
        return -1;
    return x.n;
}
