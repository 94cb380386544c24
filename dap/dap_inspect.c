/* dap_inspect.c - DAP inspection: warps as threads, stack frames, scopes, variables, setVariable and setExpression. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dap_int.h"

static void assign_answer(dap_srv *d, const dj *req, const char *what, const dap_lref *r,
                          const char *lhs, const char *value, int hex);

/* ---- handles --------------------------------------------------------------------------------- */
static int64_t new_frame(dap_srv *d, const dap_lref *r)
{
    if (d->nframes >= DAP_MAX_HANDLES)
        return 0;
    if ((d->nframes & (d->nframes - 1)) == 0) {
        size_t cap = d->nframes ? (size_t)d->nframes * 2 : 16;
        dap_frame_ref *nf = realloc(d->frames, cap * sizeof *nf);
        if (!nf)
            return 0;
        d->frames = nf;
    }
    d->frames[d->nframes].r = *r;
    return ++d->nframes;
}

const dap_frame_ref *dap_frame_get(dap_srv *d, int64_t id)
{
    return id >= 1 && id <= d->nframes ? &d->frames[id - 1] : NULL;
}

int64_t dap_new_var(dap_srv *d, int kind, const dap_lref *r, const char *expr, int64_t n)
{
    if (d->nvars >= DAP_MAX_HANDLES)
        return 0;
    if ((d->nvars & (d->nvars - 1)) == 0) {
        size_t cap = d->nvars ? (size_t)d->nvars * 2 : 16;
        dap_var_ref *nv = realloc(d->vars, cap * sizeof *nv);
        if (!nv)
            return 0;
        d->vars = nv;
    }
    dap_var_ref *v = &d->vars[d->nvars];
    memset(v, 0, sizeof *v);
    v->kind = kind;
    v->r = *r;
    v->n = n;
    if (expr && !(v->expr = strdup(expr)))
        return 0;
    return ++d->nvars;
}

int dap_focus_lref(dap_srv *d, dap_lref *r)
{
    const dbg_focus *f = dbg_get_focus(d->s);
    memset(r, 0, sizeof *r);
    if (!f->valid || !dbg_launch_info(d->s))
        return -1;
    r->cta = f->cta;
    r->warp = f->warp;
    r->lane = f->lane;
    r->frame = f->frame;
    return 0;
}

