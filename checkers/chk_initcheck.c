/* chk_initcheck.c - initcheck: reads of memory and registers never written, and the fill byte. */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "chk_int.h"
#include "mem.h"

/* ---------------------------------------------------------------------------------------------
 * initcheck observes every global, shared and local access and keeps a bit per byte, set once
 * the byte is written (shadow memory, only for memory that can be uninitialised and only in
 * pages that were touched):
 *   - global: the ranges that start uninitialised are device allocations (cudaMalloc and
 *     friends: chk_host_alloc from the runtime), device malloc blocks (EXEC_SYNC_MALLOC) and the
 *     debugger's buffers made without an initialiser (EXEC_SYNC_ALLOC of a host buffer). Their
 *     shadow is the session's (chk_ctx.ic), shared by every machine, since modules share device
 *     memory; 4 KB pages of it are made at the first write into them. Everything else is
 *     initialised: module variables (PTX ISA 5.1.4: a .global or .const variable without an
 *     initialiser is zero-initialised, a defined value), managed and host memory (the host
 *     writes them through plain pointers ptxdbg does not see), kernel parameters, constants.
 *     Host writes (chk_host_write) set bits; a range going away drops its shadow.
 *   - shared: per CTA, from its start (EXEC_SYNC_CTA_BEGIN) to its end, static and dynamic
 *     bytes; the system's reserved area (sm_80's 1 KB) and other CTAs' windows are initialised.
 *   - local: per thread, the bytes of each frame pushed (kernel entry, call, alloca) start
 *     uninitialised (EXEC_SYNC_LOCAL_FRAME).
 * A read (or an atomic, which reads first) of bytes never written is a finding; so is a read
 * of which only some bytes were written. An atomic or a reduction then writes them, so reading
 * its result later is not. Registers: the core tracks, per frame, the lanes that wrote each
 * register (EXEC_OBS_REGS, core/exec/exec_undef.c) and reports reads before any write.
 *
 * Observing every access keeps a launch on one thread (exec_obs.h), so the findings are those
 * of one thread whatever -j says.
 * ------------------------------------------------------------------------------------------- */

#define IC_PAGE 4096u

/* ---- global shadow (per session) -------------------------------------------------------------- */
/* The ranges that can hold unwritten bytes, in a treap ordered by base (disjoint): finding,
 * adding and dropping one cost O(log n), so a program with 100 000 live allocations pays what
 * one with a few pays. */
typedef struct ic_range {
    uint64_t base, size;
    uint8_t **pages;          /* per 4 KB page of the range: its written bits, NULL none yet */
    uint64_t npages;
    uint32_t prio;
    struct ic_range *l, *r;
} ic_range;

struct ic_global {
    /* the runtime's copies and memsets (chk_host_write) may run beside a kernel (streams on
       worker threads): every use of the shadow holds the lock */
    pthread_mutex_t mu;
    ic_range *root, *last;
    uint32_t seed;
    uint64_t n;
    int users;                /* machines initcheck observes */
};

static void ic_split(ic_range *t, uint64_t key, ic_range **l, ic_range **r)
{
    if (!t) {
        *l = *r = NULL;
    } else if (t->base < key) {
        ic_split(t->r, key, &t->r, r);
        *l = t;
    } else {
        ic_split(t->l, key, l, &t->l);
        *r = t;
    }
}

static ic_range *ic_merge(ic_range *a, ic_range *b)
{
    if (!a || !b)
        return a ? a : b;
    if (a->prio > b->prio) {
        a->r = ic_merge(a->r, b);
        return a;
    }
    b->l = ic_merge(a, b->l);
    return b;
}

/* The range holding addr, or NULL. */
static ic_range *ic_find(struct ic_global *g, uint64_t addr)
{
    ic_range *t = g->last;
    if (t && addr - t->base < t->size)
        return t;
    ic_range *best = NULL;
    for (t = g->root; t;) {
        if (t->base <= addr) {
            best = t;
            t = t->r;
        } else {
            t = t->l;
        }
    }
    if (best && addr - best->base < best->size)
        return g->last = best;
    return NULL;
}

/* The first range based above addr, or NULL. */
static ic_range *ic_next(struct ic_global *g, uint64_t addr)
{
    ic_range *best = NULL;
    for (ic_range *t = g->root; t;) {
        if (t->base > addr) {
            best = t;
            t = t->l;
        } else {
            t = t->r;
        }
    }
    return best;
}

