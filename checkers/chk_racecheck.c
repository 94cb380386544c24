/* chk_racecheck.c - racecheck: shared and global memory hazards between threads with no happens-before. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "chk_int.h"

/* ---------------------------------------------------------------------------------------------
 * Happens-before by vector clocks, made cheap by the shape of GPU synchronisation
 * (docs/CHECKERS.md, docs/ARCHITECTURE.md "Checkers"):
 *
 * UNITS. Every thread of a CTA is a unit, and so is its asynchronous copy unit (the writes of
 * its cp.async and bulk copies, which land "later": they are ordered before the thread only by
 * its cp.async waits and by mbarrier phases). A CTA of T threads has 2T units; unit ids are
 * global: cta * 2T + local + 1 (0 is none).
 *
 * CLOCKS. Each unit has its own clock (clk, aclk), advanced at every event that publishes what
 * it did (a barrier arrival, a warp-synchronous instruction, an mbarrier arrival, a fence, a
 * release). What a thread knows of the others is its base vector clock (rc_vc: the CTA's 2T
 * entries dense, other CTAs' entries sparse in rc_fx), shared and copy-on-write: a completed
 * barrier gives every thread that waited the SAME vector (the join of the arrivals), so a
 * barrier costs O(T) for the whole CTA, not O(T^2); plus, per thread, what it knows of the 32
 * lanes of its warp (wk: warp-synchronous instructions update these 64 entries only, so a
 * shuffle costs O(32^2) whatever T is).
 *
 * SHADOW. Memory is shadowed in 4-byte granules on sparse 4 KB pages (global by address, shared
 * per CTA), made when first touched and freed at each launch (shared: when its CTA ends): per
 * granule the last write (unit, clock, pc, byte mask, strength) and up to two reads not ordered
 * before a later one. An access conflicts with a record of another unit on common bytes when
 * one of them writes, the record's clock is not known to the accessing thread, and they are not
 * both atomics or both strong (.relaxed/.acquire/.release/.volatile/atomic: morally strong
 * accesses do not race). Findings are deduplicated per (kind, pc pair) with a count.
 *
 * ACROSS CTAS only the PTX memory model's patterns order: a release (st/atom .release/.acq_rel/
 * .sc, or a fence followed by a strong write: the first such write after the fence) publishes
 * the thread's clock at the written address; an acquire (ld/atom .acquire, or a strong read
 * followed by a fence) takes what was published there. A .cta-scoped release is seen only by
 * its CTA. A relaxed read-modify-write atomic also takes what was published at its address (the
 * last-block idiom of the threadFenceReduction sample: fence, atomicInc, then read). Kernel
 * boundaries order everything (state is reset at each launch).
 * ------------------------------------------------------------------------------------------- */

#define RC_NBAR 16
#define RC_PAGE_BITS 12
#define RC_PAGE_GRANS (1u << (RC_PAGE_BITS - 2))
#define RC_SHADOW_MAX (1ull << 30)   /* shadow bytes at most; beyond, new pages go unchecked */

/* ---- vector clocks -------------------------------------------------------------------------- */
typedef struct { uint32_t u, c; } rc_ent;
typedef struct {           /* sparse, sorted by unit, immutable once shared */
    int refs;
    uint32_t n;
    rc_ent e[];
} rc_fx;
typedef struct rc_vc {     /* a CTA's units dense (n = 2T) and the others sparse */
    int refs;
    rc_fx *fx;
    struct rc_vc *joined;     /* an accumulator: the last base joined into it (held), so the
                                 threads of a barrier that share one base join it once */
    uint32_t v[];
} rc_vc;

/* ---- shadow --------------------------------------------------------------------------------- */
#define RC_F_STRONG 0x1
#define RC_F_ATOMIC 0x2
#define RC_F_GPU    0x4    /* strong at a scope wider than the CTA */
#define RC_F_READ   0x8    /* a read (shadow records and the access being checked) */
typedef struct { uint32_t u, c, pc; uint8_t mask, fl; } rc_rec;
typedef struct { rc_rec w, r[2]; } rc_gran;
/* A node of a chained hash table (rc_htab): the first member of the structures kept in one. */
typedef struct rc_hnode {
    uint64_t key;
    struct rc_hnode *next;
} rc_hnode;
typedef struct {
    rc_hnode **b;
    uint32_t cap, n;          /* buckets (a power of two, 0 before the first node), nodes */
} rc_htab;

typedef struct rc_page {
    rc_hnode h;                      /* in the shadow pages' table (must stay first) */
    struct rc_page *cnext;           /* the CTA's shared pages */
    rc_gran g[RC_PAGE_GRANS];
} rc_page;

/* Release/acquire points: what was published at an address. */
typedef struct rc_sync {
    rc_hnode h;              /* in the release points' table (must stay first) */
    rc_fx *gpu;              /* releases seen by every CTA */
    rc_fx *cta;              /* .cta-scoped releases, seen by cta_id only */
    uint32_t cta_id;
} rc_sync;

typedef struct {
    uint64_t addr;
    rc_vc *acc;              /* arrivals of the current phase */
    rc_vc *done;             /* the last completed phase */
} rc_mbar;

/* One resident CTA's threads. */
typedef struct {
    uint32_t id;
    uint32_t base;           /* id * 2T: unit u is the CTA's when u - 1 - base < 2T */
    uint32_t *clk, *aclk, *aknown, *fclk;   /* T each */
    uint8_t *fscope;
    rc_vc **vc;
    uint32_t (*wk)[64];
    uint8_t *wkin;           /* per thread: its base vector already holds all that wk says (a
                                barrier gave it one built from its arrival), so a release need
                                not merge wk again; 0 once a warp-synchronous instruction raised
                                wk (rc_warp) */
    rc_fx **seen;            /* the last release point each thread read (a spinning read
                                takes it once) */
    rc_vc *bar[RC_NBAR];     /* arrivals at each CTA barrier */
    uint32_t *barwait;       /* [RC_NBAR][nwarps]: lanes waiting at each barrier */
    rc_mbar *mb;
    uint32_t nmb, capmb;
    rc_page *pages;          /* its shared memory's shadow */
} rc_cta;

typedef struct {
    chk_ctx *c;
    int handle;
    exec_machine *m;
    uint32_t T, nwarps, ncta, nunit;   /* threads per CTA, units per CTA (2T) */
    int live;                /* a launch is being tracked */
    rc_cta **ctas;
    uint32_t nctas, capctas, last;
    rc_cta **byid;           /* by CTA number (grids of up to 2^20 CTAs) */
    rc_htab pages;           /* shadow pages */
    rc_page *plast;          /* the page found last (consecutive lanes mostly share one) */
    uint64_t shadow_bytes;
    int shadow_full;
    rc_htab syncs;           /* release points */
    uint8_t *pcinfo;         /* per pc: 1 + order flags, 0 not computed */
    uint32_t npcinfo;
    struct { rc_vc *src, *with, *res; } cache;   /* the last acquire of a vector clock */
} rc_state;

/* ---- vector clock objects --------------------------------------------------------------------- */
static rc_fx *fx_ref(rc_fx *f) { if (f) f->refs++; return f; }
static void fx_unref(rc_fx *f) { if (f && --f->refs == 0) free(f); }

