/* exec_cluster.c - thread block clusters (sm_90): launch shape, co-scheduling of a cluster's
 * CTAs, barrier.cluster, distributed shared memory (shared::cluster windows, mapa, getctarank).
 *
 * A kernel runs in clusters when it declares .reqnctapercluster X,Y,Z or when the launch gives
 * cluster dimensions (exec_set_cluster_dims: the launch attribute of cudaLaunchKernelEx; a
 * .explicitcluster kernel needs one of the two). The grid must be a multiple of the cluster
 * shape, and a cluster holds at most EXEC_CLUSTER_MAX CTAs (8 is the portable size; 16 is
 * accepted, as with the non-portable opt-in). Clusters of one CTA (no cluster declared, or
 * 1x1x1) run exactly as before: m->cl stays NULL and the one-CTA path is unchanged.
 *
 * Scheduling. Clusters start in linear cluster order; all CTAs of a cluster start together
 * (rank 0 first) and run round-robin: one pass of exec_cta_run (its warps until one uses up
 * its slice or all block) per CTA, in rank order, so runs are deterministic. The machine keeps
 * one CTA "swapped in" (m->cta, m->warps, m->sregs, m->cur_cta): the others are parked in
 * exec_cluster.s[rank] and swapped in for their turn (or when a step focuses on them). A
 * finished CTA keeps its shared memory until its whole cluster is done (peers may still read
 * it). When no CTA of the cluster progresses in a full round, barrier.cluster is checked once
 * more (exits may have completed it), else the cluster is deadlocked: the exception names
 * where every warp waits. CTA barriers (bar.sync ...) stay per CTA. The parallel worker path
 * (exec_set_threads) is not used for cluster launches: they run on one thread.
 *
 * Distributed shared memory (mem.h): the shared window of rank r of the cluster is
 * MEM_SHCL_BASE + r * MEM_SHCL_STRIDE + offset, inside the 32-bit shared space (so also in the
 * generic shared window). A CTA's own shared::cta addresses stay valid shared::cluster
 * addresses of that CTA. mapa returns window addresses; getctarank decodes either form;
 * ld/st/atom/red/mbarrier/bulk-copy accesses to a window reach the peer's block (mem_xlate ->
 * exec_cluster_shared), bounds-checked against that CTA's shared size.
 *
 * barrier.cluster.arrive{.release,.relaxed}{.aligned} / barrier.cluster.wait{.acquire}
 * {.aligned}: split-phase barrier over every non-exited thread of the cluster. Each thread
 * arrives once, then waits once; arrive records the phase (arr[] = phase + 1); the phase
 * completes when every live thread of the cluster has arrived; wait returns at once for a
 * thread whose phase completed, else the lane blocks (bar_wait, lane_bar = EXEC_CLUSTER_BAR)
 * until the completion releases it. Waiting without arriving, or arriving twice without
 * waiting, is an exception. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec_core.h"

typedef struct {
    exec_cta cta;             /* the CTA while another rank is swapped in */
    exec_warp *warps;
    uint8_t *sregs;
    uint8_t *shared;          /* stable while the CTA's cluster runs */
    uint64_t shared_size;
    uint32_t id;              /* linear CTA index */
    int done;                 /* every thread exited */
} exec_clslot;

struct exec_cluster {
    exec_dim3 dim, ncl;       /* CTAs per cluster; clusters per grid dimension */
    uint32_t size, nclusters;
    uint32_t ci;              /* the cluster started (or next to start when !live) */
    int live;
    uint32_t cur;             /* rank swapped into the machine */
    uint32_t rr;              /* rank whose turn is next */
    uint32_t phase, arrived;  /* barrier.cluster */
    uint32_t *arr;            /* per rank * nwarps * 32 thread: 1 + phase arrived on, 0 none */
    exec_clslot s[EXEC_CLUSTER_MAX];
};

/* ---- shape ---------------------------------------------------------------------------------- */
int exec_set_cluster_dims(exec_machine *m, exec_dim3 dims)
{
    if ((dims.x || dims.y || dims.z) && (!dims.x || !dims.y || !dims.z)) {
        snprintf(m->err, sizeof m->err, "invalid cluster dimensions (%u,%u,%u)", dims.x, dims.y,
                 dims.z);
        return -1;
    }
    m->cl_attr = dims;
    return 0;
}

/* The launch's cluster shape: the launch attribute, else .reqnctapercluster, else 1x1x1.
 * Returns 1 when the kernel runs in explicit clusters (%is_explicit_cluster). */
int exec_cluster_dims(const exec_machine *m, exec_dim3 *d)
{
    const ptx_func *k = m->li.kernel;
    d->x = d->y = d->z = 1;
    if (m->cl_attr.x) {
        *d = m->cl_attr;
        return 1;
    }
    if (k && k->reqnctapercluster[0]) {
        d->x = k->reqnctapercluster[0];
        d->y = k->reqnctapercluster[1] ? k->reqnctapercluster[1] : 1;
        d->z = k->reqnctapercluster[2] ? k->reqnctapercluster[2] : 1;
        return 1;
    }
    return k && k->explicitcluster;
}

