/* dap_bps.c - DAP breakpoints: source (matched by path suffix), function, instruction and data breakpoints, conditions and hit conditions. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dap_int.h"

void dap_bps_free(dap_srv *d)
{
    for (int i = 0; i < d->nbps; i++) {
        free(d->bps[i].source);
        free(d->bps[i].spec);
        free(d->bps[i].hitcond);
    }
    free(d->bps);
    d->bps = NULL;
    d->nbps = 0;
}

dap_bp *dap_bp_by_num(dap_srv *d, int num)
{
    for (int i = 0; i < d->nbps; i++)
        if (d->bps[i].num == num && num > 0)
            return &d->bps[i];
    return NULL;
}

/* ---- hit conditions: "N" (from the Nth hit on, as gdb's ignore), ">= N", "> N", "== N",
 * "< N", "<= N", "% N" (every Nth) ---------------------------------------------------------- */
static int hit_parse(const char *s, char *op, long *n)
{
    while (isspace((unsigned char)*s))
        s++;
    op[0] = op[1] = 0;
    if (*s == '%' || *s == '>' || *s == '<' || *s == '=') {
        op[0] = *s++;
        if (*s == '=')
            op[1] = *s++;
    }
    if (op[0] == '=' && op[1] != '=' && op[1] != 0)
        return -1;
    while (isspace((unsigned char)*s))
        s++;
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || v < 0 || v > 1000000000)
        return -1;
    while (isspace((unsigned char)*end))
        end++;
    if (*end || (op[0] == '%' && (op[1] || v == 0)))
        return -1;
    *n = v;
    return 0;
}

static int hit_holds(const char *cond, int hits)
{
    char op[2];
    long n;
    if (hit_parse(cond, op, &n) != 0)
        return 1;
    switch (op[0]) {
    case 0: return hits >= n;
    case '=': return hits == n;
    case '>': return op[1] ? hits >= n : hits > n;
    case '<': return op[1] ? hits <= n : hits < n;
    case '%': return hits % n == 0;
    }
    return 1;
}

int dap_bp_hit(dap_srv *d, int num)
{
    dap_bp *b = dap_bp_by_num(d, num);
    if (!b || !b->hitcond)
        return 1;
    b->hits++;
    return hit_holds(b->hitcond, b->hits);
}

/* ---- where the client's source files are in the module --------------------------------------- */
static const char *base(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Length of the common path suffix (in whole path components) of a and b. */
static size_t common_suffix(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), n = 0;
    while (n < la && n < lb && a[la - 1 - n] == b[lb - 1 - n])
        n++;
    /* back to a component boundary */
    if (n < la && n < lb)
        while (n > 0 && a[la - n] != '/')
            n--;
    return n;
}

/* The module's name for the client's path: a .file whose path ends like it (longest common
 * suffix, at least the base name), or the PTX file itself ("ptx"); NULL when none. */
static const char *module_file(dap_srv *d, const char *client, int *is_ptx)
{
    *is_ptx = 0;
    const char *files[512];
    int nf = dbg_source_files(d->s, files, 512);
    if (nf > 512)
        nf = 512;
    const char *best = NULL;
    size_t bestn = 0;
    for (int i = 0; i < nf; i++) {
        if (!files[i] || strcmp(base(files[i]), base(client)))
            continue;
        size_t n = common_suffix(files[i], client);
        if (n > bestn || !best) {
            best = files[i];
            bestn = n;
        }
    }
    if (best)
        return best;
    const char *mp = dbg_module_path(d->s);
    if (mp[0] && !strcmp(base(mp), base(client))) {
        *is_ptx = 1;
        return mp;
    }
    return NULL;
}

const char *dap_bp_client_path(dap_srv *d, const char *file)
{
    for (int i = 0; i < d->nbps; i++) {
        if (d->bps[i].kind != DAP_BP_SOURCE || !d->bps[i].source)
            continue;
        int ptx;
        const char *m = module_file(d, d->bps[i].source, &ptx);
        if (m && !ptx && !strcmp(m, file))
            return d->bps[i].source;
    }
    return NULL;
}

