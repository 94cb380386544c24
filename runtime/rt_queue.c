/* rt_queue.c - stream work in order: queued operations, their dependencies, stream worker threads, waiting, exit. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"

/* ---------------------------------------------------------------------------------------------
 * Every submitted operation becomes an rt_qop appended to its stream's queue. A stream has one
 * worker thread (started at its first queued operation, kept until the stream goes) that runs
 * the queue in order; an operation also waits for the operations it depends on, each a
 * reference to an earlier rt_qop: the last operation of every blocking stream for work on the
 * legacy default stream, the legacy stream's last operation for work on a blocking stream
 * (created without cudaStreamNonBlocking, or a per-thread default stream), the event's last
 * record for an event wait. Dependencies only point back in submission order, so they never
 * form a cycle. An operation that is not a kernel or a host function, submitted to an idle
 * stream with nothing to wait for, runs at once in the submitting thread (a copy then costs no
 * thread switch). Everything here is under the runtime lock; a kernel, a host function and a
 * large copy run with it released.
 * ------------------------------------------------------------------------------------------- */

enum { Q_QUEUED, Q_RUNNING, Q_DONE };
#define RT_DIRECT_MAX (64u << 10)   /* copies and memsets up to this run without a queue entry */
#define RT_QOP_PCS 16               /* host stack frames a kernel's launch site keeps */
#define Q_POOL_DEPS 8               /* a pooled operation's room for dependencies */
#define Q_POOL_MAX 64               /* finished operations kept for reuse */
#define Q_PARAMS 256                /* kernel parameters kept in the operation itself */

struct rt_qop {
    rt_op op;                     /* owned copy (rt_op_clone) */
    rt_stream *s;
    int state;
    int refs;
    cudaError_t err;              /* the operation's own error */
    double ms;                    /* EVENT_RECORD: when it executed (CLOCK_MONOTONIC, ms) */
    uint64_t pcs[RT_QOP_PCS];     /* KERNEL: the launching thread's host stack (op's host_pcs) */
    rt_qop *next;                 /* in s's queue; in q_pool when pooled */
    int ndeps;
    int cap;                      /* room at deps (Q_POOL_DEPS: it goes back to the pool) */
    _Alignas(16) uint8_t params[Q_PARAMS];   /* KERNEL: its parameters, when they fit */
    rt_qop *deps[];
};

static rt_stream q_legacy = { .magic = RT_STREAM_MAGIC, .kind = RT_SK_LEGACY };
static rt_stream *q_all = &q_legacy;            /* every stream (all_next) */
static _Thread_local rt_stream *q_ptds;         /* this thread's per-thread default stream */
static _Thread_local rt_stream *q_self;         /* the stream whose worker this thread is */
static pthread_key_t q_key;
static pthread_once_t q_key_once = PTHREAD_ONCE_INIT;
static int q_exit_hooked;
static rt_qop *q_pool;                          /* finished operations to reuse (q_new) */
static int q_npool;

rt_stream *rt_legacy_stream(void)
{
    return &q_legacy;
}

/* ---- operations ------------------------------------------------------------------------------ */
/* A zeroed operation with room for n dependencies: a pooled one when n fits (a launch costs
 * no allocation). */
static rt_qop *q_new(int n)
{
    rt_qop *q;
    if (n <= Q_POOL_DEPS && q_pool) {
        q = q_pool;
        q_pool = q->next;
        q_npool--;
        memset(q, 0, offsetof(rt_qop, params));
    } else {
        int cap = n <= Q_POOL_DEPS ? Q_POOL_DEPS : n;
        q = calloc(1, sizeof *q + (size_t)cap * sizeof *q->deps);
        if (!q)
            return NULL;
    }
    q->cap = n <= Q_POOL_DEPS ? Q_POOL_DEPS : n;
    return q;
}

static void q_unref(rt_qop *q)
{
    if (!q || --q->refs > 0)
        return;
    for (int i = 0; i < q->ndeps; i++)
        q_unref(q->deps[i]);
    rt_op_release(&q->op);
    if (q->cap == Q_POOL_DEPS && q_npool < Q_POOL_MAX) {
        q->next = q_pool;
        q_pool = q;
        q_npool++;
        return;
    }
    free(q);
}

static void q_event_unref(rt_event *e)
{
    if (e && --e->refs == 0) {
        q_unref(e->last);
        free(e);
    }
}

static int q_blocking(const rt_stream *t)
{
    return t->kind == RT_SK_PTDS ||
           (t->kind == RT_SK_CREATED && !(t->flags & cudaStreamNonBlocking));
}

static int q_pending(const rt_qop *q)
{
    return q && q->state != Q_DONE;
}

