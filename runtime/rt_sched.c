/* rt_sched.c - kernels on worker threads: a machine per kernel, quiescing, the debugger's hook, step budget, timeout, Ctrl-C, exit. */
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rt.h"

/* ---------------------------------------------------------------------------------------------
 * A launch runs on the worker thread of its stream (rt_queue.c calls rt_launch_exec). It first
 * takes its module's machine: one kernel at a time per machine (a machine holds one launch),
 * and under the in-process debugger one kernel in the whole process (the session shows one
 * launch), as with checkers in a plain run (PTXDBG_CHECK: one record of findings, in the
 * order a single thread makes them). Then it runs with the runtime lock released, as a "runner" in state RS_RUN.
 *
 * Every other thread touches a machine only with the lock held and after rt_quiesce, which
 * raises the runners' interrupt flag and waits until none is in RS_RUN or RS_STOP: plain
 * runners see the flag at their next slice boundary (exec_run returns EXEC_STOP_INTERRUPT),
 * park (RS_PARK) until no reason to stop remains, and resume exactly where they were; the
 * debugged runner parks in rt_debug_run_hook, which the debugger's run control calls around
 * every run of it, and is RS_STOP while the user is at a stop (quiescers then wait, as every
 * thread of a program stopped by cuda-gdb would). Plain runners share one interrupt flag,
 * rs_intr, high while any reason to stop exists (a quiesce, an abort, the process exiting,
 * Ctrl-C, a runner past its PTXDBG_TIMEOUT); a runner interrupted for another's reason waits
 * (parked) until the flag drops.
 * ------------------------------------------------------------------------------------------- */

typedef enum { RS_WAIT, RS_RUN, RS_PARK, RS_STOP } rs_state;

struct rt_runner {
    rt_launch_ctx *ctx;
    rs_state state;
    int dbg;                  /* run by the in-process debugger */
    int solo;                 /* runs alone in the process (debugged, or plain-run checks) */
    int intr_ok;              /* debugged: the current run may be interrupted and resumed */
    int raised;               /* debugged: we raised the session's interrupt flag */
    int timed_out;            /* past its PTXDBG_TIMEOUT deadline */
    int started;              /* dbg_target_launch done: the machine shows this launch */
    double deadline;          /* CLOCK_MONOTONIC seconds, 0: none */
    uint64_t max_steps;       /* PTXDBG_MAX_STEPS when it started, 0: none */
    struct rt_runner *next;
};

void (*rt_debug_interrupt)(void);

static rt_runner *rs_list;                     /* runners holding or waiting for a machine */
static rt_runner *rs_owner[RT_MAX_MODULES];    /* the runner holding each module's machine */
static rt_runner *rs_dbg_owner;                /* the launch the debugger session runs */
static rt_runner *rs_solo_owner;               /* the launch running alone (debugged or checked) */
static int rs_nquiesce;                        /* threads quiescing */
static _Thread_local int rs_quiescing;
static _Thread_local rt_runner *rs_self;       /* the runner this thread is */
static int rs_exiting;                         /* the process exits: nothing runs again */
static int rs_allstop;                         /* the debugger is at a stop */
static volatile int rs_intr;                   /* plain runners' interrupt flag (dbg_target_run) */
static volatile sig_atomic_t rs_sigint;        /* Ctrl-C in a plain run */
static rt_runner *rs_sigint_owner;             /* the runner that reports it */
static atomic_int rs_inflight;                 /* launches taken and not finished */
static uint64_t rs_max_steps;                  /* PTXDBG_MAX_STEPS (0: none) */
static double rs_timeout;                      /* PTXDBG_TIMEOUT seconds (0: none) */
static int rs_watchdog_on;
static int rs_sigint_installed;

/* ---- settings ------------------------------------------------------------------------------ */
static double rs_env_number(const char *name, double max)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return 0;
    char *end;
    double v = strtod(s, &end);
    if (*end || !(v >= 0) || v > max) {
        rt_warn("%s=%s is not a number from 0 to %.0f; ignored", name, s, max);
        return 0;
    }
    return v;
}

