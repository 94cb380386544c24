/* dap_bps.c - DAP breakpoint requests: source (matched by path suffix), function, instruction and data breakpoints, their state as the client is told it. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dap_int.h"
#include "dap_prog.h"

static void bp_release(dap_bp *b)
{
    free(b->source);
    free(b->spec);
    free(b->hitcond);
    free(b->cond);
    free(b->logmsg);
    free(b->error);
}

void dap_bps_free(dap_srv *d)
{
    for (int i = 0; i < d->nbps; i++)
        bp_release(&d->bps[i]);
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
static const char *session_file(dbg_session *s, const char *client, int *is_ptx)
{
    *is_ptx = 0;
    const char *files[512];
    int nf = dbg_source_files(s, files, 512);
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
    const char *mp = dbg_module_path(s);
    if (mp[0] && !strcmp(base(mp), base(client))) {
        *is_ptx = 1;
        return mp;
    }
    return NULL;
}

static const char *module_file(dap_srv *d, const char *client, int *is_ptx)
{
    return session_file(d->s, client, is_ptx);
}

/* A CUDA program that has not loaded its modules yet: where a breakpoint will be, from the PTX
 * of its fat binary (sessions of their own, dap_prog.c). 1 with the source line (0 when it has
 * none) and the pc; -1 with why when it can be told it cannot be set there (its condition);
 * 0 when no module has it (a module the program makes at run time may). */
static int early_resolve(dap_srv *d, const dap_bp *b, int *line, char *why, size_t wn)
{
    dbg_session **ss;
    dapv **vs;
    int n = dbg_has_module(d->s) ? 0 : dap_prog_sessions(d, &ss, &vs);
    *line = 0;
    for (int i = 0; i < n; i++) {
        char spec[1200];
        const char *mf = NULL;
        int ptx = 0;
        if (b->kind == DAP_BP_SOURCE) {
            if (!(mf = session_file(ss[i], b->source, &ptx)) || ptx)
                continue;
            snprintf(spec, sizeof spec, "%s:%d", mf, b->line);
        } else if (b->kind == DAP_BP_FUNCTION && b->spec) {
            snprintf(spec, sizeof spec, "%s", b->spec);
        } else {
            return 0;
        }
        uint32_t pcs[DBG_MAX_LOCS];
        int np = dbg_resolve_location(ss[i], spec, pcs, DBG_MAX_LOCS);
        if (np <= 0)
            continue;
        if (b->cond && dapv_cond_check(vs[i], b->cond, pcs, np, why, wn) != 0)
            return -1;
        dbg_where w;
        if (dbg_pc_where(ss[i], pcs[0], &w) == 0 && w.file && w.line > 0 &&
            (!mf || !strcmp(w.file, mf)))
            *line = w.line;
        return 1;
    }
    return 0;
}

const char *dap_bp_client_path(dap_srv *d, const char *file, int line)
{
    const char *any = NULL;
    for (int i = 0; i < d->nbps; i++) {
        dap_bp *b = &d->bps[i];
        if (b->kind != DAP_BP_SOURCE || !b->source)
            continue;
        int ptx;
        const char *m = module_file(d, b->source, &ptx);
        if (!m || ptx || strcmp(m, file))
            continue;
        /* two client paths may name one file (two checkouts): the one with a breakpoint on
           this line first */
        if (b->verified && b->vline == line)
            return b->source;
        if (!any)
            any = b->source;
    }
    return any;
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
            bp_release(b);
            continue;
        }
        d->bps[k++] = *b;
    }
    d->nbps = k;
}

/* The state of a breakpoint as the client is told it. Once a breakpoint has resolved it stays
 * verified at that line: inside a CUDA program the session shows one module at a time, and a
 * breakpoint of another module is still set there. */
static void bp_state(dap_srv *d, dap_bp *b, int *verified, int *line, uint32_t *pc)
{
    *verified = 0;
    *line = b->line;
    *pc = UINT32_MAX;
    dbg_bp *e = b->num > 0 ? dbg_bp_find(d->s, b->num) : NULL;
    if (!e || e->pending || (e->type == DBG_BP_BREAK && e->npcs == 0)) {
        int early;
        char why[8];
        if (e && b->ever_verified) {
            *verified = 1;
            *line = b->vline;
            *pc = b->vpc;
        } else if (e && early_resolve(d, b, &early, why, sizeof why) == 1) {
            *verified = 1;
            if (b->kind == DAP_BP_SOURCE && early > 0)
                *line = early;
        }
        return;
    }
    *verified = 1;
    if (e->type != DBG_BP_BREAK)
        return;
    *pc = e->pcs[0];
    dbg_where w;
    if (dbg_pc_where(d->s, e->pcs[0], &w) != 0)
        return;
    if (b->kind == DAP_BP_SOURCE) {
        int ptx;
        const char *mf = module_file(d, b->source, &ptx);
        if (ptx)
            *line = w.ptx_line;
        else if (w.file && w.line > 0 && mf && !strcmp(w.file, mf))
            *line = w.line;
    } else if (w.file && w.line > 0) {
        *line = w.line;
    }
}

