/* rt_mem.c - the allocation table: device/host/managed/registered memory at host addresses. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "rt.h"
#include "dbg.h"
#include "dbg_value.h"

/* Allocations indexed by base address: a treap (rt_alloc.tl/tr, heap-ordered by prio), so
 * finding, adding and freeing cost O(log n) whatever the number of live allocations; an
 * rt_alloc stays where it is while the allocation lives. */
static rt_alloc *rt_root;
static uint32_t rt_seed = 0x2545f491u;
static uint32_t rt_alloc_ids;
static uint64_t rt_used;
static const rt_alloc *rt_al_last;   /* last hit */

#define RT_SMALL_ALLOC (64u << 10)   /* below this, malloc'd; above, mmap'd with a guard page */
#define RT_PAGE 4096u

/* The emulated device's memory size (rt_device.c has the real one). */
__attribute__((weak)) uint64_t rt_device_total_mem(void)
{
    return 40ull << 30;
}

/* Whether [p, p+n) touches one of the address windows the runtime reserves for the core. */
int rt_addr_reserved(uint64_t p, uint64_t n)
{
    uint64_t e = p + (n ? n : 1);
    if (e < p)
        return 1;
    if (p < RT_MODULE_BASE + RT_MODULE_WINDOW * RT_MAX_MODULES && e > RT_MODULE_BASE)
        return 1;
    uint64_t b, len;
    for (int i = 0; dbg_addr_reserved(i, &b, &len) == 0; i++)
        if (p < b + len && e > b)
            return 1;
    return 0;
}

/* Split t into the allocations with base < key (*l) and the others (*r). */
static void rt_split(rt_alloc *t, uint64_t key, rt_alloc **l, rt_alloc **r)
{
    if (!t) {
        *l = *r = NULL;
    } else if (t->base < key) {
        rt_split(t->tr, key, &t->tr, r);
        *l = t;
    } else {
        rt_split(t->tl, key, l, &t->tl);
        *r = t;
    }
}

/* Join l and r, every base of l below every base of r. */
static rt_alloc *rt_join(rt_alloc *l, rt_alloc *r)
{
    if (!l || !r)
        return l ? l : r;
    if (l->prio > r->prio) {
        l->tr = rt_join(l->tr, r);
        return l;
    }
    r->tl = rt_join(l, r->tl);
    return r;
}

/* The allocation with the highest base <= p (NULL: none); above: the lowest base > p. */
static rt_alloc *rt_al_floor(uint64_t p)
{
    rt_alloc *t = rt_root, *best = NULL;
    while (t)
        if (t->base <= p) {
            best = t;
            t = t->tr;
        } else {
            t = t->tl;
        }
    return best;
}

static rt_alloc *rt_al_above(uint64_t p)
{
    rt_alloc *t = rt_root, *best = NULL;
    while (t)
        if (t->base > p) {
            best = t;
            t = t->tl;
        } else {
            t = t->tr;
        }
    return best;
}

const rt_alloc *rt_alloc_find(const void *ptr, uint64_t n)
{
    uint64_t p = (uint64_t)(uintptr_t)ptr;
    const rt_alloc *a = rt_al_last;
    if (!a || p < a->base || p - a->base >= (a->size ? a->size : 1)) {
        a = rt_al_floor(p);
        if (!a || p - a->base >= (a->size ? a->size : 1))
            return NULL;
        rt_al_last = a;
    }
    if (n > a->size - (p - a->base))
        return NULL;
    return a;
}

/* In address order; fn may free the allocation it is given (the next is found by address). */
int rt_alloc_each(int (*fn)(const rt_alloc *a, void *ctx), void *ctx)
{
    rt_alloc *a = rt_root;
    while (a && a->tl)
        a = a->tl;
    while (a) {
        uint64_t base = a->base;
        int r = fn(a, ctx);
        if (r)
            return r;
        a = rt_al_above(base);
    }
    return 0;
}

typedef struct { const rt_alloc *a; int unmap; } rt_map_req;

