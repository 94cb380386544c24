/* dap_inspect.c - DAP inspection: warps as threads, stack frames, scopes, variables, evaluate, disassembly, memory. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dap_int.h"

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

static int64_t new_var(dap_srv *d, int kind, const dap_lref *r, const char *expr, int64_t n)
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

void dap_memref(char *out, size_t n, ptx_space sp, uint64_t addr)
{
    if (sp == PTX_SPACE_GLOBAL || sp == PTX_SPACE_GENERIC || sp == PTX_SPACE_NONE)
        snprintf(out, n, "0x%llx", (unsigned long long)addr);
    else
        snprintf(out, n, "@%s 0x%llx", ptx_space_name(sp), (unsigned long long)addr);
}

int dap_memref_parse(const char *s, ptx_space *sp, uint64_t *addr)
{
    *sp = PTX_SPACE_GENERIC;
    if (!s)
        return -1;
    while (isspace((unsigned char)*s))
        s++;
    if (*s == '@') {
        static const struct { const char *n; ptx_space s; } spaces[] = {
            {"global", PTX_SPACE_GLOBAL}, {"shared", PTX_SPACE_SHARED},
            {"local", PTX_SPACE_LOCAL},   {"const", PTX_SPACE_CONST},
            {"param", PTX_SPACE_PARAM},   {"generic", PTX_SPACE_GENERIC}};
        size_t k = strcspn(s + 1, " \t");
        int found = 0;
        for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
            if (strlen(spaces[i].n) == k && !strncmp(spaces[i].n, s + 1, k)) {
                *sp = spaces[i].s;
                found = 1;
            }
        if (!found)
            return -1;
        s += 1 + k;
        while (isspace((unsigned char)*s))
            s++;
    }
    char *end;
    if (!isdigit((unsigned char)*s))
        return -1;
    unsigned long long v = strtoull(s, &end, 0);
    while (isspace((unsigned char)*end))
        end++;
    if (*end)
        return -1;
    *addr = v;
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
    int more = 0, n = d->stopped ? dbg_warp_rows(d->s, rows, DAP_MAX_THREADS, &more) : 0;
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
static void frame_source(dap_srv *d, dj_w *w, const char *file, int line, uint32_t pc)
{
    char buf[4096];
    const char *path = NULL, *name = NULL;
    int l = line;
    if (file && line > 0) {
        path = dap_bp_client_path(d, file);
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
        djw_obj(w, "source");
        djw_str(w, "name", name);
        djw_str(w, "path", path);
        djw_obj_end(w);
    }
    djw_int(w, "line", path ? dap_client_line(d, l) : 0);
    djw_int(w, "column", path ? dap_client_line(d, 1) : 0);
}

void dap_stack_trace(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
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
        char ref[32];
        snprintf(ref, sizeof ref, "0x%x", fr[i].pc);
        djw_obj(&w, NULL);
        djw_int(&w, "id", id);
        djw_str(&w, "name", name);
        frame_source(d, &w, fr[i].file, fr[i].line, fr[i].pc);
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
static int get_frame(dap_srv *d, const dj *req, const char *what, dap_lref *r)
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
    int g = get_frame(d, req, "scopes", &r);
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
    scope(d, &w, "Locals", "locals", new_var(d, DAP_VR_LOCALS, &r, NULL, 0), 0);
    scope(d, &w, "Registers", "registers", new_var(d, DAP_VR_REGS, &r, NULL, 0), 0);
    scope(d, &w, "Shared", NULL, new_var(d, DAP_VR_SHARED, &r, NULL, 0), 0);
    scope(d, &w, "Lanes", NULL, new_var(d, DAP_VR_LANES, &r, NULL, 0), 0);
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
        int64_t ref = v.nchildren > 0 ? new_var(d, DAP_VR_EXPR, r, expr, v.nchildren) : 0;
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
        djw_str(w, "type", ptx_type_name(rows[i].type));
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
        int64_t ref = new_var(d, DAP_VR_SHVAR, r, NULL, (int64_t)rows[i].count);
        if (ref) {
            d->vars[ref - 1].addr = rows[i].addr;
            d->vars[ref - 1].type = rows[i].type;
        }
        dap_memref(mr, sizeof mr, PTX_SPACE_SHARED, rows[i].addr);
        djw_obj(w, NULL);
        djw_str(w, "name", rows[i].name[0] ? rows[i].name : "<dynamic shared memory>");
        djw_str(w, "value", val);
        djw_str(w, "type", ptx_type_name(rows[i].type));
        djw_int(w, "variablesReference", ref);
        djw_int(w, "indexedVariables", (int64_t)rows[i].count);
        djw_str(w, "memoryReference", mr);
        djw_obj_end(w);
    }
}

static void vars_shvar(dap_srv *d, dj_w *w, const dap_var_ref *vr, int64_t start, int64_t count,
                       int hex)
{
    int eb = ptx_type_bits(vr->type) / 8;
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
        snprintf(expr, sizeof expr, "*(@shared %s *)0x%llx", ptx_type_name(vr->type),
                 (unsigned long long)a);
        djw_obj(w, NULL);
        djw_str(w, "name", name);
        djw_str(w, "value", val);
        djw_str(w, "type", ptx_type_name(vr->type));
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
        int64_t ref = live ? new_var(d, DAP_VR_LANE, &lr, NULL, 0) : 0;
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

static int want_hex(const dj *a)
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
    int hex = want_hex(a);
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_arr(&w, "variables");
    dap_var_ref vr = d->vars[ref - 1]; /* a copy: rows add handles (realloc) */
    switch (vr.kind) {
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
    if (vr.kind == DAP_VR_LOCALS || vr.kind == DAP_VR_LANE || vr.kind == DAP_VR_REGS) {
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
        int eb = ptx_type_bits(vr.type) / 8;
        char e[200];
        snprintf(e, sizeof e, "*(@shared %s *)0x%llx", ptx_type_name(vr.type),
                 (unsigned long long)(vr.addr + (uint64_t)i * (uint64_t)(eb > 0 ? eb : 1)));
        if (i >= 0 && i < vr.n)
            lhs = strdup(e);
    }
    if (!lhs) {
        dap_respond_err(d, req, "setVariable: %s cannot be set here.", name);
        return;
    }
    size_t n = strlen(lhs) + strlen(value) + 8;
    char *assign = malloc(n);
    dapv_val v;
    char err[512];
    if (!assign) {
        free(lhs);
        dap_respond_err(d, req, "setVariable: out of memory.");
        return;
    }
    snprintf(assign, n, "%s = %s", lhs, value);
    int rc = dapv_eval(d->v, &vr.r, assign, 0, &v, err, sizeof err);
    free(assign);
    if (rc != 0) {
        free(lhs);
        dap_respond_err(d, req, "setVariable: %s", err);
        return;
    }
    dapv_val_free(&v);
    rc = dapv_eval(d->v, &vr.r, lhs, want_hex(a), &v, err, sizeof err);
    free(lhs);
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_str(&w, "value", rc == 0 ? v.text : err);
    if (rc == 0 && v.type[0])
        djw_str(&w, "type", v.type);
    djw_obj_end(&w);
    dap_send(d, &w);
    if (rc == 0)
        dapv_val_free(&v);
}

