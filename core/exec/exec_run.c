/* exec_run.c - the run loop: a CTA's rounds of warp slices, the grid run, exec_run's modes. */
#include <stdio.h>
#include <string.h>
#include "exec_core.h"

static int exec_cta_any_live(const exec_machine *m)
{
    for (uint32_t k = 0; k < m->nwarps; k++)
        if (exec_live(&m->warps[k]))
            return 1;
    return 0;
}

/* Run the CTA until done, a stop, or a limit. Returns 1 when the CTA finished, 0 on a stop,
 * 2 when a parallel worker abandons it (exec_run_par), 3/4 for clusters (exec_cluster.c).
 * Interrupts and a worker's halt are taken only where a round of the warps ends (a warp used
 * up its slice, or every warp had its turn), so a CTA left there resumes as one thread would
 * have run it. */
int exec_cta_run(exec_machine *m, exec_runctx *rc)
{
    for (;;) {
        int any_live = 0, progressed = 0;
        exec_warp *sliced = NULL;
        if (m->sched_random)   /* each round starts at a random warp (exec_sched.c) */
            m->cta.rr = (uint32_t)(exec_sched_rand(m) % m->nwarps);
        for (uint32_t k = 0; k < m->nwarps; k++) {
            uint32_t wi = (m->cta.rr + k) % m->nwarps;
            exec_warp *w = &m->warps[wi];
            if (!exec_live(w))
                continue;
            any_live = 1;
            if (!exec_runnable(w))
                continue;
            int64_t b = exec_budget(rc, EXEC_SLICE);
            if (b <= 0) {
                exec_stop_fill(w, NULL, EXEC_STOP_LIMIT, EXEC_EXC_NONE, w->cur_mask);
                snprintf(m->stop.msg, sizeof m->stop.msg, "step limit reached");
                return 0;
            }
            if (m->sched_random) {   /* a slice of 1 to 64 instructions (exec_sched.c) */
                int64_t rb = 1 + (int64_t)(exec_sched_rand(m) % 64);
                b = rb < b ? rb : b;
            }
            uint64_t before = rc->steps;
            int r = exec_slice(m, w, b, rc);
            if (rc->steps != before)
                progressed = 1;
            if (r == WR_STOP || m->stop_set)
                return 0;
            if (r == WR_SLICE) {
                m->cta.rr = m->sched_random ? (uint32_t)(exec_sched_rand(m) % m->nwarps)
                                            : (wi + 1) % m->nwarps;
                progressed = 1;
                sliced = w;
                break;
            }
        }
        if (!any_live)
            return 1;
        if (exec_intr_flag(rc)) {
            /* also when every slice ended at a barrier (no WR_SLICE to poll after) */
            exec_warp *w = &m->warps[m->cta.rr % m->nwarps];
            for (uint32_t k = 0; k < m->nwarps && !exec_live(w); k++)
                w = &m->warps[(m->cta.rr + k + 1) % m->nwarps];
            exec_sched(w);
            exec_stop_fill(w, NULL, EXEC_STOP_INTERRUPT, EXEC_EXC_NONE, w->cur_mask);
            snprintf(m->stop.msg, sizeof m->stop.msg, "interrupted");
            return 0;
        }
        if (!progressed) {
            if (exec_bar_check(m))
                continue;
            if (m->cl)
                return 4;   /* a cluster: the other CTAs may release it (exec_cluster.c) */
            exec_deadlock(m);
            return 0;
        }
        if (!sliced && !exec_cta_any_live(m))
            continue;       /* the last warps exited in this round: the CTA is done */
        if (rc->pool && exec_pool_halted(rc))
            return 2;
        if (exec_interrupted(m, rc) && (sliced || !m->cl)) {
            exec_interrupt_stop(m, sliced);
            return 0;
        }
        if (rc->turn_end && (rc->steps >= rc->turn_end || m->turn_yield))
            return 5;       /* the CTA's turn is over (exec_sched.c) */
        if (m->cl)
            return 3;       /* a cluster: the next CTA's turn */
    }
}

static void exec_resched_all(exec_machine *m)
{
    if (!m->cta_live)
        return;
    for (uint32_t k = 0; k < m->nwarps; k++)
        if (m->warps[k].resched || !m->warps[k].cur_mask)
            exec_sched(&m->warps[k]);
}