int rt_alloc_map_into(dbg_target *t, const rt_alloc *a)
{
    /* with the padding a GPU maps after it, where accesses complete (docs/ARCHITECTURE.md);
       pinned host memory the host may poll while a kernel runs */
    return dbg_target_map(t, a->base, a->size, (void *)(uintptr_t)a->base, a->name, a->pad,
                          a->kind == RT_MEM_HOST || a->kind == RT_MEM_REGISTERED);
}

static int rt_map_one(dbg_target *t, rt_module *mod, void *ctx)
{
    const rt_map_req *q = ctx;
    (void)mod;
    if (q->unmap) {
        dbg_target_unmap(t, q->a->base);
        return 0;
    }
    if (rt_alloc_map_into(t, q->a)) {
        rt_warn("cannot map %s: %s", q->a->name, dbg_target_errmsg(t));
        return 1;
    }
    return 0;
}

/* Take the allocation based at base out of the index. */
static void rt_al_take(uint64_t base)
{
    rt_alloc *l, *m, *h;
    rt_split(rt_root, base, &l, &m);
    rt_split(m, base + 1, &m, &h);
    rt_root = rt_join(l, h);
    if (m && rt_al_last == m)
        rt_al_last = NULL;
}

/* Insert a filled allocation into the table and every machine. */
static cudaError_t rt_al_insert(rt_alloc *a)
{
    if (rt_addr_reserved(a->base, a->size)) {
        rt_warn("host memory at 0x%" PRIx64 " lies in an address window the runtime reserves",
                a->base);
        return cudaErrorMemoryAllocation;
    }
    const rt_alloc *below = rt_al_floor(a->base + (a->size ? a->size : 1) - 1);
    if (below && below->base + (below->size ? below->size : 1) > a->base)
        return cudaErrorHostMemoryAlreadyRegistered;
    rt_seed ^= rt_seed << 13;
    rt_seed ^= rt_seed >> 17;
    rt_seed ^= rt_seed << 5;
    a->prio = rt_seed;
    a->tl = a->tr = NULL;
    rt_alloc *l, *h;
    rt_split(rt_root, a->base, &l, &h);
    rt_root = rt_join(rt_join(l, a), h);
    rt_map_req q = { a, 0 };
    if (a->size && rt_machines_each(rt_map_one, &q)) {
        q.unmap = 1;
        rt_machines_each(rt_map_one, &q);
        rt_al_take(a->base);
        return cudaErrorMemoryAllocation;
    }
    return cudaSuccess;
}

static rt_alloc *rt_al_make(uint64_t base, uint64_t size, rt_mem_kind kind, unsigned flags,
                            const char *what)
{
    rt_alloc *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->base = base;
    a->size = size;
    a->kind = kind;
    a->flags = flags;
    a->id = ++rt_alloc_ids;
    snprintf(a->name, sizeof a->name, "%s#%u", what, a->id);
    return a;
}

static void rt_al_release(rt_alloc *a)
{
    if (a->mem && a->mem_size >= RT_SMALL_ALLOC)
        munmap(a->mem, a->mem_size);
    else
        free(a->mem);
    free(a);
}

/* ---- freed allocations ---------------------------------------------------------------------- */
/* The last RT_FREED releases, each with the host stack of the call that released it, so that an
 * access to released memory is described as such (rt_mem_freed_describe). Bounded: a ring. */
#define RT_FREED 64
#define RT_FREED_PCS 5   /* the program's frames kept: the release and its callers */
typedef struct {
    uint64_t base, size;
    char name[32];
    uint64_t pcs[RT_FREED_PCS], api_pc;
    int npcs;
    rt_mem_kind kind;
} rt_freed;
static rt_freed rt_freed_ring[RT_FREED];
static int rt_nfreed, rt_freed_next;
static pthread_mutex_t rt_freed_lock = PTHREAD_MUTEX_INITIALIZER;