static exec_dim3 cl_cta_coord(const exec_cluster *cl, uint32_t ci, uint32_t r)
{
    exec_dim3 c;
    uint32_t cx = ci % cl->ncl.x, cy = (ci / cl->ncl.x) % cl->ncl.y,
             cz = ci / (cl->ncl.x * cl->ncl.y);
    c.x = cx * cl->dim.x + r % cl->dim.x;
    c.y = cy * cl->dim.y + (r / cl->dim.x) % cl->dim.y;
    c.z = cz * cl->dim.z + r / (cl->dim.x * cl->dim.y);
    return c;
}

/* Cluster index and rank of a linear CTA index. */
static void cl_of_cta(const exec_machine *m, uint32_t cta, uint32_t *ci, uint32_t *r)
{
    const exec_cluster *cl = m->cl;
    exec_dim3 c = exec_cta_coord(m, cta), d = cl->dim;
    *ci = c.x / d.x + (c.y / d.y) * cl->ncl.x + (c.z / d.z) * cl->ncl.x * cl->ncl.y;
    *r = c.x % d.x + (c.y % d.y) * d.x + (c.z % d.z) * d.x * d.y;
}

/* ---- swapping CTAs in and out ---------------------------------------------------------------- */
static void cl_swap(exec_machine *m, uint32_t r)
{
    exec_cluster *cl = m->cl;
    if (r != cl->cur) {
        exec_clslot *o = &cl->s[cl->cur], *n = &cl->s[r];
        o->cta = m->cta;
        o->warps = m->warps;
        o->sregs = m->sregs;
        m->cta = n->cta;
        m->warps = n->warps;
        m->sregs = n->sregs;
        cl->cur = r;
    }
    m->cur_cta = m->cta.id;
}

static int cl_start(exec_machine *m, uint32_t ci, int first_started)
{
    exec_cluster *cl = m->cl;
    for (uint32_t r = 0; r < cl->size; r++) {
        exec_clslot *s = &cl->s[r];
        exec_dim3 c = cl_cta_coord(cl, ci, r);
        uint32_t id;
        exec_cta_index(m, c, &id);
        cl_swap(m, r);
        if (!(first_started && r == 0)) {
            m->cta_live = 1;
            if (exec_run_cta_start(m, id))
                return -1;
        }
        s->shared = m->cta.shared;
        s->shared_size = m->cta.shared_size;
        s->id = id;
        s->done = 0;
    }
    cl_swap(m, 0);
    cl->ci = ci;
    cl->live = 1;
    cl->rr = 0;
    cl->phase = cl->arrived = 0;
    memset(cl->arr, 0, sizeof(uint32_t) * cl->size * m->nwarps * 32);
    m->cta_live = 1;
    return 0;
}

/* End the live cluster: frames and stacks go back for reuse (keep) or to malloc. */
static void cl_end(exec_machine *m, int keep)
{
    exec_cluster *cl = m->cl;
    for (uint32_t r = 0; r < cl->size; r++) {
        cl_swap(m, r);
        m->cta_live = 1;
        exec_run_cta_end(m, keep);
    }
    cl_swap(m, 0);
    cl->live = 0;
    cl->ci++;
    m->cta_live = 0;
}

void exec_cluster_free(exec_machine *m)
{
    exec_cluster *cl = m->cl;
    if (!cl)
        return;
    for (uint32_t r = 0; r < cl->size; r++) {
        exec_clslot *s = &cl->s[r];
        if (r != cl->cur && s->warps)
            exec_run_cta_free_parked(m, &s->cta, s->warps, s->sregs);
    }
    free(cl->arr);
    free(cl);
    m->cl = NULL;
}

/* Called by exec_launch once CTA 0 has started: validate the cluster shape and, for clusters
 * of more than one CTA, start the rest of cluster 0. */
