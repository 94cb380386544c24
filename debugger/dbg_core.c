/* dbg_core.c - postmortem sessions: core files with the debugger's state, embedded sources, run guards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "dbg_int.h"
#include "fileck.h"

/* ---------------------------------------------------------------------------------------------
 * The debugger's sections of a core file (see core/exec_corefile.c for the container):
 *   0x101 SOURCES     u32 count; per file: str path as the module's .file names it, bytes text
 *   0x102 BUFFERS     u32 count; per buffer: str name, u32 element type, u64 count, u64 address,
 *                     u64 size
 *   0x103 SESSION     u32 launches so far; focus: u32 valid, kernel, cta, warp, lane, s32 frame;
 *                     str the launch site (a program's host location of the launch, "" none)
 *   0x104 BREAKPOINTS u32 count; per breakpoint: u32 number, type, temp, enabled, hits, ignore,
 *                     str location, str condition ("" none), u32 command count, str per command,
 *                     u32 "dis" disposition (enable once / count), u32 stops before it disables
 * ------------------------------------------------------------------------------------------- */
enum { T_SOURCES = EXEC_CORE_TAG_USER + 1, T_BUFFERS, T_SESSION, T_BREAKPOINTS };

typedef struct {
    char *path;
    char *text;
    size_t *starts;           /* line start offsets */
    int nlines;
} core_src;

struct dbg_core_state {
    char *path;               /* the core file shown */
    core_src *src;
    int nsrc;
};

void dbg_core_unload(dbg_session *s)
{
    struct dbg_core_state *k = s->core;
    if (!k)
        return;
    for (int i = 0; i < k->nsrc; i++) {
        free(k->src[i].path);
        free(k->src[i].text);
        free(k->src[i].starts);
    }
    free(k->src);
    free(k->path);
    free(k);
    s->core = NULL;
}

const char *dbg_core_path(const dbg_session *s) { return s->core ? s->core->path : NULL; }

