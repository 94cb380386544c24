/* exec_step.c - stepping: one instruction of a warp or lane, run on, barriers and catching up. */
#include <stdio.h>
#include <string.h>
#include "exec_core.h"

/* The step budget and the interrupt, polled by the loops of a step: 1 when one of them stops
 * the step (a LIMIT or INTERRUPT stop on warp w). */
static int exec_step_poll(exec_machine *m, exec_warp *w, exec_runctx *rc)
{
    if (exec_budget(rc, 1) <= 0) {
        exec_stop_fill(w, NULL, EXEC_STOP_LIMIT, EXEC_EXC_NONE, w->cur_mask);
        snprintf(m->stop.msg, sizeof m->stop.msg, "step limit reached");
        return 1;
    }
    if (exec_intr_flag(rc)) {
        exec_stop_fill(w, NULL, EXEC_STOP_INTERRUPT, EXEC_EXC_NONE, w->cur_mask);
        snprintf(m->stop.msg, sizeof m->stop.msg, "interrupted");
        return 1;
    }
    return 0;
}

/* A step left lanes `mine` of warp f waiting at a barrier: run the warps of the CTA (f's other
 * lanes too) until they arrive there too (or exit), then complete it, so those lanes are
 * released; the others stop right there (cuda-gdb: the step lets the whole block reach the
 * barrier, no further). The barrier is held while they run (m->bar_hold): a warp arriving blocks instead
 * of completing it and running on, and the slices run warp by warp in order (deterministic).
 * Other barriers behave as always, so warps may synchronise among themselves on the way. A
 * stop of another warp before the barrier completes (breakpoint, fault, watchpoint, limit,
 * deadlock), the budget or the interrupt ends the step there and is what is reported. Returns
 * 1 when the lanes are released, 0 on such a stop. */
static int exec_run_until_released_in(exec_machine *m, exec_warp *f, uint32_t mine,
                                      exec_runctx *rc)
{
    while (f->bar_wait & mine) {
        int hb = f->lane_bar[exec_ctz(f->bar_wait & mine)];
        m->bar_hold = hb >= 0 && hb < EXEC_NBAR ? hb + 1 : 0;
        if (m->bar_hold && exec_bar_full(m, hb)) {
            m->bar_hold = 0;
            exec_bar_check(m);
            continue;
        }
        int progressed = 0;
        /* every warp, the stepped one too: its other lanes (divergent ones, or those a lane
           step left behind) must arrive as well */
        for (uint32_t k = 0; k < m->nwarps && (f->bar_wait & mine); k++) {
            exec_warp *w = &m->warps[k];
            if (!exec_runnable(w))
                continue;
            if (exec_step_poll(m, w, rc))
                return 0;
            int64_t b = exec_budget(rc, EXEC_SLICE);
            uint64_t before = rc->steps;
            int r = exec_slice(m, w, b, rc);
            if (rc->steps != before)
                progressed = 1;
            if (r == WR_STOP || m->stop_set)
                return 0;
            if (m->bar_hold && exec_bar_full(m, hb))
                break;   /* everyone is there: complete it before anything else runs */
        }
        if (m->bar_hold && exec_bar_full(m, hb))
            continue;
        if (!progressed && (f->bar_wait & mine)) {
            m->bar_hold = 0;
            if (exec_bar_check(m))
                continue;
            if (m->cl) {   /* the cluster's other CTAs take turns (exec_cluster.c) */
                if (exec_cluster_others(m, rc) > 0)
                    continue;
                return 0;
            }
            exec_deadlock(m);
            return 0;
        }
    }
    return 1;
}

static int exec_run_until_released(exec_machine *m, exec_warp *f, uint32_t mine,
                                   exec_runctx *rc)
{
    int r = exec_run_until_released_in(m, f, mine, rc);
    m->bar_hold = 0;
    return r;
}

/* One instruction of w's next group within a step: -1 on a stop (budget, interrupt, any
 * other), 0 when nothing was executed (the group only yields), 1 otherwise. */
static int exec_step_insn(exec_machine *m, exec_warp *w, exec_runctx *rc)
{
    if (exec_step_poll(m, w, rc))
        return -1;
    uint64_t before = rc->steps;
    exec_slice(m, w, 1, rc);
    if (m->stop_set)
        return -1;
    return rc->steps != before;
}

