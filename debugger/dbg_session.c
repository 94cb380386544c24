/* dbg_session.c - debugger session: module loading, buffers, launches and focus. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "dbg_int.h"

int dbg_err(dbg_session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, sizeof s->err, fmt, ap);
    va_end(ap);
    return -1;
}

const char *dbg_errmsg(const dbg_session *s) { return s->err; }

/* ---- the checkers' view of the session ------------------------------------------------------- */
static dw_info *chk_dwarf_of(void *ctx, const exec_machine *m)
{
    dbg_session *s = ctx;
    if (m == s->m)
        return s->dw;
    for (int i = 0; i < s->ndwc; i++)
        if (s->dwc[i].mod == exec_module(m))
            return s->dwc[i].dw;
    return NULL;
}

static void chk_report_of(void *ctx, const chk_finding *f)
{
    dbg_session *s = ctx;
    if (s->chk_report)
        s->chk_report(s->chk_report_ctx, f);
}

chk_ctx *dbg_checks(dbg_session *s) { return s->chk; }

void dbg_set_check_reporter(dbg_session *s, void (*report)(void *ctx, const chk_finding *f),
                            void *ctx)
{
    s->chk_report = report;
    s->chk_report_ctx = ctx;
}

dbg_session *dbg_new(void)
{
    dbg_session *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->next_bp = 1;
    s->opts.scheduler_locking = 1;
    s->opts.print_elements = 200;
    s->opts.print_repeats = 10;
    s->demangle = dbg_demangle;
    s->dir = strdup("");
    s->srcp = dw_src_new();
    s->chk = chk_new();
    char err[256];
    if (!s->dir || !s->srcp || !s->chk || chk_set(s->chk, "memcheck", 1, err, sizeof err)) {
        dbg_free(s);
        return NULL;
    }
    chk_hooks h = { .ctx = s, .dwarf = chk_dwarf_of, .report = chk_report_of };
    chk_set_hooks(s->chk, &h);
    return s;
}

static void unload(dbg_session *s)
{
    dbg_core_unload(s);
    if (s->m && !s->borrowed && s->chk)
        chk_detach(s->chk, s->m);
    if (s->m && !s->borrowed)
        exec_free(s->m);
    s->m = NULL;
    if (s->mod && !s->borrowed)
        ptx_module_free(s->mod);
    s->mod = NULL;
    s->alive = 0;
    s->has_last = 0;
    s->last_kernel = NULL;
    s->nlaunch_pcs = 0;
    s->focus.valid = 0;
    if (!s->borrowed)
        dw_free(s->dw);
    s->dw = NULL;
    s->borrowed = 0;
    s->dwarn[0] = 0;
    dbg_src_free_all(s);
}

void dbg_free(dbg_session *s)
{
    if (!s)
        return;
    dbg_history_free(&s->hist);
    dbg_tex_free(s);
    dbg_ptx_free(s);
    unload(s);
    chk_free(s->chk);   /* borrowed machines still attached: the caller's, still alive */
    s->chk = NULL;
    for (int i = 0; i < s->ndwc; i++)
        dw_free(s->dwc[i].dw);
    free(s->dwc);
    dbg_bp_free_all(s);
    for (int i = 0; i < s->nbufs; i++)
        free(s->bufs[i].init);
    free(s->bufs);
    free(s->last_params);
    free(s->dir);
    dw_src_free(s->srcp);
    dbg_hostprog_free(s->hostprog);
    dbg_output_free(s);
    free(s);
}

/* Write a buffer's saved contents into fresh (zeroed) global memory, skipping zero chunks so
 * that memory nobody wrote stays untouched (and unmapped on the host). */
static int write_init(dbg_session *s, const dbg_buffer *b)
{
    enum { CHUNK = 1 << 16 };
    static const uint8_t zero[CHUNK];
    for (uint64_t off = 0; b->init && off < b->size; off += CHUNK) {
        size_t n = b->size - off < CHUNK ? (size_t)(b->size - off) : CHUNK;
        if (memcmp(b->init + off, zero, n) != 0 &&
            exec_mem_write(s->m, PTX_SPACE_GLOBAL, b->addr + off, b->init + off, n, 0, 0, 0))
            return -1;
    }
    if (b->init)   /* initcheck: a buffer with an initialiser is written, zeros included */
        chk_host_write(s->chk, b->addr, b->size);
    return 0;
}

