/* rt_dbg.c - the in-process debugger: the front end that takes the process (dbg_frontend.h) runs its launches; core files of plain runs. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "rt.h"
#include "dbg_frontend.h"

/* Sources are looked for beside the program (where tests/cuda/build.sh puts them). */
static char rt_dbg_srcdir[PATH_MAX];

/* The program's folder, where its sources are looked for. */
static void rt_dbg_find_srcdir(void)
{
    if (rt_dbg_srcdir[0])
        return;
    ssize_t n = readlink("/proc/self/exe", rt_dbg_srcdir, sizeof rt_dbg_srcdir - 1);
    if (n > 0) {
        rt_dbg_srcdir[n] = 0;
        char *slash = strrchr(rt_dbg_srcdir, '/');
        if (slash)
            *slash = 0;
    } else {
        snprintf(rt_dbg_srcdir, sizeof rt_dbg_srcdir, ".");
    }
}

int rt_dbg_write_core(rt_launch_ctx *ctx, const char *path, char *err, size_t n)
{
    rt_dbg_find_srcdir();
    dbg_session *s = dbg_new();
    if (!s) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    const exec_stop *st = &ctx->stop;
    int rc = dbg_use_module(s, ctx->mod->pm, ctx->m, rt_dbg_srcdir) != 0 ||
             dbg_adopt_launch(s, ctx->func, (uint32_t)ctx->launch_no) != 0 ? -1 : 0;
    if (rc == 0 && st->kind != EXEC_STOP_DONE)
        dbg_set_focus(s, st->cta, st->warp, st->lane);
    if (rc == 0)
        rc = dbg_core_save(s, path);
    if (rc != 0)
        snprintf(err, n, "%s", dbg_errmsg(s));
    dbg_free(s); /* the module and machine stay the runtime's */
    return rc;
}

/* The in-process front end that took this process (NULL: a plain run). The runtime calls it only
 * through its table: which front ends exist is theirs to say (each registers itself). */
static const dbg_frontend *rt_fe;

static int rt_dbg_launch_hook(rt_launch_ctx *ctx)
{
    return rt_fe->launch(ctx->mod->pm, ctx->m, rt_dbg_srcdir, ctx->func,
                         (uint32_t)ctx->launch_no, &ctx->stop, &ctx->reported);
}

/* A module loaded or about to be freed: the session forgets what it read of one at that address
 * (the DWARF it cached, the module it shows), so a module unloaded and loaded again, or a new
 * one the allocator places where a freed one was, never meets stale debug info. */
static void rt_dbg_module_loaded(rt_module *mod)
{
    if (rt_fe->module_loaded)
        rt_fe->module_loaded(mod->pm);
}

static void rt_dbg_module_unloading(rt_module *mod)
{
    if (rt_fe->module_unloading)
        rt_fe->module_unloading(mod->pm);
}

static void rt_dbg_interrupt(void)
{
    rt_fe->interrupt();
}

chk_ctx *rt_debug_checks(void)
{
    return rt_debug_launch && rt_fe && rt_fe->checks ? rt_fe->checks() : NULL;
}

/* A process the program forks runs its kernels plainly: the session belongs to the program. */
static void rt_dbg_forked(void)
{
    rt_debug_launch = NULL;
    rt_debug_module_loaded = NULL;
    rt_debug_module_unloaded = NULL;
    rt_debug_interrupt = NULL;
}

/* The parent (`ptxdbg ./app`, `ptxdbg --dap`) set the environment one front end answers to:
 * start its session before the program's own constructors register their modules (the front
 * ends' registrations are constructors with a priority, so they ran before this one). */
__attribute__((constructor)) static void rt_dbg_ctor(void)
{
    rt_fe = dbg_frontend_attach();
    if (!rt_fe)
        return;
    rt_dbg_find_srcdir();
    rt_debug_launch = rt_dbg_launch_hook;
    rt_debug_module_loaded = rt_dbg_module_loaded;
    rt_debug_module_unloaded = rt_dbg_module_unloading;
    /* kernels run on stream threads: the session's run control parks them for the runtime */
    rt_debug_interrupt = rt_fe->interrupt ? rt_dbg_interrupt : NULL;
    if (rt_fe->set_run_hook)
        rt_fe->set_run_hook(rt_debug_run_hook, NULL);
    rt_check_session(rt_fe);   /* the checkers' fill byte, the leak check at exit */
    pthread_atfork(NULL, NULL, rt_dbg_forked);
}