__attribute__((constructor)) static void rs_init(void)
{
    rt_run_set_limits((uint64_t)rs_env_number("PTXDBG_MAX_STEPS", 1e19),
                      rs_env_number("PTXDBG_TIMEOUT", 1e9));
}

void rt_run_set_limits(uint64_t max_steps, double timeout)
{
    rt_lock();
    rs_max_steps = max_steps;
    rs_timeout = timeout;
    rt_unlock();
}

/* ---- the interrupt flag ---------------------------------------------------------------------- */
static void rs_intr_set(int v)
{
    __atomic_store_n(&rs_intr, v, __ATOMIC_RELAXED);
}

/* Recompute rs_intr from the reasons to stop; wake the runners waiting for one to go (with no
 * runner nobody waits for that: quiescing an idle device wakes no thread). */
static void rs_intr_update(void)
{
    int v = rs_nquiesce > 0 || rs_exiting || rs_sigint;
    for (rt_runner *r = rs_list; r && !v; r = r->next)
        v = r->timed_out && !r->dbg;
    rs_intr_set(v);
    if (rs_list)
        rt_broadcast();
}

/* Ask every running kernel to stop at its next slice boundary (the debugged one too when dbg:
 * it parks in rt_debug_run_hook). */
static void rs_raise(int dbg)
{
    rs_intr_set(1);
    for (rt_runner *r = rs_list; r && dbg; r = r->next)
        if (r->dbg && r->state == RS_RUN && r->intr_ok && !r->raised && rt_debug_interrupt) {
            r->raised = 1;
            rt_debug_interrupt();
        }
}

/* Whether some runner other than those of this thread touches its machine now. */
static int rs_busy(void)
{
    for (rt_runner *r = rs_list; r; r = r->next)
        if ((r->state == RS_RUN || r->state == RS_STOP) && r != rs_self)
            return 1;
    return 0;
}

/* ---- quiescing ------------------------------------------------------------------------------- */
void rt_quiesce(void)
{
    if (rs_quiescing || rt_lock_depth() == 0)
        return;
    rs_quiescing = 1;
    rs_nquiesce++;
    while (rs_busy()) {
        rs_raise(1);
        rt_wait(&rt_cv);
    }
}

void rt_unquiesce(void)
{
    if (!rs_quiescing)
        return;
    rs_quiescing = 0;
    rs_nquiesce--;
    rs_intr_update();
}

int rt_all_stopped(void)
{
    return rs_allstop;
}

/* ---- Ctrl-C in a plain run ------------------------------------------------------------------- */
static void rs_die_by_sigint(void)
{
    signal(SIGINT, SIG_DFL);
    raise(SIGINT);
    _exit(130);
}

static void rs_on_sigint(int sig)
{
    (void)sig;
    rs_sigint = 1;
    rs_intr_set(1);
    if (atomic_load(&rs_inflight) == 0)
        rs_die_by_sigint();
}

/* Plain runs report Ctrl-C themselves, unless the program handles SIGINT (or ignores it). */
static void rs_install_sigint(void)
{
    if (rs_sigint_installed)
        return;
    rs_sigint_installed = 1;
    struct sigaction old, sa;
    if (sigaction(SIGINT, NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) ||
        old.sa_handler != SIG_DFL)
        return;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = rs_on_sigint;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

/* The first runner to see Ctrl-C: once the others parked, where every warp of every launch in
 * flight is, then the program ends as SIGINT ends it. */
static void rs_sigint_report(rt_runner *me)
{
    rs_sigint_owner = me;
    me->state = RS_PARK;
    rt_broadcast();
    while (rs_busy())
        rt_wait(&rt_cv);
    fflush(stdout);
    for (rt_runner *r = rs_list; r; r = r->next)
        if (r->started && !r->dbg)
            rt_report_where(r->ctx, &r->ctx->stop, "interrupted (SIGINT)");
    rs_die_by_sigint();
}

/* ---- the watchdog of PTXDBG_TIMEOUT ---------------------------------------------------------- */
static void *rs_watchdog(void *arg)
{
    (void)arg;
    rt_lock();
    for (;;) {
        double now = rt_now(), next = 0;
        int changed = 0;
        for (rt_runner *r = rs_list; r; r = r->next) {
            if (r->dbg || !r->deadline || r->timed_out || r->state == RS_WAIT)
                continue;
            if (now >= r->deadline)
                r->timed_out = changed = 1;
            else if (!next || r->deadline < next)
                next = r->deadline;
        }
        if (changed)
            rs_intr_update();
        if (next)
            rt_wait_until(&rt_cv, next);
        else
            rt_wait(&rt_cv);
    }
    return NULL;
}

static void rs_watchdog_start(void)
{
    if (rs_watchdog_on)
        return;
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &a, rs_watchdog, NULL) == 0)
        rs_watchdog_on = 1;
    else
        rt_warn("cannot start the PTXDBG_TIMEOUT watchdog: timeouts are not enforced");
    pthread_attr_destroy(&a);
}

