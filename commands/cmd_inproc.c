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

/* ---------------------------------------------------------------------------------------------
 * The runtime library starts this session when PTXDBG_SESSION names a session folder (written by
 * the parent's `run`, cmd_prog.c). The session replays the setup log silently, then every launch
 * runs through cmd_inproc_launch: the launch becomes the session's current launch on its
 * module's machine (dbg_use_module / dbg_adopt_launch), runs until something stops it, and at a
 * stop the user's commands are read - first the parent's remaining -ex/-x commands, then (not in
 * batch mode) the terminal - until the kernel completes, or `continue` after a fault returns to
 * the host program with the sticky error. At exit the result file tells the parent how many
 * commands were used and how the session ended; the setup log goes back with the lines typed
 * here. `kill`, `quit`, `run` and the end of a batch's commands at a stop end the program.
 * ------------------------------------------------------------------------------------------- */

static int state;                 /* 0 not started, 1 debugging, -1 not debugging */
static cmd_ctx C;
static char sdir[PATH_MAX];       /* the session folder */
static char **acts;               /* remaining -ex/-x commands: "e CMD" / "x PATH" */
static int nacts, next_act;
static int fault_seen;            /* a kernel faulted (batch exit status) */
static int leave;                 /* `continue` at a fault: back to the host program */
static struct sigaction dbg_sigint; /* the debugger's SIGINT handler (interrupts a kernel) */
static pid_t session_pid;         /* a child the program forks is not the session */

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

/* The result for the parent; extra: "kill\n", "rerun\n...", "quit N\n" or "". Breakpoint hit
 * counts go back too ("hits NUM COUNT"), as gdb's accumulate over runs. */
static void write_back(const char *extra)
{
    size_t cap = 256 + strlen(extra) + (size_t)dbg_bp_count(C.s) * 32, n = 0;
    char *res = malloc(cap);
    if (!res)
        return;
    n += (size_t)snprintf(res, cap, "consumed %d\n%s%s%s", next_act,
                          fault_seen || C.kernel_failed ? "fault\n" : "",
                          C.failed ? "failed\n" : "", extra);
    for (int i = 0; i < dbg_bp_count(C.s) && n < cap; i++) {
        const dbg_bp *b = dbg_bp_at(C.s, i);
        n += (size_t)snprintf(res + n, cap - n, "hits %d %d\n", b->num, b->hits);
    }
    spew("result", res, n < cap ? n : cap - 1);
    free(res);
    size_t len;
    const char *log = cmd_prog_log(&C, &len);
    spew("setup", log, len);
}

static void at_exit(void)
{
    if (state == 1 && getpid() == session_pid)
        write_back("");
}

/* End the program now (kill, quit, run, the end of a batch's commands at a stop). */
static void end_program(const char *extra)
{
    fflush(stdout);
    fflush(stderr);
    write_back(extra);
    state = -1;
    signal(SIGKILL, SIG_DFL);
    kill(getpid(), SIGKILL);
    _exit(137);
}

/* ---- inputs ---------------------------------------------------------------------------------- */
/* Lines of a text in memory (the setup log). */
typedef struct {
    const char *p;
} mem_cursor;

