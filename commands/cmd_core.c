/* cmd_core.c - postmortem commands: trap/exception reports, info trap, generate-core-file, core-file. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "cmd_ui.h"

/* set auto-core on|off; -1: follow the environment (PTXDBG_AUTO_CORE, as a plain run of a
 * program reads it, or PTXDBG_COREDUMP) */
static int auto_core = -1;

static const char *base_name(const char *p)
{
    const char *s = p ? strrchr(p, '/') : NULL;
    return s ? s + 1 : p ? p : "";
}

/* "thread (5,0,0)" / "threads (32..47,0,0)" / "threads (0..3,0,0), (8,0,0)" for lanes of a warp. */
static void threads_text(cmd_ctx *c, uint32_t cta, uint32_t warp, uint32_t lanes, char *out,
                         size_t n)
{
    dbg_session *m = c->s;
    size_t k = 0;
    int count = __builtin_popcount(lanes), runs = 0;
    out[0] = 0;
    k += (size_t)snprintf(out, n, "%s ", count == 1 ? "thread" : "threads");
    for (uint32_t l = 0; l < 32 && k < n; l++) {
        if (!(lanes >> l & 1))
            continue;
        exec_lane_info a, b;
        dbg_lane_get(m, cta, warp, l, &a);
        uint32_t e = l;
        while (e + 1 < 32 && (lanes >> (e + 1) & 1)) {
            dbg_lane_get(m, cta, warp, e + 1, &b);
            if (b.tid.y != a.tid.y || b.tid.z != a.tid.z || b.tid.x != a.tid.x + (e + 1 - l))
                break;
            e++;
        }
        dbg_lane_get(m, cta, warp, e, &b);
        if (e > l)
            k += (size_t)snprintf(out + k, n - k, "%s(%u..%u,%u,%u)", runs ? ", " : "", a.tid.x,
                                  b.tid.x, a.tid.y, a.tid.z);
        else
            k += (size_t)snprintf(out + k, n - k, "%s(%u,%u,%u)", runs ? ", " : "", a.tid.x,
                                  a.tid.y, a.tid.z);
        runs++;
        l = e;
    }
}

/* "0..15" / "5" / "0..3, 8" */
static void lanes_text(uint32_t lanes, char *out, size_t n)
{
    size_t k = 0;
    out[0] = 0;
    for (uint32_t l = 0; l < 32 && k < n; l++) {
        if (!(lanes >> l & 1))
            continue;
        uint32_t e = l;
        while (e + 1 < 32 && (lanes >> (e + 1) & 1))
            e++;
        k += (size_t)(e > l ? snprintf(out + k, n - k, "%s%u..%u", k ? ", " : "", l, e)
                            : snprintf(out + k, n - k, "%s%u", k ? ", " : "", l));
        l = e;
    }
}

/* "file.cu:12" of a pc (the PTX file and line without line info). */
static void pc_text(cmd_ctx *c, uint32_t pc, char *out, size_t n)
{
    dbg_where w;
    if (dbg_pc_where(c->s, pc, &w) != 0)
        snprintf(out, n, "??");
    else if (w.file && w.line > 0)
        snprintf(out, n, "%s:%d", base_name(w.file), w.line);
    else
        snprintf(out, n, "%s:%d", base_name(dbg_module_name(c->s)), w.ptx_line);
}

/* The user's location of a lane: its frame past toolkit headers and helpers without lines
 * (__iAtomicAdd, __trap, __assertfail, inlined atomics), "particles.cu:35 in advance", through
 * the call sites as bt shows them (dbg_stop_site). Returns that source-level frame. */
static int user_where(cmd_ctx *c, uint32_t cta, uint32_t warp, uint32_t lane, uint32_t pc,
                      char *out, size_t n)
{
    dbg_site site;
    if (dbg_stop_site(c->s, cta, warp, lane, &site) != 0) {
        pc_text(c, pc, out, n);
        return 0;
    }
    size_t k = strlen(site.user) < n ? strlen(site.user) : n - 1;
    memcpy(out, site.user, k);
    out[k] = 0;
    return site.user_frame;
}

/* Where a faulting address is: its space, the nearest buffer or symbol and how far outside. */
static void addr_text(cmd_ctx *c, const exec_stop *st, char *out, size_t n)
{
    dbg_fault_addr_text(c->s, st, out, n);
}

