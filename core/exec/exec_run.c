/* exec_run.c - launches, CTA and warp scheduling, the SIMT run loop, stops, frames, barriers. */
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec_core.h"

enum { WR_SLICE, WR_BLOCKED, WR_DONE, WR_STOP, WR_YIELD };

/* ---- stops ----------------------------------------------------------------------------------- */
static void exec_stop_fill(exec_warp *w, const exec_insn *in, exec_stop_kind k, exec_exc e,
                           uint32_t lanes)
{
    exec_stop *st = &w->m->stop;
    memset(st, 0, sizeof *st);
    st->kind = k;
    st->exc = e;
    st->cta = w->cta->id;
    st->warp = w->id;
    st->lanes = lanes;
    st->lane = lanes ? (uint32_t)exec_ctz(lanes) : 0;
    st->pc = in ? in->pc : w->cur_pc;
    st->watch_id = -1;
    w->m->stop_set = 1;
    if (in)
        w->npc = in->pc;
}

void exec_stop_raise(exec_warp *w, const exec_insn *in, exec_stop_kind k, exec_exc e,
                     uint32_t lanes, const char *fmt, ...)
{
    if (w->m->stop_set && w->m->stop.kind != EXEC_STOP_WATCH &&
        w->m->stop.kind != EXEC_STOP_CHECK)
        return;
    exec_stop_fill(w, in, k, e, lanes);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->m->stop.msg, sizeof w->m->stop.msg, fmt, ap);
    va_end(ap);
    if (k == EXEC_STOP_TRAP || k == EXEC_STOP_ASSERT || k == EXEC_STOP_EXCEPTION) {
        w->stopped = 1;
        w->trapped |= lanes;
    }
}

void exec_fault(exec_warp *w, const exec_insn *in, exec_exc e, int lane, ptx_space sp,
                uint64_t addr, uint32_t size, const char *fmt, ...)
{
    exec_machine *m = w->m;
    if (m->stop_set && m->stop.kind == EXEC_STOP_EXCEPTION)
        return;
    exec_stop_fill(w, in, EXEC_STOP_EXCEPTION, e, lane >= 0 ? 1u << lane : w->cur_mask);
    exec_stop *st = &m->stop;
    st->space = sp;
    st->addr = addr;
    st->size = size;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->msg, sizeof st->msg, fmt, ap);
    va_end(ap);
    w->stopped = 1;
    w->trapped |= st->lanes;
}

/* Deterministic time: warp-instructions executed by the machine so far. */
uint64_t exec_now(const exec_warp *w)
{
    const exec_machine *m = w->m;
    return m->clock + (uint64_t)(m->slice_given - w->budget);
}

/* ---- frames ---------------------------------------------------------------------------------- */
exec_act *exec_act_new(exec_warp *w, const exec_fdec *fd)
{
    size_t need = fd->regbytes + sizeof(uint32_t) * fd->npreds + (size_t)fd->param_size * 32;
    exec_act **pp = &w->free_frames, *f = NULL;
    for (; *pp; pp = &(*pp)->next_free)
        if ((*pp)->cap >= need) {
            f = *pp;
            *pp = f->next_free;
            break;
        }
    if (!f) {
        if (w->nframes > EXEC_MAX_DEPTH * 4)
            return NULL;
        f = calloc(1, sizeof *f);
        if (!f)
            return NULL;
        f->regs = aligned_alloc(64, (need + 63) & ~(size_t)63);
        if (!f->regs) {
            free(f);
            return NULL;
        }
        /* the scratch slots too: a core file writes the whole block (deterministic bytes) */
        memset(f->regs, 0, (need + 63) & ~(size_t)63);
        f->cap = need;
        f->all_next = w->all_frames;
        w->all_frames = f;
        w->nframes++;
    }
    /* registers start at zero (deterministic); the scratch slots are written before read */
    memset(f->regs, 0, fd->scratch_off);
    memset(f->regs + fd->regbytes, 0, need - fd->regbytes);
    f->preds = (uint32_t *)(void *)(f->regs + fd->regbytes);
    f->params = (uint8_t *)(f->preds + fd->npreds);
    f->fd = fd;
    f->parent = NULL;
    f->depth = 0;
    f->members = 0;
    f->next_free = NULL;
    f->in_use = 1;
    return f;
}

void exec_act_release(exec_warp *w, exec_act *f, uint32_t lanes)
{
    for (; f; f = f->parent) {
        f->members &= ~lanes;
        if (!f->members && f != w->kframe && f->in_use) {
            f->in_use = 0;
            f->next_free = w->free_frames;
            w->free_frames = f;
        }
    }
}

void exec_set_group(exec_warp *w, exec_act *f)
{
    w->cur_frame = f;
    w->r.regs = f->regs;
    w->r.preds = f->preds;
}

/* ---- scheduling inside a warp ---------------------------------------------------------------- */
static uint32_t exec_runnable(const exec_warp *w)
{
    uint32_t r = w->valid & ~w->exited & ~w->trapped & ~w->bar_wait & ~w->ws_wait;
    if (w->solo)
        r &= 1u << (w->solo - 1);
    return r;
}

static uint32_t exec_live(const exec_warp *w)
{
    return w->valid & ~w->exited & ~w->trapped;
}

/* Pick the next group (see exec_core.h). Returns 0 when no lane can run. */
static int exec_sched(exec_warp *w)
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

/* Breakpoint stub: stops before the instruction unless this warp's group already reported
 * this very breakpoint (its pass, exec_warp.bp_pass): then the instruction runs once. */
static int exec_bp_stub(exec_warp *w, const exec_insn *in, uint32_t m)
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
    static const char *const ops[] = {"bar", "barrier", "shfl", "vote", "match", "redux",
                                      "elect", "activemask", "wmma", "mma", "ldmatrix",
                                      "stmatrix", "movmatrix", "wgmma", NULL};
    const ptx_insn *pi = pc < m->ncode ? m->code[pc].src : NULL;
    if (!pi)
        return 0;
    for (int i = 0; ops[i]; i++)
        if (strcmp(pi->opcode, ops[i]) == 0)
            return 1;
    return ptx_insn_has_mod(pi, "aligned");
}

/* The run loop: execute groups of warp w until its budget ends, it blocks or it stops.
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

/* ---- lanes leaving ----------------------------------------------------------------------------*/
void exec_lanes_retire(exec_warp *w, const exec_insn *in, uint32_t lanes)
{
    lanes &= ~w->exited;
    if (!lanes)
        return;
    w->exited |= lanes;
    EXEC_FOR_LANES(i, lanes)
        exec_act_release(w, w->lframe[i], 1u << i);
    w->cta->nexited += (uint32_t)exec_popc(lanes);
    w->cur_mask &= ~lanes;
    w->resched = 1;
    if (EXEC_OBS_SYNC_ON(w->m))
        exec_obs_sync(w, in, EXEC_SYNC_EXIT, lanes, -1, 0, 0);
    if (w->cta->nexited == w->cta->nthreads) {
        exec_tcgen05_cta_exit(w, in);   /* Tensor Memory left allocated */
        if (EXEC_OBS_SYNC_ON(w->m))
            exec_obs_sync(w, in, EXEC_SYNC_CTA_END, 0, -1, 0, 0);
    }
    /* warp-sync waiters that named these lanes complete without them */
    if (w->ws_wait)
        exec_ws_exited(w);
    exec_bar_check(w->m);
}

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
static int exec_bar_full(exec_machine *m, int b)
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