static void bp_body(dap_srv *d, dj_w *w, dap_bp *b)
{
    int verified, line;
    uint32_t pc;
    bp_state(d, b, &verified, &line, &pc);
    b->verified = verified;
    b->vline = line;
    if (verified) {
        b->ever_verified = 1;
        b->vpc = pc;
    }
    djw_int(w, "id", b->id);
    djw_bool(w, "verified", verified);
    if (b->kind == DAP_BP_SOURCE) {
        djw_int(w, "line", dap_client_line(d, line));
        djw_obj(w, "source");
        djw_str(w, "name", base(b->source));
        djw_str(w, "path", b->source);
        djw_obj_end(w);
    } else if (b->kind != DAP_BP_DATA && verified && pc != UINT32_MAX) {
        dbg_where wh;
        if (dbg_pc_where(d->s, pc, &wh) == 0 && wh.file && wh.line > 0)
            dap_write_source(d, w, "source", wh.file, wh.line, pc);
    }
    if (pc != UINT32_MAX) {
        char ref[32];
        snprintf(ref, sizeof ref, "0x%x", pc);
        djw_str(w, "instructionReference", ref);
    }
    if (b->error) {
        djw_str(w, "message", b->error);
        djw_str(w, "reason", "failed");
    } else if (!verified) {
        djw_str(w, "message", "pending: resolved when a module that has this location is loaded");
        djw_str(w, "reason", "pending");
    }
}

static void write_bp(dap_srv *d, dj_w *w, dap_bp *b)
{
    djw_obj(w, NULL);
    bp_body(d, w, b);
    djw_obj_end(w);
}

/* A breakpoint that cannot be set: unverified with the reason; the others of the request are
 * set all the same. */