static void rt_freed_note(const rt_alloc *a)
{
    rt_freed f;
    memset(&f, 0, sizeof f);
    f.base = a->base;
    f.size = a->size;
    _Static_assert(sizeof f.name == sizeof a->name, "the ring keeps the allocation's name");
    memcpy(f.name, a->name, sizeof f.name);   /* (always NUL-terminated: snprintf) */
    f.kind = a->kind;
    f.npcs = dbg_host_stack(f.pcs, RT_FREED_PCS, &f.api_pc);
    pthread_mutex_lock(&rt_freed_lock);
    rt_freed_ring[rt_freed_next] = f;
    rt_freed_next = (rt_freed_next + 1) % RT_FREED;
    if (rt_nfreed < RT_FREED)
        rt_nfreed++;
    pthread_mutex_unlock(&rt_freed_lock);
}

/* Memory allocated again is no longer "freed" where the new allocation lies. */
static void rt_freed_forget(uint64_t base, uint64_t size)
{
    pthread_mutex_lock(&rt_freed_lock);
    for (int i = 0; i < rt_nfreed; i++) {
        rt_freed *f = &rt_freed_ring[i];
        if (f->size && base < f->base + f->size && f->base < base + (size ? size : 1))
            f->size = 0;
    }
    pthread_mutex_unlock(&rt_freed_lock);
}

int rt_mem_freed_describe(uint64_t addr, char *out, size_t n)
{
    rt_freed f;
    int found = 0;
    pthread_mutex_lock(&rt_freed_lock);
    for (int k = 1; k <= rt_nfreed && !found; k++) {   /* the latest release first */
        const rt_freed *x = &rt_freed_ring[(rt_freed_next - k + RT_FREED) % RT_FREED];
        if (x->size && addr >= x->base && addr - x->base < x->size) {
            f = *x;
            found = 1;
        }
    }
    pthread_mutex_unlock(&rt_freed_lock);
    if (!found)
        return 0;
    char where[1024], api[64];
    if (dbg_host_where(f.pcs, f.npcs, NULL, dbg_demangle, 3, where, sizeof where) != 0)
        snprintf(where, sizeof where, "an unknown place");
    dbg_host_api_name(f.api_pc, f.pcs, f.npcs, api, sizeof api);
    if (!api[0])
        snprintf(api, sizeof api, "%s", f.kind == RT_MEM_HOST ? "cudaFreeHost" : "cudaFree");
    snprintf(out, n, "inside %s [0x%" PRIx64 ", %" PRIu64 " bytes) at offset %" PRIu64
             ", which was freed by %s, called from %s", f.name, f.base, f.size, addr - f.base,
             api, where);
    return 1;
}

/* The describer every module's target gets (rt_module_load). */
int rt_freed_describer(void *ctx, uint64_t addr, char *out, size_t n)
{
    (void)ctx;
    return rt_mem_freed_describe(addr, out, n);
}

