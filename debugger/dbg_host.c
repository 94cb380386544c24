/* dbg_host.c - the host side of a CUDA program: its call stack (where a kernel was launched,
 * where memory was freed) named from its own DWARF, and which names and lines are host code. */
#include <dlfcn.h>
#include <unwind.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dbg_int.h"

/* ---- this process: the program ptxdbg's runtime library runs in ------------------------------ */
typedef struct { uint64_t lo, hi; } seg;
static pthread_once_t self_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t self_lock = PTHREAD_MUTEX_INITIALIZER;  /* dw_host loads lazily */
static dw_host *self_host;
static uint64_t self_bias;               /* run-time minus link-time addresses */
static seg self_segs[16];
static int self_nsegs;
static seg own_segs[16];                 /* the object holding this code (libcudart.so.13) */
static int own_nsegs;
static char self_name[256];

static int first_object(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size;
    (void)ctx;
    self_bias = info->dlpi_addr;
    for (int i = 0; i < info->dlpi_phnum && self_nsegs < 16; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD)
            self_segs[self_nsegs++] = (seg){info->dlpi_addr + info->dlpi_phdr[i].p_vaddr,
                                            info->dlpi_addr + info->dlpi_phdr[i].p_vaddr +
                                                info->dlpi_phdr[i].p_memsz};
    return 1;   /* the first object is the program */
}

/* The segments of the object that holds this code. */
static int own_object(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size;
    uint64_t me = (uint64_t)(uintptr_t)ctx;
    seg sg[16];
    int n = 0, mine = 0;
    for (int i = 0; i < info->dlpi_phnum && n < 16; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD) {
            sg[n] = (seg){info->dlpi_addr + info->dlpi_phdr[i].p_vaddr,
                          info->dlpi_addr + info->dlpi_phdr[i].p_vaddr +
                              info->dlpi_phdr[i].p_memsz};
            mine |= me >= sg[n].lo && me < sg[n].hi;
            n++;
        }
    if (!mine)
        return 0;
    memcpy(own_segs, sg, sizeof sg);
    own_nsegs = n;
    return 1;
}

static int in_segs(const seg *sg, int n, uint64_t pc)
{
    for (int i = 0; i < n; i++)
        if (pc >= sg[i].lo && pc < sg[i].hi)
            return 1;
    return 0;
}

/* The address ranges and the program's name: what every stack capture needs (cheap). */
static void self_init(void)
{
    dl_iterate_phdr(own_object, (void *)(uintptr_t)&dbg_host_stack);
    dl_iterate_phdr(first_object, NULL);
    char path[4096];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n > 0) {
        path[n] = 0;
        const char *b = strrchr(path, '/');
        b = b ? b + 1 : path;
        size_t l = strlen(b) < sizeof self_name ? strlen(b) : sizeof self_name - 1;
        memcpy(self_name, b, l);
        self_name[l] = 0;
    }
}

/* The program's ELF and DWARF: read once, at the first time a host address is named. */
static pthread_once_t host_once = PTHREAD_ONCE_INIT;
static void host_init(void)
{
    self_host = dw_host_open("/proc/self/exe");
}

static void names_init(void)
{
    pthread_once(&self_once, self_init);
    pthread_once(&host_once, host_init);
}

static int in_program(uint64_t pc)
{
    return in_segs(self_segs, self_nsegs, pc);
}

typedef struct {
    uint64_t *pcs;
    int max, n, own, frames;
    uint64_t api_pc;
} unwind_walk;

/* One frame of a walk: 0 when the walk ends. */
static int walk_one(uint64_t pc, void *arg)
{
    unwind_walk *w = arg;
    if (!pc || ++w->frames > 64)
        return 0;
    if (!w->n && in_segs(own_segs, own_nsegs, pc)) {
        w->api_pc = pc;   /* the last of our frames is the API function the program called */
        return 1;
    }
    w->pcs[w->n++] = pc;
    return w->n < w->max;
}

