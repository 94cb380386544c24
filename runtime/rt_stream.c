/* rt_stream.c - streams, events, the rt_submit seam, host callbacks and synchronisation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rt_graph.h"
#include "dbg.h"

/* Created streams (the legacy and per-thread default streams live in rt_queue.c), events. */
static rt_stream *rt_streams;
static rt_event *rt_events;
static uint64_t rt_stream_ids = 2;   /* 0 legacy, 1 per-thread ones (cudaStreamGetId) */


rt_stream *rt_stream_get(cudaStream_t h, int ptds)
{
    if ((!h && ptds) || h == RT_STREAM_PER_THREAD)
        return rt_ptds_stream();
    if (!h || h == RT_STREAM_LEGACY)
        return rt_legacy_stream();
    for (rt_stream *s = rt_streams; s; s = s->next)
        if (s == h)
            return s;
    return NULL;
}

int rt_streams_each(int (*fn)(rt_stream *s, void *ctx), void *ctx)
{
    int r = fn(rt_legacy_stream(), ctx);
    rt_stream *p = rt_ptds_current();
    if (!r && p)
        r = fn(p, ctx);
    for (rt_stream *s = rt_streams; s && !r; s = s->next)
        r = fn(s, ctx);
    return r;
}

rt_event *rt_event_get(cudaEvent_t h)
{
    for (rt_event *e = rt_events; e; e = e->next)
        if (e == h)
            return e;
    return NULL;
}

/* The handle programs know a stream by (host callbacks receive it). */
static cudaStream_t rt_stream_handle(rt_stream *s)
{
    return s->kind == RT_SK_LEGACY ? NULL : s->kind == RT_SK_PTDS ? RT_STREAM_PER_THREAD : s;
}

/* ---- the submission seam --------------------------------------------------------------------- */
__attribute__((weak)) cudaError_t rt_capture_op(rt_stream *s, const rt_op *op)
{
    (void)s, (void)op;
    return cudaErrorStreamCaptureUnsupported;
}

__attribute__((weak)) int rt_capture_joins(rt_stream *s, const rt_op *op)
{
    (void)s, (void)op;
    return 0;
}

cudaError_t rt_mem_op_run(const rt_op *op);   /* rt_pool.c */

/* Host stack frames a launch keeps for its launch site. */
#define RT_LAUNCH_PCS 8

/* Copies and memsets at least this large move their bytes with the lock released. */
#define RT_BIG_MOVE (256u << 10)

static uint64_t rt_op_bytes(const rt_op *op)
{
    if (op->kind == RT_OP_COPY)
        return op->u.copy.width * op->u.copy.height * op->u.copy.depth;
    return (uint64_t)op->u.set.width * op->u.set.elem_size * op->u.set.height * op->u.set.depth;
}

/* The launch a kernel op describes, on stream s. */
static void op_launch_ctx(rt_stream *s, const rt_op *op, rt_launch_ctx *ctx)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->k = op->u.kernel.k;
    ctx->grid = op->u.kernel.grid;
    ctx->block = op->u.kernel.block;
    ctx->shmem = op->u.kernel.shmem;
    ctx->cluster = op->u.kernel.cluster;
    ctx->cooperative = op->u.kernel.cooperative;
    ctx->stream = s;
    ctx->params = op->u.kernel.params;
    ctx->nparams = op->u.kernel.nparams;
}