static char *mem_next(cmd_input *in, const char *prompt)
{
    (void)prompt;
    mem_cursor *cur = in->ctx;
    if (!*cur->p)
        return NULL;
    size_t n = strcspn(cur->p, "\n");
    char *line = strndup(cur->p, n);
    cur->p += n + (cur->p[n] == '\n');
    return line;
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

static char *stop_next(cmd_input *in, const char *prompt)
{
    (void)in;
    if (launch_over() || C.quit)
        return NULL;
    if (next_act < nacts) {
        const char *a = acts[next_act++];
        if (a[0] == 'x') { /* -x FILE: source it */
            size_t n = strlen(a) + 16;
            char *line = malloc(n);
            if (line)
                snprintf(line, n, "source %s", a + 2);
            return line;
        }
        return strdup(a[0] && a[1] ? a + 2 : "");
    }
    if (C.batch) /* the batch's commands are done while the program is stopped: end it */
        end_program("kill\n");
    return cmd_read_line(&C, prompt);
}

/* ---- start ----------------------------------------------------------------------------------- */
static void read_config(void)
{
    char *cfg = slurp("config", NULL);
    int num, hits;
    for (char *q = cfg; q && *q;) {
        char *nl = strchr(q, '\n');
        if (nl)
            *nl = 0;
        unsigned long long v = 0;
        if (sscanf(q, "batch %llu", &v) == 1)
            C.batch = (int)v;
        else if (sscanf(q, "threads %llu", &v) == 1)
            dbg_opts(C.s)->threads = (int)v;
        else if (sscanf(q, "max-steps %llu", &v) == 1)
            dbg_opts(C.s)->run_max_steps = v;
        else if (sscanf(q, "entry %llu", &v) == 1 && v)
            dbg_request_entry_stop(C.s, 1); /* `start`: the first launch stops at its entry */
        else if (sscanf(q, "hits %d %d", &num, &hits) == 2 && dbg_bp_find(C.s, num))
            dbg_bp_find(C.s, num)->hits = hits;
        q = nl ? nl + 1 : q + strlen(q);
    }
    free(cfg);
}

static void read_actions(void)
{
    char *text = slurp("actions", NULL);
    for (char *q = text; q && *q;) {
        char *nl = strchr(q, '\n');
        size_t n = nl ? (size_t)(nl - q) : strlen(q);
        char **na = realloc(acts, (size_t)(nacts + 1) * sizeof *na);
        if (!na)
            break;
        acts = na;
        if (!(acts[nacts] = strndup(q, n)))
            break;
        nacts++;
        q += n + (nl != NULL);
    }
    free(text);
}

/* Replay the setup log with the session's output silenced (it was shown when typed). */
static void replay_setup(void)
{
    char *log = slurp("setup", NULL);
    if (!log)
        return;
    cmd_prog_set_log(&C, log, strlen(log));
    fflush(stdout);
    fflush(stderr);
    int out = dup(1), err = dup(2), null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, 1);
        dup2(null, 2);
        close(null);
    }
    mem_cursor cur = {log};
    cmd_input in = {mem_next, &cur, 0};
    C.replaying = 1;
    int failed = C.failed;
    cmd_run_input(&C, &in, NULL);
    C.failed = failed;
    C.replaying = 0;
    fflush(stdout);
    fflush(stderr);
    if (out >= 0) {
        dup2(out, 1);
        close(out);
    }
    if (err >= 0) {
        dup2(err, 2);
        close(err);
    }
    free(log);
}

int cmd_inproc_start(void)
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
    if (cmd_prog_set(&C, "", NULL, 0) != 0)
        return -1;
    read_config();
    read_actions();
    replay_setup();
    read_config(); /* again once the breakpoints exist: their hit counts */
    state = 1;
    session_pid = getpid();
    atexit(at_exit);
    return 1;
}

/* ---- launches -------------------------------------------------------------------------------- */
int cmd_inproc_launch(ptx_module *mod, exec_machine *m, const char *dir, const ptx_func *k,
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
    cmd_resume(&C, 0);
    if (!launch_over()) {
        cmd_input in = {stop_next, NULL, 0};
        cmd_run_input(&C, &in, C.batch ? NULL : "(ptxdbg) ");
        if (C.quit)
            cmd_inproc_quit(&C);
        if (!launch_over()) /* end of the terminal's input at a stop: gdb quits */
            end_program("kill\n");
    }
    fflush(stdout);
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

void cmd_inproc_forget(const ptx_module *mod)
{
    if (state == 1)
        dbg_forget_module(C.s, mod);
}

void cmd_inproc_set_run_hook(dbg_run_hook fn, void *ctx)
{
    if (state == 1)
        dbg_set_run_hook(C.s, fn, ctx);
}

void cmd_inproc_interrupt(void)
{
    cmd_interrupt();
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