/* One line per group of lanes of a warp in the same state at the same pc. */
static void warp_summary(cmd_ctx *c, uint32_t cta, uint32_t warp, const char *indent)
{
    dbg_session *m = c->s;
    exec_warp_info wi;
    if (dbg_warp_get(m, cta, warp, &wi) != 0)
        return;
    exec_lane_info li[32];
    for (uint32_t l = 0; l < 32; l++)
        dbg_lane_get(m, cta, warp, l, &li[l]);
    uint32_t done = 0;
    for (uint32_t l = 0; l < 32; l++) {
        if (done >> l & 1 || li[l].state == EXEC_LANE_INVALID)
            continue;
        uint32_t g = 0;
        for (uint32_t k = l; k < 32; k++)
            if (!(done >> k & 1) && li[k].state == li[l].state &&
                (li[l].state == EXEC_LANE_EXITED || li[k].pc == li[l].pc))
                g |= 1u << k;
        done |= g;
        char th[300], ln[200], at[700];
        threads_text(c, cta, warp, g, th, sizeof th);
        lanes_text(g, ln, sizeof ln);
        const char *what;
        uint32_t pc = li[l].pc;
        switch (li[l].state) {
        case EXEC_LANE_TRAPPED: what = "trapped/faulted"; break;
        case EXEC_LANE_ACTIVE: what = "running"; break;
        case EXEC_LANE_DIVERGENT: what = "waiting (divergent)"; break;
        case EXEC_LANE_BARRIER: what = "waiting at a barrier"; break;
        default: what = "exited"; break;
        }
        if (li[l].state == EXEC_LANE_EXITED) {
            cmd_ui_textf(c,
                "%swarp %u lane%s %s, %s: exited\n", indent, warp, g & (g - 1) ? "s" : "",
                   ln, th);
            continue;
        }
        user_where(c, cta, warp, l, pc, at, sizeof at);
        if (li[l].state == EXEC_LANE_BARRIER && wi.barrier >= 0)
            cmd_ui_textf(c,
                "%swarp %u lane%s %s, %s: waiting at barrier %d, pc 0x%x (%s)\n", indent, warp,
                   g & (g - 1) ? "s" : "", ln, th, wi.barrier, pc, at);
        else
            cmd_ui_textf(c, "%swarp %u lane%s %s, %s: %s at pc 0x%x (%s)\n", indent, warp,
                   g & (g - 1) ? "s" : "", ln, th, what, pc, at);
    }
}

static int auto_core_on(void)
{
    if (auto_core >= 0)
        return auto_core;
    const char *e = getenv("PTXDBG_AUTO_CORE");
    if (!e)
        e = getenv("PTXDBG_COREDUMP");
    return e && *e && strcmp(e, "0") != 0;
}

/* The report of a trap, failed assertion or exception. from_core: reopening a core (no
 * automatic core, no failure status). */
static void report(cmd_ctx *c, const dbg_event *ev, int from_core)
{
    const exec_stop *st = &ev->stop;
    int num = 4;
    const char *name = ev->kind == DBG_EV_TRAP     ? "Warp Illegal Instruction (trap)"
                       : ev->kind == DBG_EV_ASSERT ? "Warp Assert"
                                                   : dbg_exc_name(st->exc, &num);
    if (ev->kind == DBG_EV_ASSERT)
        num = 12;
    char at[1600], who[400], lanes[200], user[sizeof(((dbg_site *)0)->user)];
    /* the stop's frame, and the user's call site when the stop is inside a helper without
       source or a toolkit header: "module:419 in __iAtomicAdd, called from k.cu:35 in f" */
    dbg_site site;
    int uf = 0;
    if (dbg_stop_site(c->s, st->cta, st->warp, st->lane, &site) == 0) {
        memcpy(at, site.at, sizeof site.at < sizeof at ? sizeof site.at : sizeof at);
        at[sizeof at - 1] = 0;
        memcpy(user, site.user, sizeof site.user);
        uf = site.user_frame;
    } else {
        pc_text(c, st->pc, user, sizeof user);
        memcpy(at, user, sizeof user);
    }
    cmd_ui_textf(c,
        "\nCUDA Exception: %s\nThe exception was triggered at PC 0x%x (%s)\n", name, st->pc,
           at);
    exec_dim3 b = dbg_cta_coord(c->s, st->cta);
    uint32_t ln = st->lanes ? st->lanes : 1u << st->lane;
    threads_text(c, st->cta, st->warp, ln, who, sizeof who);
    lanes_text(ln, lanes, sizeof lanes);
    const char *head = ev->kind == DBG_EV_TRAP     ? "Kernel trapped"
                       : ev->kind == DBG_EV_ASSERT ? "Kernel assertion failed"
                                                   : "Kernel faulted";
    cmd_ui_textf(c, "%s: block (%u,%u,%u) %s at %s\n", head, b.x, b.y, b.z, who, user);
    dbg_where w;
    int ptxline = dbg_pc_where(c->s, st->pc, &w) == 0 ? w.ptx_line : 0;
    cmd_ui_textf(c, "  warp %u, lane%s %s, pc 0x%x (PTX line %d)\n", st->warp,
           __builtin_popcount(ln) > 1 ? "s" : "", lanes, st->pc, ptxline);
    if (ev->kind == DBG_EV_EXCEPTION &&
        (st->exc == EXEC_EXC_OUT_OF_RANGE || st->exc == EXEC_EXC_MISALIGNED ||
         st->exc == EXEC_EXC_READONLY || st->exc == EXEC_EXC_ILLEGAL_ADDRESS) &&
        st->space != PTX_SPACE_NONE) {
        char a[1200];
        addr_text(c, st, a, sizeof a);
        cmd_ui_textf(c, "  %s\n", a);
    } else if (ev->kind == DBG_EV_EXCEPTION && st->exc == EXEC_EXC_BARRIER_DEADLOCK) {
        cmd_ui_textf(c, "  no thread of block (%u,%u,%u) can proceed:\n", b.x, b.y, b.z);
        for (uint32_t k = 0; k < dbg_nwarps(c->s); k++)
            warp_summary(c, st->cta, k, "    ");
    } else if (st->msg[0]) {
        cmd_ui_textf(c, "  %s\n", st->msg);
    }
    cmd_ui_textf(c, "\nProgram received signal CUDA_EXCEPTION_%d, %s.\n", num, name);
    /* show the user's frame, not a runtime wrapper without source */
    if (uf > 0 && dbg_get_focus(c->s)->frame == 0)
        dbg_set_frame(c->s, uf);
    cmd_announce_focus(c, 1);
    cmd_print_frame_line(c, -1, 1);
    if (from_core)
        return;
    c->kernel_failed = 1;
    cmd_core_auto_save(c);
}