/* ---- per-launch memory ------------------------------------------------------------------------
 * A launch's warps (with the frames and local stacks they grew) and shared blocks are kept for
 * the next launch (exec_wset): a program of thousands of small launches then reuses the same
 * memory instead of growing and shrinking the host heap at each (page faults, brk calls).
 * A set is kept while it holds at most EXEC_POOL_MAX bytes, and reused by a launch with the
 * same number of warps (zeroed as calloc would give it); the machine keeps one for itself and
 * one per parallel worker. exec_free releases them. */
#define EXEC_POOL_MAX (64u << 20)

static uint64_t exec_wset_bytes(const exec_warp *warps, uint32_t n)
{
    uint64_t b = 0;
    for (uint32_t k = 0; k < n; k++) {
        for (const exec_act *f = warps[k].all_frames; f; f = f->all_next)
            b += f->cap + sizeof *f;
        for (int i = 0; i < EXEC_LANES; i++)
            b += warps[k].lcap[i];
    }
    return b;
}

/* Free n warps' frames, stacks and arrays. */
static void exec_wset_free(exec_warp *warps, uint8_t *sregs, uint32_t n)
{
    for (uint32_t k = 0; warps && k < n; k++) {
        exec_warp *w = &warps[k];
        for (exec_act *f = w->all_frames, *nx; f; f = nx) {
            nx = f->all_next;
            free(f->regs);
            free(f);
        }
        for (int i = 0; i < EXEC_LANES; i++)
            free(w->ldata[i]);
    }
    free(warps);
    free(sregs);
}

/* Keep n warps (NULL: none) and a shared block (NULL: none) in slot for a later launch, or free
 * them when they hold too much; what the slot held before goes. */
static void exec_wset_put(exec_wset *slot, exec_warp *warps, uint8_t *sregs, uint32_t n,
                          uint8_t *sh, uint64_t sh_cap)
{
    if (warps) {
        if (exec_wset_bytes(warps, n) > EXEC_POOL_MAX) {
            exec_wset_free(warps, sregs, n);
        } else {
            exec_wset_free(slot->warps, slot->sregs, slot->n);
            slot->warps = warps;
            slot->sregs = sregs;
            slot->n = n;
        }
    }
    if (sh) {
        if (sh_cap > EXEC_POOL_MAX || (slot->sh && slot->sh_cap >= sh_cap)) {
            free(sh);
        } else {
            free(slot->sh);
            slot->sh = sh;
            slot->sh_cap = sh_cap;
        }
    }
}

void exec_wset_release(exec_wset *slot)
{
    exec_wset_free(slot->warps, slot->sregs, slot->n);
    free(slot->sh);
    memset(slot, 0, sizeof *slot);
}

/* n zeroed warps and their special-register block: the slot's, frames and stacks kept (zeroed
 * as a new CTA's are), when it has exactly n; else new ones. -1 when out of memory. */
static int exec_wset_get(exec_wset *slot, uint32_t n, exec_warp **warps, uint8_t **sregs)
{
    if (slot->warps && slot->n == n) {
        for (uint32_t k = 0; k < n; k++) {
            exec_warp *w = &slot->warps[k];
            exec_act *all = w->all_frames;
            int nf = w->nframes;
            uint8_t *ld[EXEC_LANES];
            uint32_t lc[EXEC_LANES];
            memcpy(ld, w->ldata, sizeof ld);
            memcpy(lc, w->lcap, sizeof lc);
            memset(w, 0, sizeof *w);
            w->all_frames = all;
            w->nframes = nf;
            for (exec_act *f = all; f; f = f->all_next) {
                f->in_use = 0;
                f->members = 0;
                f->next_free = w->free_frames;
                w->free_frames = f;
            }
            memcpy(w->ldata, ld, sizeof ld);
            memcpy(w->lcap, lc, sizeof lc);
            for (int i = 0; i < EXEC_LANES; i++)
                if (ld[i])
                    memset(ld[i], 0, lc[i]);
        }
        memset(slot->sregs, 0, (size_t)n * EXEC_SR__COUNT * EXEC_SLOT);
        *warps = slot->warps;
        *sregs = slot->sregs;
        slot->warps = NULL;
        slot->sregs = NULL;
        slot->n = 0;
        return 0;
    }
    exec_wset_free(slot->warps, slot->sregs, slot->n);
    slot->warps = NULL;
    slot->sregs = NULL;
    slot->n = 0;
    *warps = calloc(n, sizeof(exec_warp));
    *sregs = calloc((size_t)n * EXEC_SR__COUNT, EXEC_SLOT);
    if (!*warps || !*sregs) {
        free(*warps);
        free(*sregs);
        *warps = NULL;
        *sregs = NULL;
        return -1;
    }
    return 0;
}

/* ---- CTAs ------------------------------------------------------------------------------------ */
/* End the running CTA: its frames and local stacks go back to its warps for the next CTA
 * (stacks zeroed). keep = 1 between CTAs of a run: the shared block stays for the next CTA
 * (cleared when reused). keep = 0 when the launch is over or the CTA is parked for good: the
 * shared block goes to the machine's pool for a later launch (whoever frees or keeps the warps
 * decides about their memory: exec_wset_put, exec_wset_free). */
static void exec_cta_end(exec_machine *m, int keep)
{
    if (!m->cta_live && keep)
        return;
    for (uint32_t k = 0; m->cta_live && m->warps && k < m->nwarps; k++) {
        exec_warp *w = &m->warps[k];
        w->free_frames = NULL;
        for (exec_act *f = w->all_frames; f; f = f->all_next) {
            f->in_use = 0;
            f->members = 0;
            f->next_free = w->free_frames;
            w->free_frames = f;
        }
        w->kframe = NULL;
        for (int i = 0; i < EXEC_LANES; i++)
            if (w->ldata[i])
                memset(w->ldata[i], 0, w->lcap[i]);
    }
    if (!keep && m->cta.shared) {
        exec_wset_put(&m->pool, NULL, NULL, 0, m->cta.shared, m->cta.shared_cap);
        m->cta.shared = NULL;
        m->cta.shared_cap = 0;
    }
    m->cta_live = 0;
}

