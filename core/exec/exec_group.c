/* exec_group.c - the per-warp scheduler: which group of lanes runs next (min-pc reconvergence). */
#include <string.h>
#include "exec_core.h"

void exec_set_group(exec_warp *w, exec_act *f)
{
    w->cur_frame = f;
    w->r.regs = f->regs;
    w->r.preds = f->preds;
}

/* Pick the next group (see exec_core.h). Returns 0 when no lane can run. */
int exec_sched(exec_warp *w)
{
    if (w->cur_mask == EXEC_FULL) {
        for (int i = 0; i < EXEC_LANES; i++)
            w->pc[i] = w->cur_pc;
    } else if (w->cur_mask) {
        EXEC_FOR_LANES(i, w->cur_mask)
            w->pc[i] = w->cur_pc;
    }
    w->resched = 0;
    uint32_t run = exec_runnable(w);
    if (!run) {
        w->cur_mask = 0;
        return 0;
    }
    /* common case: every runnable lane at one pc in one frame (converged, after a barrier) */
    {
        uint32_t l0 = (uint32_t)exec_ctz(run), p0 = w->pc[l0], same = 0;
        const exec_act *f0 = w->lframe[l0];
        for (int i = 0; i < EXEC_LANES; i++)
            same |= (uint32_t)(w->pc[i] == p0 && w->lframe[i] == f0) << i;
        if (!(run & ~same)) {
            w->cur_mask = run;
            w->cur_pc = p0;
            w->limit_pc = UINT32_MAX;
            w->diverged = w->rotate = 0;
            w->spin = 0;
            w->lead = 0;
            exec_set_group(w, w->lframe[l0]);
            return 1;
        }
    }
    int best = -1;
    uint32_t bd = 0, bpc = 0;
    if (w->rotate) {
        /* the group after the spinning one in scheduling order (deeper first, then lower pc),
         * wrapping around: it runs ahead without a limit until it blocks, spins itself or its
         * slice ends; min-pc order (and merging) resumes at the next pick */
        uint64_t cur = ((uint64_t)(UINT32_MAX - w->cur_frame->depth) << 32) | w->cur_pc;
        uint64_t bk = UINT64_MAX, wk = UINT64_MAX;
        int wrap = -1;
        EXEC_FOR_LANES(i, run) {
            uint64_t k = ((uint64_t)(UINT32_MAX - w->lframe[i]->depth) << 32) | w->pc[i];
            if (k > cur && k < bk) {
                bk = k;
                best = (int)i;
            }
            if (k != cur && k < wk) {
                wk = k;
                wrap = (int)i;
            }
        }
        if (best < 0)
            best = wrap;
        w->rotate = 0;
        w->spin = 0;
        if (best >= 0) {
            exec_act *f = w->lframe[best];
            uint32_t g = 0;
            EXEC_FOR_LANES(i, run)
                if (w->pc[i] == w->pc[best] && w->lframe[i] == f)
                    g |= 1u << i;
            w->cur_mask = g;
            w->cur_pc = w->pc[best];
            w->limit_pc = UINT32_MAX;
            w->diverged = 1;
            w->lead = g;
            exec_set_group(w, f);
            return 1;
        }
    }
    /* lanes given the lead by a rotation run first (min-pc among themselves) until they all
     * block, exit or spin in turn */
    uint32_t cand = run;
    if (w->lead & run)
        cand = w->lead & run;
    else
        w->lead = 0;
    EXEC_FOR_LANES(i, cand) {
        uint32_t d = w->lframe[i]->depth, p = w->pc[i];
        if (best < 0 || d > bd || (d == bd && p < bpc)) {
            best = (int)i;
            bd = d;
            bpc = p;
        }
    }
    exec_act *f = w->lframe[best];
    uint32_t g = 0, lim = UINT32_MAX;
    EXEC_FOR_LANES(i, run) {
        if (w->lframe[i]->depth != bd)
            continue;
        if (w->pc[i] == bpc && w->lframe[i] == f)
            g |= 1u << i;
        else if (w->pc[i] < lim && ((cand >> i) & 1))
            lim = w->pc[i];
    }
    if (w->lead)
        w->lead |= g;
    if (w->spin_mask != g) {   /* another group: its own count (calls and returns keep it) */
        w->spin = 0;
        w->spin_mask = g;
    }
    w->cur_mask = g;
    w->cur_pc = bpc;
    w->limit_pc = lim;
    w->diverged = (run & ~g) != 0;
    exec_set_group(w, f);
    return 1;
}
