/* exec_par.c - ownership of global memory during a parallel CTA run: claims, conflicts, undo.
 *
 * While worker threads run CTAs at once (exec_run.c), every global access of a worker first
 * claims the 4-byte granules it touches in a shadow word per granule (one array per region,
 * allocated for the run, zero = untouched). A granule is read by one CTA, read by many CTAs,
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

struct exec_par {
    uint32_t first;           /* CTA number of relative id 1 */
    int nreg;
    mem_region *regs;         /* the machine's region array (fixed during the run) */
    uint8_t **rdata;          /* each region's data and size when made (exec_par_get) */
    uint64_t *rsize;
    _Atomic uint8_t *touched; /* per region: some granule left PS_FREE */
    _Atomic uint32_t **shadow;
    uint8_t **mirror;
    _Atomic int red;          /* some granule took reductions */
    _Atomic int spin;         /* a CTA seems to wait for another: halt the workers */
};

uint32_t exec_par_max_ctas(void) { return PS_ID_MASK - 1; }

exec_par *exec_par_new(const exec_machine *m, uint32_t first)
{
    exec_par *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->first = first;
    p->nreg = m->glob.n;
    p->regs = m->glob.r;
    p->shadow = calloc((size_t)p->nreg + 1, sizeof *p->shadow);
    p->mirror = calloc((size_t)p->nreg + 1, sizeof *p->mirror);
    p->rdata = calloc((size_t)p->nreg + 1, sizeof *p->rdata);
    p->rsize = calloc((size_t)p->nreg + 1, sizeof *p->rsize);
    p->touched = calloc((size_t)p->nreg + 1, sizeof *p->touched);
    if (!p->shadow || !p->mirror || !p->rdata || !p->rsize || !p->touched) {
        exec_par_free(p);
        return NULL;
    }
    atomic_init(&p->red, 0);
    for (int i = 0; i < p->nreg; i++)
        atomic_init(&p->touched[i], 0);
    atomic_init(&p->spin, 0);
    for (int i = 0; i < p->nreg; i++) {
        uint64_t sz = p->regs[i].size, ng = (sz + PS_G - 1) / PS_G;
        p->rdata[i] = p->regs[i].data;
        p->rsize[i] = sz;
        p->shadow[i] = calloc(ng ? ng : 1, sizeof(uint32_t));
        p->mirror[i] = calloc(ng ? ng * PS_G : PS_G, 1);
        if (!p->shadow[i] || !p->mirror[i]) {
            exec_par_free(p);
            return NULL;
        }
    }
    return p;
}

void exec_par_free(exec_par *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nreg; i++) {
        if (p->shadow)
            free((void *)p->shadow[i]);
        if (p->mirror)
            free(p->mirror[i]);
    }
    free((void *)p->shadow);
    free(p->mirror);
    free(p->rdata);
    free(p->rsize);
    free((void *)p->touched);
    free(p);
}

/* The claims for a run from CTA first: the machine's cached ones when its regions are the
 * same (the shadows of touched regions cleared: pages stay mapped between runs, no page faults
 * or unmapping while workers run), else new ones. */
exec_par *exec_par_get(exec_machine *m, uint32_t first)
{
    exec_par *p = m->par_cache;
    m->par_cache = NULL;
    int same = p && p->nreg == m->glob.n && p->regs == m->glob.r;
    for (int i = 0; same && i < p->nreg; i++)
        same = p->rdata[i] == m->glob.r[i].data && p->rsize[i] == m->glob.r[i].size;
    if (!same) {
        exec_par_free(p);
        return exec_par_new(m, first);
    }
    for (int i = 0; i < p->nreg; i++)
        if (atomic_load(&p->touched[i])) {
            memset((void *)p->shadow[i], 0, (p->rsize[i] + PS_G - 1) / PS_G * sizeof(uint32_t));
            atomic_store(&p->touched[i], 0);
        }
    p->first = first;
    atomic_store(&p->red, 0);
    atomic_store(&p->spin, 0);
    return p;
}

/* Keep the claims for the next run while the touched regions' shadows and mirrors stay below
 * EXEC_PAR_CACHE bytes; free them otherwise. */
