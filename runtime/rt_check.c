/* rt_check.c - checkers in plain runs (PTXDBG_CHECK), the leak check at exit, where memory was freed. */
#include <dlfcn.h>
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rt.h"
#include "chk.h"
#include "cmd_prog.h"

/* ---------------------------------------------------------------------------------------------
 * A plain run (no debugger) checks nothing unless asked: PTXDBG_CHECK=memcheck (a comma list, or
 * all) turns checkers on for every module's machine, and each finding is printed on stderr in
 * compute-sanitizer's words as it is made (the kernel goes on; a fault still fails it as on a
 * GPU). PTXDBG_LEAK_CHECK=full reports at exit the allocations never freed, with the host
 * backtrace of where they were made. At exit come the summaries, the JSON lines of
 * PTXDBG_CHECK_REPORT=FILE, and, when there was a finding, the exit status
 * PTXDBG_CHECK_EXITCODE (default 1) instead of the program's.
 *
 * Under the debugger (`ptxdbg ./app`) the session inside the program owns the checkers
 * (cmd_inproc.c); this file then only lists the leaks for it and says where freed memory was
 * freed. Host backtraces are taken only while something checks.
 * ------------------------------------------------------------------------------------------- */

#define RT_CHK_PREFIX "========= "

static chk_ctx *rt_chk;          /* a plain run's checkers; NULL: none */
static int rt_chk_state;         /* 0 not decided, 1 plain-run checks, -1 none */
static int rt_chk_leaks;         /* PTXDBG_LEAK_CHECK */
static const char *rt_chk_report;
static int rt_chk_exitcode = 1;

/* The most recent frees, with where the host freed the memory (for "freed by ..."). */
#define RT_FREED_MAX 64
static struct { uint64_t base, size; char name[32]; char site[200]; } rt_freed[RT_FREED_MAX];
static unsigned rt_nfreed;

/* Whether host backtraces are worth taking: something checks. */
static int rt_check_sites(void);

/* ---- host backtraces ---------------------------------------------------------------------------- */
/* "main+0x4c (app), run+0x10 (app)": the program's frames, the runtime library's own left out. */
static void rt_host_site(char *out, size_t n)
{
    void *pcs[12];
    int k = backtrace(pcs, 12);
    Dl_info self;
    size_t len = 0;
    out[0] = 0;
    if (!dladdr((void *)rt_host_site, &self))
        self.dli_fbase = NULL;
    for (int i = 0, shown = 0; i < k && shown < 4; i++) {
        Dl_info di;
        if (!dladdr(pcs[i], &di) || di.dli_fbase == self.dli_fbase)
            continue;
        const char *file = di.dli_fname ? strrchr(di.dli_fname, '/') : NULL;
        file = file ? file + 1 : di.dli_fname ? di.dli_fname : "?";
        int w;
        if (di.dli_sname)
            w = snprintf(out + len, n - len, "%s%s+0x%lx (%s)", shown ? ", " : "", di.dli_sname,
                         (unsigned long)((char *)pcs[i] - (char *)di.dli_saddr), file);
        else
            w = snprintf(out + len, n - len, "%s0x%lx (%s)", shown ? ", " : "",
                         (unsigned long)((char *)pcs[i] - (char *)di.dli_fbase), file);
        if (w < 0 || (size_t)w >= n - len)
            break;
        len += (size_t)w;
        shown++;
    }
}

char *rt_check_alloc_site(void)
{
    if (!rt_check_sites())
        return NULL;
    char site[400];
    rt_host_site(site, sizeof site);
    return site[0] ? strdup(site) : NULL;
}

void rt_check_freed(const rt_alloc *a)
{
    if (!rt_check_sites())
        return;
    unsigned i = rt_nfreed++ % RT_FREED_MAX;
    rt_freed[i].base = a->base;
    rt_freed[i].size = a->size;
    snprintf(rt_freed[i].name, sizeof rt_freed[i].name, "%s", a->name);
    rt_host_site(rt_freed[i].site, sizeof rt_freed[i].site);
}

/* chk_hooks.freed: the allocation that held addr and where the host freed it ("main+0x4c
 * (app), ..."). One function, so a richer description (source lines of the host code) can
 * replace it. */
static int rt_check_freed_at(void *ctx, uint64_t addr, chk_alloc *out)
{
    (void)ctx;
    unsigned k = rt_nfreed < RT_FREED_MAX ? rt_nfreed : RT_FREED_MAX;
    for (unsigned j = 0; j < k; j++) {   /* newest first */
        unsigned i = (rt_nfreed - 1 - j) % RT_FREED_MAX;
        if (addr >= rt_freed[i].base && addr - rt_freed[i].base < rt_freed[i].size) {
            out->base = rt_freed[i].base;
            out->size = rt_freed[i].size;
            out->name = rt_freed[i].name;
            out->site = rt_freed[i].site;
            return 0;
        }
    }
    return -1;
}