cudaError_t rt_alloc_new(rt_mem_kind kind, uint64_t size, unsigned flags, const char *what,
                         void **out)
{
    *out = NULL;
    /* allocating may synchronise: forbidden while streams capture, unless stream-ordered */
    cudaError_t ce = kind == RT_MEM_ASYNC ? cudaSuccess : rt_capture_unsafe();
    if (ce != cudaSuccess)
        return ce;
    if (size > rt_device_total_mem() || size > rt_device_total_mem() - rt_used)
        return cudaErrorMemoryAllocation;
    void *mem;
    size_t msize;
    /* the bytes, then the padding a GPU maps after them (the hardware's granularity,
       dbg_addr_padding): an overrun there completes, as on a GPU, and lands in no other
       allocation */
    uint64_t pad = dbg_addr_padding(size);
    if (size + pad < RT_SMALL_ALLOC) {
        msize = (size_t)(size + pad);
        mem = aligned_alloc(256, msize);
        if (mem)
            memset(mem, 0, msize);
    } else {
        /* a guard page after the padding (mmap may place the next mapping right after); pages
           are committed only when touched */
        msize = (size_t)((size + pad + RT_PAGE - 1) & ~(uint64_t)(RT_PAGE - 1)) + RT_PAGE;
        mem = mmap(NULL, msize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
                   MAP_NORESERVE, -1, 0);
        if (mem == MAP_FAILED)
            mem = NULL;
    }
    if (!mem)
        return cudaErrorMemoryAllocation;
    rt_alloc *a = rt_al_make((uint64_t)(uintptr_t)mem, size, kind, flags, what);
    if (!a) {
        if (msize >= RT_SMALL_ALLOC)
            munmap(mem, msize);
        else
            free(mem);
        return cudaErrorMemoryAllocation;
    }
    a->mem = mem;
    a->mem_size = msize;
    a->pad = pad;
    a->nsite = rt_check_alloc_site(a->site, 4);
    cudaError_t e = rt_al_insert(a);
    if (e != cudaSuccess) {
        rt_al_release(a);
        return e == cudaErrorHostMemoryAlreadyRegistered ? cudaErrorMemoryAllocation : e;
    }
    rt_used += size;
    rt_freed_forget(a->base, size);
    /* initcheck: fresh memory (set fill; device bytes unwritten, the others written) */
    rt_check_fresh(kind == RT_MEM_HOST ? -1 : kind != RT_MEM_MANAGED, mem, size);
    *out = mem;
    return cudaSuccess;
}

cudaError_t rt_alloc_register(void *p, uint64_t size, unsigned flags, const char *what)
{
    if (!p || !size)
        return cudaErrorInvalidValue;
    cudaError_t ce = rt_capture_unsafe();   /* forbidden while streams capture (rt_capture.c) */
    if (ce != cudaSuccess)
        return ce;
    rt_alloc *a = rt_al_make((uint64_t)(uintptr_t)p, size, RT_MEM_REGISTERED, flags, what);
    if (!a)
        return cudaErrorMemoryAllocation;
    cudaError_t e = rt_al_insert(a);
    if (e != cudaSuccess)
        free(a);
    else
        rt_check_gone(a->base, size);   /* initcheck: the program's bytes, written */
    return e;
}

cudaError_t rt_alloc_alias(void *p, uint64_t size, rt_mem_kind kind, const char *name)
{
    rt_alloc *a = rt_al_make((uint64_t)(uintptr_t)p, size, kind, 0, "alias");
    if (!a)
        return cudaErrorMemoryAllocation;
    snprintf(a->name, sizeof a->name, "%s", name);
    cudaError_t e = rt_al_insert(a);
    if (e != cudaSuccess)
        free(a);
    return e;
}

cudaError_t rt_alloc_free(void *p, unsigned kinds_mask)
{
    uint64_t b = (uint64_t)(uintptr_t)p;
    rt_alloc *a = rt_al_floor(b);
    if (!a || a->base != b || !(kinds_mask & (1u << a->kind)))
        return cudaErrorInvalidValue;
    if (a->kind != RT_MEM_REGISTERED)
        rt_freed_note(a);
    rt_map_req q = { a, 1 };
    rt_machines_each(rt_map_one, &q);
    rt_check_gone(a->base, a->size);   /* initcheck: its shadow goes with it */
    rt_al_take(b);
    if (a->mem)
        rt_used -= a->size;
    rt_al_release(a);
    return cudaSuccess;
}

void rt_mem_usage(uint64_t *used, uint64_t *total)
{
    *used = rt_used;
    *total = rt_device_total_mem();
}

typedef struct { uint64_t addr, n; void *host; } rt_host_req;

static int rt_find_in_machine(dbg_target *t, rt_module *mod, void *ctx)
{
    rt_host_req *q = ctx;
    (void)mod;
    q->host = dbg_target_global_host(t, q->addr, q->n);
    return q->host != NULL;
}