static _Unwind_Reason_Code unwind_one(struct _Unwind_Context *ctx, void *arg)
{
    return walk_one((uint64_t)_Unwind_GetIP(ctx), arg) ? _URC_NO_REASON : _URC_END_OF_STACK;
}

int dbg_host_stack(uint64_t *pcs, int max, uint64_t *api_pc)
{
    pthread_once(&self_once, self_init);
    /* our own frames first (the runtime and the debugger: a handful), then the program's;
       the unwinder's cost is per frame, so the walk stops at the last frame kept (a free
       must stay cheap: a program may call cudaFree in a loop) */
    unwind_walk w = {pcs, max, 0, 0, 0, 0};
    if (max > 0 && dbg_unwind_fast(walk_one, &w) != 0) {
        w = (unwind_walk){pcs, max, 0, 0, 0, 0};   /* a frame it cannot walk: libgcc's */
        _Unwind_Backtrace(unwind_one, &w);
    }
    if (api_pc)
        *api_pc = w.api_pc;
    return w.n;
}

static int program_api_frame(uint64_t ret, char *name, size_t n);

void dbg_host_api_name(uint64_t api_pc, const uint64_t *pcs, int npcs, char *out, size_t n)
{
    Dl_info di;
    out[0] = 0;
    /* a program linked with the static CUDA runtime called its own copy of the API (which
       called ours): the outermost such frame before the program's own code names it */
    for (int i = 0; i < npcs; i++) {
        char nm[256];
        int k = program_api_frame(pcs[i], nm, sizeof nm);
        if (k < 0)
            break;
        if (k > 0)
            snprintf(out, n, "%s", nm);
    }
    if (out[0])
        return;
    if (api_pc && dladdr((void *)(uintptr_t)api_pc, &di) && di.dli_sname)
        snprintf(out, n, "%s", di.dli_sname);
}

/* ---- naming host frames ---------------------------------------------------------------------- */
static const char *base_of(const char *p)
{
    const char *b = p ? strrchr(p, '/') : NULL;
    return b ? b + 1 : p ? p : "";
}

/* A template function's name without its template arguments ("apply" of apply<...>, or of
 * _Z5applyI...: the mangled name's leading source names when it does not demangle); 0 when
 * the name is no template's. */
static int plain_name(const char *name, dbg_demangle_fn dm, char *out, size_t n)
{
    char d[1024];
    const char *s = name;
    if (dm && dm(name, d, sizeof d, 1) == 0)
        s = d;
    else if (!strncmp(name, "_Z", 2)) {   /* _Z5applyI... or _ZN2ns5applyI... */
        const char *p = name + 2;
        size_t k = 0;
        if (*p == 'N')
            p++;
        while (*p >= '0' && *p <= '9') {
            long l = strtol(p, (char **)&p, 10);
            if (l <= 0 || (long)strnlen(p, (size_t)l) < l || k + (size_t)l + 3 >= n)
                return 0;
            k += (size_t)snprintf(out + k, n - k, "%s%.*s", k ? "::" : "", (int)l, p);
            p += l;
        }
        return k && *p == 'I';
    }
    const char *lt = strchr(s, '<');
    if (!lt || lt == s || (size_t)(lt - s) >= n)
        return 0;
    snprintf(out, n, "%.*s", (int)(lt - s), s);
    return 1;
}

/* nvcc's glue between a launch and the program's code: stubs, wrappers, the launch helpers
 * of the toolkit headers, generated files; kernel: the launched kernel's mangled name (its
 * host-side wrapper carries it). */