static const char *base(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* ---- threads --------------------------------------------------------------------------------- */
void dap_threads(dap_srv *d, const dj *req)
{
    dbg_warp_row rows[DAP_MAX_THREADS];
    int more = 0, n = d->stopped || d->running ? dbg_warp_rows(d->s, rows, DAP_MAX_THREADS, &more)
                                               : 0;
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_arr(&w, "threads");
    for (int i = 0; i < n; i++) {
        char name[160];
        snprintf(name, sizeof name, "block (%u,%u,%u) warp %u", rows[i].block.x, rows[i].block.y,
                 rows[i].block.z, rows[i].warp);
        djw_obj(&w, NULL);
        djw_int(&w, "id", dap_thread_id(d, rows[i].cta, rows[i].warp));
        djw_str(&w, "name", name);
        djw_obj_end(&w);
    }
    if (n == 0) { /* nothing stopped: one thread stands for the kernel to come, so the editor
                     offers pause */
        djw_obj(&w, NULL);
        djw_int(&w, "id", 1);
        djw_str(&w, "name", d->stopped ? "no live warp" : "kernel (running or not launched)");
        djw_obj_end(&w);
    }
    djw_arr_end(&w);
    djw_obj_end(&w);
    dap_send(d, &w);
    if (more)
        dap_outputf(d, "console", "ptxdbg: %d warps listed as threads (more are in flight; "
                    "`info cuda warps` in the debug console lists them all).\n", n);
}

/* ---- stack ----------------------------------------------------------------------------------- */
void dap_write_source(dap_srv *d, dj_w *w, const char *key, const char *file, int line,
                      uint32_t pc)
{
    char buf[4096];
    const char *path = NULL, *name = NULL;
    int l = line;
    if (file && line > 0) {
        path = dap_bp_client_path(d, file, line);
        if (!path) {
            const char *res = dbg_source_resolve(d->s, file, buf, sizeof buf);
            char *real = res ? realpath(res, NULL) : NULL;
            if (real) {
                snprintf(buf, sizeof buf, "%s", real);
                free(real);
                path = buf;
            } else {
                path = res ? res : file;
            }
        }
        name = base(file);
    } else {
        dbg_where wh;
        const char *mp = dbg_module_path(d->s);
        if (mp[0] && dbg_pc_where(d->s, pc, &wh) == 0) {
            char *real = realpath(mp, NULL);
            snprintf(buf, sizeof buf, "%s", real ? real : mp);
            free(real);
            path = buf;
            name = base(mp);
            l = wh.ptx_line;
        }
    }
    if (path) {
        djw_obj(w, key);
        djw_str(w, "name", name);
        djw_str(w, "path", path);
        djw_obj_end(w);
    }
    if (!path && strcmp(key, "source"))
        return; /* only a stack frame must have a line (0: none) */
    djw_int(w, "line", path ? dap_client_line(d, l) : 0);
    djw_int(w, "column", path ? dap_client_line(d, 1) : 0);
}

/* StackFrameFormat (supportsValueFormattingOptions): the arguments after the name, with their
 * names, types and values as asked (hex as asked), the line, the module. */
static void frame_format(dap_srv *d, const dj *fmt, const dap_lref *r, int line, char *name,
                         size_t n)
{
    int all = dj_bool(fmt, "includeAll", 0);
    int params = dj_bool(fmt, "parameters", 0) || all;
    int pnames = dj_bool(fmt, "parameterNames", params), ptypes = dj_bool(fmt, "parameterTypes", 0);
    int pvalues = dj_bool(fmt, "parameterValues", params), hex = dj_bool(fmt, "hex", 0);
    size_t k = strlen(name);
    if (params && (pnames || ptypes || pvalues)) {
        const char **names;
        int np = dapv_params(d->v, r, &names);
        k += (size_t)snprintf(name + k, n > k ? n - k : 0, "(");
        for (int i = 0; i < np && k < n; i++) {
            dapv_val v;
            char err[128];
            int ok = dapv_eval(d->v, r, names[i], hex, &v, err, sizeof err) == 0;
            k += (size_t)snprintf(name + k, n - k, "%s%s%s%s%s%s", i ? ", " : "",
                                  ptypes && ok ? v.type : "", ptypes && ok && pnames ? " " : "",
                                  pnames ? names[i] : "", pnames && pvalues ? "=" : "",
                                  pvalues ? (ok ? v.text : "?") : "");
            if (ok)
                dapv_val_free(&v);
        }
        free(names);
        if (k < n)
            k += (size_t)snprintf(name + k, n - k, ")");
    }
    if ((dj_bool(fmt, "line", 0) || all) && line > 0 && k < n)
        k += (size_t)snprintf(name + k, n - k, " Line %d", dap_client_line(d, line));
    if ((dj_bool(fmt, "module", 0) || all) && k < n) {
        const char *mp = dbg_module_path(d->s), *b = strrchr(mp, '/');
        snprintf(name + k, n - k, " [%s]", mp[0] ? (b ? b + 1 : mp) : "module");
    }
}

void dap_stack_trace(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    const dj *fmt = dj_get(a, "format");
    if (fmt && fmt->kind != DJ_OBJ)
        fmt = NULL;
    int64_t tid, start = 0, levels = 0;
    if (dj_int(a, "threadId", INT64_MIN, INT64_MAX, &tid) != 1 ||
        dj_int(a, "startFrame", 0, INT32_MAX, &start) < 0 ||
        dj_int(a, "levels", 0, INT32_MAX, &levels) < 0) {
        dap_respond_err(d, req, "stackTrace: threadId (an integer) is required.");
        return;
    }
    uint32_t cta, warp, lane;
    if (!d->stopped) {
        dap_respond_err(d, req, "stackTrace: no kernel is stopped.");
        return;
    }
    if (dap_thread_warp(d, tid, &cta, &warp) != 0 || !dbg_cta_in_flight(d->s, cta) ||
        dbg_warp_show_lane(d->s, cta, warp, &lane) != 0) {
        dap_respond_err(d, req, "stackTrace: thread %lld is not a live warp.", (long long)tid);
        return;
    }
    dbg_frame fr[DBG_MAX_FRAMES];
    int nf = dbg_lane_frames(d->s, cta, warp, lane, fr, DBG_MAX_FRAMES);
    if (nf < 0)
        nf = 0;
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_arr(&w, "stackFrames");
    int64_t end = levels > 0 && start + levels < nf ? start + levels : nf;
    for (int64_t i = start; i < end; i++) {
        dap_lref r = {cta, warp, lane, (int)i};
        int64_t id = new_frame(d, &r);
        char name[1200], fn[1024];
        if (fr[i].inl_name)
            snprintf(fn, sizeof fn, "%s", fr[i].inl_name);
        else
            dbg_func_name(d->s, fr[i].func, 0, fn, sizeof fn);
        exec_dim3 t = {0, 0, 0};
        dbg_lane_row lanes[32];
        if (dbg_lane_rows(d->s, cta, warp, lanes) > 0)
            t = lanes[lane].tid;
        if (i == 0)
            snprintf(name, sizeof name, "%s (thread (%u,%u,%u), lane %u)", fn, t.x, t.y, t.z, lane);
        else
            snprintf(name, sizeof name, "%s", fn);
        if (fmt)
            frame_format(d, fmt, &r, fr[i].line, name, sizeof name);
        char ref[32];
        snprintf(ref, sizeof ref, "0x%x", fr[i].pc);
        djw_obj(&w, NULL);
        djw_int(&w, "id", id);
        djw_str(&w, "name", name);
        dap_write_source(d, &w, "source", fr[i].file, fr[i].line, fr[i].pc);
        djw_str(&w, "instructionPointerReference", ref);
        if (fr[i].inl_name)
            djw_str(&w, "presentationHint", "subtle");
        djw_obj_end(&w);
    }
    djw_arr_end(&w);
    djw_int(&w, "totalFrames", nf);
    djw_obj_end(&w);
    dap_send(d, &w);
}

/* ---- scopes and variables -------------------------------------------------------------------- */
int dap_get_frame(dap_srv *d, const dj *req, const char *what, dap_lref *r)
{
    const dj *a = dj_get(req, "arguments");
    int64_t fid;
    int has = dj_int(a, "frameId", INT64_MIN, INT64_MAX, &fid);
    if (has < 0) {
        dap_respond_err(d, req, "%s: frameId must be an integer.", what);
        return -1;
    }
    if (has) {
        const dap_frame_ref *f = dap_frame_get(d, fid);
        if (!f) {
            dap_respond_err(d, req, "%s: unknown frameId %lld (frames are valid until the next "
                            "resume).", what, (long long)fid);
            return -1;
        }
        *r = f->r;
        return 1;
    }
    return dap_focus_lref(d, r) == 0 ? 0 : 2;
}

static void scope(dap_srv *d, dj_w *w, const char *name, const char *hint, int64_t ref,
                  int expensive)
{
    (void)d;
    djw_obj(w, NULL);
    djw_str(w, "name", name);
    if (hint)
        djw_str(w, "presentationHint", hint);
    djw_int(w, "variablesReference", ref);
    djw_bool(w, "expensive", expensive);
    djw_obj_end(w);
}

void dap_scopes(dap_srv *d, const dj *req)
{
    dap_lref r;
    int g = dap_get_frame(d, req, "scopes", &r);
    if (g < 0)
        return;
    if (g == 2 || !d->stopped) {
        dap_respond_err(d, req, "scopes: no kernel is stopped.");
        return;
    }
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_arr(&w, "scopes");
    scope(d, &w, "Locals", "locals", dap_new_var(d, DAP_VR_LOCALS, &r, NULL, 0), 0);
    scope(d, &w, "Registers", "registers", dap_new_var(d, DAP_VR_REGS, &r, NULL, 0), 0);
    scope(d, &w, "Shared", NULL, dap_new_var(d, DAP_VR_SHARED, &r, NULL, 0), 0);
    scope(d, &w, "Lanes", NULL, dap_new_var(d, DAP_VR_LANES, &r, NULL, 0), 0);
    djw_arr_end(&w);
    djw_obj_end(&w);
    dap_send(d, &w);
}

/* One variable row from an expression evaluated in a lane. */
static void var_row(dap_srv *d, dj_w *w, const dap_lref *r, const char *name, const char *expr,
                    int hex)
{
    dapv_val v;
    char err[512];
    djw_obj(w, NULL);
    djw_str(w, "name", name);
    if (dapv_eval(d->v, r, expr, hex, &v, err, sizeof err) != 0) {
        char t[600];
        snprintf(t, sizeof t, "<error: %s>", err);
        djw_str(w, "value", t);
        djw_int(w, "variablesReference", 0);
    } else {
        djw_str(w, "value", v.text);
        if (v.type[0])
            djw_str(w, "type", v.type);
        djw_str(w, "evaluateName", expr);
        int64_t ref = v.nchildren > 0 ? dap_new_var(d, DAP_VR_EXPR, r, expr, v.nchildren) : 0;
        if (ref)
            d->vars[ref - 1].indexed = v.kind == DAPV_ARRAY;
        djw_int(w, "variablesReference", ref);
        if (v.kind == DAPV_ARRAY)
            djw_int(w, "indexedVariables", v.nchildren);
        char mr[64];
        if (v.is_ptr && v.paddr) {
            dap_memref(mr, sizeof mr, v.pspace, v.paddr);
            djw_str(w, "memoryReference", mr);
        } else if (v.in_mem) {
            dap_memref(mr, sizeof mr, v.space, v.addr);
            djw_str(w, "memoryReference", mr);
        }
        dapv_val_free(&v);
    }
    djw_obj_end(w);
}

static const char *lane_state(exec_lane_state s)
{
    switch (s) {
    case EXEC_LANE_ACTIVE: return "active";
    case EXEC_LANE_DIVERGENT: return "divergent";
    case EXEC_LANE_BARRIER: return "at a barrier";
    case EXEC_LANE_EXITED: return "exited";
    case EXEC_LANE_TRAPPED: return "trapped";
    default: return "no thread";
    }
}

static void vars_locals(dap_srv *d, dj_w *w, const dap_lref *r, int hex)
{
    const char **names;
    int n = dapv_locals(d->v, r, &names);
    for (int i = 0; i < n; i++)
        var_row(d, w, r, names[i], names[i], hex);
    free(names);
}

static void vars_regs(dap_srv *d, dj_w *w, const dap_lref *r, int hex)
{
    dbg_frame fr[DBG_MAX_FRAMES];
    int nf = dbg_lane_frames(d->s, r->cta, r->warp, r->lane, fr, DBG_MAX_FRAMES);
    if (r->frame >= nf)
        return;
    static dbg_reg_row rows[4096];
    int total;
    int n = dbg_reg_rows(d->s, r->cta, r->warp, r->lane, fr[r->frame].phys, rows, 4096, &total);
    for (int i = 0; i < n; i++) {
        char val[400];
        if (rows[i].ok)
            dapv_format_bits(rows[i].bits, rows[i].type, hex, val, sizeof val);
        else
            snprintf(val, sizeof val, "<%s>", rows[i].msg);
        djw_obj(w, NULL);
        djw_str(w, "name", rows[i].name);
        djw_str(w, "value", val);
        djw_str(w, "type", dbg_type_name(rows[i].type));
        djw_str(w, "evaluateName", rows[i].name);
        djw_int(w, "variablesReference", 0);
        djw_obj_end(w);
    }
}

/* The source name of a function-scope shared variable: "_ZZ4walkPiE4tile" -> "tile". */
static int local_static_name(const char *mangled, char *out, size_t n)
{
    const char *e = strrchr(mangled, 'E');
    if (strncmp(mangled, "_ZZ", 3) || !e || !isdigit((unsigned char)e[1]))
        return -1;
    char *end;
    long len = strtol(e + 1, &end, 10);
    if (len <= 0 || (size_t)len != strlen(end) || (size_t)len >= n)
        return -1;
    snprintf(out, n, "%s", end);
    return 0;
}

/* A shared variable the debug info names: shown with its source type (1), else 0. */
static int shared_source_row(dap_srv *d, dj_w *w, const dap_lref *r, const dbg_shared_row *row)
{
    char name[256];
    const char *try = row->name;
    if (local_static_name(row->name, name, sizeof name) == 0)
        try = name;
    if (!try[0])
        return 0;
    dapv_val v;
    char err[256];
    if (dapv_eval(d->v, r, try, 0, &v, err, sizeof err) != 0)
        return 0;
    uint64_t a = v.addr;
    ptx_space sp = v.space == PTX_SPACE_GENERIC ? dbg_generic_decode(v.addr, &a) : v.space;
    int same = v.in_mem && sp == PTX_SPACE_SHARED && a == row->addr;
    dapv_val_free(&v);
    if (same)
        var_row(d, w, r, try, try, 0);
    return same;
}

static void vars_shared(dap_srv *d, dj_w *w, const dap_lref *r)
{
    dbg_shared_row rows[256];
    int n = dbg_shared_rows(d->s, rows, 256);
    for (int i = 0; i < n; i++) {
        if (shared_source_row(d, w, r, &rows[i]))
            continue;
        char val[200], mr[64];
        snprintf(val, sizeof val, "@shared 0x%llx, %llu bytes", (unsigned long long)rows[i].addr,
                 (unsigned long long)rows[i].size);
        int64_t ref = dap_new_var(d, DAP_VR_SHVAR, r, NULL, (int64_t)rows[i].count);
        if (ref) {
            d->vars[ref - 1].addr = rows[i].addr;
            d->vars[ref - 1].type = rows[i].type;
            d->vars[ref - 1].indexed = 1;
        }
        dap_memref(mr, sizeof mr, PTX_SPACE_SHARED, rows[i].addr);
        djw_obj(w, NULL);
        djw_str(w, "name", rows[i].name[0] ? rows[i].name : "<dynamic shared memory>");
        djw_str(w, "value", val);
        djw_str(w, "type", dbg_type_name(rows[i].type));
        djw_int(w, "variablesReference", ref);
        djw_int(w, "indexedVariables", (int64_t)rows[i].count);
        djw_str(w, "memoryReference", mr);
        djw_obj_end(w);
    }
}

static void vars_shvar(dap_srv *d, dj_w *w, const dap_var_ref *vr, int64_t start, int64_t count,
                       int hex)
{
    int eb = dbg_type_bits(vr->type) / 8;
    if (eb <= 0)
        eb = 1;
    int64_t end = count > 0 && start + count < vr->n ? start + count : vr->n;
    if (end - start > 10000)
        end = start + 10000;
    for (int64_t i = start; i < end; i++) {
        uint64_t bits = 0;
        char name[40], val[400], expr[200];
        snprintf(name, sizeof name, "[%lld]", (long long)i);
        uint64_t a = vr->addr + (uint64_t)i * (uint64_t)eb;
        if (dbg_mem_read(d->s, PTX_SPACE_SHARED, a, &bits, (size_t)eb, vr->r.cta, vr->r.warp,
                         vr->r.lane) == eb)
            dapv_format_bits(bits, vr->type, hex, val, sizeof val);
        else
            snprintf(val, sizeof val, "<error: %s>", dbg_errmsg(d->s));
        snprintf(expr, sizeof expr, "*(@shared %s *)0x%llx", dbg_type_name(vr->type),
                 (unsigned long long)a);
        djw_obj(w, NULL);
        djw_str(w, "name", name);
        djw_str(w, "value", val);
        djw_str(w, "type", dbg_type_name(vr->type));
        djw_str(w, "evaluateName", expr);
        djw_int(w, "variablesReference", 0);
        djw_obj_end(w);
    }
}

static void vars_lanes(dap_srv *d, dj_w *w, const dap_lref *r)
{
    dbg_lane_row lanes[32];
    if (dbg_lane_rows(d->s, r->cta, r->warp, lanes) <= 0)
        return;
    const dbg_focus *f = dbg_get_focus(d->s);
    for (int l = 0; l < 32; l++) {
        if (lanes[l].state == EXEC_LANE_INVALID)
            continue;
        char name[64], val[1200], at[1000] = "";
        int focused = f->valid && f->cta == r->cta && f->warp == r->warp && f->lane == (uint32_t)l;
        snprintf(name, sizeof name, "%slane %d", focused ? "*" : "", l);
        const dbg_where *wh = &lanes[l].where;
        if (lanes[l].state != EXEC_LANE_EXITED && wh->func) {
            if (wh->file)
                snprintf(at, sizeof at, " at %s:%d", base(wh->file), wh->line);
            else
                snprintf(at, sizeof at, " at PTX line %d", wh->ptx_line);
        }
        snprintf(val, sizeof val, "thread (%u,%u,%u) %s%s", lanes[l].tid.x, lanes[l].tid.y,
                 lanes[l].tid.z, lane_state(lanes[l].state), at);
        dap_lref lr = {r->cta, r->warp, (uint32_t)l, 0};
        int live = lanes[l].state != EXEC_LANE_EXITED;
        int64_t ref = live ? dap_new_var(d, DAP_VR_LANE, &lr, NULL, 0) : 0;
        djw_obj(w, NULL);
        djw_str(w, "name", name);
        djw_str(w, "value", val);
        djw_int(w, "variablesReference", ref);
        djw_obj_end(w);
    }
}

static void vars_expr(dap_srv *d, dj_w *w, const dap_var_ref *vr, int64_t start, int64_t count,
                      int hex)
{
    int64_t end = count > 0 && start + count < vr->n ? start + count : vr->n;
    if (end - start > 10000)
        end = start + 10000;
    char *expr = strdup(vr->expr);
    dap_lref r = vr->r;
    for (int64_t i = start; expr && i < end; i++) {
        char name[600], *child = NULL;
        if (dapv_child(d->v, &r, expr, i, name, sizeof name, &child) != 0)
            break;
        var_row(d, w, &r, name, child, hex);
        free(child);
    }
    free(expr);
}

int dap_want_hex(const dj *a)
{
    return dj_bool(dj_get(a, "format"), "hex", 0);
}

void dap_variables(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    int64_t ref, start = 0, count = 0;
    if (dj_int(a, "variablesReference", INT64_MIN, INT64_MAX, &ref) != 1 ||
        dj_int(a, "start", 0, INT32_MAX, &start) < 0 || dj_int(a, "count", 0, INT32_MAX, &count) < 0) {
        dap_respond_err(d, req, "variables: variablesReference (an integer) is required.");
        return;
    }
    if (ref < 1 || ref > d->nvars) {
        dap_respond_err(d, req, "variables: unknown variablesReference %lld (references are valid "
                        "until the next resume).", (long long)ref);
        return;
    }
    const char *filter = dj_str(a, "filter", NULL);
    if (filter && strcmp(filter, "indexed") && strcmp(filter, "named")) {
        dap_respond_err(d, req, "variables: filter is \"indexed\" or \"named\".");
        return;
    }
    int hex = dap_want_hex(a);
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_arr(&w, "variables");
    dap_var_ref vr = d->vars[ref - 1]; /* a copy: rows add handles (realloc) */
    /* a container has either elements (indexed) or members (named) */
    int skip = filter && !strcmp(filter, vr.indexed ? "named" : "indexed");
    switch (skip ? -1 : vr.kind) {
    case DAP_VR_LOCALS:
    case DAP_VR_LANE: vars_locals(d, &w, &vr.r, hex); break;
    case DAP_VR_REGS: vars_regs(d, &w, &vr.r, hex); break;
    case DAP_VR_SHARED: vars_shared(d, &w, &vr.r); break;
    case DAP_VR_SHVAR: vars_shvar(d, &w, &vr, start, count, hex); break;
    case DAP_VR_LANES: vars_lanes(d, &w, &vr.r); break;
    case DAP_VR_EXPR: vars_expr(d, &w, &vr, start, count, hex); break;
    }
    djw_arr_end(&w);
    djw_obj_end(&w);
    dap_send(d, &w);
}

void dap_set_variable(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    int64_t ref;
    const char *name = dj_str(a, "name", NULL), *value = dj_str(a, "value", NULL);
    if (dj_int(a, "variablesReference", INT64_MIN, INT64_MAX, &ref) != 1 || !name || !value) {
        dap_respond_err(d, req, "setVariable: variablesReference, name and value are required.");
        return;
    }
    if (ref < 1 || ref > d->nvars) {
        dap_respond_err(d, req, "setVariable: unknown variablesReference %lld.", (long long)ref);
        return;
    }
    dap_var_ref vr = d->vars[ref - 1];
    char *lhs = NULL;
    if (vr.kind == DAP_VR_LOCALS || vr.kind == DAP_VR_LANE || vr.kind == DAP_VR_REGS ||
        vr.kind == DAP_VR_SHARED) {
        lhs = strdup(name);
    } else if (vr.kind == DAP_VR_EXPR) {
        for (int64_t i = 0; i < vr.n && i < 100000 && !lhs; i++) {
            char cn[600], *ce = NULL;
            if (dapv_child(d->v, &vr.r, vr.expr, i, cn, sizeof cn, &ce) == 0 && !strcmp(cn, name))
                lhs = ce;
            else
                free(ce);
        }
    } else if (vr.kind == DAP_VR_SHVAR && name[0] == '[') {
        long long i = strtoll(name + 1, NULL, 10);
        int eb = dbg_type_bits(vr.type) / 8;
        char e[200];
        snprintf(e, sizeof e, "*(@shared %s *)0x%llx", dbg_type_name(vr.type),
                 (unsigned long long)(vr.addr + (uint64_t)i * (uint64_t)(eb > 0 ? eb : 1)));
        if (i >= 0 && i < vr.n)
            lhs = strdup(e);
    }
    if (!lhs) {
        dap_respond_err(d, req, "setVariable: %s cannot be set here.", name);
        return;
    }
    assign_answer(d, req, "setVariable", &vr.r, lhs, value, dap_want_hex(a));
    free(lhs);
}

/* After a change the client cannot see (a value set, memory written): it refetches. */
void dap_invalidated(dap_srv *d)
{
    if (!d->client_invalidated)
        return;
    dj_w w;
    dap_begin_event(d, &w, "invalidated");
    djw_obj(&w, "body");
    djw_arr(&w, "areas");
    djw_str(&w, NULL, "variables");
    djw_arr_end(&w);
    djw_obj_end(&w);
    dap_send(d, &w);
}

/* lhs = value in a lane's frame, answered with the new value (setVariable, setExpression). */
static void assign_answer(dap_srv *d, const dj *req, const char *what, const dap_lref *r,
                          const char *lhs, const char *value, int hex)
{
    size_t n = strlen(lhs) + strlen(value) + 8;
    char *assign = malloc(n);
    dapv_val v;
    char err[512];
    if (!assign) {
        dap_respond_err(d, req, "%s: out of memory.", what);
        return;
    }
    snprintf(assign, n, "%s = %s", lhs, value);
    int rc = dapv_eval(d->v, r, assign, 0, &v, err, sizeof err);
    free(assign);
    if (rc != 0) {
        dap_respond_err(d, req, "%s: %s", what, err);
        return;
    }
    dapv_val_free(&v);
    rc = dapv_eval(d->v, r, lhs, hex, &v, err, sizeof err);
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_str(&w, "value", rc == 0 ? v.text : err);
    if (rc == 0 && v.type[0])
        djw_str(&w, "type", v.type);
    int64_t ref = rc == 0 && v.nchildren > 0 ? dap_new_var(d, DAP_VR_EXPR, r, lhs, v.nchildren) : 0;
    if (ref)
        d->vars[ref - 1].indexed = v.kind == DAPV_ARRAY;
    djw_int(&w, "variablesReference", ref);
    if (rc == 0 && v.kind == DAPV_ARRAY)
        djw_int(&w, "indexedVariables", v.nchildren);
    djw_obj_end(&w);
    dap_send(d, &w);
    if (rc == 0)
        dapv_val_free(&v);
    dap_invalidated(d);
}

void dap_set_expression(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    const char *expr = dj_str(a, "expression", NULL), *value = dj_str(a, "value", NULL);
    if (!expr || !*expr || !value) {
        dap_respond_err(d, req, "setExpression: expression and value are required.");
        return;
    }
    dap_lref r;
    int g = dap_get_frame(d, req, "setExpression", &r);
    if (g < 0)
        return;
    if (g == 2 && !d->stopped)
        memset(&r, 0, sizeof r); /* no kernel: buffers and globals */
    assign_answer(d, req, "setExpression", &r, expr, value, dap_want_hex(a));
}