/* Give every buffer an address on the (new) machine and its initial contents. */
static int realloc_buffers(dbg_session *s)
{
    for (int i = 0; i < s->nbufs; i++) {
        dbg_buffer *b = &s->bufs[i];
        if (exec_global_alloc(s->m, b->size ? b->size : 1, &b->addr) != 0)
            return dbg_err(s, "buffer %s: %s", b->name, exec_errmsg(s->m));
        exec_global_name(s->m, b->addr, b->name);
        if (write_init(s, b) != 0)
            return dbg_err(s, "buffer %s: %s", b->name, exec_errmsg(s->m));
    }
    return 0;
}

/* The machine's global memory starts at base (0: exec_new's, for a file the session loads; a
 * core's window for a reopened core) and stays below limit (0: unbounded). */
static int adopt(dbg_session *s, ptx_module *mod, const char *path, uint64_t base,
                 uint64_t limit)
{
    char err[1024] = "";
    exec_machine *m = base ? exec_new_at(mod, base, limit, err, sizeof err)
                           : exec_new(mod, err, sizeof err);
    if (!m) {
        ptx_module_free(mod);
        return dbg_err(s, "%s", err[0] ? err : "cannot load the module");
    }
    unload(s);
    s->mod = mod;
    s->m = m;
    dbg_output_apply(s, m);
    chk_attach(s->chk, m);
    free(s->dir);
    const char *slash = path ? strrchr(path, '/') : NULL;
    s->dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(path ? "." : "");
    s->dw = dw_load_dm(mod, s->demangle, s->dwarn, sizeof s->dwarn);
    if (realloc_buffers(s) != 0)
        return -1;
    dbg_bp_resolve_all(s);
    return 0;
}

/* After a module failed to load with none before it, the session has no program, exactly as when
 * started without a file: an empty module, so every command finds a machine (no NULL state). */
static int no_program(dbg_session *s, int rc)
{
    static const char empty[] = ".version 7.0\n.target sm_80\n.address_size 64\n";
    if (s->m)
        return rc;
    char msg[sizeof s->err];
    memcpy(msg, s->err, sizeof msg);
    ptx_error e;
    memset(&e, 0, sizeof e);
    ptx_module *mod = ptx_parse(empty, sizeof empty - 1, "<repl>", &e);
    if (mod)
        adopt(s, mod, NULL, 0, 0);
    memcpy(s->err, msg, sizeof msg);
    return rc;
}

int dbg_load_file(dbg_session *s, const char *path)
{
    ptx_error e;
    memset(&e, 0, sizeof e);
    ptx_module *mod = ptx_parse_file(path, &e);
    if (!mod)
        return no_program(s, dbg_err(s, "%s", e.msg[0] ? e.msg : "cannot read the file"));
    return no_program(s, adopt(s, mod, path, 0, 0));
}

int dbg_load_text(dbg_session *s, const char *text, size_t len, const char *name)
{
    return dbg_load_text_at(s, text, len, name, 0, 0);
}

int dbg_load_text_at(dbg_session *s, const char *text, size_t len, const char *name,
                     uint64_t base, uint64_t limit)
{
    ptx_error e;
    memset(&e, 0, sizeof e);
    ptx_module *mod = ptx_parse(text, len, name, &e);
    if (!mod)
        return no_program(s, dbg_err(s, "%s", e.msg[0] ? e.msg : "cannot parse the text"));
    return no_program(s, adopt(s, mod, NULL, base, limit));
}

static int begin(dbg_session *s);

/* A module and machine that belong to the caller. Watchpoints leave the machine shown before
 * (dbg_bp_resolve_all arms them on the new one); the DWARF of each module is read once. */