static int host_glue(const char *name, const char *file, const char *kernel, dbg_demangle_fn dm)
{
    if (file && (dbg_toolkit_file(file) || strstr(file, ".stub.c") || strstr(file, ".fatbin.c")))
        return 1;
    if (!name)
        return 0;
    if (strstr(name, "__device_stub_") || strstr(name, "__cudaLaunch") ||
        !strncmp(name, "cudaLaunch", 10))
        return 1;
    /* cuda_runtime.h's C++ templates, instantiated in the program (a stripped one names the
       cooperative launch's frame _Z27cudaLaunchCooperativeKernelIvE...) */
    char dn[512];
    if (dm && dm(name, dn, sizeof dn, 1) == 0 &&
        (!strncmp(dn, "cudaLaunch", 10) ||
         (!strncmp(dn, "cuda", 4) && dn[4] >= 'A' && dn[4] <= 'Z' && strchr(dn, '<'))))
        return 1;
    if (kernel && kernel[0]) {
        char a[512], b[512];
        if (!strcmp(name, kernel))
            return 1;
        if (dm && dm(kernel, a, sizeof a, 1) == 0 &&
            (!strcmp(name, a) || (dm(name, b, sizeof b, 1) == 0 && !strcmp(a, b))))
            return 1;
        /* a template kernel's host wrapper may have other template arguments than the kernel
           (an extended __device__ lambda is __nv_dl_wrapper_t<...> on the host): the same
           function name, without its arguments, is the wrapper */
        char ka[512], na[512];
        if (plain_name(kernel, dm, ka, sizeof ka) && plain_name(name, dm, na, sizeof na) &&
            !strcmp(ka, na))
            return 1;
    }
    return 0;
}

/* The CUDA runtime linked statically into the program (nvcc's default): its internal functions
 * (libcudart_static_<hash>) and API entries (cudaMalloc, cuLaunchKernel, __cudaPushCall...),
 * which have no line information even in a -g program. */
static int static_runtime_name(const char *nm)
{
    if (!nm)
        return 0;
    return !strncmp(nm, "libcudart_static_", 17) || !strncmp(nm, "__cuda", 6) ||
           (!strncmp(nm, "cuda", 4) && nm[4] >= 'A' && nm[4] <= 'Z') ||
           (!strncmp(nm, "cu", 2) && nm[2] >= 'A' && nm[2] <= 'Z');
}

typedef struct { char name[256]; char file[256]; int line; int glue; int outside; } host_loc;

/* The source frames of one return address (innermost first), or its object and symbol. */
static int host_locs(uint64_t ret, const char *kernel, dbg_demangle_fn dm, host_loc *out, int max)
{
    uint64_t pc = ret - 1;   /* the call instruction, not the one after it */
    if (in_program(pc) && self_host) {
        dw_host_frame fr[16];
        pthread_mutex_lock(&self_lock);
        int n = dw_host_frames(self_host, pc - self_bias, fr, max < 16 ? max : 16);
        for (int i = 0; i < n; i++) {
            host_loc *l = &out[i];
            memset(l, 0, sizeof *l);
            const char *nm = fr[i].name;
            if (!nm || !dm || dm(nm, l->name, sizeof l->name, 1) != 0)
                snprintf(l->name, sizeof l->name, "%s", nm ? nm : "??");
            int lined = fr[i].file && fr[i].line > 0;
            if (lined) {
                snprintf(l->file, sizeof l->file, "%s", fr[i].file);
                l->line = fr[i].line;
            } else {
                snprintf(l->file, sizeof l->file, "%s", self_name);   /* "main+0x2b1 in app" */
                uint64_t off = 0;
                if (!dw_host_has_lines(self_host) &&
                    dw_host_symbol(self_host, pc - self_bias, &off))
                    snprintf(l->name + strlen(l->name), sizeof l->name - strlen(l->name),
                             "+0x%llx", (unsigned long long)off + 1);
            }
            l->glue = host_glue(nm, fr[i].file, kernel, dm) || (!lined && static_runtime_name(nm));
        }
        pthread_mutex_unlock(&self_lock);
        if (n > 0)
            return n;
    }
    Dl_info di;
    memset(out, 0, sizeof *out);
    memset(&di, 0, sizeof di);
    int prog = in_program(pc);
    if (dladdr((void *)(uintptr_t)pc, &di) && di.dli_sname) {
        if (!dm || dm(di.dli_sname, out->name, sizeof out->name, 1) != 0)
            snprintf(out->name, sizeof out->name, "%s", di.dli_sname);
    } else {   /* the program's file address (the same in every run), else the run's */
        snprintf(out->name, sizeof out->name, "0x%llx",
                 (unsigned long long)(prog ? pc - self_bias : pc));
    }
    snprintf(out->file, sizeof out->file, "%s",
             prog ? self_name : base_of(di.dli_fname ? di.dli_fname : "?"));
    out->glue = host_glue(di.dli_sname, NULL, kernel, dm);
    out->outside = !prog;
    return 1;
}

