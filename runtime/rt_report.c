/* rt_report.c - reports of plain (not debugged) launches: faults, automatic core files, runaway kernels. */
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
    dbg_pc_place at;
    dbg_target_pc_place(ctx->tgt, st->pc, &at);
    int num = 4;
    const char *name = st->kind == EXEC_STOP_TRAP     ? "Warp Illegal Instruction (trap)"
                       : st->kind == EXEC_STOP_ASSERT ? "Warp Assert"
                       : st->kind == EXEC_STOP_BRKPT  ? "Warp Breakpoint"
                       : st->kind == EXEC_STOP_EXCEPTION ? dbg_exc_name(st->exc, &num)
                                                         : "Launch Timeout";
    /* where, through the call sites as bt shows them: a fault inside a toolkit helper
       (__iAtomicAdd, inlined atomics, cooperative groups) names the user's line too */
    dw_info *dw = dbg_dwarf_load(pm, dbg_demangle);
    dbg_site site;
    int have = dbg_site_of(m, dw, dbg_demangle, ctx->mod->name, st->cta, st->warp, st->lane,
                           &site) == 0;
    exec_dim3 b = dbg_target_cta_coord(ctx->tgt, st->cta);
    uint32_t t = st->warp * 32 + st->lane;
    exec_dim3 bd = { ctx->block.x, ctx->block.y, ctx->block.z };
    char kname[512];
    if (dbg_demangle(ctx->k->name, kname, sizeof kname, 0) != 0)
        snprintf(kname, sizeof kname, "%s", ctx->k->name);
    fprintf(stderr, "\nCUDA Exception: %s\n", name);
    fprintf(stderr, "The exception was triggered at PC 0x%x (%s%sPTX line %d)\n", st->pc,
            have ? site.at : "", have ? "; " : "", at.ptx_line);
    fprintf(stderr, "%s: kernel %s (launch %llu), block (%u,%u,%u) thread (%u,%u,%u)%s%s\n",
            st->kind == EXEC_STOP_TRAP     ? "Kernel trapped"
            : st->kind == EXEC_STOP_ASSERT ? "Kernel assertion failed"
                                           : "Kernel faulted",
            kname, (unsigned long long)ctx->launch_no, b.x, b.y, b.z, t % bd.x,
            (t / bd.x) % bd.y, t / (bd.x * bd.y), have ? " at " : "", have ? site.user : "");
    dbg_dwarf_release(dw);
    /* the host stack of the call that launched it (the kernel ran on a stream's thread) */
    char from[1024];
    if (ctx->nhost_pcs > 0 &&
        dbg_host_where(ctx->host_pcs, ctx->nhost_pcs, ctx->k->name, dbg_demangle, 1, from,
                       sizeof from) == 0)
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

/* ---- a launch that did not finish: where every warp is ----------------------------------------
 * (PTXDBG_MAX_STEPS, PTXDBG_TIMEOUT, Ctrl-C in a plain run). One line per group of lanes of a
 * warp that share a pc, for every block started and not finished, at most RT_WHERE_MAX lines. */
#define RT_WHERE_MAX 64

/* "vector_add.cu:10 (PTX line 52, pc 0x1a) in helper" for pc (the source line of its .loc
 * when it has one). */
static void rt_where_pc(rt_launch_ctx *ctx, uint32_t pc, char *out, size_t n)
{
    dbg_pc_place p;
    dbg_target_pc_place(ctx->tgt, pc, &p);
    int other = p.func && p.func != ctx->func;
    snprintf(out, n, "%s%sPTX line %d, pc 0x%x%s%s%s", p.src, p.src[0] ? " (" : "",
             p.ptx_line, pc, p.src[0] ? ")" : "", other ? " in " : "",
             other ? p.func_name : "");
}

/* The groups of warp w of CTA c: lanes by (state, pc). Returns the lines printed. */
static int rt_where_warp(rt_launch_ctx *ctx, uint32_t c, uint32_t w, int budget, int *more)
{
    uint32_t done = 0;
    exec_lane_info li[32];
    for (uint32_t l = 0; l < 32; l++)
        if (dbg_target_lane(ctx->tgt, c, w, l, &li[l]) != 0 || li[l].state == EXEC_LANE_INVALID ||
            li[l].state == EXEC_LANE_EXITED)
            done |= 1u << l;
    int lines = 0;
    exec_dim3 b = dbg_target_cta_coord(ctx->tgt, c);
    for (uint32_t l = 0; l < 32; l++) {
        if (done & (1u << l))
            continue;
        uint32_t mask = 0;
        for (uint32_t j = l; j < 32; j++)
            if (!(done & (1u << j)) && li[j].pc == li[l].pc && li[j].state == li[l].state)
                mask |= 1u << j;
        done |= mask;
        if (lines >= budget) {
            (*more)++;
            continue;
        }
        char where[400];
        rt_where_pc(ctx, li[l].pc, where, sizeof where);
        fprintf(stderr, "    block (%u,%u,%u) warp %u lanes 0x%08x %s %s\n", b.x, b.y, b.z, w,
                mask, li[l].state == EXEC_LANE_BARRIER ? "waiting at a barrier at"
                      : li[l].state == EXEC_LANE_TRAPPED ? "stopped at"
                      : li[l].state == EXEC_LANE_DIVERGENT ? "divergent, at" : "at",
                where);
        lines++;
    }
    return lines;
}

void rt_report_where(rt_launch_ctx *ctx, const exec_stop *st, const char *why)
{
    char kname[512];
    if (dbg_demangle(ctx->k->name, kname, sizeof kname, 0) != 0)
        snprintf(kname, sizeof kname, "%s", ctx->k->name);
    fprintf(stderr, "\nptxdbg: kernel %s (launch %llu) %s\n", kname,
            (unsigned long long)ctx->launch_no, why);
    if (st && (st->kind == EXEC_STOP_LIMIT || st->kind == EXEC_STOP_INTERRUPT) && st->lanes) {
        exec_dim3 b = dbg_target_cta_coord(ctx->tgt, st->cta);
        char where[400];
        rt_where_pc(ctx, st->pc, where, sizeof where);
        fprintf(stderr, "  running: block (%u,%u,%u) warp %u lanes 0x%08x at %s\n", b.x, b.y,
                b.z, st->warp, st->lanes, where);
    }
    fprintf(stderr, "  where every warp is (blocks started and not finished):\n");
    int printed = 0, more = 0;
    uint32_t ncta = 0, nw = 0;
    dbg_target_grid(ctx->tgt, &ncta, &nw);
    for (uint32_t c = 0; c < ncta; c++) {
        if (dbg_target_cta_state(ctx->tgt, c) != EXEC_CTA_RUNNING)
            continue;
        for (uint32_t w = 0; w < nw; w++)
            printed += rt_where_warp(ctx, c, w, RT_WHERE_MAX - printed, &more);
    }
    if (more)
        fprintf(stderr, "    ... and %d more groups of lanes\n", more);
    if (!printed && !more)
        fprintf(stderr, "    (no block is running)\n");
    if (!strstr(why, "SIGINT"))
        fprintf(stderr, "ptxdbg: the kernel failed: %s (%s)\n",
                rt_error_name(cudaErrorLaunchTimeout), rt_error_string(cudaErrorLaunchTimeout));
    fflush(stderr);
}