static void ic_free_tree(struct ic_global *g, ic_range *t)
{
    if (!t)
        return;
    ic_free_tree(g, t->l);
    ic_free_tree(g, t->r);
    for (uint64_t i = 0; t->pages && i < t->npages; i++)
        free(t->pages[i]);
    free(t->pages);
    free(t);
    g->n--;
}

/* Drop every range overlapping [base, base + size) (size 0: the one based at base). */
static void ic_drop(struct ic_global *g, uint64_t base, uint64_t size)
{
    ic_range *l, *m, *r;
    g->last = NULL;
    if (!size) {
        ic_split(g->root, base, &l, &r);
        ic_split(r, base + 1, &m, &r);
        ic_free_tree(g, m);
        g->root = ic_merge(l, r);
        return;
    }
    ic_split(g->root, base, &l, &r);
    /* the last range below base may run into [base, ...) */
    ic_range *mx = l;
    while (mx && mx->r)
        mx = mx->r;
    if (mx && mx->base + mx->size > base) {
        ic_range *lo;
        ic_split(l, mx->base, &lo, &m);
        ic_free_tree(g, m);
        l = lo;
    }
    ic_split(r, base + size, &m, &r);
    ic_free_tree(g, m);
    g->root = ic_merge(l, r);
}

static void ic_track(struct ic_global *g, uint64_t base, uint64_t size)
{
    if (!size)
        return;
    ic_drop(g, base, size);
    ic_range *t = calloc(1, sizeof *t);
    if (!t)
        return;   /* out of memory: the range counts as initialised */
    t->base = base;
    t->size = size;
    g->seed = g->seed * 1103515245u + 12345u;
    t->prio = g->seed;
    ic_range *l, *r;
    ic_split(g->root, base, &l, &r);
    g->root = ic_merge(ic_merge(l, t), r);
    g->n++;
}

static void ic_bits_set(uint8_t *bits, uint64_t from, uint64_t to)
{
    for (; from < to && (from & 7); from++)
        bits[from >> 3] |= (uint8_t)(1u << (from & 7));
    if (to - from >= 8) {
        memset(bits + (from >> 3), 0xff, (size_t)((to - from) >> 3));
        from += (to - from) & ~(uint64_t)7;
    }
    for (; from < to; from++)
        bits[from >> 3] |= (uint8_t)(1u << (from & 7));
}

/* Whether bits [from, from + n) are all set (n <= 57): one access's bytes all written, tested
 * a word at a time before the byte-by-byte count that a finding needs. */
static inline __attribute__((always_inline)) int ic_bits_all(const uint8_t *bits, uint64_t from,
                                                             uint64_t n)
{
    const uint8_t *b = bits + (from >> 3);
    if ((from & 7) + n <= 8) {   /* one byte: an aligned access of up to 8 bytes */
        uint32_t want = (1u << n) - 1;
        return ((uint32_t)(b[0] >> (from & 7)) & want) == want;
    }
    uint32_t nb = (uint32_t)(((from & 7) + n + 7) >> 3);
    uint64_t w = 0, want = n >= 64 ? ~0ull : (1ull << n) - 1;
    for (uint32_t i = 0; i < nb; i++)
        w |= (uint64_t)b[i] << (8 * i);
    return ((w >> (from & 7)) & want) == want;
}

/* Bytes [addr, addr + n) were written. */
static void ic_global_mark(struct ic_global *g, uint64_t addr, uint64_t n)
{
    while (n) {
        ic_range *r = ic_find(g, addr);
        uint64_t step;
        if (!r) {
            /* skip to the next range that starts inside [addr, addr + n) */
            ic_range *nx = ic_next(g, addr);
            if (!nx || nx->base - addr >= n)
                return;
            step = nx->base - addr;
        } else {
            uint64_t off = addr - r->base, pg = off / IC_PAGE, in = off % IC_PAGE;
            step = IC_PAGE - in;
            if (step > r->size - off)
                step = r->size - off;
            if (step > n)
                step = n;
            if (!r->pages) {
                r->npages = (r->size + IC_PAGE - 1) / IC_PAGE;
                r->pages = calloc(r->npages, sizeof *r->pages);
            }
            if (r->pages && !r->pages[pg])
                r->pages[pg] = calloc(IC_PAGE / 8, 1);
            if (r->pages && r->pages[pg])
                ic_bits_set(r->pages[pg], in, in + step);
        }
        addr += step;
        n -= step;
    }
}