/* ---- adding and removing --------------------------------------------------------------------- */
static dap_bp *new_bp(dap_srv *d, int kind)
{
    dap_bp *nb = realloc(d->bps, (size_t)(d->nbps + 1) * sizeof *nb);
    if (!nb)
        return NULL;
    d->bps = nb;
    dap_bp *b = &d->bps[d->nbps++];
    memset(b, 0, sizeof *b);
    b->id = d->next_bp_id++;
    b->kind = kind;
    return b;
}

/* Remove the breakpoints of a kind (of one client source for SOURCE). */
static void remove_kind(dap_srv *d, int kind, const char *source)
{
    int k = 0;
    for (int i = 0; i < d->nbps; i++) {
        dap_bp *b = &d->bps[i];
        if (b->kind == kind && (!source || (b->source && !strcmp(b->source, source)))) {
            if (b->num > 0)
                dbg_bp_delete(d->s, b->num);
            free(b->source);
            free(b->spec);
            free(b->hitcond);
            continue;
        }
        d->bps[k++] = *b;
    }
    d->nbps = k;
}

/* The state of a breakpoint as the client is told it. */
static void bp_state(dap_srv *d, dap_bp *b, int *verified, int *line, uint32_t *pc)
{
    *verified = 0;
    *line = b->line;
    *pc = UINT32_MAX;
    dbg_bp *e = b->num > 0 ? dbg_bp_find(d->s, b->num) : NULL;
    if (!e || e->pending || (e->type == DBG_BP_BREAK && e->npcs == 0))
        return;
    *verified = 1;
    if (e->type != DBG_BP_BREAK)
        return;
    *pc = e->pcs[0];
    dbg_where w;
    if (b->kind == DAP_BP_SOURCE && dbg_pc_where(d->s, e->pcs[0], &w) == 0) {
        int ptx;
        const char *mf = module_file(d, b->source, &ptx);
        if (ptx)
            *line = w.ptx_line;
        else if (w.file && w.line > 0 && mf && !strcmp(w.file, mf))
            *line = w.line;
    }
}

static void write_bp(dap_srv *d, dj_w *w, dap_bp *b, const char *msg)
{
    int verified, line;
    uint32_t pc;
    bp_state(d, b, &verified, &line, &pc);
    b->verified = verified;
    b->vline = line;
    djw_obj(w, NULL);
    djw_int(w, "id", b->id);
    djw_bool(w, "verified", verified);
    if (b->kind == DAP_BP_SOURCE) {
        djw_int(w, "line", dap_client_line(d, line));
        djw_obj(w, "source");
        djw_str(w, "path", b->source);
        djw_str(w, "name", base(b->source));
        djw_obj_end(w);
    }
    if (pc != UINT32_MAX) {
        char ref[32];
        snprintf(ref, sizeof ref, "0x%x", pc);
        djw_str(w, "instructionReference", ref);
    }
    if (msg)
        djw_str(w, "message", msg);
    else if (!verified)
        djw_str(w, "message", "pending: resolved when a module that has this location is loaded");
    djw_obj_end(w);
}

/* Set one breakpoint in the engine from spec; msg gets the reason when it cannot. */
static void engine_add(dap_srv *d, dap_bp *b, const char *spec, const char *cond,
                       const char *hit, char *msg, size_t n)
{
    msg[0] = 0;
    b->spec = strdup(spec);
    char op[2];
    long hv;
    if (hit && *hit) {
        if (hit_parse(hit, op, &hv) != 0) {
            snprintf(msg, n, "Invalid hit condition \"%s\": use N, >= N, > N, == N, < N, <= N "
                     "or %% N.", hit);
            return;
        }
        b->hitcond = strdup(hit);
    }
    if (cond && !*cond)
        cond = NULL;
    if (cond && dbg_module(d->s)) {
        uint32_t pcs[DBG_MAX_LOCS];
        int np = dbg_resolve_location(d->s, spec, pcs, DBG_MAX_LOCS);
        if (np > 0 && dapv_cond_check(d->v, cond, pcs, np, msg, n) != 0)
            return;
    }
    int num = dbg_break_add(d->s, spec, cond, 0);
    if (num < 0) {
        snprintf(msg, n, "%s", dbg_errmsg(d->s));
        return;
    }
    b->num = num;
}