/* A lane step left lane `bit` waiting in a warp-synchronous instruction for lanes elsewhere in
 * its warp: run the warp one instruction at a time (min-pc order: the lanes behind first) until
 * they arrive and complete it, so they stop right after it. Returns 0 on a stop; 1 when the lane
 * is released or nothing can run any more (it then still waits, as `info cuda lanes` shows). */
static int exec_ws_release(exec_machine *m, exec_warp *w, uint32_t bit, exec_runctx *rc)
{
    while ((w->ws_wait & bit) && exec_runnable(w)) {
        int r = exec_step_insn(m, w, rc);
        if (r < 0)
            return 0;
        if (r == 0)
            break;   /* the lanes that could run only yield */
    }
    return 1;
}

/* Before lane `lane` executes a warp-synchronous instruction: run its warp one instruction at a
 * time until the group chosen next (min-pc) contains the lane, i.e. the lanes behind it have
 * caught up with it (and no further). Returns 0 on a stop. */
static int exec_catch_up(exec_machine *m, exec_warp *w, uint32_t lane, exec_runctx *rc)
{
    for (;;) {
        exec_sched(w);
        if (!w->cur_mask || ((w->cur_mask >> lane) & 1))
            return 1;
        int r = exec_step_insn(m, w, rc);
        if (r <= 0)
            return r == 0;   /* a stop; or the lanes behind only yield: go as the group is */
    }
}

/* The end of a lane's line step: the warp-mates behind it run until they join it, as
 * exec_catch_up, for at most EXEC_REJOIN_MAX instructions (mates that spin below the lane,
 * waiting for it, stay where they are). Returns 0 on a stop. */
#define EXEC_REJOIN_MAX 65536
static int exec_rejoin(exec_machine *m, exec_warp *w, uint32_t lane, exec_runctx *rc)
{
    for (int k = 0; k < EXEC_REJOIN_MAX; k++) {
        exec_sched(w);
        if (!w->cur_mask || ((w->cur_mask >> lane) & 1))
            return 1;
        int r = exec_step_insn(m, w, rc);
        if (r <= 0)
            return r == 0;
    }
    return 1;
}

/* Instructions a lane stepped alone executes with its group (after the lanes behind catch up):
 * warp-synchronous ones, backward branches, calls, so that converged lanes keep sharing their frames (lanes in
 * different frames never merge) and reach the collectives inside callees together, and the
 * return of a device function, so that the lanes that entered it with the lane leave it with
 * it (none is left inside a callee, at a collective there, while the lane is past it). */
static int exec_back_branch(const exec_machine *m, uint32_t pc)
{
    const ptx_insn *pi = pc < m->ncode ? m->code[pc].src : NULL;
    return pi && pi->opc == PTX_OPC_bra && (uint32_t)m->code[pc].aux[0] <= pc;
}

int exec_lane_group_insn(const exec_machine *m, uint32_t pc)
{
    const ptx_insn *pi = pc < m->ncode ? m->code[pc].src : NULL;
    const ptx_func *f;
    const ptx_insn *fi;
    if (!pi)
        return 0;
    /* a backward branch (a loop's next iteration): lanes left behind in the iteration catch
       up first, so no lane is ever an iteration ahead of the lanes it left behind; min-pc
       order then always finds them below it (else a lane behind at a loop's latch, at a
       higher pc, would let the lane call a collective alone) */
    if (exec_back_branch(m, pc))
        return 1;
    return exec_insn_collective(m, pc) || ptx_op_is(pi, PTX_OPF_CALL) ||
           (pi->opc == PTX_OPC_ret && exec_pc_insn(m, pc, &f, &fi) == 0 && !f->is_entry);
}

uint64_t exec_lane_group_runs(const exec_machine *m) { return m->lane_groups; }

/* The pc lane `lane` of w executes next. */
static uint32_t exec_lane_next_pc(const exec_warp *w, uint32_t lane)
{
    return ((w->cur_mask >> lane) & 1) ? w->cur_pc : w->pc[lane];
}

