/* exec_workers.c - run to completion on worker threads: eligibility, pools, windows, adoption. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "exec_core.h"

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
    if (ptx_op_is(pi, PTX_OPF_NOPAR) || (pi->opc == PTX_OPC_cp && exec_has_mod(pi, "reduce")))
        return 0;
    if (pi->opc == PTX_OPC_call) {    /* reads call's operand layout */
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

int exec_par_wanted(exec_machine *m, const exec_run_opts *o)
{
    (void)o;   /* a step limit is handled by exec_run_par */
    /* an observer of every access or of sync events sees them in the order one thread runs
       them (exec_obs.h) */
    if (exec_get_threads(m) < 2 || m->obs_spaces || (m->obs_want & EXEC_OBS_SYNC) ||
        m->cl || m->res || m->coop || m->sched_random ||
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
        if (pi && pi->opc == PTX_OPC_call)
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

void exec_pool_count(exec_pool *p, uint64_t n)
{
    if ((p->limit || p->intr_at) && n) {
        uint64_t t = atomic_fetch_add(&p->steps, n) + n;
        if ((p->limit && t >= p->limit) || (p->intr_at && t >= p->intr_at))
            atomic_store(&p->halt, 1);
    }
}

int exec_pool_halted(const exec_runctx *rc)
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

int exec_run_par(exec_machine *m, exec_runctx *rc)
{
    if (m->cta_live && m->cta_fresh)
        rc->steps += exec_cta_cost(m);   /* CTA 0's setup, as every later CTA's */
    m->cta_fresh = 0;   /* whatever runs from here (workers or, falling back, this thread) */
    uint64_t warm_end = rc->steps + m->par_warmup;
    for (int ran = 0; m->cta_live || (m->cur_cta < m->ncta && rc->steps < warm_end); ran = 1) {
        if (!m->cta_live) {
            int e = exec_cta_enter(m, rc, ran);
            if (e)
                return e > 0 ? 0 : -1;
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