static void set_source(dap_srv *d, const dj *req, const dj *a, dj_w *w)
{
    const dj *src = dj_get(a, "source");
    const char *path = dj_str(src, "path", NULL);
    if (!path || !*path) {
        const char *name = dj_str(src, "name", NULL);
        path = name && *name ? name : NULL;
    }
    const dj *list = dj_get(a, "breakpoints");
    const dj *lines = dj_get(a, "lines");
    if (!path || (list && list->kind != DJ_ARR) || (!list && lines && lines->kind != DJ_ARR)) {
        dap_respond_err(d, req, "setBreakpoints: a source with a path and an array of breakpoints "
                        "are required.");
        w->err = 1;
        return;
    }
    const dj *items = list ? list : lines;
    for (int i = 0; items && i < items->count; i++) {
        const dj *it = items->items[i];
        int64_t line;
        if ((list ? dj_int(it, "line", 0, 1 << 30, &line) : it->kind == DJ_NUM ? 1 : -1) != 1 ||
            (it->kind == DJ_NUM && (it->num != (int64_t)it->num || it->num < 0))) {
            dap_respond_err(d, req, "setBreakpoints: breakpoints[%d] needs a line number.", i);
            w->err = 1;
            return;
        }
    }
    remove_kind(d, DAP_BP_SOURCE, path);
    dap_begin_response(d, w, req, 1, NULL);
    djw_obj(w, "body");
    djw_arr(w, "breakpoints");
    for (int i = 0; items && i < items->count; i++) {
        const dj *it = items->items[i];
        int64_t line = 0;
        if (list)
            dj_int(it, "line", 0, 1 << 30, &line);
        else
            line = (int64_t)it->num;
        dap_bp *b = new_bp(d, DAP_BP_SOURCE);
        if (!b)
            break;
        b->source = strdup(path);
        b->line = dap_engine_line(d, (int)line);
        int ptx;
        const char *mf = dbg_module(d->s) ? module_file(d, path, &ptx) : NULL;
        char spec[1200], msg[1024];
        if (mf && ptx)
            snprintf(spec, sizeof spec, "ptx:%d", b->line);
        else
            snprintf(spec, sizeof spec, "%s:%d", mf ? mf : base(path), b->line);
        engine_add(d, b, spec, list ? dj_str(it, "condition", NULL) : NULL,
                   list ? dj_str(it, "hitCondition", NULL) : NULL, msg, sizeof msg);
        write_bp(d, w, b, msg[0] ? msg : NULL);
    }
    djw_arr_end(w);
    djw_obj_end(w);
}

static void set_function(dap_srv *d, const dj *req, const dj *a, dj_w *w)
{
    const dj *list = dj_get(a, "breakpoints");
    if (!list || list->kind != DJ_ARR) {
        dap_respond_err(d, req, "setFunctionBreakpoints: an array of breakpoints is required.");
        w->err = 1;
        return;
    }
    for (int i = 0; i < list->count; i++) {
        const char *name = dj_str(list->items[i], "name", NULL);
        if (!name || !*name || strpbrk(name, " \t\n")) {
            dap_respond_err(d, req, "setFunctionBreakpoints: breakpoints[%d] needs a function name.",
                            i);
            w->err = 1;
            return;
        }
    }
    remove_kind(d, DAP_BP_FUNCTION, NULL);
    dap_begin_response(d, w, req, 1, NULL);
    djw_obj(w, "body");
    djw_arr(w, "breakpoints");
    for (int i = 0; i < list->count; i++) {
        const dj *it = list->items[i];
        dap_bp *b = new_bp(d, DAP_BP_FUNCTION);
        if (!b)
            break;
        char msg[1024];
        engine_add(d, b, dj_str(it, "name", ""), dj_str(it, "condition", NULL),
                   dj_str(it, "hitCondition", NULL), msg, sizeof msg);
        write_bp(d, w, b, msg[0] ? msg : NULL);
    }
    djw_arr_end(w);
    djw_obj_end(w);
}

static int parse_ref(const char *s, uint64_t *v)
{
    char *end;
    if (!s || !*s)
        return -1;
    unsigned long long x = strtoull(s, &end, 0);
    if (*end || end == s || s[0] == '-')
        return -1;
    *v = x;
    return 0;
}