int dbg_use_module(dbg_session *s, ptx_module *mod, exec_machine *m, const char *dir)
{
    if (!mod || !m)
        return dbg_err(s, "No module.");
    s->multi = 1;
    if (s->borrowed && s->mod == mod && s->m == m)
        return 0;
    for (int i = 0; i < s->nbps && s->m; i++)
        if (s->bps[i]->type != DBG_BP_BREAK && s->bps[i]->exec_id >= 0)
            exec_watch_del(s->m, s->bps[i]->exec_id);
    dw_info *dw = NULL;
    int found = 0;
    for (int i = 0; i < s->ndwc && !found; i++)
        if (s->dwc[i].mod == mod) {
            dw = s->dwc[i].dw;
            found = 1;
        }
    char warn[sizeof s->dwarn] = "";
    if (!found) {
        struct dbg_dwcache *nc = realloc(s->dwc, (size_t)(s->ndwc + 1) * sizeof *nc);
        if (!nc)
            return dbg_err(s, "Out of memory.");
        s->dwc = nc;
        dw = dw_load_dm(mod, s->demangle, warn, sizeof warn);
        s->dwc[s->ndwc].mod = mod;
        s->dwc[s->ndwc++].dw = dw;
    }
    char *ndir = strdup(dir ? dir : "");
    if (!ndir)
        return dbg_err(s, "Out of memory.");
    unload(s);
    s->borrowed = 1;
    s->mod = mod;
    s->m = m;
    s->dw = dw;
    chk_attach(s->chk, m);
    memcpy(s->dwarn, warn, sizeof warn);
    free(s->dir);
    s->dir = ndir;
    dbg_bp_resolve_all(s);
    return 0;
}

int dbg_forget_module(dbg_session *s, const ptx_module *mod)
{
    chk_detach_module(s->chk, mod);
    for (int i = 0; i < s->ndwc; i++)
        if (s->dwc[i].mod == mod) {
            if (s->mod == mod)
                unload(s);
            dw_free(s->dwc[i].dw);
            s->dwc[i] = s->dwc[--s->ndwc];
            return 0;
        }
    if (s->mod == mod && s->borrowed)
        unload(s);
    return 0;
}

int dbg_adopt_launch(dbg_session *s, const ptx_func *kernel, uint32_t id)
{
    const exec_launch_info *li = s->m ? exec_current_launch(s->m) : NULL;
    if (!li)
        return dbg_err(s, "No launch to debug.");
    exec_set_launch_id(s->m, id);
    s->has_last = 0; /* the caller's launch: not one `run` can repeat */
    s->last_kernel = kernel;
    dbg_host_note_launch(s, kernel && kernel->sym ? kernel->sym->name : NULL);
    return begin(s);
}

const ptx_module *dbg_module(const dbg_session *s) { return s->mod; }
exec_machine *dbg_machine(const dbg_session *s) { return s->m; }
const char *dbg_module_dir(const dbg_session *s) { return s->dir; }
dbg_options *dbg_opts(dbg_session *s) { return &s->opts; }
void dbg_set_interrupt_flag(dbg_session *s, volatile int *flag) { s->interrupt = flag; }

void dbg_set_run_hook(dbg_session *s, dbg_run_hook fn, void *ctx)
{
    s->run_hook = fn;
    s->run_hook_ctx = ctx;
}
void dbg_set_demangler(dbg_session *s, dbg_demangle_fn fn) { s->demangle = fn; }

/* ---- buffers ---------------------------------------------------------------------------------- */
int dbg_interrupted(const dbg_session *s) { return s->interrupt && *s->interrupt; }

int dbg_buffer_check(dbg_session *s, const char *name)
{
    if (!name[0] || !(isalpha((unsigned char)name[0]) || name[0] == '_'))
        return dbg_err(s, "Invalid buffer name \"%s\".", name);
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return dbg_err(s, "Invalid buffer name \"%s\".", name);
    if (strlen(name) >= sizeof s->bufs[0].name)
        return dbg_err(s, "Buffer name \"%s\" is too long.", name);
    if (dbg_buffer_find(s, name))
        return dbg_err(s, "Buffer \"%s\" already exists.", name);
    if (!s->m)
        return dbg_err(s, "No PTX module loaded.");
    return 0;
}

