/* exec_launch.c - launches and CTAs: parameters, bounds, CTA start and end, lanes leaving, kill. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec_core.h"

/* ---- lanes leaving ----------------------------------------------------------------------------*/
void exec_lanes_retire(exec_warp *w, const exec_insn *in, uint32_t lanes)
{
    lanes &= ~w->exited;
    if (!lanes)
        return;
    w->exited |= lanes;
    EXEC_FOR_LANES(i, lanes)
        exec_act_release(w, w->lframe[i], 1u << i);
    w->cta->nexited += (uint32_t)exec_popc(lanes);
    w->cur_mask &= ~lanes;
    w->resched = 1;
    if (EXEC_OBS_SYNC_ON(w->m))
        exec_obs_sync(w, in, EXEC_SYNC_EXIT, lanes, -1, 0, 0);
    if (w->cta->nexited == w->cta->nthreads) {
        exec_tcgen05_cta_exit(w, in);   /* Tensor Memory left allocated */
        if (EXEC_OBS_SYNC_ON(w->m))
            exec_obs_sync(w, in, EXEC_SYNC_CTA_END, 0, -1, 0, 0);
    }
    /* warp-sync waiters that named these lanes complete without them */
    if (w->ws_wait)
        exec_ws_exited(w);
    exec_bar_check(w->m);
}

/* ---- CTAs ------------------------------------------------------------------------------------ */
/* End the running CTA: its frames and local stacks go back to its warps for the next CTA
 * (stacks zeroed). keep = 1 between CTAs of a run: the shared block stays for the next CTA
 * (cleared when reused). keep = 0 when the launch is over or the CTA is parked for good: the
 * shared block goes to the machine's pool for a later launch (whoever frees or keeps the warps
 * decides about their memory: exec_wset_put, exec_wset_free). */
void exec_cta_end(exec_machine *m, int keep)
{
    if (!m->cta_live && keep)
        return;
    for (uint32_t k = 0; m->cta_live && m->warps && k < m->nwarps; k++) {
        exec_warp *w = &m->warps[k];
        w->free_frames = NULL;
        for (exec_act *f = w->all_frames; f; f = f->all_next) {
            f->in_use = 0;
            f->members = 0;
            f->next_free = w->free_frames;
            w->free_frames = f;
        }
        w->kframe = NULL;
        for (int i = 0; i < EXEC_LANES; i++)
            if (w->ldata[i])
                memset(w->ldata[i], 0, w->lcap[i]);
    }
    if (!keep && m->cta.shared) {
        exec_wset_put(&m->pool, NULL, NULL, 0, m->cta.shared, m->cta.shared_cap);
        m->cta.shared = NULL;
        m->cta.shared_cap = 0;
    }
    m->cta_live = 0;
}

int exec_cta_start(exec_machine *m, uint32_t id)
{
    exec_cta *c = &m->cta;
    uint8_t *sh = c->shared;   /* kept from the previous CTA of this launch, or NULL */
    uint64_t cap = c->shared_cap;
    memset(c, 0, sizeof *c);
    c->id = id;
    c->coord = exec_cta_coord(m, id);
    c->nthreads = m->nthreads;
    for (int b = 0; b < EXEC_NBAR; b++)
        c->bar[b].red_and = 1;
    c->shared_size = exec_smem_user(m->shared_static, m->li.dyn_shmem);
    uint64_t need = c->shared_size ? c->shared_size : 1;
    if (!sh && m->pool.sh && m->pool.sh_cap >= need) {   /* a previous launch's block */
        sh = m->pool.sh;
        cap = m->pool.sh_cap;
        m->pool.sh = NULL;
        m->pool.sh_cap = 0;
    }
    if (sh && cap >= need) {
        memset(sh, exec_fill_byte(m), need);
    } else {
        free(sh);
        sh = calloc(1, need);
        cap = need;
        if (sh && m->fill)   /* set fill: fresh shared memory holds the pattern */
            memset(sh, exec_fill_byte(m), need);
    }
    c->shared = sh;
    c->shared_cap = cap;
    if (!c->shared)
        return -1;
    m->cta_live = 1;
    if (EXEC_OBS_SYNC_ON(m)) {
        exec_sync_ev ev = { .kind = EXEC_SYNC_CTA_BEGIN, .cta = id, .size = c->shared_size,
                            .what = "CTA" };
        exec_obs_sync_ev(m, &ev);
    }
    exec_sreg_init_cta(m);
    const exec_fdec *kfd = m->kfd;
    exec_insn *in0 = &m->code[kfd->pc0];
    for (uint32_t k = 0; k < m->nwarps; k++) {
        exec_warp *w = &m->warps[k];
        uint32_t first = k * 32, n = m->nthreads - first > 32 ? 32 : m->nthreads - first;
        w->m = m;
        w->cta = c;
        w->id = k;
        w->valid = n == 32 ? EXEC_FULL : (1u << n) - 1;
        w->exited = w->trapped = w->bar_wait = w->ws_wait = 0;
        w->stopped = 0;
        w->bp_pass = w->bp_pass_lanes = 0;
        w->solo = 0;
        w->watch_hit = 0;
        w->r.sregs = m->sregs + (size_t)k * EXEC_SR__COUNT * EXEC_SLOT;
        w->r.cc = 0;
        exec_act *f = exec_act_new(w, kfd);
        if (!f)
            return -1;
        f->members = w->valid;
        w->kframe = f;
        for (int i = 0; i < EXEC_LANES; i++) {
            w->lframe[i] = f;
            w->pc[i] = kfd->pc0;
            w->lane_bar[i] = -1;
            w->lsp[i] = MEM_LOCAL_TOP;   /* empty: the stack grows down (mem.h) */
            if ((w->valid >> i) & 1) {
                uint64_t base = MEM_LOCAL_TOP;
                if (kfd->local_size && mem_local_push(w, in0, i, kfd->local_size,
                                                      kfd->local_align, &base))
                    return -1;
                f->local_base[i] = base;
            }
        }
        w->cur_mask = 0;
        w->cur_pc = kfd->pc0;
        w->resched = 1;
        exec_sched(w);
    }
    return 0;
}

