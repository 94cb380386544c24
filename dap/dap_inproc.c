/* dap_inproc.c - the DAP server inside a CUDA program: the runtime library hands it every launch; it talks to the adapter over the inherited socket. */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dap.h"
#include "dbg_frontend.h"
#include "dap_int.h"

/* ---------------------------------------------------------------------------------------------
 * PTXDBG_DAP names the descriptor of the adapter's socket (dap_prog.c). At start (the runtime
 * library's constructor, before the program registers its modules) the server reads the
 * adapter's ptxdbg/setup: the launch arguments and the breakpoint requests made so far, which
 * it replays with its answers dropped (the adapter answered them; both number breakpoints the
 * same way). At each launch it shows the launch's module (breakpoints resolve there, and the
 * client hears of those that now resolve), handles what the adapter passed on meanwhile, runs
 * the kernel, and at a stop serves requests until the kernel ends or the client leaves a fault;
 * then the program goes on. SIGURG (the adapter's pause) raises the engine's interrupt flag.
 * ------------------------------------------------------------------------------------------- */
static int state;                /* 0 not started, 1 serving, -1 not debugging */
static dap_srv D;
static dap_reader R;
static volatile int pause_flag;
static pid_t session_pid;

static void on_pause(int sig)
{
    (void)sig;
    pause_flag = 1;
}

/* A process the program forks runs its kernels plainly: the session belongs to the program. */
static void forked(void)
{
    state = -1;
}

/* The adapter is gone: nobody can go on debugging, and the program must not run unobserved. */
static void adapter_gone(void)
{
    state = -1;
    signal(SIGKILL, SIG_DFL);
    kill(getpid(), SIGKILL);
    _exit(137);
}

/* Read and handle one request; blocking. */
static void serve_one(void)
{
    char *body, err[256];
    size_t n;
    int rc = dap_read_msg(&R, &body, &n, err, sizeof err, 0);
    if (rc == 0)
        adapter_gone();
    if (rc < 0)
        return;
    dj *m = dj_parse(body, n, err, sizeof err);
    free(body);
    if (!m) {
        dap_outputf(&D, "stderr", "ptxdbg: malformed message from the adapter (%s).\n", err);
        return;
    }
    dap_handle(&D, m);
    dj_free(m);
}

/* Requests that came while the program ran (breakpoints, pause): handled before a launch. */
static void drain(void)
{
    for (;;) {
        struct pollfd p = {R.fd, POLLIN, 0};
        if (!dap_reader_ready(&R) && poll(&p, 1, 0) <= 0)
            return;
        serve_one();
    }
}

static void setup_command(const char *line, const char *what)
{
    int saved[2];
    dap_capture_begin(&D, saved);
    int rc = dapv_command(D.v, line);
    char *text = dap_capture_end(&D, saved);
    if (rc != 0)
        dap_outputf(&D, "stderr", "ptxdbg: %s \"%s\" failed: %s", what, line,
                    text && *text ? text : "error\n");
    else if (text && *text)
        dap_output(&D, "console", text, strlen(text));
    free(text);
}

static void apply_setup(const dj *a)
{
    D.lines0 = dj_bool(a, "lines0", 0);
    if (dj_bool(a, "stopOnEntry", 0))
        dbg_request_entry_stop(D.s, 1);
    const dj *sc = dj_get(a, "setupCommands");
    for (int i = 0; sc && sc->kind == DJ_ARR && i < sc->count; i++)
        if (sc->items[i]->kind == DJ_STR)
            setup_command(sc->items[i]->str, "setup command");
    /* "check": exactly these checkers (checked by the adapter already) */
    char names[512];
    const dj *cx = dj_get(a, "check");
    if (cx && dap_check_names(cx, names, sizeof names) == 0) {
        setup_command("set check all off", "check");
        char *save = NULL;
        for (char *t = strtok_r(names, ",", &save); t; t = strtok_r(NULL, ",", &save))
            if (strcmp(t, "none")) {
                char line[300];
                snprintf(line, sizeof line, "set check %s on", t);
                setup_command(line, "check");
            }
    }
    const dj *ck = dj_get(a, "checks");
    for (int i = 0; ck && ck->kind == DJ_ARR && i < ck->count; i++)
        if (ck->items[i]->kind == DJ_STR) {
            char line[300];
            snprintf(line, sizeof line, "set check %s on", ck->items[i]->str);
            setup_command(line, "check");
        }
    /* the breakpoint requests the adapter answered already: same numbering, answers dropped */
    const dj *reqs = dj_get(a, "requests");
    D.hold = 1;
    for (int i = 0; reqs && reqs->kind == DJ_ARR && i < reqs->count; i++) {
        djw_free(&D.held);
        djw_init(&D.held);
        dap_handle(&D, reqs->items[i]);
    }
    djw_free(&D.held);
    D.hold = 0;
}

