/* exec_api.c - the public machine API: load/free, global memory, symbols, inspection. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "exec_core.h"

exec_machine *exec_new(const ptx_module *mod, char *err, size_t errlen)
{
    return exec_new_at(mod, MEM_GLOBAL_BASE, 0, err, errlen);
}

exec_machine *exec_new_at(const ptx_module *mod, uint64_t global_base, uint64_t global_limit,
                          char *err, size_t errlen)
{
    char dummy[8];
    if (!err || !errlen) {
        err = dummy;
        errlen = sizeof dummy;
    }
    err[0] = 0;
    if (!mod) {
        snprintf(err, errlen, "no module");
        return NULL;
    }
    if (exec_load_limits(mod, err, errlen))   /* what ptxas and the driver refuse at load */
        return NULL;
    exec_machine *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    m->mod = mod;
    m->out = NULL; /* stdout as it is when printing (the front end may replace it) */
    m->glob.next = (global_base + 255) & ~255ull;
    m->glob_base = global_base;
    m->glob.limit = global_limit;
    m->heap_limit = EXEC_HEAP_DEFAULT;
    m->watch_obs = -1;
    m->ws_hook_obs = -1;
    m->par_warmup = EXEC_PAR_WARMUP;
    if (exec_decode_module(m, err, errlen)) {
        if (!err[0])
            snprintf(err, errlen, "%s: error: out of memory while decoding", mod->path);
        exec_free(m);
        return NULL;
    }
    return m;
}

