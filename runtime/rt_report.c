/* rt_report.c - the fault report of a plain (not debugged) launch, and automatic core files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rt.h"
#include "dbg.h"
#include "dbg_value.h"

static int rt_auto_core(void)
{
    const char *e = getenv("PTXDBG_AUTO_CORE");
    if (!e)
        e = getenv("PTXDBG_COREDUMP");
    return e && *e && strcmp(e, "0") != 0;
}

void rt_report_fault(rt_launch_ctx *ctx)
{
    const exec_stop *st = &ctx->stop;
    exec_machine *m = ctx->m;
    const ptx_module *pm = ctx->mod->pm;
    int num = 4;
    const char *name = st->kind == EXEC_STOP_TRAP     ? "Warp Illegal Instruction (trap)"
                       : st->kind == EXEC_STOP_ASSERT ? "Warp Assert"
                       : st->kind == EXEC_STOP_BRKPT  ? "Warp Breakpoint"
                       : st->kind == EXEC_STOP_EXCEPTION ? dbg_exc_name(st->exc, &num)
                                                         : "Launch Timeout";
    const ptx_func *f = NULL;
    const ptx_insn *in = NULL;
    exec_pc_insn(m, st->pc, &f, &in);
    /* where, through the call sites as bt shows them: a fault inside a toolkit helper
       (__iAtomicAdd, inlined atomics, cooperative groups) names the user's line too */
    dw_info *dw = dbg_dwarf_load(pm, dbg_demangle);
    dbg_site site;
    int have = dbg_site_of(m, dw, dbg_demangle, pm->path, st->cta, st->warp, st->lane,
                           &site) == 0;
    exec_dim3 b = exec_cta_coord(m, st->cta);
    uint32_t t = st->warp * 32 + st->lane;
    exec_dim3 bd = { ctx->block.x, ctx->block.y, ctx->block.z };
    char kname[512];
    if (dbg_demangle(ctx->k->name, kname, sizeof kname, 0) != 0)
        snprintf(kname, sizeof kname, "%s", ctx->k->name);
    fprintf(stderr, "\nCUDA Exception: %s\n", name);
    fprintf(stderr, "The exception was triggered at PC 0x%x (%s%sPTX line %d)\n", st->pc,
            have ? site.at : "", have ? "; " : "", in ? in->line : 0);
    fprintf(stderr, "%s: kernel %s (launch %llu), block (%u,%u,%u) thread (%u,%u,%u)%s%s\n",
            st->kind == EXEC_STOP_TRAP     ? "Kernel trapped"
            : st->kind == EXEC_STOP_ASSERT ? "Kernel assertion failed"
                                           : "Kernel faulted",
            kname, (unsigned long long)ctx->launch_no, b.x, b.y, b.z, t % bd.x,
            (t / bd.x) % bd.y, t / (bd.x * bd.y), have ? " at " : "", have ? site.user : "");
    dbg_dwarf_release(dw);
    /* the launch runs inside the program's launch call: its host stack is the launch site */
    uint64_t pcs[DBG_HOST_PCS];
    int npcs = dbg_host_stack(pcs, DBG_HOST_PCS, NULL);
    char from[1024];
    if (dbg_host_where(pcs, npcs, ctx->k->name, dbg_demangle, 1, from, sizeof from) == 0)
        fprintf(stderr, "  launched from %s\n", from);
    if (st->msg[0])
        fprintf(stderr, "  %s\n", st->msg);
    cudaError_t e = rt_stop_error(st);
    fprintf(stderr, "ptxdbg: the kernel failed: %s (%s)\n", rt_error_name(e),
            rt_error_string(e));
    if (rt_auto_core()) {
        char path[512];
        char base[256];
        if (dbg_demangle(ctx->k->name, base, sizeof base, 1) != 0)
            snprintf(base, sizeof base, "%s", ctx->k->name);
        snprintf(path, sizeof path, "core.%s.%d.%llu", base, (int)getpid(),
                 (unsigned long long)ctx->launch_no);
        char why[600];
        if (rt_dbg_write_core(ctx, path, why, sizeof why) == 0)
            fprintf(stderr, "[Core file written to %s]\n", path);
        else
            fprintf(stderr, "ptxdbg: cannot write the core file %s: %s\n", path, why);
    }
    fflush(stderr);
}