/* Bytes of [addr, addr + n) never written (n small: an access); unw[k]: byte k is. */
static uint64_t ic_global_undef(struct ic_global *g, uint64_t addr, uint64_t n, uint8_t *unw)
{
    uint64_t undef = 0;
    const ic_range *r0 = ic_find(g, addr);
    if (r0 && r0->pages && n <= 57 && addr - r0->base + n <= r0->size &&
        (addr - r0->base) / IC_PAGE == (addr - r0->base + n - 1) / IC_PAGE) {
        uint64_t off = addr - r0->base;
        const uint8_t *p = r0->pages[off / IC_PAGE];
        if (p && ic_bits_all(p, off % IC_PAGE, n))
            return 0;   /* all written: one range, one page */
    }
    for (uint64_t k = 0; k < n; k++) {
        const ic_range *r = ic_find(g, addr + k);
        int u = 0;
        if (r) {
            uint64_t off = addr + k - r->base;
            const uint8_t *p = r->pages ? r->pages[off / IC_PAGE] : NULL;
            u = !p || !((p[(off % IC_PAGE) >> 3] >> (off & 7)) & 1);
        }
        undef += (uint64_t)u;
        if (unw)
            unw[k] = (uint8_t)u;
    }
    return undef;
}

static struct ic_global *ic_global_of(chk_ctx *c)
{
    if (!c->ic && (c->ic = calloc(1, sizeof *c->ic)) != NULL)
        pthread_mutex_init(&c->ic->mu, NULL);
    return c->ic;
}

void chk_initcheck_free(chk_ctx *c)
{
    if (!c->ic)
        return;
    ic_free_tree(c->ic, c->ic->root);
    pthread_mutex_destroy(&c->ic->mu);
    free(c->ic);
    c->ic = NULL;
}

void chk_host_write(chk_ctx *c, uint64_t addr, uint64_t n)
{
    if (c && c->ic && n) {
        pthread_mutex_lock(&c->ic->mu);
        if (c->ic->root)
            ic_global_mark(c->ic, addr, n);
        pthread_mutex_unlock(&c->ic->mu);
    }
}

void chk_host_alloc(chk_ctx *c, uint64_t addr, uint64_t n, int uninit)
{
    if (c && !uninit && c->ic) {
        pthread_mutex_lock(&c->ic->mu);
        ic_drop(c->ic, addr, n ? n : 1);
        pthread_mutex_unlock(&c->ic->mu);
        return;
    }
    /* initcheck is on (the runtime allocates before it loads the first module's machine) */
    struct ic_global *g = c && uninit && ((c->enabled >> CHK_INITCHECK) & 1) ? ic_global_of(c)
                                                                               : NULL;
    if (g) {
        pthread_mutex_lock(&g->mu);
        ic_track(g, addr, n);
        pthread_mutex_unlock(&g->mu);
    }
}

/* ---- shared and local shadows (per machine, per CTA) ------------------------------------------ */
typedef struct { uint8_t *bits; uint64_t nbits; } ic_bitmap;

typedef struct {
    uint32_t cta;
    ic_bitmap sh;             /* shared bytes [0, shared size) */
    ic_bitmap *loc;           /* per thread of the CTA: local bytes, bit i = MEM_LOCAL_TOP-1-i */
    uint32_t nloc;
} ic_cta;

typedef struct {
    chk_ctx *c;
    int handle;
    ic_cta *ctas;
    int n, cap;
    uint32_t *quiet;          /* pcs whose local and register reads are not reported (inside
                                 CUDA headers) */
    int nquiet, capquiet;
} ic_state;

/* Local memory and registers inside CUDA's own headers (cooperative groups, CUB, atomics) are
 * the library's business: -G builds of them copy objects member by member, unused members and
 * padding included. Their reads are not reported (decided once per pc). */
static int ic_quiet(ic_state *s, exec_machine *m, const chk_party *p, uint32_t pc, int known,
                    uint32_t cta, uint32_t warp, uint32_t lane)
{
    for (int i = 0; i < s->nquiet; i++)
        if (s->quiet[i] == pc)
            return 1;
    if (known < 0) {
        chk_party q;
        chk_party_fill(s->c, m, &q, cta, warp, lane, pc, EXEC_ACC_READ);
        return ic_quiet(s, m, &q, pc, 1, cta, warp, lane);
    }
    if (!p->file[0] || (!strcmp(p->file, p->ufile) && p->line == p->uline))
        return 0;
    if (s->nquiet == s->capquiet) {
        int nc = s->capquiet ? s->capquiet * 2 : 16;
        uint32_t *nq = realloc(s->quiet, sizeof *nq * (size_t)nc);
        if (!nq)
            return 1;
        s->quiet = nq;
        s->capquiet = nc;
    }
    s->quiet[s->nquiet++] = pc;
    return 1;
}