static int q_deps_done(const rt_qop *q)
{
    for (int i = 0; i < q->ndeps; i++)
        if (q->deps[i]->state != Q_DONE)
            return 0;
    return 1;
}

/* Take q out of its stream's queue, completed (or dropped) with err. */
static void q_complete(rt_qop *q, cudaError_t err)
{
    rt_stream *s = q->s;
    q->state = Q_DONE;
    q->err = err;
    rt_qop **pp = &s->head;
    rt_qop *prev = NULL;
    while (*pp && *pp != q) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    if (*pp) {
        *pp = q->next;
        if (s->tail == q)
            s->tail = prev;
    }
    for (int i = 0; i < q->ndeps; i++)
        q_unref(q->deps[i]);
    q->ndeps = 0;
    if (q->op.kind == RT_OP_EVENT_RECORD || q->op.kind == RT_OP_EVENT_WAIT) {
        q_event_unref(q->op.u.event.ev);
        q->op.u.event.ev = NULL;
    }
    rt_broadcast();
    if (s->dying && !s->head && !s->worker) {
        rt_stream **sp = &q_all;
        while (*sp && *sp != s)
            sp = &(*sp)->all_next;
        if (*sp)
            *sp = s->all_next;
        q_unref(s->last);
        free(s);
    }
    q_unref(q);   /* the queue's reference */
}

/* Run q (the head of its stream, its dependencies done) in this thread. */
static void q_run(rt_qop *q)
{
    q->state = Q_RUNNING;
    cudaError_t e = cudaSuccess;
    if (rt_faulted() || rt_sched_exiting()) {
        e = cudaErrorLaunchFailure;        /* dropped: a faulted context runs nothing */
    } else if (q->op.kind == RT_OP_EVENT_RECORD) {
        q->ms = rt_now() * 1e3;
    } else {
        e = rt_op_run(q->s, &q->op);
    }
    rt_unquiesce();   /* a worker holds the lock for good: its quiesce ends with the op */
    q_complete(q, e);
}

static void q_at_exit(void);

/* ---- worker threads -------------------------------------------------------------------------- */
static void *q_worker(void *arg)
{
    rt_stream *s = arg;
    q_self = s;
    rt_lock();
    for (;;) {
        rt_qop *q = s->head;
        if (!q) {
            if (s->dying || rt_sched_exiting())
                break;
            rt_wait(&rt_cv);
            continue;
        }
        if (q->state != Q_QUEUED || !q_deps_done(q) || rt_all_stopped()) {
            rt_wait(&rt_cv);
            continue;
        }
        q_run(q);
    }
    s->worker = 0;
    if (s->dying && !s->head) {
        rt_stream **sp = &q_all;
        while (*sp && *sp != s)
            sp = &(*sp)->all_next;
        if (*sp)
            *sp = s->all_next;
        q_unref(s->last);
        free(s);
    }
    rt_broadcast();
    rt_unlock();
    return NULL;
}

static int q_worker_start(rt_stream *s)
{
    if (s->worker)
        return 0;
    if (!q_exit_hooked) {
        q_exit_hooked = 1;
        atexit(q_at_exit);   /* after the program's first use: before its static destructors */
    }
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&t, &a, q_worker, s);
    pthread_attr_destroy(&a);
    if (rc != 0)
        return -1;
    s->worker = 1;
    return 0;
}

/* ---- submission ------------------------------------------------------------------------------ */
static int q_inline_kind(rt_op_kind k)
{
    return k == RT_OP_COPY || k == RT_OP_SET || k == RT_OP_EVENT_RECORD ||
           k == RT_OP_EVENT_WAIT || k == RT_OP_MEM_FREE;
}

/* Whether an op on s would wait for nothing: the stream is idle and so is whatever the
 * legacy stream's implicit synchronisation makes it wait for. */
static int q_nothing_to_wait(const rt_stream *s)
{
    if (s->head || rt_all_stopped())
        return 0;
    if (s->kind == RT_SK_LEGACY) {
        for (const rt_stream *t = q_all; t; t = t->all_next)
            if (t != s && q_blocking(t) && q_pending(t->last))
                return 0;
        return 1;
    }
    return !q_blocking(s) || !q_pending(q_legacy.last);
}

int rt_queue_direct(rt_stream *s, const rt_op *op, uint64_t bytes, cudaError_t *err)
{
    if ((op->kind != RT_OP_COPY && op->kind != RT_OP_SET) || bytes >= RT_DIRECT_MAX ||
        !q_nothing_to_wait(s))
        return 0;
    /* small: done with the lock held, so no other operation of s can come between */
    *err = rt_op_run(s, op);
    return 1;
}

