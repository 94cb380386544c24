/* exec_par.c - ownership of global memory during a parallel CTA run: claims, conflicts, undo.
 *
 * While worker threads run CTAs at once (exec_workers.c), every global access of a worker first
 * claims the 4-byte granules it touches in a shadow word per granule (one array per region,
 * made when a worker first claims the region and kept with it, zero = untouched). Only the
 * regions CTAs touched cost anything, so a run's set-up and undo do not grow with the number
 * of live allocations. A granule is read by one CTA, read by many CTAs,
 * written by one CTA (which may also read it), or updated only by order-independent integer
 * reductions (any CTAs). Any other combination means two CTAs communicate through that
 * memory: the access that would create it is not performed (exec_par_claim returns -1 and the
 * worker stops with par_conflict set) and the run falls back to one thread from the lowest
 * unfinished CTA. So no two workers ever touch the same bytes unless all are readers or all
 * are host atomics (no C data race), and every CTA that completes has seen exactly the memory
 * a single thread would have shown it.
 *
 * The first write or reduction to a granule saves its old bytes in a mirror of the region
 * (calloc'd: pages never written cost nothing). exec_par_undo puts back the granules written
 * by CTAs from a given one on (or every written and reduced granule), which is how a stop,
 * an interrupt or a conflict leaves memory exactly as a single thread would have left it.
 * Texture and surface objects claim their whole range on first use by a CTA. A write or reduction
 * to memory the host may watch while the kernel runs (mem_region.host: pinned host memory) is a
 * conflict at once: the host never sees a value that an undo would take back. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "exec_core.h"

enum { PS_FREE, PS_R1, PS_RN, PS_W, PS_RED, PS_LOCK = 7 };
#define PS_G 4                /* bytes per granule: per-CTA words (out[blockIdx.x]) never share one */
#define PS_SHIFT 29
#define PS_ID_MASK ((1u << PS_SHIFT) - 1)
#define PS_KIND(s) ((s) >> PS_SHIFT)
#define PS_MAKE(k, id) (((uint32_t)(k) << PS_SHIFT) | (id))

/* A region's claims (mem_region.claims), made by the first claim of a run and kept with the
 * region between runs (cleared where touched) until the region goes or they grow too big. */
typedef struct {
    _Atomic uint32_t *shadow;
    uint8_t *mirror;
    uint64_t size;
    _Atomic uint8_t touched;  /* some granule left PS_FREE in this run */
} par_rc;

struct exec_par {
    uint32_t first;           /* CTA number of relative id 1 */
    mem_global *g;            /* the main machine's regions (workers share them) */
    pthread_mutex_t mu;       /* making a region's claims */
    _Atomic int red;          /* some granule took reductions */
    _Atomic int spin;         /* a CTA seems to wait for another: halt the workers */
};

uint32_t exec_par_max_ctas(void) { return PS_ID_MASK - 1; }

static void par_rc_free(par_rc *rc)
{
    if (!rc)
        return;
    free((void *)rc->shadow);
    free(rc->mirror);
    free(rc);
}

void exec_par_drop(mem_global *g, mem_region *r)
{
    if (!r->claims)
        return;
    par_rc_free(r->claims);
    r->claims = NULL;
    if (r->cprev)
        r->cprev->cnext = r->cnext;
    else
        g->claimed = r->cnext;
    if (r->cnext)
        r->cnext->cprev = r->cprev;
    r->cprev = r->cnext = NULL;
}