/* Whether every 4-byte word of an access is either written whole or not at all (a load of 8
 * bytes or more: a structure with padding, CUB's vector loads of a tuple). */
static int ic_whole_words(const uint8_t *unw, uint64_t n)
{
    for (uint64_t w = 0; w + 4 <= n; w += 4)
        if (unw[w] != unw[w + 1] || unw[w] != unw[w + 2] || unw[w] != unw[w + 3])
            return 0;
    return 1;
}

/* Of the `undef` unwritten bytes of a read at pc, those it uses: nvcc's .pragma
 * "used_bytes_mask" before a load names them (a structure read whole, padding unused). */
static uint64_t ic_used_undef(exec_machine *m, uint32_t pc, const uint8_t *unw, uint64_t n)
{
    const ptx_func *f = NULL;
    const ptx_insn *in = NULL;
    uint32_t mask = exec_pc_insn(m, pc, &f, &in) == 0 && in ? in->used_bytes_mask : 0;
    uint64_t k = 0;
    for (uint64_t i = 0; i < n; i++)
        k += unw[i] && (!mask || (i < 32 && ((mask >> i) & 1)));
    return k;
}

static void ic_cta_free(ic_cta *k)
{
    free(k->sh.bits);
    for (uint32_t i = 0; k->loc && i < k->nloc; i++)
        free(k->loc[i].bits);
    free(k->loc);
}

static ic_cta *ic_cta_of(ic_state *s, uint32_t cta)
{
    for (int i = 0; i < s->n; i++)
        if (s->ctas[i].cta == cta)
            return &s->ctas[i];
    return NULL;
}

static void ic_cta_end(ic_state *s, uint32_t cta)
{
    for (int i = 0; i < s->n; i++)
        if (s->ctas[i].cta == cta) {
            ic_cta_free(&s->ctas[i]);
            s->ctas[i] = s->ctas[--s->n];
            return;
        }
}

static void ic_all_end(ic_state *s)
{
    for (int i = 0; i < s->n; i++)
        ic_cta_free(&s->ctas[i]);
    s->n = 0;
}

static ic_cta *ic_cta_begin(ic_state *s, uint32_t cta, uint64_t shsize)
{
    ic_cta_end(s, cta);
    if (s->n == s->cap) {
        int nc = s->cap ? s->cap * 2 : 8;
        ic_cta *nk = realloc(s->ctas, sizeof *nk * (size_t)nc);
        if (!nk)
            return NULL;
        s->ctas = nk;
        s->cap = nc;
    }
    ic_cta *k = &s->ctas[s->n++];
    memset(k, 0, sizeof *k);
    k->cta = cta;
    if (shsize && (k->sh.bits = calloc((size_t)(shsize + 7) / 8, 1)))
        k->sh.nbits = shsize;
    return k;
}

/* Grow a bitmap to hold bit n - 1 (new bits clear: unwritten). */
static int ic_bitmap_grow(ic_bitmap *b, uint64_t n)
{
    if (n <= b->nbits)
        return 0;
    uint64_t nb = b->nbits ? b->nbits : 256;
    while (nb < n)
        nb *= 2;
    uint8_t *p = realloc(b->bits, (size_t)(nb + 7) / 8);
    if (!p)
        return -1;
    memset(p + (b->nbits + 7) / 8, 0, (size_t)((nb + 7) / 8 - (b->nbits + 7) / 8));
    b->bits = p;
    b->nbits = nb;
    return 0;
}

static void ic_bitmap_clear(ic_bitmap *b, uint64_t from, uint64_t to)
{
    if (to > b->nbits)
        to = b->nbits;
    for (uint64_t i = from; i < to; i++)
        b->bits[i >> 3] &= (uint8_t)~(1u << (i & 7));
}

static ic_bitmap *ic_local(ic_cta *k, uint32_t warp, uint32_t lane)
{
    uint32_t t = warp * 32 + lane;
    if (t >= 1024)
        return NULL;
    if (!k->loc) {
        if (!(k->loc = calloc(1024, sizeof *k->loc)))
            return NULL;
        k->nloc = 1024;
    }
    return &k->loc[t];
}

