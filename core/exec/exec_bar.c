/* exec_bar.c - CTA barriers: arrival counts, completion and release of the waiting lanes. */
#include <string.h>
#include "exec_core.h"

/* ---- CTA barriers ---------------------------------------------------------------------------- */
static void exec_bar_release(exec_machine *m, int b)
{
    exec_bar *br = &m->cta.bar[b];
    for (uint32_t k = 0; k < m->nwarps; k++) {
        exec_warp *w = &m->warps[k];
        uint32_t lanes = 0, samepc = 0;
        if (!w->bar_wait)
            continue;
        uint32_t p0 = w->pc[exec_ctz(w->bar_wait)];
        for (int i = 0; i < EXEC_LANES; i++) {
            lanes |= (uint32_t)(w->lane_bar[i] == b) << i;
            samepc |= (uint32_t)(w->pc[i] == p0) << i;
        }
        lanes &= w->bar_wait;
        if (!lanes)
            continue;
        if (!(lanes & ~samepc) && m->code[p0 - 1].aux[1] != 2) {
            /* one plain barrier instruction for all these lanes */
            EXEC_FOR_LANES(i, lanes)
                w->lane_bar[i] = -1;
            w->bar_wait &= ~lanes;
            w->resched = 1;
            continue;
        }
        EXEC_FOR_LANES(i, lanes) {
            const exec_insn *in = &m->code[w->pc[i] - 1];
            w->lane_bar[i] = -1;
            if (in->aux[1] == 2) { /* bar.red */
                exec_act *f = w->lframe[i];
                const exec_opnd *d = &in->op[0];
                if (d->kind == EXEC_O_PRED) {
                    int v = in->aux[2] == 1 ? br->red_and : br->red_or;
                    uint32_t *p = &f->preds[d->off];
                    *p = (*p & ~(1u << i)) | ((uint32_t)(v != 0) << i);
                } else if (d->kind == EXEC_O_REG) {
                    ((uint32_t *)(void *)(f->regs + d->off))[i] = br->red_popc;
                }
            }
        }
        w->bar_wait &= ~lanes;
        w->resched = 1;
    }
    if (EXEC_OBS_SYNC_ON(m)) {
        exec_sync_ev ev = { .kind = EXEC_SYNC_BAR_DONE, .cta = m->cta.id, .id = b,
                            .count = br->arrived, .what = "barrier" };
        exec_obs_sync_ev(m, &ev);
    }
    br->arrived = 0;
    br->expected = 0;
    br->warped = 0;
    memset(br->pend, 0, sizeof br->pend);
    br->red_popc = 0;
    br->red_and = 1;
    br->red_or = 0;
}

/* The threads of CTA barrier b's phase that count towards its expected number. Without a
 * count, the threads that arrived. With one (bar.sync/bar.arrive a, b), whole warps (PTX ISA: the
 * instruction waits for the non-exited threads of its warp and marks the warp's arrival; b is a
 * multiple of the warp size): a warp whose non-exited lanes have all arrived since its last
 * arrival moves from pend into `warped` as 32 threads, its exited and absent lanes included.
 * Folding at once means a lane that arrives and then exits (bar.arrive, exit) is not counted
 * again as exited, and a warp arriving twice in a phase counts twice, as the hardware's counter
 * does. Called after every arrival and every exit (exec_bar_check). */
static uint32_t exec_bar_count(exec_machine *m, exec_bar *br)
{
    if (!br->expected)
        return br->arrived;
    for (uint32_t k = 0; k < m->nwarps && k < EXEC_CTA_WARPS; k++) {
        const exec_warp *w = &m->warps[k];
        if (br->pend[k] && !(w->valid & ~w->exited & ~br->pend[k])) {
            br->pend[k] = 0;
            br->warped += EXEC_LANES;
        }
    }
    return br->warped;
}

/* Whether CTA barrier b has every thread it expects (it would complete now). */
int exec_bar_full(exec_machine *m, int b)
{
    exec_bar *br = &m->cta.bar[b];
    uint32_t live = m->cta.nthreads - m->cta.nexited;
    return br->arrived && exec_bar_count(m, br) >= (br->expected ? br->expected : live);
}

/* Complete every barrier whose expected thread count has arrived. Returns 1 if any did. */
int exec_bar_check(exec_machine *m)
{
    int any = 0;
    for (int b = 0; b < EXEC_NBAR; b++) {
        int full = exec_bar_full(m, b);   /* folds whole warps in, even while held */
        if (full && m->bar_hold != b + 1) {
            exec_bar_release(m, b);
            any = 1;
        }
    }
    return any;
}