int dbg_buffer_add(dbg_session *s, const char *name, ptx_type type, uint64_t count,
                   const void *init)
{
    uint8_t *copy = NULL;
    int esz = ptx_type_bits(type) / 8;
    if (init && esz > 0 && count && count <= (UINT64_C(1) << 34) / (uint64_t)esz) {
        copy = malloc((size_t)count * (size_t)esz);
        if (!copy)
            return dbg_err(s, "Out of memory.");
        memcpy(copy, init, (size_t)count * (size_t)esz);
    }
    return dbg_buffer_adopt(s, name, type, count, copy);
}

int dbg_buffer_adopt(dbg_session *s, const char *name, ptx_type type, uint64_t count,
                     uint8_t *init)
{
    if (dbg_buffer_check(s, name) != 0) {
        free(init);
        return -1;
    }
    int esz = ptx_type_bits(type) / 8;
    if (esz <= 0 || count == 0 || count > (UINT64_C(1) << 34) / (uint64_t)esz) {
        free(init);
        return dbg_err(s, esz <= 0 ? "Invalid buffer element type." : "Invalid buffer size %llu.",
                       (unsigned long long)count);
    }
    dbg_buffer *nb = realloc(s->bufs, (size_t)(s->nbufs + 1) * sizeof *nb);
    if (!nb) {
        free(init);
        return dbg_err(s, "Out of memory.");
    }
    s->bufs = nb;
    dbg_buffer *b = &s->bufs[s->nbufs];
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", name);
    b->type = type;
    b->count = count;
    b->size = count * (uint64_t)esz;
    b->init = init;
    if (exec_global_alloc(s->m, b->size, &b->addr) != 0) {
        free(b->init);
        return dbg_err(s, "%s", exec_errmsg(s->m));
    }
    exec_global_name(s->m, b->addr, b->name); /* one name in every message */
    if (write_init(s, b) != 0) {
        exec_global_free(s->m, b->addr);
        free(b->init);
        return dbg_err(s, "%s", exec_errmsg(s->m));
    }
    s->nbufs++;
    return 0;
}

const dbg_buffer *dbg_buffer_find(const dbg_session *s, const char *name)
{
    for (int i = 0; i < s->nbufs; i++)
        if (strcmp(s->bufs[i].name, name) == 0)
            return &s->bufs[i];
    return NULL;
}

int dbg_buffer_count(const dbg_session *s) { return s->nbufs; }
const dbg_buffer *dbg_buffer_at(const dbg_session *s, int i)
{
    return i >= 0 && i < s->nbufs ? &s->bufs[i] : NULL;
}

int dbg_buffer_read(dbg_session *s, const dbg_buffer *b, void *buf)
{
    if (!s->m)
        return dbg_err(s, "No PTX module loaded.");
    if (exec_mem_read(s->m, PTX_SPACE_GLOBAL, b->addr, buf, b->size, 0, 0, 0) != 0)
        return dbg_err(s, "%s", exec_errmsg(s->m));
    return 0;
}

/* ---- kernels ---------------------------------------------------------------------------------- */
void dbg_func_name(const dbg_session *s, const ptx_func *f, int full, char *out, size_t n)
{
    const char *name = f->sym->name;
    if (!s->demangle || s->demangle(name, out, n, !full) != 0)
        snprintf(out, n, "%s", name);
}

/* A signature as c++filt writes a template function's ("int scaled<3>(int)"), without its return
 * type: what follows the last space outside brackets before the parameter list. */
static const char *without_return_type(const char *name)
{
    const char *after = name;
    int depth = 0;
    for (const char *p = name; *p; p++) {
        if (*p == '(' && depth == 0)
            break;
        depth += (*p == '<' || *p == '(') - (*p == '>' || *p == ')');
        if (*p == ' ' && depth == 0)
            after = p + 1;
    }
    return after;
}