cudaError_t rt_op_run(rt_stream *s, const rt_op *op)
{
    switch (op->kind) {
    case RT_OP_KERNEL: {
        rt_launch_ctx ctx;
        op_launch_ctx(s, op, &ctx);
        ctx.host_pcs = op->u.kernel.host_pcs;
        ctx.nhost_pcs = op->u.kernel.nhost_pcs;
        rt_launch_exec(&ctx);
        return cudaSuccess;
    }
    case RT_OP_COPY:
    case RT_OP_SET: {
        uint8_t *d, *src = NULL;
        cudaError_t e = op->kind == RT_OP_COPY ? rt_copy_prep(op, &d, &src) : rt_set_prep(op, &d);
        if (e != cudaSuccess || !d)
            return e;
        int big = rt_op_bytes(op) >= RT_BIG_MOVE, depth = big ? rt_suspend() : 0;
        if (op->kind == RT_OP_COPY)
            rt_copy_move(op, d, src);
        else
            rt_set_move(op, d);
        if (big)
            rt_resume(depth);
        return cudaSuccess;
    }
    case RT_OP_HOST_FN: {
        cudaStream_t h = rt_stream_handle(s);
        cudaError_t st = rt_sticky();
        int depth = rt_suspend();
        if (op->u.host.fn)
            op->u.host.fn(op->u.host.user);
        else if (op->u.host.cb)
            op->u.host.cb(h, st, op->u.host.user);
        rt_resume(depth);
        return cudaSuccess;
    }
    case RT_OP_EVENT_RECORD:
    case RT_OP_EVENT_WAIT:
        return cudaSuccess;   /* rt_queue.c times records; waits were dependencies */
    case RT_OP_MEM_ALLOC:
    case RT_OP_MEM_FREE:
        return rt_mem_op_run(op);
    }
    return cudaErrorInvalidValue;
}

/* A free of stream-ordered memory: what it frees must be an allocation made by cudaMalloc or
 * cudaMallocAsync, at its start (graph memory is only bookkept). */
