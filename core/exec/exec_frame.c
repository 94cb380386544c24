/* exec_frame.c - activation frames of a warp and the warp sets kept between launches. */
#include <stdlib.h>
#include <string.h>
#include "exec_core.h"

/* ---- frames ---------------------------------------------------------------------------------- */
exec_act *exec_act_new(exec_warp *w, const exec_fdec *fd)
{
    size_t need = fd->regbytes + sizeof(uint32_t) * fd->npreds + (size_t)fd->param_size * 32;
    exec_act **pp = &w->free_frames, *f = NULL;
    for (; *pp; pp = &(*pp)->next_free)
        if ((*pp)->cap >= need) {
            f = *pp;
            *pp = f->next_free;
            break;
        }
    if (!f) {
        if (w->nframes > EXEC_MAX_DEPTH * 4)
            return NULL;
        f = calloc(1, sizeof *f);
        if (!f)
            return NULL;
        f->regs = aligned_alloc(64, (need + 63) & ~(size_t)63);
        if (!f->regs) {
            free(f);
            return NULL;
        }
        /* the scratch slots too: a core file writes the whole block (deterministic bytes) */
        memset(f->regs, 0, (need + 63) & ~(size_t)63);
        f->cap = need;
        f->all_next = w->all_frames;
        w->all_frames = f;
        w->nframes++;
    }
    /* registers start at zero (deterministic); the scratch slots are written before read */
    memset(f->regs, 0, fd->scratch_off);
    memset(f->regs + fd->regbytes, 0, need - fd->regbytes);
    f->preds = (uint32_t *)(void *)(f->regs + fd->regbytes);
    f->params = (uint8_t *)(f->preds + fd->npreds);
    f->fd = fd;
    f->parent = NULL;
    f->depth = 0;
    f->members = 0;
    f->next_free = NULL;
    f->in_use = 1;
    if (__builtin_expect(w->m->reg_track || f->defd != NULL, 0))
        exec_undef_frame(w, f);   /* initcheck's register masks */
    return f;
}

void exec_act_release(exec_warp *w, exec_act *f, uint32_t lanes)
{
    for (; f; f = f->parent) {
        f->members &= ~lanes;
        if (!f->members && f != w->kframe && f->in_use) {
            f->in_use = 0;
            f->next_free = w->free_frames;
            w->free_frames = f;
        }
    }
}

/* ---- per-launch memory ------------------------------------------------------------------------
 * A launch's warps (with the frames and local stacks they grew) and shared blocks are kept for
 * the next launch (exec_wset): a program of thousands of small launches then reuses the same
 * memory instead of growing and shrinking the host heap at each (page faults, brk calls).
 * A set is kept while it holds at most EXEC_POOL_MAX bytes, and reused by a launch with the
 * same number of warps (zeroed as calloc would give it); the machine keeps one for itself and
 * one per parallel worker. exec_free releases them. */
#define EXEC_POOL_MAX (64u << 20)

static uint64_t exec_wset_bytes(const exec_warp *warps, uint32_t n)
{
    uint64_t b = 0;
    for (uint32_t k = 0; k < n; k++) {
        for (const exec_act *f = warps[k].all_frames; f; f = f->all_next)
            b += f->cap + sizeof *f;
        for (int i = 0; i < EXEC_LANES; i++)
            b += warps[k].lcap[i];
    }
    return b;
}

/* Free n warps' frames, stacks and arrays. */
void exec_wset_free(exec_warp *warps, uint8_t *sregs, uint32_t n)
{
    for (uint32_t k = 0; warps && k < n; k++) {
        exec_warp *w = &warps[k];
        for (exec_act *f = w->all_frames, *nx; f; f = nx) {
            nx = f->all_next;
            free(f->regs);
            free(f->defd);
            free(f);
        }
        for (int i = 0; i < EXEC_LANES; i++)
            free(w->ldata[i]);
    }
    free(warps);
    free(sregs);
}

/* Keep n warps (NULL: none) and a shared block (NULL: none) in slot for a later launch, or free
 * them when they hold too much; what the slot held before goes. */
void exec_wset_put(exec_wset *slot, exec_warp *warps, uint8_t *sregs, uint32_t n,
                   uint8_t *sh, uint64_t sh_cap)
{
    if (warps) {
        if (exec_wset_bytes(warps, n) > EXEC_POOL_MAX) {
            exec_wset_free(warps, sregs, n);
        } else {
            exec_wset_free(slot->warps, slot->sregs, slot->n);
            slot->warps = warps;
            slot->sregs = sregs;
            slot->n = n;
        }
    }
    if (sh) {
        if (sh_cap > EXEC_POOL_MAX || (slot->sh && slot->sh_cap >= sh_cap)) {
            free(sh);
        } else {
            free(slot->sh);
            slot->sh = sh;
            slot->sh_cap = sh_cap;
        }
    }
}

void exec_wset_release(exec_wset *slot)
{
    exec_wset_free(slot->warps, slot->sregs, slot->n);
    free(slot->sh);
    memset(slot, 0, sizeof *slot);
}

/* n zeroed warps and their special-register block: the slot's, frames and stacks kept (zeroed
 * as a new CTA's are), when it has exactly n; else new ones. -1 when out of memory. */
int exec_wset_get(exec_wset *slot, uint32_t n, exec_warp **warps, uint8_t **sregs)
{
    if (slot->warps && slot->n == n) {
        for (uint32_t k = 0; k < n; k++) {
            exec_warp *w = &slot->warps[k];
            exec_act *all = w->all_frames;
            int nf = w->nframes;
            uint8_t *ld[EXEC_LANES];
            uint32_t lc[EXEC_LANES];
            memcpy(ld, w->ldata, sizeof ld);
            memcpy(lc, w->lcap, sizeof lc);
            memset(w, 0, sizeof *w);
            w->all_frames = all;
            w->nframes = nf;
            for (exec_act *f = all; f; f = f->all_next) {
                f->in_use = 0;
                f->members = 0;
                f->next_free = w->free_frames;
                w->free_frames = f;
            }
            memcpy(w->ldata, ld, sizeof ld);
            memcpy(w->lcap, lc, sizeof lc);
            for (int i = 0; i < EXEC_LANES; i++)
                if (ld[i])
                    memset(ld[i], 0, lc[i]);
        }
        memset(slot->sregs, 0, (size_t)n * EXEC_SR__COUNT * EXEC_SLOT);
        *warps = slot->warps;
        *sregs = slot->sregs;
        slot->warps = NULL;
        slot->sregs = NULL;
        slot->n = 0;
        return 0;
    }
    exec_wset_free(slot->warps, slot->sregs, slot->n);
    slot->warps = NULL;
    slot->sregs = NULL;
    slot->n = 0;
    *warps = calloc(n, sizeof(exec_warp));
    *sregs = calloc((size_t)n * EXEC_SR__COUNT, EXEC_SLOT);
    if (!*warps || !*sregs) {
        free(*warps);
        free(*sregs);
        *warps = NULL;
        *sregs = NULL;
        return -1;
    }
    return 0;
}