/* ---- evaluate -------------------------------------------------------------------------------- */
static int bare_identifier(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_')
        return 0;
    while (isalnum((unsigned char)*s) || *s == '_')
        s++;
    return *s == 0;
}

/* The debug console: any ptxdbg command, its text as the result. */
static void repl_command(dap_srv *d, const dj *req, const char *line, const dap_lref *sel)
{
    /* the command applies to the frame the editor has selected, as cuda-gdb's to its focus */
    const dbg_focus *cur = dbg_get_focus(d->s);
    if (sel && d->stopped && (!cur->valid || cur->cta != sel->cta || cur->warp != sel->warp ||
                              cur->lane != sel->lane || cur->frame != sel->frame) &&
        dbg_set_focus(d->s, sel->cta, sel->warp, sel->lane) == 0)
        dbg_set_frame(d->s, sel->frame);
    uint64_t before = dbg_progress(d->s);
    dbg_focus fb = *dbg_get_focus(d->s);
    int saved[2];
    dap_capture_begin(d, saved);
    int rc = dapv_command(d->v, line);
    char *text = dap_capture_end(d, saved);
    size_t n = text ? strlen(text) : 0;
    while (n && text[n - 1] == '\n')
        text[--n] = 0;
    if (rc != 0) {
        dap_respond_err(d, req, "%s", text && *text ? text : "The command failed.");
    } else {
        dj_w w;
        dap_begin_response(d, &w, req, 1, NULL);
        djw_obj(&w, "body");
        djw_str(&w, "result", text ? text : "");
        djw_int(&w, "variablesReference", 0);
        djw_obj_end(&w);
        dap_send(d, &w);
    }
    free(text);
    dap_after_command(d, before, &fb);
}