static cudaError_t rt_free_check(const rt_op *op)
{
    void *p = (void *)(uintptr_t)op->u.mem.addr;
    if (!p)
        return cudaSuccess;
    const rt_alloc *a = rt_alloc_find(p, 0);
    if (!a || a->base != op->u.mem.addr ||
        (a->kind != RT_MEM_ASYNC && a->kind != RT_MEM_DEVICE))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

cudaError_t rt_op_check(rt_stream *s, const rt_op *op)
{
    uint8_t *d, *src;
    switch (op->kind) {
    case RT_OP_KERNEL: {
        rt_launch_ctx ctx;
        op_launch_ctx(s, op, &ctx);
        return rt_launch_check(&ctx);
    }
    case RT_OP_COPY:
        return rt_copy_prep(op, &d, &src);
    case RT_OP_SET:
        return rt_set_prep(op, &d);
    case RT_OP_MEM_FREE:
        return rt_free_check(op);
    default:
        return cudaSuccess;
    }
}

cudaError_t rt_submit(cudaStream_t h, int ptds, const rt_op *op)
{
    rt_stream *s = rt_stream_get(h, ptds);
    if (!s)
        return cudaErrorInvalidResourceHandle;
    if (s->capture || (op->kind == RT_OP_EVENT_WAIT && rt_capture_joins(s, op)))
        return rt_capture_op(s, op);
    cudaError_t ce = rt_capture_legacy(s);   /* the legacy stream while streams capture */
    if (ce != cudaSuccess)
        return ce;
    if (rt_faulted())
        return cudaSuccess;   /* a faulted context runs nothing more (rt_sync reports it) */
    if (rt_sched_exiting())
        return cudaErrorCudartUnloading;
    /* stream-ordered allocation takes effect at once (the caller gets the pointer); graph
     * memory nodes only keep books, so their frees do too */
    if (op->kind == RT_OP_MEM_ALLOC ||
        (op->kind == RT_OP_MEM_FREE &&
         (op->u.mem.graph || rt_gmem_find((void *)(uintptr_t)op->u.mem.addr))))
        return rt_mem_op_run(op);
    cudaError_t e;
    if ((op->kind == RT_OP_COPY || op->kind == RT_OP_SET) &&
        rt_queue_direct(s, op, rt_op_bytes(op), &e))
        return e;                          /* a small copy on an idle stream: done now */
    e = rt_op_check(s, op);
    if (e != cudaSuccess)
        return e;
    if (op->kind == RT_OP_KERNEL) {
        /* the kernel runs on the stream's thread: its launch site is this thread's stack
           (the frames past nvcc's launch glue that name it: unwinding costs per frame) */
        rt_op k = *op;
        uint64_t pcs[RT_LAUNCH_PCS];
        k.u.kernel.nhost_pcs = dbg_host_stack(pcs, RT_LAUNCH_PCS, NULL);
        k.u.kernel.host_pcs = k.u.kernel.nhost_pcs > 0 ? pcs : NULL;
        return rt_queue_op(s, &k, NULL);
    }
    return rt_queue_op(s, op, NULL);
}

/* Whether CUDA's synchronous variant of op returns only once it completed ("API
 * synchronization behavior"): copies do, except device to device ones; a memset does when its
 * target is pinned host memory or a Unified Memory region; anything touching managed memory
 * does (the host reads it directly). */
static enum cudaMemoryType rt_kind_at(uint64_t p)
{
    return rt_mem_type((const void *)(uintptr_t)p, 0);
}

static int rt_sync_waits(const rt_op *op)
{
    if (op->kind == RT_OP_COPY) {
        enum cudaMemoryType d = rt_kind_at(op->u.copy.dst), s = rt_kind_at(op->u.copy.src);
        if (d == cudaMemoryTypeManaged || s == cudaMemoryTypeManaged)
            return 1;
        if (op->u.copy.dir == cudaMemcpyDefault)
            return !(d == cudaMemoryTypeDevice && s == cudaMemoryTypeDevice);
        return op->u.copy.dir != cudaMemcpyDeviceToDevice;
    }
    if (op->kind == RT_OP_SET) {
        const rt_alloc *a = rt_alloc_find((void *)(uintptr_t)op->u.set.dst, 0);
        return a && (a->kind == RT_MEM_HOST || a->kind == RT_MEM_REGISTERED ||
                     a->kind == RT_MEM_MANAGED);
    }
    return 1;
}

cudaError_t rt_submit_sync(cudaStream_t h, int ptds, const rt_op *op, int sync)
{
    if (!sync)
        return rt_submit(h, ptds, op);
    cudaError_t e = rt_fault_check();
    if (e != cudaSuccess)
        return e;
    rt_stream *s = rt_stream_get(h, ptds);
    if (!s)
        return cudaErrorInvalidResourceHandle;
    if (s->capture || !rt_sync_waits(op)) {
        e = rt_submit(h, ptds, op);
    } else {
        e = rt_capture_legacy(s);   /* the legacy stream while streams capture */
        if (e != cudaSuccess)
            return e;
        if (rt_sched_exiting())
            return cudaErrorCudartUnloading;
        rt_qop *q = NULL;
        if (!rt_queue_direct(s, op, rt_op_bytes(op), &e)) {
            e = rt_op_check(s, op);
            if (e == cudaSuccess)
                e = rt_queue_op(s, op, &q);
            if (e == cudaSuccess && q)
                e = rt_qop_wait(q);
        }
        cudaError_t f = rt_fault_check();
        if (f != cudaSuccess)
            e = f;
    }
    rt_flush_output();
    return e;
}


int rt_op_clone(rt_op *dst, const rt_op *src)
{
    *dst = *src;
    if (src->kind == RT_OP_KERNEL) {
        dst->u.kernel.params = NULL;
        dst->u.kernel.params_owned = 0;
        dst->u.kernel.host_pcs = NULL;   /* (a queued op keeps its own: rt_queue_op) */
        dst->u.kernel.nhost_pcs = 0;
        if (src->u.kernel.nparams) {
            uint8_t *p = malloc((size_t)src->u.kernel.nparams);
            if (!p)
                return -1;
            memcpy(p, src->u.kernel.params, (size_t)src->u.kernel.nparams);
            dst->u.kernel.params = p;
            dst->u.kernel.params_owned = 1;
        }
    }
    return 0;
}

void rt_op_release(rt_op *op)
{
    if (op->kind == RT_OP_KERNEL && op->u.kernel.params_owned) {
        free((void *)op->u.kernel.params);
        op->u.kernel.params = NULL;
        op->u.kernel.params_owned = 0;
    }
}

/* ---- streams --------------------------------------------------------------------------------- */
static cudaError_t rt_stream_new(cudaStream_t *out, unsigned flags, int priority)
{
    if (!out || flags & ~(unsigned)cudaStreamNonBlocking)
        return cudaErrorInvalidValue;
    /* the device's range */
    rt_stream *s = rt_stream_make(flags, priority > 0 ? 0 : priority < -5 ? -5 : priority,
                                  RT_SK_CREATED);
    if (!s)
        return cudaErrorMemoryAllocation;
    s->id = ++rt_stream_ids;
    s->next = rt_streams;
    rt_streams = s;
    *out = s;
    return cudaSuccess;
}

RT_ENTRY_CTX(cudaError_t cudaStreamCreate(cudaStream_t *pStream), rt_stream_new(pStream, 0, 0))

RT_ENTRY_CTX(cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags),
             rt_stream_new(pStream, flags, 0))

