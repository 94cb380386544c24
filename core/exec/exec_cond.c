/* exec_cond.c - breakpoint conditions evaluated inside the core, over a group's lanes at once. */
#include <stdlib.h>
#include <string.h>
#include "exec_core.h"
#include "exec_fp.h"

/* A resolved program: register names became slot offsets (or predicate indexes) of the
 * function that contains the breakpoint's pc. */
typedef struct {
    uint8_t op, bits, sgn, rbits; /* rbits: REG storage width (1 = predicate) */
    uint16_t type;
    uint32_t off;                 /* REG: slot byte offset / predicate index; SREG: sreg slot */
    uint64_t imm;
} exec_cop;

struct exec_bpcond {
    int n;
    exec_cop op[];
};

static int cond_err(exec_machine *m, const char *msg, const char *arg)
{
    snprintf(m->err, sizeof m->err, "%s%s", msg, arg ? arg : "");
    return -1;
}

/* Stack effect of an op: pushes (1), binary (-1) or unary (0). */
static int cond_effect(int op)
{
    switch (op) {
    case EXEC_C_REG: case EXEC_C_SREG: case EXEC_C_IMM:
        return 1;
    case EXEC_C_FIT: case EXEC_C_I2F: case EXEC_C_F32: case EXEC_C_NEG: case EXEC_C_BNOT:
    case EXEC_C_FNEG: case EXEC_C_NOT: case EXEC_C_FNOT: case EXEC_C_BOOL: case EXEC_C_FBOOL:
        return 0;
    default:
        return op >= EXEC_C_ADD && op <= EXEC_C_LOR ? -1 : 99;
    }
}

int exec_set_break_cond(exec_machine *m, uint32_t pc, const exec_cond *prog, int n)
{
    if (pc >= m->ncode)
        return cond_err(m, "no instruction at that pc", NULL);
    if (m->bp_cond && m->bp_cond[pc]) {
        free(m->bp_cond[pc]);
        m->bp_cond[pc] = NULL;
    }
    if (!prog || n <= 0)
        return 0;
    if (n > EXEC_COND_MAX)
        return cond_err(m, "condition too long", NULL);
    const exec_fdec *fd = exec_fdec_of_pc(m, pc);
    if (!fd)
        return cond_err(m, "no function at that pc", NULL);
    struct exec_bpcond *c = malloc(sizeof *c + (size_t)n * sizeof c->op[0]);
    if (!c)
        return cond_err(m, "out of memory", NULL);
    c->n = n;
    int depth = 0;
    for (int i = 0; i < n; i++) {
        const exec_cond *p = &prog[i];
        exec_cop *o = &c->op[i];
        memset(o, 0, sizeof *o);
        o->op = p->op;
        o->bits = p->bits;
        o->sgn = p->sgn;
        o->imm = p->imm;
        int eff = cond_effect(p->op);
        if (eff == 99 || depth + (eff > 0 ? 1 : 0) > EXEC_COND_DEPTH ||
            depth < (eff < 0 ? 2 : eff == 0 ? 1 : 0)) {
            free(c);
            return cond_err(m, "malformed condition program", NULL);
        }
        depth += eff;
        if (p->op == EXEC_C_FIT && p->bits != 8 && p->bits != 16 && p->bits != 32 &&
            p->bits != 64) {
            free(c);
            return cond_err(m, "malformed condition program", NULL);
        }
        if (p->op == EXEC_C_REG) {
            int comp;
            const ptx_sym *s;
            char name[sizeof p->name + 1];
            memcpy(name, p->name, sizeof p->name);
            name[sizeof p->name] = 0;
            int ri = exec_fdec_find_reg(fd, name, &comp, &s);
            ptx_type t = ri >= 0 ? s->type : PTX_T_NONE;
            int bits = t == PTX_T_PRED ? 1 : ptx_type_bits(t);
            int ok = ri >= 0 && t == (ptx_type)p->type &&
                     (t == PTX_T_PRED || t == PTX_T_F16 || t == PTX_T_F32 || t == PTX_T_F64 ||
                      (t >= PTX_T_B8 && t <= PTX_T_S64 && t != PTX_T_B128)) &&
                     (bits == 1 || bits == 8 || bits == 16 || bits == 32 || bits == 64);
            if (!ok) {
                free(c);
                return cond_err(m, "no register (or not of the expected type) ", name);
            }
            o->type = (uint16_t)t;
            o->rbits = (uint8_t)bits;
            o->off = fd->reg_off[ri] + (uint32_t)comp * (bits == 1 ? 1u : (uint32_t)EXEC_SLOT);
        } else if (p->op == EXEC_C_SREG) {
            int bits;
            int slot = exec_sreg_slot((ptx_sreg_id)p->id, p->comp, &bits);
            if (slot < 0 || slot == EXEC_SR_CLOCK || slot == EXEC_SR_CLOCK_HI ||
                slot == EXEC_SR_CLOCK64 || slot == EXEC_SR_GTIMER ||
                slot == EXEC_SR_GTIMER_LO || slot == EXEC_SR_GTIMER_HI) {
                free(c);
                return cond_err(m, "special register not readable in a core condition", NULL);
            }
            o->off = (uint32_t)slot;
            o->rbits = (uint8_t)bits;
        }
    }
    if (depth != 1) {
        free(c);
        return cond_err(m, "malformed condition program", NULL);
    }
    if (!m->bp_cond) {
        m->bp_cond = calloc(m->ncode, sizeof *m->bp_cond);
        if (!m->bp_cond) {
            free(c);
            return cond_err(m, "out of memory", NULL);
        }
    }
    m->bp_cond[pc] = c;
    return 0;
}