/* ---- findings ------------------------------------------------------------------------------------ */
static void ic_mem_finding(ic_state *s, exec_machine *m, const exec_mem_ev *ev, uint32_t lane,
                           uint64_t addr, uint64_t undef)
{
    chk_ctx *c = s->c;
    const void *mod = exec_module(m);
    chk_finding *f = chk_find(c, CHK_INITCHECK, CHK_K_UNINIT, mod, ev->pc, 0);
    if (f) {
        chk_repeat(c, m, ev, lane, f, 0);
        return;
    }
    if (ev->space == PTX_SPACE_LOCAL && ic_quiet(s, m, NULL, ev->pc, -1, ev->cta, ev->warp, lane))
        return;
    if (!(f = chk_add(c, CHK_INITCHECK, CHK_K_UNINIT, mod)))
        return;
    f->severity = CHK_SEV_ERROR;
    f->space = ev->space;
    f->addr = addr;
    f->size = ev->size;
    f->undef = undef;
    f->access = ev->kind == EXEC_ACC_READ ? EXEC_ACC_READ : EXEC_ACC_ATOMIC;
    f->nparties = 1;
    chk_party_fill(c, m, &f->party[0], ev->cta, ev->warp, lane, ev->pc, f->access);
    chk_launch_fill(c, m, f);
    if (ev->space == PTX_SPACE_GLOBAL) {
        exec_region_info ri;
        if (exec_global_near(m, addr, &ri, NULL) == 0 && addr - ri.base < ri.size) {
            f->alloc_base = ri.base;
            f->alloc_size = ri.size;
            if (ri.name)
                snprintf(f->alloc_name, sizeof f->alloc_name, "%s", ri.name);
            else
                snprintf(f->alloc_name, sizeof f->alloc_name, "%s#%u",
                         ri.kind == 3 ? "device malloc block" : "buffer", ri.id);
        }
    } else if (ev->space == PTX_SPACE_SHARED) {
        snprintf(f->where, sizeof f->where, "at offset %" PRIu64 " of the block's shared memory "
                 "(%" PRIu64 " bytes)", addr, exec_shared_size(m));
    } else {
        snprintf(f->where, sizeof f->where, "in the thread's local memory (its stack frame)");
    }
    chk_deliver(c, m, ev, lane, f);
}

void chk_initcheck_lines(const chk_finding *f, void (*put)(void *o, const char *line), void *o)
{
    char l[900];
    if (f->kind == CHK_K_UNINIT_REG) {
        snprintf(l, sizeof l, "    Register %s%s%s%s was not written by this thread in this call "
                 "of %s before the read", f->reg, f->var[0] ? " (variable " : "", f->var,
                 f->var[0] ? ")" : "", f->party[0].func[0] ? f->party[0].func : "the function");
        put(o, l);
        return;
    }
    if (f->alloc_name[0])
        snprintf(l, sizeof l, "    Address 0x%" PRIx64 " is inside the allocation at 0x%" PRIx64
                 " of size %" PRIu64 " bytes (%s) at offset %" PRIu64, f->addr, f->alloc_base,
                 f->alloc_size, f->alloc_name, f->addr - f->alloc_base);
    else
        snprintf(l, sizeof l, "    Address 0x%" PRIx64 " %s", f->addr, f->where);
    put(o, l);
    if (f->undef < f->size)
        snprintf(l, sizeof l, "    %" PRIu64 " of its %" PRIu64 " bytes were never written "
                 "(partially initialised)", f->undef, f->size);
    else
        snprintf(l, sizeof l, "    None of its bytes were ever written");
    put(o, l);
}

/* The source variable held in register reg at pc (DWARF), "" when unknown. */
static void ic_reg_var(chk_ctx *c, exec_machine *m, uint32_t pc, const char *reg, char *out,
                       size_t n)
{
    out[0] = 0;
    dw_info *dw = chk_dwarf(c, m);
    if (!dw || !dw_has_dwarf(dw))
        return;
    const dw_var *vs[64];
    int nv = dw_vars_at(dw, pc, DW_VARS_LOCALS | DW_VARS_PARAMS, vs, 64);
    for (int i = 0; i < nv && i < 64; i++) {
        dw_loc loc;
        if (dw_var_location(dw, vs[i], pc, &loc) == 0 && loc.kind == DW_LOCK_REG &&
            !strcmp(loc.reg, reg) && vs[i]->name) {
            snprintf(out, n, "%s", vs[i]->name);
            return;
        }
    }
}