const ptx_func *dbg_find_func(dbg_session *s, const char *name)
{
    if (!s->mod) {
        dbg_err(s, "No symbol table is loaded.  Use the \"file\" command.");
        return NULL;
    }
    const ptx_func *found = NULL;
    int nfound = 0;
    for (int i = 0; i < s->mod->nfuncs; i++) {
        const ptx_func *f = s->mod->funcs[i];
        if (f->is_prototype)
            continue;
        if (strcmp(f->sym->name, name) == 0)
            return f;
        char base[512], full[1024];
        dbg_func_name(s, f, 0, base, sizeof base);
        dbg_func_name(s, f, 1, full, sizeof full);
        if (strcmp(base, name) == 0 || strcmp(full, name) == 0 ||
            (without_return_type(name) != name && strchr(full, '<') &&
             strcmp(full, without_return_type(name)) == 0)) {
            if (!found || (found->has_body ? 0 : f->has_body))
                found = f;
            nfound++;
        }
    }
    if (nfound > 1 && found) {
        /* overloads: several definitions with the same base name */
        int bodies = 0;
        for (int i = 0; i < s->mod->nfuncs; i++) {
            char base[512];
            dbg_func_name(s, s->mod->funcs[i], 0, base, sizeof base);
            if (strcmp(base, name) == 0 && s->mod->funcs[i]->has_body)
                bodies++;
        }
        if (bodies > 1) {
            dbg_err(s, "Function \"%s\" is ambiguous; use its mangled name.", name);
            return NULL;
        }
    }
    if (!found)
        dbg_err(s, "Function \"%s\" not defined.", name);
    return found;
}

/* ---- launches --------------------------------------------------------------------------------- */
/* A launch that should stop at its kernel's entry: breakpoints (of the core only) where
 * `break KERNEL` would put them, i.e. the first line after the prologue. */
static void arm_entry(dbg_session *s)
{
    int want = s->entry_once || dbg_stop_at_entry(s, 0);
    s->entry_once = 0;
    s->entry_armed = 0;
    s->nentry = 0;
    if (want) {
        char err[sizeof s->err];
        memcpy(err, s->err, sizeof err); /* resolving must not change the last message */
        int n = dbg_resolve_location(s, s->last_kernel->sym->name, s->entry_pcs, DBG_MAX_LOCS);
        memcpy(s->err, err, sizeof err);
        int64_t pc0 = exec_func_pc(s->m, s->last_kernel);
        if (n <= 0 && pc0 >= 0 && s->last_kernel->ninsns > 0) {
            s->entry_pcs[0] = (uint32_t)pc0;
            n = 1;
        }
        s->nentry = n > 0 ? n : 0;
        s->entry_armed = s->nentry > 0;
    }
    dbg_bp_sync(s);
}

/* The machine's current launch becomes the session's. */
static int begin(dbg_session *s)
{
    s->alive = 1;
    s->nlaunches++;
    s->stopped_at_bp = 0;
    memset(&s->focus, 0, sizeof s->focus);
    const exec_launch_info *li = exec_current_launch(s->m);
    s->focus.valid = 1;
    s->focus.kernel = li ? li->launch_id : s->nlaunches - 1;
    arm_entry(s);
    return 0;
}

static int start(dbg_session *s)
{
    if (exec_launch(s->m, s->last_kernel, s->last_grid, s->last_block, s->last_shmem,
                    s->last_params, s->last_nparams) != 0)
        return dbg_err(s, "%s", exec_errmsg(s->m));
    return begin(s);
}

int dbg_stop_at_entry(const dbg_session *s, int system)
{
    return s->opts.break_on_launch == DBG_BOL_ALL ||
           (s->opts.break_on_launch == DBG_BOL_APPLICATION && !system);
}

void dbg_request_entry_stop(dbg_session *s, int on) { s->entry_once = on; }

int dbg_entry_at(const dbg_session *s, uint32_t pc)
{
    if (!s->entry_armed)
        return 0;
    for (int i = 0; i < s->nentry; i++)
        if (s->entry_pcs[i] == pc)
            return 1;
    return 0;
}

/* ---- shared memory limits ----------------------------------------------------------------------
 * A kernel's static .shared may not exceed 48 KB (ptxas: "uses too much shared data"); static +
 * dynamic may reach the target's opt-in maximum, which ptxdbg grants as if
 * cudaFuncSetAttribute(MaxDynamicSharedMemorySize) had been called: 227 KB (232448 bytes) for
 * sm_90..sm_10x, 163 KB (166912 bytes, the sm_80 figure) for every other target. */