int exec_cluster_launch(exec_machine *m)
{
    exec_dim3 d, g = m->li.grid;
    const ptx_func *k = m->li.kernel;
    int expl = exec_cluster_dims(m, &d);
    m->li.cluster = d;
    if (m->cl_attr.x && k->reqnctapercluster[0] &&
        (m->cl_attr.x != d.x || k->reqnctapercluster[0] != d.x ||
         (k->reqnctapercluster[1] ? k->reqnctapercluster[1] : 1) != d.y ||
         (k->reqnctapercluster[2] ? k->reqnctapercluster[2] : 1) != d.z)) {
        snprintf(m->err, sizeof m->err, "cluster dimensions (%u,%u,%u) given at launch differ "
                 "from %s's .reqnctapercluster %u,%u,%u", d.x, d.y, d.z, k->sym->name,
                 k->reqnctapercluster[0], k->reqnctapercluster[1], k->reqnctapercluster[2]);
        return -1;
    }
    if (expl && !m->cl_attr.x && !k->reqnctapercluster[0]) {
        snprintf(m->err, sizeof m->err, "kernel %s is declared .explicitcluster: give the "
                 "cluster dimensions at launch (launch K<<<grid, block, cluster=(x,y,z)>>>)",
                 k->sym->name);
        return -1;
    }
    uint64_t size = (uint64_t)d.x * d.y * d.z;
    if (!size || size > EXEC_CLUSTER_MAX) {
        snprintf(m->err, sizeof m->err, "cluster (%u,%u,%u) of %" PRIu64 " CTAs: a cluster "
                 "holds 1 to %d CTAs (8 portable, 16 non-portable)", d.x, d.y, d.z, size,
                 EXEC_CLUSTER_MAX);
        return -1;
    }
    if (k->maxclusterrank && size > k->maxclusterrank) {
        snprintf(m->err, sizeof m->err, "cluster of %" PRIu64 " CTAs exceeds %s's "
                 ".maxclusterrank %u", size, k->sym->name, k->maxclusterrank);
        return -1;
    }
    if (g.x % d.x || g.y % d.y || g.z % d.z) {
        snprintf(m->err, sizeof m->err, "grid (%u,%u,%u) is not a multiple of the cluster "
                 "dimensions (%u,%u,%u)", g.x, g.y, g.z, d.x, d.y, d.z);
        return -1;
    }
    if (size == 1)
        return 0;   /* clusters of one: the one-CTA path */
    uint64_t shsz = m->cta.shared_size;
    if (shsz > MEM_SHCL_STRIDE) {
        snprintf(m->err, sizeof m->err, "%" PRIu64 " bytes of shared memory per CTA: clusters "
                 "support at most %llu", shsz, (unsigned long long)MEM_SHCL_STRIDE);
        return -1;
    }
    exec_cluster *cl = calloc(1, sizeof *cl);
    if (!cl)
        goto oom;
    m->cl = cl;
    cl->dim = d;
    cl->size = (uint32_t)size;
    cl->ncl.x = g.x / d.x;
    cl->ncl.y = g.y / d.y;
    cl->ncl.z = g.z / d.z;
    cl->nclusters = cl->ncl.x * cl->ncl.y * cl->ncl.z;
    cl->arr = calloc((size_t)cl->size * m->nwarps * 32, sizeof(uint32_t));
    if (!cl->arr)
        goto oom;
    size_t sb = (size_t)m->nwarps * EXEC_SR__COUNT * EXEC_SLOT;
    cl->s[0].warps = m->warps;
    cl->s[0].sregs = m->sregs;
    for (uint32_t r = 1; r < cl->size; r++) {
        exec_clslot *s = &cl->s[r];
        s->warps = calloc(m->nwarps, sizeof(exec_warp));
        s->sregs = malloc(sb);
        if (!s->warps || !s->sregs)
            goto oom;
        memcpy(s->sregs, m->sregs, sb);   /* per-launch values; per-CTA ones set at start */
    }
    if (cl_start(m, 0, 1))
        goto oom;
    return 0;
oom:
    snprintf(m->err, sizeof m->err, "cannot start cluster 0 (out of memory)");
    return -1;
}

/* ---- core files (exec_corefile.c) ------------------------------------------------------------ */
int exec_cluster_core_state(const exec_machine *m, uint32_t st[7], const uint32_t **arr,
                            size_t *narr)
{
    const exec_cluster *cl = m->cl;
    if (!cl)
        return -1;
    st[0] = cl->size;
    st[1] = cl->ci;
    st[2] = (uint32_t)cl->live;
    st[3] = cl->cur;
    st[4] = cl->rr;
    st[5] = cl->phase;
    st[6] = cl->arrived;
    *arr = cl->arr;
    *narr = (size_t)cl->size * m->nwarps * 32;
    return 0;
}

int exec_cluster_core_slot(const exec_machine *m, uint32_t r, uint32_t *id, int *done,
                           const exec_cta **cta, const exec_warp **warps, const uint8_t **sregs)
{
    const exec_cluster *cl = m->cl;
    if (!cl || r >= cl->size)
        return -1;
    *id = cl->s[r].id;
    *done = cl->s[r].done;
    *cta = &cl->s[r].cta;
    *warps = cl->s[r].warps;
    *sregs = cl->s[r].sregs;
    return 0;
}

