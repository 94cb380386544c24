/* cmd_exec.c - execution control commands: continue, step, next, stepi, nexti, finish, until, advance. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "cmd_ui.h"
#include "cmd_prog.h"

static int count_arg(cmd_ctx *c, const char *s, long *n)
{
    if (cmd_parse_long(s, 0, INT_MAX, n) != 0)
        return cmd_error(c, "Invalid count \"%s\".", s);
    return 0;
}

int cmd_continue(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    long n = 0;
    if (argc == 1 && count_arg(c, argv[0], &n) != 0)
        return -1;
    if (c->inproc && !dbg_launch_alive(c->s)) { /* after a fault: back to the host program */
        if (cmd_from_tty(c))
            cmd_ui_textf(c, "Continuing.\n");
        return cmd_inproc_leave(c);
    }
    /* gdb: continue N sets the ignore count of the breakpoint we are stopped at (a deleted one
       is none); "Continuing." as gdb says it, where the command came from a terminal */
    int bp = dbg_stopped_bp(c->s);
    if (bp && !dbg_bp_find(c->s, bp))
        bp = 0;
    if (cmd_from_tty(c)) {
        if (n > 2 && bp)
            cmd_ui_textf(c, "Will ignore next %ld crossings of breakpoint %d.  ", n - 1, bp);
        else if (n == 2 && bp)
            cmd_ui_textf(c, "Will ignore next crossing of breakpoint %d.  ", bp);
        else if (n > 1)
            cmd_ui_textf(c, "Not stopped at any breakpoint; argument ignored.\n");
        cmd_ui_textf(c, "Continuing.\n");
    }
    return cmd_resume(c, n > 1 && bp ? (int)(n - 1) : 0);
}

/* gdb's start: launch (or relaunch the last launch) stopping at the kernel's first line. */
int cmd_start(cmd_ctx *c, const char *args, int argc, char **argv)
{
    if (c->inproc) /* at a stop inside the program: start it again */
        return cmd_inproc_rerun(c, argc, argv, 1);
    if (c->prog) /* a program: run it, stopping at its first kernel's entry */
        return cmd_prog_start(c, argc, argv);
    dbg_request_entry_stop(c->s, 1);
    int rc = argc ? cmd_launch(c, args, argc, argv) : cmd_run(c, args, argc, argv);
    dbg_request_entry_stop(c->s, 0);
    return rc;
}

/* Step `count` times, reporting only the last stop (or the first that is not a plain step). */
static int do_steps(cmd_ctx *c, dbg_step_kind kind, int argc, char **argv, int lane)
{
    long n = 1;
    int k = 0;
    if (argc > k && !strcmp(argv[k], "-lane")) {
        lane = 1;
        k++;
    }
    if (argc > k && count_arg(c, argv[k++], &n) != 0)
        return -1;
    if (argc > k)
        return cmd_error(c, "Junk at end of arguments.");
    dbg_options *o = dbg_opts(c->s);
    int saved = o->lane_steps;
    if (lane)
        o->lane_steps = 1;
    dbg_event ev;
    int rc = 0;
    memset(&ev, 0, sizeof ev);
    for (long i = 0; i < n; i++) {
        int sr = dbg_step(c->s, kind, &ev);
        cmd_report_cond_errors(c, &ev);
        if (sr != 0) {
            rc = cmd_error(c, "%s", dbg_errmsg(c->s));
            break;
        }
        if (ev.kind != DBG_EV_STEP)
            break;
    }
    o->lane_steps = saved;
    if (rc == 0)
        cmd_report_event(c, &ev);
    return rc;
}

int cmd_step(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    return do_steps(c, DBG_STEP_LINE, argc, argv, 0);
}

int cmd_next(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    return do_steps(c, DBG_STEP_LINE_OVER, argc, argv, 0);
}

int cmd_stepi(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    return do_steps(c, DBG_STEP_INSN, argc, argv, 0);
}

int cmd_nexti(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    return do_steps(c, DBG_STEP_INSN_OVER, argc, argv, 0);
}