static void ic_reg_finding(ic_state *s, exec_machine *m, const exec_sync_ev *ev)
{
    chk_ctx *c = s->c;
    const void *mod = exec_module(m);
    uint32_t lane = (uint32_t)__builtin_ctz(ev->lanes);
    const exec_launch_info *li = exec_current_launch(m);
    uint32_t id = li ? li->launch_id : 0;
    chk_finding *f = chk_find(c, CHK_INITCHECK, CHK_K_UNINIT_REG, mod, ev->pc, 0);
    uint64_t nl = (uint64_t)__builtin_popcount(ev->lanes);   /* counted per thread */
    if (f) {   /* as chk_repeat: counts; stops again only in a later launch */
        f->count += nl;
        if (c->stop && (f->stop_m != m || f->stop_launch != id)) {
            f->stop_m = m;
            f->stop_launch = id;
            exec_obs_stop_reg(m, ev, lane, f->id, NULL);
        }
        return;
    }
    if (ic_quiet(s, m, NULL, ev->pc, -1, ev->cta, ev->warp, lane))
        return;
    if (!(f = chk_add(c, CHK_INITCHECK, CHK_K_UNINIT_REG, mod)))
        return;
    f->severity = CHK_SEV_ERROR;
    f->space = PTX_SPACE_REG;
    f->access = EXEC_ACC_READ;
    f->nparties = 1;
    f->count = nl;
    snprintf(f->reg, sizeof f->reg, "%s", ev->what ? ev->what : "?");
    chk_party_fill(c, m, &f->party[0], ev->cta, ev->warp, lane, ev->pc, EXEC_ACC_READ);
    chk_launch_fill(c, m, f);
    ic_reg_var(c, m, ev->pc, f->reg, f->var, sizeof f->var);
    if (c->stop) {   /* as chk_deliver */
        char head[256];
        chk_headline(f, head, sizeof head);
        f->stop_m = m;
        f->stop_launch = id;
        exec_obs_stop_reg(m, ev, lane, f->id, head);
    } else if (c->hooks.report) {
        c->hooks.report(c->hooks.ctx, f);
    }
}

/* ---- the observers ---------------------------------------------------------------------------------- */
static void ic_access_lanes(ic_state *s, exec_machine *m, const exec_mem_ev *ev,
                            struct ic_global *g, ic_cta *k, int rd, int wr);

static int ic_access(void *ctx, exec_machine *m, const exec_mem_ev *ev)
{
    ic_state *s = ctx;
    if (ev->status != EXEC_ACC_OK || (ev->flags & EXEC_ACC_F_OBJ) || !ev->size)
        return EXEC_OBS_GO;
    int rd = ev->kind != EXEC_ACC_WRITE, wr = ev->kind != EXEC_ACC_READ;
    struct ic_global *g = s->c->ic;
    ic_cta *k = ev->space == PTX_SPACE_GLOBAL ? NULL : ic_cta_of(s, ev->cta);
    if (ev->space == PTX_SPACE_GLOBAL && g) {
        pthread_mutex_lock(&g->mu);
        ic_access_lanes(s, m, ev, g, NULL, rd, wr);
        pthread_mutex_unlock(&g->mu);
        return EXEC_OBS_GO;
    }
    if (ev->space == PTX_SPACE_SHARED && rd && !wr && ev->size <= 8 && k && k->sh.bits) {
        /* A shared load (the hot case: tiles): each lane's bytes tested a word at a time, with
           the shadow held in locals; a lane reading what the lane before read and found
           written, or bytes all written, is done; any other goes the whole way alone. */
        const uint8_t *bits = k->sh.bits;
        uint64_t nbits = k->sh.nbits, n = ev->size, clean = UINT64_MAX;
        const uint64_t *addrs = ev->addrs, bias = ev->bias, addr1 = ev->addr1;
        for (uint32_t mm = ev->lanes; mm; mm &= mm - 1) {
            uint32_t lane = (uint32_t)__builtin_ctz(mm);
            uint64_t addr = addrs ? addrs[lane] - bias : addr1;   /* exec_mem_ev_addr */
            if (addr == clean || addr >= nbits || n > nbits - addr)
                continue;   /* as the lane before; or not the user's bytes (as below) */
            if (ic_bits_all(bits, addr, n)) {
                clean = addr;
                continue;
            }
            exec_mem_ev one = *ev;
            one.lanes = 1u << lane;
            ic_access_lanes(s, m, &one, g, k, rd, wr);
        }
        return EXEC_OBS_GO;
    }
    ic_access_lanes(s, m, ev, g, k, rd, wr);
    return EXEC_OBS_GO;
}