#define STATIC_SHARED_MAX 49152u

static uint64_t shared_optin_max(const ptx_module *mod)
{
    const char *t = mod->target ? mod->target : "";
    const char *d = !strncmp(t, "sm_", 3) ? t + 3 : !strncmp(t, "compute_", 8) ? t + 8 : "";
    int n = atoi(d);
    return n >= 90 && n < 110 ? 232448 : 166912;
}

static uint64_t shared_add(uint64_t off, const ptx_sym *v)
{
    if ((v->space != PTX_SPACE_SHARED && v->space != PTX_SPACE_SHARED_CLUSTER) || !v->size)
        return off; /* not shared, or dynamic (extern .shared x[]) */
    uint64_t a = v->align > 0 ? (uint64_t)v->align : 1;
    return (off + a - 1) / a * a + v->size;
}

/* Static shared bytes of a kernel as ptxas counts them: the .shared variables declared in it and
 * in the functions it calls, and the module-scope ones these name. -1 when out of memory. */
static int64_t kernel_static_shared(const ptx_module *mod, const ptx_func *k)
{
    uint8_t *fseen = calloc((size_t)mod->nfuncs + 1, 1), *vseen = calloc((size_t)mod->nvars + 1, 1);
    int64_t total = -1;
    if (fseen && vseen && exec_kernel_reach(mod, k, fseen, vseen) == 0) {
        uint64_t off = 0;
        for (int f = 0; f < mod->nfuncs; f++)
            for (int i = 0; fseen[f] && i < mod->funcs[f]->nvars; i++)
                off = shared_add(off, mod->funcs[f]->vars[i]);
        for (int i = 0; i < mod->nvars; i++)
            if (vseen[i])
                off = shared_add(off, mod->vars[i]);
        total = (int64_t)off;
    }
    free(fseen);
    free(vseen);
    return total;
}

static int check_shared(dbg_session *s, const ptx_func *kernel, uint32_t dyn)
{
    int64_t st = kernel_static_shared(s->mod, kernel);
    if (st < 0)
        return dbg_err(s, "Out of memory.");
    const char *name = kernel->sym->name;
    if ((uint64_t)st > STATIC_SHARED_MAX)
        return dbg_err(s, "Kernel \"%s\" uses %lld bytes of static shared memory; the limit is "
                       "%u (48 KB).", name, (long long)st, STATIC_SHARED_MAX);
    uint64_t max = shared_optin_max(s->mod);
    if ((uint64_t)st + dyn > max)
        return dbg_err(s, "Kernel \"%s\" needs %lld bytes of static + %u bytes of dynamic shared "
                       "memory = %llu bytes; the limit for %s is %llu bytes.", name,
                       (long long)st, dyn, (unsigned long long)st + dyn,
                       s->mod->target ? s->mod->target : "this target",
                       (unsigned long long)max);
    return 0;
}

/* What `run` restores: every buffer's contents at the moment of the launch. A buffer that is all
 * zero keeps no copy (init NULL), so a large never-written buffer costs no memory; the scan and
 * the copy go in 1 MB chunks. */
static int snapshot_buffers(dbg_session *s)
{
    enum { CHUNK = 1 << 20 };
    uint8_t *tmp = malloc(CHUNK);
    if (!tmp)
        return dbg_err(s, "Out of memory.");
    for (int i = 0; i < s->nbufs; i++) {
        dbg_buffer *b = &s->bufs[i];
        uint8_t *copy = NULL;
        for (uint64_t off = 0; off < b->size; off += CHUNK) {
            size_t n = b->size - off < CHUNK ? (size_t)(b->size - off) : CHUNK;
            int intr = dbg_interrupted(s);
            if (intr || exec_mem_read(s->m, PTX_SPACE_GLOBAL, b->addr + off, tmp, n, 0, 0, 0)) {
                free(copy);
                free(tmp);
                return intr ? dbg_err(s, "Interrupted; the kernel was not launched.")
                            : dbg_err(s, "buffer %s: %s", b->name, exec_errmsg(s->m));
            }
            if (!copy) {
                size_t z = 0;
                while (z < n && !tmp[z])
                    z++;
                if (z == n)
                    continue;
                copy = calloc(1, b->size);
                if (!copy) {
                    free(tmp);
                    return dbg_err(s, "Out of memory.");
                }
            }
            memcpy(copy + off, tmp, n);
        }
        free(b->init);
        b->init = copy;
    }
    free(tmp);
    return 0;
}

