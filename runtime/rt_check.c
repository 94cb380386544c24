/* rt_check.c - checkers in plain runs (PTXDBG_CHECK), the leak check at exit, where memory was freed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rt.h"
#include "chk.h"
#include "dbg_frontend.h"
#include "dbg_value.h"

/* ---------------------------------------------------------------------------------------------
 * A plain run (no debugger) checks nothing unless asked: PTXDBG_CHECK=memcheck (a comma list, or
 * all) turns checkers on for every module's machine, and each finding is printed on stderr in
 * compute-sanitizer's words as it is made (the kernel goes on; a fault still fails it as on a
 * GPU). PTXDBG_LEAK_CHECK=full reports at exit the allocations never freed, with the host
 * backtrace of where they were made. At exit come the summaries, the JSON lines of
 * PTXDBG_CHECK_REPORT=FILE, and, when there was a finding, the exit status
 * PTXDBG_CHECK_EXITCODE (default 1) instead of the program's.
 *
 * Under the debugger (`ptxdbg ./app`) the in-process front end's session owns the checkers
 * (dbg_frontend.h's checks); this file then only lists the leaks for it. Where freed memory was freed is
 * the runtime's one description (rt_mem_freed_describe, each machine's describer). Host
 * stacks of allocations are taken only while something checks.
 * ------------------------------------------------------------------------------------------- */

#define RT_CHK_PREFIX "========= "

static chk_ctx *rt_chk;          /* a plain run's checkers; NULL: none */
static int rt_chk_state;         /* 0 not decided, 1 plain-run checks, -1 none */
static int rt_chk_leaks;         /* PTXDBG_LEAK_CHECK */
static const char *rt_chk_report;
static int rt_chk_exitcode = 1;

/* Whether host stacks are worth taking: something checks. */
static int rt_check_sites(void);

/* ---- where allocations were made ---------------------------------------------------------------- */
/* The host stack of the allocation call (the program's frames; dbg_host_stack), named only if it
 * leaks (dbg_host_where: "main at app.cu:42" with the program's DWARF). */
int rt_check_alloc_site(uint64_t *pcs, int max)
{
    return rt_check_sites() ? dbg_host_stack(pcs, max, NULL) : 0;
}

/* ---- leaks ------------------------------------------------------------------------------------- */
static int rt_leak_one(const rt_alloc *a, void *ctx)
{
    chk_ctx *k = ctx;
    /* device memory the program allocated (not host memory, registered ranges or variables) */
    if (!a->mem || a->kind == RT_MEM_HOST || a->kind == RT_MEM_REGISTERED)
        return 0;
    char site[1024] = "";
    if (a->nsite && dbg_host_where(a->site, a->nsite, NULL, dbg_demangle, 3, site,
                                   sizeof site) != 0)
        site[0] = 0;
    chk_alloc ca = { a->base, a->size, a->name, site };
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
    rt_lock();   /* called on the kernel's stream thread: the device output is shared */
    rt_flush_output();
    fputs(buf, stderr);
    fflush(stderr);
    rt_unlock();
}

static void rt_check_exit(void)
{
    if (!rt_chk)
        return;
    rt_end_work_at_exit();   /* no kernel adds findings any more (idempotent) */
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
    if (chk_errors(rt_chk)) {   /* warnings (racecheck's same-value writes) do not fail */
        fflush(NULL);
        _exit(rt_chk_exitcode);
    }
}

/* PTXDBG_FILL: -1 none, else the byte (a bad value is said once and ignored). */
static int rt_env_fill(void)
{
    const char *v = getenv("PTXDBG_FILL");
    char err[160];
    int b;
    if (!v || !*v)
        return -1;
    if (chk_parse_fill(v, &b, err, sizeof err) != 0) {
        fprintf(stderr, "ptxdbg: PTXDBG_FILL: %s\n", err);
        return -1;
    }
    return b;
}

/* Decide once, at the first machine: checks in a plain run, or none. */
static void rt_check_decide(void)
{
    if (rt_chk_state)
        return;
    rt_chk_state = -1;
    if (rt_debug_launch)
        return;   /* the in-process front end's session checks */
    const char *list = getenv("PTXDBG_CHECK"), *leak = getenv("PTXDBG_LEAK_CHECK");
    rt_chk_leaks = leak && (!strcmp(leak, "full") || !strcmp(leak, "1") || !strcmp(leak, "yes"));
    int fill = rt_env_fill();
    if ((!list || !*list || !strcmp(list, "none")) && !rt_chk_leaks) {
        if (fill < 0)
            return;
        /* only the fill pattern: a context that checks nothing carries it */
        if ((rt_chk = chk_new()) != NULL)
            chk_set_fill(rt_chk, fill);
        return;
    }
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
    chk_hooks h = { .report = rt_check_print };
    chk_set_hooks(rt_chk, &h);
    chk_set_fill(rt_chk, fill);
    rt_chk_state = 1;
    atexit(rt_check_exit);
}

static int rt_check_sites(void)
{
    rt_check_decide();
    return rt_chk_state > 0 || rt_debug_launch != NULL;
}

int rt_check_plain(void)
{
    return rt_chk != NULL;
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

/* The in-process front end that took the process (rt_dbg.c): its checkers get PTXDBG_FILL, its
 * leak check at exit lists the runtime's allocations. */
void rt_check_session(const dbg_frontend *fe)
{
    chk_ctx *k = fe->checks ? fe->checks() : NULL;
    int fill = rt_env_fill();
    if (k && fill >= 0 && chk_fill(k) < 0)
        chk_set_fill(k, fill);   /* PTXDBG_FILL, as `set fill` */
    if (fe->set_leak_lister)
        fe->set_leak_lister(rt_check_leaks);
}

/* ---- initcheck: host writes into device memory, fresh allocations ------------------------------ */
/* The checkers of this process: a plain run's, or the in-process debugger's session's. */
static chk_ctx *rt_check_ctx(void)
{
    rt_check_decide();
    return rt_chk ? rt_chk : rt_debug_checks();
}

void rt_check_host_write(uint64_t addr, uint64_t n)
{
    chk_ctx *k = rt_check_ctx();
    if (k)
        chk_host_write(k, addr, n);
}

void rt_check_fresh(int device, void *mem, uint64_t size)
{
    chk_ctx *k = rt_check_ctx();
    if (!k || !mem)
        return;
    int fill = chk_fill(k);
    if (fill >= 0 && device >= 0)
        memset(mem, fill, (size_t)size);
    /* device memory starts uninitialised; the host writes managed and host memory itself */
    chk_host_alloc(k, (uint64_t)(uintptr_t)mem, size, device > 0);
}

void rt_check_gone(uint64_t addr, uint64_t size)
{
    chk_ctx *k = rt_check_ctx();
    if (k)
        chk_host_alloc(k, addr, size, 0);
}
