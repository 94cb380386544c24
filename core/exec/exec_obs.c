/* exec_obs.c - the observer seams (memory accesses, sync events) and the watchpoint observer. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "exec_core.h"

_Static_assert(EXEC_OBS_SMEM_SYSTEM == EXEC_SMEM_RES_BASE, "the reserved shared memory");

/* ---- the table ------------------------------------------------------------------------------- */
/* The gates the hot paths test: spaces some observer wants every access of, and the union of
 * the wants. */
static void obs_gates(exec_machine *m)
{
    m->obs_spaces = 0;
    m->obs_want = 0;
    for (int i = 0; i < m->nobs; i++) {
        if (!m->obs_used[i])
            continue;
        m->obs_spaces |= m->obs[i].spaces;
        m->obs_want |= m->obs[i].want;
    }
    if (m->obs_spaces & (1u << PTX_SPACE_SHARED))
        m->obs_spaces |= 1u << PTX_SPACE_SHARED_CLUSTER;
    exec_undef_sync(m);   /* registers tracked while an observer wants EXEC_OBS_REGS */
}

int exec_observer_add(exec_machine *m, const exec_observer *o)
{
    int i = 0;
    while (i < m->nobs && m->obs_used[i])
        i++;
    if (i == EXEC_MAX_OBSERVERS) {
        snprintf(m->err, sizeof m->err, "too many observers (at most %d)", EXEC_MAX_OBSERVERS);
        return -1;
    }
    m->obs[i] = *o;
    m->obs_used[i] = 1;
    if (i == m->nobs)
        m->nobs++;
    obs_gates(m);
    return i;
}

void exec_observer_del(exec_machine *m, int h)
{
    if (h < 0 || h >= m->nobs || !m->obs_used[h])
        return;
    m->obs_used[h] = 0;
    while (m->nobs && !m->obs_used[m->nobs - 1])
        m->nobs--;
    obs_gates(m);
}

void exec_obs_clear(exec_machine *m)
{
    m->nobs = 0;
    memset(m->obs_used, 0, sizeof m->obs_used);
    obs_gates(m);
}

/* ---- the memory seam ------------------------------------------------------------------------- */
int exec_obs_dispatch(exec_machine *m, exec_mem_ev *ev)
{
    const exec_obs_acc *a = ev->priv;
    ev->cta = a->w->cta->id;
    ev->warp = a->w->id;
    ev->pc = a->in ? a->in->pc : a->w->cur_pc;
    int bad = ev->status != EXEC_ACC_OK;
    for (int i = 0; i < m->nobs; i++) {
        const exec_observer *o = &m->obs[i];
        if (!m->obs_used[i] || !o->access)
            continue;
        if (bad ? !(o->want & EXEC_OBS_BAD) : !((o->spaces >> ev->space) & 1))
            continue;
        if (o->access(o->ctx, m, ev) == EXEC_OBS_HALT)
            return -1;
    }
    return 0;
}

int exec_obs_lane(exec_warp *w, const exec_insn *in, int lane, ptx_space sp, uint64_t addr,
                  uint64_t size, int kind, int status, int flags, mem_region *reg,
                  uint8_t *host)
{
    exec_obs_acc a = { .w = w, .in = in, .reg = reg, .host1 = host };
    exec_mem_ev ev = { .lanes = 1u << lane, .kind = (uint8_t)kind, .status = (uint8_t)status,
                       .flags = (uint8_t)flags, .space = sp, .size = size, .addr1 = addr,
                       .priv = &a };
    if (sp == PTX_SPACE_SHARED_CLUSTER)
        ev.space = PTX_SPACE_SHARED;
    return exec_obs_dispatch(w->m, &ev);
}