int cmd_finish(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    dbg_frame fr[DBG_MAX_FRAMES];
    int nf = dbg_frames(c->s, fr, DBG_MAX_FRAMES);
    if (nf <= 1)
        return cmd_error(c, "\"finish\" not meaningful in the outermost frame.");
    int sel = dbg_get_focus(c->s)->frame;
    if (sel + 1 >= nf)
        return cmd_error(c, "\"finish\" not meaningful in the outermost frame.");
    cmd_ui_textf(c, "Run till exit from ");
    cmd_print_frame_line(c, sel, 0);
    dbg_set_frame(c->s, 0);
    /* a real function with a value: run to its ret first to read what it returns */
    const dw_type *rt = sel == 0 ? dbg_frame_return_type(c->s, &fr[0]) : NULL;
    dbg_event ev;
    memset(&ev, 0, sizeof ev);
    uint64_t bits = 0;
    int have = 0;
    if (rt) {
        uint32_t rets[DBG_MAX_LOCS];
        int nr = dbg_func_ret_pcs(c->s, fr[0].func, rets, DBG_MAX_LOCS), here = 0;
        for (int i = 0; i < nr; i++)
            here |= rets[i] == fr[0].pc;
        if (nr && !here) {
            int ar = dbg_advance(c->s, rets, nr, &ev);
            cmd_report_cond_errors(c, &ev);
            if (ar != 0)
                return cmd_error(c, "%s", dbg_errmsg(c->s));
            if (ev.kind != DBG_EV_STEP) {
                cmd_report_event(c, &ev);
                return 0;
            }
        }
        uint32_t pc;
        dbg_frame now;
        if (dbg_focus_frame(c->s, &now) == 0 && now.phys == 0 && dbg_focus_pc(c->s, &pc) == 0)
            have = dbg_return_bits(c->s, fr[0].func, pc, &bits) == 0;
    }
    /* finishing frame `sel` leaves nf - sel - 1 frames */
    do {
        int fr_ = dbg_step(c->s, DBG_STEP_FINISH, &ev);
        cmd_report_cond_errors(c, &ev);
        if (fr_ != 0)
            return cmd_error(c, "%s", dbg_errmsg(c->s));
    } while (ev.kind == DBG_EV_STEP && dbg_frames(c->s, fr, DBG_MAX_FRAMES) > nf - sel - 1);
    if (ev.kind == DBG_EV_STEP)
        ev.new_frame = 1;
    cmd_report_event(c, &ev);
    dbg_value v;
    if (ev.kind == DBG_EV_STEP && have && dbg_value_from_dw(&v, rt, bits) == 0) {
        char out[1024];
        dbg_format_focus(c->s, &v, 0, out, sizeof out);
        dbg_history_push(c->s, &v);
        cmd_ui_textf(c, "Value returned is $%d = %s\n", dbg_session_history(c->s)->nhist, out);
    }
    return 0;
}

static int advance_to(cmd_ctx *c, const char *spec, int any_frame)
{
    char loc[512];
    if (cmd_loc_addr(c, spec, loc, sizeof loc) != 0)
        return -1;
    uint32_t pcs[DBG_MAX_LOCS];
    int n = dbg_resolve_location(c->s, loc, pcs, DBG_MAX_LOCS);
    if (n < 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    dbg_event ev;
    int ar = any_frame ? dbg_advance_any(c->s, pcs, n, &ev) : dbg_advance(c->s, pcs, n, &ev);
    cmd_report_cond_errors(c, &ev);
    if (ar != 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    if (ev.kind == DBG_EV_STEP)
        ev.new_frame = 1;
    cmd_report_event(c, &ev);
    return 0;
}

int cmd_until(cmd_ctx *c, const char *args, int argc, char **argv)
{
    if (argc >= 1)
        return advance_to(c, args, 0);
    return do_steps(c, DBG_STEP_UNTIL, 0, argv, 0);
}

int cmd_advance(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return advance_to(c, args, 1);
}
