/* dbg_finish.c - finish with the return value: the function's return type, its ret instructions, and the bits it returns when the lane stands at a ret. */
#include <string.h>
#include "dbg_int.h"

const dw_type *dbg_frame_return_type(dbg_session *s, const dbg_frame *f)
{
    dw_info *d = s->dw;
    const dw_func *df = d && f && !f->inl_name ? dw_func_of_ptx(d, f->func) : NULL;
    return df && df->ret_type && f->func->nrets ? df->ret_type : NULL;
}

int dbg_func_ret_pcs(dbg_session *s, const ptx_func *fn, uint32_t *pcs, int max)
{
    int64_t base = s->m && fn ? exec_func_pc(s->m, fn) : -1;
    int n = 0;
    for (int i = 0; base >= 0 && i < fn->ninsns && n < max; i++)
        if (fn->insns[i].opc == PTX_OPC_ret)
            pcs[n++] = (uint32_t)base + (uint32_t)i;
    return n;
}

void dbg_history_push(dbg_session *s, const dbg_value *v)
{
    dbg_history_add(&s->hist, v, s->dw);
}

/* The bits the function returns when the lane stands at its `ret`: the register (or
 * immediate) the last `st.param [func_retval0]` before that ret stored. */
int dbg_return_bits(dbg_session *s, const ptx_func *fn, uint32_t pc, uint64_t *bits)
{
    exec_machine *m = s->m;
    if (!m || !fn)
        return -1;
    int64_t base = exec_func_pc(m, fn);
    if (base < 0 || pc < (uint64_t)base)
        return -1;
    const dbg_focus *f = dbg_get_focus(s);
    for (int64_t i = (int64_t)(pc - (uint64_t)base); i >= 0; i--) {
        const ptx_insn *in = &fn->insns[i];
        if (in->opc != PTX_OPC_st || in->nops != 2 || in->ops[0].kind != PTX_OP_ADDR ||
            !in->ops[0].sym || !fn->nrets || in->ops[0].sym != fn->rets[0] || in->ops[0].ival)
            continue;
        const ptx_operand *src = &in->ops[1];
        if (src->kind == PTX_OP_IMM) {
            *bits = (uint64_t)src->ival;
            return 0;
        }
        if (src->kind == PTX_OP_FIMM) {
            *bits = src->fbits;
            return 0;
        }
        ptx_type t;
        if (src->kind == PTX_OP_REG && src->sym &&
            exec_reg_get(m, f->cta, f->warp, f->lane, 0, src->sym->name, bits, &t) == 0)
            return 0;
        return -1;
    }
    return -1;
}