static rc_fx *fx_new(uint32_t n)
{
    rc_fx *f = malloc(sizeof *f + (size_t)n * sizeof(rc_ent));
    if (f) {
        f->refs = 1;
        f->n = n;
    }
    return f;
}

/* The join of a and b (a new reference; one of them when the other adds nothing). */
static rc_fx *fx_join(rc_fx *a, rc_fx *b)
{
    if (!b || a == b)
        return fx_ref(a);
    if (!a)
        return fx_ref(b);
    rc_fx *r = fx_new(a->n + b->n);
    if (!r)
        return fx_ref(a);
    uint32_t i = 0, j = 0, k = 0;
    int grew = 0;
    while (i < a->n || j < b->n) {
        if (j >= b->n || (i < a->n && a->e[i].u < b->e[j].u)) {
            r->e[k++] = a->e[i++];
        } else if (i >= a->n || b->e[j].u < a->e[i].u) {
            r->e[k++] = b->e[j++];
            grew = 1;
        } else {
            r->e[k] = a->e[i];
            if (b->e[j].c > r->e[k].c) {
                r->e[k].c = b->e[j].c;
                grew = 1;
            }
            k++, i++, j++;
        }
    }
    r->n = k;
    if (!grew) {
        free(r);
        return fx_ref(a);
    }
    return r;
}

static uint32_t fx_get(const rc_fx *f, uint32_t u)
{
    if (!f)
        return 0;
    uint32_t lo = 0, hi = f->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (f->e[mid].u < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < f->n && f->e[lo].u == u ? f->e[lo].c : 0;
}

static rc_vc *vc_new(rc_state *s)
{
    rc_vc *v = calloc(1, sizeof *v + (size_t)s->nunit * sizeof(uint32_t));
    if (v)
        v->refs = 1;
    return v;
}

static void vc_unref(rc_vc *v)
{
    while (v && --v->refs == 0) {
        rc_vc *j = v->joined;
        fx_unref(v->fx);
        free(v);
        v = j;
    }
}

static rc_vc *vc_ref(rc_vc *v)
{
    if (v)
        v->refs++;
    return v;
}

static rc_vc *vc_copy(rc_state *s, const rc_vc *o)
{
    rc_vc *v = malloc(sizeof *v + (size_t)s->nunit * sizeof(uint32_t));
    if (!v)
        return NULL;
    memcpy(v->v, o->v, (size_t)s->nunit * sizeof(uint32_t));
    v->refs = 1;
    v->fx = fx_ref(o->fx);
    v->joined = NULL;
    return v;
}

/* acc (private) joins b */
static rc_vc *vc_ref(rc_vc *v);

static void vc_join(rc_state *s, rc_vc *acc, rc_vc *b)
{
    if (!b || acc == b || acc->joined == b)
        return;
    for (uint32_t i = 0; i < s->nunit; i++)
        if (b->v[i] > acc->v[i])
            acc->v[i] = b->v[i];
    if (b->fx && b->fx != acc->fx) {
        rc_fx *j = fx_join(acc->fx, b->fx);
        fx_unref(acc->fx);
        acc->fx = j;
    }
    if (b->refs > 1) {   /* shared (immutable): remember it */
        rc_vc *old = acc->joined;
        acc->joined = vc_ref(b);
        vc_unref(old);
    }
}

/* ---- CTAs and threads ------------------------------------------------------------------------ */
static void cta_free(rc_state *s, rc_cta *t);

static rc_cta *cta_get(rc_state *s, uint32_t id)
{
    if (s->byid && id < s->ncta && s->byid[id])
        return s->byid[id];
    if (s->last < s->nctas && s->ctas[s->last]->id == id)
        return s->ctas[s->last];
    for (uint32_t i = 0; i < s->nctas; i++)
        if (s->ctas[i]->id == id) {
            s->last = i;
            return s->ctas[i];
        }
    if (!s->live || id >= s->ncta)
        return NULL;
    if (s->nctas == s->capctas) {
        uint32_t nc = s->capctas ? s->capctas * 2 : 8;
        rc_cta **n = realloc(s->ctas, nc * sizeof *n);
        if (!n)
            return NULL;
        s->ctas = n;
        s->capctas = nc;
    }
    uint32_t T = s->T;
    rc_cta *t = calloc(1, sizeof *t);
    rc_vc *zero = vc_new(s);
    if (!t || !zero) {
        free(t);
        vc_unref(zero);
        return NULL;
    }
    t->id = id;
    t->base = id * s->nunit;
    t->clk = malloc(T * sizeof *t->clk);
    t->aclk = malloc(T * sizeof *t->aclk);
    t->aknown = calloc(T, sizeof *t->aknown);
    t->fclk = calloc(T, sizeof *t->fclk);
    t->fscope = calloc(T, 1);
    t->vc = malloc(T * sizeof *t->vc);
    t->wk = calloc(T, sizeof *t->wk);
    t->wkin = malloc(T);
    t->seen = calloc(T, sizeof *t->seen);
    t->barwait = calloc((size_t)RC_NBAR * s->nwarps, sizeof *t->barwait);
    if (!t->clk || !t->aclk || !t->aknown || !t->fclk || !t->fscope || !t->vc || !t->wk ||
        !t->wkin || !t->seen || !t->barwait) {
        free(t->vc);
        t->vc = NULL;
        cta_free(s, t);
        vc_unref(zero);
        return NULL;
    }
    for (uint32_t i = 0; i < T; i++) {
        t->clk[i] = 1;
        t->aclk[i] = 1;
        t->wkin[i] = 1;   /* wk is all zero */
        t->vc[i] = vc_ref(zero);
    }
    vc_unref(zero);
    s->ctas[s->nctas] = t;
    s->last = s->nctas++;
    if (s->byid)
        s->byid[id] = t;
    return t;
}

static uint32_t rc_unit(const rc_state *s, uint32_t cta, uint32_t local)
{
    return cta * s->nunit + local + 1;
}

/* What thread tid of CTA t knows of unit u (global id): the clock of u's last event it is
 * ordered after. */
static inline __attribute__((always_inline)) uint32_t rc_knows(const rc_state *s,
                                                               const rc_cta *t, uint32_t tid,
                                                               uint32_t u)
{
    uint32_t loc = u - 1 - t->base;
    const rc_vc *v = t->vc[tid];
    if (loc >= s->nunit)   /* another CTA's unit */
        return fx_get(v->fx, u);
    if (loc == tid)
        return t->clk[tid];
    uint32_t k = v->v[loc], w = tid / 32;
    if (loc == s->T + tid && t->aknown[tid] > k)
        k = t->aknown[tid];
    uint32_t lt = loc < s->T ? loc : loc - s->T;
    if (lt / 32 == w) {
        uint32_t x = t->wk[tid][(loc < s->T ? 0 : 32) + lt % 32];
        if (x > k)
            k = x;
    }
    return k;
}

/* Whether thread tid is ordered after clock c of unit u (rc_knows(u) >= c), for u not tid's own
 * unit. Two cheap answers first: the base vector's entry (what a barrier ordered) suffices; and
 * a thread of the CTA whose clock is still c has not published c (every publication advances
 * the clock: barrier and mbarrier arrivals, warp-synchronous instructions, fences, releases),
 * so nobody knows it (its warp-mates' reads of the same instruction, for one). */
static inline __attribute__((always_inline)) int rc_known(const rc_state *s, const rc_cta *t,
                                                          uint32_t tid, uint32_t u, uint32_t c)
{
    uint32_t loc = u - 1 - t->base;
    if (loc < s->nunit) {
        if (t->vc[tid]->v[loc] >= c)
            return 1;
        if (loc < s->T && loc != tid && t->clk[loc] == c)
            return 0;
    }
    return rc_knows(s, t, tid, u) >= c;
}

/* Thread tid publishes what it knows (its own clock as `own`) into acc (private). */
static void rc_release_into(rc_state *s, rc_cta *t, uint32_t tid, rc_vc *acc, uint32_t own)
{
    vc_join(s, acc, t->vc[tid]);
    uint32_t T = s->T, w0 = tid / 32 * 32;
    for (uint32_t l = 0; l < 32 && w0 + l < T && !t->wkin[tid]; l++) {
        if (t->wk[tid][l] > acc->v[w0 + l])
            acc->v[w0 + l] = t->wk[tid][l];
        if (t->wk[tid][32 + l] > acc->v[T + w0 + l])
            acc->v[T + w0 + l] = t->wk[tid][32 + l];
    }
    if (own > acc->v[tid])
        acc->v[tid] = own;
    if (t->aknown[tid] > acc->v[T + tid])
        acc->v[T + tid] = t->aknown[tid];
}

/* Thread tid takes the knowledge of b (shared; a join with its own base). */
static void rc_acquire_vc(rc_state *s, rc_cta *t, uint32_t tid, rc_vc *b)
{
    rc_vc *cur = t->vc[tid];
    if (!b || cur == b)
        return;
    if (s->cache.src == cur && s->cache.with == b && s->cache.res) {
        vc_unref(cur);
        t->vc[tid] = vc_ref(s->cache.res);
        return;
    }
    rc_vc *n = vc_copy(s, cur);
    if (!n)
        return;
    vc_join(s, n, b);
    vc_unref(s->cache.src);
    vc_unref(s->cache.res);
    vc_unref(s->cache.with);
    s->cache.src = vc_ref(cur);
    s->cache.with = vc_ref(b);
    s->cache.res = vc_ref(n);
    vc_unref(cur);
    t->vc[tid] = n;
}

/* Thread tid takes what was published at a release point (global unit ids): one merge. */
static void rc_acquire_fx(rc_state *s, rc_cta *t, uint32_t tid, rc_fx *f)
{
    if (!f || !f->n)
        return;
    rc_vc *cur = t->vc[tid];
    rc_fx *j = fx_join(cur->fx, f);
    uint32_t lo = rc_unit(s, t->id, 0), hi = lo + s->nunit;
    /* this CTA's entries go to the dense part (binary search for its range) */
    uint32_t a = 0, b = f->n;
    while (a < b) {
        uint32_t mid = (a + b) / 2;
        if (f->e[mid].u < lo)
            a = mid + 1;
        else
            b = mid;
    }
    int grow = j != cur->fx;
    for (uint32_t i = a; i < f->n && f->e[i].u < hi && !grow; i++)
        grow = f->e[i].c > cur->v[f->e[i].u - lo];
    if (!grow) {
        fx_unref(j);
        return;
    }
    rc_vc *n = cur->refs == 1 ? cur : vc_copy(s, cur);
    if (!n) {
        fx_unref(j);
        return;
    }
    for (uint32_t i = a; i < f->n && f->e[i].u < hi; i++)
        if (f->e[i].c > n->v[f->e[i].u - lo])
            n->v[f->e[i].u - lo] = f->e[i].c;
    fx_unref(n->fx);
    n->fx = j;
    if (n != cur) {
        vc_unref(cur);
        t->vc[tid] = n;
    }
}

/* What thread tid knows, in global unit ids (for a release point). */
static rc_fx *rc_globalize(rc_state *s, rc_cta *t, uint32_t tid, uint32_t own)
{
    rc_vc *acc = vc_new(s);
    if (!acc)
        return NULL;
    rc_release_into(s, t, tid, acc, own);
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->nunit; i++)
        n += acc->v[i] != 0;
    rc_fx *loc = fx_new(n);
    rc_fx *r = NULL;
    if (loc) {
        uint32_t k = 0, base = rc_unit(s, t->id, 0);
        for (uint32_t i = 0; i < s->nunit; i++)
            if (acc->v[i])
                loc->e[k++] = (rc_ent){ base + i, acc->v[i] };
        r = fx_join(acc->fx, loc);
        fx_unref(loc);
    }
    vc_unref(acc);
    return r;
}