RT_ENTRY_CTX(cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags,
                                                      int priority),
             rt_stream_new(pStream, flags, priority))

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    RT_BEGIN();
    if (leastPriority)
        *leastPriority = 0;
    if (greatestPriority)
        *greatestPriority = -5;
    return RT_END(cudaSuccess);
}

/* Work already submitted still runs (the stream is freed after it), as CUDA documents. */
cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    RT_BEGIN();
    rt_stream **pp = &rt_streams;
    while (*pp && *pp != stream)
        pp = &(*pp)->next;
    if (!*pp)
        return RT_END(cudaErrorInvalidResourceHandle);
    rt_stream *s = *pp;
    *pp = s->next;
    rt_stream_destroy(s);
    return RT_END(cudaSuccess);
}

/* Synchronize: wait for the stream's work (the legacy stream's: with the blocking streams'),
 * then report a fault. Query: the same without waiting, cudaErrorNotReady while work is
 * pending (not an error: not recorded as the last error). */
static cudaError_t rt_stream_sync(cudaStream_t stream, int ptds, int query)
{
    rt_stream *s = rt_stream_get(stream, ptds);
    if (!s)
        return cudaErrorInvalidResourceHandle;
    cudaError_t e = rt_capture_sync_stream(s);   /* a capturing stream (rt_capture.c) */
    if (e != cudaSuccess)
        return e;
    if (!query)
        rt_wait_stream(s);
    e = rt_fault_check();
    if (e == cudaSuccess && query && !rt_stream_idle(s))
        return cudaErrorNotReady;
    return e;
}

/* An entry whose cudaErrorNotReady is an answer, not an error. */
#define RT_QUERY(decl, call)                                                           \
    decl                                                                               \
    {                                                                                  \
        RT_BEGIN_CTX();                                                                \
        cudaError_t e_ = (call);                                                       \
        rt_unlock();                                                                   \
        return e_ == cudaErrorNotReady ? e_ : rt_error(e_);                            \
    }

RT_ENTRY_CTX(cudaError_t cudaStreamSynchronize(cudaStream_t stream),
             rt_stream_sync(stream, 0, 0))

RT_ENTRY_CTX(cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream),
             rt_stream_sync(stream, 1, 0))

RT_QUERY(cudaError_t cudaStreamQuery(cudaStream_t stream), rt_stream_sync(stream, 0, 1))

RT_QUERY(cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream), rt_stream_sync(stream, 1, 1))

static cudaError_t rt_stream_flags(cudaStream_t h, int ptds, unsigned *flags, int *prio,
                                   unsigned long long *id)
{
    rt_stream *s = rt_stream_get(h, ptds);
    if (!s)
        return cudaErrorInvalidResourceHandle;
    if (flags)
        *flags = s->flags;
    if (prio)
        *prio = s->priority;
    if (id)
        *id = s->id;
    return cudaSuccess;
}