void exec_free(exec_machine *m)
{
    if (!m)
        return;
    exec_kill(m);
    exec_wset_release(&m->pool);
    for (int i = 0; m->wpool && i < EXEC_WPOOL; i++)
        exec_wset_release(&m->wpool[i]);
    free(m->wpool);
    exec_par_free(m->par_cache);
    exec_bp_cond_free(m);
    free(m->bpk);
    mem_global_free(&m->glob);
    free(m->cbank);
    free(m->svars);
    free(m->sh_holes);
    free(m->watches);
    for (exec_arena_blk *b = m->arena, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    free(m);
}

const char *exec_errmsg(const exec_machine *m) { return m->err; }
const ptx_module *exec_module(const exec_machine *m) { return m->mod; }
void exec_set_output(exec_machine *m, FILE *out) { m->out = out; }
/* The warp-sync hook as an observer of the sync seam (exec_obs.h). */
static void ws_hook_sync(void *ctx, exec_machine *m, const exec_sync_ev *ev)
{
    (void)ctx;
    if (ev->kind == EXEC_SYNC_WARP_UNDEFINED && ev->op <= EXEC_WS_NOT_MEMBER && m->ws_hook)
        m->ws_hook(m->ws_hook_ctx, (exec_ws_event)ev->op, ev->cta, ev->warp, ev->pc, ev->lanes,
                   ev->mask);
}

void exec_set_ws_hook(exec_machine *m, exec_ws_hook_fn fn, void *ctx)
{
    m->ws_hook = fn;
    m->ws_hook_ctx = ctx;
    if (fn && m->ws_hook_obs < 0) {
        exec_observer o = { .name = "warp-sync hook", .want = EXEC_OBS_SYNC,
                            .sync = ws_hook_sync };
        m->ws_hook_obs = exec_observer_add(m, &o);
    } else if (!fn && m->ws_hook_obs >= 0) {
        exec_observer_del(m, m->ws_hook_obs);
        m->ws_hook_obs = -1;
    }
}

/* ---- global memory ---------------------------------------------------------------------------- */
int exec_global_alloc(exec_machine *m, uint64_t size, uint64_t *addr)
{
    uint64_t a = mem_global_add(&m->glob, size, MEM_R_ALLOC, NULL);
    if (!a) {
        snprintf(m->err, sizeof m->err, "cannot allocate %" PRIu64 " bytes of global memory",
                 size);
        return -1;
    }
    *addr = a;
    exec_obs_host_event(m, EXEC_SYNC_ALLOC, a, size);
    return 0;
}

int exec_global_name(exec_machine *m, uint64_t addr, const char *name)
{
    mem_region *r = mem_global_find(&m->glob, addr, 1);
    if (!r || r->base != addr || r->kind != MEM_R_ALLOC) {
        snprintf(m->err, sizeof m->err, "0x%" PRIx64 " is not an allocated buffer", addr);
        return -1;
    }
    snprintf(r->name, sizeof r->name, "%s", name);
    return 0;
}

int exec_global_free(exec_machine *m, uint64_t addr)
{
    mem_region *r = mem_global_find(&m->glob, addr, 0);
    uint64_t size = r && r->base == addr ? r->size : 0;
    if (mem_global_remove(&m->glob, addr, MEM_R_ALLOC)) {
        snprintf(m->err, sizeof m->err, "0x%" PRIx64 " is not an allocated buffer", addr);
        return -1;
    }
    exec_obs_host_event(m, EXEC_SYNC_UNALLOC, addr, size);
    return 0;
}

int exec_global_map(exec_machine *m, uint64_t base, uint64_t size, void *data,
                    const char *name)
{
    if (mem_global_map(&m->glob, base, size, data, name)) {
        snprintf(m->err, sizeof m->err, "cannot map %" PRIu64 " bytes at 0x%" PRIx64
                 ": the range overlaps global memory", size, base);
        return -1;
    }
    exec_obs_host_event(m, EXEC_SYNC_ALLOC, base, size);
    return 0;
}

int exec_global_unmap(exec_machine *m, uint64_t base)
{
    mem_region *r = mem_global_find(&m->glob, base, 0);
    uint64_t size = r && r->base == base ? r->size : 0;
    if (mem_global_remove(&m->glob, base, MEM_R_MAPPED)) {
        snprintf(m->err, sizeof m->err, "0x%" PRIx64 " is not a mapped range", base);
        return -1;
    }
    exec_obs_host_event(m, EXEC_SYNC_UNALLOC, base, size);
    return 0;
}

int exec_global_set_host(exec_machine *m, uint64_t base, int on)
{
    mem_region *r = mem_global_find(&m->glob, base, 1);
    if (!r || r->base != base || r->kind != MEM_R_MAPPED) {
        snprintf(m->err, sizeof m->err, "0x%" PRIx64 " is not a mapped range", base);
        return -1;
    }
    r->host = on != 0;
    return 0;
}

void *exec_global_host(exec_machine *m, uint64_t addr, uint64_t n)
{
    mem_region *r = mem_global_find(&m->glob, addr, n);
    return r ? r->data + (addr - r->base) : NULL;
}

void *exec_const_host(exec_machine *m, uint64_t off, uint64_t n)
{
    if (!m->cbank || off > m->cbank_size || n > m->cbank_size - off)
        return NULL;
    return m->cbank + off;
}

void exec_set_heap_limit(exec_machine *m, uint64_t bytes)
{
    m->heap_limit = bytes;
}

int exec_symbol_addr(exec_machine *m, const char *name, ptx_space *space, uint64_t *addr,
                     uint64_t *size)
{
    const ptx_module *mod = m->mod;
    for (int i = 0; i < mod->nvars; i++)
        if (strcmp(mod->vars[i]->name, name) == 0) {
            *space = mod->vars[i]->space;
            *addr = m->gvar_addr[i];
            if (size)
                *size = mod->vars[i]->size;
            return 0;
        }
    if (m->launched) {
        const ptx_func *k = m->li.kernel;
        for (int i = 0; i < k->nparams; i++)
            if (strcmp(k->params[i]->name, name) == 0) {
                *space = PTX_SPACE_PARAM;
                *addr = m->kfd->prm_off[i];
                if (size)
                    *size = k->params[i]->size;
                return 0;
            }
        for (int i = 0; i < k->nvars; i++)
            if (strcmp(k->vars[i]->name, name) == 0 && m->kfd->var_off[i] != UINT64_MAX &&
                k->vars[i]->space != PTX_SPACE_LOCAL && k->vars[i]->space != PTX_SPACE_PARAM) {
                *space = k->vars[i]->space;
                *addr = m->kfd->var_off[i];
                if (size)
                    *size = k->vars[i]->size;
                return 0;
            }
    }
    snprintf(m->err, sizeof m->err, "no symbol %s", name);
    return -1;
}

/* ---- instruction addresses --------------------------------------------------------------------*/
uint32_t exec_ninsns(const exec_machine *m) { return m->ncode; }

int exec_pc_insn(const exec_machine *m, uint32_t pc, const ptx_func **f, const ptx_insn **pi)
{
    const exec_fdec *fd = pc < m->ncode ? exec_fdec_of_pc(m, pc) : NULL;
    if (!fd)
        return -1;
    if (f)
        *f = fd->f;
    if (pi)
        *pi = &fd->f->insns[pc - fd->pc0];
    return 0;
}

int64_t exec_func_pc(const exec_machine *m, const ptx_func *f)
{
    if (!f || f->sym->index < 0 || f->sym->index >= m->mod->nfuncs)
        return -1;
    const exec_fdec *fd = m->fdec[f->sym->index];
    return fd ? (int64_t)fd->pc0 : -1;
}

/* ---- watchpoints ------------------------------------------------------------------------------*/
int exec_watch_add(exec_machine *m, ptx_space space, uint64_t addr, uint32_t len, int kinds,
                   uint32_t cta)
{
    if (!len || !(kinds & 3) || (space != PTX_SPACE_GLOBAL && space != PTX_SPACE_SHARED &&
                                 space != PTX_SPACE_GENERIC)) {
        snprintf(m->err, sizeof m->err, "bad watchpoint");
        return -1;
    }
    if (space == PTX_SPACE_GENERIC)
        space = mem_generic_decode(addr, &addr);
    int id = 0;
    for (int i = 0; i < m->nwatches; i++)
        if (m->watches[i].id >= id)
            id = m->watches[i].id + 1;
    exec_watch *nw = realloc(m->watches, sizeof *nw * (size_t)(m->nwatches + 1));
    if (!nw)
        return -1;
    m->watches = nw;
    nw[m->nwatches++] = (exec_watch){ .id = id, .used = 1, .space = space, .addr = addr,
                                      .len = len, .cta = cta, .kinds = kinds };
    exec_obs_watch_sync(m);
    return id;
}

int exec_watch_del(exec_machine *m, int id)
{
    int found = -1;
    for (int i = 0; i < m->nwatches; i++) {
        if (m->watches[i].id == id && m->watches[i].used) {
            m->watches[i].used = 0;
            found = 0;
        }
    }
    exec_obs_watch_sync(m);
    if (found)
        snprintf(m->err, sizeof m->err, "no watchpoint %d", id);
    return found;
}

/* ---- inspection ------------------------------------------------------------------------------ */
exec_cta_state exec_cta_get_state(const exec_machine *m, uint32_t cta)
{
    if (!m->launched || cta >= m->ncta)
        return EXEC_CTA_NOT_STARTED;
    if (m->cl)
        return exec_cluster_cta_state(m, cta);   /* clusters of several CTAs */
    if (m->res)
        return exec_res_cta_state(m, cta);       /* resident CTAs taking turns */
    if (cta < m->cur_cta)
        return EXEC_CTA_DONE;
    if (cta == m->cur_cta && m->cta_live)
        return EXEC_CTA_RUNNING;
    return cta == m->cur_cta && m->cur_cta >= m->ncta ? EXEC_CTA_DONE : EXEC_CTA_NOT_STARTED;
}

uint32_t exec_cta_next_running(const exec_machine *m, uint32_t from)
{
    if (!m->launched || from >= m->ncta)
        return m->launched ? m->ncta : 0;
    if (m->cl)
        return exec_cluster_next_running(m, from);
    uint32_t best = m->ncta;
    if (m->cta_live && m->cta.id >= from)
        best = m->cta.id;
    for (uint32_t i = 0; i < exec_res_parked(m); i++) {
        const exec_cta *c;
        const exec_warp *w;
        const uint8_t *sr;
        if (exec_res_slot(m, i, &c, &w, &sr) == 0 && c->id >= from && c->id < best)
            best = c->id;
    }
    return best;
}

uint32_t exec_cta_state_span(const exec_machine *m, uint32_t cta, exec_cta_state *st)
{
    *st = exec_cta_get_state(m, cta);
    if (!m->launched || cta >= m->ncta)
        return cta;
    if (*st == EXEC_CTA_RUNNING || m->cl)
        return cta;   /* a running CTA alone; clusters: one at a time (not linear in the grid) */
    /* done and not-started CTAs lie between running ones: up to the next running CTA, or the
       first not started (exec_res_next) for done ones */
    uint32_t next = exec_cta_next_running(m, cta), end = next;
    if (*st == EXEC_CTA_DONE) {
        uint32_t ns = exec_res_next(m);
        if (ns > cta && ns < end)
            end = ns;
    }
    return end - 1;
}

uint32_t exec_ncta(const exec_machine *m) { return m->launched ? m->ncta : 0; }
uint32_t exec_nwarps(const exec_machine *m) { return m->launched ? m->nwarps : 0; }

exec_dim3 exec_cta_coord(const exec_machine *m, uint32_t cta)
{
    exec_dim3 g = m->li.grid, c = { 0, 0, 0 };
    if (!g.x || !g.y)
        return c;
    c.x = cta % g.x;
    c.y = (cta / g.x) % g.y;
    c.z = cta / (g.x * g.y);
    return c;
}

int exec_cta_index(const exec_machine *m, exec_dim3 c, uint32_t *cta)
{
    exec_dim3 g = m->li.grid;
    if (!m->launched || c.x >= g.x || c.y >= g.y || c.z >= g.z)
        return -1;
    *cta = c.x + c.y * g.x + c.z * g.x * g.y;
    return 0;
}

static const exec_warp *exec_get_warp(const exec_machine *m, uint32_t cta, uint32_t warp)
{
    if (m->cl)
        return exec_cluster_warp(m, cta, warp);   /* any CTA of the running cluster */
    if (m->res)
        return m->launched ? exec_res_warp(m, cta, warp) : NULL;   /* any resident CTA */
    if (!m->launched || !m->cta_live || cta != m->cta.id || warp >= m->nwarps)
        return NULL;
    return &m->warps[warp];
}

/* Where a lane is, as reported: the running group's pc, else the lane's own; a lane waiting
 * at a barrier (bar.sync, barrier.cluster.wait) is at the barrier instruction, although it
 * resumes after it (w->pc holds that resume pc). */
static uint32_t exec_lane_pc(const exec_warp *w, uint32_t lane)
{
    if ((w->cur_mask >> lane) & 1)
        return w->cur_pc;
    if (((w->bar_wait >> lane) & 1) && w->pc[lane])
        return w->pc[lane] - 1;
    return w->pc[lane];
}

int exec_warp_get(const exec_machine *m, uint32_t cta, uint32_t warp, exec_warp_info *wi)
{
    const exec_warp *w = exec_get_warp(m, cta, warp);
    memset(wi, 0, sizeof *wi);
    wi->barrier = -1;
    if (!w) {
        if (m->launched && cta < m->ncta && warp < m->nwarps) {
            uint32_t n = m->nthreads - warp * 32;
            wi->valid = n >= 32 ? EXEC_FULL : (1u << n) - 1;
            if (exec_cta_get_state(m, cta) == EXEC_CTA_DONE)
                wi->exited = wi->valid;
            return 0;
        }
        return -1;
    }
    wi->valid = w->valid;
    wi->exited = w->exited & w->valid;
    wi->active = w->cur_mask;
    wi->pc = w->cur_pc;
    if (!w->cur_mask && w->bar_wait) {
        /* waiting at a barrier: the barrier instruction, and the lanes that wait there are the
           warp's active lanes (cuda-gdb), not an empty or stale group */
        wi->pc = exec_lane_pc(w, (uint32_t)exec_ctz(w->bar_wait));
        EXEC_FOR_LANES(i, w->bar_wait)
            if (exec_lane_pc(w, i) == wi->pc)
                wi->active |= 1u << i;
    }
    wi->at_barrier = w->bar_wait;
    wi->divergent = w->valid & ~w->exited & ~w->trapped & ~w->cur_mask & ~w->bar_wait;
    if (w->bar_wait)
        wi->barrier = w->lane_bar[exec_ctz(w->bar_wait)];
    wi->stopped = w->stopped;
    if (w->bp_pass) {
        wi->bp_pass = w->bp_pass_lanes;
        wi->bp_pass_pc = w->bp_pass - 1;
    }
    return 0;
}

int exec_lane_get(const exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane,
                  exec_lane_info *li)
{
    memset(li, 0, sizeof *li);
    if (!m->launched || lane >= 32 || warp >= m->nwarps || cta >= m->ncta)
        return -1;
    uint32_t t = warp * 32 + lane;
    exec_dim3 b = m->li.block;
    li->tid.x = t % b.x;
    li->tid.y = (t / b.x) % b.y;
    li->tid.z = t / (b.x * b.y);
    const exec_warp *w = exec_get_warp(m, cta, warp);
    uint32_t bit = 1u << lane;
    if (!w) {
        li->state = t < m->nthreads && exec_cta_get_state(m, cta) == EXEC_CTA_DONE
                    ? EXEC_LANE_EXITED : EXEC_LANE_INVALID;
        return 0;
    }
    li->pc = exec_lane_pc(w, lane);
    li->depth = (w->valid & bit) && w->lframe[lane] ? (int)w->lframe[lane]->depth : 0;
    if (w->ws_wait & bit)
        li->waits_for = w->ws_need[lane];
    if (!(w->valid & bit))
        li->state = EXEC_LANE_INVALID;
    else if (w->trapped & bit)
        li->state = EXEC_LANE_TRAPPED;
    else if (w->exited & bit)
        li->state = EXEC_LANE_EXITED;
    else if (w->bar_wait & bit)
        li->state = EXEC_LANE_BARRIER;
    else if (w->cur_mask & bit)
        li->state = EXEC_LANE_ACTIVE;
    else
        li->state = EXEC_LANE_DIVERGENT;
    return 0;
}

int exec_backtrace(const exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane,
                   exec_frame *frames, int max)
{
    const exec_warp *w = exec_get_warp(m, cta, warp);
    if (!w || lane >= 32 || !((w->valid >> lane) & 1))
        return -1;
    int n = 0;
    uint32_t pc = exec_lane_pc(w, lane);
    for (const struct exec_act *f = w->lframe[lane]; f && n < max; f = f->parent) {
        frames[n].func = f->fd->f;
        frames[n].pc = pc;
        n++;
        pc = f->call_pc;
    }
    return n;
}

/* The frame `frame` levels out from lane's innermost one. */
static struct exec_act *exec_lane_frame(const exec_machine *m, uint32_t cta, uint32_t warp,
                                          uint32_t lane, int frame)
{
    const exec_warp *w = exec_get_warp(m, cta, warp);
    if (!w || lane >= 32 || !((w->valid >> lane) & 1) || frame < 0)
        return NULL;
    struct exec_act *f = w->lframe[lane];
    while (f && frame--)
        f = f->parent;
    return f;
}

int exec_frame_local_base(const exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane,
                          int frame, const char *depot_symbol, uint64_t *addr)
{
    const struct exec_act *f = exec_lane_frame(m, cta, warp, lane, frame);
    if (!f || !depot_symbol) {
        snprintf(((exec_machine *)m)->err, sizeof m->err, "no frame %d for lane %u of warp %u",
                 frame, lane, warp);
        return -1;
    }
    const ptx_func *fn = f->fd->f;
    for (int i = 0; i < fn->nvars; i++) {
        const ptx_sym *s = fn->vars[i];
        if (s->space == PTX_SPACE_LOCAL && strcmp(s->name, depot_symbol) == 0) {
            *addr = f->local_base[lane] + f->fd->var_off[i];
            return 0;
        }
    }
    snprintf(((exec_machine *)m)->err, sizeof m->err, "%s declares no .local variable %s",
             fn->sym->name, depot_symbol);
    return -1;
}

int exec_fdec_find_reg(const exec_fdec *fd, const char *name, int *comp, const ptx_sym **sym)
{
    const ptx_func *fn = fd->f;
    char base[128];
    snprintf(base, sizeof base, "%s", name);
    *comp = 0;
    char *dot = strchr(base, '.');
    if (dot) {
        static const char cn[] = "xyzwrgba";
        const char *p = dot[1] ? strchr(cn, dot[1]) : NULL;
        if (!p || dot[2])
            return -1;
        *comp = (int)(p - cn) % 4;
        *dot = 0;
    }
    int n = fn->nregs + fn->nparams + fn->nrets;
    for (int i = 0; i < n; i++) {
        const ptx_sym *s = i < fn->nregs ? fn->regs[i]
                         : i < fn->nregs + fn->nparams ? fn->params[i - fn->nregs]
                                                       : fn->rets[i - fn->nregs - fn->nparams];
        if (fd->reg_off[i] != UINT32_MAX && strcmp(s->name, base) == 0) {
            /* an element (v.y) only of a vector register, and within its length */
            if (dot && *comp >= (s->vec > 1 ? s->vec : 0))
                return -1;
            *sym = s;
            return i;
        }
    }
    return -1;
}

int exec_func_reg_type(const exec_machine *m, const ptx_func *f, const char *name,
                       ptx_type *type)
{
    const exec_fdec *fd = f && f->sym ? m->fdec[f->sym->index] : NULL;
    int comp;
    const ptx_sym *s;
    if (!fd || exec_fdec_find_reg(fd, name, &comp, &s) < 0 || (s->vec > 1 && !strchr(name, '.')))
        return -1;   /* (a vector register is read element by element) */
    *type = s->type;
    return 0;
}

static int exec_reg_access(exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane,
                           int frame, const char *name, uint64_t *bits, ptx_type *type, int set)
{
    struct exec_act *f = exec_lane_frame(m, cta, warp, lane, frame);
    if (!f) {
        snprintf(m->err, sizeof m->err, "no frame %d for lane %u of warp %u in CTA %u", frame,
                 lane, warp, cta);
        return -1;
    }
    int comp;
    const ptx_sym *s;
    int ri = exec_fdec_find_reg(f->fd, name, &comp, &s);
    if (ri < 0 && !f->fd->f->is_entry) {
        /* a .param of the frame's (device) function: its slot in the frame, up to 8 bytes */
        const ptx_func *fn = f->fd->f;
        for (int i = 0; i < fn->nparams; i++) {
            const ptx_sym *p = fn->params[i];
            if (strcmp(p->name, name) != 0 || f->fd->reg_off[fn->nregs + i] != UINT32_MAX)
                continue;
            uint64_t size = p->size ? p->size : (uint64_t)(ptx_type_bits(p->type) / 8);
            uint64_t off = f->fd->prm_off[i], ps = f->fd->param_size;
            if (size > 8)
                size = 8;
            if (off > ps || ps - off < size)
                break;
            uint8_t *slot = f->params + (size_t)lane * ps + off;
            if (type)
                *type = p->type;
            if (set) {
                memcpy(slot, bits, (size_t)size);
            } else {
                *bits = 0;
                memcpy(bits, slot, (size_t)size);
            }
            return 0;
        }
    }
    if (ri < 0) {
        snprintf(m->err, sizeof m->err, "no register %s in %s", name, f->fd->f->sym->name);
        return -1;
    }
    if (s->vec > 1 && !strchr(name, '.')) {
        snprintf(m->err, sizeof m->err, "%s is a vector register (.v%d .%s): name an element, "
                 "%s.x .. %s.%c", name, s->vec, ptx_type_name(s->type), name, name,
                 "xyzw"[s->vec - 1]);
        return -1;
    }
    if (type)
        *type = s->type;
    uint32_t off = f->fd->reg_off[ri];
    if (s->type == PTX_T_PRED) {
        uint32_t *p = &f->preds[off + (uint32_t)comp];
        if (set)
            *p = (*p & ~(1u << lane)) | ((uint32_t)(*bits != 0) << lane);
        else
            *bits = (*p >> lane) & 1;
        return 0;
    }
    off += (uint32_t)comp * (s->type == PTX_T_B128 ? 2u : 1u) * EXEC_SLOT;
    uint8_t *slot = f->regs + off;
    switch (ptx_type_bits(s->type)) {
    case 8:
        if (set) slot[lane] = (uint8_t)*bits; else *bits = slot[lane];
        break;
    case 16:
        if (set) ((uint16_t *)(void *)slot)[lane] = (uint16_t)*bits;
        else *bits = ((uint16_t *)(void *)slot)[lane];
        break;
    case 32:
        if (set) ((uint32_t *)(void *)slot)[lane] = (uint32_t)*bits;
        else *bits = ((uint32_t *)(void *)slot)[lane];
        break;
    default: /* 64; b128 gives the low half */
        if (set) ((uint64_t *)(void *)slot)[lane] = *bits;
        else *bits = ((uint64_t *)(void *)slot)[lane];
        break;
    }
    return 0;
}

int exec_reg_get(const exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane, int frame,
                 const char *name, uint64_t *bits, ptx_type *type)
{
    return exec_reg_access((exec_machine *)m, cta, warp, lane, frame, name, bits, type, 0);
}

int exec_reg_set(exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane, int frame,
                 const char *name, uint64_t bits)
{
    m->cta_fresh = 0;   /* the live CTA was changed: a parallel run must not drop it */
    return exec_reg_access(m, cta, warp, lane, frame, name, &bits, NULL, 1);
}

static void reach_op(const ptx_operand *o, uint8_t *fseen, uint8_t *vseen, int *stack,
                     int *nstack, const ptx_module *mod)
{
    if (o->kind == PTX_OP_LIST || o->kind == PTX_OP_VEC || o->kind == PTX_OP_PAIR) {
        for (int i = 0; i < o->nelems; i++)
            reach_op(&o->elems[i], fseen, vseen, stack, nstack, mod);
        return;
    }
    const ptx_sym *y = o->sym;
    if (!y)
        return;
    if (y->kind == PTX_SYM_FUNC && y->index >= 0 && y->index < mod->nfuncs && !fseen[y->index]) {
        fseen[y->index] = 1;
        stack[(*nstack)++] = y->index;
    } else if (y->kind == PTX_SYM_VAR && !y->owner && y->index >= 0 && y->index < mod->nvars &&
               mod->vars[y->index] == y) {
        vseen[y->index] = 1;
    }
}

int exec_kernel_reach(const ptx_module *mod, const ptx_func *k, uint8_t *fseen, uint8_t *vseen)
{
    int *stack = malloc(sizeof(int) * ((size_t)mod->nfuncs + 1)), nstack = 0;
    int ki = k && k->sym ? k->sym->index : -1;
    if (!stack || ki < 0 || ki >= mod->nfuncs || mod->funcs[ki] != k) {
        free(stack);
        return -1;
    }
    memset(fseen, 0, (size_t)mod->nfuncs);
    memset(vseen, 0, (size_t)mod->nvars);
    fseen[ki] = 1;
    stack[nstack++] = ki;
    while (nstack) {
        const ptx_func *f = mod->funcs[stack[--nstack]];
        for (int i = 0; i < f->ninsns; i++)
            for (int j = 0; j < f->insns[i].nops; j++)
                reach_op(&f->insns[i].ops[j], fseen, vseen, stack, &nstack, mod);
        for (int t = 0; t < f->ntargets; t++) /* .calltargets of indirect calls */
            for (int j = 0; j < f->targets[t].nitems; j++) {
                ptx_operand o;
                memset(&o, 0, sizeof o);
                o.kind = PTX_OP_SYM;
                o.sym = f->targets[t].items[j];
                reach_op(&o, fseen, vseen, stack, &nstack, mod);
            }
    }
    free(stack);
    return 0;
}

int exec_lane_cc(exec_machine *m, uint32_t warp, uint32_t lane, int set, int *cf)
{
    if (!m->launched || !m->cta_live || warp >= m->nwarps || lane >= EXEC_LANES) {
        snprintf(m->err, sizeof m->err, "no such lane");
        return -1;
    }
    uint32_t *cc = &m->warps[warp].r.cc, bit = 1u << lane;
    if (set)
        *cc = *cf ? *cc | bit : *cc & ~bit;
    else
        *cf = (*cc & bit) != 0;
    return 0;
}

int exec_func_regs(const exec_machine *m, const ptx_func *f, const ptx_sym ***regs)
{
    (void)m;
    *regs = (const ptx_sym **)f->regs;
    return f->nregs;
}

int exec_sreg_get(const exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane,
                  ptx_sreg_id id, int comp, uint64_t *val)
{
    const exec_warp *w = exec_get_warp(m, cta, warp);
    int bits;
    int slot = exec_sreg_slot(id, comp, &bits);
    if (!w || lane >= 32 || slot < 0)
        return -1;
    if (slot == EXEC_SR_CLOCK || slot == EXEC_SR_CLOCK_HI || slot == EXEC_SR_CLOCK64 ||
        slot == EXEC_SR_GTIMER || slot == EXEC_SR_GTIMER_LO || slot == EXEC_SR_GTIMER_HI)
        exec_sreg_refresh((exec_warp *)w, slot);
    const uint8_t *p = w->r.sregs + (size_t)slot * EXEC_SLOT;
    *val = bits == 64 ? ((const uint64_t *)(const void *)p)[lane]
                      : ((const uint32_t *)(const void *)p)[lane];
    return 0;
}

static int exec_mem_access(exec_machine *m, ptx_space space, uint64_t addr, void *buf,
                           size_t n, uint32_t cta, uint32_t warp, uint32_t lane, int write)
{
    exec_warp *w = NULL;
    uint64_t sa = addr;
    ptx_space s = space == PTX_SPACE_GENERIC ? mem_generic_decode(addr, &sa) : space;
    if (s == PTX_SPACE_LOCAL || s == PTX_SPACE_SHARED) {
        w = (exec_warp *)exec_get_warp(m, cta, warp);
        if (!w || lane >= 32) {
            snprintf(m->err, sizeof m->err, "CTA %u is not running", cta);
            return -1;
        }
    }
    /* a parked CTA (resident CTAs, a cluster's) has its own shared memory, not the swapped-in
       CTA's that mem_host knows (cluster windows are absolute and stay mem_host's) */
    exec_cta *pc = s == PTX_SPACE_SHARED && !(m->cl && sa >= MEM_SHCL_BASE)
                   ? exec_parked_cta(m, cta) : NULL;
    uint8_t *h;
    if (pc)
        h = sa <= pc->shared_size && pc->shared_size - sa >= n &&
            !(m->sh_nholes && mem_shared_hole(m, sa, n)) ? pc->shared + sa : NULL;
    else
        h = mem_host(m, s, sa, n, w, (int)lane, write);
    if (!h) {
        char d[200];
        mem_describe(m, s, sa, d, sizeof d);
        snprintf(m->err, sizeof m->err, "cannot access %zu bytes at %s address 0x%" PRIx64
                 " (%s)", n, ptx_space_name(s), sa, d);
        return -1;
    }
    if (write)
        memcpy(h, buf, n);
    else
        memcpy(buf, h, n);
    return 0;
}

int exec_mem_read(exec_machine *m, ptx_space space, uint64_t addr, void *buf, size_t n,
                  uint32_t cta, uint32_t warp, uint32_t lane)
{
    return exec_mem_access(m, space, addr, buf, n, cta, warp, lane, 0);
}

int exec_mem_write(exec_machine *m, ptx_space space, uint64_t addr, const void *buf, size_t n,
                   uint32_t cta, uint32_t warp, uint32_t lane)
{
    if (space != PTX_SPACE_GLOBAL)
        m->cta_fresh = 0;   /* may be the live CTA's shared/local memory */
    return exec_mem_access(m, space, addr, (void *)buf, n, cta, warp, lane, 1);
}

int exec_shared_layout(const exec_machine *m, exec_shared_var *vars, int max,
                       uint64_t *static_size, uint64_t *dyn_base, uint64_t *dyn_size)
{
    int n = 0;
    uint64_t own = 0; /* the launched kernel's static bytes, laid out as ptxas would */
    for (int i = 0; i < m->nsvars; i++) {
        const exec_shared_var *v = &m->svars[i];
        if (!v->size || (m->sh_nholes && mem_shared_hole(m, v->addr, v->size)))
            continue; /* another kernel's variable: not part of this launch's shared memory */
        if (n < max && vars)
            vars[n] = *v;
        n++;
        uint64_t a = v->sym->align > 0 ? (uint64_t)v->sym->align : 1;
        own = (own + a - 1) / a * a + v->size;
    }
    if (static_size)
        *static_size = m->launched ? own : m->shared_static;
    if (dyn_base)
        *dyn_base = (m->shared_static + 15) / 16 * 16;
    if (dyn_size)
        *dyn_size = m->launched ? m->li.dyn_shmem : 0;
    return n;
}

int exec_addr_describe(const exec_machine *m, ptx_space space, uint64_t addr, char *out,
                       size_t n)
{
    return mem_describe(m, space, addr, out, n);
}
