/* rt_report.c - the fault report of a plain (not debugged) launch, and automatic core files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rt.h"
#include "cmd.h"

/* "file.cu:42" of the instruction at pc (its .loc), or "" without line information. */
static void rt_src_line(const ptx_module *pm, const ptx_insn *in, char *out, size_t n)
{
    out[0] = 0;
    if (!in || in->loc < 0 || in->loc >= pm->nlocs)
        return;
    const ptx_loc *l = &pm->locs[in->loc];
    for (int i = 0; i < pm->nfiles; i++)
        if (pm->files[i].num == l->file) {
            const char *p = pm->files[i].path, *b = strrchr(p, '/');
            snprintf(out, n, "%s:%d", b ? b + 1 : p, l->line);
            return;
        }
}

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
                       : st->kind == EXEC_STOP_EXCEPTION ? cmd_core_exc_name(st->exc, &num)
                                                         : "Launch Timeout";
    const ptx_func *f = NULL;
    const ptx_insn *in = NULL;
    exec_pc_insn(m, st->pc, &f, &in);
    char src[300];
    rt_src_line(pm, in, src, sizeof src);
    exec_dim3 b = exec_cta_coord(m, st->cta);
    uint32_t t = st->warp * 32 + st->lane;
    exec_dim3 bd = { ctx->block.x, ctx->block.y, ctx->block.z };
    char kname[512];
    if (cmd_demangle(ctx->k->name, kname, sizeof kname, 0) != 0)
        snprintf(kname, sizeof kname, "%s", ctx->k->name);
    fprintf(stderr, "\nCUDA Exception: %s\n", name);
    fprintf(stderr, "The exception was triggered at PC 0x%x (%s%sPTX line %d%s%s)\n", st->pc,
            src[0] ? src : "", src[0] ? ", " : "", in ? in->line : 0,
            f && f != ctx->func ? " in " : "", f && f != ctx->func ? f->sym->name : "");
    fprintf(stderr, "%s: kernel %s (launch %llu), block (%u,%u,%u) thread (%u,%u,%u)\n",
            st->kind == EXEC_STOP_TRAP     ? "Kernel trapped"
            : st->kind == EXEC_STOP_ASSERT ? "Kernel assertion failed"
                                           : "Kernel faulted",
            kname, (unsigned long long)ctx->launch_no, b.x, b.y, b.z, t % bd.x,
            (t / bd.x) % bd.y, t / (bd.x * bd.y));
    if (st->msg[0])
        fprintf(stderr, "  %s\n", st->msg);
    cudaError_t e = rt_stop_error(st);
    fprintf(stderr, "ptxdbg: the kernel failed: %s (%s)\n", rt_error_name(e),
            rt_error_string(e));
    if (rt_auto_core()) {
        char path[512];
        char base[256];
        if (cmd_demangle(ctx->k->name, base, sizeof base, 1) != 0)
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