static int exec_cta_start(exec_machine *m, uint32_t id)
{
    exec_cta *c = &m->cta;
    uint8_t *sh = c->shared;   /* kept from the previous CTA of this launch, or NULL */
    uint64_t cap = c->shared_cap;
    memset(c, 0, sizeof *c);
    c->id = id;
    c->coord = exec_cta_coord(m, id);
    c->nthreads = m->nthreads;
    for (int b = 0; b < EXEC_NBAR; b++)
        c->bar[b].red_and = 1;
    c->shared_size = exec_smem_user(m->shared_static, m->li.dyn_shmem);
    uint64_t need = c->shared_size ? c->shared_size : 1;
    if (!sh && m->pool.sh && m->pool.sh_cap >= need) {   /* a previous launch's block */
        sh = m->pool.sh;
        cap = m->pool.sh_cap;
        m->pool.sh = NULL;
        m->pool.sh_cap = 0;
    }
    if (sh && cap >= need) {
        memset(sh, 0, need);
    } else {
        free(sh);
        sh = calloc(1, need);
        cap = need;
    }
    c->shared = sh;
    c->shared_cap = cap;
    if (!c->shared)
        return -1;
    m->cta_live = 1;
    if (EXEC_OBS_SYNC_ON(m)) {
        exec_sync_ev ev = { .kind = EXEC_SYNC_CTA_BEGIN, .cta = id, .size = c->shared_size,
                            .what = "CTA" };
        exec_obs_sync_ev(m, &ev);
    }
    exec_sreg_init_cta(m);
    const exec_fdec *kfd = m->kfd;
    exec_insn *in0 = &m->code[kfd->pc0];
    for (uint32_t k = 0; k < m->nwarps; k++) {
        exec_warp *w = &m->warps[k];
        uint32_t first = k * 32, n = m->nthreads - first > 32 ? 32 : m->nthreads - first;
        w->m = m;
        w->cta = c;
        w->id = k;
        w->valid = n == 32 ? EXEC_FULL : (1u << n) - 1;
        w->exited = w->trapped = w->bar_wait = w->ws_wait = 0;
        w->stopped = 0;
        w->bp_pass = w->bp_pass_lanes = 0;
        w->solo = 0;
        w->watch_hit = 0;
        w->r.sregs = m->sregs + (size_t)k * EXEC_SR__COUNT * EXEC_SLOT;
        w->r.cc = 0;
        exec_act *f = exec_act_new(w, kfd);
        if (!f)
            return -1;
        f->members = w->valid;
        w->kframe = f;
        for (int i = 0; i < EXEC_LANES; i++) {
            w->lframe[i] = f;
            w->pc[i] = kfd->pc0;
            w->lane_bar[i] = -1;
            w->lsp[i] = MEM_LOCAL_TOP;   /* empty: the stack grows down (mem.h) */
            if ((w->valid >> i) & 1) {
                uint64_t base = MEM_LOCAL_TOP;
                if (kfd->local_size && mem_local_push(w, in0, i, kfd->local_size,
                                                      kfd->local_align, &base))
                    return -1;
                f->local_base[i] = base;
            }
        }
        w->cur_mask = 0;
        w->cur_pc = kfd->pc0;
        w->resched = 1;
        exec_sched(w);
    }
    return 0;
}

/* ---- launches -------------------------------------------------------------------------------- */
int64_t exec_param_layout(const ptx_func *kernel, uint64_t *offsets, uint64_t *sizes, int max)
{
    if (!kernel)
        return -1;
    uint64_t off = 0;
    for (int i = 0; i < kernel->nparams; i++) {
        const ptx_sym *s = kernel->params[i];
        uint64_t a = s->align > 0 ? (uint64_t)s->align : 0;
        if (!a) {
            int b = ptx_type_bits(s->type) / 8;
            a = (uint64_t)(b > 0 ? b : 1);
        }
        off = (off + a - 1) / a * a;
        uint64_t sz = s->size ? s->size : (uint64_t)(ptx_type_bits(s->type) / 8);
        if (i < max) {
            if (offsets)
                offsets[i] = off;
            if (sizes)
                sizes[i] = sz;
        }
        off += sz;
    }
    return (int64_t)off;
}

void exec_kill(exec_machine *m)
{
    exec_cluster_free(m);
    exec_res_free(m);
    exec_cta_end(m, 0);
    exec_wset_put(&m->pool, m->warps, m->sregs, m->nwarps, NULL, 0);
    m->warps = NULL;
    m->sregs = NULL;
    free(m->kparams);
    m->kparams = NULL;
    m->kparam_size = 0;
    m->launched = 0;
    m->over = 0;
    m->bar_hold = 0;
}

/* The kernel's own bounds: .reqntid is the exact block shape, .maxntid bounds the number of
 * threads (the product of its extents), as the driver enforces them at launch. */
static int exec_launch_bounds(exec_machine *m, const ptx_func *k, exec_dim3 b)
{
    const uint32_t *r = k->reqntid, *x = k->maxntid;
    uint64_t nt = (uint64_t)b.x * b.y * b.z;
    if (r[0] && (b.x != r[0] || b.y != r[1] || b.z != r[2])) {
        snprintf(m->err, sizeof m->err, "invalid configuration argument: kernel %s requires "
                 "a block of exactly (%u,%u,%u) threads (.reqntid), launched with (%u,%u,%u)",
                 k->sym->name, r[0], r[1], r[2], b.x, b.y, b.z);
        return -1;
    }
    if (x[0] && nt > (uint64_t)x[0] * x[1] * x[2]) {
        snprintf(m->err, sizeof m->err, "too many resources requested for launch: kernel %s "
                 "allows at most %llu threads per block (.maxntid %u,%u,%u), launched with "
                 "(%u,%u,%u)", k->sym->name, (unsigned long long)x[0] * x[1] * x[2], x[0],
                 x[1], x[2], b.x, b.y, b.z);
        return -1;
    }
    return 0;
}