RT_ENTRY(cudaError_t cudaStreamGetFlags(cudaStream_t h, unsigned int *flags),
         flags ? rt_stream_flags(h, 0, flags, NULL, NULL) : cudaErrorInvalidValue)

RT_ENTRY(cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t h, unsigned int *flags),
         flags ? rt_stream_flags(h, 1, flags, NULL, NULL) : cudaErrorInvalidValue)

RT_ENTRY(cudaError_t cudaStreamGetPriority(cudaStream_t h, int *priority),
         priority ? rt_stream_flags(h, 0, NULL, priority, NULL) : cudaErrorInvalidValue)

RT_ENTRY(cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t h, int *priority),
         priority ? rt_stream_flags(h, 1, NULL, priority, NULL) : cudaErrorInvalidValue)

RT_ENTRY(cudaError_t cudaStreamGetId(cudaStream_t h, unsigned long long *id),
         id ? rt_stream_flags(h, 0, NULL, NULL, id) : cudaErrorInvalidValue)

RT_ENTRY(cudaError_t cudaStreamGetId_ptsz(cudaStream_t h, unsigned long long *id),
         id ? rt_stream_flags(h, 1, NULL, NULL, id) : cudaErrorInvalidValue)

cudaError_t cudaStreamGetDevice(cudaStream_t h, int *device)
{
    RT_BEGIN();
    if (!device)
        return RT_END(cudaErrorInvalidValue);
    *device = 0;
    return RT_END(rt_stream_get(h, 0) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t h, int *device)
{
    RT_BEGIN();
    if (!device)
        return RT_END(cudaErrorInvalidValue);
    *device = 0;
    return RT_END(rt_stream_get(h, 1) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

/* Stream attributes: kept as given (the scheduling and cache hints have no effect here);
 * priority reads and writes the stream's priority. */
static cudaError_t rt_stream_attr(cudaStream_t h, int ptds, int id, cudaLaunchAttributeValue *v,
                                  int set)
{
    rt_stream *s = rt_stream_get(h, ptds);
    if (!s)
        return cudaErrorInvalidResourceHandle;
    if (!v || id <= 0 || id >= RT_STREAM_NATTR)
        return cudaErrorInvalidValue;
    if (set) {
        s->attr[id] = *v;
        if (id == cudaLaunchAttributePriority)
            s->priority = v->priority > 0 ? 0 : v->priority < -5 ? -5 : v->priority;
    } else {
        *v = s->attr[id];
        if (id == cudaLaunchAttributePriority)
            v->priority = s->priority;
    }
    return cudaSuccess;
}

RT_ENTRY(cudaError_t cudaStreamGetAttribute(cudaStream_t h, cudaLaunchAttributeID attr,
                                            cudaLaunchAttributeValue *value_out),
         rt_stream_attr(h, 0, attr, value_out, 0))

RT_ENTRY(cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t h, cudaLaunchAttributeID attr,
                                                 cudaLaunchAttributeValue *value_out),
         rt_stream_attr(h, 1, attr, value_out, 0))

RT_ENTRY(cudaError_t cudaStreamSetAttribute(cudaStream_t h, cudaLaunchAttributeID attr,
                                            const cudaLaunchAttributeValue *value),
         rt_stream_attr(h, 0, attr, (cudaLaunchAttributeValue *)value, 1))

RT_ENTRY(cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t h, cudaLaunchAttributeID attr,
                                                 const cudaLaunchAttributeValue *value),
         rt_stream_attr(h, 1, attr, (cudaLaunchAttributeValue *)value, 1))

static cudaError_t rt_stream_copy_attrs(cudaStream_t dst, cudaStream_t src, int ptds)
{
    rt_stream *d = rt_stream_get(dst, ptds), *s = rt_stream_get(src, ptds);
    if (!d || !s)
        return cudaErrorInvalidResourceHandle;
    memcpy(d->attr, s->attr, sizeof d->attr);
    d->priority = s->priority;
    return cudaSuccess;
}

RT_ENTRY(cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src),
         rt_stream_copy_attrs(dst, src, 0))