static void set_insn(dap_srv *d, const dj *req, const dj *a, dj_w *w)
{
    const dj *list = dj_get(a, "breakpoints");
    if (!list || list->kind != DJ_ARR) {
        dap_respond_err(d, req, "setInstructionBreakpoints: an array of breakpoints is required.");
        w->err = 1;
        return;
    }
    uint64_t *pcs = calloc((size_t)list->count + 1, sizeof *pcs);
    if (!pcs) {
        dap_respond_err(d, req, "setInstructionBreakpoints: out of memory.");
        w->err = 1;
        return;
    }
    for (int i = 0; i < list->count; i++) {
        const dj *it = list->items[i];
        uint64_t ref;
        int64_t off = 0;
        if (parse_ref(dj_str(it, "instructionReference", NULL), &ref) != 0 ||
            dj_int(it, "offset", -(1ll << 40), 1ll << 40, &off) < 0 ||
            (int64_t)ref + off < 0 || (int64_t)ref + off > UINT32_MAX) {
            dap_respond_err(d, req, "setInstructionBreakpoints: breakpoints[%d] needs an "
                            "instructionReference (a pc, \"0x1f\") and an integer offset.", i);
            free(pcs);
            w->err = 1;
            return;
        }
        pcs[i] = (uint64_t)((int64_t)ref + off);
    }
    remove_kind(d, DAP_BP_INSN, NULL);
    dap_begin_response(d, w, req, 1, NULL);
    djw_obj(w, "body");
    djw_arr(w, "breakpoints");
    for (int i = 0; i < list->count; i++) {
        const dj *it = list->items[i];
        dap_bp *b = new_bp(d, DAP_BP_INSN);
        if (!b)
            break;
        char spec[40], msg[1024];
        snprintf(spec, sizeof spec, "*0x%llx", (unsigned long long)pcs[i]);
        engine_add(d, b, spec, dj_str(it, "condition", NULL), dj_str(it, "hitCondition", NULL),
                   msg, sizeof msg);
        write_bp(d, w, b, msg[0] ? msg : NULL);
    }
    free(pcs);
    djw_arr_end(w);
    djw_obj_end(w);
}

/* ---- data breakpoints ------------------------------------------------------------------------- */
/* dataId: "SPACE:ADDR:LEN:TYPE" */
static int data_id_parse(const char *id, ptx_space *sp, uint64_t *addr, uint32_t *len,
                         char *type, size_t tn)
{
    char spn[32];
    unsigned long long a;
    unsigned l;
    int used = 0;
    if (!id || sscanf(id, "%31[a-z]:%llx:%u:%n", spn, &a, &l, &used) != 3 || !used)
        return -1;
    snprintf(type, tn, "%s", id + used);
    static const struct { const char *n; ptx_space s; } spaces[] = {
        {"global", PTX_SPACE_GLOBAL}, {"shared", PTX_SPACE_SHARED}, {"local", PTX_SPACE_LOCAL},
        {"generic", PTX_SPACE_GENERIC}};
    for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        if (!strcmp(spaces[i].n, spn)) {
            *sp = spaces[i].s;
            *addr = a;
            *len = l;
            return l >= 1 && l <= 8 ? 0 : -1;
        }
    return -1;
}