/* One instruction of the focused warp's group, or of the focused lane (EXEC_RUN_STEP_LANE).
 * Returns 0 on a stop, 1 when the step is done. */
static int exec_step_one(exec_machine *m, const exec_run_opts *o, exec_runctx *rc, exec_warp *w)
{
    int lane_mode = o->mode == EXEC_RUN_STEP_LANE;
    uint32_t bit = 1u << o->lane;
    if (lane_mode && (w->ws_wait & bit))   /* still waiting: completing it is the step */
        return exec_ws_release(m, w, bit, rc);
    uint32_t mine;
    int r;
    if (lane_mode && !(w->bar_wait & bit) &&
        exec_lane_group_insn(m, exec_lane_next_pc(w, o->lane))) {
        /* never alone: the lanes behind catch up, then its group executes it */
        if (!exec_catch_up(m, w, o->lane, rc))
            return 0;
        mine = w->cur_mask;
        if ((mine & ~bit) && mine && !exec_back_branch(m, w->cur_pc))
            m->lane_groups++;   /* a collective or call with mates: they finish the line too */
        r = mine ? exec_slice(m, w, 1, rc) : WR_BLOCKED;
    } else {
        if (lane_mode) {
            w->solo = (int)o->lane + 1;
            w->resched = 1;
        }
        if (w->resched || !w->cur_mask)
            exec_sched(w);
        mine = w->cur_mask;
        r = exec_runnable(w) ? exec_slice(m, w, 1, rc) : WR_BLOCKED;
        if (w->solo) {
            w->solo = 0;
            w->resched = 1;
        }
    }
    if (r == WR_STOP || m->stop_set)
        return 0;
    if (o->others_run)
        for (uint32_t k = 0; k < m->nwarps; k++) {
            exec_warp *x = &m->warps[k];
            if (x == w || !exec_runnable(x))
                continue;
            exec_slice(m, x, 1, rc);
            if (m->stop_set)
                return 0;
        }
    if (lane_mode && (w->ws_wait & bit) && !exec_ws_release(m, w, bit, rc))
        return 0;
    if ((w->bar_wait & mine) && !exec_run_until_released(m, w, mine, rc))
        return 0;
    return 1;
}

/* run_on: the focused warp (or lane alone) runs in slices until something stops it; other warps
 * of the CTA get a slice after each of its slices when others_run. Returns 0 on a stop, 1 when
 * the focused lane has exited (or nothing of the warp can run). */
static int exec_run_on(exec_machine *m, const exec_run_opts *o, exec_runctx *rc, exec_warp *w)
{
    int lane_mode = o->mode == EXEC_RUN_STEP_LANE;
    uint32_t bit = 1u << o->lane;
    for (uint64_t last = UINT64_MAX; exec_live(w) & bit; ) {
        if (exec_step_poll(m, w, rc))
            return 0;
        if (rc->steps == last)
            return 1;   /* a whole round without an instruction: nothing of it can run */
        last = rc->steps;
        if (w->bar_wait & bit) {
            if (!exec_run_until_released(m, w, lane_mode ? bit : w->bar_wait, rc))
                return 0;
            last = UINT64_MAX;   /* released: progress even without an instruction */
            continue;
        }
        if (lane_mode && ((w->ws_wait & bit) ||
                          exec_lane_group_insn(m, exec_lane_next_pc(w, o->lane)))) {
            if (!exec_step_one(m, o, rc, w))
                return 0;
            if ((w->ws_wait | w->bar_wait) & bit)
                return 1;   /* it cannot complete: the lane stays there */
            continue;
        }
        if (lane_mode) {
            w->solo = (int)o->lane + 1;
            w->resched = 1;
        }
        int r = exec_runnable(w) ? exec_slice(m, w, exec_budget(rc, EXEC_SLICE), rc) : WR_BLOCKED;
        if (w->solo) {
            w->solo = 0;
            w->resched = 1;
        }
        if (r == WR_STOP || m->stop_set)
            return 0;
        if (r == WR_BLOCKED && !(w->bar_wait & bit)) {
            if (!w->bar_wait)
                return 1;   /* nothing of the warp can run */
            if (!exec_run_until_released(m, w, w->bar_wait, rc))
                return 0;
        }
        if (o->others_run || r == WR_YIELD)
            for (uint32_t k = 0; k < m->nwarps; k++) {
                exec_warp *x = &m->warps[k];
                if (x == w || !exec_runnable(x))
                    continue;
                int64_t b = exec_budget(rc, EXEC_SLICE);
                if (b <= 0)
                    break;
                exec_slice(m, x, b, rc);
                if (m->stop_set)
                    return 0;
            }
    }
    return 1;
}