RT_ENTRY(cudaError_t cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src),
         rt_stream_copy_attrs(dst, src, 1))

static cudaError_t rt_wait_event(cudaStream_t h, int ptds, cudaEvent_t event, unsigned flags)
{
    rt_event *ev = rt_event_get(event);
    if (!ev)
        return cudaErrorInvalidResourceHandle;
    if (flags & ~(unsigned)cudaEventWaitExternal)
        return cudaErrorInvalidValue;
    rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = RT_OP_EVENT_WAIT;
    op.u.event.ev = ev;
    op.u.event.flags = flags;
    return rt_submit(h, ptds, &op);
}

RT_ENTRY_CTX(cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                             unsigned int flags),
             rt_wait_event(stream, 0, event, flags))

RT_ENTRY_CTX(cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
                                                  unsigned int flags),
             rt_wait_event(stream, 1, event, flags))

static cudaError_t rt_host_fn(cudaStream_t h, int ptds, cudaHostFn_t fn, cudaStreamCallback_t cb,
                              void *user)
{
    if (!fn && !cb)
        return cudaErrorInvalidValue;
    rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = RT_OP_HOST_FN;
    op.u.host.fn = fn;
    op.u.host.cb = cb;
    op.u.host.user = user;
    return rt_submit(h, ptds, &op);
}

RT_ENTRY_CTX(cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData),
             rt_host_fn(stream, 0, fn, NULL, userData))

RT_ENTRY_CTX(cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn,
                                                 void *userData),
             rt_host_fn(stream, 1, fn, NULL, userData))

RT_ENTRY_CTX(cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t cb,
                                               void *userData, unsigned int flags),
             flags ? cudaErrorInvalidValue : rt_host_fn(stream, 0, NULL, cb, userData))

RT_ENTRY_CTX(cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t cb,
                                                    void *userData, unsigned int flags),
             flags ? cudaErrorInvalidValue : rt_host_fn(stream, 1, NULL, cb, userData))

/* ---- events (elapsed times come from CLOCK_MONOTONIC at the moment each record executes) ---- */
static cudaError_t rt_event_new(cudaEvent_t *out, unsigned flags)
{
    if (!out || flags & ~0x7u)
        return cudaErrorInvalidValue;
    rt_event *e = calloc(1, sizeof *e);
    if (!e)
        return cudaErrorMemoryAllocation;
    e->magic = RT_EVENT_MAGIC;
    e->flags = flags;
    e->refs = 1;
    e->next = rt_events;
    rt_events = e;
    *out = e;
    return cudaSuccess;
}

RT_ENTRY_CTX(cudaError_t cudaEventCreate(cudaEvent_t *event), rt_event_new(event, 0))

RT_ENTRY_CTX(cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags),
             rt_event_new(event, flags))

/* A record still to run keeps the event until it has (rt_queue.c). */
cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    RT_BEGIN();
    rt_event **pp = &rt_events;
    while (*pp && *pp != event)
        pp = &(*pp)->next;
    if (!*pp)
        return RT_END(cudaErrorInvalidResourceHandle);
    rt_event *e = *pp;
    *pp = e->next;
    rt_event_destroy(e);
    return RT_END(cudaSuccess);
}

static cudaError_t rt_record(cudaEvent_t event, cudaStream_t h, int ptds, unsigned flags)
{
    rt_event *ev = rt_event_get(event);
    if (!ev)
        return cudaErrorInvalidResourceHandle;
    if (flags & ~(unsigned)cudaEventRecordExternal)
        return cudaErrorInvalidValue;
    rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = RT_OP_EVENT_RECORD;
    op.u.event.ev = ev;
    op.u.event.flags = flags;
    return rt_submit(h, ptds, &op);
}