void exec_bp_cond_free(exec_machine *m)
{
    if (!m->bp_cond)
        return;
    for (uint32_t pc = 0; pc < m->ncode; pc++)
        free(m->bp_cond[pc]);
    free(m->bp_cond);
    m->bp_cond = NULL;
}

static inline uint64_t cond_fit(uint64_t v, int bits, int sgn)
{
    if (bits >= 64)
        return v;
    uint64_t mask = (UINT64_C(1) << bits) - 1;
    v &= mask;
    if (sgn && (v >> (bits - 1) & 1))
        v |= ~mask;
    return v;
}

#define L for (int i = 0; i < EXEC_LANES; i++)

/* Every op runs over all 32 lanes (inactive lanes compute garbage harmlessly; divisions guard
 * their divisor) so the loops are straight and short. */
uint32_t exec_bp_cond_lanes(exec_warp *w, const struct exec_bpcond *c, uint32_t lanes)
{
    typedef union { uint64_t u[EXEC_LANES]; double f[EXEC_LANES]; } vec;
    vec st[EXEC_COND_DEPTH];
    uint32_t err = 0;
    int sp = 0;
    for (int k = 0; k < c->n; k++) {
        const exec_cop *o = &c->op[k];
        vec *a = NULL, *b = NULL;
        if (sp > 0)
            a = b = &st[sp - 1];
        if (cond_effect(o->op) < 0) {
            a = &st[sp - 2];
            sp--;
        }
        switch (o->op) {
        case EXEC_C_REG: {
            vec *d = &st[sp++];
            if (o->rbits == 1) {
                uint32_t p = w->r.preds[o->off];
                L d->u[i] = (p >> i) & 1;
                break;
            }
            const uint8_t *slot = w->r.regs + o->off;
            switch (o->rbits) {
            case 8: L d->u[i] = slot[i]; break;
            case 16: L d->u[i] = ((const uint16_t *)(const void *)slot)[i]; break;
            case 32: L d->u[i] = ((const uint32_t *)(const void *)slot)[i]; break;
            default: L d->u[i] = ((const uint64_t *)(const void *)slot)[i]; break;
            }
            if (o->type == PTX_T_F32) {
                L d->f[i] = (double)exec_u2f((uint32_t)d->u[i]);
            } else if (o->type == PTX_T_F64) {
                /* the bits are the double */
            } else if (o->type == PTX_T_F16) {
                L d->f[i] = (double)exec_h2f((uint16_t)d->u[i]);
            } else {
                int sg = ptx_type_is_signed((ptx_type)o->type);
                L d->u[i] = cond_fit(d->u[i], o->rbits, sg);
            }
            break;
        }
        case EXEC_C_SREG: {
            vec *d = &st[sp++];
            const uint8_t *p = w->r.sregs + (size_t)o->off * EXEC_SLOT;
            if (o->rbits == 64)
                L d->u[i] = ((const uint64_t *)(const void *)p)[i];
            else
                L d->u[i] = ((const uint32_t *)(const void *)p)[i];
            break;
        }
        case EXEC_C_IMM: {
            vec *d = &st[sp++];
            L d->u[i] = o->imm;
            break;
        }
        case EXEC_C_FIT: L b->u[i] = cond_fit(b->u[i], o->bits, o->sgn); break;
        case EXEC_C_I2F:
            if (o->sgn)
                L b->f[i] = (double)(int64_t)b->u[i];
            else
                L b->f[i] = (double)b->u[i];
            break;
        case EXEC_C_F32: L b->f[i] = (double)(float)b->f[i]; break;
        case EXEC_C_ADD: L a->u[i] += b->u[i]; break;
        case EXEC_C_SUB: L a->u[i] -= b->u[i]; break;
        case EXEC_C_MUL: L a->u[i] *= b->u[i]; break;
        case EXEC_C_DIVS: case EXEC_C_MODS: case EXEC_C_DIVU: case EXEC_C_MODU:
            L {
                uint64_t p = a->u[i], q = b->u[i], r;
                if (!q) {
                    err |= 1u << i;
                    r = 0;
                } else if (o->op == EXEC_C_DIVU) {
                    r = p / q;
                } else if (o->op == EXEC_C_MODU) {
                    r = p % q;
                } else if ((int64_t)q == -1) {
                    r = o->op == EXEC_C_DIVS ? (uint64_t)0 - p : 0;
                } else {
                    r = (uint64_t)(o->op == EXEC_C_DIVS ? (int64_t)p / (int64_t)q
                                                        : (int64_t)p % (int64_t)q);
                }
                a->u[i] = r;
            }
            break;
        case EXEC_C_AND: L a->u[i] &= b->u[i]; break;
        case EXEC_C_OR: L a->u[i] |= b->u[i]; break;
        case EXEC_C_XOR: L a->u[i] ^= b->u[i]; break;
        case EXEC_C_SHL: L a->u[i] = b->u[i] >= 64 ? 0 : a->u[i] << b->u[i]; break;
        case EXEC_C_SHRU: L a->u[i] = b->u[i] >= 64 ? 0 : a->u[i] >> b->u[i]; break;
        case EXEC_C_SHRS:
            L a->u[i] = b->u[i] >= 64 ? ((int64_t)a->u[i] < 0 ? UINT64_MAX : 0)
                                      : (uint64_t)((int64_t)a->u[i] >> b->u[i]);
            break;
        case EXEC_C_NEG: L b->u[i] = (uint64_t)0 - b->u[i]; break;
        case EXEC_C_BNOT: L b->u[i] = ~b->u[i]; break;
        case EXEC_C_FADD: L a->f[i] = a->f[i] + b->f[i]; break;
        case EXEC_C_FSUB: L a->f[i] = a->f[i] - b->f[i]; break;
        case EXEC_C_FMUL: L a->f[i] = a->f[i] * b->f[i]; break;
        case EXEC_C_FDIV: L a->f[i] = a->f[i] / b->f[i]; break;
        case EXEC_C_FNEG: L b->f[i] = -b->f[i]; break;
        case EXEC_C_EQ: L a->u[i] = a->u[i] == b->u[i]; break;
        case EXEC_C_NE: L a->u[i] = a->u[i] != b->u[i]; break;
        case EXEC_C_LTS: L a->u[i] = (int64_t)a->u[i] < (int64_t)b->u[i]; break;
        case EXEC_C_LES: L a->u[i] = (int64_t)a->u[i] <= (int64_t)b->u[i]; break;
        case EXEC_C_GTS: L a->u[i] = (int64_t)a->u[i] > (int64_t)b->u[i]; break;
        case EXEC_C_GES: L a->u[i] = (int64_t)a->u[i] >= (int64_t)b->u[i]; break;
        case EXEC_C_LTU: L a->u[i] = a->u[i] < b->u[i]; break;
        case EXEC_C_LEU: L a->u[i] = a->u[i] <= b->u[i]; break;
        case EXEC_C_GTU: L a->u[i] = a->u[i] > b->u[i]; break;
        case EXEC_C_GEU: L a->u[i] = a->u[i] >= b->u[i]; break;
        case EXEC_C_FEQ: L a->u[i] = a->f[i] == b->f[i]; break;
        case EXEC_C_FNE: L a->u[i] = a->f[i] != b->f[i]; break;
        case EXEC_C_FLT: L a->u[i] = a->f[i] < b->f[i]; break;
        case EXEC_C_FLE: L a->u[i] = a->f[i] <= b->f[i]; break;
        case EXEC_C_FGT: L a->u[i] = a->f[i] > b->f[i]; break;
        case EXEC_C_FGE: L a->u[i] = a->f[i] >= b->f[i]; break;
        case EXEC_C_NOT: L b->u[i] = b->u[i] == 0; break;
        case EXEC_C_FNOT: L b->u[i] = b->f[i] == 0; break;
        case EXEC_C_BOOL: L b->u[i] = b->u[i] != 0; break;
        case EXEC_C_FBOOL: L b->u[i] = b->f[i] != 0; break;
        case EXEC_C_LAND: L a->u[i] = (a->u[i] != 0) & (b->u[i] != 0); break;
        case EXEC_C_LOR: L a->u[i] = (a->u[i] != 0) | (b->u[i] != 0); break;
        default: return lanes;   /* unreachable: programs are checked when set */
        }
    }
    uint32_t r = 0;
    L r |= (uint32_t)(st[0].u[i] != 0) << i;
    return (r | err) & lanes;
}