int exec_obs_span(exec_warp *w, const exec_insn *in, uint32_t lanes, ptx_space sp,
                  const uint64_t *addrs, uint64_t bias, uint64_t size, int kind, int flags,
                  mem_region *reg, uint8_t *data, uint64_t base)
{
    exec_obs_acc a = { .w = w, .in = in, .reg = reg, .data = data, .base = base };
    exec_mem_ev ev = { .lanes = lanes, .kind = (uint8_t)kind, .flags = (uint8_t)flags,
                       .space = sp == PTX_SPACE_SHARED_CLUSTER ? PTX_SPACE_SHARED : sp,
                       .size = size, .addrs = addrs, .bias = bias, .priv = &a };
    return exec_obs_dispatch(w->m, &ev);
}

const uint8_t *exec_mem_ev_bytes(const exec_mem_ev *e, uint32_t lane)
{
    if (e->status != EXEC_ACC_OK && e->status != EXEC_ACC_PAD)
        return NULL;
    return exec_obs_host(e, lane);
}

int exec_mem_ev_stored(const exec_mem_ev *e, uint32_t lane, uint8_t *out, size_t n)
{
    const exec_obs_acc *a = e->priv;
    const exec_insn *in = a ? a->in : NULL;
    if (!in || !in->src || e->kind != EXEC_ACC_WRITE || (e->flags & EXEC_ACC_F_ASYNC) ||
        in->src->opc != PTX_OPC_st || in->type == PTX_T_B128 || lane >= EXEC_LANES)
        return -1;
    int ne = (int)((in->aux[3] >> 8) & 0xff), es = (int)((in->aux[3] >> 16) & 0xff);
    if (ne < 1 || es < 1 || ne > EXEC_MAXOPS || (uint64_t)ne * (uint64_t)es != e->size)
        return -1;
    size_t k = 0;
    for (int i = 0; i < ne && k < n; i++) {
        if (in->op[i].kind == EXEC_O_SINK)
            return -1;
        const uint8_t *src = EXEC_SRC(a->w, in, i) + (size_t)lane * (size_t)es;
        size_t c = (size_t)es < n - k ? (size_t)es : n - k;
        memcpy(out + k, src, c);
        k += c;
    }
    return (int)k;
}

/* Host bytes of one lane's access of an event (the core's own observers). */
uint8_t *exec_obs_host(const exec_mem_ev *ev, uint32_t lane)
{
    const exec_obs_acc *a = ev->priv;
    if (!ev->addrs)
        return a->host1;
    return a->data ? a->data + (ev->addrs[lane] - a->base) : NULL;
}

/* ---- the sync seam --------------------------------------------------------------------------- */
void exec_obs_sync_ev(exec_machine *m, exec_sync_ev *ev)
{
    for (int i = 0; i < m->nobs; i++) {
        const exec_observer *o = &m->obs[i];
        if (m->obs_used[i] && o->sync && (o->want & EXEC_OBS_SYNC))
            o->sync(o->ctx, m, ev);
    }
}

void exec_obs_sync(exec_warp *w, const exec_insn *in, exec_sync_kind kind, uint32_t lanes,
                   int id, uint32_t count, uint64_t addr)
{
    exec_sync_ev ev = { .kind = kind, .cta = w->cta->id, .warp = w->id,
                        .pc = in ? in->pc : w->cur_pc, .lanes = lanes, .id = id,
                        .count = count, .addr = addr,
                        .what = in && in->src ? in->src->opcode : "" };
    exec_obs_sync_ev(w->m, &ev);
}

void exec_obs_host_event(exec_machine *m, exec_sync_kind kind, uint64_t addr, uint64_t size)
{
    if (!(m->obs_want & EXEC_OBS_SYNC))
        return;
    exec_sync_ev ev = { .kind = kind, .addr = addr, .size = size, .what = "host" };
    exec_obs_sync_ev(m, &ev);
}

/* ---- stops an observer asks for ---------------------------------------------------------------
 * The stop comes after the instruction in progress (the warp's slice is cut to it, as a
 * watchpoint's), or rides on the fault when the instruction faults instead. */
static void obs_stop(exec_machine *m, exec_warp *w, uint32_t pc, ptx_space space,
                     uint64_t addr, uint64_t size, uint32_t lane, int tag, const char *msg);

