/* dbg_tlaunch.c - a target's launches: prepare, run, read the state of a launch, texture and surface objects. */
#include <string.h>
#include "dbg_target.h"
#include "dbg_tgt.h"
#include "exec.h"
#include "ptx.h"

/* ---- launches and runs ------------------------------------------------------------------------- */
int dbg_target_launch(dbg_target *t, const dbg_launch_cfg *c)
{
    if (exec_set_cluster_dims(t->m, c->cluster))
        return -1;
    exec_set_cooperative(t->m, c->cooperative);
    return exec_launch(t->m, c->kernel, c->grid, c->block, c->shmem, c->params, c->param_bytes);
}

int dbg_target_run(dbg_target *t, uint64_t max_steps, volatile int *interrupt, exec_stop *st)
{
    exec_run_opts o;
    memset(&o, 0, sizeof o);
    o.mode = EXEC_RUN_CONTINUE;
    o.max_steps = max_steps;
    o.interrupt = interrupt;
    memset(st, 0, sizeof *st);
    return exec_run(t->m, &o, st);
}

uint64_t dbg_target_steps(const dbg_target *t)
{
    uint64_t n = 0;
    exec_stats(t->m, &n, NULL);
    return n;
}

int dbg_run_opts_runs_on(const exec_run_opts *o)
{
    return o->mode == EXEC_RUN_CONTINUE || o->run_on;
}

/* ---- a launch's state -------------------------------------------------------------------------- */
void dbg_target_grid(const dbg_target *t, uint32_t *ncta, uint32_t *nwarps)
{
    if (ncta)
        *ncta = exec_ncta(t->m);
    if (nwarps)
        *nwarps = exec_nwarps(t->m);
}

exec_dim3 dbg_target_cta_coord(const dbg_target *t, uint32_t cta)
{
    return exec_cta_coord(t->m, cta);
}

exec_cta_state dbg_target_cta_state(const dbg_target *t, uint32_t cta)
{
    return exec_cta_get_state(t->m, cta);
}

int dbg_target_lane(const dbg_target *t, uint32_t cta, uint32_t warp, uint32_t lane,
                    exec_lane_info *li)
{
    return exec_lane_get(t->m, cta, warp, lane, li);
}

int dbg_target_pc_place(const dbg_target *t, uint32_t pc, dbg_pc_place *p)
{
    memset(p, 0, sizeof *p);
    const ptx_func *f = NULL;
    const ptx_insn *in = NULL;
    if (exec_pc_insn(t->m, pc, &f, &in) != 0 || !in)
        return -1;
    p->func = f;
    p->func_name = f ? f->sym->name : NULL;
    p->ptx_line = in->line;
    const ptx_module *pm = t->pm;
    if (in->loc < 0 || in->loc >= pm->nlocs)
        return 0;
    const ptx_loc *l = &pm->locs[in->loc];
    for (int i = 0; i < pm->nfiles; i++)
        if (pm->files[i].num == l->file) {
            const char *path = pm->files[i].path, *b = strrchr(path, '/');
            snprintf(p->src, sizeof p->src, "%s:%d", b ? b + 1 : path, l->line);
            break;
        }
    return 0;
}

/* ---- texture and surface objects --------------------------------------------------------------- */
int dbg_target_tex_create(dbg_target *t, int surface, const exec_tex_desc *d, uint64_t *handle)
{
    return exec_tex_create(t->m, surface, d, handle);
}

int dbg_target_tex_destroy(dbg_target *t, uint64_t handle)
{
    return exec_tex_destroy(t->m, handle);
}