/* ---- embedded sources ------------------------------------------------------------------------ */
static const char *base_of(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

static core_src *find_src(dbg_session *s, const char *file)
{
    if (!s->core || !file)
        return NULL;
    for (int i = 0; i < s->core->nsrc; i++)
        if (!strcmp(s->core->src[i].path, file))
            return &s->core->src[i];
    for (int i = 0; i < s->core->nsrc; i++)
        if (!strcmp(base_of(s->core->src[i].path), base_of(file)))
            return &s->core->src[i];
    return NULL;
}

const char *dbg_core_source_line(dbg_session *s, const char *file, int line, int *len)
{
    core_src *f = find_src(s, file);
    if (!f || line < 1 || line > f->nlines)
        return NULL;
    size_t a = f->starts[line - 1];
    size_t e = a;
    while (f->text[e] && f->text[e] != '\n')
        e++;
    if (e > a && f->text[e - 1] == '\r')
        e--;
    *len = (int)(e - a);
    return f->text + a;
}

int dbg_core_source_nlines(dbg_session *s, const char *file)
{
    core_src *f = find_src(s, file);
    return f ? f->nlines : -1;
}

static int add_src(struct dbg_core_state *k, const char *path, const char *text, uint64_t len)
{
    core_src *ns = realloc(k->src, sizeof *ns * (size_t)(k->nsrc + 1));
    if (!ns)
        return -1;
    k->src = ns;
    core_src *f = &ns[k->nsrc];
    memset(f, 0, sizeof *f);
    f->path = strdup(path);
    f->text = malloc((size_t)len + 1);
    if (!f->path || !f->text) {
        free(f->path);
        free(f->text);
        return -1;
    }
    memcpy(f->text, text, (size_t)len);
    f->text[len] = 0;
    int n = 0;
    for (uint64_t i = 0; i < len; i++)
        n += f->text[i] == '\n';
    n += len && f->text[len - 1] != '\n';
    f->starts = malloc(sizeof *f->starts * (size_t)(n + 1));
    if (!f->starts) {
        free(f->path);
        free(f->text);
        return -1;
    }
    int k2 = 0;
    for (uint64_t i = 0; i < len && k2 < n; i++)
        if (i == 0 || f->text[i - 1] == '\n')
            f->starts[k2++] = (size_t)i;
    f->nlines = k2;
    k->nsrc++;
    return 0;
}

static char *read_whole(const char *path, uint64_t *len)
{
    size_t n = 0;
    char *text = fileck_read_all(path, &n);
    *len = n;
    return text;
}

/* ---- saving ---------------------------------------------------------------------------------- */
static void put_sources(dbg_session *s, exec_cbuf *b)
{
    const ptx_module *mod = s->mod;
    uint32_t n = 0;
    exec_cbuf tmp = {0};
    for (int i = 0; i < mod->nfiles; i++) {
        const char *p = mod->files[i].path;
        if (!p || !*p)
            continue;
        core_src *e = find_src(s, p);
        if (e && !strcmp(e->path, p)) {
            exec_cbuf_str(&tmp, p);
            exec_cbuf_bytes(&tmp, e->text, strlen(e->text));
            n++;
            continue;
        }
        char buf[4096];
        const char *dir = s->dir && s->dir[0] ? s->dir : NULL;
        const char *r = dw_src_resolve(s->srcp, p, dir, buf, sizeof buf);
        uint64_t len = 0;
        char *text = r ? read_whole(r, &len) : NULL;
        if (!text)
            continue;
        exec_cbuf_str(&tmp, p);
        exec_cbuf_bytes(&tmp, text, len);
        free(text);
        n++;
    }
    exec_cbuf_u32(b, n);
    exec_cbuf_put(b, tmp.p, tmp.n);
    b->oom |= tmp.oom;
    exec_cbuf_free(&tmp);
}

static void put_buffers(dbg_session *s, exec_cbuf *b)
{
    exec_cbuf_u32(b, (uint32_t)s->nbufs);
    for (int i = 0; i < s->nbufs; i++) {
        const dbg_buffer *x = &s->bufs[i];
        exec_cbuf_str(b, x->name);
        exec_cbuf_u32(b, (uint32_t)x->type);
        exec_cbuf_u64(b, x->count);
        exec_cbuf_u64(b, x->addr);
        exec_cbuf_u64(b, x->size);
    }
}

static void put_session(dbg_session *s, exec_cbuf *b)
{
    exec_cbuf_u32(b, s->nlaunches);
    exec_cbuf_u32(b, (uint32_t)s->focus.valid);
    exec_cbuf_u32(b, s->focus.kernel);
    exec_cbuf_u32(b, s->focus.cta);
    exec_cbuf_u32(b, s->focus.warp);
    exec_cbuf_u32(b, s->focus.lane);
    exec_cbuf_u32(b, (uint32_t)s->focus.frame);
    char site[1024] = "";
    if (dbg_launch_site(s, site, sizeof site) != 0)
        site[0] = 0;
    exec_cbuf_str(b, site);
}

static void put_breakpoints(dbg_session *s, exec_cbuf *b)
{
    exec_cbuf_u32(b, (uint32_t)s->nbps);
    for (int i = 0; i < s->nbps; i++) {
        const dbg_bp *p = s->bps[i];
        exec_cbuf_u32(b, (uint32_t)p->num);
        exec_cbuf_u32(b, (uint32_t)p->type);
        exec_cbuf_u32(b, (uint32_t)p->temp);
        exec_cbuf_u32(b, (uint32_t)p->enabled);
        exec_cbuf_u32(b, (uint32_t)p->hits);
        exec_cbuf_u32(b, (uint32_t)p->ignore);
        exec_cbuf_str(b, p->spec);
        exec_cbuf_str(b, p->cond ? p->cond : "");
        exec_cbuf_u32(b, (uint32_t)p->ncommands);
        for (int k = 0; k < p->ncommands; k++)
            exec_cbuf_str(b, p->commands[k]);
        exec_cbuf_u32(b, (uint32_t)p->disp_dis);
        exec_cbuf_u32(b, (uint32_t)p->disable_after);
    }
}

int dbg_core_save(dbg_session *s, const char *path)
{
    if (!s->m || !s->mod)
        return dbg_err(s, "No PTX module loaded.");
    exec_cbuf b[4];
    memset(b, 0, sizeof b);
    put_sources(s, &b[0]);
    put_buffers(s, &b[1]);
    put_session(s, &b[2]);
    put_breakpoints(s, &b[3]);
    exec_core_sect sect[4];
    int oom = 0;
    for (int i = 0; i < 4; i++) {
        sect[i].tag = T_SOURCES + (uint32_t)i;
        sect[i].data = b[i].p;
        sect[i].len = b[i].n;
        oom |= b[i].oom;
    }
    int rc = oom ? dbg_err(s, "Out of memory.")
             : exec_core_write(s->m, path, sect, 4, s->interrupt) != 0 ? dbg_err(s, "%s", exec_errmsg(s->m))
                                                        : 0;
    for (int i = 0; i < 4; i++)
        exec_cbuf_free(&b[i]);
    return rc;
}

void dbg_core_default_name(const dbg_session *s, char *out, size_t n)
{
    const exec_launch_info *li = dbg_launch_info(s);
    if (!li) {
        snprintf(out, n, "core.ptxdbg");
        return;
    }
    char name[256];
    dbg_func_name(s, li->kernel, 0, name, sizeof name);
    /* keep the name a plain file name */
    for (char *p = name; *p; p++)
        if (*p == '/' || *p == ' ' || *p == ':' || *p == '<' || *p == '>' || *p == '(' ||
            *p == ')' || *p == ',' || *p == '*' || *p == '&')
            *p = '_';
    snprintf(out, n, "core.%s.%u", name, li->launch_id);
}

/* ---- loading --------------------------------------------------------------------------------- */
static int load_sources(dbg_session *s, struct dbg_core_state *k, const exec_core *c)
{
    const void *p;
    uint64_t n;
    if (exec_core_find(c, T_SOURCES, 0, &p, &n) != 0)
        return 0;
    exec_crd r = { p, (size_t)n, 0, 0 };
    uint32_t cnt = exec_crd_u32(&r);
    for (uint32_t i = 0; i < cnt && !r.bad; i++) {
        char *path = exec_crd_str(&r);
        uint64_t len;
        const char *text = exec_crd_bytes(&r, &len);
        if (!r.bad && path && add_src(k, path, text, len) != 0)
            r.bad = 1;
        free(path);
    }
    return r.bad ? dbg_err(s, "the core file's source section is corrupted") : 0;
}

static int load_buffers(dbg_session *s, const exec_core *c)
{
    const void *p;
    uint64_t n;
    if (exec_core_find(c, T_BUFFERS, 0, &p, &n) != 0)
        return 0;
    exec_crd r = { p, (size_t)n, 0, 0 };
    uint32_t cnt = exec_crd_u32(&r);
    /* a record is at least 32 bytes: str name (u32 length, may be short), u32 type, 3 x u64 */
    if (r.bad || cnt > (n - 4) / 32)
        return dbg_err(s, "the core file's buffer section is corrupted");
    dbg_buffer *bufs = calloc(cnt ? cnt : 1, sizeof *bufs);
    if (!bufs)
        return dbg_err(s, "Out of memory.");
    for (uint32_t i = 0; i < cnt && !r.bad; i++) {
        char *name = exec_crd_str(&r);
        if (name)
            snprintf(bufs[i].name, sizeof bufs[i].name, "%s", name);
        free(name);
        bufs[i].type = (ptx_type)exec_crd_u32(&r);
        bufs[i].count = exec_crd_u64(&r);
        bufs[i].addr = exec_crd_u64(&r);
        bufs[i].size = exec_crd_u64(&r);
    }
    if (r.bad) {
        free(bufs);
        return dbg_err(s, "the core file's buffer section is corrupted");
    }
    s->bufs = bufs;
    s->nbufs = (int)cnt;
    for (int i = 0; i < s->nbufs; i++) /* messages name them as the live session did */
        exec_global_name(s->m, bufs[i].addr, bufs[i].name);
    return 0;
}

static void load_session(dbg_session *s, const exec_core *c)
{
    const void *p;
    uint64_t n;
    s->alive = 0;
    s->has_last = 0;
    s->stopped_at_bp = 0;
    memset(&s->focus, 0, sizeof s->focus);
    if (exec_core_find(c, T_SESSION, 0, &p, &n) != 0) {
        /* a core written without the debugger (the runtime's PTXDBG_AUTO_CORE): the lane the
           stop names, as a live session focuses it */
        exec_stop st;
        int over;
        const exec_launch_info *li = dbg_launch_info(s);
        if (li && dbg_last_stop(s, &st, &over) == 0 && st.kind != EXEC_STOP_DONE &&
            dbg_set_focus(s, st.cta, st.warp, st.lane) == 0)
            s->focus.kernel = li->launch_id;
        s->nlaunches = li ? li->launch_id + 1 : 0;
        return;
    }
    exec_crd r = { p, (size_t)n, 0, 0 };
    uint32_t nl = exec_crd_u32(&r);
    dbg_focus f;
    f.valid = (int)exec_crd_u32(&r);
    f.kernel = exec_crd_u32(&r);
    f.cta = exec_crd_u32(&r);
    f.warp = exec_crd_u32(&r);
    f.lane = exec_crd_u32(&r);
    f.frame = (int)exec_crd_u32(&r);
    char *site = exec_crd_str(&r);
    if (r.bad) {
        free(site);
        return;
    }
    if (site && site[0]) { /* bt and info cuda kernels name it as the live session did */
        snprintf(s->launch_site, sizeof s->launch_site, "%s", site);
        s->nlaunch_pcs = 1;
        s->launch_pcs[0] = 0;
    }
    free(site);
    s->nlaunches = nl;
    if (f.valid && dbg_set_focus(s, f.cta, f.warp, f.lane) == 0) {
        s->focus.kernel = f.kernel;
        if (f.frame > 0)
            dbg_set_frame(s, f.frame);
    }
}

static void load_breakpoints(dbg_session *s, const exec_core *c)
{
    const void *p;
    uint64_t n;
    if (exec_core_find(c, T_BREAKPOINTS, 0, &p, &n) != 0)
        return;
    exec_crd r = { p, (size_t)n, 0, 0 };
    uint32_t cnt = exec_crd_u32(&r);
    int maxnum = 0;
    for (uint32_t i = 0; i < cnt && !r.bad; i++) {
        int num = (int)exec_crd_u32(&r);
        uint32_t type = exec_crd_u32(&r);
        int temp = (int)exec_crd_u32(&r), en = (int)exec_crd_u32(&r);
        int hits = (int)exec_crd_u32(&r), ign = (int)exec_crd_u32(&r);
        char *spec = exec_crd_str(&r), *cond = exec_crd_str(&r);
        uint32_t nc = exec_crd_u32(&r);
        char **cmds = !r.bad && nc <= n / 4 ? calloc(nc ? nc : 1, sizeof *cmds) : NULL;
        for (uint32_t k = 0; cmds && k < nc; k++)
            cmds[k] = exec_crd_str(&r);
        int dd = (int)exec_crd_u32(&r), dis = (int)exec_crd_u32(&r);
        if (!r.bad && spec && cond && type == DBG_BP_BREAK && num > 0) {
            s->next_bp = num;
            if (dbg_break_add(s, spec, cond[0] ? cond : NULL, temp) == num) {
                dbg_bp *b = dbg_bp_find(s, num);
                if (b) {
                    b->hits = hits;
                    b->ignore = ign;
                    b->disp_dis = dd != 0;
                    b->disable_after = dis;
                    if (!en)
                        dbg_bp_enable(s, num, 0);
                    if (cmds && nc) {
                        dbg_bp_set_commands(s, num, cmds, (int)nc);
                        cmds = NULL;
                    }
                }
            }
        }
        if (num > maxnum)
            maxnum = num;
        if (cmds)
            for (uint32_t k = 0; k < nc; k++)
                free(cmds[k]);
        free(cmds);
        free(spec);
        free(cond);
    }
    s->next_bp = maxnum + 1 > s->next_bp ? maxnum + 1 : s->next_bp;
}

int dbg_core_load(dbg_session *s, const char *path)
{
    char err[1024];
    /* a directory, device or FIFO would be read until memory runs out, or block */
    struct stat st;
    if (stat(path, &st) == 0 && fileck_regular(path, 0, NULL, err, sizeof err) != 0)
        return dbg_err(s, "%s: %s", path, err);
    exec_core *c = exec_core_open(path, err, sizeof err, s->interrupt);
    if (!c)
        return dbg_err(s, "%s", err);
    const char *text, *mpath;
    uint64_t len;
    exec_core_module(c, &text, &len, &mpath);
    struct dbg_core_state *k = calloc(1, sizeof *k);
    if (!k || !(k->path = strdup(path))) {
        free(k);
        exec_core_close(c);
        return dbg_err(s, "Out of memory.");
    }
    /* the session's own buffers and breakpoints belong to the program being replaced */
    dbg_bp_delete(s, 0);
    for (int i = 0; i < s->nbufs; i++)
        free(s->bufs[i].init);
    free(s->bufs);
    s->bufs = NULL;
    s->nbufs = 0;
    s->nlaunches = 0;
    uint64_t gbase, glimit;
    exec_core_window(c, &gbase, &glimit);
    int rc = dbg_load_text_at(s, text, (size_t)len, mpath, gbase, glimit);
    if (rc == 0 && exec_core_restore(s->m, c) != 0)
        rc = dbg_err(s, "%s: %s", path, exec_errmsg(s->m));
    if (rc == 0)
        rc = load_sources(s, k, c);
    if (rc == 0)
        rc = load_buffers(s, c);
    if (rc != 0) {
        s->core = k;
        dbg_core_unload(s);
        exec_core_close(c);
        if (s->m)
            exec_kill(s->m);
        return -1;
    }
    s->core = k;
    free(s->dir);
    const char *slash = strrchr(path, '/');
    s->dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
    load_session(s, c);
    load_breakpoints(s, c);
    exec_core_close(c);
    return 0;
}

/* ---- postmortem state ------------------------------------------------------------------------ */
int dbg_last_stop(const dbg_session *s, exec_stop *st, int *over)
{
    if (!s->m || !dbg_launch_info(s))
        return -1;
    return exec_last_stop(s->m, st, over);
}

int dbg_launch_running(const dbg_session *s)
{
    if (dbg_launch_alive(s))
        return 1;
    exec_stop st;
    int over = 0;
    if (!s->core || dbg_last_stop(s, &st, &over) != 0)   /* a core's machine is always over */
        return 0;
    return st.kind != EXEC_STOP_DONE && st.kind != EXEC_STOP_TRAP &&
           st.kind != EXEC_STOP_ASSERT && st.kind != EXEC_STOP_EXCEPTION;
}

const char *dbg_cannot_run(dbg_session *s)
{
    if (s->core) {
        snprintf(s->err, sizeof s->err, "The program is a core file (%s); it cannot run. Load a "
                 "PTX file with \"file\" to start a live session.", s->core->path);
        return s->err;
    }
    exec_stop st;
    int over = 0;
    if (dbg_last_stop(s, &st, &over) != 0 || !over)
        return NULL;
    const char *what = st.kind == EXEC_STOP_TRAP     ? "has trapped"
                       : st.kind == EXEC_STOP_ASSERT ? "stopped at a failed assertion"
                       : st.kind == EXEC_STOP_EXCEPTION ? "stopped with a CUDA exception"
                                                        : NULL;
    if (!what)
        return NULL;
    snprintf(s->err, sizeof s->err, "The kernel %s; no further execution is possible. Inspect "
             "it, save it with \"generate-core-file\", or start again with \"run\".", what);
    return s->err;
}