int exec_cluster_core_restore(exec_machine *m, const uint32_t st[7], const uint32_t *arr,
                              size_t narr)
{
    exec_dim3 d = m->li.cluster, g = m->li.grid;
    uint64_t size = (uint64_t)d.x * d.y * d.z;
    if (m->cl || size < 2 || size > EXEC_CLUSTER_MAX || st[0] != size || g.x % d.x ||
        g.y % d.y || g.z % d.z || st[3] >= size || st[4] >= size ||
        narr != (size_t)size * m->nwarps * 32)
        return -1;
    exec_cluster *cl = calloc(1, sizeof *cl);
    if (!cl)
        return -1;
    cl->dim = d;
    cl->size = (uint32_t)size;
    cl->ncl.x = g.x / d.x;
    cl->ncl.y = g.y / d.y;
    cl->ncl.z = g.z / d.z;
    cl->nclusters = cl->ncl.x * cl->ncl.y * cl->ncl.z;
    cl->arr = calloc(narr, sizeof(uint32_t));
    if (!cl->arr || st[1] > cl->nclusters) {
        free(cl->arr);
        free(cl);
        return -1;
    }
    memcpy(cl->arr, arr, narr * sizeof(uint32_t));
    cl->ci = st[1];
    cl->live = st[2] != 0;
    cl->cur = st[3];
    cl->rr = st[4];
    cl->phase = st[5];
    cl->arrived = st[6];
    m->cl = cl;
    return 0;
}

int exec_cluster_core_set_slot(exec_machine *m, uint32_t r, uint32_t id, int done,
                               const exec_cta *cta, exec_warp *warps, uint8_t *sregs)
{
    exec_cluster *cl = m->cl;
    uint32_t ci, rank;
    if (!cl || r >= cl->size || id >= m->ncta)
        return -1;
    cl_of_cta(m, id, &ci, &rank);
    if (ci != cl->ci || rank != r)
        return -1;
    exec_clslot *s = &cl->s[r];
    s->id = id;
    s->done = done != 0;
    if (r == cl->cur) { /* the swapped-in CTA: the machine's own */
        s->shared = m->cta.shared;
        s->shared_size = m->cta.shared_size;
        return m->cta_live && m->cta.id == id ? 0 : -1;
    }
    if (!cta || cta->id != id)
        return -1;
    s->cta = *cta;
    s->warps = warps;
    s->sregs = sregs;
    s->shared = cta->shared;
    s->shared_size = cta->shared_size;
    return 0;
}

/* ---- special registers ---------------------------------------------------------------------- */
/* Per-CTA cluster registers: %clusterid, %cluster_ctaid, %cluster_ctarank (exec_sreg.c). */
void exec_cluster_cta_ids(const exec_machine *m, exec_dim3 c, exec_dim3 *cid, exec_dim3 *cct,
                          uint32_t *rank)
{
    exec_dim3 d;
    exec_cluster_dims(m, &d);
    if (!d.x || !d.y || !d.z)
        d.x = d.y = d.z = 1;
    cid->x = c.x / d.x;
    cid->y = c.y / d.y;
    cid->z = c.z / d.z;
    cct->x = c.x % d.x;
    cct->y = c.y % d.y;
    cct->z = c.z % d.z;
    *rank = cct->x + cct->y * d.x + cct->z * d.x * d.y;
}

/* ---- inspection ---------------------------------------------------------------------------- */
exec_cta_state exec_cluster_cta_state(const exec_machine *m, uint32_t cta)
{
    const exec_cluster *cl = m->cl;
    uint32_t ci, r;
    cl_of_cta(m, cta, &ci, &r);
    if (ci < cl->ci)
        return EXEC_CTA_DONE;
    if (ci > cl->ci || !cl->live)
        return EXEC_CTA_NOT_STARTED;
    return cl->s[r].done ? EXEC_CTA_DONE : EXEC_CTA_RUNNING;
}

uint32_t exec_cluster_next_running(const exec_machine *m, uint32_t from)
{
    const exec_cluster *cl = m->cl;
    uint32_t best = m->ncta;
    for (uint32_t r = 0; cl->live && r < cl->size; r++) {
        uint32_t id;
        if (cl->s[r].done || exec_cta_index(m, cl_cta_coord(cl, cl->ci, r), &id) != 0)
            continue;
        if (id >= from && id < best)
            best = id;
    }
    return best;
}

const exec_warp *exec_cluster_warp(const exec_machine *m, uint32_t cta, uint32_t warp)
{
    const exec_cluster *cl = m->cl;
    if (!m->launched || !cl->live || cta >= m->ncta || warp >= m->nwarps)
        return NULL;
    uint32_t ci, r;
    cl_of_cta(m, cta, &ci, &r);
    if (ci != cl->ci)
        return NULL;
    return r == cl->cur ? &m->warps[warp] : &cl->s[r].warps[warp];
}

exec_cta *exec_cluster_parked_cta(exec_machine *m, uint32_t cta)
{
    exec_cluster *cl = m->cl;
    if (!cl->live || cta >= m->ncta)
        return NULL;
    uint32_t ci, r;
    cl_of_cta(m, cta, &ci, &r);
    return ci == cl->ci && r != cl->cur ? &cl->s[r].cta : NULL;
}

/* Make `cta` (a CTA of the live cluster) the machine's CTA, e.g. for a step. */
void exec_cluster_focus(exec_machine *m, uint32_t cta)
{
    exec_cluster *cl = m->cl;
    if (!cl->live || cta >= m->ncta)
        return;
    uint32_t ci, r;
    cl_of_cta(m, cta, &ci, &r);
    if (ci == cl->ci && !cl->s[r].done)
        cl_swap(m, r);
}