void dap_bps_data_info(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    const char *name = dj_str(a, "name", NULL);
    if (!name || !*name) {
        dap_respond_err(d, req, "dataBreakpointInfo: a name is required.");
        return;
    }
    int64_t ref = 0, fid = 0;
    int hr = dj_int(a, "variablesReference", 0, INT32_MAX, &ref);
    int hf = dj_int(a, "frameId", 0, INT32_MAX, &fid);
    if (hr < 0 || hf < 0) {
        dap_respond_err(d, req, "dataBreakpointInfo: variablesReference and frameId are integers.");
        return;
    }
    char expr[1200], why[600] = "";
    dap_lref r;
    int ok = 0;
    if (hr && ref > 0) {
        if (ref > d->nvars) {
            snprintf(why, sizeof why, "Unknown variablesReference %lld.", (long long)ref);
        } else {
            dap_var_ref *vr = &d->vars[ref - 1];
            r = vr->r;
            if (vr->kind == DAP_VR_LOCALS || vr->kind == DAP_VR_LANE) {
                snprintf(expr, sizeof expr, "%s", name);
                ok = 1;
            } else if (vr->kind == DAP_VR_EXPR) {
                for (int64_t i = 0; i < vr->n && i < 100000 && !ok; i++) {
                    char cn[300], *ce = NULL;
                    if (dapv_child(d->v, &r, vr->expr, i, cn, sizeof cn, &ce) == 0 &&
                        !strcmp(cn, name) && strlen(ce) < sizeof expr) {
                        snprintf(expr, sizeof expr, "%s", ce);
                        ok = 1;
                    }
                    free(ce);
                }
                if (!ok)
                    snprintf(why, sizeof why, "No member %s.", name);
            } else if (vr->kind == DAP_VR_REGS) {
                snprintf(why, sizeof why, "Registers cannot be watched; watch memory instead.");
            } else {
                snprintf(why, sizeof why, "Watch shared memory through an expression "
                         "(*(@shared int *)0x40).");
            }
        }
    } else {
        const dap_frame_ref *fr = hf ? dap_frame_get(d, fid) : NULL;
        if (fr)
            r = fr->r;
        else if (dap_focus_lref(d, &r) != 0)
            memset(&r, 0, sizeof r);
        snprintf(expr, sizeof expr, "%s", name);
        ok = 1;
    }
    char dataid[300] = "", desc[1400] = "";
    if (ok) {
        dapv_val v;
        char err[512];
        if (dapv_eval(d->v, &r, expr, 0, &v, err, sizeof err) != 0) {
            snprintf(why, sizeof why, "%s", err);
        } else if (v.in_mem && v.space == PTX_SPACE_GENERIC &&
                   (v.space = dbg_generic_decode(v.addr, &v.addr)) == PTX_SPACE_NONE) {
            snprintf(why, sizeof why, "%s is at a generic address outside every space.", name);
        } else if (!v.in_mem || v.size < 1 || v.size > 8) {
            snprintf(why, sizeof why, "%s is not a scalar in memory (1 to 8 bytes).", name);
        } else if (v.space != PTX_SPACE_GLOBAL && v.space != PTX_SPACE_SHARED &&
                   v.space != PTX_SPACE_GENERIC && v.space != PTX_SPACE_LOCAL) {
            snprintf(why, sizeof why, "%s is in @%s memory, which cannot be watched.", name,
                     ptx_space_name(v.space));
        } else {
            snprintf(dataid, sizeof dataid, "%s:%llx:%llu:%s", ptx_space_name(v.space),
                     (unsigned long long)v.addr, (unsigned long long)v.size, v.type);
            snprintf(desc, sizeof desc, "%s (@%s 0x%llx, %llu bytes)", name,
                     ptx_space_name(v.space), (unsigned long long)v.addr,
                     (unsigned long long)v.size);
        }
        dapv_val_free(&v);
    }
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    if (dataid[0]) {
        djw_str(&w, "dataId", dataid);
        djw_str(&w, "description", desc);
        djw_arr(&w, "accessTypes");
        djw_str(&w, NULL, "write");
        djw_str(&w, NULL, "read");
        djw_str(&w, NULL, "readWrite");
        djw_arr_end(&w);
        djw_bool(&w, "canPersist", 0);
    } else {
        djw_null(&w, "dataId");
        djw_str(&w, "description", why[0] ? why : "Cannot watch this.");
    }
    djw_obj_end(&w);
    dap_send(d, &w);
}

static ptx_type shown_as(uint32_t len)
{
    return len == 1 ? PTX_T_U8 : len == 2 ? PTX_T_U16 : len == 4 ? PTX_T_U32 : PTX_T_U64;
}