/* A return address in the program: 1 with the API name when it is in a statically linked CUDA
 * runtime's API entry (cudaFreeAsync), 0 in its internals, -1 in the program's own code (or
 * not in the program, or nothing known). */
static int program_api_frame(uint64_t ret, char *name, size_t n)
{
    names_init();
    uint64_t pc = ret - 1;
    if (!in_program(pc) || !self_host)
        return -1;
    dw_host_frame fr[16];
    pthread_mutex_lock(&self_lock);
    int k = dw_host_frames(self_host, pc - self_bias, fr, 16), r = -1;
    if (k > 0 && !(fr[0].file && fr[0].line > 0) && static_runtime_name(fr[0].name)) {
        r = strncmp(fr[0].name, "cuda", 4) == 0;
        snprintf(name, n, "%s", fr[0].name);
    }
    pthread_mutex_unlock(&self_lock);
    return r;
}

int dbg_host_where(const uint64_t *pcs, int n, const char *kernel, dbg_demangle_fn dm,
                   int nframes, char *out, size_t len)
{
    names_init();
    out[0] = 0;
    if (n <= 0)
        return -1;
    size_t k = 0;
    int shown = 0, lines = 0;
    int past_main = 0;
    for (int i = 0; i < n && shown < nframes && !past_main; i++) {
        host_loc l[16];
        int m = host_locs(pcs[i], kernel, dm, l, 16);
        for (int j = 0; j < m && shown < nframes && !past_main; j++) {
            if (l[j].glue && !(i == n - 1 && j == m - 1 && !shown))
                continue;
            if (l[j].outside && shown)
                past_main = 1;   /* the C library that called main, or a library the program
                                    calls through: the program's frames are the story */
            if (past_main)
                break;
            past_main = !strcmp(l[j].name, "main");   /* gdb's backtrace stops there too */
            if (l[j].line > 0) {
                k += (size_t)snprintf(out + k, k < len ? len - k : 0, "%s%s at %s:%d",
                                      shown ? ", called from " : "", l[j].name,
                                      base_of(l[j].file), l[j].line);
                lines++;
            } else {
                k += (size_t)snprintf(out + k, k < len ? len - k : 0, "%s%s in %s",
                                      shown ? ", called from " : "", l[j].name,
                                      l[j].file[0] ? l[j].file : "??");
            }
            shown++;
        }
    }
    if (shown && !lines && k < len && !dbg_host_has_debug_info())
        snprintf(out + k, len - k, " (no host debug info)");
    return shown ? 0 : -1;
}

int dbg_host_has_debug_info(void)
{
    names_init();
    return dw_host_has_lines(self_host);
}

/* ---- host code or device code ---------------------------------------------------------------- */
struct dbg_hostprog {
    char *path;
    dw_host *h;
    ptx_module **mods;
    dw_info **dws;
    int nmods;
    int loaded;              /* the device modules were looked for */
    int device_known;        /* every container's PTX was read */
};

void dbg_hostprog_free(struct dbg_hostprog *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nmods; i++) {
        dw_free(p->dws[i]);
        ptx_module_free(p->mods[i]);
    }
    free(p->mods);
    free(p->dws);
    dw_host_close(p->h);
    free(p->path);
    free(p);
}