void cmd_core_auto_save(cmd_ctx *c)
{
    if (auto_core_on()) {
        char path[512];
        dbg_core_default_name(c->s, path, sizeof path);
        if (dbg_core_save(c->s, path) == 0)
            cmd_ui_textf(c, "[Core file written to %s]\n", path);
        else
            cmd_error(c, "Cannot write the core file: %s", dbg_errmsg(c->s));
    }
}

void cmd_core_report_stop(cmd_ctx *c, const dbg_event *ev)
{
    report(c, ev, 0);
}

/* ---- guards ---------------------------------------------------------------------------------- */
int cmd_core_guard(cmd_ctx *c, const cmd_def *d)
{
    int is_exec = (d->flags & CMD_F_RESUMES) != 0;
    int is_start = d->fn == cmd_launch || d->fn == cmd_run || d->fn == cmd_kill;
    if (!is_exec && !(is_start && dbg_core_path(c->s)))
        return 0;
    if (c->inproc && d->fn == cmd_continue && !dbg_launch_alive(c->s))
        return 0; /* a program's kernel faulted: continue returns to the host code */
    const char *why = dbg_cannot_run(c->s);
    return why ? cmd_error(c, "%s", why) : 0;
}

/* ---- commands -------------------------------------------------------------------------------- */
int cmd_generate_core(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    char path[1024];
    if (argc == 1)
        snprintf(path, sizeof path, "%s", argv[0]);
    else
        dbg_core_default_name(c->s, path, sizeof path);
    if (dbg_core_save(c->s, path) != 0)
        return cmd_error(c, "Can't create a corefile: %s", dbg_errmsg(c->s));
    printf("Saved corefile %s\n", path);
    return 0;
}

/* After loading a core: what it shows. */
static void core_banner(cmd_ctx *c, const char *path)
{
    printf("Core was generated by ptxdbg from %s.\n", base_name(dbg_module_name(c->s)));
    (void)path;
    exec_stop st;
    int over = 0;
    if (dbg_last_stop(c->s, &st, &over) != 0) {
        printf("No kernel was running when the core was saved.\n");
        return;
    }
    char label[600];
    cmd_kernel_label(c, label, sizeof label);
    const exec_launch_info *li = dbg_launch_info(c->s);
    printf("Kernel %u %s.\n", li ? li->launch_id : 0, label);
    dbg_event ev;
    memset(&ev, 0, sizeof ev);
    ev.stop = st;
    switch (st.kind) {
    case EXEC_STOP_TRAP: ev.kind = DBG_EV_TRAP; break;
    case EXEC_STOP_ASSERT: ev.kind = DBG_EV_ASSERT; break;
    case EXEC_STOP_EXCEPTION: ev.kind = DBG_EV_EXCEPTION; break;
    default: break;
    }
    c->shown_focus.valid = 0;
    c->shown_launch = (int)dbg_nlaunches(c->s);
    if (ev.kind != DBG_EV_NONE) {
        report(c, &ev, 1);
        return;
    }
    if (st.kind == EXEC_STOP_DONE) {
        printf("The kernel had completed.\n");
        return;
    }
    printf("The kernel was stopped (%s).\n", st.msg[0] ? st.msg : "no reason recorded");
    cmd_announce_focus(c, 1);
    if (dbg_get_focus(c->s)->valid)
        cmd_print_frame_line(c, -1, 1);
}