/* PTXDBG_DAP set (by ptxdbg --dap): read the adapter's setup. 1 serving, 0 not asked to, -1 failed. */
static int inproc_start(void)
{
    if (state)
        return state > 0;
    state = -1;
    const char *env = getenv("PTXDBG_DAP");
    if (!env || !*env)
        return 0;
    char *end;
    long fd = strtol(env, &end, 10);
    unsetenv("PTXDBG_DAP"); /* programs this one starts run plainly */
    if (*end || fd < 3 || fd > 65535) {
        fprintf(stderr, "ptxdbg: PTXDBG_DAP=%s is not a descriptor\n", env);
        return -1;
    }
    dbg_session *s = dbg_new();
    if (!s)
        return -1;
    struct sigaction prog;
    sigaction(SIGINT, NULL, &prog);
    dapv *v = dapv_new(s);
    sigaction(SIGINT, &prog, NULL); /* the program's own: the client pauses with SIGURG */
    if (!v)
        return -1;
    dap_srv_init(&D, s, (int)fd);
    D.v = v;
    D.inproc = 1;
    D.initialized = D.launched = D.configured = 1;
    dbg_set_interrupt_flag(s, &pause_flag);
    D.pause_flag = &pause_flag;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_pause;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGURG, &sa, NULL);
    dap_reader_init(&R, (int)fd);
    D.in = &R;
    /* the first message is the setup */
    char *body, err[256];
    size_t n;
    if (dap_read_msg(&R, &body, &n, err, sizeof err, 0) != 1)
        adapter_gone();
    dj *m = dj_parse(body, n, err, sizeof err);
    free(body);
    if (!m || strcmp(dj_str(m, "command", ""), "ptxdbg/setup")) {
        fprintf(stderr, "ptxdbg: the adapter's first message is not its setup\n");
        dj_free(m);
        adapter_gone();
    }
    apply_setup(dj_get(m, "arguments"));
    dap_respond_ok(&D, m);
    dj_free(m);
    state = 1;
    session_pid = getpid();
    pthread_atfork(NULL, NULL, forked);
    return 1;
}

static void inproc_forget(const ptx_module *mod)
{
    if (state == 1 && getpid() == session_pid)
        dbg_forget_module(D.s, mod);
}

static int inproc_launch(ptx_module *mod, exec_machine *m, const char *dir, const ptx_func *k,
                         uint32_t id, exec_stop *out, int *reported)
{
    *reported = 0;
    memset(out, 0, sizeof *out);
    if (state != 1 || getpid() != session_pid)
        return -1;
    if (dbg_use_module(D.s, mod, m, dir) != 0 || dbg_adopt_launch(D.s, k, id) != 0) {
        dap_outputf(&D, "stderr", "ptxdbg: %s\n", dbg_errmsg(D.s));
        return -1;
    }
    dap_bps_refresh(&D);
    drain();
    D.kernel_over = 0;
    D.stopped = 0;
    memset(&D.last, 0, sizeof D.last);
    dap_resume(&D, DAP_RUN_CONTINUE);
    while (!D.kernel_over)
        serve_one();
    int over = 0;
    if (dbg_last_stop(D.s, out, &over) != 0)
        return -1;
    if (out->kind != EXEC_STOP_DONE)
        *reported = 1;
    return 0;
}

static void inproc_set_run_hook(dbg_run_hook fn, void *ctx)
{
    if (state == 1)
        dbg_set_run_hook(D.s, fn, ctx);
}

static void inproc_interrupt(void)
{
    __atomic_store_n(&pause_flag, 1, __ATOMIC_RELAXED);
}

/* The DAP server's table for the runtime library: asked first (an editor's session), no
 * checkers' session of its own for the runtime (the launch arguments set the checkers). */
static const dbg_frontend inproc_dap = {
    .name = "dap",
    .priority = 20,
    .start = inproc_start,
    .launch = inproc_launch,
    .module_loaded = inproc_forget,
    .module_unloading = inproc_forget,
    .interrupt = inproc_interrupt,
    .set_run_hook = inproc_set_run_hook,
};

__attribute__((constructor(200))) static void inproc_register(void)
{
    char err[160];
    if (dbg_frontend_register(&inproc_dap, err, sizeof err) != 0)
        fprintf(stderr, "ptxdbg: %s\n", err);
}
