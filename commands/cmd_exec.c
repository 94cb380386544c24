/* cmd_exec.c - execution control commands: continue, step, next, stepi, nexti, finish, until, advance. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"

static int count_arg(cmd_ctx *c, const char *s, long *n)
{
    char *end;
    *n = strtol(s, &end, 0);
    if (*end || end == s || *n < 0)
        return cmd_error(c, "Invalid count \"%s\".", s);
    return 0;
}

int cmd_continue(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    long n = 0;
    if (argc == 1 && count_arg(c, argv[0], &n) != 0)
        return -1;
    if (!dbg_launch_alive(c->s))
        return cmd_error(c, "The program is not being run.");
    if (n > 1) {
        /* gdb: continue N sets the ignore count of the breakpoint we are stopped at */
        printf("Will ignore next %ld crossings of breakpoint.  Continuing.\n", n - 1);
    }
    return cmd_resume(c, n > 1 ? (int)(n - 1) : 0);
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
        if (dbg_step(c->s, kind, &ev) != 0) {
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
    if (!dbg_launch_alive(c->s))
        return cmd_error(c, "The program is not being run.");
    exec_frame fr[64];
    int nf = dbg_backtrace(c->s, fr, 64);
    if (nf <= 1)
        return cmd_error(c, "\"finish\" not meaningful in the outermost frame.");
    printf("Run till exit from ");
    cmd_print_frame_line(c, 0, 0);
    dbg_event ev;
    if (dbg_step(c->s, DBG_STEP_FINISH, &ev) != 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    if (ev.kind == DBG_EV_STEP)
        ev.new_frame = 1;
    cmd_report_event(c, &ev);
    return 0;
}

static int advance_to(cmd_ctx *c, const char *loc)
{
    uint32_t pcs[DBG_MAX_LOCS];
    int n = dbg_resolve_location(c->s, loc, pcs, DBG_MAX_LOCS);
    if (n < 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    dbg_event ev;
    if (dbg_advance(c->s, pcs, n, &ev) != 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    if (ev.kind == DBG_EV_STEP)
        ev.new_frame = 1;
    cmd_report_event(c, &ev);
    return 0;
}

int cmd_until(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (argc == 1)
        return advance_to(c, argv[0]);
    return do_steps(c, DBG_STEP_UNTIL, 0, argv, 0);
}

int cmd_advance(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    return advance_to(c, argv[0]);
}