static void cta_free(rc_state *s, rc_cta *t)
{
    if (!t)
        return;
    if (t->vc)
        for (uint32_t i = 0; i < s->T; i++)
            vc_unref(t->vc[i]);
    if (t->seen)
        for (uint32_t i = 0; i < s->T; i++)
            fx_unref(t->seen[i]);
    for (int b = 0; b < RC_NBAR; b++)
        vc_unref(t->bar[b]);
    for (uint32_t i = 0; i < t->nmb; i++) {
        vc_unref(t->mb[i].acc);
        vc_unref(t->mb[i].done);
    }
    free(t->mb);
    free(t->clk);
    free(t->aclk);
    free(t->aknown);
    free(t->fclk);
    free(t->fscope);
    free(t->vc);
    free(t->wk);
    free(t->wkin);
    free(t->seen);
    free(t->barwait);
    free(t);
}

/* ---- shadow pages ----------------------------------------------------------------------------- */
static uint64_t rc_key(ptx_space sp, uint32_t cta, uint64_t addr)
{
    uint64_t pg = addr >> RC_PAGE_BITS;
    if (sp == PTX_SPACE_SHARED)
        return (1ull << 63) | ((uint64_t)cta << 24) | (pg & 0xffffff);
    return pg & ~(1ull << 63);
}

static uint32_t rc_hash(uint64_t k, uint32_t cap)
{
    k ^= k >> 29;
    k *= 0x9e3779b97f4a7c15ull;
    return (uint32_t)(k >> 32) & (cap - 1);
}

/* ---- chained hash tables: shadow pages and release points ------------------------------------- */
static rc_hnode *ht_find(const rc_htab *t, uint64_t key)
{
    if (t->cap)
        for (rc_hnode *e = t->b[rc_hash(key, t->cap)]; e; e = e->next)
            if (e->key == key)
                return e;
    return NULL;
}

/* Add node e under key, doubling the buckets (from `first`) at half load; -1 when out of memory
 * (e is then not added). */
static int ht_add(rc_htab *t, rc_hnode *e, uint64_t key, uint32_t first)
{
    if (t->n + 1 > t->cap / 2) {
        uint32_t nc = t->cap ? t->cap * 2 : first;
        rc_hnode **nb = calloc(nc, sizeof *nb);
        if (!nb)
            return -1;
        for (uint32_t i = 0; i < t->cap; i++)
            for (rc_hnode *x = t->b[i], *nx; x; x = nx) {
                nx = x->next;
                uint32_t k = rc_hash(x->key, nc);
                x->next = nb[k];
                nb[k] = x;
            }
        free(t->b);
        t->b = nb;
        t->cap = nc;
    }
    uint32_t k = rc_hash(key, t->cap);
    e->key = key;
    e->next = t->b[k];
    t->b[k] = e;
    t->n++;
    return 0;
}