int dbg_launch(dbg_session *s, const ptx_func *kernel, exec_dim3 grid, exec_dim3 block,
               uint32_t shmem, const void *params, size_t nbytes)
{
    if (!s->m)
        return dbg_err(s, "No PTX module loaded.");
    if (!kernel->is_entry)
        return dbg_err(s, "\"%s\" is not a kernel (.entry).", kernel->sym->name);
    if (check_shared(s, kernel, shmem) != 0 || snapshot_buffers(s) != 0)
        return -1;
    uint8_t *copy = malloc(nbytes ? nbytes : 1);
    if (!copy)
        return dbg_err(s, "Out of memory.");
    if (nbytes)
        memcpy(copy, params, nbytes);
    free(s->last_params);
    s->last_params = copy;
    s->last_nparams = nbytes;
    s->last_kernel = kernel;
    s->last_grid = grid;
    s->last_block = block;
    s->last_shmem = shmem;
    s->has_last = 1;
    return start(s);
}

int dbg_relaunch(dbg_session *s)
{
    if (!s->has_last)
        return dbg_err(s, "No kernel launched yet; use \"launch\" first.");
    exec_kill(s->m);
    s->alive = 0;
    static const uint8_t zero[1 << 16];
    uint8_t cur[1 << 16];
    for (int i = 0; i < s->nbufs; i++) {
        dbg_buffer *b = &s->bufs[i];
        int rc = 0;
        if (b->init)
            rc = exec_mem_write(s->m, PTX_SPACE_GLOBAL, b->addr, b->init, b->size, 0, 0, 0);
        /* zero only the chunks that were written, so untouched memory stays unmapped */
        for (uint64_t off = 0; !b->init && !rc && off < b->size; off += sizeof zero) {
            size_t n = b->size - off < sizeof zero ? (size_t)(b->size - off) : sizeof zero;
            rc = exec_mem_read(s->m, PTX_SPACE_GLOBAL, b->addr + off, cur, n, 0, 0, 0);
            if (!rc && memcmp(cur, zero, n) != 0)
                rc = exec_mem_write(s->m, PTX_SPACE_GLOBAL, b->addr + off, zero, n, 0, 0, 0);
        }
        if (rc != 0)
            return dbg_err(s, "buffer %s: %s", b->name, exec_errmsg(s->m));
    }
    return start(s);
}

int dbg_has_last_launch(const dbg_session *s) { return s->has_last; }

void dbg_kill(dbg_session *s)
{
    if (s->m)
        exec_kill(s->m);
    s->alive = 0;
    s->focus.valid = 0;
    s->stopped_at_bp = 0;
}

const exec_launch_info *dbg_launch_info(const dbg_session *s)
{
    return s->m ? exec_current_launch(s->m) : NULL;
}

int dbg_launch_alive(const dbg_session *s) { return s->alive && dbg_launch_info(s) != NULL; }
uint32_t dbg_nlaunches(const dbg_session *s) { return s->nlaunches; }

/* ---- focus ------------------------------------------------------------------------------------ */
const dbg_focus *dbg_get_focus(const dbg_session *s) { return &s->focus; }

int dbg_set_focus(dbg_session *s, uint32_t cta, uint32_t warp, uint32_t lane)
{
    if (!dbg_launch_info(s))
        return dbg_err(s, "Focus not set on any active CUDA kernel.");
    if (cta >= exec_ncta(s->m))
        return dbg_err(s, "Invalid coordinates requested. CUDA focus unchanged.");
    if (warp >= exec_nwarps(s->m) || lane >= 32)
        return dbg_err(s, "Invalid coordinates requested. CUDA focus unchanged.");
    s->focus.valid = 1;
    s->focus.cta = cta;
    s->focus.warp = warp;
    s->focus.lane = lane;
    s->focus.frame = 0;
    return 0;
}