/* ---- leaks ------------------------------------------------------------------------------------- */
static int rt_leak_one(const rt_alloc *a, void *ctx)
{
    chk_ctx *k = ctx;
    /* device memory the program allocated (not host memory, registered ranges or variables) */
    if (!a->mem || a->kind == RT_MEM_HOST || a->kind == RT_MEM_REGISTERED)
        return 0;
    chk_alloc ca = { a->base, a->size, a->name, a->site ? a->site : "" };
    chk_leak_add(k, &ca);
    return 0;
}

void rt_check_leaks(chk_ctx *k)
{
    rt_alloc_each(rt_leak_one, k);
}

/* ---- plain runs -------------------------------------------------------------------------------- */
static void rt_check_print(void *ctx, const chk_finding *f)
{
    (void)ctx;
    char buf[4096];
    chk_format(f, RT_CHK_PREFIX, buf, sizeof buf);
    rt_flush_output();
    fputs(buf, stderr);
    fflush(stderr);
}

static void rt_check_exit(void)
{
    if (!rt_chk)
        return;
    int before = chk_count(rt_chk);
    if (rt_chk_leaks)
        rt_check_leaks(rt_chk);
    for (int i = before; i < chk_count(rt_chk); i++)
        rt_check_print(NULL, chk_at(rt_chk, i));
    fflush(stdout);
    chk_leak_summary(rt_chk, RT_CHK_PREFIX, stderr);
    chk_summary_line(rt_chk, RT_CHK_PREFIX, stderr);
    if (rt_chk_report) {
        char err[512];
        if (chk_write_report(rt_chk, rt_chk_report, err, sizeof err) != 0)
            fprintf(stderr, "ptxdbg: %s\n", err);
    }
    if (chk_count(rt_chk)) {
        fflush(NULL);
        _exit(rt_chk_exitcode);
    }
}

/* Decide once, at the first machine: checks in a plain run, or none. */
static void rt_check_decide(void)
{
    if (rt_chk_state)
        return;
    rt_chk_state = -1;
    if (rt_debug_launch)
        return;   /* the debugger's session checks (cmd_inproc.c) */
    const char *list = getenv("PTXDBG_CHECK"), *leak = getenv("PTXDBG_LEAK_CHECK");
    rt_chk_leaks = leak && (!strcmp(leak, "full") || !strcmp(leak, "1") || !strcmp(leak, "yes"));
    if ((!list || !*list || !strcmp(list, "none")) && !rt_chk_leaks)
        return;
    const char *code = getenv("PTXDBG_CHECK_EXITCODE");
    if (code && *code)
        rt_chk_exitcode = atoi(code) & 0xff;
    rt_chk_report = getenv("PTXDBG_CHECK_REPORT");
    if (rt_chk_report && !*rt_chk_report)
        rt_chk_report = NULL;
    char err[256];
    rt_chk = chk_new();
    if (!rt_chk)
        return;
    chk_set_stop(rt_chk, 0);   /* a plain run reports and goes on */
    if (chk_set_list(rt_chk, list && *list ? list : "none", err, sizeof err) != 0) {
        fprintf(stderr, "ptxdbg: PTXDBG_CHECK: %s\n", err);
        chk_free(rt_chk);
        rt_chk = NULL;
        return;
    }
    chk_hooks h = { .report = rt_check_print, .freed = rt_check_freed_at };
    chk_set_hooks(rt_chk, &h);
    rt_chk_state = 1;
    atexit(rt_check_exit);
}

static int rt_check_sites(void)
{
    rt_check_decide();
    return rt_chk_state > 0 || rt_debug_launch != NULL;
}

void rt_check_machine_added(exec_machine *m)
{
    rt_check_decide();
    if (rt_chk)
        chk_attach(rt_chk, m);
}

void rt_check_machine_gone(exec_machine *m)
{
    if (rt_chk)
        chk_detach(rt_chk, m);
}

/* The in-process debugger's session (rt_dbg.c): it says where freed memory was freed, and its
 * leak check at exit lists the runtime's allocations. */
void rt_check_session(chk_ctx *k)
{
    chk_set_freed_hook(k, rt_check_freed_at, NULL);
    cmd_inproc_set_leak_lister(rt_check_leaks);
}