RT_ENTRY_CTX(cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream),
             rt_record(event, stream, 0, 0))

RT_ENTRY_CTX(cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream),
             rt_record(event, stream, 1, 0))

RT_ENTRY_CTX(cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                                  unsigned int flags),
             rt_record(event, stream, 0, flags))

RT_ENTRY_CTX(cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream,
                                                       unsigned int flags),
             rt_record(event, stream, 1, flags))

/* Synchronize waits for the event's last record (none: at once); query says
 * cudaErrorNotReady while it is pending. Either reports a fault; an event recorded in a
 * capture is refused (rt_capture.c). */
static cudaError_t rt_event_sync(cudaEvent_t event, int query)
{
    rt_event *e = rt_event_get(event);
    if (!e)
        return cudaErrorInvalidResourceHandle;
    cudaError_t f = rt_capture_sync_event(e);
    if (f != cudaSuccess)
        return f;
    int done = rt_event_done(e, !query, NULL);
    f = rt_fault_check();
    if (f != cudaSuccess)
        return f;
    return done == 0 ? cudaErrorNotReady : cudaSuccess;
}

RT_ENTRY_CTX(cudaError_t cudaEventSynchronize(cudaEvent_t event), rt_event_sync(event, 0))

RT_QUERY(cudaError_t cudaEventQuery(cudaEvent_t event), rt_event_sync(event, 1))

/* Both events recorded (else cudaErrorInvalidResourceHandle) and their records completed
 * (else cudaErrorNotReady); times are CLOCK_MONOTONIC when each record ran. */
static cudaError_t rt_elapsed(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    rt_event *a = rt_event_get(start), *b = rt_event_get(end);
    if (!ms)
        return cudaErrorInvalidValue;
    if (!a || !b || (a->flags | b->flags) & cudaEventDisableTiming)
        return cudaErrorInvalidResourceHandle;
    double ta, tb;
    int da = rt_event_done(a, 0, &ta), db = rt_event_done(b, 0, &tb);
    if (da < 0 || db < 0)
        return cudaErrorInvalidResourceHandle;
    if (!da || !db)
        return cudaErrorNotReady;
    *ms = (float)(tb - ta);
    return cudaSuccess;
}

RT_ENTRY_CTX(cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end),
             rt_elapsed(ms, start, end))

/* ---- device-wide synchronisation ------------------------------------------------------------- */
static cudaError_t rt_device_sync(void)
{
    cudaError_t e = rt_capture_sync_device();   /* while streams capture (rt_capture.c) */
    return e != cudaSuccess ? e : rt_sync();
}

RT_ENTRY_CTX(cudaError_t cudaDeviceSynchronize(void), rt_device_sync())

cudaError_t cudaThreadSynchronize(void)
{
    return cudaDeviceSynchronize();
}

static int rt_reset_one(const rt_alloc *a, void *ctx)
{
    *(uint64_t *)ctx = a->base;
    return a->mem || a->kind == RT_MEM_REGISTERED;   /* not the aliases of module variables */
}

/* The work submitted completes first (its device output included), then every allocation,
 * stream and event goes and the errors are cleared. */
cudaError_t cudaDeviceReset(void)
{
    RT_BEGIN();
    rt_wait_all();
    rt_flush_output();
    uint64_t b;
    while (rt_alloc_each(rt_reset_one, &b))
        rt_alloc_free((void *)(uintptr_t)b, ~0u);
    while (rt_streams) {
        rt_stream *s = rt_streams;
        rt_streams = s->next;
        rt_stream_destroy(s);
    }
    while (rt_events) {
        rt_event *e = rt_events;
        rt_events = e->next;
        rt_event_destroy(e);
    }
    rt_errors_reset();
    return RT_END(cudaSuccess);
}

cudaError_t cudaThreadExit(void)
{
    return cudaDeviceReset();
}
