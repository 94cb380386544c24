/* cmd_inproc.c - the debugger inside a CUDA program: the session `run` set up, at every launch. */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd.h"
#include "cmd_prog.h"
#include "cmd_ui.h"
#include "chk.h"
#include "dbg_frontend.h"

/* ---------------------------------------------------------------------------------------------
 * The runtime library starts this session when PTXDBG_SESSION names a session folder (written by
 * the parent's `run`, cmd_prog.c). The session replays the setup log silently, takes the
 * parent's command frames (what is left of the -ex/-x list, scripts, bodies and loops `run`
 * came from) above its terminal, then every launch runs through cmd_inproc_launch: the launch
 * becomes the session's current launch on its module's machine (dbg_use_module /
 * dbg_adopt_launch), runs until something stops it, and at a stop the command feed reads the
 * frames, then (not in batch mode) the terminal, until the kernel completes or `continue`
 * after a fault returns to the host program with the sticky error (the hold hook: the frames
 * wait for the next stop). Whenever the program gets control back, and at its end, the
 * session writes what is left of the frames, the state (breakpoint counters, value history)
 * and the setup log with the lines typed here for the parent. `kill`, `quit`, `run` and the
 * end of a batch's commands at a stop end the program. The session's output is logged and
 * paged only at stops: the program's own output goes straight to its streams.
 * ------------------------------------------------------------------------------------------- */

static int state;                 /* 0 not started, 1 debugging, -1 not debugging */
static cmd_ctx C;
static char sdir[PATH_MAX];       /* the session folder */
static int fault_seen;            /* a kernel faulted (batch exit status) */
static int leave;                 /* `continue` at a fault: back to the host program */
static struct sigaction dbg_sigint; /* the debugger's SIGINT handler (interrupts a kernel) */
static pid_t session_pid;         /* a child the program forks is not the session */
static void (*leak_lister)(chk_ctx *k); /* the runtime's allocations (set check leaks) */

static char *slurp(const char *name, size_t *len)
{
    size_t n;
    char *text = cmd_prog_file_read(sdir, name, &n);
    if (len)
        *len = n;
    return text;
}

static int spew(const char *name, const char *text, size_t n)
{
    return cmd_prog_file_write(sdir, name, text, n);
}

/* What the parent goes on with; extra: "kill\n", "rerun\n...", "quit N\n" or "". */
static void write_back(const char *extra)
{
    char *res = NULL, *frames = NULL;
    size_t n = 0, fl = 0;
    FILE *f = open_memstream(&res, &n);
    if (f) {
        fprintf(f, "%s%s%s", fault_seen || C.kernel_failed ? "fault\n" : "",
                C.failed ? "failed\n" : "", extra);
        cmd_state_write(&C, f);
        if (fclose(f) == 0)
            spew("result", res, n);
    }
    free(res);
    if (cmd_feed_export(&C, &frames, &fl) == 0)
        spew("input", frames ? frames : "", fl);
    free(frames);
    size_t len;
    const char *log = cmd_prog_log(&C, &len);
    spew("setup", log, len);
}

static chk_ctx *inproc_checks(void) { return state == 1 ? dbg_checks(C.s) : NULL; }
static void inproc_set_leak_lister(void (*fn)(chk_ctx *k)) { leak_lister = fn; }

/* The program ends: the leak check (set check leaks; not when the session ends it, mid-run),
 * the checkers' summaries and report; a finding fails a batch run (written back as a fault). */
static void check_at_exit(int leaks)
{
    chk_ctx *k = dbg_checks(C.s);
    int before = chk_count(k);
    if (leaks && C.opt.check_leaks && leak_lister) {
        leak_lister(k);
        for (int i = before; i < chk_count(k); i++) {
            char buf[2048];
            chk_format(chk_at(k, i), "", buf, sizeof buf);
            fprintf(C.batch ? stderr : stdout, "\nmemcheck: %s", buf);
        }
    }
    cmd_check_finish(&C);
    if (chk_errors(k) && C.batch)
        C.kernel_failed = 1;
}

static void at_exit(void)
{
    if (state == 1 && getpid() == session_pid) {
        check_at_exit(1);
        write_back("");
    }
}

/* End the program now (kill, quit, run, the end of a batch's commands at a stop). */
static void end_program(const char *extra)
{
    cmd_out_hold(1);
    fflush(stdout);
    check_at_exit(0);
    fflush(stderr);
    write_back(extra);
    state = -1;
    signal(SIGKILL, SIG_DFL);
    kill(getpid(), SIGKILL);
    _exit(137);
}