static void ic_access_lanes(ic_state *s, exec_machine *m, const exec_mem_ev *ev,
                            struct ic_global *g, ic_cta *k, int rd, int wr)
{
    uint64_t clean = UINT64_MAX;   /* a read found all written at this shared or global address */
    for (uint32_t mm = ev->lanes; mm; mm &= mm - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(mm);
        uint64_t addr = exec_mem_ev_addr(ev, lane), n = ev->size, undef = 0;
        if (addr == clean)
            continue;   /* a load the lane before made at the same address: the same answer */
        uint8_t unw[32];          /* reads of up to 32 bytes: which bytes are unwritten */
        if (ev->space == PTX_SPACE_GLOBAL) {
            if (!g || !g->root)
                return;
            if (rd)
                undef = ic_global_undef(g, addr, n, n <= 32 ? unw : NULL);
            if (wr)
                ic_global_mark(g, addr, n);
        } else if (ev->space == PTX_SPACE_SHARED) {
            if (!k || !k->sh.bits || addr >= k->sh.nbits || n > k->sh.nbits - addr)
                continue;   /* the reserved area, another CTA's window: not the user's bytes */
            int all = rd && n <= 57 && ic_bits_all(k->sh.bits, addr, n);
            for (uint64_t i = addr; rd && !all && i < addr + n; i++) {
                int u = !((k->sh.bits[i >> 3] >> (i & 7)) & 1);
                undef += (uint64_t)u;
                if (i - addr < 32)
                    unw[i - addr] = (uint8_t)u;
            }
            if (wr)
                ic_bits_set(k->sh.bits, addr, addr + n);
        } else if (ev->space == PTX_SPACE_LOCAL) {
            ic_bitmap *b = k ? ic_local(k, ev->warp, lane) : NULL;
            if (!b || addr >= MEM_LOCAL_TOP || n > MEM_LOCAL_TOP - addr)
                continue;
            uint64_t lo = MEM_LOCAL_TOP - addr - n, hi = MEM_LOCAL_TOP - addr;   /* bit range */
            if (hi > b->nbits)
                continue;   /* never pushed while we watched: counts as written */
            if (n < 4 && !wr)
                continue;   /* -G code copies structures a byte at a time, padding too */
            int all = rd && n <= 57 && ic_bits_all(b->bits, lo, n);
            for (uint64_t i = lo; rd && !all && i < hi; i++) {
                int u = !((b->bits[i >> 3] >> (i & 7)) & 1);
                undef += (uint64_t)u;
                if (hi - 1 - i < 32)   /* bit hi - 1 is the access's first byte */
                    unw[hi - 1 - i] = (uint8_t)u;
            }
            if (rd && undef && undef < n)
                undef = 0;   /* partly written: a structure with padding (reported: none) */
            if (wr)
                ic_bits_set(b->bits, lo, hi);
        } else {
            return;
        }
        if (!undef && rd && !wr && ev->space != PTX_SPACE_LOCAL)
            clean = addr;
        if (undef && n <= 32)
            undef = ic_used_undef(m, ev->pc, unw, n);
        if (undef && undef < n && n >= 8 && n <= 32 && ic_whole_words(unw, n))
            undef = 0;   /* a wide load of a structure: whole words of padding, never used */
        if (undef)
            ic_mem_finding(s, m, ev, lane, addr, undef);
    }
}