int exec_run_step(exec_machine *m, const exec_run_opts *o, exec_runctx *rc)
{
    if (m->cl)
        exec_cluster_focus(m, o->cta);   /* swap the focused CTA of the cluster in */
    if (m->res)
        exec_res_focus(m, o->cta);       /* a resident CTA (exec_sched.c) */
    if (!m->cta_live || o->cta != m->cta.id || o->warp >= m->nwarps) {
        snprintf(m->err, sizeof m->err, "no running warp %u in CTA %u", o->warp, o->cta);
        return -1;
    }
    exec_warp *w = &m->warps[o->warp];
    if (o->mode == EXEC_RUN_STEP_LANE) {
        if (o->lane >= 32 || !((exec_live(w) >> o->lane) & 1)) {
            snprintf(m->err, sizeof m->err, "lane %u of warp %u is not live", o->lane, o->warp);
            return -1;
        }
    } else if (!exec_live(w)) {
        snprintf(m->err, sizeof m->err, "warp %u has no live lanes", o->warp);
        return -1;
    }
    /* a waiting warp (lane) first lets the rest of the CTA reach the barrier */
    uint32_t waiting = o->mode == EXEC_RUN_STEP_LANE ? w->bar_wait & (1u << o->lane)
                       : !exec_runnable(w) ? w->bar_wait : 0;
    if (o->rejoin && o->mode == EXEC_RUN_STEP_LANE) {
        /* the mates behind the lane join it; a lane waiting (barrier, collective) stays */
        if (!(((w->bar_wait | w->ws_wait) >> o->lane) & 1) && !exec_rejoin(m, w, o->lane, rc))
            return 0;
    } else {
        if (waiting && !exec_run_until_released(m, w, waiting, rc))
            return 0;
        if (!(o->run_on ? exec_run_on(m, o, rc, w) : exec_step_one(m, o, rc, w)))
            return 0;
    }
    if (m->cl && !exec_live(w) && m->cta.nexited == m->cta.nthreads) {
        int r = exec_cluster_cta_over(m);   /* a peer of its cluster, or the next cluster */
        if (r)
            return r < 0 ? -1 : 0;
    }
    if (!exec_live(w) && m->cta.nexited == m->cta.nthreads) {
        /* the CTA is complete: move on as a continue would, but stop right away */
        if (exec_res_finish(m) < 0)
            return -1;
        if (!m->cta_live && exec_res_next(m) >= m->ncta) {
            m->cur_cta = m->ncta;
            memset(&m->stop, 0, sizeof m->stop);
            m->stop.kind = EXEC_STOP_DONE;
            snprintf(m->stop.msg, sizeof m->stop.msg, "kernel %s completed",
                     m->li.kernel->sym->name);
            return 0;
        }
        if (!m->cta_live && exec_cta_start(m, m->cur_cta))
            return -1;
        w = &m->warps[o->warp];
    }
    if (m->cta_live)
        exec_sched(w);
    memset(&m->stop, 0, sizeof m->stop);
    m->stop.kind = EXEC_STOP_STEP;
    m->stop.cta = o->cta;
    m->stop.warp = o->warp;
    m->stop.lanes = o->mode == EXEC_RUN_STEP_LANE ? 1u << o->lane : w->cur_mask;
    m->stop.lane = o->mode == EXEC_RUN_STEP_LANE ? o->lane
                   : (w->cur_mask ? (uint32_t)exec_ctz(w->cur_mask) : 0);
    m->stop.pc = o->mode == EXEC_RUN_STEP_LANE
                 ? (((w->cur_mask >> o->lane) & 1) ? w->cur_pc : w->pc[o->lane])
                 : w->cur_pc;
    m->stop.watch_id = -1;
    return 0;
}