/* ---- barrier.cluster ------------------------------------------------------------------------ */
static exec_cta *cl_cta(exec_machine *m, uint32_t r)
{
    return r == m->cl->cur ? &m->cta : &m->cl->s[r].cta;
}

static exec_warp *cl_warps(exec_machine *m, uint32_t r)
{
    return r == m->cl->cur ? m->warps : m->cl->s[r].warps;
}

/* Complete the phase when every live thread of the cluster has arrived: release the waiters.
 * Returns 1 when it completed. */
static int cl_bar_check(exec_machine *m)
{
    exec_cluster *cl = m->cl;
    uint32_t live = 0, arrived = 0, nt = m->nwarps * 32;
    for (uint32_t r = 0; r < cl->size; r++) {
        exec_cta *c = cl_cta(m, r);
        live += c->nthreads - c->nexited;
    }
    if (!live || cl->arrived < live)   /* arrived may over-count (arrived, then exited) */
        return 0;
    for (uint32_t r = 0; r < cl->size; r++) {
        exec_warp *ws = cl_warps(m, r);
        for (uint32_t k = 0; k < m->nwarps; k++) {
            uint32_t lv = ws[k].valid & ~ws[k].exited;
            EXEC_FOR_LANES(i, lv)
                arrived += cl->arr[r * nt + k * 32 + i] == cl->phase + 1;
        }
    }
    if (arrived < live)
        return 0;
    cl->phase++;
    cl->arrived = 0;
    for (uint32_t r = 0; r < cl->size; r++) {
        exec_warp *ws = cl_warps(m, r);
        for (uint32_t k = 0; k < m->nwarps; k++) {
            exec_warp *w = &ws[k];
            uint32_t rel = 0;
            EXEC_FOR_LANES(i, w->bar_wait)
                if (w->lane_bar[i] == EXEC_CLUSTER_BAR) {
                    rel |= 1u << i;
                    w->lane_bar[i] = -1;
                    cl->arr[r * nt + k * 32 + i] = 0;
                }
            if (rel) {
                w->bar_wait &= ~rel;
                w->resched = 1;
            }
        }
    }
    return 1;
}

static int cl_bar_arrive_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    exec_machine *mc = w->m;
    exec_cluster *cl = mc->cl;
    if (!cl) {
        /* a cluster of one CTA: the barrier is the CTA's threads; arrive alone cannot block */
        return EXEC_NEXT;
    }
    uint32_t *arr = cl->arr + (size_t)cl->cur * mc->nwarps * 32 + w->id * 32;
    EXEC_FOR_LANES(i, m)
        if (arr[i]) {
            exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, (int)i, PTX_SPACE_NONE, 0, 0,
                       "barrier.cluster.arrive: thread already arrived (phase %u) and has not "
                       "waited (barrier.cluster.wait) since", arr[i] - 1);
            exec_obs_misuse(w, in, (int)i, EXEC_MISUSE_CLUSTER, -1, 0, 0);
            return EXEC_STOPPED;
        }
    EXEC_FOR_LANES(i, m)
        arr[i] = cl->phase + 1;
    cl->arrived += (uint32_t)exec_popc(m);
    uint32_t before = w->bar_wait;
    cl_bar_check(mc);
    if (w->bar_wait != before) {
        /* lanes of this very warp were released: regroup after this instruction */
        w->npc = in->pc + 1;
        return EXEC_JUMPED;
    }
    return EXEC_NEXT;
}

static int cl_bar_wait_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    exec_machine *mc = w->m;
    exec_cluster *cl = mc->cl;
    if (!cl)
        return EXEC_NEXT;
    uint32_t *arr = cl->arr + (size_t)cl->cur * mc->nwarps * 32 + w->id * 32, wait = 0;
    EXEC_FOR_LANES(i, m) {
        if (!arr[i]) {
            exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, (int)i, PTX_SPACE_NONE, 0, 0,
                       "barrier.cluster.wait without a preceding barrier.cluster.arrive");
            exec_obs_misuse(w, in, (int)i, EXEC_MISUSE_CLUSTER, -1, 0, 0);
            return EXEC_STOPPED;
        }
        if (arr[i] - 1 < cl->phase)
            arr[i] = 0;              /* its phase completed: no wait */
        else
            wait |= 1u << i;
    }
    if (!wait)
        return EXEC_NEXT;
    EXEC_FOR_LANES(i, wait) {
        w->lane_bar[i] = EXEC_CLUSTER_BAR;
        w->pc[i] = in->pc + 1;
    }
    w->bar_wait |= wait;
    EXEC_FOR_LANES(i, w->cur_mask & ~wait)
        w->pc[i] = in->pc + 1;
    w->cur_mask = 0;
    w->resched = 1;
    w->npc = in->pc + 1;
    return EXEC_JUMPED;
}

/* barrier.cluster.arrive{.release,.relaxed}{.aligned}; barrier.cluster.wait{.acquire}{.aligned}
 * (called by exec_dec_bar for barrier/bar with .cluster). */