void exec_par_put(exec_machine *m, exec_par *p)
{
    uint64_t bytes = 0;
    for (int i = 0; p && i < p->nreg; i++)
        if (atomic_load(&p->touched[i]))
            bytes += p->rsize[i] * 2;
    if (!p || bytes > EXEC_PAR_CACHE) {
        exec_par_free(p);
        return;
    }
    exec_par_free(m->par_cache);
    m->par_cache = p;
}

int exec_par_reduced(const exec_par *p) { return atomic_load(&p->red); }

/* Claim granule g of region ri for relative CTA c; mode 0 read, 1 write, 2 reduction.
 * Returns 1 when the granule was already claimed so, 0 when the claim is new, -1 conflict. */
static int par_claim1(exec_par *p, int ri, uint64_t g, uint32_t c, int mode)
{
    _Atomic uint32_t *sh = &p->shadow[ri][g];
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
                if (!atomic_load_explicit(&p->touched[ri], memory_order_relaxed))
                    atomic_store_explicit(&p->touched[ri], 1, memory_order_relaxed);
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
        if ((mode == 1 && k == PS_W && id == c) || (mode == 2 && k == PS_RED))
            return 1;
        if (!(k == PS_FREE || (mode == 1 && k == PS_R1 && id == c)))
            return -1;
        if (!atomic_compare_exchange_weak_explicit(sh, &s, PS_MAKE(PS_LOCK, 0),
                                                   memory_order_acq_rel, memory_order_acquire))
            continue;
        if (!atomic_load_explicit(&p->touched[ri], memory_order_relaxed))
            atomic_store_explicit(&p->touched[ri], 1, memory_order_relaxed);
        /* first change of this granule: keep its old bytes for exec_par_undo */
        const mem_region *r = &p->regs[ri];
        uint64_t off = g * PS_G, n = r->size - off < PS_G ? r->size - off : PS_G;
        memcpy(p->mirror[ri] + off, r->data + off, (size_t)n);
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
    int ri = (int)(r - p->regs);
    if (ri < 0 || ri >= p->nreg || !size)
        return 0;
    uint32_t c = w->cta->id - p->first + 1;
    int known = 1;
    for (uint64_t g = off / PS_G, e = (off + size - 1) / PS_G; g <= e; g++) {
        /* memory the host watches is written in one thread's order only */
        int r1 = mode && r->host ? -1 : par_claim1(p, ri, g, c, mode);
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

/* The lanes m of a warp access n bytes each at addr[] in region r (the span fast path of
 * ld/st): granules this CTA already holds are recognised with one load each. */
int exec_par_claim_lanes(exec_warp *w, const exec_insn *in, const mem_region *r, uint32_t m,
                         const uint64_t *addr, uint32_t n, int mode)
{
    exec_par *p = w->m->par;
    int ri = (int)(r - p->regs);
    if (ri < 0 || ri >= p->nreg)
        return 0;
    uint32_t c = w->cta->id - p->first + 1;
    uint32_t own = PS_MAKE(mode ? PS_W : PS_R1, c), shared = PS_MAKE(PS_RN, 0);
    _Atomic uint32_t *sh = p->shadow[ri];
    int all_known = 1;
    EXEC_FOR_LANES(i, m) {
        uint64_t off = addr[i] - r->base;
        if (off / PS_G == (off + n - 1) / PS_G) {
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
    for (int ri = 0; ri < p->nreg; ri++) {
        const mem_region *r = &p->regs[ri];
        uint64_t ng = (r->size + PS_G - 1) / PS_G;
        for (uint64_t g = 0; g < ng; g++) {
            uint32_t s = atomic_load_explicit(&p->shadow[ri][g], memory_order_relaxed);
            uint32_t k = PS_KIND(s);
            if (!((k == PS_W && ((s & PS_ID_MASK) >= from || all)) || (k == PS_RED && all)))
                continue;
            uint64_t off = g * PS_G, n = r->size - off < PS_G ? r->size - off : PS_G;
            memcpy(r->data + off, p->mirror[ri] + off, (size_t)n);
        }
    }
}