int exec_launch(exec_machine *m, const ptx_func *kernel, exec_dim3 grid, exec_dim3 block,
                uint32_t dyn_shmem, const void *params, size_t nparams_bytes)
{
    exec_kill(m);
    if (!kernel || !kernel->is_entry || !kernel->has_body || !m->fdec[kernel->sym->index]) {
        snprintf(m->err, sizeof m->err, "%s is not a kernel with a body",
                 kernel ? kernel->sym->name : "(null)");
        return -1;
    }
    uint64_t nt = (uint64_t)block.x * block.y * block.z;
    uint64_t nc = (uint64_t)grid.x * grid.y * grid.z;
    if (!nt || nt > 1024 || !nc || nc > 0xffffffffull || block.z > 64) {
        snprintf(m->err, sizeof m->err, "invalid launch configuration grid (%u,%u,%u) block "
                 "(%u,%u,%u)", grid.x, grid.y, grid.z, block.x, block.y, block.z);
        return -1;
    }
    if (exec_launch_bounds(m, kernel, block) != 0 || mem_shared_view(m, kernel) != 0)
        return -1;
    int64_t psz = exec_param_layout(kernel, NULL, NULL, 0);
    if (psz < 0 || (uint64_t)psz > nparams_bytes) {
        snprintf(m->err, sizeof m->err, "kernel %s needs %" PRId64 " bytes of parameters, %zu "
                 "given", kernel->sym->name, psz, nparams_bytes);
        return -1;
    }
    m->kparams = malloc((size_t)psz + 1);
    if (!m->kparams)
        return -1;
    if (psz)
        memcpy(m->kparams, params, (size_t)psz);
    m->kparam_size = (uint64_t)psz;
    m->kfd = m->fdec[kernel->sym->index];
    m->li.kernel = kernel;
    m->li.grid = grid;
    m->li.block = block;
    m->li.dyn_shmem = dyn_shmem;
    m->li.launch_id = m->nlaunch++;
    m->nthreads = (uint32_t)nt;
    m->nwarps = (uint32_t)((nt + 31) / 32);
    m->ncta = (uint32_t)nc;
    if (exec_wset_get(&m->pool, m->nwarps, &m->warps, &m->sregs)) {
        exec_kill(m);
        snprintf(m->err, sizeof m->err, "out of memory");
        return -1;
    }
    m->launched = 1;
    m->over = 0;
    m->stop_set = 0;
    m->cur_cta = 0;
    if (exec_coop_prepare(m)) {   /* cooperative: the grid barrier's workspace (exec_sched.c) */
        exec_kill(m);
        return -1;
    }
    exec_sreg_init_launch(m);
    if (EXEC_OBS_SYNC_ON(m)) {
        exec_sync_ev ev = { .kind = EXEC_SYNC_LAUNCH, .count = m->ncta, .what = "launch" };
        exec_obs_sync_ev(m, &ev);
    }
    if (exec_cta_start(m, 0)) {
        exec_kill(m);
        snprintf(m->err, sizeof m->err, "cannot start CTA 0 (out of memory)");
        return -1;
    }
    if (exec_cluster_launch(m)) {   /* cluster shape; the rest of cluster 0 (exec_cluster.c) */
        exec_kill(m);
        return -1;
    }
    m->cta_fresh = 1;
    return 0;
}

const exec_launch_info *exec_current_launch(const exec_machine *m)
{
    return m->launched ? &m->li : NULL;
}

void exec_set_launch_id(exec_machine *m, uint32_t id)
{
    if (m->launched)
        m->li.launch_id = id;
}

/* ---- running --------------------------------------------------------------------------------- */
typedef struct exec_pool exec_pool;
typedef struct {
    const exec_run_opts *o;
    uint64_t steps;
    uint64_t polled;
    exec_pool *pool;          /* a parallel worker's pool (exec_run_par); NULL on one thread */
    uint64_t turn_end;        /* steps at which the CTA's turn ends (exec_sched.c); 0: none */
    _Atomic int *cancel;      /* a parallel worker: abandon the CTA at the next round */
} exec_runctx;

static void exec_pool_count(exec_pool *p, uint64_t n);
static int exec_pool_halted(const exec_runctx *rc);

/* Run warp w for at most `budget` instructions; account steps; returns WR_*. */
static int exec_slice(exec_machine *m, exec_warp *w, int64_t budget, exec_runctx *rc)
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

static int64_t exec_budget(const exec_runctx *rc, int64_t want)
{
    if (rc->o->max_steps) {
        uint64_t left = rc->o->max_steps > rc->steps ? rc->o->max_steps - rc->steps : 0;
        if ((uint64_t)want > left)
            want = (int64_t)left;
    }
    return want;
}

/* The run's interrupt flag is raised (Ctrl-C, or another thread's request: any thread may raise
 * it, so it is read atomically). */
static int exec_intr_flag(const exec_runctx *rc)
{
    return rc->o->interrupt && __atomic_load_n(rc->o->interrupt, __ATOMIC_RELAXED);
}

/* Whether the run is to stop with EXEC_STOP_INTERRUPT now (the flag, or the test hook
 * exec_set_interrupt_after reached). */
static int exec_interrupted(const exec_machine *m, const exec_runctx *rc)
{
    return exec_intr_flag(rc) ||
           (m->intr_after && rc->steps >= m->intr_after);
}

/* Stop with EXEC_STOP_INTERRUPT at warp w (live), or at the CTA's first live warp. */
static void exec_interrupt_stop(exec_machine *m, exec_warp *w)
{
    for (uint32_t k = 0; (!w || !exec_live(w)) && k < m->nwarps; k++)
        w = &m->warps[(m->cta.rr + k) % m->nwarps];
    if (!w)
        w = &m->warps[0];
    exec_sched(w);
    exec_stop_fill(w, NULL, EXEC_STOP_INTERRUPT, EXEC_EXC_NONE,
                   w->cur_mask ? w->cur_mask : exec_live(w));
    snprintf(m->stop.msg, sizeof m->stop.msg, "interrupted");
}

static int exec_describe_lanes(const exec_machine *m, char *buf, size_t n)
{
    size_t k = 0;
    for (uint32_t i = 0; i < m->nwarps && k < n; i++) {
        const exec_warp *w = &m->warps[i];
        for (int b = 0; b < EXEC_NBAR; b++) {
            uint32_t lanes = 0, pc = 0;
            EXEC_FOR_LANES(l, w->bar_wait)
                if (w->lane_bar[l] == b) {
                    lanes |= 1u << l;
                    pc = w->pc[l] - 1;
                }
            if (lanes && k < n) {
                const exec_insn *in = &m->code[pc];
                k += (size_t)snprintf(buf + k, n - k, "; warp %u lanes 0x%08x wait at barrier "
                                      "%d (pc 0x%x, line %d)", i, lanes, b, pc,
                                      in->src ? in->src->line : 0);
            }
        }
        if (w->ws_wait && k < n)
            k += (size_t)snprintf(buf + k, n - k, "; warp %u lanes 0x%08x wait in a "
                                  "warp-synchronous instruction", i, w->ws_wait);
        if (w->yielded && w->cur_mask && k < n) {
            const exec_insn *in = &m->code[w->cur_pc];
            k += (size_t)snprintf(buf + k, n - k, "; warp %u lanes 0x%08x wait in %s (pc 0x%x, "
                                  "line %d), which cannot proceed", i, w->cur_mask,
                                  in->src ? in->src->opcode : "?", w->cur_pc,
                                  in->src ? in->src->line : 0);
        }
        if ((w->exited & w->valid) && k < n)
            k += (size_t)snprintf(buf + k, n - k, "; warp %u lanes 0x%08x exited", i,
                                  w->exited & w->valid);
    }
    return (int)k;
}