/* Region r's claims, made (zeroed) on the first claim; NULL when out of memory. */
static par_rc *par_claims(exec_par *p, mem_region *r)
{
    par_rc *rc = __atomic_load_n((par_rc **)&r->claims, __ATOMIC_ACQUIRE);
    if (rc)
        return rc;
    pthread_mutex_lock(&p->mu);
    rc = r->claims;
    if (!rc && (rc = calloc(1, sizeof *rc))) {
        uint64_t ng = (r->size + PS_G - 1) / PS_G;
        rc->size = r->size;
        rc->shadow = calloc(ng ? ng : 1, sizeof(uint32_t));
        rc->mirror = calloc(ng ? ng * PS_G : PS_G, 1);
        atomic_init(&rc->touched, 0);
        if (!rc->shadow || !rc->mirror) {
            par_rc_free(rc);
            rc = NULL;
        } else {
            r->cnext = p->g->claimed;
            r->cprev = NULL;
            if (r->cnext)
                r->cnext->cprev = r;
            p->g->claimed = r;
            __atomic_store_n((par_rc **)&r->claims, rc, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&p->mu);
    return rc;
}

exec_par *exec_par_new(const exec_machine *m, uint32_t first)
{
    exec_par *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->first = first;
    p->g = (mem_global *)&m->glob;
    pthread_mutex_init(&p->mu, NULL);
    atomic_init(&p->red, 0);
    atomic_init(&p->spin, 0);
    return p;
}

/* The claims stay with the regions (exec_par_put decides); this frees the run's state. */
void exec_par_free(exec_par *p)
{
    if (!p)
        return;
    pthread_mutex_destroy(&p->mu);
    free(p);
}

/* The claims for a run from CTA first: the regions keep theirs between runs, the touched
 * ones cleared (pages stay mapped between runs: no page faults or unmapping while workers
 * run). */
exec_par *exec_par_get(exec_machine *m, uint32_t first)
{
    exec_par *p = m->par_cache;
    m->par_cache = NULL;
    if (!p)
        return exec_par_new(m, first);
    for (mem_region *r = m->glob.claimed; r; r = r->cnext) {
        par_rc *rc = r->claims;
        if (atomic_load(&rc->touched)) {
            memset((void *)rc->shadow, 0, (rc->size + PS_G - 1) / PS_G * sizeof(uint32_t));
            atomic_store(&rc->touched, 0);
        }
    }
    p->first = first;
    atomic_store(&p->red, 0);
    atomic_store(&p->spin, 0);
    return p;
}

/* Keep the claims for the next run while the regions' shadows and mirrors stay below
 * EXEC_PAR_CACHE bytes; free them otherwise. */
void exec_par_put(exec_machine *m, exec_par *p)
{
    uint64_t bytes = 0;
    for (mem_region *r = m->glob.claimed; r; r = r->cnext)
        bytes += ((par_rc *)r->claims)->size * 2;
    if (bytes > EXEC_PAR_CACHE)
        while (m->glob.claimed)
            exec_par_drop(&m->glob, m->glob.claimed);
    exec_par_free(m->par_cache);
    m->par_cache = p;
}

int exec_par_reduced(const exec_par *p) { return atomic_load(&p->red); }

/* Claim granule g of region r (claims rc) for relative CTA c; mode 0 read, 1 write, 2 reduction.
 * Returns 1 when the granule was already claimed so, 0 when the claim is new, -1 conflict. */
static int par_claim1(exec_par *p, par_rc *rc, const mem_region *r, uint64_t g, uint32_t c,
                      int mode)
{
    _Atomic uint32_t *sh = &rc->shadow[g];
    for (;;) {
        uint32_t s = atomic_load_explicit(sh, memory_order_acquire);
        uint32_t k = PS_KIND(s), id = s & PS_ID_MASK, want;
        if (k == PS_LOCK) {
            sched_yield();
            continue;
        }
        if (mode == 0) {
            if (k == PS_RN || ((k == PS_R1 || k == PS_W) && id == c))
                return 1;
            if (k == PS_FREE) {
                want = PS_MAKE(PS_R1, c);
                if (!atomic_load_explicit(&rc->touched, memory_order_relaxed))
                    atomic_store_explicit(&rc->touched, 1, memory_order_relaxed);
            }
            else if (k == PS_R1)
                want = PS_MAKE(PS_RN, 0);
            else
                return -1;
            if (atomic_compare_exchange_weak_explicit(sh, &s, want, memory_order_acq_rel,
                                                      memory_order_acquire))
                return 0;
            continue;
        }
        /* a CTA may keep writing, or reducing into, what it alone wrote (a per-CTA counter
           set, then incremented with atomics) */
        if ((mode != 0 && k == PS_W && id == c) || (mode == 2 && k == PS_RED))
            return 1;
        if (!(k == PS_FREE || (mode == 1 && k == PS_R1 && id == c)))
            return -1;
        if (!atomic_compare_exchange_weak_explicit(sh, &s, PS_MAKE(PS_LOCK, 0),
                                                   memory_order_acq_rel, memory_order_acquire))
            continue;
        if (!atomic_load_explicit(&rc->touched, memory_order_relaxed))
            atomic_store_explicit(&rc->touched, 1, memory_order_relaxed);
        /* first change of this granule: keep its old bytes for exec_par_undo */
        uint64_t off = g * PS_G, n = r->size - off < PS_G ? r->size - off : PS_G;
        memcpy(rc->mirror + off, r->data + off, (size_t)n);
        if (mode == 2)
            atomic_store(&p->red, 1);
        atomic_store_explicit(sh, mode == 2 ? PS_MAKE(PS_RED, 0) : PS_MAKE(PS_W, c),
                              memory_order_release);
        return 0;
    }
}

int exec_par_claim(exec_warp *w, const exec_insn *in, const mem_region *r, uint64_t off,
                   uint64_t size, int mode)
{
    exec_machine *m = w->m;
    exec_par *p = m->par;
    if (!size)
        return 0;
    par_rc *rc = par_claims(p, (mem_region *)r);
    if (!rc) {   /* out of memory: go on on one thread */
        m->par_conflict = 1;
        if (in)
            exec_stop_raise(w, in, EXEC_STOP_LIMIT, EXEC_EXC_NONE, w->cur_mask,
                            "out of memory for the claims of a parallel run");
        return -1;
    }
    uint32_t c = w->cta->id - p->first + 1;
    int known = 1;
    for (uint64_t g = off / PS_G, e = (off + size - 1) / PS_G; g <= e; g++) {
        /* memory the host watches is written in one thread's order only */
        int r1 = mode && r->host ? -1 : par_claim1(p, rc, r, g, c, mode);
        if (r1 < 0) {
            m->par_conflict = 1;
            if (in)
                exec_stop_raise(w, in, EXEC_STOP_LIMIT, EXEC_EXC_NONE, w->cur_mask,
                                "CTAs communicate through global memory");
            return -1;
        }
        known &= r1;
    }
    /* A CTA that only re-reads memory it already holds, for long, is probably waiting for
     * another CTA (which may not have a worker): the run goes on on one thread, where
     * resident CTAs take turns (exec_sched.c). */
    if (!known || m->par_spin_cta != w->cta->id) {
        m->par_spin_cta = w->cta->id;
        m->par_quiet = 0;
    } else if (++m->par_quiet == EXEC_PAR_SPIN) {
        atomic_store(&p->spin, 1);
    }
    return 0;
}

int exec_par_spinning(const exec_par *p) { return atomic_load(&p->spin); }

int exec_par_defer(exec_warp *w, const exec_insn *in, const char *why)
{
    w->m->par_conflict = 1;
    exec_stop_raise(w, in, EXEC_STOP_LIMIT, EXEC_EXC_NONE, w->cur_mask,
                    "%s: the run goes on on one thread", why);
    return -1;
}

/* The claims as an observer of the memory seam: every global access of a worker, one lane
 * (the checked path), a warp's span (the fast path) or a texture or surface object. */
static int par_access(void *ctx, exec_machine *m, const exec_mem_ev *ev)
{
    (void)ctx;
    (void)m;
    const exec_obs_acc *a = ev->priv;
    int mode = ev->kind == EXEC_ACC_ATOMIC ? 1 : ev->kind;
    if (!a->reg)
        return EXEC_OBS_GO;
    if (ev->flags & EXEC_ACC_F_OBJ)
        return exec_par_claim_obj(a->w, a->in, a->reg, ev->addr1 - a->reg->base, ev->size,
                                  mode) ? EXEC_OBS_HALT : EXEC_OBS_GO;
    if (!ev->addrs)
        return exec_par_claim(a->w, a->in, a->reg, ev->addr1 - a->reg->base, ev->size, mode)
               ? EXEC_OBS_HALT : EXEC_OBS_GO;
    return exec_par_claim_lanes(a->w, a->in, a->reg, ev->lanes, ev->addrs,
                                (uint32_t)ev->size, mode) ? EXEC_OBS_HALT : EXEC_OBS_GO;
}

void exec_par_observe(exec_machine *wm)
{
    exec_obs_clear(wm);   /* no other observer runs on a worker (exec_obs.h) */
    exec_observer o = { .name = "parallel claims", .spaces = 1u << PTX_SPACE_GLOBAL,
                        .access = par_access };
    exec_observer_add(wm, &o);
}

/* The lanes m of a warp access n bytes each at addr[] in region r (the span fast path of
 * ld/st): granules this CTA already holds are recognised with one load each. */
int exec_par_claim_lanes(exec_warp *w, const exec_insn *in, const mem_region *r, uint32_t m,
                         const uint64_t *addr, uint32_t n, int mode)
{
    exec_par *p = w->m->par;
    par_rc *rc = __atomic_load_n((par_rc **)&r->claims, __ATOMIC_ACQUIRE);
    uint32_t c = w->cta->id - p->first + 1;
    uint32_t own = PS_MAKE(mode ? PS_W : PS_R1, c), shared = PS_MAKE(PS_RN, 0);
    _Atomic uint32_t *sh = rc ? rc->shadow : NULL;
    int all_known = 1;
    EXEC_FOR_LANES(i, m) {
        uint64_t off = addr[i] - r->base;
        if (sh && off / PS_G == (off + n - 1) / PS_G) {
            uint32_t s = atomic_load_explicit(&sh[off / PS_G], memory_order_acquire);
            if (s == own || (mode == 0 && (s == shared || s == PS_MAKE(PS_W, c))) ||
                (mode == 2 && s == PS_MAKE(PS_RED, 0)))
                continue;
        }
        all_known = 0;
        if (exec_par_claim(w, in, r, off, n, mode))
            return -1;
    }
    if (all_known && w->m->par_spin_cta == w->cta->id &&
        (w->m->par_quiet += (uint64_t)exec_popc(m)) >= EXEC_PAR_SPIN)
        atomic_store(&p->spin, 1);
    return 0;
}

/* Claim a texture's or surface's whole range once per CTA (the worker remembers the last). */
int exec_par_claim_obj(exec_warp *w, const exec_insn *in, const mem_region *r, uint64_t off,
                       uint64_t size, int mode)
{
    exec_machine *m = w->m;
    uint32_t cta = w->cta->id + 1;
    if (m->par_obj_cta == cta && m->par_obj_off == off && m->par_obj_reg == r &&
        m->par_obj_size == size && m->par_obj_mode >= mode)
        return 0;
    if (exec_par_claim(w, in, r, off, size, mode))
        return -1;
    m->par_obj_cta = cta;
    m->par_obj_reg = r;
    m->par_obj_off = off;
    m->par_obj_size = size;
    m->par_obj_mode = mode;
    return 0;
}

void exec_par_undo(exec_par *p, uint32_t from_cta, int all)
{
    uint32_t from = from_cta - p->first + 1;
    for (const mem_region *r = p->g->claimed; r; r = r->cnext) {
        par_rc *rc = r->claims;
        if (!atomic_load(&rc->touched))
            continue;
        uint64_t ng = (r->size + PS_G - 1) / PS_G;
        for (uint64_t g = 0; g < ng; g++) {
            uint32_t s = atomic_load_explicit(&rc->shadow[g], memory_order_relaxed);
            uint32_t k = PS_KIND(s);
            if (!((k == PS_W && ((s & PS_ID_MASK) >= from || all)) || (k == PS_RED && all)))
                continue;
            uint64_t off = g * PS_G, n = r->size - off < PS_G ? r->size - off : PS_G;
            memcpy(r->data + off, rc->mirror + off, (size_t)n);
        }
    }
}