void exec_obs_stop(exec_machine *m, const exec_mem_ev *ev, uint32_t lane, int tag,
                   const char *msg)
{
    const exec_obs_acc *a = ev->priv;
    obs_stop(m, a->w, ev->pc, ev->space, exec_mem_ev_addr(ev, lane), ev->size, lane, tag, msg);
}

void exec_obs_stop_reg(exec_machine *m, const exec_sync_ev *ev, uint32_t lane, int tag,
                       const char *msg)
{
    if (ev->kind == EXEC_SYNC_REG_UNDEF && ev->priv)
        obs_stop(m, (exec_warp *)ev->priv, ev->pc, PTX_SPACE_REG, 0, 0, lane, tag, msg);
}

/* Arm a check stop at (cta, warp, lane, pc), warp w (the warp the observed event ran) ending
 * its slice; a pending exception keeps its kind and takes the finding's tag. */
static void obs_arm(exec_machine *m, exec_warp *w, uint32_t cta, uint32_t warp, uint32_t lane,
                    uint32_t pc, ptx_space space, uint64_t addr, uint64_t size, int tag,
                    const char *msg)
{
    if (m->stop_set && m->stop.kind == EXEC_STOP_EXCEPTION) {
        if (!m->stop.tag)
            m->stop.tag = tag;
        return;
    }
    if (w->watch_hit || m->stop_set)
        return;
    exec_stop *st = &m->stop;
    memset(st, 0, sizeof *st);
    st->kind = EXEC_STOP_CHECK;
    st->cta = cta;
    st->warp = warp;
    st->lane = lane;
    st->lanes = 1u << lane;
    st->pc = pc;
    st->space = space;
    st->addr = addr;
    st->size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
    st->watch_id = -1;
    st->tag = tag;
    snprintf(st->msg, sizeof st->msg, "%s", msg ? msg : "");
    m->stop_set = 1;
    w->watch_hit = 1;
    w->watch_host = NULL;
    w->budget_left = w->budget - 1;
    w->budget = 1;
}

static void obs_stop(exec_machine *m, exec_warp *w, uint32_t pc, ptx_space space,
                     uint64_t addr, uint64_t size, uint32_t lane, int tag, const char *msg)
{
    obs_arm(m, w, w->cta->id, w->id, lane, pc, space, addr, size, tag, msg);
}

int exec_obs_stop_sync(exec_machine *m, const exec_sync_ev *ev, uint32_t warp, uint32_t lane,
                       uint32_t pc, int tag, const char *msg)
{
    if (m->cta.id != ev->cta || ev->warp >= m->nwarps || warp >= m->nwarps ||
        (ev->kind != EXEC_SYNC_EXIT && ev->kind != EXEC_SYNC_BAR_ARRIVE &&
         ev->kind != EXEC_SYNC_WARP && ev->kind != EXEC_SYNC_WARP_UNDEFINED &&
         ev->kind != EXEC_SYNC_MISUSE && ev->kind != EXEC_SYNC_MBAR_ARRIVE &&
         ev->kind != EXEC_SYNC_MBAR_WAIT))
        return -1;
    obs_arm(m, &m->warps[ev->warp], ev->cta, warp, lane, pc, (ptx_space)0, 0, 0, tag, msg);
    return 0;
}

/* A barrier misused (the warp has just faulted): observers hear it with the fault's message. */
void exec_obs_misuse(exec_warp *w, const exec_insn *in, int lane, int family, int id,
                     uint32_t count, uint64_t addr)
{
    if (!EXEC_OBS_SYNC_ON(w->m))
        return;
    exec_sync_ev ev = { .kind = EXEC_SYNC_MISUSE, .cta = w->cta->id, .warp = w->id,
                        .pc = in ? in->pc : w->cur_pc, .lanes = lane >= 0 ? 1u << lane : 0,
                        .id = id, .count = count, .addr = addr, .op = (uint8_t)family,
                        .what = w->m->stop.msg };
    exec_obs_sync_ev(w->m, &ev);
}