/* Queue a checked op on s. With out, *out gets a reference to it (to wait for). */
cudaError_t rt_queue_op(rt_stream *s, const rt_op *op, rt_qop **out)
{
    /* what it waits for */
    int n = 0, cap = 8;
    rt_qop *small[8], **deps = small;
    for (int pass = 0; pass < 2; pass++) {
        n = 0;
        if (s->kind == RT_SK_LEGACY) {
            for (rt_stream *t = q_all; t; t = t->all_next)
                if (t != s && q_blocking(t) && q_pending(t->last)) {
                    if (n < cap)
                        deps[n] = t->last;
                    n++;
                }
        } else if (q_blocking(s) && q_pending(q_legacy.last)) {
            if (n < cap)
                deps[n] = q_legacy.last;
            n++;
        }
        if (op->kind == RT_OP_EVENT_WAIT && q_pending(op->u.event.ev->last)) {
            if (n < cap)
                deps[n] = op->u.event.ev->last;
            n++;
        }
        if (n <= cap)
            break;
        cap = n;
        deps = malloc((size_t)cap * sizeof *deps);
        if (!deps)
            return cudaErrorMemoryAllocation;
    }
    rt_qop *q = q_new(n);
    int small_params = op->kind == RT_OP_KERNEL && op->u.kernel.nparams <= Q_PARAMS;
    if (q && small_params) {
        q->op = *op;                       /* parameters kept here, not allocated */
        if (op->u.kernel.nparams)
            memcpy(q->params, op->u.kernel.params, (size_t)op->u.kernel.nparams);
        q->op.u.kernel.params = op->u.kernel.nparams ? q->params : NULL;
        q->op.u.kernel.params_owned = 0;
        q->op.u.kernel.host_pcs = NULL;
        q->op.u.kernel.nhost_pcs = 0;
    }
    if (!q || (!small_params && rt_op_clone(&q->op, op))) {
        free(q);
        if (deps != small)
            free(deps);
        return cudaErrorMemoryAllocation;
    }
    if (op->kind == RT_OP_KERNEL && op->u.kernel.host_pcs && op->u.kernel.nhost_pcs > 0) {
        int np = op->u.kernel.nhost_pcs < RT_QOP_PCS ? op->u.kernel.nhost_pcs : RT_QOP_PCS;
        memcpy(q->pcs, op->u.kernel.host_pcs, (size_t)np * sizeof *q->pcs);
        q->op.u.kernel.host_pcs = q->pcs;
        q->op.u.kernel.nhost_pcs = np;
    }
    for (int i = 0; i < n; i++) {
        q->deps[i] = deps[i];
        deps[i]->refs++;
    }
    if (deps != small)
        free(deps);
    q->ndeps = n;
    q->s = s;
    q->refs = 2;   /* the queue's and s->last's */
    if (s->tail)
        s->tail->next = q;
    else
        s->head = q;
    s->tail = q;
    q_unref(s->last);
    s->last = q;
    if (op->kind == RT_OP_EVENT_RECORD || op->kind == RT_OP_EVENT_WAIT) {
        rt_event *e = op->u.event.ev;
        e->refs++;
        if (op->kind == RT_OP_EVENT_RECORD) {
            q->refs++;
            q_unref(e->last);
            e->last = q;
        }
    }
    if (out) {
        q->refs++;
        *out = q;
    }
    if (s->head == q && q_inline_kind(op->kind) && q_deps_done(q) && !rt_all_stopped()) {
        q_run(q);                          /* nothing to wait for: at once, here */
        return cudaSuccess;
    }
    if (q_worker_start(s) != 0) {
        static int said;
        if (!said++)
            rt_warn("cannot start a stream worker thread: stream work runs synchronously");
        while (q->state != Q_DONE) {       /* run the stream here, in order */
            rt_qop *h = s->head;
            if (h->state == Q_QUEUED && q_deps_done(h) && !rt_all_stopped())
                q_run(h);
            else
                rt_wait(&rt_cv);
        }
        return cudaSuccess;
    }
    rt_broadcast();
    return cudaSuccess;
}

cudaError_t rt_qop_wait(rt_qop *q)
{
    rt_unquiesce();
    while (q->state != Q_DONE && q->s != q_self && !rt_sched_exiting())
        rt_wait(&rt_cv);
    cudaError_t e = q->err;
    q_unref(q);
    return e;
}

/* ---- waiting --------------------------------------------------------------------------------- */
/* Wait for the last operations of the streams `want` selects (never this thread's own stream:
 * a host function that synchronises would wait for itself). */
