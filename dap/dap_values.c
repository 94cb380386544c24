/* dap_values.c - the DAP server's values (the engine's, dbg_value.h) and its CLI commands (the one file of dap/ that calls commands/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "cmd_complete.h"
#include "cmd_prog.h"
#include "dap_int.h"

/* ---------------------------------------------------------------------------------------------
 * Values come from the engine (dbg_value.h: evaluation, formatting, browsing); the debug
 * console's commands are the CLI's, run on a command context of the same session, so this is
 * the one file of dap/ that includes commands/.
 * ------------------------------------------------------------------------------------------- */
struct dapv {
    dbg_session *s;
    cmd_ctx c;
};

dapv *dapv_new(dbg_session *s)
{
    dapv *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    v->s = s;
    cmd_ctx_init(&v->c, s);
    v->c.batch = 1;          /* never ask (confirm), no pager */
    v->c.kernel_events = 0;
    return v;
}

void dapv_free(dapv *v)
{
    if (!v)
        return;
    cmd_ctx_free(&v->c);
    free(v);
}

int dapv_libdir(char *out, size_t n) { return cmd_prog_libdir(out, n); }

int dapv_complete(dapv *v, const char *line, int point, int *start, char ***cands)
{
    *start = cmd_complete_word_start(line, point);
    int flags = 0;
    *cands = cmd_complete(&v->c, line, *start, point, &flags);
    if (!*cands)
        return -1;
    int n = 0;
    while ((*cands)[n])
        n++;
    return n;
}

void dapv_complete_free(char **cands) { cmd_complete_free(cands); }

int dapv_command(dapv *v, const char *line)
{
    v->c.failed = 0;
    int rc = cmd_execute(&v->c, line);
    return rc != 0 || v->c.failed ? -1 : 0;
}

int dapv_quit_requested(dapv *v)
{
    int q = v->c.quit;
    v->c.quit = 0;
    return q != 0;
}

int dapv_command_steps(const char *line)
{
    const cmd_def *d = cmd_line_def(line);
    return d && (d->flags & CMD_F_STEPS);
}

int dapv_is_command(const char *word)
{
    return cmd_is_builtin(word);
}

static dbg_at at_of(const dap_lref *r)
{
    dbg_at at = {r->cta, r->warp, r->lane, r->frame, 0};
    return at;
}

int dapv_eval(dapv *v, const dap_lref *r, const char *expr, int hex, dapv_val *out, char *err,
              size_t n)
{
    memset(out, 0, sizeof *out);
    dbg_at at = at_of(r);
    dbg_value cv;
    if (dbg_eval_at(v->s, &at, expr, &cv, err, n) != 0)
        return -1;
    char *text = malloc(16384);
    if (!text) {
        snprintf(err, n, "Out of memory.");
        return -1;
    }
    if (dbg_format_at(v->s, &at, &cv, hex ? 'x' : 0, text, 16384) != 0) {
        snprintf(err, n, "%s", text);
        free(text);
        return -1;
    }
    out->text = text;
    dbg_value_info d;
    dbg_value_describe(&cv, &d);
    snprintf(out->type, sizeof out->type, "%s", d.type);
    out->kind = d.kind == DBG_VAL_STRUCT ? DAPV_STRUCT : d.kind == DBG_VAL_ARRAY ? DAPV_ARRAY
                : d.kind == DBG_VAL_PTR ? DAPV_PTR : DAPV_SCALAR;
    out->nchildren = d.nchildren;
    out->in_mem = d.in_mem;
    out->space = d.space;
    out->addr = d.addr;
    out->size = d.size;
    out->is_ptr = d.is_ptr;
    out->pspace = d.pspace;
    out->paddr = d.paddr;
    return 0;
}

void dapv_val_free(dapv_val *val)
{
    free(val->text);
    val->text = NULL;
}

int dapv_child(dapv *v, const dap_lref *r, const char *expr, int64_t i, char *name, size_t nn,
               char **child)
{
    dbg_at at = at_of(r);
    return dbg_value_child(v->s, &at, expr, i, name, nn, child);
}

int dapv_locals(dapv *v, const dap_lref *r, const char ***names)
{
    dbg_at at = at_of(r);
    return dbg_frame_var_names(v->s, &at, 0, names);
}

int dapv_params(dapv *v, const dap_lref *r, const char ***names)
{
    dbg_at at = at_of(r);
    return dbg_frame_var_names(v->s, &at, 1, names);
}

void dapv_format_bits(uint64_t bits, ptx_type t, int hex, char *out, size_t n)
{
    dbg_format_bits(bits, t, hex ? 'x' : 0, out, n);
}

int dapv_cond_holds(dapv *v, const dap_lref *r, const char *cond, char *err, size_t n)
{
    dbg_at at = at_of(r);
    dbg_value cv;
    if (dbg_eval_at(v->s, &at, cond, &cv, err, n) != 0)
        return -1;
    return dbg_value_true(&cv) ? 1 : 0;
}

int dapv_cond_check(dapv *v, const char *cond, const uint32_t *pcs, int npcs, char *err,
                    size_t n)
{
    return dbg_cond_check(v->s, cond, pcs, npcs, err, n);
}

const char *dapv_exc_name(exec_exc e, int *num) { return dbg_exc_name(e, num); }

void dapv_func_name(dapv *v, const ptx_func *f, int full, char *out, size_t n)
{
    dbg_func_name(v->s, f, full, out, n);
}