void *rt_dev_host(uint64_t addr, uint64_t n)
{
    if (dbg_addr_const_decode(addr, NULL, NULL) == 0)
        return rt_const_host(addr, n);          /* a __constant__ variable's address */
    if (rt_alloc_find((void *)(uintptr_t)addr, n))
        return (void *)(uintptr_t)addr;
    rt_host_req q = { addr, n, NULL };
    if (addr >= RT_MODULE_BASE && addr < RT_MODULE_BASE + RT_MODULE_WINDOW * RT_MAX_MODULES)
        rt_machines_each(rt_find_in_machine, &q);
    return q.host;
}

enum cudaMemoryType rt_mem_type(const void *p, uint64_t n)
{
    const rt_alloc *a = rt_alloc_find(p, n);
    if (a) {
        switch (a->kind) {
        case RT_MEM_HOST: case RT_MEM_REGISTERED: return cudaMemoryTypeHost;
        case RT_MEM_MANAGED: return cudaMemoryTypeManaged;
        default: return cudaMemoryTypeDevice;
        }
    }
    return rt_dev_host((uint64_t)(uintptr_t)p, n) ? cudaMemoryTypeDevice
                                                   : cudaMemoryTypeUnregistered;
}

/* ---- executing copies and memsets ------------------------------------------------------------ */
/* Host bytes for one side of a copy: device memory when the direction says so (or, for
 * cudaMemcpyDefault, when it is device memory), else the program's host memory. */
static cudaError_t rt_side(uint64_t addr, uint64_t span, int device, int any, int raw,
                           uint8_t **host)
{
    if (raw || !span) {
        *host = (uint8_t *)(uintptr_t)addr;
        return cudaSuccess;
    }
    void *d = rt_dev_host(addr, span);
    if (d) {
        *host = d;
        return cudaSuccess;
    }
    /* a range starting inside an allocation but running past its end */
    const rt_alloc *a = rt_alloc_find((void *)(uintptr_t)addr, 0);
    if (a) {
        rt_warn("copy of %" PRIu64 " bytes at 0x%" PRIx64 " runs past the end of %s "
                "(%" PRIu64 " bytes)", span, addr, a->name, a->size);
        return cudaErrorInvalidValue;
    }
    if ((device && !any) || !addr || rt_addr_reserved(addr, span))
        return cudaErrorInvalidValue;
    *host = (uint8_t *)(uintptr_t)addr;
    return cudaSuccess;
}

static uint64_t rt_span(uint64_t width, uint64_t height, uint64_t depth, uint64_t pitch,
                        uint64_t slice)
{
    if (!width || !height || !depth)
        return 0;
    return (depth - 1) * slice + (height - 1) * pitch + width;
}

/* Resolve a COPY op's sides to host bytes, with every check of rt_copy_run; *d is NULL when
 * nothing is to be copied. */
cudaError_t rt_copy_prep(const rt_op *op, uint8_t **d, uint8_t **s)
{
    const __typeof__(op->u.copy) *c = &op->u.copy;
    int dd, sd, any = 0;
    *d = *s = NULL;
    switch (c->dir) {
    case cudaMemcpyHostToHost: dd = 0; sd = 0; break;
    case cudaMemcpyHostToDevice: dd = 1; sd = 0; break;
    case cudaMemcpyDeviceToHost: dd = 0; sd = 1; break;
    case cudaMemcpyDeviceToDevice: dd = 1; sd = 1; break;
    case cudaMemcpyDefault: dd = sd = 1; any = 1; break;
    default: return cudaErrorInvalidMemcpyDirection;
    }
    if (c->height > 1 && (c->width > c->dpitch || c->width > c->spitch))
        return cudaErrorInvalidPitchValue;
    uint64_t dspan = rt_span(c->width, c->height, c->depth, c->dpitch, c->dslice);
    uint64_t sspan = rt_span(c->width, c->height, c->depth, c->spitch, c->sslice);
    if (!dspan)
        return cudaSuccess;
    uint8_t *dh, *sh;
    cudaError_t e = rt_side(c->dst, dspan, dd, any, c->dst_raw, &dh);
    if (e == cudaSuccess)
        e = rt_side(c->src, sspan, sd, any, c->src_raw, &sh);
    if (e != cudaSuccess)
        return e;
    *d = dh;
    *s = sh;
    return cudaSuccess;
}

