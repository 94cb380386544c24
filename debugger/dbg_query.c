/* dbg_query.c - small engine queries for front ends: the module's functions and PTX text, lanes, CTAs, registers, files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dbg_int.h"
#include "fileck.h"

/* ---- files ----------------------------------------------------------------------------------- */
int dbg_file_regular(const char *path, uint64_t limit, uint64_t *size, char *why, size_t n)
{
    return fileck_regular(path, limit, size, why, n);
}

char *dbg_file_read_all(const char *path, size_t *len) { return fileck_read_all(path, len); }

/* ---- the module shown -------------------------------------------------------------------------- */
int dbg_has_module(const dbg_session *s) { return s->mod != NULL; }
int dbg_has_machine(const dbg_session *s) { return s->m != NULL; }
const char *dbg_module_name(const dbg_session *s) { return s->mod ? s->mod->path : NULL; }
int dbg_nfuncs(const dbg_session *s) { return s->mod ? s->mod->nfuncs : 0; }

const ptx_func *dbg_func_at(const dbg_session *s, int i)
{
    return s->mod && i >= 0 && i < s->mod->nfuncs ? s->mod->funcs[i] : NULL;
}

void dbg_func_info_of(const ptx_func *f, dbg_func_info *out)
{
    memset(out, 0, sizeof *out);
    if (!f)
        return;
    out->name = f->sym ? f->sym->name : "";
    out->kernel = f->is_entry;
    out->has_body = f->has_body;
    out->prototype = f->is_prototype;
    out->ninsns = f->ninsns;
    out->nparams = f->nparams;
    out->nrets = f->nrets;
    out->line = f->line;
    out->end_line = f->end_line;
}

int dbg_pc_func(const dbg_session *s, uint32_t pc, const ptx_func **f)
{
    const ptx_func *fn;
    const ptx_insn *in;
    if (!s->m || exec_pc_insn(s->m, pc, &fn, &in) != 0)
        return -1;
    if (f)
        *f = fn;
    return 0;
}

int dbg_pc_opcode_is(const dbg_session *s, uint32_t pc, const char *opcode)
{
    const ptx_func *fn;
    const ptx_insn *in;
    return s->m && exec_pc_insn(s->m, pc, &fn, &in) == 0 && !strcmp(in->opcode, opcode);
}

const char *dbg_ptx_text_line(const dbg_session *s, int line, int *len)
{
    return s->mod ? ptx_source_line(s->mod, line, len) : NULL;
}

int dbg_ptx_text_nlines(const dbg_session *s)
{
    int n = 0, len;
    while (s->mod && ptx_source_line(s->mod, n + 1, &len))
        n++;
    return n;
}

/* ---- lanes, warps, CTAs of the current launch ------------------------------------------------- */
int dbg_lane_get(const dbg_session *s, uint32_t cta, uint32_t warp, uint32_t lane,
                 exec_lane_info *li)
{
    return s->m && exec_current_launch(s->m) ? exec_lane_get(s->m, cta, warp, lane, li) : -1;
}

int dbg_warp_get(const dbg_session *s, uint32_t cta, uint32_t warp, exec_warp_info *wi)
{
    return s->m && exec_current_launch(s->m) ? exec_warp_get(s->m, cta, warp, wi) : -1;
}

exec_cta_state dbg_cta_state(const dbg_session *s, uint32_t cta)
{
    return s->m && exec_current_launch(s->m) ? exec_cta_get_state(s->m, cta)
                                              : EXEC_CTA_NOT_STARTED;
}

uint32_t dbg_cta_next_running(const dbg_session *s, uint32_t from)
{
    return s->m && exec_current_launch(s->m) ? exec_cta_next_running(s->m, from)
                                              : dbg_ncta(s);
}

uint32_t dbg_cta_state_span(const dbg_session *s, uint32_t cta, exec_cta_state *st)
{
    return exec_cta_state_span(s->m, cta, st);
}

int dbg_sreg(const dbg_session *s, uint32_t cta, uint32_t warp, uint32_t lane, int id, int comp,
             uint64_t *val)
{
    if (!s->m)
        return dbg_err((dbg_session *)s, "No module is loaded.");
    if (exec_sreg_get(s->m, cta, warp, lane, (ptx_sreg_id)id, comp, val) != 0)
        return dbg_err((dbg_session *)s, "%s", exec_errmsg(s->m));
    return 0;
}

int dbg_sm_of(const dbg_session *s, uint32_t cta, uint64_t *sm)
{
    return dbg_sreg(s, cta, 0, 0, PTX_SREG_SMID, 0, sm);
}

int dbg_reg(const dbg_session *s, uint32_t cta, uint32_t warp, uint32_t lane, int phys,
            const char *name, uint64_t *bits, ptx_type *type)
{
    if (!s->m)
        return dbg_err((dbg_session *)s, "No module is loaded.");
    ptx_type t;
    if (exec_reg_get(s->m, cta, warp, lane, phys, name, bits, type ? type : &t) != 0)
        return dbg_err((dbg_session *)s, "%s", exec_errmsg(s->m));
    return 0;
}

int dbg_threads_in_effect(const dbg_session *s)
{
    return s->m ? exec_set_threads(s->m, 0) : 1;
}