/* ---- the watchpoint observer ------------------------------------------------------------------
 * Watched global or shared ranges (exec_watch_add): the first lane whose access touches one
 * stops the kernel after the instruction, with the old bytes (new ones are read after it). */
static int watch_access(void *ctx, exec_machine *m, const exec_mem_ev *ev)
{
    (void)ctx;
    const exec_obs_acc *a = ev->priv;
    exec_warp *w = a->w;
    if (w->watch_hit || ev->status != EXEC_ACC_OK)
        return EXEC_OBS_GO;
    int write = ev->kind != EXEC_ACC_READ;
    EXEC_FOR_LANES(lane, ev->lanes) {
        uint64_t addr = exec_mem_ev_addr(ev, lane), size = ev->size;
        for (int i = 0; i < m->nwatches; i++) {
            const exec_watch *wt = &m->watches[i];
            if (!wt->used || !(wt->kinds & (write ? 1 : 2)))
                continue;
            ptx_space ws = wt->space == PTX_SPACE_SHARED_CLUSTER ? PTX_SPACE_SHARED : wt->space;
            if (ws != ev->space ||
                (ws == PTX_SPACE_SHARED && wt->cta != UINT32_MAX && wt->cta != w->cta->id))
                continue;
            if (addr >= wt->addr + wt->len || wt->addr >= addr + size)
                continue;
            const uint8_t *host = exec_obs_host(ev, lane);
            exec_stop *st = &m->stop;
            memset(st, 0, sizeof *st);
            st->kind = EXEC_STOP_WATCH;
            st->cta = w->cta->id;
            st->warp = w->id;
            st->lane = lane;
            st->lanes = 1u << lane;
            st->pc = ev->pc;
            st->space = ev->space;
            st->addr = addr;
            st->size = size > 16 ? 16 : (uint32_t)size;
            st->watch_id = wt->id;
            memcpy(st->old_bytes, host, st->size);
            snprintf(st->msg, sizeof st->msg, "watchpoint %d: %s of %" PRIu64 " bytes at 0x%"
                     PRIx64, wt->id, write ? "write" : "read", size, addr);
            m->stop_set = 1;
            w->watch_hit = 1;
            w->watch_host = (uint8_t *)host;
            w->budget_left = w->budget - 1;
            w->budget = 1;
            return EXEC_OBS_GO;
        }
    }
    return EXEC_OBS_GO;
}

/* The watchpoint observer is in the table while a watchpoint is (exec_watch_add/del). */
void exec_obs_watch_sync(exec_machine *m)
{
    int any = 0;
    for (int i = 0; i < m->nwatches; i++)
        any |= m->watches[i].used;
    if (any && m->watch_obs < 0) {
        exec_observer o = { .name = "watchpoints",
                            .spaces = (1u << PTX_SPACE_GLOBAL) | (1u << PTX_SPACE_SHARED),
                            .access = watch_access };
        m->watch_obs = exec_observer_add(m, &o);
    } else if (!any && m->watch_obs >= 0) {
        exec_observer_del(m, m->watch_obs);
        m->watch_obs = -1;
    }
}

/* ---- the hardware's granularity ---------------------------------------------------------------- */
#define OBS_SMALL_GRAIN 256ull
#define OBS_PAGE (2ull << 20)

uint64_t exec_alloc_padding(uint64_t size)
{
    if (size < OBS_PAGE)
        return (size + OBS_SMALL_GRAIN - 1) / OBS_SMALL_GRAIN * OBS_SMALL_GRAIN - size +
               OBS_SMALL_GRAIN;
    return (size + OBS_PAGE - 1) / OBS_PAGE * OBS_PAGE - size + OBS_PAGE;
}