void dap_evaluate(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    const char *expr = dj_str(a, "expression", NULL);
    const char *ctx = dj_str(a, "context", "watch");
    if (!expr) {
        dap_respond_err(d, req, "evaluate: expression is required.");
        return;
    }
    while (isspace((unsigned char)*expr))
        expr++;
    dap_lref r;
    int g = get_frame(d, req, "evaluate", &r);
    if (g < 0)
        return;
    if (g == 2)
        memset(&r, 0, sizeof r); /* no kernel: buffers, globals and history still evaluate */
    if (!strcmp(ctx, "repl")) {
        const dap_lref *sel = g == 1 ? &r : NULL;
        if (!strncmp(expr, "-exec ", 6)) {
            repl_command(d, req, expr + 6, sel);
            return;
        }
        char word[64];
        size_t k = strcspn(expr, " \t/");
        snprintf(word, sizeof word, "%.*s", (int)(k < sizeof word ? k : sizeof word - 1), expr);
        int is_cmd = *expr && dapv_is_command(word);
        if (is_cmd && bare_identifier(expr)) { /* `i` may be a variable as well as `info` */
            dapv_val v;
            char err[256];
            if (dapv_eval(d->v, &r, expr, 0, &v, err, sizeof err) == 0) {
                dapv_val_free(&v);
                is_cmd = 0;
            }
        }
        if (is_cmd || !*expr) {
            repl_command(d, req, expr, sel);
            return;
        }
    }
    dapv_val v;
    char err[1024];
    if (dapv_eval(d->v, &r, expr, want_hex(a), &v, err, sizeof err) != 0) {
        dap_respond_err(d, req, "%s", err);
        return;
    }
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_str(&w, "result", v.text);
    if (v.type[0])
        djw_str(&w, "type", v.type);
    int64_t ref = v.nchildren > 0 && d->stopped ? new_var(d, DAP_VR_EXPR, &r, expr, v.nchildren)
                                                : 0;
    djw_int(&w, "variablesReference", ref);
    if (v.kind == DAPV_ARRAY)
        djw_int(&w, "indexedVariables", v.nchildren);
    char mr[64];
    if (v.is_ptr && v.paddr) {
        dap_memref(mr, sizeof mr, v.pspace, v.paddr);
        djw_str(&w, "memoryReference", mr);
    } else if (v.in_mem) {
        dap_memref(mr, sizeof mr, v.space, v.addr);
        djw_str(&w, "memoryReference", mr);
    }
    djw_obj_end(&w);
    dap_send(d, &w);
    dapv_val_free(&v);
}

/* ---- disassembly ----------------------------------------------------------------------------- */
void dap_disassemble(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    ptx_space sp;
    uint64_t base_pc;
    int64_t off = 0, ioff = 0, count;
    if (dap_memref_parse(dj_str(a, "memoryReference", NULL), &sp, &base_pc) != 0 ||
        dj_int(a, "instructionCount", 0, 100000, &count) != 1 ||
        dj_int(a, "offset", -(1ll << 40), 1ll << 40, &off) < 0 ||
        dj_int(a, "instructionOffset", -(1ll << 40), 1ll << 40, &ioff) < 0) {
        dap_respond_err(d, req, "disassemble: memoryReference (a pc such as \"0x1f\") and "
                        "instructionCount (at most 100000) are required.");
        return;
    }
    if (!dbg_module(d->s)) {
        dap_respond_err(d, req, "disassemble: no module is loaded.");
        return;
    }
    /* addresses are instruction indexes: a byte offset counts instructions too */
    int64_t first = (int64_t)base_pc + off + ioff;
    uint32_t ninsns = dbg_ninsns(d->s);
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_arr(&w, "instructions");
    const ptx_func *prev = NULL;
    for (int64_t i = 0; i < count; i++) {
        int64_t pc = first + i;
        char addr[32], text[600];
        dbg_where wh;
        snprintf(addr, sizeof addr, "0x%llx", (unsigned long long)(pc < 0 ? 0 : pc));
        djw_obj(&w, NULL);
        if (pc < 0 || pc >= ninsns || dbg_insn_text(d->s, (uint32_t)pc, text, sizeof text, &wh) != 0) {
            if (pc < 0)
                snprintf(addr, sizeof addr, "-0x%llx", (unsigned long long)-pc);
            djw_str(&w, "address", addr);
            djw_str(&w, "instruction", "??");
            djw_str(&w, "presentationHint", "invalid");
            djw_obj_end(&w);
            continue;
        }
        djw_str(&w, "address", addr);
        djw_str(&w, "instruction", text);
        if (wh.func && wh.func != prev) {
            char fn[512];
            dbg_func_name(d->s, wh.func, 0, fn, sizeof fn);
            djw_str(&w, "symbol", fn);
        }
        prev = wh.func;
        frame_source(d, &w, wh.file, wh.line, (uint32_t)pc);
        djw_obj_end(&w);
    }
    djw_arr_end(&w);
    djw_obj_end(&w);
    dap_send(d, &w);
}