/* Whether the stop the user is at is over: the kernel completed, or `continue` at a fault. */
static int launch_over(void)
{
    if (leave)
        return 1;
    if (dbg_launch_alive(C.s))
        return 0;
    exec_stop st;
    int over = 0;
    if (dbg_last_stop(C.s, &st, &over) != 0)
        return 1;
    return st.kind == EXEC_STOP_DONE;
}

static int hold(cmd_ctx *c)
{
    (void)c;
    return launch_over();
}

/* The terminal at a stop: in batch mode the commands are done, which ends the program; at the
 * end of the terminal's input gdb quits. */
static char *stop_term(cmd_ctx *c, const char *prompt)
{
    if (c->batch)
        end_program("kill\n");
    char *line = cmd_read_line(c, prompt);
    if (!line)
        end_program("kill\n");
    return line;
}

/* ---- start ----------------------------------------------------------------------------------- */
static void read_config(int values)
{
    char *cfg = slurp("config", NULL);
    for (char *q = cfg; q && *q;) {
        char *nl = strchr(q, '\n');
        unsigned long long v = 0;
        if (sscanf(q, "batch %llu", &v) == 1)
            C.batch = (int)v;
        else if (sscanf(q, "threads %llu", &v) == 1)
            dbg_opts(C.s)->threads = (int)v;
        else if (sscanf(q, "max-steps %llu", &v) == 1)
            dbg_opts(C.s)->run_max_steps = v;
        else if (sscanf(q, "schedule %llu", &v) == 1) {   /* set scheduler random SEED */
            dbg_opts(C.s)->schedule_random = 1;
            dbg_opts(C.s)->schedule_seed = v;
        }
        else if (sscanf(q, "entry %llu", &v) == 1 && v)
            dbg_request_entry_stop(C.s, 1); /* `start`: the first launch stops at its entry */
        q = nl ? nl + 1 : q + strlen(q);
    }
    if (cfg && values)
        cmd_state_read(&C, cfg, 1); /* once the breakpoints exist: their counters, values */
    free(cfg);
}

/* Start the session PTXDBG_SESSION names, once: 1 debugging, 0 not asked to, -1 failed (said on
 * stderr; the program then runs plainly). */
static int inproc_start(void)
{
    if (state)
        return state > 0;
    state = -1;
    const char *env = getenv("PTXDBG_SESSION");
    if (!env || !*env)
        return 0;
    snprintf(sdir, sizeof sdir, "%s", env);
    unsetenv("PTXDBG_SESSION"); /* programs this one starts run plainly */
    dbg_session *s = dbg_new();
    if (!s) {
        fprintf(stderr, "ptxdbg: cannot start the debugger session: out of memory\n");
        return -1;
    }
    struct sigaction prog;
    sigaction(SIGINT, NULL, &prog);
    cmd_ctx_init(&C, s);
    sigaction(SIGINT, &prog, &dbg_sigint); /* the program's own until a kernel runs */
    C.inproc = 1;
    C.kernel_events = 0;
    C.hold = hold;
    C.term_hook = stop_term;
    if (cmd_prog_set(&C, "", NULL, 0) != 0)
        return -1;
    read_config(0);
    /* in a batch run findings are reports, not stops (set check stop on restores them) */
    if (C.batch)
        chk_set_stop(dbg_checks(C.s), 0);
    char *log = slurp("setup", NULL);
    if (log) {
        cmd_prog_set_log(&C, log, strlen(log));
        cmd_prog_replay(&C, log);
        free(log);
    }
    read_config(1);
    size_t alen = 0;
    char *actions = slurp("actions", &alen);
    if (cmd_feed_push_term(&C, NULL) != 0 ||
        (actions && cmd_feed_import(&C, actions, alen) != 0))
        fprintf(stderr, "ptxdbg: the commands after \"run\" could not be read\n");
    free(actions);
    cmd_out_hold(1); /* the program runs: its output is its own */
    state = 1;
    session_pid = getpid();
    atexit(at_exit);
    return 1;
}

/* ---- launches -------------------------------------------------------------------------------- */
static int resume_launch(cmd_ctx *c)
{
    return cmd_resume(c, 0);
}

/* A launch the runtime started: stops, the user's commands, until the kernel completes or faulted
 * and the user goes on (dbg_frontend.h's launch). */