int exec_global_set_pad(exec_machine *m, uint64_t base, uint64_t pad)
{
    mem_region *r = mem_global_find(&m->glob, base, 0);
    if (!r || r->base != base || r->kind != MEM_R_MAPPED) {
        snprintf(m->err, sizeof m->err, "0x%" PRIx64 " is not a mapped range", base);
        return -1;
    }
    const mem_region *nx = mem_global_next(&m->glob, r);
    if (nx && nx->base - base < r->size + pad) {
        snprintf(m->err, sizeof m->err, "the padding of 0x%" PRIx64 " would overlap 0x%" PRIx64,
                 base, nx->base);
        return -1;
    }
    r->pad = pad;
    return 0;
}

uint64_t exec_pad_accesses(const exec_machine *m) { return m->pad_hits; }

/* ---- allocations near an address (for checkers' messages) --------------------------------------- */
static void obs_region_info(const mem_region *r, exec_region_info *ri)
{
    ri->base = r->base;
    ri->size = r->size;
    ri->kind = r->kind;
    ri->id = r->id;
    ri->name = r->sym ? r->sym->name : r->name[0] ? r->name : NULL;
}

int exec_global_near(const exec_machine *m, uint64_t addr, exec_region_info *ri, uint64_t *pad)
{
    const mem_region *r = mem_global_nearest(&m->glob, addr);
    if (!r)
        return -1;
    obs_region_info(r, ri);
    if (pad)
        *pad = r->pad;
    return 0;
}

int exec_global_pad_owner(exec_machine *m, uint64_t addr, uint64_t n, exec_region_info *ri,
                          uint64_t *pad)
{
    const mem_region *r = mem_global_find_pad(&m->glob, addr, n ? n : 1);
    if (!r)
        return -1;
    obs_region_info(r, ri);
    if (pad)
        *pad = r->pad;
    return 0;
}

int exec_global_freed_at(const exec_machine *m, uint64_t addr, exec_region_info *ri)
{
    const mem_freed *f = mem_global_freed(&m->glob, addr);
    if (!f)
        return -1;
    ri->base = f->base;
    ri->size = f->size;
    ri->kind = f->kind;
    ri->id = f->id;
    ri->name = f->name[0] ? f->name : NULL;
    return 0;
}

/* ---- memory order of an instruction --------------------------------------------------------- */
int exec_pc_order(const exec_machine *m, uint32_t pc, uint8_t *sem, uint8_t *scope)
{
    static const struct { const char *mod; int sem; } sems[] = {
        { "weak", EXEC_SEM_WEAK }, { "volatile", EXEC_SEM_VOLATILE },
        { "relaxed", EXEC_SEM_RELAXED }, { "acquire", EXEC_SEM_ACQUIRE },
        { "release", EXEC_SEM_RELEASE }, { "acq_rel", EXEC_SEM_ACQ_REL }, { "sc", EXEC_SEM_SC },
    };
    static const struct { const char *mod; int scope; } scopes[] = {
        { "cta", EXEC_SCOPE_CTA }, { "cluster", EXEC_SCOPE_CLUSTER }, { "gpu", EXEC_SCOPE_GPU },
        { "sys", EXEC_SCOPE_SYS }, { "gl", EXEC_SCOPE_GPU },
    };
    if (pc >= m->ncode || !m->code[pc].src)
        return -1;
    const ptx_insn *pi = m->code[pc].src;
    int atomic = ptx_op_is(pi, PTX_OPF_ATOMIC);
    int fence = ptx_op_is(pi, PTX_OPF_FENCE);
    *sem = atomic ? EXEC_SEM_RELAXED : fence ? EXEC_SEM_SC : EXEC_SEM_WEAK;
    *scope = atomic || fence ? EXEC_SCOPE_GPU : EXEC_SCOPE_NONE;
    for (int i = 0; i < pi->nmods; i++) {
        for (size_t k = 0; k < sizeof sems / sizeof sems[0]; k++)
            if (!strcmp(pi->mods[i], sems[k].mod))
                *sem = (uint8_t)sems[k].sem;
        for (size_t k = 0; k < sizeof scopes / sizeof scopes[0]; k++)
            if (!strcmp(pi->mods[i], scopes[k].mod))
                *scope = (uint8_t)scopes[k].scope;
    }
    return 0;
}
