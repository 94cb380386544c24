/* chk_memcheck.c - memcheck: invalid accesses in every space and device heap errors, as findings. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "chk_int.h"

/* ---------------------------------------------------------------------------------------------
 * memcheck observes only the accesses the core cannot perform as asked (EXEC_OBS_BAD): it costs
 * nothing on correct accesses, and parallel workers hand such an access to one thread (exec_obs.h),
 * so it never slows a run down or keeps it on one thread. Each one becomes a finding:
 *   - out of range in any space; in global memory named as a null pointer, memory that was freed,
 *     an overflow of a device malloc block, or an access near the nearest allocation (how far
 *     before or after it);
 *   - misaligned (any space), a store to const or kernel parameter space;
 *   - device free() of a block already freed or of something malloc did not return.
 * Accesses a GPU completes (EXEC_ACC_PAD: past the end of an allocation, inside what a GPU maps
 * for it) are performed and reported with "a GPU would not fault here"; the others fault, and the
 * fault's stop carries the finding.
 * ------------------------------------------------------------------------------------------- */

typedef struct {
    chk_ctx *c;
    int handle;
} mc_state;

#define MC_NULL_PAGE 0x10000ull   /* addresses below this are taken for a null pointer's */

static int mc_fault_status(int st) { return st != EXEC_ACC_OK && st != EXEC_ACC_PAD; }

static chk_kind mc_classify(exec_machine *m, const exec_mem_ev *ev, uint64_t addr)
{
    switch (ev->status) {
    case EXEC_ACC_FREE_TWICE: return CHK_K_DOUBLE_FREE;
    case EXEC_ACC_FREE_BAD: return CHK_K_BAD_FREE;
    case EXEC_ACC_MISALIGNED: return CHK_K_MISALIGNED;
    case EXEC_ACC_READONLY: return CHK_K_READONLY;
    default: break;
    }
    if (ev->space != PTX_SPACE_GLOBAL)
        return CHK_K_OOB;
    if (addr < MC_NULL_PAGE)
        return CHK_K_NULL;
    exec_region_info ri;
    char d[8];
    if (ev->status == EXEC_ACC_OOB &&
        (exec_freed_describe(m, addr, d, sizeof d) || exec_global_freed_at(m, addr, &ri) == 0))
        return CHK_K_FREED;
    if (exec_global_near(m, addr, &ri, NULL) == 0 && ri.kind == 3 /* device heap */)
        return CHK_K_HEAP_OVERFLOW;
    return CHK_K_OOB;
}

static void mc_region_name(const exec_region_info *ri, char *out, size_t n)
{
    if (ri->name)
        snprintf(out, n, "%s", ri->name);
    else
        snprintf(out, n, "%s#%u", ri->kind == 3 ? "device malloc block" : "buffer", ri->id);
}

/* The allocation fields of a global finding: the nearest allocation (or the freed one). */
static void mc_global_place(exec_machine *m, chk_finding *f)
{
    exec_region_info ri;
    uint64_t pad = 0;
    if (f->kind == CHK_K_FREED && exec_freed_describe(m, f->addr, f->where, sizeof f->where)) {
        /* the runtime's description: the allocation, and where the host freed it */
        f->freed = 1;
        f->rel = 0;
        return;
    }
    if (f->kind == CHK_K_FREED && exec_global_freed_at(m, f->addr, &ri) == 0) {
        f->freed = 1;
    } else if (exec_global_near(m, f->addr, &ri, &pad) != 0) {
        f->rel = 2;
        snprintf(f->where, sizeof f->where, "not inside any allocation");
        return;
    }
    uint64_t end = ri.base + ri.size;
    if (f->addr >= ri.base && f->addr < end) {
        f->rel = 0;
    } else if (f->addr >= end) {
        f->rel = 1;
        f->dist = f->addr - end;
    } else {
        f->rel = -1;
        f->dist = ri.base - f->addr;
    }
    if (!f->freed && f->dist > (1ull << 30)) {   /* nowhere near anything */
        f->rel = 2;
        snprintf(f->where, sizeof f->where, "not inside any allocation");
        return;
    }
    f->alloc_base = ri.base;
    f->alloc_size = ri.size;
    mc_region_name(&ri, f->alloc_name, sizeof f->alloc_name);
}