/* ---- launches -------------------------------------------------------------------------------- */
int64_t exec_param_layout(const ptx_func *kernel, uint64_t *offsets, uint64_t *sizes, int max)
{
    if (!kernel)
        return -1;
    uint64_t off = 0;
    for (int i = 0; i < kernel->nparams; i++) {
        const ptx_sym *s = kernel->params[i];
        uint64_t a = s->align > 0 ? (uint64_t)s->align : 0;
        if (!a) {
            int b = ptx_type_bits(s->type) / 8;
            a = (uint64_t)(b > 0 ? b : 1);
        }
        off = (off + a - 1) / a * a;
        uint64_t sz = s->size ? s->size : (uint64_t)(ptx_type_bits(s->type) / 8);
        if (i < max) {
            if (offsets)
                offsets[i] = off;
            if (sizes)
                sizes[i] = sz;
        }
        off += sz;
    }
    return (int64_t)off;
}

void exec_kill(exec_machine *m)
{
    exec_cluster_free(m);
    exec_res_free(m);
    exec_cta_end(m, 0);
    exec_wset_put(&m->pool, m->warps, m->sregs, m->nwarps, NULL, 0);
    m->warps = NULL;
    m->sregs = NULL;
    free(m->kparams);
    m->kparams = NULL;
    m->kparam_size = 0;
    m->launched = 0;
    m->over = 0;
    m->bar_hold = 0;
}

/* The kernel's own bounds: .reqntid is the exact block shape, .maxntid bounds the number of
 * threads (the product of its extents), as the driver enforces them at launch. */
static int exec_launch_bounds(exec_machine *m, const ptx_func *k, exec_dim3 b)
{
    const uint32_t *r = k->reqntid, *x = k->maxntid;
    uint64_t nt = (uint64_t)b.x * b.y * b.z;
    if (r[0] && (b.x != r[0] || b.y != r[1] || b.z != r[2])) {
        snprintf(m->err, sizeof m->err, "invalid configuration argument: kernel %s requires "
                 "a block of exactly (%u,%u,%u) threads (.reqntid), launched with (%u,%u,%u)",
                 k->sym->name, r[0], r[1], r[2], b.x, b.y, b.z);
        return -1;
    }
    if (x[0] && nt > (uint64_t)x[0] * x[1] * x[2]) {
        snprintf(m->err, sizeof m->err, "too many resources requested for launch: kernel %s "
                 "allows at most %llu threads per block (.maxntid %u,%u,%u), launched with "
                 "(%u,%u,%u)", k->sym->name, (unsigned long long)x[0] * x[1] * x[2], x[0],
                 x[1], x[2], b.x, b.y, b.z);
        return -1;
    }
    return 0;
}