/* ---- runners --------------------------------------------------------------------------------- */
/* A process that exits never lets a kernel go on: its runner stays here. */
static void rs_park_forever(rt_runner *r)
{
    r->state = RS_PARK;
    rt_broadcast();
    for (;;)
        rt_wait(&rt_cv);
}

/* Runners are reused (a launch costs no allocation for them). */
static rt_runner *rs_free;

rt_runner *rt_run_begin(rt_launch_ctx *ctx)
{
    rt_runner *r = rs_free;
    if (r)
        rs_free = r->next;
    else if (!(r = malloc(sizeof *r)))
        return NULL;
    memset(r, 0, sizeof *r);
    r->ctx = ctx;
    r->dbg = rt_debug_launch != NULL;
    /* checkers share one record of findings across machines (rt_check.c): a checked plain
       run, like a debugged one, runs one kernel at a time in the whole process */
    r->solo = r->dbg || rt_check_plain();
    r->state = RS_WAIT;
    r->next = rs_list;
    rs_list = r;
    int idx = ctx->mod->index;
    for (;;) {
        if (rs_exiting)
            rs_park_forever(r);
        if (rt_faulted()) {
            rt_run_end(r);
            return NULL;
        }
        if (!rs_owner[idx] && !rs_nquiesce && !(r->solo && rs_solo_owner))
            break;
        rt_wait(&rt_cv);
    }
    rs_owner[idx] = r;
    if (r->solo)
        rs_solo_owner = r;
    if (r->dbg)
        rs_dbg_owner = r;
    r->state = RS_RUN;
    rs_self = r;
    atomic_fetch_add(&rs_inflight, 1);
    if (!r->dbg) {
        rs_install_sigint();
        r->max_steps = rs_max_steps;
        if (rs_timeout > 0) {
            r->deadline = rt_now() + rs_timeout;
            rs_watchdog_start();
            rt_broadcast();
        }
    }
    return r;
}

void rt_run_started(rt_runner *r)
{
    r->started = 1;
}

void rt_run_end(rt_runner *r)
{
    rt_runner **pp = &rs_list;
    while (*pp && *pp != r)
        pp = &(*pp)->next;
    if (*pp)
        *pp = r->next;
    if (r->state != RS_WAIT) {
        int idx = r->ctx->mod->index;
        if (rs_owner[idx] == r)
            rs_owner[idx] = NULL;
        if (rs_solo_owner == r)
            rs_solo_owner = NULL;
        if (rs_dbg_owner == r) {
            rs_dbg_owner = NULL;
            rs_allstop = 0;
        }
        atomic_fetch_sub(&rs_inflight, 1);
    }
    if (rs_sigint_owner == r)
        rs_sigint_owner = NULL;
    if (rs_self == r)
        rs_self = NULL;
    int dbg = r->dbg;
    r->next = rs_free;
    rs_free = r;
    rs_intr_update();
    rt_broadcast();   /* quiescers and kernels waiting for this machine */
    /* Ctrl-C that no runner in flight will see any more */
    if (rs_sigint && !dbg && atomic_load(&rs_inflight) == 0)
        rs_die_by_sigint();
}

/* After an interrupt of a plain run: park while another thread needs the machines (for good
 * when the process exits); returns 0 to resume, or RT_RUN_TIMEOUT. Lock held. */