int exec_dec_barrier_cluster(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    int arrive = 0, wait = 0;
    for (int i = 0; i < pi->nmods; i++) {
        const char *s = pi->mods[i];
        if (!strcmp(s, "arrive"))
            arrive = 1;
        else if (!strcmp(s, "wait"))
            wait = 1;
        else if (strcmp(s, "cluster") && strcmp(s, "aligned") && strcmp(s, "release") &&
                 strcmp(s, "relaxed") && strcmp(s, "acquire"))
            return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
    }
    if (arrive == wait || pi->nops != 0)
        return exec_dec_error(d, pi, "expected barrier.cluster.arrive{.release,.relaxed}"
                              "{.aligned} or barrier.cluster.wait{.acquire}{.aligned}, no "
                              "operands");
    if ((arrive && ptx_insn_has_mod(pi, "acquire")) ||
        (wait && (ptx_insn_has_mod(pi, "release") || ptx_insn_has_mod(pi, "relaxed"))))
        return exec_dec_error(d, pi, "arrive takes .release/.relaxed, wait takes .acquire");
    in->aux[1] = 3;   /* not a CTA barrier (exec_bar_release reads aux[1] of waiters) */
    in->fn = arrive ? cl_bar_arrive_fn : cl_bar_wait_fn;
    return 0;
}

/* ---- running --------------------------------------------------------------------------------- */
static int cl_describe(exec_machine *m, char *buf, size_t n)
{
    exec_cluster *cl = m->cl;
    size_t k = 0;
    for (uint32_t r = 0; r < cl->size && k < n; r++) {
        exec_warp *ws = cl_warps(m, r);
        for (uint32_t wi = 0; wi < m->nwarps && k < n; wi++) {
            exec_warp *w = &ws[wi];
            uint32_t seen = 0;
            EXEC_FOR_LANES(l, w->bar_wait) {
                if ((seen >> l) & 1)
                    continue;
                int b = w->lane_bar[l];
                uint32_t lanes = 0;
                EXEC_FOR_LANES(j, w->bar_wait)
                    if (w->lane_bar[j] == b)
                        lanes |= 1u << j;
                seen |= lanes;
                uint32_t pc = w->pc[l] - 1;
                const exec_insn *in = &m->code[pc];
                char what[32];
                if (b == EXEC_CLUSTER_BAR)
                    snprintf(what, sizeof what, "barrier.cluster");
                else
                    snprintf(what, sizeof what, "barrier %d", b);
                if (k < n)
                    k += (size_t)snprintf(buf + k, n - k, "; CTA %u warp %u lanes 0x%08x wait "
                                          "at %s (pc 0x%x, line %d)", cl->s[r].id, wi, lanes,
                                          what, pc, in->src ? in->src->line : 0);
            }
            if (w->ws_wait && k < n)
                k += (size_t)snprintf(buf + k, n - k, "; CTA %u warp %u lanes 0x%08x wait in a "
                                      "warp-synchronous instruction", cl->s[r].id, wi,
                                      w->ws_wait);
        }
    }
    return (int)k;
}

static void cl_deadlock(exec_machine *m)
{
    exec_cluster *cl = m->cl;
    char buf[480];
    buf[0] = 0;
    cl_describe(m, buf, sizeof buf);
    for (uint32_t r = 0; r < cl->size; r++)
        if (!cl->s[r].done) {
            cl_swap(m, r);
            break;
        }
    exec_warp *w0 = NULL;
    for (uint32_t i = 0; i < m->nwarps && !w0; i++)
        if (m->warps[i].valid & ~m->warps[i].exited & ~m->warps[i].trapped)
            w0 = &m->warps[i];
    if (!w0)
        w0 = &m->warps[0];
    uint32_t lanes = w0->valid & ~w0->exited & ~w0->trapped;
    int l = lanes ? exec_ctz(lanes) : 0;
    uint32_t pc = w0->pc[l] ? w0->pc[l] - ((w0->bar_wait >> l) & 1) : w0->pc[l];
    exec_dim3 c0 = cl_cta_coord(cl, cl->ci, 0);
    exec_fault(w0, &m->code[pc], EXEC_EXC_BARRIER_DEADLOCK, l, PTX_SPACE_NONE, 0, 0,
               "barrier deadlock in cluster %u (first CTA (%u,%u,%u), %u CTAs): no thread can "
               "proceed%s", cl->ci, c0.x, c0.y, c0.z, cl->size, buf);
    m->stop.lanes = lanes;
}