/* The words for an address of another space. */
static void mc_space_place(exec_machine *m, const exec_mem_ev *ev, uint32_t lane, chk_finding *f)
{
    uint64_t sp, top;
    switch (f->space) {
    case PTX_SPACE_SHARED:
        if (f->addr >= exec_shared_size(m))
            snprintf(f->where, sizeof f->where, "%" PRIu64 " bytes past the end of the block's "
                     "shared memory (%" PRIu64 " bytes)", f->addr - exec_shared_size(m),
                     exec_shared_size(m));
        else
            snprintf(f->where, sizeof f->where, "in another kernel's shared variable, not part "
                     "of this kernel's shared memory");
        break;
    case PTX_SPACE_LOCAL:
        if (exec_local_stack(m, ev->cta, ev->warp, lane, &sp, &top) == 0 && f->addr < sp)
            snprintf(f->where, sizeof f->where, "%" PRIu64 " bytes below the thread's stack "
                     "pointer (local memory not allocated, or already freed)", sp - f->addr);
        else
            snprintf(f->where, sizeof f->where, "above the top of the thread's local stack");
        break;
    default: {
        char d[256];
        exec_addr_describe(m, f->space, f->addr, d, sizeof d);
        snprintf(f->where, sizeof f->where, "outside %s space (near %s)",
                 ptx_space_name(f->space), d);
        break;
    }
    }
}

static int mc_access(void *ctx, exec_machine *m, const exec_mem_ev *ev)
{
    mc_state *s = ctx;
    chk_ctx *c = s->c;
    if (ev->status == EXEC_ACC_OK || !ev->lanes)
        return EXEC_OBS_GO;
    uint32_t lane = (uint32_t)__builtin_ctz(ev->lanes);
    uint64_t addr = exec_mem_ev_addr(ev, lane);
    chk_kind kind = mc_classify(m, ev, addr);
    const void *mod = exec_module(m);
    chk_finding *f = chk_find(c, CHK_MEMCHECK, kind, mod, ev->pc, 0);
    if (f) {
        chk_repeat(c, m, ev, lane, f, mc_fault_status(ev->status));
        return EXEC_OBS_GO;
    }
    if (!(f = chk_add(c, CHK_MEMCHECK, kind, mod)))
        return EXEC_OBS_GO;
    f->severity = CHK_SEV_ERROR;
    f->space = ev->space;
    f->addr = addr;
    f->size = ev->size;
    f->access = ev->kind;
    f->nparties = 1;
    chk_party_fill(c, m, &f->party[0], ev->cta, ev->warp, lane, ev->pc, ev->kind);
    chk_launch_fill(c, m, f);
    f->gpu_faults = mc_fault_status(ev->status);
    if (kind == CHK_K_DOUBLE_FREE || kind == CHK_K_BAD_FREE)
        ;   /* a free, not an access: no allocation to place it near */
    else if (ev->space == PTX_SPACE_GLOBAL)
        mc_global_place(m, f);
    else
        mc_space_place(m, ev, lane, f);
    exec_region_info po;
    if (ev->status == EXEC_ACC_PAD &&
        exec_global_pad_owner(m, addr, ev->size, &po, &f->pad) == 0)
        mc_region_name(&po, f->pad_owner, sizeof f->pad_owner);
    if (kind == CHK_K_DOUBLE_FREE)
        snprintf(f->where, sizeof f->where, "the device malloc block was already freed");
    else if (kind == CHK_K_BAD_FREE)
        snprintf(f->where, sizeof f->where, "not a pointer returned by device malloc");
    chk_deliver(c, m, ev, lane, f);
    return EXEC_OBS_GO;
}

void *chk_memcheck_attach(chk_ctx *c, exec_machine *m)
{
    mc_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->c = c;
    exec_observer o = { .name = "memcheck", .want = EXEC_OBS_BAD, .access = mc_access,
                        .ctx = s };
    s->handle = exec_observer_add(m, &o);
    if (s->handle < 0) {
        free(s);
        return NULL;
    }
    return s;
}

void chk_memcheck_detach(chk_ctx *c, exec_machine *m, void *state)
{
    (void)c;
    mc_state *s = state;
    exec_observer_del(m, s->handle);
    free(s);
}