static int inproc_launch(ptx_module *mod, exec_machine *m, const char *dir, const ptx_func *k,
                         uint32_t id, exec_stop *out, int *reported)
{
    *reported = 0;
    memset(out, 0, sizeof *out);
    if (state != 1 || getpid() != session_pid)
        return -1;
    if (dbg_use_module(C.s, mod, m, dir) != 0 || dbg_adopt_launch(C.s, k, id) != 0) {
        fprintf(stderr, "ptxdbg: %s\n", dbg_errmsg(C.s));
        return -1;
    }
    struct sigaction prog;
    sigaction(SIGINT, &dbg_sigint, &prog);
    leave = 0;
    C.shown_launch = -1;
    fflush(stdout);
    /* a stop: the session's output is logged and paged (the terminal's, with readline) */
    cmd_out_hold(0);
    int paging = !C.batch && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
    if (paging) {
        cmd_out_pager(&C, 1);
        cmd_out_new_command();
    }
    /* JSON mode: the report of the stop the launch ran to (text; its stop object goes out as
       it is made) is the debugger's, not the program's: a "console" output object */
    cmd_ui_console(&C, resume_launch);
    int stopped = !launch_over();
    cmd_feed_run(&C, 0); /* at the stops, until the kernel is over (the frames wait) */
    if (C.quit)
        cmd_inproc_quit(&C);
    if (!launch_over()) /* the feed ended at a stop */
        end_program("kill\n");
    fflush(stdout);
    if (paging)
        cmd_out_pager(&C, 0);
    if (stopped) /* what the parent goes on with, should the program end abruptly */
        write_back("");
    cmd_out_hold(1);
    sigaction(SIGINT, &prog, NULL);
    int over = 0;
    if (dbg_last_stop(C.s, out, &over) != 0)
        return -1;
    if (out->kind != EXEC_STOP_DONE) {
        fault_seen = 1;
        *reported = 1;
    }
    return 0;
}

/* The runtime loaded a module or is about to free one. */
static void inproc_forget(const ptx_module *mod)
{
    if (state == 1)
        dbg_forget_module(C.s, mod);
}

/* Kernels run on the runtime's stream threads while host threads go on: the runtime's hook
 * around every run of the session, and the session's interrupt flag raised for it (a kernel the
 * runtime needs to park), as Ctrl-C would. */
static void inproc_set_run_hook(dbg_run_hook fn, void *ctx)
{
    if (state == 1)
        dbg_set_run_hook(C.s, fn, ctx);
}

static void inproc_interrupt(void)
{
    cmd_interrupt();
}

/* The CLI's table for the runtime library: asked after the DAP server (whose parent set
 * PTXDBG_DAP), registered before the runtime's constructor asks (constructors with a priority
 * run before those without). */
static const dbg_frontend inproc_cli = {
    .name = "cli",
    .priority = 10,
    .start = inproc_start,
    .launch = inproc_launch,
    .module_loaded = inproc_forget,
    .module_unloading = inproc_forget,
    .interrupt = inproc_interrupt,
    .set_run_hook = inproc_set_run_hook,
    .checks = inproc_checks,
    .set_leak_lister = inproc_set_leak_lister,
};

__attribute__((constructor(200))) static void inproc_register(void)
{
    char err[160];
    if (dbg_frontend_register(&inproc_cli, err, sizeof err) != 0)
        fprintf(stderr, "ptxdbg: %s\n", err);
}

/* ---- run / kill / quit / continue at a stop -------------------------------------------------- */
int cmd_inproc_rerun(cmd_ctx *c, int argc, char **argv, int entry)
{
    if (!cmd_confirm(c, "The program being debugged has been started already.\n"
                        "Start it from the beginning?"))
        return cmd_error(c, "Program not restarted.");
    size_t cap = 64, n = 0;
    for (int i = 0; i < argc; i++)
        cap += strlen(argv[i]) + 8;
    char *extra = malloc(cap);
    if (!extra)
        end_program("rerun\n");
    n += (size_t)snprintf(extra, cap, "rerun\n%s", entry ? "entry 1\n" : "");
    if (argc > 0) /* run ARGS: new arguments */
        n += (size_t)snprintf(extra + n, cap - n, "args %d\n", argc);
    for (int i = 0; i < argc; i++)
        n += (size_t)snprintf(extra + n, cap - n, "arg %s\n", argv[i]);
    end_program(extra);
    return 0;
}

int cmd_inproc_kill(cmd_ctx *c)
{
    if (!cmd_confirm(c, "Kill the program being debugged?"))
        return cmd_error(c, "Not confirmed.");
    end_program("kill\n");
    return 0;
}

int cmd_inproc_quit(cmd_ctx *c)
{
    char extra[64];
    snprintf(extra, sizeof extra, "kill\nquit %d\n", c->quit > 1 ? c->quit & 0xff : -1);
    end_program(extra);
    return 0;
}

int cmd_inproc_leave(cmd_ctx *c)
{
    (void)c;
    leave = 1;
    return 0;
}
