/* rt_dbg.c - the in-process debugger: a program started by ptxdbg's `run` runs its launches under the session. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "rt.h"
#include "cmd_prog.h"

/* Sources are looked for beside the program (where tests/cuda/build.sh puts them). */
static char rt_dbg_srcdir[PATH_MAX];

static int rt_dbg_launch_hook(rt_launch_ctx *ctx)
{
    return cmd_inproc_launch(ctx->mod->pm, ctx->m, rt_dbg_srcdir, ctx->func,
                             (uint32_t)ctx->launch_no, &ctx->stop, &ctx->reported);
}

/* A process the program forks runs its kernels plainly: the session belongs to the program. */
static void rt_dbg_forked(void)
{
    rt_debug_launch = NULL;
    rt_debug_interrupt = NULL;
}

/* PTXDBG_SESSION set (by the parent's `run`): start the session before the program's own
 * constructors register their modules. */
__attribute__((constructor)) static void rt_dbg_ctor(void)
{
    if (cmd_inproc_start() != 1)
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
    rt_debug_launch = rt_dbg_launch_hook;
    rt_debug_interrupt = cmd_inproc_interrupt;
    cmd_inproc_set_run_hook(rt_debug_run_hook, NULL);
    pthread_atfork(NULL, NULL, rt_dbg_forked);
}