/* Move the bytes of a COPY op resolved by rt_copy_prep. */
void rt_copy_move(const rt_op *op, uint8_t *d, uint8_t *s)
{
    const __typeof__(op->u.copy) *c = &op->u.copy;
    if (!d)
        return;
    int dd = c->dir == cudaMemcpyHostToDevice || c->dir == cudaMemcpyDeviceToDevice ||
             c->dir == cudaMemcpyDefault;   /* the destination may be device memory */
    if (c->height == 1 && c->depth == 1) {
        memmove(d, s, (size_t)c->width);
        if (dd)   /* initcheck: the destination's bytes are written */
            rt_check_host_write(c->dst, c->width);
        return;
    }
    for (uint64_t z = 0; z < c->depth; z++)
        for (uint64_t y = 0; y < c->height; y++) {
            uint64_t off = z * c->dslice + y * c->dpitch;
            memmove(d + off, s + z * c->sslice + y * c->spitch, (size_t)c->width);
            if (dd)
                rt_check_host_write(c->dst + off, c->width);
        }
}

cudaError_t rt_copy_run(const rt_op *op)
{
    uint8_t *d, *s;
    cudaError_t e = rt_copy_prep(op, &d, &s);
    if (e == cudaSuccess)
        rt_copy_move(op, d, s);
    return e;
}

/* Resolve a SET op's destination, with every check of rt_set_run; *d NULL: nothing to set. */
cudaError_t rt_set_prep(const rt_op *op, uint8_t **d)
{
    const __typeof__(op->u.set) *c = &op->u.set;
    uint32_t es = c->elem_size;
    *d = NULL;
    if (es != 1 && es != 2 && es != 4)
        return cudaErrorInvalidValue;
    if (c->height > 1 && c->width * es > c->pitch)
        return cudaErrorInvalidPitchValue;
    uint64_t span = rt_span(c->width * es, c->height, c->depth, c->pitch, c->slice);
    if (!span)
        return cudaSuccess;
    uint8_t *h = rt_dev_host(c->dst, span);
    if (!h) {
        const rt_alloc *a = rt_alloc_find((void *)(uintptr_t)c->dst, 0);
        if (a)
            rt_warn("memset of %" PRIu64 " bytes at 0x%" PRIx64 " runs past the end of %s "
                    "(%" PRIu64 " bytes)", span, c->dst, a->name, a->size);
        return cudaErrorInvalidValue;
    }
    *d = h;
    return cudaSuccess;
}

/* Write the elements of a SET op resolved by rt_set_prep. */
void rt_set_move(const rt_op *op, uint8_t *d)
{
    const __typeof__(op->u.set) *c = &op->u.set;
    uint32_t es = c->elem_size;
    if (!d)
        return;
    for (uint64_t z = 0; z < c->depth; z++)
        for (uint64_t y = 0; y < c->height; y++) {
            uint8_t *row = d + z * c->slice + y * c->pitch;
            if (es == 1) {
                memset(row, (int)(c->value & 0xff), (size_t)c->width);
            } else if (es == 2) {
                uint16_t v = (uint16_t)c->value;
                for (uint64_t x = 0; x < c->width; x++)
                    memcpy(row + 2 * x, &v, 2);
            } else {
                for (uint64_t x = 0; x < c->width; x++)
                    memcpy(row + 4 * x, &c->value, 4);
            }
            rt_check_host_write(c->dst + z * c->slice + y * c->pitch, c->width * es); /* initcheck */
        }
}

cudaError_t rt_set_run(const rt_op *op)
{
    uint8_t *d;
    cudaError_t e = rt_set_prep(op, &d);
    if (e == cudaSuccess)
        rt_set_move(op, d);
    return e;
}