static void exec_deadlock(exec_machine *m)
{
    exec_warp *w0 = NULL;
    for (uint32_t i = 0; i < m->nwarps && !w0; i++)
        if (exec_live(&m->warps[i]))
            w0 = &m->warps[i];
    if (!w0)
        w0 = &m->warps[0];
    char buf[400];
    exec_describe_lanes(m, buf, sizeof buf);
    uint32_t lanes = exec_live(w0);
    int l = lanes ? exec_ctz(lanes) : 0;
    uint32_t pc = w0->pc[l];
    for (uint32_t i = 0; i < m->nwarps; i++)
        if (m->warps[i].yielded && m->warps[i].cur_mask) {
            /* warps that only yield (EXEC_YIELD): report the first one where it waits */
            w0 = &m->warps[i];
            lanes = w0->cur_mask;
            l = exec_ctz(lanes);
            pc = w0->cur_pc;
            break;
        }
    exec_fault(w0, &m->code[pc], EXEC_EXC_BARRIER_DEADLOCK, l, PTX_SPACE_NONE, 0, 0,
               "barrier deadlock in CTA %u: no thread can proceed%s", m->cta.id, buf);
    m->stop.lanes = lanes;
}

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
static int exec_cta_run(exec_machine *m, exec_runctx *rc)
{
    for (;;) {
        int any_live = 0, progressed = 0;
        exec_warp *sliced = NULL;
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
            uint64_t before = rc->steps;
            int r = exec_slice(m, w, b, rc);
            if (rc->steps != before)
                progressed = 1;
            if (r == WR_STOP || m->stop_set)
                return 0;
            if (r == WR_SLICE) {
                m->cta.rr = (wi + 1) % m->nwarps;
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

/* Steps a CTA's start costs the budget (the watchdog must fire on grids of tiny CTAs too):
 * one per warp set up, one per KB of shared memory cleared. */
static uint64_t exec_cta_cost(const exec_machine *m)
{
    return m->nwarps + (((uint64_t)m->shared_static + m->li.dyn_shmem) >> 10);
}

static int exec_run_grid(exec_machine *m, exec_runctx *rc)
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
            if (exec_cta_start(m, m->cur_cta)) {
                snprintf(m->err, sizeof m->err, "cannot start CTA %u (out of memory)",
                         m->cur_cta);
                return -1;
            }
            rc->steps += exec_cta_cost(m);
            if (ran && exec_interrupted(m, rc)) {   /* between CTAs: stop in the new one */
                exec_interrupt_stop(m, NULL);
                return 0;
            }
        }
        /* a turn (exec_sched.c) while another CTA could run */
        rc->turn_end = exec_res_next(m) < m->ncta || (m->res && exec_res_parked(m))
                       ? rc->steps + EXEC_TURN : 0;
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

/* A lane step left lane `bit` waiting in a warp-synchronous instruction for lanes elsewhere in
 * its warp: run the warp one instruction at a time (min-pc order: the lanes behind first) until
 * they arrive and complete it, so they stop right after it. Returns 0 on a stop; 1 when the lane
 * is released or nothing can run any more (it then still waits, as `info cuda lanes` shows). */
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
    return pi && !strcmp(pi->opcode, "bra") && (uint32_t)m->code[pc].aux[0] <= pc;
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
    return exec_insn_collective(m, pc) || strcmp(pi->opcode, "call") == 0 ||
           (!strcmp(pi->opcode, "ret") && exec_pc_insn(m, pc, &f, &fi) == 0 && !f->is_entry);
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

static int exec_run_step(exec_machine *m, const exec_run_opts *o, exec_runctx *rc)
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

/* ---- parallel run to completion -------------------------------------------------------------
 * Each worker thread owns a private copy of the machine (its own CTA, warps, sregs, stop,
 * counters and global last-hit cache; code, global memory and the const bank are shared) and
 * takes CTAs in increasing order from a shared counter. A stop in CTA k cancels the workers
 * running CTAs above k and no CTA above k is started; CTAs below k run to completion, so the
 * stop reported (the lowest faulting CTA's) is the one a single thread would report. That
 * CTA's state then becomes the machine's live CTA, for inspection or (interrupts) resuming.
 * Kernels whose CTAs could observe their order run on one thread: see exec_par_module_ok. */
#define EXEC_MAX_THREADS 256

int exec_set_threads(exec_machine *m, int n)
{
    if (n <= 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c > 0 ? (int)c : 1;
    }
    m->nthreads_run = n > EXEC_MAX_THREADS ? EXEC_MAX_THREADS : n;
    return m->nthreads_run;
}

int exec_get_threads(const exec_machine *m) { return m->nthreads_run > 0 ? m->nthreads_run : 1; }

static int exec_has_mod(const ptx_insn *pi, const char *prefix)
{
    for (int i = 0; i < pi->nmods; i++)
        if (strncmp(pi->mods[i], prefix, strlen(prefix)) == 0)
            return 1;
    return 0;
}

/* Whether instruction pc lets CTAs run on workers: no surface reductions (sured) or bulk
 * reductions (cp.reduce.async.bulk), no brkpt, no calls to bodiless functions (libc: malloc,
 * which changes the regions; printf is buffered per CTA) or unknown indirect targets, no
 * %clock/%globaltimer reads (their values follow each machine's instruction count). Global
 * atomics are fine: the claims of exec_par.c make a word updated by atomics of two CTAs a
 * conflict, unless both are integer add/min/max/and/or/xor whose old value is unused
 * (applied with host atomics: exec_atom_par_ok). *callee gets a direct call's target. */
static int exec_par_insn_ok(const exec_machine *m, uint32_t pc, const ptx_func **callee)
{
    const ptx_insn *pi = m->code[pc].src;
    *callee = NULL;
    if (!pi)
        return 1;
    const char *op = pi->opcode;
    if (strcmp(op, "brkpt") == 0 || (strcmp(op, "cp") == 0 && exec_has_mod(pi, "reduce")) ||
        strcmp(op, "sured") == 0)
        return 0;
    if (strcmp(op, "call") == 0) {
        int direct = 0;
        for (int k = 0; k < pi->nops; k++) {
            const ptx_operand *o = &pi->ops[k];
            if (o->kind == PTX_OP_SYM && o->sym && o->sym->kind == PTX_SYM_FUNC) {
                if (!o->sym->func || (!o->sym->func->has_body &&
                                      strcmp(o->sym->name, "vprintf") != 0))
                    return 0;
                if (o->sym->func->has_body)
                    *callee = o->sym->func;
                direct = 1;
            }
        }
        if (!direct)
            return 0;
    }
    for (int k = 0; k < pi->nops; k++) {
        const ptx_operand *o = &pi->ops[k];
        if (o->kind == PTX_OP_REG && o->sym && o->sym->kind == PTX_SYM_SREG) {
            int id = o->sym->sreg_id;
            if (id == PTX_SREG_CLOCK || id == PTX_SREG_CLOCK_HI || id == PTX_SREG_CLOCK64 ||
                id == PTX_SREG_GLOBALTIMER || id == PTX_SREG_GLOBALTIMER_LO ||
                id == PTX_SREG_GLOBALTIMER_HI)
                return 0;
        }
    }
    return 1;
}

/* Whether the launched kernel, with every function it calls, may run on workers. */
static int exec_par_kernel_ok(const exec_machine *m)
{
    int nf = m->mod->nfuncs, n = 0, ok = 1;
    uint8_t *seen = calloc((size_t)nf + 1, 1);
    int *todo = malloc(((size_t)nf + 1) * sizeof *todo);
    if (!seen || !todo) {
        free(seen);
        free(todo);
        return 0;
    }
    todo[n++] = m->li.kernel->sym->index;
    seen[m->li.kernel->sym->index] = 1;
    while (n && ok) {
        const exec_fdec *fd = m->fdec[todo[--n]];
        for (uint32_t pc = fd ? fd->pc0 : 0; fd && ok && pc < fd->pc0 + fd->n; pc++) {
            const ptx_func *c;
            ok = exec_par_insn_ok(m, pc, &c);
            if (ok && c && c->sym->index >= 0 && c->sym->index < nf && !seen[c->sym->index]) {
                seen[c->sym->index] = 1;
                todo[n++] = c->sym->index;
            }
        }
    }
    free(seen);
    free(todo);
    return ok;
}

static int exec_par_wanted(exec_machine *m, const exec_run_opts *o)
{
    (void)o;   /* a step limit is handled by exec_run_par */
    /* an observer of every access or of sync events sees them in the order one thread runs
       them (exec_obs.h) */
    if (exec_get_threads(m) < 2 || m->obs_spaces || (m->obs_want & EXEC_OBS_SYNC) ||
        m->cl || m->res || m->coop ||
        m->ncta - m->cur_cta < 2)
        return 0;
    for (uint32_t pc = 0; pc < m->ncode; pc++)
        if (m->code[pc].fn == exec_bp_stub)
            return 0;
    if (!m->par_ok || m->par_ok_kernel != m->li.kernel) {
        m->par_ok = exec_par_kernel_ok(m) ? 1 : -1;
        m->par_ok_kernel = m->li.kernel;
    }
    return m->par_ok > 0;
}

/* Whether the module calls vprintf (parallel workers then buffer each CTA's output). */
static int exec_mod_printf(const exec_machine *m)
{
    for (uint32_t pc = 0; pc < m->ncode; pc++) {
        const ptx_insn *pi = m->code[pc].src;
        if (pi && strcmp(pi->opcode, "call") == 0)
            for (int k = 0; k < pi->nops; k++)
                if (pi->ops[k].kind == PTX_OP_SYM && pi->ops[k].sym &&
                    strcmp(pi->ops[k].sym->name, "vprintf") == 0)
                    return 1;
    }
    return 0;
}

typedef struct { char *buf; size_t len; } exec_outbuf;
enum { WK_IDLE, WK_TAKEN, WK_STOPPED, WK_ABANDONED, WK_CONFLICT };
typedef struct {
    exec_pool *pool;
    exec_machine wm;          /* the worker's machine */
    pthread_t th;
    _Atomic int cancel;       /* a lower CTA stopped: abandon this one */
    _Atomic uint32_t cur;     /* CTA taken and not finished, UINT32_MAX when none */
    int state;                /* WK_*: how the worker left cur */
    int err;
} exec_worker;

struct exec_pool {
    exec_worker *w;
    int n;
    uint32_t first, end;      /* the window of CTAs [first, end) */
    _Atomic uint32_t next;    /* next CTA to hand out */
    _Atomic uint32_t stop_min;
    const exec_run_opts *o;
    exec_run_opts wo;         /* the workers' options: no step limit or interrupt of their own */
    _Atomic uint64_t steps;   /* with a step limit or interrupt hook: steps of every worker */
    uint64_t limit;           /* halt when steps reach this (the budget left); 0: none */
    uint64_t intr_at;         /* the same for exec_set_interrupt_after; 0: none */
    _Atomic int halt;         /* limit, interrupt or conflict: every worker leaves its CTA */
    uint64_t *csteps;         /* steps of each CTA of the window (setup included) */
    exec_outbuf *outs;        /* printf: each CTA's output (index: CTA - first), or NULL */
    exec_par *par;            /* claims on global memory (exec_par.c) */
};

static void exec_pool_count(exec_pool *p, uint64_t n)
{
    if ((p->limit || p->intr_at) && n) {
        uint64_t t = atomic_fetch_add(&p->steps, n) + n;
        if ((p->limit && t >= p->limit) || (p->intr_at && t >= p->intr_at))
            atomic_store(&p->halt, 1);
    }
}

static int exec_pool_halted(const exec_runctx *rc)
{
    const exec_pool *p = rc->pool;
    if (atomic_load(&p->halt) || (rc->cancel && atomic_load(rc->cancel)) ||
        exec_par_spinning(p->par))
        return 1;
    /* Ctrl-C: the flag belongs to the front end's signal handler */
    return p->o->interrupt && __atomic_load_n(p->o->interrupt, __ATOMIC_RELAXED);
}

/* Worker k's warps and shared block go to the main machine's slot for worker i (or are freed). */
static void exec_worker_free(exec_machine *m, exec_worker *k, int i)
{
    exec_machine *wm = &k->wm;
    exec_cta_end(wm, 0);   /* the shared block to wm->pool */
    if (m->wpool && i < EXEC_WPOOL) {
        exec_wset_put(&m->wpool[i], wm->warps, wm->sregs, m->nwarps, wm->pool.sh,
                      wm->pool.sh_cap);
    } else {
        exec_wset_free(wm->warps, wm->sregs, m->nwarps);
        free(wm->pool.sh);
    }
    memset(&wm->pool, 0, sizeof wm->pool);
    wm->warps = NULL;
    wm->sregs = NULL;
}

/* A worker: take CTAs in increasing order until the window is done or the pool halts. A CTA
 * left unfinished stays in k->cur with k->state saying how (exec_par_window sorts it out). */
static void *exec_worker_main(void *arg)
{
    exec_worker *k = arg;
    exec_pool *p = k->pool;
    exec_machine *wm = &k->wm;
    exec_runctx rc = { .o = &p->wo, .pool = p, .cancel = &k->cancel };
    for (;;) {
        if (exec_pool_halted(&rc))
            break;
        uint32_t id = atomic_fetch_add(&p->next, 1);
        if (id >= p->end)
            break;
        atomic_store(&k->cur, id);
        k->state = WK_TAKEN;
        if (id > atomic_load(&p->stop_min))
            break;
        if (exec_cta_start(wm, id)) {
            k->err = 1;
            break;
        }
        uint64_t before = rc.steps;
        rc.steps += exec_cta_cost(wm);
        exec_pool_count(p, rc.steps - before);
        wm->cur_cta = id;
        exec_outbuf ob = { NULL, 0 };
        FILE *mo = NULL;
        if (p->outs) {
            mo = open_memstream(&ob.buf, &ob.len);
            if (!mo) {
                k->err = 1;
                break;
            }
            wm->out = mo;
        }
        int r = exec_cta_run(wm, &rc);
        if (mo) {
            fclose(mo);
            p->outs[id - p->first] = ob;
        }
        p->csteps[id - p->first] = rc.steps - before;
        if (r == 1) {
            exec_cta_end(wm, 1);
            atomic_store(&k->cur, UINT32_MAX);
            k->state = WK_IDLE;
            continue;
        }
        if (r == 2) {
            k->state = WK_ABANDONED;   /* at a round's end: resumable */
            break;
        }
        if (wm->par_conflict) {
            k->state = WK_CONFLICT;    /* mid-instruction: runs again from its start */
            atomic_store(&p->halt, 1);
            break;
        }
        /* a stop in CTA id: keep this CTA's state, cancel workers on higher CTAs */
        k->state = WK_STOPPED;
        uint32_t cur = atomic_load(&p->stop_min);
        while (id < cur && !atomic_compare_exchange_weak(&p->stop_min, &cur, id))
            ;
        for (int j = 0; j < p->n; j++) {
            uint32_t c = atomic_load(&p->w[j].cur);
            if (c > id && c != UINT32_MAX)
                atomic_store(&p->w[j].cancel, 1);
        }
        break;
    }
    return NULL;
}

/* Make worker k's CTA (left at a stop or a round's end) the machine's live CTA. */
static void exec_adopt_cta(exec_machine *m, exec_worker *k)
{
    exec_cta_end(m, 0);
    exec_wset_free(m->warps, m->sregs, m->nwarps);
    exec_machine *wm = &k->wm;
    m->warps = wm->warps;
    m->sregs = wm->sregs;
    m->cta = wm->cta;
    m->cta_live = 1;
    m->cta_fresh = 0;   /* it has run: the next continue resumes it */
    m->cur_cta = wm->cta.id;
    for (uint32_t j = 0; j < m->nwarps; j++) {
        m->warps[j].m = m;
        m->warps[j].cta = &m->cta;
    }
    wm->warps = NULL;
    wm->sregs = NULL;
    wm->cta_live = 0;
    wm->cta.shared = NULL;
}

#define EXEC_PAR_WINDOW (UINT32_C(1) << 20)   /* CTAs per pool (bounds csteps and outs) */

/* Run CTAs [m->cur_cta, end) on n workers. Returns 1 when all completed (m->cur_cta = end),
 * 0 when the machine holds the stop a single thread would give, 2 when one thread must go
 * on from m->cur_cta (live CTA or not), -1 on an error. Memory and steps are then those of
 * one thread having run every CTA below m->cur_cta, and the live CTA as far as it got. */
static int exec_par_window(exec_machine *m, exec_runctx *rc, int n, uint32_t end)
{
    uint32_t first = m->cur_cta, cnt = end - first;
    exec_pool p = { .n = n, .first = first, .end = end, .o = rc->o, .wo = *rc->o };
    p.wo.max_steps = 0;
    p.wo.interrupt = NULL;
    atomic_init(&p.next, first);
    atomic_init(&p.stop_min, UINT32_MAX);
    atomic_init(&p.steps, 0);
    atomic_init(&p.halt, 0);
    if (rc->o->max_steps)
        p.limit = rc->o->max_steps > rc->steps ? rc->o->max_steps - rc->steps : 1;
    if (m->intr_after)
        p.intr_at = m->intr_after > rc->steps ? m->intr_after - rc->steps : 1;
    p.par = exec_par_get(m, first);
    p.csteps = calloc(cnt, sizeof *p.csteps);
    p.w = calloc((size_t)n, sizeof *p.w);
    int printing = exec_mod_printf(m);
    if (printing)
        p.outs = calloc(cnt, sizeof *p.outs);
    if (!p.par || !p.csteps || !p.w || (printing && !p.outs)) {
        exec_par_put(m, p.par);
        free(p.csteps);
        free(p.w);
        free(p.outs);
        return 2;   /* no memory for the bookkeeping: one thread */
    }
    /* every worker's machine is made before any starts (workers write the main machine's
       list of claimed regions) */
    int ready = 0, started = 0;
    for (int i = 0; i < n; i++) {
        exec_worker *k = &p.w[i];
        k->pool = &p;
        k->wm = *m;
        atomic_init(&k->cur, UINT32_MAX);
        atomic_init(&k->cancel, 0);
        exec_machine *wm = &k->wm;
        wm->is_worker = 1;
        wm->par = p.par;
        exec_par_observe(wm);
        wm->par_conflict = 0;
        wm->intr_after = 0;   /* the pool counts it (exec_pool_count) */
        wm->cta_live = 0;
        memset(&wm->cta, 0, sizeof wm->cta);
        wm->stop_set = 0;
        memset(&wm->stop, 0, sizeof wm->stop);
        wm->tinsn = 0;
        wm->glob.last = NULL;
        /* the worker's own per-launch memory: its slot's from the last run, when kept */
        memset(&wm->pool, 0, sizeof wm->pool);
        wm->wpool = NULL;
        if (!m->wpool)
            m->wpool = calloc(EXEC_WPOOL, sizeof *m->wpool);
        exec_wset tmp = {0}, *slot = m->wpool && i < EXEC_WPOOL ? &m->wpool[i] : &tmp;
        if (exec_wset_get(slot, m->nwarps, &wm->warps, &wm->sregs))
            break;
        if (slot->sh) {
            wm->pool.sh = slot->sh;
            wm->pool.sh_cap = slot->sh_cap;
            slot->sh = NULL;
            slot->sh_cap = 0;
        }
        memcpy(wm->sregs, m->sregs, (size_t)m->nwarps * EXEC_SR__COUNT * EXEC_SLOT);
        ready++;
    }
    for (int i = 0; i < ready; i++) {
        if (pthread_create(&p.w[i].th, NULL, exec_worker_main, &p.w[i]))
            break;
        started++;
    }
    for (int i = 0; i < started; i++)
        pthread_join(p.w[i].th, NULL);
    /* low: the lowest CTA not completed; every CTA below it completed */
    uint32_t low = atomic_load(&p.next) < end ? atomic_load(&p.next) : end;
    exec_worker *lw = NULL;
    int err = 0;
    for (int i = 0; i < started; i++) {
        exec_worker *k = &p.w[i];
        err |= k->err;
        m->tinsn += k->wm.tinsn;
        uint32_t c = atomic_load(&k->cur);
        if (c != UINT32_MAX && c <= low) {
            low = c;
            lw = k;
        }
    }
    int keep = lw && !err && (lw->state == WK_STOPPED || lw->state == WK_ABANDONED);
    /* a step limit or the interrupt hook that one thread would have reached inside a CTA
     * below low: that CTA runs again from its start on one thread */
    uint64_t lim = rc->o->max_steps, acc = rc->steps;
    if (m->intr_after && (!lim || m->intr_after < lim))
        lim = m->intr_after;
    for (uint32_t c = first; lim && (c < low || (keep && c == low)); c++) {
        acc += p.csteps[c - first];
        if (acc >= lim) {
            low = c;
            keep = 0;
            break;
        }
    }
    int all = low >= end && !err && started;
    if (err || !started || (!all && exec_par_reduced(p.par))) {
        /* reductions cannot be taken back CTA by CTA: undo the whole window */
        exec_par_undo(p.par, first, 1);
        low = first;
        keep = 0;
    } else if (!all) {
        exec_par_undo(p.par, keep ? low + 1 : low, 0);
    }
    uint64_t done = 0;
    for (uint32_t i = 0; i < cnt; i++) {
        int counts = first + i < low || (keep && first + i == low);
        if (counts)
            done += p.csteps[i];
        if (p.outs) {
            if (counts && p.outs[i].len)
                fwrite(p.outs[i].buf, 1, p.outs[i].len, m->out ? m->out : stdout);
            free(p.outs[i].buf);
        }
    }
    if (p.outs)
        fflush(m->out ? m->out : stdout);
    rc->steps += done;
    m->clock += done;
    int rcode;
    if (err) {
        snprintf(m->err, sizeof m->err, "cannot start a CTA (out of memory)");
        m->cur_cta = first;
        rcode = -1;
    } else if (all) {
        m->cur_cta = end;
        rcode = 1;
    } else if (keep) {
        exec_adopt_cta(m, lw);
        if (lw->state == WK_STOPPED) {
            m->stop = lw->wm.stop;
            m->stop_set = 1;
            rcode = 0;
        } else {
            rcode = 2;
        }
    } else {
        m->cur_cta = low;
        rcode = 2;
    }
    for (int i = 0; i < n; i++)
        exec_worker_free(m, &p.w[i], i);
    free(p.w);
    free(p.outs);
    free(p.csteps);
    exec_par_put(m, p.par);
    return rcode;
}

/* Workers cost their start and join (about 100 us on a loaded machine): CTAs run on this
 * thread, in order, until m->par_warmup (EXEC_PAR_WARMUP, exec_set_par_warmup)
 * warp-instructions of the run are spent, and only a grid with more work left goes to the
 * workers, so programs of many small launches do not pay for threads. Results are the same
 * either way. */
void exec_set_par_warmup(exec_machine *m, uint64_t steps) { m->par_warmup = steps; }

static int exec_run_par(exec_machine *m, exec_runctx *rc)
{
    if (m->cta_live && m->cta_fresh)
        rc->steps += exec_cta_cost(m);   /* CTA 0's setup, as every later CTA's */
    m->cta_fresh = 0;   /* whatever runs from here (workers or, falling back, this thread) */
    uint64_t warm_end = rc->steps + m->par_warmup;
    for (int ran = 0; m->cta_live || (m->cur_cta < m->ncta && rc->steps < warm_end); ran = 1) {
        if (!m->cta_live) {
            if (exec_cta_start(m, m->cur_cta)) {
                snprintf(m->err, sizeof m->err, "cannot start CTA %u (out of memory)",
                         m->cur_cta);
                return -1;
            }
            rc->steps += exec_cta_cost(m);
            if (ran && exec_interrupted(m, rc)) {   /* between CTAs: stop in the new one */
                exec_interrupt_stop(m, NULL);
                return 0;
            }
        }
        /* with a turn, as on one thread: if it waits for later CTAs, they take turns */
        rc->turn_end = m->cur_cta + 1 < m->ncta ? rc->steps + EXEC_TURN : 0;
        m->turn_yield = 0;
        int r = exec_cta_run(m, rc);
        rc->turn_end = 0;
        if (r == 5) {
            int t = exec_res_turn_over(m);
            if (t < 0) {
                snprintf(m->err, sizeof m->err, "cannot start a CTA (out of memory)");
                return -1;
            }
            if (t == 1)
                rc->steps += exec_cta_cost(m);
            return exec_run_grid(m, rc);
        }
        if (r != 1)
            return 0;
        m->cur_cta++;
        exec_cta_end(m, 1);
    }
    uint32_t win = exec_par_max_ctas() < EXEC_PAR_WINDOW ? exec_par_max_ctas() : EXEC_PAR_WINDOW;
    while (m->cur_cta < m->ncta) {
        if (exec_interrupted(m, rc) || (rc->o->max_steps && rc->steps >= rc->o->max_steps))
            return exec_run_grid(m, rc);   /* it stops in the next CTA, as one thread does */
        int n = exec_get_threads(m);
        if ((uint32_t)n > m->ncta - m->cur_cta)
            n = (int)(m->ncta - m->cur_cta);
        if (n < 2)
            return exec_run_grid(m, rc);
        uint32_t end = m->ncta - m->cur_cta > win ? m->cur_cta + win : m->ncta;
        int r = exec_par_window(m, rc, n, end);
        if (r == 2)
            return exec_run_grid(m, rc);
        if (r != 1)
            return r;
    }
    exec_cta_end(m, 0);
    memset(&m->stop, 0, sizeof m->stop);
    m->stop.kind = EXEC_STOP_DONE;
    m->stop.cta = m->ncta ? m->ncta - 1 : 0;
    snprintf(m->stop.msg, sizeof m->stop.msg, "kernel %s completed", m->li.kernel->sym->name);
    return 0;
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

/* ---- entry points for thread block clusters (exec_cluster.c) ---------------------------------- */
int exec_run_cta_pass(exec_machine *m, void *rc) { return exec_cta_run(m, rc); }
int exec_run_cta_start(exec_machine *m, uint32_t id) { return exec_cta_start(m, id); }
void exec_run_cta_end(exec_machine *m, int keep) { exec_cta_end(m, keep); }

/* Free a parked CTA (clusters, resident CTAs): its frames, stacks, shared block and arrays;
 * the CTA swapped in stays as it is. */
void exec_run_cta_free_parked(exec_machine *m, exec_cta *c, exec_warp *warps, uint8_t *sregs)
{
    exec_cta keep = m->cta;
    exec_warp *kw = m->warps;
    int live = m->cta_live;
    m->cta = *c;
    m->warps = warps;
    m->cta_live = 1;
    exec_cta_end(m, 0);
    exec_wset_free(warps, sregs, m->nwarps);
    m->cta = keep;
    m->warps = kw;
    m->cta_live = live;
}