int cmd_core_open(cmd_ctx *c, const char *path)
{
    if (dbg_core_load(c->s, path) != 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    c->list_valid = 0;
    c->x_valid = 0;
    core_banner(c, path);
    return 0;
}

int cmd_core_file(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    return cmd_core_open(c, argv[0]);
}

int cmd_target(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (strcmp(argv[0], "core") != 0)
        return cmd_error(c, "Undefined target command: \"%s\".  Try \"help target\".", argv[0]);
    if (argc != 2)
        return cmd_error(c, "Usage: target core FILE");
    return cmd_core_open(c, argv[1]);
}

int cmd_info_trap(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    exec_stop st;
    int over = 0;
    if (dbg_last_stop(c->s, &st, &over) != 0) {
        printf("No kernel has been launched.\n");
        return 0;
    }
    const char *src = dbg_core_path(c->s);
    int bad = st.kind == EXEC_STOP_TRAP || st.kind == EXEC_STOP_ASSERT ||
              st.kind == EXEC_STOP_EXCEPTION;
    char label[600];
    cmd_kernel_label(c, label, sizeof label);
    const exec_launch_info *li = dbg_launch_info(c->s);
    printf("Kernel %u %s%s%s%s:\n", li ? li->launch_id : 0, label, src ? " (core file " : "",
           src ? src : "", src ? ")" : "");
    if (!bad) {
        printf("  The kernel has not trapped or faulted (%s).\n",
               st.kind == EXEC_STOP_DONE ? "it completed" : "it is stopped");
        return 0;
    }
    dbg_session *m = c->s;
    exec_dim3 b = dbg_cta_coord(m, st.cta);
    char who[400], user[700];
    uint32_t ln = st.lanes ? st.lanes : 1u << st.lane;
    threads_text(c, st.cta, st.warp, ln, who, sizeof who);
    user_where(c, st.cta, st.warp, st.lane, st.pc, user, sizeof user);
    if (st.kind == EXEC_STOP_TRAP)
        printf("  Trap: block (%u,%u,%u) %s (warp %u) executed trap at %s\n", b.x, b.y, b.z, who,
               st.warp, user);
    else if (st.kind == EXEC_STOP_ASSERT)
        printf("  Assertion failed: block (%u,%u,%u) %s (warp %u) at %s\n    %s\n", b.x, b.y,
               b.z, who, st.warp, user, st.msg);
    else {
        printf("  CUDA Exception: %s: block (%u,%u,%u) %s (warp %u) at %s\n",
               dbg_exc_name(st.exc, NULL), b.x, b.y, b.z, who, st.warp, user);
        if (st.space != PTX_SPACE_NONE && st.exc != EXEC_EXC_STACK_OVERFLOW &&
            st.exc != EXEC_EXC_BARRIER_DEADLOCK && st.exc != EXEC_EXC_WARP_SYNC) {
            char a[1200];
            addr_text(c, &st, a, sizeof a);
            printf("    %s\n", a);
        }
        else if (st.msg[0] && st.exc != EXEC_EXC_BARRIER_DEADLOCK)
            printf("    %s\n", st.msg);
    }
    uint32_t ncta = dbg_ncta(m), done = 0, notyet = 0;
    for (uint32_t k = 0; k < ncta; k++) {
        exec_cta_state s = dbg_cta_state(m, k);
        done += s == EXEC_CTA_DONE;
        notyet += s == EXEC_CTA_NOT_STARTED;
    }
    printf("  Blocks: %u completed, block (%u,%u,%u) stopped, %u not started\n", done, b.x, b.y,
           b.z, notyet);
    printf("  Block (%u,%u,%u):\n", b.x, b.y, b.z);
    for (uint32_t k = 0; k < dbg_nwarps(m); k++)
        warp_summary(c, st.cta, k, "    ");
    return 0;
}

int cmd_auto_core_state(void) { return auto_core_on(); }

int cmd_set_auto_core(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (argc != 1 || (strcmp(argv[0], "on") && strcmp(argv[0], "off")))
        return cmd_error(c, "Usage: set auto-core on|off");
    auto_core = !strcmp(argv[0], "on");
    return 0;
}