/* The program's device modules: the PTX of every .nv_fatbin container. */
static void load_device(struct dbg_hostprog *p, dbg_demangle_fn dm)
{
    const uint8_t *fb;
    size_t len;
    p->loaded = 1;
    p->device_known = 1;
    if (dw_host_section(p->h, ".nv_fatbin", &fb, &len) != 0) {
        p->device_known = 0;   /* no fat binary: not a CUDA program ptxdbg can judge */
        return;
    }
    size_t off = 0;
    while (off + 16 <= len) {
        size_t cs = ptx_fatbin_size(fb + off, len - off);
        if (!cs) {
            off += 8;   /* containers are 8-aligned; padding between them */
            continue;
        }
        char *text = NULL, err[512];
        size_t tl = 0;
        int r = ptx_fatbin_ptx(fb + off, cs, 1000, &text, &tl, err, sizeof err);
        if (r == 0) {
            ptx_error pe;
            memset(&pe, 0, sizeof pe);
            ptx_module *m = ptx_parse(text, tl, "<device>", &pe);
            ptx_module **nm = m ? realloc(p->mods, (size_t)(p->nmods + 1) * sizeof *nm) : NULL;
            dw_info **nd = nm ? realloc(p->dws, (size_t)(p->nmods + 1) * sizeof *nd) : NULL;
            if (nm)
                p->mods = nm;
            if (nd)
                p->dws = nd;
            if (m && nm && nd) {
                p->mods[p->nmods] = m;
                p->dws[p->nmods++] = dw_load_dm(m, dm, NULL, 0);
            } else {
                ptx_module_free(m);
                p->device_known = 0;
            }
        } else if (r != -2) {
            p->device_known = 0;   /* unreadable: cannot tell (SASS alone, such as the device
                                      link's container, is no code ptxdbg runs) */
        }
        free(text);
        off += (cs + 7) & ~(size_t)7;
    }
}

static int debug_str_has(const dw_info *d, const char *name)
{
    const uint8_t *s;
    size_t len, nl = strlen(name);
    if (dw_section_bytes(d, ".debug_str", &s, &len) != 0)
        return 0;
    for (size_t i = 0; i + nl < len;) {
        if (!memcmp(s + i, name, nl) && s[i + nl] == 0 && (i == 0 || s[i - 1] == 0))
            return 1;
        const uint8_t *z = memchr(s + i, 0, len - i);
        if (!z)
            break;
        i = (size_t)(z - s) + 1;
    }
    return 0;
}

/* Whether a device module defines or inlines the function spec (mangled as host symbol mg). */
static int device_has_func(const struct dbg_hostprog *p, const char *spec, const char *mg,
                           dbg_demangle_fn dm)
{
    for (int i = 0; i < p->nmods; i++) {
        const ptx_module *m = p->mods[i];
        for (int k = 0; k < m->nfuncs; k++) {
            const char *fn = m->funcs[k]->sym->name;
            char b[512];
            size_t sl = strlen(spec);
            if (!strcmp(fn, mg) || !strcmp(fn, spec) ||
                (dm && dm(fn, b, sizeof b, 1) == 0 &&
                 (!strcmp(b, spec) || (!strchr(spec, '<') && !strncmp(b, spec, sl) &&
                                       b[sl] == '<'))))
                return 1;
        }
        if (p->dws[i] && (dw_func_by_name(p->dws[i], spec) || debug_str_has(p->dws[i], mg) ||
                          debug_str_has(p->dws[i], spec)))
            return 1;
    }
    return 0;
}

/* The device modules' first line >= line of file with code (a .loc), 0 when none. */
static int device_next_line(const struct dbg_hostprog *p, const char *file, int line)
{
    int best = 0;
    for (int i = 0; i < p->nmods; i++) {
        const ptx_module *m = p->mods[i];
        for (int k = 0; k < m->nlocs; k++) {
            const ptx_loc *l = &m->locs[k];
            if (l->line < line || (best && l->line >= best))
                continue;
            for (int f = 0; f < m->nfiles; f++)
                if (m->files[f].num == l->file && dw_path_matches(m->files[f].path, file))
                    best = l->line;
        }
    }
    return best;
}

