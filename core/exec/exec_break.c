/* exec_break.c - breakpoint and step-mark flags per pc, the breakpoint stub, collective test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec_core.h"

/* Breakpoint stub: stops before the instruction unless this warp's group already reported
 * this very breakpoint (its pass, exec_warp.bp_pass): then the instruction runs once. */
int exec_bp_stub(exec_warp *w, const exec_insn *in, uint32_t m)
{
    exec_machine *mc = w->m;
    if (w->bp_pass == in->pc + 1 && (w->cur_mask & w->bp_pass_lanes)) {
        w->bp_pass_lanes &= ~w->cur_mask;
        if (!w->bp_pass_lanes)
            w->bp_pass = 0;
        return m ? mc->bp_orig[in->pc](w, in, m) : EXEC_NEXT;
    }
    uint32_t lanes = w->cur_mask;
    /* a step mark stops only the focused lane of the step (exec_set_step_mark) */
    int stepped = w->id == mc->sf_warp && w->cta->id == mc->sf_cta;
    int mark = (mc->bpk[in->pc] & 2) && (w->cur_mask & mc->sf_lanes) && stepped;
    int bp = (mc->bpk[in->pc] & 1) != 0;
    if (bp && mc->sf_lane && stepped) {
        /* a lane step ends when that lane reaches its next line, whatever its warp-mates meet:
           they run through breakpoints as they catch up with it; its own stops it */
        lanes &= mc->sf_lanes;
        bp = lanes != 0;
    }
    if (!bp && !mark)
        return m ? mc->bp_orig[in->pc](w, in, m) : EXEC_NEXT;
    if (bp && mc->bp_cond && mc->bp_cond[in->pc]) {
        /* a condition false for every lane of the group: run on without stopping */
        lanes = exec_bp_cond_lanes(w, mc->bp_cond[in->pc], lanes);
        if (!lanes && !mark)
            return m ? mc->bp_orig[in->pc](w, in, m) : EXEC_NEXT;
    }
    if (!bp || !lanes)
        lanes = mc->sf_lane && stepped ? w->cur_mask & mc->sf_lanes : w->cur_mask;
    exec_stop_raise(w, in, EXEC_STOP_BREAKPOINT, EXEC_EXC_NONE, lanes, "breakpoint");
    if (mc->stop.kind == EXEC_STOP_BREAKPOINT && mc->stop.warp == w->id &&
        mc->stop.cta == w->cta->id && mc->stop.pc == in->pc) {
        /* reported: the group passes it once when it runs next (whatever other warps do) */
        w->bp_pass = in->pc + 1;
        w->bp_pass_lanes = w->cur_mask;
    }
    return EXEC_STOPPED;
}

/* Set or clear flag `bit` of pc (1 breakpoint, 2 step mark); the stub stays while any is set. */
static int exec_flag_pc(exec_machine *m, uint32_t pc, uint8_t bit, int on)
{
    if (pc >= m->ncode) {
        snprintf(m->err, sizeof m->err, "no instruction at pc 0x%x", pc);
        return -1;
    }
    if (!m->bpk) {
        if (!on)
            return 0;
        m->bpk = calloc(m->ncode, 1);
        if (!m->bpk) {
            snprintf(m->err, sizeof m->err, "out of memory");
            return -1;
        }
    }
    m->bpk[pc] = (uint8_t)(on ? m->bpk[pc] | bit : m->bpk[pc] & ~bit);
    exec_insn *in = &m->code[pc];
    if (m->bpk[pc] && in->fn != exec_bp_stub) {
        m->bp_orig[pc] = in->fn;
        in->fn = exec_bp_stub;
    } else if (!m->bpk[pc] && in->fn == exec_bp_stub) {
        in->fn = m->bp_orig[pc];
        m->bp_orig[pc] = NULL;
    }
    return 0;
}

int exec_set_break(exec_machine *m, uint32_t pc, int on)
{
    if (exec_flag_pc(m, pc, 1, on) != 0)
        return -1;
    if (!on && m->bp_cond && m->bp_cond[pc])
        exec_set_break_cond(m, pc, NULL, 0);
    return 0;
}

int exec_set_step_mark(exec_machine *m, uint32_t pc, int on) { return exec_flag_pc(m, pc, 2, on); }

int exec_insn_collective(const exec_machine *m, uint32_t pc)
{
    const ptx_insn *pi = pc < m->ncode ? m->code[pc].src : NULL;
    if (!pi)
        return 0;
    return ptx_op_is(pi, PTX_OPF_COLLECTIVE) || ptx_insn_has_mod(pi, "aligned");
}