static int rs_after_interrupt(rt_runner *r)
{
    for (;;) {
        if (rs_sigint && !rs_sigint_owner)
            rs_sigint_report(r);
        if (rs_exiting && !rs_sigint)
            rs_park_forever(r);
        if (r->timed_out && !rs_sigint)
            return RT_RUN_TIMEOUT;
        if (!__atomic_load_n(&rs_intr, __ATOMIC_RELAXED)) {
            r->state = RS_RUN;
            return 0;
        }
        if (r->state != RS_PARK) {
            r->state = RS_PARK;
            rt_broadcast();
        }
        rt_wait(&rt_cv);
    }
}

int rt_run_plain(rt_runner *r)
{
    rt_launch_ctx *ctx = r->ctx;
    dbg_target *t = ctx->tgt;
    uint64_t start = dbg_target_steps(t), left = 0;
    for (;;) {
        if (r->max_steps) {
            uint64_t now = dbg_target_steps(t);
            if (now - start >= r->max_steps) {
                ctx->stop.kind = EXEC_STOP_LIMIT;
                return RT_RUN_STEPS;
            }
            left = r->max_steps - (now - start);
        }
        if (dbg_target_run(t, left, &rs_intr, &ctx->stop))
            return -1;
        if (ctx->stop.kind == EXEC_STOP_LIMIT)
            return RT_RUN_STEPS;
        if (ctx->stop.kind != EXEC_STOP_INTERRUPT)
            return 0;
        rt_lock();
        int why = rs_after_interrupt(r);
        rt_unlock();
        if (why)
            return why;
    }
}

uint64_t rt_run_max_steps(void)
{
    return rs_max_steps;
}

double rt_run_timeout(void)
{
    return rs_timeout;
}

/* ---- the in-process debugger's run control -------------------------------------------------- */
int rt_debug_run_hook(void *hctx, const exec_run_opts *o, const exec_stop *st)
{
    (void)hctx;
    rt_lock();
    rt_runner *r = rs_dbg_owner;
    int ret = 0;
    if (!r) {
        rt_unlock();
        return 0;
    }
    if (o) {
        /* about to run: not while another thread has the machines, never again at exit */
        while (rs_nquiesce || rs_exiting) {
            if (rs_exiting)
                rs_park_forever(r);
            if (r->state != RS_PARK) {
                r->state = RS_PARK;
                rt_broadcast();
            }
            rt_wait(&rt_cv);
        }
        r->state = RS_RUN;
        r->intr_ok = dbg_run_opts_runs_on(o);
        if (rs_allstop) {
            rs_allstop = 0;
            rt_broadcast();
        }
    } else {
        ret = r->raised;
        r->raised = 0;
        if (ret && st->kind == EXEC_STOP_INTERRUPT) {
            /* our interrupt, not the user's: park as long as needed, then run on */
            r->state = RS_PARK;
            rt_broadcast();
            while (rs_nquiesce || rs_exiting) {
                if (rs_exiting)
                    rs_park_forever(r);
                rt_wait(&rt_cv);
            }
        } else {
            /* a stop the user sees (or the end): all-stop until the kernel runs again */
            r->state = RS_STOP;
            if (st->kind != EXEC_STOP_DONE)
                rs_allstop = 1;
            rt_broadcast();
        }
    }
    rt_unlock();
    return ret;
}

/* ---- abandoning work ------------------------------------------------------------------------ */
void rt_sched_exit(void)
{
    rs_exiting = 1;
    for (;;) {
        rs_intr_update();
        rs_raise(1);
        if (!rs_busy())
            break;
        rt_wait(&rt_cv);
    }
}

int rt_sched_exiting(void)
{
    return rs_exiting;
}

void rt_sched_forked(void)
{
    rs_list = NULL;
    memset(rs_owner, 0, sizeof rs_owner);
    rs_dbg_owner = NULL;
    rs_solo_owner = NULL;
    rs_nquiesce = 0;
    rs_quiescing = 0;
    rs_allstop = 0;
    rs_sigint_owner = NULL;
    atomic_store(&rs_inflight, 0);
    rs_watchdog_on = 0;
    rs_intr_set(0);
}