/* Whether line lies in a kernel's own lines of file: from the .loc of its first instruction
 * (its declaration) to its last line. The host side has a wrapper function there with rows
 * of its own, which are no host code of the user's. */
static int in_kernel(const struct dbg_hostprog *p, const char *file, int line)
{
    for (int i = 0; i < p->nmods; i++) {
        const ptx_module *m = p->mods[i];
        for (int k = 0; k < m->nfuncs; k++) {
            const ptx_func *f = m->funcs[k];
            int lo = 0, hi = 0, fnum = -1;
            for (int j = 0; f->is_entry && j < f->ninsns; j++) {
                int li = f->insns[j].loc;
                if (li < 0 || li >= m->nlocs)
                    continue;
                const ptx_loc *l = &m->locs[li];
                if (fnum < 0) {
                    for (int q = 0; q < m->nfiles && fnum < 0; q++)
                        if (m->files[q].num == l->file &&
                            dw_path_matches(m->files[q].path, file))
                            fnum = l->file;
                    if (fnum < 0)
                        break;   /* a kernel of another file */
                    lo = hi = l->line;
                } else if (l->file == fnum && l->line > hi) {
                    hi = l->line;
                }
            }
            if (fnum >= 0 && line >= lo && line <= hi)
                return 1;
        }
    }
    return 0;
}

int dbg_host_code(dbg_session *s, const char *program, const char *spec, char *why, size_t n)
{
    if (!program || !program[0]) {
        if (!s->multi)
            return 0;   /* not a CUDA program's session */
        program = "/proc/self/exe";
    }
    if (!spec[0] || spec[0] == '*' || !strncmp(spec, "ptx:", 4) || spec[0] == '+' ||
        spec[0] == '-')
        return 0;
    struct dbg_hostprog *p = s->hostprog;
    if (!p || strcmp(p->path, program)) {
        dbg_hostprog_free(p);
        s->hostprog = p = calloc(1, sizeof *p);
        if (!p)
            return 0;
        p->path = strdup(program);
        p->h = dw_host_open(program);
        if (!p->path || !p->h) {
            dbg_hostprog_free(p);
            s->hostprog = NULL;
            return 0;
        }
    }
    const char *colon = strrchr(spec, ':');
    if (!strcmp(program, "/proc/self/exe"))
        pthread_once(&self_once, self_init);
    const char *prog = base_of(strcmp(program, "/proc/self/exe") ? program : self_name);
    if (colon && colon > spec && colon[-1] != ':') {  /* FILE:LINE (not a Class::name) */
        char *end;
        long line = strtol(colon + 1, &end, 10);
        char file[512];
        snprintf(file, sizeof file, "%.*s", (int)(colon - spec), spec);
        if (*end || line <= 0 || line > 100000000)
            return 0;
        /* the line the breakpoint would land on: the first with code, host or device */
        int hl = dw_host_next_line(p->h, file, (int)line);
        if (!p->loaded)
            load_device(p, s->demangle);
        if (!hl) {   /* no host line information (a stripped program): device code or not */
            if (!p->device_known || device_next_line(p, file, (int)line))
                return 0;
            snprintf(why, n, "No device code at or after line %ld of \"%s\" in %s; ptxdbg stops "
                     "in device code only (a module the program loads at run time may still "
                     "have it).", line, file, prog);
            return 2;
        }
        if (!p->device_known)
            return 0;
        int dl = device_next_line(p, file, (int)line);
        if ((dl && dl <= hl) || in_kernel(p, file, (int)line) || in_kernel(p, file, hl))
            return 0;
        snprintf(why, n, "Line %ld of \"%s\" is host code of %s: ptxdbg stops in device code "
                 "only (kernels and __device__ functions).", line, file, prog);
        return 1;
    }
    /* a name: spaces only inside its parameter or template argument lists (scale(float, int)),
       colons only as the scope operator (Ledger::post) */
    int depth = 0;
    for (const char *q = spec; *q; q++) {
        depth += (*q == '(' || *q == '<') - (*q == ')' || *q == '>');
        if ((*q == ' ' && depth <= 0) ||
            (*q == ':' && q[1] != ':' && (q == spec || q[-1] != ':')))
            return 0;
    }
    if (spec[0] >= '0' && spec[0] <= '9')
        return 0;
    const char *mg = NULL;
    size_t sl = strlen(spec);
    for (int i = 0; i < dw_host_nsymbols(p->h) && !mg; i++) {
        const char *sn = dw_host_symbol_name(p->h, i);
        char b[512], f[1024];
        /* gdb: a template's name without arguments names every instance (host_sum<int>) */
        if (!strcmp(sn, spec) ||
            (s->demangle && s->demangle(sn, b, sizeof b, 1) == 0 &&
             (!strcmp(b, spec) || (!strchr(spec, '<') && !strncmp(b, spec, sl) &&
                                   b[sl] == '<' && b[strlen(b) - 1] == '>'))) ||
            (s->demangle && s->demangle(sn, f, sizeof f, 0) == 0 && !strcmp(f, spec)))
            mg = sn;
    }
    /* main is the host's (no device function may be called main); other names are known
       from the ELF's symbols or, for functions without one (inlined), its DWARF */
    if (!p->loaded)
        load_device(p, s->demangle);
    if (!mg && strcmp(spec, "main") && !dw_host_func_named(p->h, spec, s->demangle)) {
        /* not known as host code (a stripped program): known not to be device code either */
        if (!p->device_known || device_has_func(p, spec, spec, s->demangle))
            return 0;
        snprintf(why, n, "No kernel or __device__ function \"%s\" in %s; ptxdbg stops in "
                 "device code only (a module the program loads at run time may still define "
                 "it).", spec, prog);
        return 2;
    }
    if (strcmp(spec, "main") &&
        (!p->device_known || device_has_func(p, spec, mg ? mg : spec, s->demangle)))
        return 0;
    snprintf(why, n, "Function \"%s\" is host code of %s: ptxdbg stops in device code only "
             "(kernels and __device__ functions).", spec, prog);
    return 1;
}