int dbg_set_frame(dbg_session *s, int frame)
{
    dbg_frame fr[DBG_MAX_FRAMES];
    int n = dbg_frames(s, fr, DBG_MAX_FRAMES);
    if (n <= 0)
        return dbg_err(s, "No stack.");
    if (frame < 0 || frame >= n)
        return dbg_err(s, frame < 0 ? "Bottom (innermost) frame selected; you cannot go down."
                                    : "Initial frame selected; you cannot go up.");
    s->focus.frame = frame;
    return 0;
}

exec_dim3 dbg_focus_block(const dbg_session *s)
{
    exec_dim3 z = {0, 0, 0};
    return s->m && dbg_launch_info(s) ? exec_cta_coord(s->m, s->focus.cta) : z;
}

exec_dim3 dbg_focus_thread(const dbg_session *s)
{
    exec_dim3 t = {0, 0, 0};
    const exec_launch_info *li = dbg_launch_info(s);
    if (!li)
        return t;
    uint32_t lin = s->focus.warp * 32 + s->focus.lane;
    t.x = lin % li->block.x;
    t.y = (lin / li->block.x) % li->block.y;
    t.z = lin / (li->block.x * li->block.y);
    return t;
}

int dbg_thread_to_lane(const dbg_session *s, exec_dim3 tid, uint32_t *warp, uint32_t *lane)
{
    const exec_launch_info *li = dbg_launch_info(s);
    if (!li)
        return -1;
    if (tid.x >= li->block.x || tid.y >= li->block.y || tid.z >= li->block.z)
        return -1;
    uint32_t lin = tid.x + tid.y * li->block.x + tid.z * li->block.x * li->block.y;
    *warp = lin / 32;
    *lane = lin % 32;
    return 0;
}

int dbg_focus_lane(const dbg_session *s, exec_lane_info *li)
{
    if (!s->focus.valid || !dbg_launch_info(s))
        return -1;
    return exec_lane_get(s->m, s->focus.cta, s->focus.warp, s->focus.lane, li);
}

int dbg_backtrace(const dbg_session *s, exec_frame *frames, int max)
{
    if (!s->focus.valid || !dbg_launch_info(s))
        return 0;
    int n = exec_backtrace(s->m, s->focus.cta, s->focus.warp, s->focus.lane, frames, max);
    return n < 0 ? 0 : n;
}

int dbg_focus_pc(const dbg_session *s, uint32_t *pc)
{
    dbg_frame fr;
    if (dbg_focus_frame(s, &fr) != 0)
        return -1;
    *pc = fr.pc;
    return 0;
}

/* ---- source-level frames ---------------------------------------------------------------------- */
int dbg_lane_frames(const dbg_session *s, uint32_t cta, uint32_t warp, uint32_t lane,
                    dbg_frame *out, int max)
{
    if (!s->m || !dbg_launch_info(s))
        return 0;
    return dbg_machine_frames(s->m, s->dw, cta, warp, lane, out, max);
}

int dbg_frames(const dbg_session *s, dbg_frame *out, int max)
{
    if (!s->focus.valid)
        return 0;
    return dbg_lane_frames(s, s->focus.cta, s->focus.warp, s->focus.lane, out, max);
}

int dbg_focus_frame(const dbg_session *s, dbg_frame *out)
{
    dbg_frame fr[DBG_MAX_FRAMES];
    int n = dbg_frames(s, fr, DBG_MAX_FRAMES);
    if (n <= 0)
        return -1;
    *out = fr[s->focus.frame < n ? s->focus.frame : n - 1];
    return 0;
}

int dbg_focus_phys(const dbg_session *s)
{
    dbg_frame f;
    return s->focus.frame == 0 || dbg_focus_frame(s, &f) != 0 ? 0 : f.phys;
}