/* Run the live cluster until it is done (1) or stops (0). */
static int cl_run(exec_machine *m, void *rc)
{
    exec_cluster *cl = m->cl;
    for (;;) {
        int any_live = 0, progressed = 0;
        for (uint32_t k = 0; k < cl->size; k++) {
            uint32_t r = cl->rr;
            if (!cl->s[r].done) {
                cl_swap(m, r);
                int x = exec_run_cta_pass(m, rc);
                if (x == 0 || x == 2)
                    return 0;   /* a stop: resuming continues this CTA's turn */
                if (x == 1) {
                    cl->s[r].done = 1;
                    progressed = 1;
                    cl_bar_check(m);   /* its exits may complete a cluster barrier */
                } else {
                    any_live = 1;
                    progressed |= x == 3;
                }
            }
            cl->rr = (r + 1) % cl->size;
        }
        if (!any_live)
            return 1;
        if (!progressed) {
            if (cl_bar_check(m))
                continue;
            cl_deadlock(m);
            return 0;
        }
    }
}

static void cl_done_stop(exec_machine *m)
{
    memset(&m->stop, 0, sizeof m->stop);
    m->stop.kind = EXEC_STOP_DONE;
    m->stop.cta = m->ncta ? m->ncta - 1 : 0;
    snprintf(m->stop.msg, sizeof m->stop.msg, "kernel %s completed", m->li.kernel->sym->name);
    m->cur_cta = m->ncta;
}

/* exec_run_grid for cluster launches. */
int exec_cluster_run_grid(exec_machine *m, void *rc)
{
    exec_cluster *cl = m->cl;
    for (;;) {
        if (!cl->live) {
            if (cl->ci >= cl->nclusters) {
                cl_done_stop(m);
                return 0;
            }
            if (cl_start(m, cl->ci, 0)) {
                snprintf(m->err, sizeof m->err, "cannot start cluster %u (out of memory)",
                         cl->ci);
                return -1;
            }
        }
        if (cl_run(m, rc) != 1)
            return 0;
        cl_end(m, cl->ci + 1 < cl->nclusters);
    }
}

/* A step left the machine's CTA with no live thread: move to a live peer of its cluster, or
 * to the next cluster. Returns 0 (go on), 1 (the kernel is done: the stop is set), -1. */
int exec_cluster_cta_over(exec_machine *m)
{
    exec_cluster *cl = m->cl;
    cl->s[cl->cur].done = 1;
    cl_bar_check(m);
    for (uint32_t r = 0; r < cl->size; r++)
        if (!cl->s[r].done) {
            cl_swap(m, r);
            return 0;
        }
    cl_end(m, cl->ci + 1 < cl->nclusters);
    if (cl->ci >= cl->nclusters) {
        cl_done_stop(m);
        return 1;
    }
    return cl_start(m, cl->ci, 0) ? -1 : 0;
}

/* While a step waits for its warp to leave a barrier: one turn of every other CTA of the
 * cluster, then back to the focused CTA. Returns 1 when something progressed, 0 after raising
 * a deadlock, -1 on a stop (the stopped CTA stays swapped in). */
int exec_cluster_others(exec_machine *m, void *rc)
{
    exec_cluster *cl = m->cl;
    uint32_t focus = cl->cur;
    int progressed = 0;
    for (uint32_t k = 1; k < cl->size; k++) {
        uint32_t r = (focus + k) % cl->size;
        if (cl->s[r].done)
            continue;
        cl_swap(m, r);
        int x = exec_run_cta_pass(m, rc);
        if (x == 0 || x == 2)
            return -1;
        if (x == 1) {
            cl->s[r].done = 1;
            cl_bar_check(m);
        }
        progressed |= x == 1 || x == 3;
    }
    cl_swap(m, focus);
    if (progressed || cl_bar_check(m))
        return 1;
    cl_deadlock(m);
    return 0;
}

/* ---- distributed shared memory ---------------------------------------------------------------- */
uint32_t exec_cluster_size(const exec_machine *m)
{
    return m->cl ? m->cl->size : 1;
}

/* Host bytes of [addr, addr + size) of a shared::cluster window (addr >= MEM_SHCL_BASE, a
 * shared-space address); NULL after a fault. */
uint8_t *exec_cluster_shared(exec_warp *w, const exec_insn *in, int lane, uint64_t addr,
                             uint32_t size)
{
    exec_cluster *cl = w->m->cl;
    uint64_t rel = addr - MEM_SHCL_BASE, r = rel / MEM_SHCL_STRIDE, off = rel % MEM_SHCL_STRIDE;
    if (r >= cl->size) {
        exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, lane, PTX_SPACE_SHARED_CLUSTER, addr, size,
                   "shared::cluster address 0x%" PRIx64 " names CTA rank %" PRIu64 ", but the "
                   "cluster has %u CTAs", addr, r, cl->size);
        return NULL;
    }
    const exec_clslot *s = &cl->s[r];
    if (off > s->shared_size || s->shared_size - off < size) {
        exec_fault(w, in, EXEC_EXC_OUT_OF_RANGE, lane, PTX_SPACE_SHARED_CLUSTER, addr, size,
                   "out-of-range shared::cluster access of %u bytes at 0x%" PRIx64 " (rank %"
                   PRIu64 " + %" PRIu64 "): outside CTA %u's %" PRIu64 " bytes of shared memory",
                   size, addr, r, off, s->id, s->shared_size);
        return NULL;
    }
    return s->shared + off;
}