/* ---- memory ---------------------------------------------------------------------------------- */
static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static char *b64_encode(const uint8_t *p, size_t n)
{
    char *o = malloc(4 * ((n + 2) / 3) + 1), *q = o;
    if (!o)
        return NULL;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        *q++ = b64[v >> 18 & 63];
        *q++ = b64[v >> 12 & 63];
        *q++ = i + 1 < n ? b64[v >> 6 & 63] : '=';
        *q++ = i + 2 < n ? b64[v & 63] : '=';
    }
    *q = 0;
    return o;
}

static int b64_decode(const char *s, uint8_t **out, size_t *n)
{
    size_t len = strlen(s);
    uint8_t *o = malloc(len / 4 * 3 + 3);
    if (!o)
        return -1;
    size_t k = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '=' || isspace((unsigned char)c))
            continue;
        const char *p = strchr(b64, c);
        if (!p || !c) {
            free(o);
            return -1;
        }
        acc = acc << 6 | (uint32_t)(p - b64);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            o[k++] = (uint8_t)(acc >> bits);
        }
    }
    *out = o;
    *n = k;
    return 0;
}

void dap_read_memory(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    ptx_space sp;
    uint64_t addr;
    int64_t off = 0, count;
    if (dap_memref_parse(dj_str(a, "memoryReference", NULL), &sp, &addr) != 0 ||
        dj_int(a, "count", 0, 1 << 24, &count) != 1 ||
        dj_int(a, "offset", -(1ll << 40), 1ll << 40, &off) < 0) {
        dap_respond_err(d, req, "readMemory: memoryReference (\"0x...\" or \"@shared 0x...\") and "
                        "count (at most 16 MB) are required.");
        return;
    }
    dap_lref r;
    if (dap_focus_lref(d, &r) != 0 && sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_GENERIC &&
        sp != PTX_SPACE_CONST) {
        dap_respond_err(d, req, "readMemory: @%s memory needs a stopped kernel.",
                        ptx_space_name(sp));
        return;
    }
    uint64_t at = addr + (uint64_t)off;
    uint8_t *buf = malloc(count ? (size_t)count : 1);
    if (!buf) {
        dap_respond_err(d, req, "readMemory: out of memory.");
        return;
    }
    int64_t got = count ? dbg_mem_read(d->s, sp, at, buf, (size_t)count, r.cta, r.warp, r.lane) : 0;
    if (got < 0)
        got = 0;
    char *data = b64_encode(buf, (size_t)got);
    char mr[64];
    dap_memref(mr, sizeof mr, sp, at);
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_str(&w, "address", mr);
    if (count - got > 0)
        djw_int(&w, "unreadableBytes", count - got);
    djw_str(&w, "data", data ? data : "");
    djw_obj_end(&w);
    dap_send(d, &w);
    free(data);
    free(buf);
}

void dap_write_memory(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    ptx_space sp;
    uint64_t addr;
    int64_t off = 0;
    const char *data = dj_str(a, "data", NULL);
    uint8_t *bytes;
    size_t n;
    if (dap_memref_parse(dj_str(a, "memoryReference", NULL), &sp, &addr) != 0 || !data ||
        dj_int(a, "offset", -(1ll << 40), 1ll << 40, &off) < 0) {
        dap_respond_err(d, req, "writeMemory: memoryReference and data (base64) are required.");
        return;
    }
    if (b64_decode(data, &bytes, &n) != 0) {
        dap_respond_err(d, req, "writeMemory: data is not base64.");
        return;
    }
    dap_lref r;
    dap_focus_lref(d, &r);
    int rc = n ? dbg_mem_write(d->s, sp, addr + (uint64_t)off, bytes, n, r.cta, r.warp, r.lane) : 0;
    free(bytes);
    if (rc != 0) {
        dap_respond_err(d, req, "writeMemory: %s", dbg_errmsg(d->s));
        return;
    }
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_int(&w, "bytesWritten", (int64_t)n);
    djw_obj_end(&w);
    dap_send(d, &w);
    dj_w e;
    dap_begin_event(d, &e, "memory");
    djw_obj(&e, "body");
    char mr[64];
    dap_memref(mr, sizeof mr, sp, addr + (uint64_t)off);
    djw_str(&e, "memoryReference", mr);
    djw_int(&e, "offset", 0);
    djw_int(&e, "count", (int64_t)n);
    djw_obj_end(&e);
    dap_send(d, &e);
}