static void ic_sync(void *ctx, exec_machine *m, const exec_sync_ev *ev)
{
    ic_state *s = ctx;
    struct ic_global *g = s->c->ic;
    switch (ev->kind) {
    case EXEC_SYNC_CTA_BEGIN:
        ic_cta_begin(s, ev->cta, ev->size);
        break;
    case EXEC_SYNC_CTA_END:
        ic_cta_end(s, ev->cta);
        break;
    case EXEC_SYNC_LAUNCH:
    case EXEC_SYNC_LAUNCH_END:
        ic_all_end(s);
        break;
    case EXEC_SYNC_LOCAL_FRAME: {
        ic_cta *k = ic_cta_of(s, ev->cta);
        ic_bitmap *b = k && ev->lanes ? ic_local(k, ev->warp, (uint32_t)__builtin_ctz(ev->lanes))
                                      : NULL;
        if (!b || ev->addr >= MEM_LOCAL_TOP || ev->size > MEM_LOCAL_TOP - ev->addr)
            break;
        uint64_t lo = MEM_LOCAL_TOP - ev->addr - ev->size, hi = MEM_LOCAL_TOP - ev->addr;
        if (ic_bitmap_grow(b, hi) == 0)
            ic_bitmap_clear(b, lo, hi);
        break;
    }
    case EXEC_SYNC_MALLOC:
        if (g && ev->addr) {
            pthread_mutex_lock(&g->mu);
            ic_track(g, ev->addr, ev->size);
            pthread_mutex_unlock(&g->mu);
        }
        break;
    case EXEC_SYNC_FREE:
    case EXEC_SYNC_UNALLOC:
        if (g) {
            pthread_mutex_lock(&g->mu);
            ic_drop(g, ev->addr, 0);
            pthread_mutex_unlock(&g->mu);
        }
        break;
    case EXEC_SYNC_ALLOC: {
        /* the debugger's buffers (host buffers of the machine) start uninitialised; the
           runtime's allocations are announced by the runtime itself (chk_host_alloc) */
        exec_region_info ri;
        if (g && exec_global_near(m, ev->addr, &ri, NULL) == 0 && ri.base == ev->addr &&
            ri.kind == 2) {
            pthread_mutex_lock(&g->mu);
            ic_track(g, ev->addr, ev->size);
            pthread_mutex_unlock(&g->mu);
        }
        break;
    }
    case EXEC_SYNC_HOST_WRITE:
        if (g) {
            pthread_mutex_lock(&g->mu);
            if (g->root)
                ic_global_mark(g, ev->addr, ev->size);
            pthread_mutex_unlock(&g->mu);
        }
        break;
    case EXEC_SYNC_REG_UNDEF:
        ic_reg_finding(s, m, ev);
        break;
    default:
        break;
    }
}

void *chk_initcheck_attach(chk_ctx *c, exec_machine *m)
{
    ic_state *s = calloc(1, sizeof *s);
    struct ic_global *g = ic_global_of(c);
    if (!s || !g) {
        free(s);
        return NULL;
    }
    s->c = c;
    exec_observer o = { .name = "initcheck",
                        .spaces = (1u << PTX_SPACE_GLOBAL) | (1u << PTX_SPACE_SHARED) |
                                  (1u << PTX_SPACE_LOCAL),
                        .want = EXEC_OBS_SYNC | EXEC_OBS_REGS, .access = ic_access,
                        .sync = ic_sync, .ctx = s };
    s->handle = exec_observer_add(m, &o);
    if (s->handle < 0) {
        free(s);
        return NULL;
    }
    g->users++;
    return s;
}

void chk_initcheck_detach(chk_ctx *c, exec_machine *m, void *state)
{
    ic_state *s = state;
    exec_observer_del(m, s->handle);
    ic_all_end(s);
    free(s->ctas);
    free(s->quiet);
    free(s);
    /* the last machine: what the shadow knew is stale once nothing observes */
    if (c->ic && --c->ic->users <= 0 && !((c->enabled >> CHK_INITCHECK) & 1))
        chk_initcheck_free(c);
}

/* ---- fill ------------------------------------------------------------------------------------------ */
void chk_set_fill(chk_ctx *c, int byte)
{
    c->fill = byte < 0 ? 0 : (byte & 0xff) + 1;
    for (int k = 0; k < c->nmach; k++)
        exec_set_fill(c->mach[k].m, byte);
}

int chk_fill(const chk_ctx *c) { return c && c->fill ? c->fill - 1 : -1; }

int chk_parse_fill(const char *s, int *byte, char *err, size_t n)
{
    if (s && (!strcmp(s, "off") || !strcmp(s, "none") || !strcmp(s, "no"))) {
        *byte = -1;
        return 0;
    }
    char *end = NULL;
    long v = s && *s ? strtol(s, &end, 0) : -1;
    if (!s || !*s || *end || v < 0 || v > 255) {
        snprintf(err, n, "fill takes a byte (0 to 255, e.g. 0xA5) or \"off\", not \"%s\"",
                 s ? s : "");
        return -1;
    }
    *byte = (int)v;
    return 0;
}