static void ht_unlink(rc_htab *t, rc_hnode *e)
{
    rc_hnode **pp = &t->b[rc_hash(e->key, t->cap)];
    while (*pp && *pp != e)
        pp = &(*pp)->next;
    if (*pp) {
        *pp = e->next;
        t->n--;
    }
}

/* Empty the table, each node going to drop. */
static void ht_clear(rc_htab *t, void (*drop)(rc_hnode *))
{
    for (uint32_t i = 0; i < t->cap; i++)
        for (rc_hnode *x = t->b[i], *nx; x; x = nx) {
            nx = x->next;
            drop(x);
        }
    free(t->b);
    memset(t, 0, sizeof *t);
}

static void rc_page_unlink(rc_state *s, rc_page *p)
{
    if (s->plast == p)
        s->plast = NULL;
    ht_unlink(&s->pages, &p->h);
    s->shadow_bytes -= sizeof *p;
    free(p);
}

static rc_page *rc_page_get(rc_state *s, rc_cta *t, ptx_space sp, uint64_t addr)
{
    uint64_t key = rc_key(sp, t ? t->id : 0, addr);
    if (s->plast && s->plast->h.key == key)
        return s->plast;
    rc_hnode *e = ht_find(&s->pages, key);
    if (e)
        return s->plast = (rc_page *)e;
    if (s->shadow_bytes + sizeof(rc_page) > RC_SHADOW_MAX) {
        s->shadow_full = 1;
        return NULL;
    }
    rc_page *p = calloc(1, sizeof *p);
    if (!p || ht_add(&s->pages, &p->h, key, 1024)) {
        free(p);
        return NULL;
    }
    if (sp == PTX_SPACE_SHARED && t) {
        p->cnext = t->pages;
        t->pages = p;
    }
    s->shadow_bytes += sizeof *p;
    return s->plast = p;
}

/* ---- release points --------------------------------------------------------------------------- */
static rc_sync *rc_sync_get(rc_state *s, uint64_t key, int make)
{
    rc_hnode *e = ht_find(&s->syncs, key);
    if (e || !make)
        return (rc_sync *)e;
    rc_sync *y = calloc(1, sizeof *y);
    if (!y || ht_add(&s->syncs, &y->h, key, 256)) {
        free(y);
        return NULL;
    }
    return y;
}

static uint64_t rc_sync_key(ptx_space sp, uint32_t cta, uint64_t addr)
{
    return sp == PTX_SPACE_SHARED ? (1ull << 63) | ((uint64_t)cta << 32) | (addr & 0xffffffffu)
                                  : addr & ~(1ull << 63);
}

/* ---- the launch's state ------------------------------------------------------------------------ */
static void rc_page_drop(rc_hnode *e) { free(e); }
static void rc_sync_drop(rc_hnode *e)
{
    rc_sync *y = (rc_sync *)e;
    fx_unref(y->gpu);
    fx_unref(y->cta);
    free(y);
}

static void rc_reset(rc_state *s)
{
    for (uint32_t i = 0; i < s->nctas; i++)
        cta_free(s, s->ctas[i]);
    s->nctas = 0;
    s->last = 0;
    ht_clear(&s->pages, rc_page_drop);
    s->plast = NULL;
    s->shadow_bytes = 0;
    s->shadow_full = 0;
    ht_clear(&s->syncs, rc_sync_drop);
    vc_unref(s->cache.src);
    vc_unref(s->cache.res);
    vc_unref(s->cache.with);
    memset(&s->cache, 0, sizeof s->cache);
    free(s->pcinfo);
    s->pcinfo = NULL;
    s->npcinfo = 0;
    free(s->byid);
    s->byid = NULL;
    s->live = 0;
}

static void rc_launch(rc_state *s, exec_machine *m)
{
    rc_reset(s);
    const exec_launch_info *li = exec_current_launch(m);
    if (!li)
        return;
    uint64_t th = (uint64_t)(li->block.x ? li->block.x : 1) * (li->block.y ? li->block.y : 1) *
                  (li->block.z ? li->block.z : 1);
    uint64_t nc = (uint64_t)(li->grid.x ? li->grid.x : 1) * (li->grid.y ? li->grid.y : 1) *
                  (li->grid.z ? li->grid.z : 1);
    s->nwarps = (uint32_t)((th + 31) / 32);
    s->T = s->nwarps * 32;
    s->nunit = 2 * s->T;
    /* unit ids must fit 32 bits: CTAs beyond go unchecked */
    uint64_t fit = (UINT32_MAX - 1) / s->nunit;
    s->ncta = (uint32_t)(nc < fit ? nc : fit);
    if (s->ncta <= (1u << 20))
        s->byid = calloc(s->ncta, sizeof *s->byid);
    s->live = 1;
}

/* Order flags of the instruction at pc (cached). */
static uint8_t rc_pcinfo(rc_state *s, exec_machine *m, uint32_t pc)
{
    if (pc >= s->npcinfo) {
        uint32_t n = exec_ninsns(m);
        if (pc >= n)
            return 0;
        uint8_t *p = realloc(s->pcinfo, n);
        if (!p)
            return 0;
        memset(p + s->npcinfo, 0, n - s->npcinfo);
        s->pcinfo = p;
        s->npcinfo = n;
    }
    if (s->pcinfo[pc])
        return s->pcinfo[pc] - 1;
    uint8_t sem = EXEC_SEM_WEAK, scope = EXEC_SCOPE_NONE, fl = 0;
    const ptx_func *f;
    const ptx_insn *pi = NULL;
    exec_pc_order(m, pc, &sem, &scope);
    exec_pc_insn(m, pc, &f, &pi);
    if (sem != EXEC_SEM_WEAK)
        fl |= RC_F_STRONG;
    if (sem == EXEC_SEM_VOLATILE)
        scope = EXEC_SCOPE_SYS;
    /* ld/st .cg and .cv go to the coherent level (L2) every time: what CUB's decoupled look-back
       and older inter-block code communicate through; taken as relaxed at gpu scope */
    if (sem == EXEC_SEM_WEAK && pi && (ptx_insn_has_mod(pi, "cg") || ptx_insn_has_mod(pi, "cv"))) {
        sem = EXEC_SEM_RELAXED;
        scope = EXEC_SCOPE_GPU;
    }
    if (scope >= EXEC_SCOPE_CLUSTER)
        fl |= RC_F_GPU;
    /* atom/red, and mbarrier operations on their object (atomic at CTA scope) */
    if (pi && (ptx_op_is(pi, PTX_OPF_ATOMIC) || pi->opc == PTX_OPC_mbarrier))
        fl |= RC_F_ATOMIC | RC_F_STRONG | (pi->opc == PTX_OPC_mbarrier ? 0 : RC_F_GPU);
    /* 0x10 acquire, 0x20 release (explicit semantics) */
    if (sem == EXEC_SEM_ACQUIRE || sem == EXEC_SEM_ACQ_REL || sem == EXEC_SEM_SC)
        fl |= 0x10;
    if (sem == EXEC_SEM_RELEASE || sem == EXEC_SEM_ACQ_REL || sem == EXEC_SEM_SC)
        fl |= 0x20;
    /* an explicit st.relaxed at gpu or system scope publishes as a release does: CUB's
       decoupled look-back (thrust's scans, unique, copy_if) orders a tile's reads before the
       status it stores relaxed, and the next tile's writes after reading it (docs/CHECKERS.md) */
    if (sem == EXEC_SEM_RELAXED && scope >= EXEC_SCOPE_GPU && pi && pi->opc == PTX_OPC_st &&
        ptx_insn_has_mod(pi, "relaxed"))
        fl |= 0x20;
    if (scope == EXEC_SCOPE_CTA)
        fl |= 0x40;
    s->pcinfo[pc] = (uint8_t)(fl + 1);
    return fl;
}