/* Inspection (no fault): NULL outside every window. */
uint8_t *exec_cluster_shared_host(exec_machine *m, uint64_t addr, uint64_t n)
{
    exec_cluster *cl = m->cl;
    if (!cl || !cl->live || addr < MEM_SHCL_BASE)
        return NULL;
    uint64_t rel = addr - MEM_SHCL_BASE, r = rel / MEM_SHCL_STRIDE, off = rel % MEM_SHCL_STRIDE;
    if (r >= cl->size || off > cl->s[r].shared_size || cl->s[r].shared_size - off < n)
        return NULL;
    return cl->s[r].shared + off;
}

/* A shared address (shared::cta of this CTA, or a window) -> owning rank and offset. */
static int cl_decode(exec_warp *w, uint64_t sa, uint32_t *rank, uint64_t *off)
{
    exec_cluster *cl = w->m->cl;
    if (sa < w->cta->shared_size) {
        *rank = cl->cur;
        *off = sa;
        return 0;
    }
    if (sa < MEM_SHCL_BASE)
        return -1;
    uint64_t rel = sa - MEM_SHCL_BASE, r = rel / MEM_SHCL_STRIDE;
    if (r >= cl->size || rel % MEM_SHCL_STRIDE >= cl->s[r].shared_size)
        return -1;
    *rank = (uint32_t)r;
    *off = rel % MEM_SHCL_STRIDE;
    return 0;
}

/* The address of shared address `a` (shared::cta or shared::cluster) in rank r's window;
 * -1 when a is not a shared address of the cluster or r names no CTA. */
int exec_cluster_map(exec_warp *w, uint64_t a, uint32_t r, uint64_t *out)
{
    uint32_t own;
    uint64_t off;
    if (!w->m->cl || r >= w->m->cl->size || cl_decode(w, a & 0xffffffffu, &own, &off))
        return -1;
    *out = MEM_SHCL_BASE + (uint64_t)r * MEM_SHCL_STRIDE + off;
    return 0;
}

static uint64_t cl_val(exec_warp *w, const exec_insn *in, int k, uint32_t lane)
{
    const void *p = exec_opnd_ptr(EXEC_R(w), &in->op[k]);
    return ptx_type_bits((ptx_type)in->op[k].type) == 32 ? ((const uint32_t *)p)[lane]
                                                          : ((const uint64_t *)p)[lane];
}

static void cl_set(exec_warp *w, const exec_insn *in, uint32_t lane, uint64_t v)
{
    const exec_opnd *o = &in->op[0];
    if (o->kind != EXEC_O_REG)
        return;
    void *p = EXEC_R(w)->regs + o->off;
    if (ptx_type_bits((ptx_type)o->type) == 32)
        ((uint32_t *)p)[lane] = (uint32_t)v;
    else
        ((uint64_t *)p)[lane] = v;
}

/* mapa / getctarank with clusters of several CTAs (exec_async.c hands over); in->aux[0] = 1
 * for .shared::cluster operands, else generic. */
int exec_cluster_addr_fn(exec_warp *w, const exec_insn *in, uint32_t m, int mapa)
{
    exec_cluster *cl = w->m->cl;
    const char *what = mapa ? "mapa" : "getctarank";
    EXEC_FOR_LANES(i, m) {
        uint64_t a = cl_val(w, in, 1, i), sa = a;
        int generic = !in->aux[0];
        if (generic && mem_generic_decode(a, &sa) != PTX_SPACE_SHARED) {
            exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, (int)i, PTX_SPACE_GENERIC, a, 0,
                       "%s: generic address 0x%" PRIx64 " is not in shared memory", what, a);
            return EXEC_STOPPED;
        }
        uint32_t own;
        uint64_t off;
        if (sa > 0xffffffffu || cl_decode(w, sa, &own, &off)) {
            exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, (int)i, PTX_SPACE_SHARED_CLUSTER, sa, 0,
                       "%s: shared::cluster address 0x%" PRIx64 " belongs to no CTA of the "
                       "cluster (each CTA has %" PRIu64 " bytes of shared memory)", what, sa,
                       w->cta->shared_size);
            return EXEC_STOPPED;
        }
        if (!mapa) {
            cl_set(w, in, i, own);
            continue;
        }
        uint64_t r = cl_val(w, in, 2, i);
        if (r >= cl->size) {
            exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, (int)i, PTX_SPACE_SHARED_CLUSTER, a, 0,
                       "mapa: no such CTA in cluster: rank %" PRIu64 " (the cluster has %u "
                       "CTAs, ranks 0..%u)", r, cl->size, cl->size - 1);
            return EXEC_STOPPED;
        }
        uint64_t res = MEM_SHCL_BASE + r * MEM_SHCL_STRIDE + off;
        cl_set(w, in, i, generic ? res + MEM_WIN_SHARED : res);
    }
    return EXEC_NEXT;
}