static void bp_fail(dap_bp *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bp_fail(dap_bp *b, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    free(b->error);
    b->error = strdup(msg);
}

/* condition, hitCondition and logMessage of a breakpoint item; -1 (failed) when one is
 * malformed. */
static int bp_options(dap_bp *b, const dj *it)
{
    static const char *const keys[] = {"condition", "hitCondition", "logMessage"};
    const char *v[3];
    for (int k = 0; k < 3; k++) {
        const dj *x = dj_get(it, keys[k]);
        if (x && x->kind != DJ_STR && x->kind != DJ_NULL) {
            bp_fail(b, "%s must be a string.", keys[k]);
            return -1;
        }
        v[k] = x && x->kind == DJ_STR && x->str[strspn(x->str, " \t")] ? x->str : NULL;
    }
    char op[2];
    long hv;
    if (v[1] && dap_hit_parse(v[1], op, &hv) != 0) {
        bp_fail(b, "Invalid hit condition \"%s\": use N (from the Nth hit on), >= N, > N, == N, "
                "!= N, < N, <= N or %% N.", v[1]);
        return -1;
    }
    b->cond = v[0] ? strdup(v[0]) : NULL;
    b->hitcond = v[1] ? strdup(v[1]) : NULL;
    b->logmsg = v[2] ? strdup(v[2]) : NULL;
    return 0;
}

/* Set one breakpoint in the engine from spec. */
static void engine_add(dap_srv *d, dap_bp *b, const char *spec)
{
    b->spec = strdup(spec);
    const char *prog = dap_prog_path(d);
    char why[1024];
    int line;
    if (prog && !dbg_has_module(d->s) && !d->inproc) {
        /* a CUDA program before its modules load: what can be told from its file now */
        if (b->kind != DAP_BP_INSN && dbg_host_code(d->s, prog, spec, why, sizeof why) == 1) {
            bp_fail(b, "%s", why);
            return;
        }
        if (early_resolve(d, b, &line, why, sizeof why) < 0) {
            bp_fail(b, "%s", why);
            return;
        }
    }
    if (b->cond && dbg_has_module(d->s)) {
        uint32_t pcs[DBG_MAX_LOCS];
        char msg[1024];
        int np = dbg_resolve_location(d->s, spec, pcs, DBG_MAX_LOCS);
        if (np > 0 && dapv_cond_check(d->v, b->cond, pcs, np, msg, sizeof msg) != 0) {
            bp_fail(b, "%s", msg);
            return;
        }
        b->cond_checked = np > 0;
    }
    int num = dbg_break_add(d->s, spec, b->cond, 0);
    if (num < 0) {
        bp_fail(b, "%s", dbg_errmsg(d->s));
        return;
    }
    b->num = num;
}

/* An item's integer member that must be there: 1, or 0 after bp_fail. */
static int item_int(dap_bp *b, const dj *it, const char *key, int64_t lo, int64_t hi,
                    int64_t *out, const char *what)
{
    if (dj_int(it, key, lo, hi, out) == 1)
        return 1;
    bp_fail(b, "%s", what);
    return 0;
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
    remove_kind(d, DAP_BP_SOURCE, path);
    dap_begin_response(d, w, req, 1, NULL);
    djw_obj(w, "body");
    djw_arr(w, "breakpoints");
    for (int i = 0; items && i < items->count; i++) {
        const dj *it = items->items[i];
        dap_bp *b = new_bp(d, DAP_BP_SOURCE);
        if (!b)
            break;
        b->source = strdup(path);
        int64_t line = 0;
        int ok;
        if (list)
            ok = item_int(b, it, "line", d->lines0 ? 0 : 1, 1 << 30, &line,
                          "A breakpoint needs a line number.");
        else if (!(ok = it->kind == DJ_NUM && it->num == (int64_t)it->num && it->num >= 0 &&
                        it->num < (1 << 30)))
            bp_fail(b, "A breakpoint needs a line number.");
        else
            line = (int64_t)it->num;
        b->line = dap_engine_line(d, (int)line);
        if (ok && (!list || bp_options(b, it) == 0)) {
            int ptx;
            const char *mf = dbg_has_module(d->s) ? module_file(d, path, &ptx) : NULL;
            char spec[1200];
            if (mf && ptx)
                snprintf(spec, sizeof spec, "ptx:%d", b->line);
            else
                snprintf(spec, sizeof spec, "%s:%d", mf ? mf : base(path), b->line);
            engine_add(d, b, spec);
        }
        write_bp(d, w, b);
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
    remove_kind(d, DAP_BP_FUNCTION, NULL);
    dap_begin_response(d, w, req, 1, NULL);
    djw_obj(w, "body");
    djw_arr(w, "breakpoints");
    for (int i = 0; i < list->count; i++) {
        const dj *it = list->items[i];
        dap_bp *b = new_bp(d, DAP_BP_FUNCTION);
        if (!b)
            break;
        const char *name = dj_str(it, "name", NULL);
        while (name && isspace((unsigned char)*name))
            name++;
        size_t nl = name ? strlen(name) : 0;
        while (nl && isspace((unsigned char)name[nl - 1]))
            nl--;
        if (!nl)
            bp_fail(b, "A function breakpoint needs a function name.");
        else if (nl > 1000 || memchr(name, '\n', nl))
            bp_fail(b, "\"%.*s\" is not a function name.", (int)(nl > 200 ? 200 : nl), name);
        else if (bp_options(b, it) == 0) {
            char spec[1024];
            snprintf(spec, sizeof spec, "%.*s", (int)nl, name);
            engine_add(d, b, spec);
        }
        write_bp(d, w, b);
    }
    djw_arr_end(w);
    djw_obj_end(w);
}

static int parse_ref(const char *s, uint64_t *v)
{
    char *end;
    if (!s || !*s || s[0] == '-' || isspace((unsigned char)s[0]))
        return -1;
    unsigned long long x = strtoull(s, &end, 0);
    if (*end || end == s)
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
    remove_kind(d, DAP_BP_INSN, NULL);
    dap_begin_response(d, w, req, 1, NULL);
    djw_obj(w, "body");
    djw_arr(w, "breakpoints");
    for (int i = 0; i < list->count; i++) {
        const dj *it = list->items[i];
        dap_bp *b = new_bp(d, DAP_BP_INSN);
        if (!b)
            break;
        uint64_t ref;
        int64_t off = 0;
        const char *rs = dj_str(it, "instructionReference", NULL);
        if (parse_ref(rs, &ref) != 0)
            bp_fail(b, "instructionReference must be an instruction address such as \"0x1f\".");
        else if (dj_int(it, "offset", -(1ll << 40), 1ll << 40, &off) < 0)
            bp_fail(b, "offset must be an integer.");
        else if ((int64_t)ref + off < 0 || (int64_t)ref + off > UINT32_MAX ||
                 (dbg_has_module(d->s) && (uint64_t)((int64_t)ref + off) >= dbg_ninsns(d->s)))
            bp_fail(b, "No instruction at %s%+lld.", rs, (long long)off);
        else if (bp_options(b, it) == 0) {
            char spec[40];
            snprintf(spec, sizeof spec, "*0x%llx", (unsigned long long)((int64_t)ref + off));
            engine_add(d, b, spec);
        }
        write_bp(d, w, b);
    }
    djw_arr_end(w);
    djw_obj_end(w);
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
    remove_kind(d, DAP_BP_DATA, NULL);
    dap_begin_response(d, w, req, 1, NULL);
    djw_obj(w, "body");
    djw_arr(w, "breakpoints");
    for (int i = 0; i < list->count; i++) {
        const dj *it = list->items[i];
        dap_bp *b = new_bp(d, DAP_BP_DATA);
        if (!b)
            break;
        ptx_space sp;
        uint64_t addr;
        uint32_t len;
        char type[200];
        const char *at = dj_str(it, "accessType", "write");
        if (dap_data_id_parse(dj_str(it, "dataId", NULL), &sp, &addr, &len, type, sizeof type) != 0)
            bp_fail(b, "dataId must be one that dataBreakpointInfo gave.");
        else if (strcmp(at, "write") && strcmp(at, "read") && strcmp(at, "readWrite"))
            bp_fail(b, "accessType must be read, write or readWrite.");
        else if (dj_str(it, "logMessage", NULL))
            bp_fail(b, "Data breakpoints take no log message.");
        else if (bp_options(b, it) == 0) {
            dbg_bp_type t = !strcmp(at, "read") ? DBG_BP_RWATCH
                            : !strcmp(at, "readWrite") ? DBG_BP_AWATCH : DBG_BP_WATCH;
            char expr[400];
            snprintf(expr, sizeof expr, "*(@%s %s *)0x%llx", dbg_space_name(sp), type,
                     (unsigned long long)addr);
            b->spec = strdup(expr);
            int num = dbg_watch_add(d->s, t, expr, sp, addr, len, shown_as(len));
            if (num < 0)
                bp_fail(b, "%s", dbg_errmsg(d->s));
            else
                b->num = num;
        }
        write_bp(d, w, b);
    }
    djw_arr_end(w);
    djw_obj_end(w);
}

void dap_bps_request(dap_srv *d, const dj *req, const char *cmd)
{
    const dj *a = dj_get(req, "arguments");
    dj_w w;
    djw_init(&w);
    if (d->no_debug) { /* a run without debugging: every breakpoint is answered unset */
        const dj *list = dj_get(a, "breakpoints");
        if (!list && !strcmp(cmd, "setBreakpoints"))
            list = dj_get(a, "lines");
        dap_begin_response(d, &w, req, 1, NULL);
        djw_obj(&w, "body");
        djw_arr(&w, "breakpoints");
        for (int i = 0; list && list->kind == DJ_ARR && i < list->count; i++) {
            djw_obj(&w, NULL);
            djw_bool(&w, "verified", 0);
            djw_str(&w, "message", "The session runs without debugging (noDebug).");
            djw_obj_end(&w);
        }
        djw_arr_end(&w);
        djw_obj_end(&w);
        dap_send(d, &w);
        return;
    }
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
        /* a condition set before the module came is checked where the breakpoint resolved,
           once, as one set now would be */
        dbg_bp *e = b->num > 0 ? dbg_bp_find(d->s, b->num) : NULL;
        if (e && b->cond && !b->cond_checked && e->type == DBG_BP_BREAK && e->npcs > 0) {
            char msg[1024];
            b->cond_checked = 1;
            if (dapv_cond_check(d->v, b->cond, e->pcs, e->npcs, msg, sizeof msg) != 0) {
                dbg_bp_delete(d->s, b->num);
                b->num = 0;
                bp_fail(b, "%s", msg);
            }
        }
        bp_state(d, b, &verified, &line, &pc);
        if (verified == b->verified && line == b->vline)
            continue;
        dj_w w;
        dap_begin_event(d, &w, "breakpoint");
        djw_obj(&w, "body");
        djw_str(&w, "reason", "changed");
        djw_obj(&w, "breakpoint");
        bp_body(d, &w, b);
        djw_obj_end(&w);
        djw_obj_end(&w);
        dap_send(d, &w);
    }
}