int exec_launch(exec_machine *m, const ptx_func *kernel, exec_dim3 grid, exec_dim3 block,
                uint32_t dyn_shmem, const void *params, size_t nparams_bytes)
{
    exec_kill(m);
    if (!kernel || !kernel->is_entry || !kernel->has_body || !m->fdec[kernel->sym->index]) {
        snprintf(m->err, sizeof m->err, "%s is not a kernel with a body",
                 kernel ? kernel->sym->name : "(null)");
        return -1;
    }
    uint64_t nt = (uint64_t)block.x * block.y * block.z;
    uint64_t nc = (uint64_t)grid.x * grid.y * grid.z;
    if (!nt || nt > 1024 || !nc || nc > 0xffffffffull || block.z > 64) {
        snprintf(m->err, sizeof m->err, "invalid launch configuration grid (%u,%u,%u) block "
                 "(%u,%u,%u)", grid.x, grid.y, grid.z, block.x, block.y, block.z);
        return -1;
    }
    if (exec_launch_bounds(m, kernel, block) != 0 || mem_shared_view(m, kernel) != 0)
        return -1;
    int64_t psz = exec_param_layout(kernel, NULL, NULL, 0);
    if (psz < 0 || (uint64_t)psz > nparams_bytes) {
        snprintf(m->err, sizeof m->err, "kernel %s needs %" PRId64 " bytes of parameters, %zu "
                 "given", kernel->sym->name, psz, nparams_bytes);
        return -1;
    }
    m->kparams = malloc((size_t)psz + 1);
    if (!m->kparams)
        return -1;
    if (psz)
        memcpy(m->kparams, params, (size_t)psz);
    m->kparam_size = (uint64_t)psz;
    m->kfd = m->fdec[kernel->sym->index];
    m->li.kernel = kernel;
    m->li.grid = grid;
    m->li.block = block;
    m->li.dyn_shmem = dyn_shmem;
    m->li.launch_id = m->nlaunch++;
    m->nthreads = (uint32_t)nt;
    m->nwarps = (uint32_t)((nt + 31) / 32);
    m->ncta = (uint32_t)nc;
    if (exec_wset_get(&m->pool, m->nwarps, &m->warps, &m->sregs)) {
        exec_kill(m);
        snprintf(m->err, sizeof m->err, "out of memory");
        return -1;
    }
    m->launched = 1;
    m->over = 0;
    m->stop_set = 0;
    m->cur_cta = 0;
    if (exec_coop_prepare(m)) {   /* cooperative: the grid barrier's workspace (exec_sched.c) */
        exec_kill(m);
        return -1;
    }
    exec_sreg_init_launch(m);
    exec_sched_launch(m);
    if (EXEC_OBS_SYNC_ON(m)) {
        exec_sync_ev ev = { .kind = EXEC_SYNC_LAUNCH, .count = m->ncta, .what = "launch" };
        exec_obs_sync_ev(m, &ev);
    }
    if (exec_cta_start(m, 0)) {
        exec_kill(m);
        snprintf(m->err, sizeof m->err, "cannot start CTA 0 (out of memory)");
        return -1;
    }
    if (exec_cluster_launch(m)) {   /* cluster shape; the rest of cluster 0 (exec_cluster.c) */
        exec_kill(m);
        return -1;
    }
    m->cta_fresh = 1;
    return 0;
}

const exec_launch_info *exec_current_launch(const exec_machine *m)
{
    return m->launched ? &m->li : NULL;
}

void exec_set_launch_id(exec_machine *m, uint32_t id)
{
    if (m->launched)
        m->li.launch_id = id;
}

/* Steps a CTA's start costs the budget (the watchdog must fire on grids of tiny CTAs too):
 * one per warp set up, one per KB of shared memory cleared. */
uint64_t exec_cta_cost(const exec_machine *m)
{
    return m->nwarps + (((uint64_t)m->shared_static + m->li.dyn_shmem) >> 10);
}

/* ---- entry points for thread block clusters (exec_cluster.c) ---------------------------------- */

int exec_run_cta_start(exec_machine *m, uint32_t id) { return exec_cta_start(m, id); }
void exec_run_cta_end(exec_machine *m, int keep) { exec_cta_end(m, keep); }

/* Free a parked CTA (clusters, resident CTAs): its frames, stacks, shared block and arrays;
 * the CTA swapped in stays as it is. */
void exec_run_cta_free_parked(exec_machine *m, exec_cta *c, exec_warp *warps, uint8_t *sregs)
{
    exec_cta keep = m->cta;
    exec_warp *kw = m->warps;
    int live = m->cta_live;
    m->cta = *c;
    m->warps = warps;
    m->cta_live = 1;
    exec_cta_end(m, 0);
    exec_wset_free(warps, sregs, m->nwarps);
    m->cta = keep;
    m->warps = kw;
    m->cta_live = live;
}