static void set_data(dap_srv *d, const dj *req, const dj *a, dj_w *w)
{
    const dj *list = dj_get(a, "breakpoints");
    if (!list || list->kind != DJ_ARR) {
        dap_respond_err(d, req, "setDataBreakpoints: an array of breakpoints is required.");
        w->err = 1;
        return;
    }
    for (int i = 0; i < list->count; i++) {
        ptx_space sp;
        uint64_t addr;
        uint32_t len;
        char type[200];
        const char *at = dj_str(list->items[i], "accessType", "write");
        if (data_id_parse(dj_str(list->items[i], "dataId", NULL), &sp, &addr, &len, type,
                          sizeof type) != 0 ||
            (strcmp(at, "write") && strcmp(at, "read") && strcmp(at, "readWrite"))) {
            dap_respond_err(d, req, "setDataBreakpoints: breakpoints[%d] needs a dataId from "
                            "dataBreakpointInfo and an accessType read, write or readWrite.", i);
            w->err = 1;
            return;
        }
    }
    remove_kind(d, DAP_BP_DATA, NULL);
    dap_begin_response(d, w, req, 1, NULL);
    djw_obj(w, "body");
    djw_arr(w, "breakpoints");
    for (int i = 0; i < list->count; i++) {
        const dj *it = list->items[i];
        ptx_space sp;
        uint64_t addr;
        uint32_t len;
        char type[200], msg[600] = "";
        data_id_parse(dj_str(it, "dataId", NULL), &sp, &addr, &len, type, sizeof type);
        const char *at = dj_str(it, "accessType", "write");
        dbg_bp_type t = !strcmp(at, "read") ? DBG_BP_RWATCH
                        : !strcmp(at, "readWrite") ? DBG_BP_AWATCH : DBG_BP_WATCH;
        dap_bp *b = new_bp(d, DAP_BP_DATA);
        if (!b)
            break;
        char expr[400];
        snprintf(expr, sizeof expr, "*(@%s %s *)0x%llx", ptx_space_name(sp), type,
                 (unsigned long long)addr);
        b->spec = strdup(expr);
        const char *cond = dj_str(it, "condition", NULL);
        const char *hit = dj_str(it, "hitCondition", NULL);
        char op[2];
        long hv;
        if (cond && *cond)
            snprintf(msg, sizeof msg, "Data breakpoints take no condition here.");
        else if (hit && *hit && hit_parse(hit, op, &hv) != 0)
            snprintf(msg, sizeof msg, "Invalid hit condition \"%s\".", hit);
        else {
            if (hit && *hit)
                b->hitcond = strdup(hit);
            int num = dbg_watch_add(d->s, t, expr, sp, addr, len, shown_as(len));
            if (num < 0)
                snprintf(msg, sizeof msg, "%s", dbg_errmsg(d->s));
            else
                b->num = num;
        }
        write_bp(d, w, b, msg[0] ? msg : NULL);
    }
    djw_arr_end(w);
    djw_obj_end(w);
}

void dap_bps_request(dap_srv *d, const dj *req, const char *cmd)
{
    const dj *a = dj_get(req, "arguments");
    dj_w w;
    djw_init(&w);
    if (!strcmp(cmd, "setBreakpoints"))
        set_source(d, req, a, &w);
    else if (!strcmp(cmd, "setFunctionBreakpoints"))
        set_function(d, req, a, &w);
    else if (!strcmp(cmd, "setInstructionBreakpoints"))
        set_insn(d, req, a, &w);
    else
        set_data(d, req, a, &w);
    if (w.err) { /* an error response went out */
        djw_free(&w);
        return;
    }
    dap_send(d, &w);
}

void dap_bps_refresh(dap_srv *d)
{
    for (int i = 0; i < d->nbps; i++) {
        dap_bp *b = &d->bps[i];
        int verified, line;
        uint32_t pc;
        bp_state(d, b, &verified, &line, &pc);
        if (verified == b->verified && line == b->vline)
            continue;
        dj_w w;
        dap_begin_event(d, &w, "breakpoint");
        djw_obj(&w, "body");
        djw_str(&w, "reason", "changed");
        djw_obj(&w, "breakpoint");
        b->verified = verified;
        b->vline = line;
        djw_int(&w, "id", b->id);
        djw_bool(&w, "verified", verified);
        if (b->kind == DAP_BP_SOURCE) {
            djw_int(&w, "line", dap_client_line(d, line));
            djw_obj(&w, "source");
            djw_str(&w, "path", b->source);
            djw_obj_end(&w);
        }
        djw_obj_end(&w);
        djw_obj_end(&w);
        dap_send(d, &w);
    }
}