/* ---- findings ------------------------------------------------------------------------------- */
static uint64_t rc_bytes_val(const uint8_t *b, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

static void rc_report(rc_state *s, exec_machine *m, const exec_mem_ev *ev, uint32_t lane,
                      const rc_rec *r, int first_write, uint64_t addr)
{
    chk_ctx *c = s->c;
    int second_write = ev->kind != EXEC_ACC_READ;
    uint8_t now[8], mine[8];
    int nb = ev->size < 8 ? (int)ev->size : 8, nmine = -1;
    const uint8_t *h = exec_mem_ev_bytes(ev, lane);
    if (h)
        memcpy(now, h, (size_t)nb);
    if (second_write)
        nmine = exec_mem_ev_stored(ev, lane, mine, (size_t)nb);
    /* the first party in this same event (lanes of one warp in lockstep): its write is not
       performed yet (observers run first): its value is the one it is about to store */
    uint32_t g0 = r->u - 1, l0 = g0 % s->nunit % 32;
    if (first_write && h && g0 / s->nunit == ev->cta && g0 % s->nunit < s->T &&
        g0 % s->nunit / 32 == ev->warp && (ev->lanes >> l0 & 1) && r->pc == ev->pc &&
        exec_mem_ev_addr(ev, l0) == exec_mem_ev_addr(ev, lane) &&
        exec_mem_ev_stored(ev, l0, now, (size_t)nb) != nb)
        h = NULL;
    chk_kind kind = first_write ? (second_write ? CHK_K_RACE_WW : CHK_K_RACE_WR) : CHK_K_RACE_RW;
    if (kind == CHK_K_RACE_WW && h && nmine == nb && !memcmp(now, mine, (size_t)nb))
        kind = CHK_K_RACE_SAME;
    const void *mod = exec_module(m);
    chk_finding *f = chk_find(c, CHK_RACECHECK, kind, mod, r->pc, ev->pc);
    if (f) {
        chk_repeat(c, m, ev, lane, f, 0);
        return;
    }
    if (!(f = chk_add(c, CHK_RACECHECK, kind, mod)))
        return;
    f->severity = kind == CHK_K_RACE_SAME ? CHK_SEV_WARNING : CHK_SEV_ERROR;
    f->space = ev->space;
    f->addr = addr;
    f->size = ev->size;
    f->access = ev->kind;
    f->nparties = 2;
    uint32_t g = r->u - 1, cta = g / s->nunit, loc = g % s->nunit;
    if (loc >= s->T)
        loc -= s->T;   /* an asynchronous copy: the thread that issued it */
    chk_party_fill(c, m, &f->party[0], cta, loc / 32, loc % 32, r->pc,
                   first_write ? EXEC_ACC_WRITE : EXEC_ACC_READ);
    chk_party_fill(c, m, &f->party[1], ev->cta, ev->warp, lane, ev->pc, ev->kind);
    chk_launch_fill(c, m, f);
    if (h) {
        f->race_val[0] = rc_bytes_val(now, nb);
        f->race_nval[0] = (uint8_t)nb;
        if (!second_write) {
            f->race_val[1] = f->race_val[0];
            f->race_nval[1] = (uint8_t)nb;
        }
    }
    if (second_write && nmine == nb) {
        f->race_val[1] = rc_bytes_val(mine, nb);
        f->race_nval[1] = (uint8_t)nb;
    }
    chk_deliver(c, m, ev, lane, f);
}

/* ---- accesses ------------------------------------------------------------------------------- */
/* Pairs that are not hazards: two atomics; a plain read and an atomic (a CAS loop's first
 * read, a polled counter); a strong access (volatile, relaxed, acquire, release) and a plain one
 * (the program declares the word a synchronisation variable: optimistic readers, flags written
 * plainly); two strong accesses whose scopes include each other's thread. A plain write and an
 * atomic, or two plain accesses, are hazards. */
static inline __attribute__((always_inline)) int rc_exempt(uint8_t a, uint8_t b, int same_cta)
{
    if (!((a | b) & (RC_F_ATOMIC | RC_F_STRONG)))
        return 0;   /* two plain accesses (what follows says the same, in more tests) */
    if ((a & RC_F_ATOMIC) && (b & RC_F_ATOMIC))
        return 1;
    if (((a & RC_F_ATOMIC) && (b & RC_F_READ)) || ((b & RC_F_ATOMIC) && (a & RC_F_READ)))
        return 1;
    int sa = (a & RC_F_STRONG) && !(a & RC_F_ATOMIC), sb = (b & RC_F_STRONG) && !(b & RC_F_ATOMIC);
    if (sa != sb && !((a | b) & RC_F_ATOMIC))
        return 1;
    if (!(a & RC_F_STRONG) || !(b & RC_F_STRONG))
        return 0;
    return same_cta || ((a & RC_F_GPU) && (b & RC_F_GPU));
}

/* One lane's access of one granule (the bytes `mask` of g): checked against the granule's records
 * (one finding per access: `reported` says one was made) and recorded. The per-lane loop
 * (rc_lane) and the warp path (rc_access) both apply it, lane after lane in lane order. */
static inline __attribute__((always_inline)) int
rc_gran_do(rc_state *s, exec_machine *m, const exec_mem_ev *ev, rc_cta *t, uint32_t tid,
           uint32_t lane, rc_gran *g, uint8_t mask, uint32_t me, uint32_t clock, uint8_t fl,
           int reported, uint64_t addr, uint8_t *run)
{
    int write = ev->kind != EXEC_ACC_READ;
    /* the last write */
    if (g->w.u && g->w.u != me && (g->w.mask & mask) && !reported) {
        int same = g->w.u - 1 - t->base < s->nunit;
        if (!rc_exempt(g->w.fl, fl, same) && !rc_known(s, t, tid, g->w.u, g->w.c)) {
            rc_report(s, m, ev, lane, &g->w, 1, addr);
            reported = 1;
        }
    }
    if (write) {
        for (int k = 0; k < 2 && !reported; k++) {
            rc_rec *r = &g->r[k];
            if (!r->u || r->u == me || !(r->mask & mask))
                continue;
            int same = r->u - 1 - t->base < s->nunit;
            if (!rc_exempt(r->fl, fl, same) && !rc_known(s, t, tid, r->u, r->c)) {
                rc_report(s, m, ev, lane, r, 0, addr);
                reported = 1;
            }
        }
        g->w = (rc_rec){ me, clock, ev->pc, mask, fl };
        for (int k = 0; k < 2; k++)
            if (!(g->r[k].mask & ~mask))
                memset(&g->r[k], 0, sizeof g->r[k]);
        if (ev->kind == EXEC_ACC_ATOMIC) {   /* an atomic reads too */
            memset(&g->r[0], 0, sizeof g->r[0]);
            g->r[0] = (rc_rec){ me, clock, ev->pc, mask, fl };
        }
    } else {
        /* keep reads not ordered before this one; replace this unit's or an ordered one */
        int slot = -1;
        uint32_t skip = run ? *run : 0;
        for (int k = 0; k < 2 && slot < 0; k++)
            if (!(skip >> k & 1) && (!g->r[k].u || g->r[k].u == me))
                slot = k;
        for (int k = 0; k < 2 && slot < 0; k++)
            if (!(skip >> k & 1) && rc_known(s, t, tid, g->r[k].u, g->r[k].c))
                slot = k;
        if (slot < 0)
            slot = 1;
        g->r[slot] = (rc_rec){ me, clock, ev->pc, mask, fl };
        if (run)
            *run |= (uint8_t)(1u << slot);
    }
    return reported;
}

/* One lane's access: check it against the shadow and record it. Returns 1 when a hazard was
 * reported (one finding per access). */
static int rc_lane(rc_state *s, exec_machine *m, const exec_mem_ev *ev, rc_cta *t, uint32_t lane,
                   uint8_t info)
{
    uint32_t tid = ev->warp * 32 + lane;
    if (tid >= s->T)
        return 0;
    int async = (ev->flags & EXEC_ACC_F_ASYNC) != 0;
    uint32_t me = rc_unit(s, t->id, async ? s->T + tid : tid);
    uint32_t clock = async ? t->aclk[tid] : t->clk[tid];
    int write = ev->kind != EXEC_ACC_READ, reported = 0;
    uint8_t fl = info & 7;
    if (ev->kind == EXEC_ACC_ATOMIC || ev->kind == EXEC_ACC_RED)
        fl |= RC_F_ATOMIC | RC_F_STRONG | RC_F_GPU;
    if (ev->kind == EXEC_ACC_READ)
        fl |= RC_F_READ;
    uint64_t addr = exec_mem_ev_addr(ev, lane);
    if (ev->space == PTX_SPACE_SHARED && addr >= EXEC_OBS_SMEM_SYSTEM &&
        addr < (uint64_t)EXEC_OBS_SMEM_SYSTEM + 1024)
        return 0;   /* the CUDA library's reserved shared memory (cooperative groups' state) */
    /* acquires: what was published here */
    if ((fl & RC_F_STRONG) && ev->kind != EXEC_ACC_WRITE && !async) {
        rc_sync *y = rc_sync_get(s, rc_sync_key(ev->space, t->id, addr), 0);
        rc_fx *f = y ? y->gpu : NULL;
        rc_fx *fc = y && y->cta && y->cta_id == t->id ? y->cta : NULL;
        if (f && t->seen[tid] != f) {   /* a spinning read takes a release point once */
            rc_acquire_fx(s, t, tid, f);
            fx_unref(t->seen[tid]);
            t->seen[tid] = fx_ref(f);
        }
        rc_acquire_fx(s, t, tid, fc);
    }
    uint64_t end = addr + ev->size;
    for (uint64_t ga = addr & ~3ull; ga < end; ga += 4) {
        rc_page *p = rc_page_get(s, t, ev->space, ga);
        if (!p)
            break;
        rc_gran *g = &p->g[(ga >> 2) & (RC_PAGE_GRANS - 1)];
        /* the granule's bytes in [addr, end) */
        uint32_t lo = addr > ga ? (uint32_t)(addr - ga) : 0;
        uint32_t hi = end - ga < 4 ? (uint32_t)(end - ga) : 4;
        uint8_t mask = (uint8_t)(((1u << hi) - 1) & ~((1u << lo) - 1));
        reported = rc_gran_do(s, m, ev, t, tid, lane, g, mask, me, clock, fl, reported, addr,
                              NULL);
    }
    /* releases: publish what this thread knows here */
    if (write && !async && (fl & RC_F_STRONG) && ((info & 0x20) || t->fclk[tid])) {
        uint32_t own = (info & 0x20) ? t->clk[tid] : t->fclk[tid];
        int cta_scope = (info & 0x20) ? (info & 0x40) != 0
                                      : t->fscope[tid] == EXEC_SCOPE_CTA;
        rc_sync *y = rc_sync_get(s, rc_sync_key(ev->space, t->id, addr), 1);
        rc_fx *mine = y ? rc_globalize(s, t, tid, own) : NULL;
        if (y && mine) {
            rc_fx **slot = cta_scope ? &y->cta : &y->gpu;
            if (cta_scope && y->cta_id != t->id) {
                fx_unref(y->cta);
                y->cta = NULL;
                y->cta_id = t->id;
            }
            /* the release replaces what was published (a later plain store ends a release
               sequence; a read-modify-write acquired the point first, so it knows it) */
            fx_unref(*slot);
            *slot = fx_ref(mine);
        }
        fx_unref(mine);
        t->fclk[tid] = 0;
        if (info & 0x20)
            t->clk[tid]++;
    }
    return reported;
}

static int rc_access(void *ctx, exec_machine *m, const exec_mem_ev *ev)
{
    rc_state *s = ctx;
    if (!s->live || ev->status != EXEC_ACC_OK || !ev->lanes ||
        (ev->space != PTX_SPACE_GLOBAL && ev->space != PTX_SPACE_SHARED) ||
        (ev->flags & EXEC_ACC_F_OBJ))
        return EXEC_OBS_GO;
    rc_cta *t = cta_get(s, ev->cta);
    if (!t)
        return EXEC_OBS_GO;
    uint8_t info = rc_pcinfo(s, m, ev->pc);
    uint32_t lanes = ev->lanes;
    if (!(ev->flags & EXEC_ACC_F_ASYNC) && !(info & RC_F_STRONG) && ev->size >= 1 &&
        ev->size <= 4 && (ev->kind == EXEC_ACC_READ || ev->kind == EXEC_ACC_WRITE)) {
        /* A plain load or store of up to 4 bytes (no acquire or release to take part in): the
           warp's lanes in lane order, each lane's rule as rc_lane applies it, with what is the
           same for every lane worked out once and the page kept from lane to lane. */
        uint8_t fl = (uint8_t)((info & 7) | (ev->kind == EXEC_ACC_READ ? RC_F_READ : 0));
        uint32_t w0 = ev->warp * 32, ubase = t->base + 1, size = (uint32_t)ev->size;
        uint64_t pkey = UINT64_MAX;
        rc_page *p = NULL;
        /* A read's run: lanes one after the other reading the same bytes of one granule (a
           broadcast load). The slots that earlier lanes of the run filled hold records that are
           not empty, not this lane's and not ordered before it (a lane's clock is published
           only by advancing it, so no thread knows another's current clock): the tests
           rc_gran_do makes on them are skipped, with the same outcome. */
        rc_gran *rg = NULL;
        uint8_t rmask = 0, rslots = 0;
        uint64_t raddr = UINT64_MAX;   /* the address of the run's last read */
        int wany = 0;                /* the run's bytes are not the last write's */
        const rc_vc *wok = NULL;     /* a base vector that orders the last write */
        const uint32_t base = t->base, nunit = s->nunit, pc = ev->pc;
        const uint32_t *clk = t->clk;
        while (lanes) {
            uint32_t lane = (uint32_t)__builtin_ctz(lanes), tid = w0 + lane;
            lanes &= lanes - 1;
            if (tid >= s->T)
                continue;
            uint64_t addr = exec_mem_ev_addr(ev, lane);
            rc_gran *g = rg;
            uint8_t mask = rmask;
            if (addr != raddr) {   /* not the address of the read before (a broadcast) */
                if ((addr & 3) + size > 4 ||
                    (ev->space == PTX_SPACE_SHARED && addr >= EXEC_OBS_SMEM_SYSTEM)) {
                    rc_lane(s, m, ev, t, lane, info);   /* two granules, or reserved memory */
                    pkey = UINT64_MAX;
                    rg = NULL;
                    raddr = UINT64_MAX;
                    continue;
                }
                if (addr >> RC_PAGE_BITS != pkey) {
                    p = rc_page_get(s, t, ev->space, addr);
                    pkey = addr >> RC_PAGE_BITS;
                }
                if (!p)
                    continue;   /* the shadow is full */
                g = &p->g[(addr >> 2) & (RC_PAGE_GRANS - 1)];
                mask = (uint8_t)(((1u << size) - 1) << (addr & 3));
            }
            if (ev->kind != EXEC_ACC_READ) {
                rc_gran_do(s, m, ev, t, tid, lane, g, mask, ubase + tid, t->clk[tid], fl, 0,
                           addr, NULL);
                continue;
            }
            uint32_t me = ubase + tid;
            const rc_vc *mv = t->vc[tid];
            raddr = addr;
            if (g != rg || mask != rmask) {
                rg = g;
                rmask = mask;
                rslots = 0;
                wany = 0;
                wok = NULL;
            } else if (rslots == 3 && (wany || wok == mv)) {
                /* both slots hold the run's records, so this read goes to slot 1, and the last
                   write needs no check: it overlaps none of these bytes, or the base vector
                   this lane shares with an earlier lane of the run orders it */
                rc_rec *r = &g->r[1];
                r->u = me;
                r->c = clk[tid];
                r->pc = pc;
                r->mask = mask;
                r->fl = fl;
                continue;
            }
            /* rc_gran_do's read, with what it reads of the state held in locals (its stores
               to the granule would otherwise make the compiler load them again) */
            rc_rec w = g->w;
            if (!w.u || !(w.mask & mask)) {
                wany = 1;
            } else if (w.u != me) {
                uint32_t loc = w.u - 1 - base;
                if (loc < nunit && mv->v[loc] >= w.c)
                    wok = mv;
                else if (!rc_exempt(w.fl, fl, loc < nunit) && !rc_known(s, t, tid, w.u, w.c))
                    rc_report(s, m, ev, lane, &g->w, 1, addr);
            }
            uint32_t u0 = g->r[0].u, u1 = g->r[1].u;
            int slot;
            if (!(rslots & 1) && (!u0 || u0 == me))
                slot = 0;
            else if (!(rslots & 2) && (!u1 || u1 == me))
                slot = 1;
            else if (!(rslots & 1) && rc_known(s, t, tid, u0, g->r[0].c))
                slot = 0;
            else
                slot = 1;   /* ordered before this read, or the slot replaced when none is */
            rc_rec *r = &g->r[slot];   /* field by field: no padding to clear */
            r->u = me;
            r->c = clk[tid];
            r->pc = pc;
            r->mask = mask;
            r->fl = fl;
            rslots |= (uint8_t)(1u << slot);
        }
        return EXEC_OBS_GO;
    }
    while (lanes) {
        uint32_t lane = (uint32_t)__builtin_ctz(lanes);
        lanes &= lanes - 1;
        rc_lane(s, m, ev, t, lane, info);
    }
    return EXEC_OBS_GO;
}

/* ---- sync events ------------------------------------------------------------------------------ */
static rc_mbar *rc_mbar_get(rc_cta *t, uint64_t addr)
{
    for (uint32_t i = 0; i < t->nmb; i++)
        if (t->mb[i].addr == addr)
            return &t->mb[i];
    if (t->nmb == t->capmb) {
        uint32_t nc = t->capmb ? t->capmb * 2 : 8;
        rc_mbar *n = realloc(t->mb, nc * sizeof *n);
        if (!n)
            return NULL;
        t->mb = n;
        t->capmb = nc;
    }
    rc_mbar *b = &t->mb[t->nmb++];
    memset(b, 0, sizeof *b);
    b->addr = addr;
    return b;
}

/* Lanes of a warp synchronise with each other (bar.warp.sync, shuffles, votes ...). */
static void rc_warp(rc_state *s, rc_cta *t, uint32_t warp, uint32_t lanes)
{
    uint32_t w0 = warp * 32, T = s->T;
    if (w0 >= T || !lanes)
        return;
    rc_vc *base = NULL;
    int differ = 0;
    for (uint32_t l = 0; l < 32; l++)
        if (lanes >> l & 1) {
            if (!base)
                base = t->vc[w0 + l];
            else if (t->vc[w0 + l] != base)
                differ = 1;
        }
    if (differ) {   /* bases differ (acquires of their own): join them */
        rc_vc *acc = vc_new(s);
        if (!acc)
            return;
        for (uint32_t l = 0; l < 32; l++)
            if (lanes >> l & 1)
                vc_join(s, acc, t->vc[w0 + l]);
        for (uint32_t l = 0; l < 32; l++)
            if (lanes >> l & 1) {
                vc_unref(t->vc[w0 + l]);
                t->vc[w0 + l] = vc_ref(acc);
            }
        vc_unref(acc);
    }
    uint32_t k[64];
    memset(k, 0, sizeof k);
    for (uint32_t l = 0; l < 32; l++)
        if (lanes >> l & 1) {
            for (int j = 0; j < 64; j++)
                if (t->wk[w0 + l][j] > k[j])
                    k[j] = t->wk[w0 + l][j];
            if (t->clk[w0 + l] > k[l])
                k[l] = t->clk[w0 + l];
            if (t->aknown[w0 + l] > k[32 + l])
                k[32 + l] = t->aknown[w0 + l];
        }
    for (uint32_t l = 0; l < 32; l++)
        if (lanes >> l & 1) {
            memcpy(t->wk[w0 + l], k, sizeof k);
            t->wkin[w0 + l] = 0;
            t->clk[w0 + l]++;
        }
}

static void rc_on_sync(void *ctx, exec_machine *m, const exec_sync_ev *ev)
{
    rc_state *s = ctx;
    switch (ev->kind) {
    case EXEC_SYNC_LAUNCH:
        rc_launch(s, m);
        return;
    case EXEC_SYNC_LAUNCH_END:
        rc_reset(s);
        return;
    case EXEC_SYNC_CTA_END:
        for (uint32_t i = 0; i < s->nctas; i++)
            if (s->ctas[i]->id == ev->cta) {
                rc_cta *t = s->ctas[i];
                for (rc_page *p = t->pages, *nx; p; p = nx) {
                    nx = p->cnext;
                    rc_page_unlink(s, p);
                }
                t->pages = NULL;
                if (s->byid && t->id < s->ncta)
                    s->byid[t->id] = NULL;
                cta_free(s, t);
                s->ctas[i] = s->ctas[--s->nctas];
                s->last = 0;
                break;
            }
        return;
    default:
        break;
    }
    if (!s->live)
        return;
    rc_cta *t;
    switch (ev->kind) {
    case EXEC_SYNC_BAR_ARRIVE: {
        if (ev->id < 0 || ev->id >= RC_NBAR || !(t = cta_get(s, ev->cta)) || ev->warp >= s->nwarps)
            return;
        rc_vc **acc = &t->bar[ev->id];
        if (!*acc && !(*acc = vc_new(s)))
            return;
        for (uint32_t l = 0; l < 32; l++)
            if (ev->lanes >> l & 1) {
                uint32_t tid = ev->warp * 32 + l;
                rc_release_into(s, t, tid, *acc, t->clk[tid]);
                t->clk[tid]++;
            }
        if (ev->op != EXEC_BAR_ARRIVE)
            t->barwait[ev->id * s->nwarps + ev->warp] |= ev->lanes;
        return;
    }
    case EXEC_SYNC_BAR_DONE: {
        if (ev->id < 0 || ev->id >= RC_NBAR || !(t = cta_get(s, ev->cta)) || !t->bar[ev->id])
            return;
        rc_vc *acc = t->bar[ev->id];
        t->bar[ev->id] = NULL;
        for (uint32_t w = 0; w < s->nwarps; w++) {
            uint32_t *bw = &t->barwait[ev->id * s->nwarps + w];
            for (uint32_t l = 0; l < 32; l++)
                if (*bw >> l & 1) {
                    uint32_t tid = w * 32 + l;
                    rc_vc *cur = t->vc[tid];
                    if (cur != acc) {
                        /* acc holds what the thread knew when it arrived */
                        vc_unref(cur);
                        t->vc[tid] = vc_ref(acc);
                    }
                    t->wkin[tid] = 1;   /* its wk went into acc at its arrival */
                }
            *bw = 0;
        }
        vc_unref(acc);
        return;
    }
    case EXEC_SYNC_WARP:
        if ((t = cta_get(s, ev->cta)))
            rc_warp(s, t, ev->warp, ev->lanes);
        return;
    case EXEC_SYNC_MBAR_ARRIVE: {
        rc_mbar *b;
        if (!(t = cta_get(s, ev->cta)) || !(b = rc_mbar_get(t, ev->addr)))
            return;
        if (!b->acc && !(b->acc = vc_new(s)))
            return;
        for (uint32_t l = 0; l < 32; l++)
            if (ev->lanes >> l & 1) {
                uint32_t tid = ev->warp * 32 + l;
                if (tid >= s->T)
                    continue;
                rc_release_into(s, t, tid, b->acc, t->clk[tid]);
                t->clk[tid]++;
            }
        return;
    }
    case EXEC_SYNC_MBAR_PHASE: {
        rc_mbar *b;
        if (!(t = cta_get(s, ev->cta)) || !(b = rc_mbar_get(t, ev->addr)))
            return;
        rc_vc *d = b->acc ? b->acc : vc_new(s);
        b->acc = NULL;
        if (!d)
            return;
        /* the phase completes when its transactions did: every copy issued so far landed */
        for (uint32_t i = 0; i < s->T; i++)
            if (t->aclk[i] > d->v[s->T + i])
                d->v[s->T + i] = t->aclk[i];
        if (b->done)
            vc_join(s, d, b->done);
        vc_unref(b->done);
        b->done = d;
        return;
    }
    case EXEC_SYNC_MBAR_WAIT: {
        rc_mbar *b;
        if (!(t = cta_get(s, ev->cta)) || !(b = rc_mbar_get(t, ev->addr)) || !b->done)
            return;
        for (uint32_t l = 0; l < 32; l++)
            if (ev->lanes >> l & 1 && ev->warp * 32 + l < s->T)
                rc_acquire_vc(s, t, ev->warp * 32 + l, b->done);
        return;
    }
    case EXEC_SYNC_CP_COMMIT:
        if ((t = cta_get(s, ev->cta)))
            for (uint32_t l = 0; l < 32; l++)
                if (ev->lanes >> l & 1 && ev->warp * 32 + l < s->T)
                    t->aclk[ev->warp * 32 + l]++;
        return;
    case EXEC_SYNC_CP_WAIT:
        if ((t = cta_get(s, ev->cta)))
            for (uint32_t l = 0; l < 32; l++)
                if (ev->lanes >> l & 1 && ev->warp * 32 + l < s->T) {
                    uint32_t tid = ev->warp * 32 + l;
                    /* groups 1..aclk-1 committed; all but the newest `count` are complete,
                       and wait 0 / wait_all takes every copy issued */
                    uint32_t k = ev->count == 0 ? t->aclk[tid]
                                 : t->aclk[tid] - 1 > ev->count ? t->aclk[tid] - 1 - ev->count
                                                                : 0;
                    if (k > t->aknown[tid])
                        t->aknown[tid] = k;
                }
        return;
    case EXEC_SYNC_FENCE:
        if ((t = cta_get(s, ev->cta)) && (ev->lanes & (ev->lanes - 1)))
            rc_warp(s, t, ev->warp, ev->lanes);   /* lanes fencing together (docs/CHECKERS.md) */
        if (t)
            for (uint32_t l = 0; l < 32; l++)
                if (ev->lanes >> l & 1 && ev->warp * 32 + l < s->T) {
                    uint32_t tid = ev->warp * 32 + l;
                    t->fclk[tid] = t->clk[tid];
                    t->fscope[tid] = ev->scope;
                    t->clk[tid]++;
                }
        return;
    default:
        return;
    }
}

/* ---- attach / detach -------------------------------------------------------------------------- */
void *chk_racecheck_attach(chk_ctx *c, exec_machine *m)
{
    rc_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->c = c;
    s->m = m;
    exec_observer o = { .name = "racecheck",
                        .spaces = (1u << PTX_SPACE_GLOBAL) | (1u << PTX_SPACE_SHARED),
                        .want = EXEC_OBS_SYNC, .access = rc_access, .sync = rc_on_sync, .ctx = s };
    s->handle = exec_observer_add(m, &o);
    if (s->handle < 0) {
        free(s);
        return NULL;
    }
    /* attached during a launch: track it from here (what ran before is not seen) */
    if (exec_current_launch(m))
        rc_launch(s, m);
    return s;
}

void chk_racecheck_detach(chk_ctx *c, exec_machine *m, void *state)
{
    (void)c;
    rc_state *s = state;
    exec_observer_del(m, s->handle);
    rc_reset(s);
    free(s->ctas);
    free(s);
}
