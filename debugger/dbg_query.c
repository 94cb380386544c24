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

int dbg_func_is_kernel(const ptx_func *f) { return f && f->is_entry; }

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

int dbg_insn_at(const dbg_session *s, uint32_t pc, dbg_insn_info *out)
{
    const ptx_func *fn;
    const ptx_insn *in;
    if (!s->m || exec_pc_insn(s->m, pc, &fn, &in) != 0)
        return -1;
    if (out) {
        int64_t b = exec_func_pc(s->m, fn);
        out->func = fn;
        out->func_pc = b < 0 ? pc : (uint32_t)b;
        out->line = in->line;
        out->opcode = in->opcode;
    }
    return 0;
}

int dbg_func_decl(dbg_session *s, const char *spec, char *file, size_t n, int *line,
                  uint32_t *pc)
{
    dw_info *d = s->dw;
    const dw_func *df = d ? dw_func_by_name(d, spec) : NULL;
    if (!df) {
        const ptx_func *pf = strchr(spec, ':') || spec[0] == '*' ? NULL : dbg_find_func(s, spec);
        df = pf && d ? dw_func_of_ptx(d, pf) : NULL;
    }
    if (!df || !df->decl_file || df->decl_line <= 0)
        return -1;
    snprintf(file, n, "%s", df->decl_file);
    *line = df->decl_line;
    *pc = df->lo;
    return 0;
}

int dbg_pc_opcode_is(const dbg_session *s, uint32_t pc, const char *opcode)
{
    const ptx_func *fn;
    const ptx_insn *in;
    int opc = ptx_op_lookup(opcode);
    return opc >= 0 && s->m && exec_pc_insn(s->m, pc, &fn, &in) == 0 && in->opc == opc;
}

const char *dbg_ptx_text_line(const dbg_session *s, int line, int *len)
{
    return s->mod ? ptx_source_line(s->mod, line, len) : NULL;
}

int dbg_ptx_text_nlines(const dbg_session *s)
{
    if (!s->mod)
        return 0;
    int lo = 1, hi = 1, len;
    while (ptx_source_line(s->mod, hi, &len))
        hi *= 2;
    while (lo < hi) { /* the last line that exists */
        int mid = (lo + hi + 1) / 2;
        if (ptx_source_line(s->mod, mid, &len))
            lo = mid;
        else
            hi = mid - 1;
    }
    return ptx_source_line(s->mod, lo, &len) ? lo : 0;
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

int dbg_cta_index(const dbg_session *s, exec_dim3 b, uint32_t *cta)
{
    return s->m && exec_current_launch(s->m) ? exec_cta_index(s->m, b, cta) : -1;
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

/* ---- launches ---------------------------------------------------------------------------------- */
int64_t dbg_kernel_params(const ptx_func *k, dbg_param_row *out, int max)
{
    if (!k || max < 0)
        return -1;
    uint64_t offs[256], sizes[256];
    int64_t total = exec_param_layout(k, offs, sizes, 256);
    if (total < 0)
        return -1;
    for (int i = 0; i < k->nparams && i < max && i < 256; i++) {
        const ptx_sym *ps = k->params[i];
        out[i].name = ps->name;
        out[i].type = ps->type;
        out[i].offset = offs[i];
        out[i].size = sizes[i];
        out[i].aggregate = ps->ndims > 0 || sizes[i] > 8 || ps->vec > 1;
    }
    return total;
}

int dbg_set_cluster_dims(dbg_session *s, exec_dim3 dims)
{
    if (s->m && exec_set_cluster_dims(s->m, dims) != 0)
        return dbg_err(s, "%s", exec_errmsg(s->m));
    return 0;
}

int dbg_mem_read_exact(dbg_session *s, ptx_space space, uint64_t addr, void *buf, size_t n,
                       uint32_t cta, uint32_t warp, uint32_t lane)
{
    if (!s->m)
        return dbg_err(s, "No module is loaded.");
    if (exec_mem_read(s->m, space, addr, buf, n, cta, warp, lane) != 0)
        return dbg_err(s, "%s", exec_errmsg(s->m));
    return 0;
}

int dbg_addr_describe(const dbg_session *s, ptx_space space, uint64_t addr, char *out, size_t n)
{
    return s->m ? exec_addr_describe(s->m, space, addr, out, n) : -1;
}

dbg_expr *dbg_expr_parse_at(const dbg_session *s, const char *text, char *err, size_t n)
{
    return dbg_expr_parse_dw(text, s->dw, err, n);
}