static void exec_finish_stop(exec_machine *m, exec_stop *stop)
{
    exec_resched_all(m);
    *stop = m->stop;
    switch (m->stop.kind) {
    case EXEC_STOP_DONE:
    case EXEC_STOP_TRAP:
    case EXEC_STOP_ASSERT:
    case EXEC_STOP_EXCEPTION:
        m->over = 1;
        m->final = m->stop;
        if (EXEC_OBS_SYNC_ON(m)) {
            exec_sync_ev ev = { .kind = EXEC_SYNC_LAUNCH_END, .cta = m->stop.cta,
                                .what = "launch" };
            exec_obs_sync_ev(m, &ev);
        }
        break;
    default:
        break;
    }
}

int exec_cta_enter(exec_machine *m, exec_runctx *rc, int ran)
{
    if (exec_cta_start(m, m->cur_cta)) {
        snprintf(m->err, sizeof m->err, "cannot start CTA %u (out of memory)", m->cur_cta);
        return -1;
    }
    rc->steps += exec_cta_cost(m);
    if (ran && exec_interrupted(m, rc)) {   /* between CTAs: stop in the new one */
        exec_interrupt_stop(m, NULL);
        return 1;
    }
    return 0;
}

int exec_run_grid(exec_machine *m, exec_runctx *rc)
{
    if (m->cl)
        return exec_cluster_run_grid(m, rc);
    for (int ran = 0;; ran = 1) {
        if (!m->cta_live) {
            uint32_t next = exec_res_next(m);
            if (next >= m->ncta || m->res) {   /* resident CTAs: none left (exec_res_finish) */
                m->cur_cta = m->ncta;
                memset(&m->stop, 0, sizeof m->stop);
                m->stop.kind = EXEC_STOP_DONE;
                m->stop.cta = m->ncta ? m->ncta - 1 : 0;
                snprintf(m->stop.msg, sizeof m->stop.msg, "kernel %s completed",
                         m->li.kernel->sym->name);
                return 0;
            }
            m->cur_cta = next;
            int e = exec_cta_enter(m, rc, ran);
            if (e)
                return e > 0 ? 0 : -1;
        }
        /* a turn (exec_sched.c) while another CTA could run */
        rc->turn_end = exec_res_next(m) < m->ncta || (m->res && exec_res_parked(m))
                       ? rc->steps + (m->sched_random ? 1 + exec_sched_rand(m) % 4096 : EXEC_TURN)
                       : 0;
        m->turn_yield = 0;
        int r = exec_cta_run(m, rc), t;
        if (r == 5)
            t = exec_res_turn_over(m);
        else if (r == 1)
            t = exec_res_finish(m);
        else
            return 0;
        if (t < 0) {
            snprintf(m->err, sizeof m->err, "cannot start CTA %u (out of memory)", m->cur_cta);
            return -1;
        }
        if (t == 1)
            rc->steps += exec_cta_cost(m);   /* a CTA admitted to the resident set */
    }
}

int exec_run(exec_machine *m, const exec_run_opts *opts, exec_stop *stop)
{
    if (!m->launched || !opts || !stop) {
        snprintf(m->err, sizeof m->err, "no active launch");
        return -1;
    }
    if (m->over) {
        *stop = m->final;
        return 0;
    }
    m->stop_set = 0;
    memset(&m->stop, 0, sizeof m->stop);
    exec_runctx rc = { .o = opts };
    /* step marks stop the focused lane of a step, nothing else */
    m->sf_cta = opts->cta;
    m->sf_warp = opts->warp;
    m->sf_lanes = opts->mode != EXEC_RUN_CONTINUE && opts->lane < 32 ? 1u << opts->lane : 0;
    m->sf_lane = opts->mode == EXEC_RUN_STEP_LANE;
    int par = opts->mode == EXEC_RUN_CONTINUE && exec_par_wanted(m, opts);
    if (!par && m->cta_fresh && opts->mode == EXEC_RUN_CONTINUE)
        rc.steps += exec_cta_cost(m);   /* CTA 0's setup, as every later CTA's */
    if (!par)
        m->cta_fresh = 0;
    int r = opts->mode != EXEC_RUN_CONTINUE ? exec_run_step(m, opts, &rc)
            : par ? exec_run_par(m, &rc) : exec_run_grid(m, &rc);
    m->intr_after = 0;
    if (r < 0)
        return -1;
    exec_finish_stop(m, stop);
    return 0;
}

void exec_set_interrupt_after(exec_machine *m, uint64_t steps) { m->intr_after = steps; }

/* ---- entry point for thread block clusters (exec_cluster.c) ---------------------------------- */
int exec_run_cta_pass(exec_machine *m, void *rc) { return exec_cta_run(m, rc); }
