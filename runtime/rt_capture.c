/* rt_capture.c - stream capture: ops submitted to a capturing stream become graph nodes that
 * depend on the stream's previous work; events fork and join other streams into a capture;
 * the calls CUDA forbids while streams capture fail and invalidate the capture. */
#include <stdlib.h>
#include <string.h>
#include "rt_graph.h"

/* One capture sequence, and each stream's part in it (rt_stream.capture points at the part). */
typedef struct capture {
    cudaGraph_t g;
    unsigned long long id;
    int mode;
    int invalid;                     /* an op could not be captured */
    rt_stream *origin;
    pthread_t thread;
    struct capture *next;            /* the active captures (g_caps) */
} capture;

typedef struct {
    capture *c;
    cudaGraphNode_t *tail;           /* what the stream's next op depends on */
    size_t ntail, cap;
} capstream;

/* Events recorded in a capture: the nodes a wait on them depends on. */
typedef struct {
    const rt_event *ev;
    capture *c;
    cudaGraphNode_t *nodes;
    size_t n;
} capevent;

static capture *g_caps;             /* every active capture sequence */
static capevent *g_evs;
static size_t g_nevs, g_capevs;
static unsigned long long g_capture_ids;
static _Thread_local int t_mode = cudaStreamCaptureModeGlobal;

static int set_tail(capstream *cs, const cudaGraphNode_t *nodes, size_t n, int append)
{
    size_t need = (append ? cs->ntail : 0) + n;
    if (need > cs->cap) {
        cudaGraphNode_t *t = realloc(cs->tail, (need + 4) * sizeof *t);
        if (!t) return -1;
        cs->tail = t;
        cs->cap = need + 4;
    }
    if (!append) cs->ntail = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < cs->ntail && cs->tail[k] != nodes[i]) k++;
        if (k == cs->ntail) cs->tail[cs->ntail++] = nodes[i];
    }
    return 0;
}

static capevent *event_entry(const rt_event *ev)
{
    for (size_t i = 0; i < g_nevs; i++)
        if (g_evs[i].ev == ev) return &g_evs[i];
    return NULL;
}

static cudaError_t event_set(const rt_event *ev, capture *c, const cudaGraphNode_t *nodes,
                             size_t n)
{
    capevent *e = event_entry(ev);
    if (!e) {
        if (g_nevs == g_capevs) {
            size_t cap = g_capevs ? 2 * g_capevs : 8;
            capevent *ne = realloc(g_evs, cap * sizeof *ne);
            if (!ne) return cudaErrorMemoryAllocation;
            g_evs = ne;
            g_capevs = cap;
        }
        e = &g_evs[g_nevs++];
        memset(e, 0, sizeof *e);
        e->ev = ev;
    }
    cudaGraphNode_t *copy = malloc((n + 1) * sizeof *copy);
    if (!copy) return cudaErrorMemoryAllocation;
    memcpy(copy, nodes, n * sizeof *copy);
    free(e->nodes);
    e->c = c;
    e->nodes = copy;
    e->n = n;
    return cudaSuccess;
}

int rt_capture_joins(rt_stream *s, const rt_op *op)
{
    capevent *e = event_entry(op->u.event.ev);
    if (!e || !e->c || s->capture) return 0;
    capstream *cs = calloc(1, sizeof *cs);
    if (!cs) return 0;
    cs->c = e->c;
    s->capture = cs;
    s->capture_mode = e->c->mode;
    return 1;
}

cudaError_t rt_capture_op(rt_stream *s, const rt_op *op)
{
    capstream *cs = s->capture;
    capture *c = cs->c;
    if (c->invalid) return cudaErrorStreamCaptureInvalidated;
    switch (op->kind) {
    case RT_OP_EVENT_RECORD:
        return event_set(op->u.event.ev, c, cs->tail, cs->ntail);
    case RT_OP_EVENT_WAIT: {
        capevent *e = event_entry(op->u.event.ev);
        if (e && e->c == c)
            return set_tail(cs, e->nodes, e->n, 1) ? cudaErrorMemoryAllocation : cudaSuccess;
        if (op->u.event.flags & cudaEventWaitExternal)
            return cudaSuccess;    /* an external wait: on work outside the graph, complete */
        /* a wait on an event of another capture (two graphs would merge) or on one recorded
           outside any capture, without cudaEventWaitExternal: a dependency across the
           capture's boundary, which CUDA refuses */
        c->invalid = 1;
        if (e && e->c)
            e->c->invalid = 1;
        return cudaErrorStreamCaptureIsolation;
    }
    default: {
        cudaError_t e;
        int mem = op->kind == RT_OP_MEM_ALLOC || op->kind == RT_OP_MEM_FREE;
        if (mem && op->u.mem.graph) {
            c->invalid = 1;           /* a graph with memory nodes launched into a capture */
            return cudaErrorStreamCaptureUnsupported;
        }
        cudaGraphNode_t n = mem ? rt_graph_capture_mem(c->g, op, cs->tail, cs->ntail, &e)
                                : rt_graph_capture_node(c->g, op, cs->tail, cs->ntail, &e);
        if (!n) {
            c->invalid = 1;
            return e;
        }
        return set_tail(cs, &n, 1, 0) ? cudaErrorMemoryAllocation : cudaSuccess;
    }
    }
}