static void q_wait_set(int (*want)(const rt_stream *t, const rt_stream *s), const rt_stream *s)
{
    rt_unquiesce();
    while (!rt_sched_exiting()) {
        rt_qop *w = NULL;
        for (rt_stream *t = q_all; t && !w; t = t->all_next)
            if (t != q_self && want(t, s) && q_pending(t->last))
                w = t->last;
        if (!w)
            return;
        w->refs++;
        while (w->state != Q_DONE && !rt_sched_exiting())
            rt_wait(&rt_cv);
        q_unref(w);
    }
}

static int q_want_all(const rt_stream *t, const rt_stream *s)
{
    (void)t, (void)s;
    return 1;
}

static int q_want_stream(const rt_stream *t, const rt_stream *s)
{
    return t == s || (s->kind == RT_SK_LEGACY && q_blocking(t));
}

void rt_wait_all(void)
{
    q_wait_set(q_want_all, NULL);
}

void rt_wait_stream(rt_stream *s)
{
    q_wait_set(q_want_stream, s);
}

int rt_stream_idle(rt_stream *s)
{
    for (rt_stream *t = q_all; t; t = t->all_next)
        if (q_want_stream(t, s) && q_pending(t->last))
            return 0;
    return 1;
}

int rt_event_done(rt_event *e, int wait, double *ms)
{
    rt_qop *q = e->last;
    if (!q)
        return -1;
    if (wait && q_pending(q) && q->s != q_self) {
        rt_unquiesce();
        q->refs++;
        while (q->state != Q_DONE && !rt_sched_exiting())
            rt_wait(&rt_cv);
        q_unref(q);
        q = e->last;   /* re-recorded meanwhile: the newest record counts */
    }
    if (ms)
        *ms = q->ms;
    return q->state == Q_DONE;
}

/* ---- streams and events ---------------------------------------------------------------------- */
rt_stream *rt_stream_make(unsigned flags, int priority, int kind)
{
    rt_stream *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->magic = RT_STREAM_MAGIC;
    s->flags = flags;
    s->priority = priority;
    s->kind = kind;
    s->all_next = q_all;
    q_all = s;
    return s;
}

void rt_stream_destroy(rt_stream *s)
{
    s->magic = 0;
    s->dying = 1;
    if (s->head || s->worker) {
        rt_broadcast();          /* its worker frees it once the work is done */
        return;
    }
    rt_stream **sp = &q_all;
    while (*sp && *sp != s)
        sp = &(*sp)->all_next;
    if (*sp)
        *sp = s->all_next;
    q_unref(s->last);
    free(s);
}

static void q_thread_end(void *p)
{
    rt_lock();
    if (q_ptds == p)
        q_ptds = NULL;
    rt_stream_destroy(p);
    rt_unlock();
}

static void q_key_make(void)
{
    pthread_key_create(&q_key, q_thread_end);
}

rt_stream *rt_ptds_stream(void)
{
    if (!q_ptds) {
        rt_stream *s = rt_stream_make(0, 0, RT_SK_PTDS);
        if (!s)
            return NULL;
        s->id = 1;
        pthread_once(&q_key_once, q_key_make);
        pthread_setspecific(q_key, s);
        q_ptds = s;
    }
    return q_ptds;
}

rt_stream *rt_ptds_current(void)
{
    return q_ptds;
}

void rt_event_destroy(rt_event *e)
{
    e->magic = 0;
    q_event_unref(e);
}

/* ---- abandoning work ------------------------------------------------------------------------- */
/* Drop the operations not started (a dying stream may be freed meanwhile). */
static void q_drop_queued(void)
{
    for (rt_stream *s = q_all, *ns; s; s = ns) {
        ns = s->all_next;
        for (rt_qop *q = s->head, *n; q; q = n) {
            n = q->next;
            if (q->state == Q_QUEUED)
                q_complete(q, cudaErrorLaunchFailure);
        }
    }
}

/* A process that exits with work in flight ends it, as a destroyed context does: queued work
 * is dropped, running kernels stop at their next slice boundary and never run again (a kernel
 * stopped in the debugger: once the user resumes it); device output that completed is written
 * out. Later calls (the program's static destructors) find an idle device. */
static void q_at_exit(void)
{
    rt_end_work_at_exit();
}

void rt_end_work_at_exit(void)
{
    rt_lock();
    rt_unquiesce();
    q_drop_queued();
    rt_sched_exit();
    q_drop_queued();
    rt_flush_output();
    rt_unlock();
}

void rt_queue_forked(void)
{
    for (rt_stream *s = q_all, *ns; s; s = ns) {
        ns = s->all_next;
        s->worker = 0;
        for (rt_qop *q = s->head, *n; q; q = n) {
            n = q->next;
            q_complete(q, cudaErrorLaunchFailure);
        }
    }
    rt_sched_forked();
}
