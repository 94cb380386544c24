/* rt_stream.c - streams, events, the rt_submit seam, host callbacks and synchronisation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "rt.h"

/* The legacy default stream, every thread's per-thread default stream, created streams. */
static rt_stream rt_legacy = { .magic = RT_STREAM_MAGIC };
static _Thread_local rt_stream rt_ptds_stream;
static rt_stream *rt_streams;
static rt_event *rt_events;
static uint64_t rt_stream_ids = 2;   /* 0 legacy, 1 per-thread ones (cudaStreamGetId) */

rt_stream *rt_stream_get(cudaStream_t h, int ptds)
{
    if ((!h && ptds) || h == RT_STREAM_PER_THREAD) {
        if (!rt_ptds_stream.magic) {
            rt_ptds_stream.magic = RT_STREAM_MAGIC;
            rt_ptds_stream.id = 1;
        }
        return &rt_ptds_stream;
    }
    if (!h || h == RT_STREAM_LEGACY)
        return &rt_legacy;
    for (rt_stream *s = rt_streams; s; s = s->next)
        if (s == h)
            return s;
    return NULL;
}

int rt_streams_each(int (*fn)(rt_stream *s, void *ctx), void *ctx)
{
    int r = fn(&rt_legacy, ctx);
    if (!r && rt_ptds_stream.magic)
        r = fn(&rt_ptds_stream, ctx);
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
    return s == &rt_legacy ? NULL : s == &rt_ptds_stream ? RT_STREAM_PER_THREAD : s;
}

void rt_flush_output(void)
{
    fflush(stdout);
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

cudaError_t rt_op_run(rt_stream *s, const rt_op *op)
{
    switch (op->kind) {
    case RT_OP_KERNEL: {
        rt_launch_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.k = op->u.kernel.k;
        ctx.grid = op->u.kernel.grid;
        ctx.block = op->u.kernel.block;
        ctx.shmem = op->u.kernel.shmem;
        ctx.cluster = op->u.kernel.cluster;
        ctx.cooperative = op->u.kernel.cooperative;
        ctx.stream = s;
        ctx.params = op->u.kernel.params;
        ctx.nparams = op->u.kernel.nparams;
        return rt_launch_run(&ctx);
    }
    case RT_OP_COPY:
        return rt_copy_run(op);
    case RT_OP_SET:
        return rt_set_run(op);
    case RT_OP_HOST_FN:
        if (op->u.host.fn)
            op->u.host.fn(op->u.host.user);
        else if (op->u.host.cb)
            op->u.host.cb(rt_stream_handle(s), rt_sticky(), op->u.host.user);
        return cudaSuccess;
    case RT_OP_EVENT_RECORD: {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        op->u.event.ev->recorded = 1;
        op->u.event.ev->ms = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
        return cudaSuccess;
    }
    case RT_OP_EVENT_WAIT:
        return cudaSuccess;   /* everything submitted before has completed */
    case RT_OP_MEM_ALLOC:
    case RT_OP_MEM_FREE:
        return rt_mem_op_run(op);
    }
    return cudaErrorInvalidValue;
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
    return rt_op_run(s, op);
}

cudaError_t rt_submit_sync(cudaStream_t h, int ptds, const rt_op *op, int sync)
{
    cudaError_t e = sync ? rt_sync() : cudaSuccess;
    if (e == cudaSuccess)
        e = rt_submit(h, ptds, op);
    if (sync)
        rt_flush_output();
    return e;
}

int rt_op_clone(rt_op *dst, const rt_op *src)
{
    *dst = *src;
    if (src->kind == RT_OP_KERNEL) {
        dst->u.kernel.params = NULL;
        dst->u.kernel.params_owned = 0;
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
    rt_stream *s = calloc(1, sizeof *s);
    if (!s)
        return cudaErrorMemoryAllocation;
    s->magic = RT_STREAM_MAGIC;
    s->flags = flags;
    s->priority = priority > 0 ? 0 : priority < -5 ? -5 : priority;  /* the device's range */
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
    s->magic = 0;
    free(s);
    return RT_END(cudaSuccess);
}

static cudaError_t rt_stream_sync(cudaStream_t stream, int ptds)
{
    rt_stream *s = rt_stream_get(stream, ptds);
    if (!s)
        return cudaErrorInvalidResourceHandle;
    cudaError_t e = rt_capture_sync_stream(s);   /* a capturing stream (rt_capture.c) */
    return e != cudaSuccess ? e : rt_sync();
}

RT_ENTRY_CTX(cudaError_t cudaStreamSynchronize(cudaStream_t stream), rt_stream_sync(stream, 0))

RT_ENTRY_CTX(cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream), rt_stream_sync(stream, 1))

RT_ENTRY_CTX(cudaError_t cudaStreamQuery(cudaStream_t stream), rt_stream_sync(stream, 0))

RT_ENTRY_CTX(cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream), rt_stream_sync(stream, 1))

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
    e->next = rt_events;
    rt_events = e;
    *out = e;
    return cudaSuccess;
}

RT_ENTRY_CTX(cudaError_t cudaEventCreate(cudaEvent_t *event), rt_event_new(event, 0))

RT_ENTRY_CTX(cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags),
             rt_event_new(event, flags))

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
    e->magic = 0;
    free(e);
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

static cudaError_t rt_event_sync(cudaEvent_t event)
{
    rt_event *ev = rt_event_get(event);
    if (!ev)
        return cudaErrorInvalidResourceHandle;
    cudaError_t e = rt_capture_sync_event(ev);   /* recorded in a capture (rt_capture.c) */
    return e != cudaSuccess ? e : rt_sync();
}

RT_ENTRY_CTX(cudaError_t cudaEventSynchronize(cudaEvent_t event), rt_event_sync(event))

RT_ENTRY_CTX(cudaError_t cudaEventQuery(cudaEvent_t event), rt_event_sync(event))

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    RT_BEGIN_CTX();
    rt_event *a = rt_event_get(start), *b = rt_event_get(end);
    if (!ms)
        return RT_END(cudaErrorInvalidValue);
    if (!a || !b || (a->flags | b->flags) & cudaEventDisableTiming)
        return RT_END(cudaErrorInvalidResourceHandle);
    if (!a->recorded || !b->recorded)
        return RT_END(cudaErrorInvalidResourceHandle);
    *ms = (float)(b->ms - a->ms);
    return RT_END(cudaSuccess);
}

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

cudaError_t cudaDeviceReset(void)
{
    RT_BEGIN();
    rt_flush_output();
    uint64_t b;
    while (rt_alloc_each(rt_reset_one, &b))
        rt_alloc_free((void *)(uintptr_t)b, ~0u);
    while (rt_streams) {
        rt_stream *s = rt_streams;
        rt_streams = s->next;
        s->magic = 0;
        free(s);
    }
    while (rt_events) {
        rt_event *e = rt_events;
        rt_events = e->next;
        e->magic = 0;
        free(e);
    }
    rt_errors_reset();
    return RT_END(cudaSuccess);
}

cudaError_t cudaThreadExit(void)
{
    return cudaDeviceReset();
}