/* Leave the capture: every stream taking part forgets it, events recorded in it too. */
static void capture_end(capture *c)
{
    for (size_t i = 0; i < g_nevs; i++)
        if (g_evs[i].c == c) {
            free(g_evs[i].nodes);
            g_evs[i] = g_evs[--g_nevs];
            i--;
        }
}

static cudaError_t begin_capture(cudaStream_t stream, int ptds, enum cudaStreamCaptureMode mode)
{
    rt_stream *s = rt_stream_get(stream, ptds);
    if (!s) return cudaErrorInvalidResourceHandle;
    if ((unsigned)mode > cudaStreamCaptureModeRelaxed) return cudaErrorInvalidValue;
    if (!stream && !ptds) return cudaErrorStreamCaptureUnsupported;  /* the legacy stream */
    if (stream == RT_STREAM_LEGACY) return cudaErrorStreamCaptureUnsupported;
    if (s->capture) return cudaErrorIllegalState;
    capture *c = calloc(1, sizeof *c);
    capstream *cs = calloc(1, sizeof *cs);
    cudaError_t e = cudaErrorMemoryAllocation;
    if (c && cs && (c->g = rt_graph_new())) {
        c->id = ++g_capture_ids;
        c->mode = (int)mode;
        c->origin = s;
        c->thread = pthread_self();
        c->next = g_caps;
        g_caps = c;
        cs->c = c;
        s->capture = cs;
        s->capture_mode = (int)mode;
        return cudaSuccess;
    }
    free(c);
    free(cs);
    return e;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    RT_BEGIN_CTX();
    return RT_END(begin_capture(stream, 0, mode));
}

cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    RT_BEGIN_CTX();
    return RT_END(begin_capture(stream, 1, mode));
}

/* Streams that joined the capture (other than the origin) are released too. */
static rt_stream *g_ending;
static int release_joined(rt_stream *s, void *ctx)
{
    capstream *cs = s->capture;
    if (cs && cs->c == ctx && s != g_ending) {
        free(cs->tail);
        free(cs);
        s->capture = NULL;
    }
    return 0;
}

static cudaError_t end_capture(cudaStream_t stream, int ptds, cudaGraph_t *pGraph)
{
    rt_stream *s = rt_stream_get(stream, ptds);
    if (!s) return cudaErrorInvalidResourceHandle;
    if (!pGraph) return cudaErrorInvalidValue;
    capstream *cs = s->capture;
    if (!cs) return cudaErrorIllegalState;
    capture *c = cs->c;
    if (c->origin != s) return cudaErrorStreamCaptureUnmatched;
    if (c->mode == cudaStreamCaptureModeThreadLocal && !pthread_equal(c->thread, pthread_self()))
        return cudaErrorStreamCaptureWrongThread;
    g_ending = s;
    rt_streams_each(release_joined, c);
    capture_end(c);
    for (capture **pp = &g_caps; *pp; pp = &(*pp)->next)
        if (*pp == c) {
            *pp = c->next;
            break;
        }
    free(cs->tail);
    free(cs);
    s->capture = NULL;
    cudaError_t e = cudaSuccess;
    if (c->invalid) {
        rt_graph_free(c->g);
        *pGraph = NULL;
        e = cudaErrorStreamCaptureInvalidated;
    } else {
        *pGraph = c->g;
    }
    free(c);
    return e;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    RT_BEGIN();
    return RT_END(end_capture(stream, 0, pGraph));
}

cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph)
{
    RT_BEGIN();
    return RT_END(end_capture(stream, 1, pGraph));
}

static cudaError_t capture_info(cudaStream_t stream, int ptds,
                                enum cudaStreamCaptureStatus *status, unsigned long long *id,
                                cudaGraph_t *graph, const cudaGraphNode_t **deps,
                                const cudaGraphEdgeData **edges, size_t *ndeps)
{
    rt_stream *s = rt_stream_get(stream, ptds);
    if (!s) return cudaErrorInvalidResourceHandle;
    if (!status) return cudaErrorInvalidValue;
    capstream *cs = s->capture;
    *status = !cs ? cudaStreamCaptureStatusNone : cs->c->invalid
              ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
    if (id) *id = cs ? cs->c->id : 0;
    if (graph) *graph = cs ? cs->c->g : NULL;
    if (deps) *deps = cs ? cs->tail : NULL;
    if (edges) *edges = NULL;          /* every edge is a default one */
    if (ndeps) *ndeps = cs ? cs->ntail : 0;
    return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pStatus)
{
    RT_BEGIN();
    return RT_END(capture_info(stream, 0, pStatus, NULL, NULL, NULL, NULL, NULL));
}

cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *pStatus)
{
    RT_BEGIN();
    return RT_END(capture_info(stream, 1, pStatus, NULL, NULL, NULL, NULL, NULL));
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *status,
                                     unsigned long long *id, cudaGraph_t *graph,
                                     const cudaGraphNode_t **deps,
                                     const cudaGraphEdgeData **edgeData, size_t *numDeps)
{
    RT_BEGIN();
    return RT_END(capture_info(stream, 0, status, id, graph, deps, edgeData, numDeps));
}

cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                          enum cudaStreamCaptureStatus *status,
                                          unsigned long long *id, cudaGraph_t *graph,
                                          const cudaGraphNode_t **deps,
                                          const cudaGraphEdgeData **edgeData, size_t *numDeps)
{
    RT_BEGIN();
    return RT_END(capture_info(stream, 1, status, id, graph, deps, edgeData, numDeps));
}

cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
    if (!mode || (unsigned)*mode > cudaStreamCaptureModeRelaxed)
        return rt_error(cudaErrorInvalidValue);
    int old = t_mode;
    t_mode = (int)*mode;
    *mode = (enum cudaStreamCaptureMode)old;
    return cudaSuccess;
}

/* ---- what capture forbids ---------------------------------------------------------------------
 * As the CUDA runtime documents ("Stream Capture", cudaThreadExchangeStreamCaptureMode): a
 * call that fails here fails without doing anything, and invalidates the capture sequences it
 * conflicts with (their cudaStreamEndCapture returns cudaErrorStreamCaptureInvalidated and no
 * graph; further work on their streams fails with it).
 * - Synchronising or querying a capturing stream, an event last recorded in a capture, or the
 *   device while any capture is active: cudaErrorStreamCaptureUnsupported, whatever the mode.
 * - Work on, or synchronising, the legacy default stream while a blocking stream (one not
 *   created with cudaStreamNonBlocking) captures, synchronous copies and memsets included:
 *   cudaErrorStreamCaptureImplicit (it would depend on the capture).
 * - Potentially unsafe calls (allocation and freeing: cudaMalloc and its kin, cudaFree,
 *   cudaHostRegister): cudaErrorStreamCaptureUnsupported when the calling thread's interaction
 *   mode (cudaThreadExchangeStreamCaptureMode) forbids them: Global, its default, while the
 *   thread has a capture not begun in Relaxed mode or another thread has one begun in Global
 *   mode; ThreadLocal, only its own non-Relaxed captures; Relaxed, never. Stream-ordered
 *   allocation (cudaMallocAsync) is captured instead.
 * - Waiting, in a capture, on an event recorded outside it without cudaEventWaitExternal:
 *   cudaErrorStreamCaptureIsolation (rt_capture_op). */
static int cap_forbids(const capture *c)
{
    int own = pthread_equal(c->thread, pthread_self());
    switch (t_mode) {
    case cudaStreamCaptureModeRelaxed:
        return 0;
    case cudaStreamCaptureModeThreadLocal:
        return own && c->mode != cudaStreamCaptureModeRelaxed;
    default:
        return (own && c->mode != cudaStreamCaptureModeRelaxed) ||
               (!own && c->mode == cudaStreamCaptureModeGlobal);
    }
}

cudaError_t rt_capture_unsafe(void)
{
    int bad = 0;
    for (capture *c = g_caps; c; c = c->next)
        if (cap_forbids(c)) {
            c->invalid = 1;
            bad = 1;
        }
    return bad ? cudaErrorStreamCaptureUnsupported : cudaSuccess;
}

static int cap_blocking(rt_stream *s, void *ctx)
{
    capstream *cs = s->capture;
    if (cs && !(s->flags & cudaStreamNonBlocking)) {
        cs->c->invalid = 1;
        *(int *)ctx = 1;
    }
    return 0;
}

cudaError_t rt_capture_legacy(const rt_stream *s)
{
    int bad = 0;
    if (s == rt_stream_get(NULL, 0) && g_caps)
        rt_streams_each(cap_blocking, &bad);
    return bad ? cudaErrorStreamCaptureImplicit : cudaSuccess;
}

cudaError_t rt_capture_sync_stream(const rt_stream *s)
{
    const capstream *cs = s->capture;
    if (cs) {
        cs->c->invalid = 1;
        return cudaErrorStreamCaptureUnsupported;
    }
    return rt_capture_legacy(s);
}

cudaError_t rt_capture_sync_event(const rt_event *ev)
{
    capevent *e = event_entry(ev);
    if (e && e->c) {
        e->c->invalid = 1;
        return cudaErrorStreamCaptureUnsupported;
    }
    return cudaSuccess;
}

cudaError_t rt_capture_sync_device(void)
{
    for (capture *c = g_caps; c; c = c->next)
        c->invalid = 1;
    return g_caps ? cudaErrorStreamCaptureUnsupported : cudaSuccess;
}