/* ---- the launch site of the current launch --------------------------------------------------- */
static _Thread_local const uint64_t *given_pcs;
static _Thread_local int given_n;

void dbg_host_set_launch_stack(const uint64_t *pcs, int n)
{
    given_pcs = pcs;
    given_n = pcs && n > 0 ? (n < DBG_HOST_PCS ? n : DBG_HOST_PCS) : 0;
}

void dbg_host_note_launch(dbg_session *s, const char *kernel)
{
    if (given_n) {
        memcpy(s->launch_pcs, given_pcs, (size_t)given_n * sizeof *given_pcs);
        s->nlaunch_pcs = given_n;
    } else {
        s->nlaunch_pcs = dbg_host_stack(s->launch_pcs, DBG_HOST_PCS, NULL);
    }
    snprintf(s->launch_kernel, sizeof s->launch_kernel, "%s", kernel ? kernel : "");
    s->launch_site[0] = 0;
}

int dbg_launch_site(dbg_session *s, char *out, size_t n)
{
    if (!dbg_launch_info(s) || s->nlaunch_pcs <= 0)
        return -1;
    if (!s->launch_site[0] &&
        dbg_host_where(s->launch_pcs, s->nlaunch_pcs, s->launch_kernel, s->demangle, 1,
                       s->launch_site, sizeof s->launch_site) != 0)
        snprintf(s->launch_site, sizeof s->launch_site, "??");
    snprintf(out, n, "%s", s->launch_site);
    return 0;
}

int dbg_freed_describe(const exec_machine *m, uint64_t addr, char *out, size_t n)
{
    return exec_freed_describe(m, addr, out, n);
}
