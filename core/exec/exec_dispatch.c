/* exec_dispatch.c - the one dispatch point: a warp's slice runs each instruction's handler. */
#include <string.h>
#include "exec_core.h"

/* Deterministic time: warp-instructions executed by the machine so far. */
uint64_t exec_now(const exec_warp *w)
{
    const exec_machine *m = w->m;
    return m->clock + (uint64_t)(m->slice_given - w->budget);
}

/* The dispatch loop: execute groups of warp w until its budget ends, it blocks or it stops.
 * Thread-instructions are counted per group (instructions run x lanes in the group). */
__attribute__((hot)) static int exec_warp_run(exec_warp *w)
{
    const exec_insn *code = w->m->code;
    uint64_t tcount = 0;
    int ret;
    for (;;) {
        if (w->resched && !exec_sched(w)) {
            ret = exec_live(w) ? WR_BLOCKED : WR_DONE;
            goto out;
        }
        if (!w->cur_mask) {
            w->resched = 1;
            continue;
        }
        uint32_t pc = w->cur_pc;
        const uint32_t mask = w->cur_mask, limit = w->limit_pc;
        const uint64_t lanes = (uint64_t)exec_popc(mask);
        const uint32_t *preds = w->r.preds;
        for (;;) {
            const exec_insn *in = &code[pc];
            uint32_t em = mask;
            tcount += lanes;
            if (in->guard >= 0) {
                uint32_t g = preds[in->guard];
                if (in->guard_neg)
                    g = ~g;
                em &= g;
                if (__builtin_expect(!em, 0)) {
                    if (in->fn == exec_bp_stub && exec_bp_stub(w, in, 0) == EXEC_STOPPED) {
                        tcount -= lanes;
                        w->cur_pc = pc;
                        ret = WR_STOP;
                        goto out;
                    }
                    pc++;
                    goto next;
                }
            }
            int rc = in->fn(w, in, em);
            if (__builtin_expect(rc == EXEC_NEXT, 1)) {
                pc++;
            } else if (rc == EXEC_JUMPED) {
                uint32_t from = pc;
                pc = w->npc;
                if (__builtin_expect(w->diverged, 0) && pc <= from &&
                    ++w->spin >= EXEC_SPIN_TURN && !w->solo) {
                    /* spinning while other lanes wait: let them run (exec_sched) */
                    w->rotate = 1;
                    w->resched = 1;
                }
                if (w->resched) {
                    w->cur_pc = pc;
                    if (--w->budget <= 0) {
                        ret = WR_SLICE;
                        goto out;
                    }
                    break;
                }
            } else if (rc == EXEC_YIELD) {
                /* not executed: retried at the same pc after the other warps ran */
                tcount -= lanes;
                w->cur_pc = pc;
                w->yielded = 1;
                ret = WR_YIELD;
                goto out;
            } else {
                w->cur_pc = w->npc;
                if (w->m->stop.kind != EXEC_STOP_BREAKPOINT)
                    w->budget--;
                else
                    tcount -= lanes;
                ret = WR_STOP;
                goto out;
            }
        next:
            if (__builtin_expect(--w->budget <= 0, 0)) {
                w->cur_pc = pc;
                ret = WR_SLICE;
                goto out;
            }
            if (pc >= limit) {
                w->cur_pc = pc;
                w->resched = 1;
                break;
            }
        }
    }
out:
    w->m->tinsn += tcount;
    return ret;
}

void exec_stats(const exec_machine *m, uint64_t *warp_insns, uint64_t *thread_insns)
{
    if (warp_insns)
        *warp_insns = m->clock;
    if (thread_insns)
        *thread_insns = m->tinsn;
}

/* Run warp w for at most `budget` instructions; account steps; returns WR_*. */
int exec_slice(exec_machine *m, exec_warp *w, int64_t budget, exec_runctx *rc)
{
    if (w->bp_pass) {
        /* a breakpoint pass belongs to lanes still standing at the breakpoint; lanes that went
           on without using it (the debugger stepped them over it with the breakpoint lifted)
           lose it, so a later arrival there stops again */
        uint32_t keep = 0;
        EXEC_FOR_LANES(i, w->bp_pass_lanes & ~w->exited & ~w->trapped & ~w->bar_wait)
            if (((w->cur_mask >> i) & 1 ? w->cur_pc : w->pc[i]) + 1 == w->bp_pass)
                keep |= 1u << i;
        w->bp_pass_lanes = keep;
        if (!keep)
            w->bp_pass = 0;
    }
    w->budget = budget;
    m->slice_given = budget;
    w->watch_hit = 0;
    w->yielded = 0;
    int r = exec_warp_run(w);
    int64_t left = w->watch_hit ? w->budget_left : w->budget;
    if (left < 0)
        left = 0;
    uint64_t done = (uint64_t)(budget - left);
    if (w->watch_hit) {   /* a watchpoint's or an observer's stop after the instruction */
        exec_stop *st = &m->stop;
        if (w->watch_host && st->kind == EXEC_STOP_WATCH)
            memcpy(st->new_bytes, w->watch_host, st->size);
        w->watch_hit = 0;
        w->watch_host = NULL;
        r = WR_STOP;
    }
    rc->steps += done;
    m->clock += done;
    m->slice_given = 0;
    w->budget = 0;
    if (rc->pool)
        exec_pool_count(rc->pool, done);
    return r;
}
