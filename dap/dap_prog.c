/* dap_prog.c - the adapter's side of a CUDA program's DAP session: start the program with the runtime library, relay between the client and the engine inside it. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "dap_prog.h"
#include "cmd_pipe.h"

/* ---------------------------------------------------------------------------------------------
 * The kernels of a CUDA program run inside it (their memory is the program's), so the engine
 * does too: the runtime library starts a DAP server there (dap_inproc.c) that talks to this
 * adapter over a socket the program inherits (PTXDBG_DAP names its descriptor). The program's
 * stdout and stderr are pipes this adapter turns into output events (cmd_pipe.c, shared with
 * JSON mode's `run`), drained before a message from the program is passed on so the output
 * written before a stop comes before it; its stdin is /dev/null (stdin is the protocol).
 *
 * Before the program starts, the adapter answers everything itself; breakpoint requests run on
 * a session without a module (all pending) and are recorded. At configurationDone the program
 * starts and gets the launch arguments and the recorded requests first (ptxdbg/setup), so the
 * engine inside numbers breakpoints as the adapter did. While the program is stopped in a
 * kernel, every request goes to it and its answers come back (sequence numbers rewritten);
 * while it runs (host code or a kernel) the adapter answers breakpoint requests itself (and
 * passes them on, the program's answers dropped), `pause` by sending SIGURG (the engine's
 * interrupt; between kernels the next kernel stops at once), and refuses inspection.
 * `disconnect` and `terminate` end the program.
 * ------------------------------------------------------------------------------------------- */
typedef struct {
    int64_t aseq;             /* the seq the adapter gave the forwarded request */
    int64_t cseq;             /* the client's seq (0: the answer is dropped) */
} dap_fwd;

struct dap_prog {
    char *path;
    char **argv;              /* path + args, NULL-terminated */
    char **env;               /* NAME=VALUE pairs to set */
    int nenv;
    char *setup;              /* the ptxdbg/setup arguments (JSON object text) */
    dj_w replay;              /* breakpoint requests so far (array members) */
    pid_t pid;
    int started, exited;
    int sock;                 /* -1 once closed */
    cmd_pipes io;             /* the program's stdout and stderr */
    dap_reader from;
    int child_stopped;
    dap_fwd *fw;
    int nfw, capfw;
    int64_t next_aseq;
    dbg_session **pre;        /* the fat binary's modules, one session each */
    dapv **prev;              /* their value layers (demangling, conditions) */
    int npre;
};

const char *dap_prog_path(const dap_srv *d)
{
    return d->prog ? d->prog->path : NULL;
}

int dap_prog_sessions(dap_srv *d, dbg_session ***ss, dapv ***vs)
{
    *ss = d->prog ? d->prog->pre : NULL;
    *vs = d->prog ? d->prog->prev : NULL;
    return d->prog ? d->prog->npre : 0;
}

static void add_pre(void *ctx, const char *ptx, size_t len)
{
    struct dap_prog *p = ctx;
    dbg_session **np = realloc(p->pre, (size_t)(p->npre + 1) * sizeof *np);
    if (np)
        p->pre = np;
    dapv **nv = np ? realloc(p->prev, (size_t)(p->npre + 1) * sizeof *nv) : NULL;
    if (!nv)
        return;
    p->prev = nv;
    dbg_session *s = dbg_new();
    dapv *v = s ? dapv_new(s) : NULL;
    if (v && dbg_load_text(s, ptx, len, "") == 0) {
        p->pre[p->npre] = s;
        p->prev[p->npre++] = v;
        return;
    }
    dapv_free(v);
    dbg_free(s);
}

int dap_prog_is_executable(const char *path)
{
    unsigned char h[20];
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, h, sizeof h);
    close(fd);
    return n == 20 && h[0] == 0x7f && h[1] == 'E' && h[2] == 'L' && h[3] == 'F' &&
           (h[18] | h[19] << 8) != 190;
}

void dap_prog_free(dap_srv *d)
{
    struct dap_prog *p = d->prog;
    if (!p)
        return;
    if (p->started && !p->exited) {
        kill(p->pid, SIGKILL);
        waitpid(p->pid, NULL, 0);
    }
    for (char **a = p->argv; a && *a; a++)
        free(*a);
    free(p->argv);
    for (int i = 0; i < p->nenv; i++)
        free(p->env[i]);
    free(p->env);
    free(p->path);
    free(p->setup);
    free(p->fw);
    for (int i = 0; i < p->npre; i++) {
        dapv_free(p->prev[i]);
        dbg_free(p->pre[i]);
    }
    free(p->pre);
    free(p->prev);
    djw_free(&p->replay);
    dap_reader_free(&p->from);
    if (p->sock >= 0)
        close(p->sock);
    cmd_pipes_close(&p->io);
    free(p);
    d->prog = NULL;
}

void dap_prog_launch(dap_srv *d, const dj *req, const dj *a)
{
    const char *prog = dj_str(a, "program", "");
    if (access(prog, X_OK) != 0) {
        dap_respond_err(d, req, "launch: \"%s\" is not an executable file.", prog);
        return;
    }
    char lib[PATH_MAX];
    if (dapv_libdir(lib, sizeof lib) != 0) {
        dap_respond_err(d, req, "launch: the CUDA runtime library (libcudart.so.13) is not built "
                        "(looked in %s; run make).", lib);
        return;
    }
    if (dj_get(a, "kernel")) {
        dap_respond_err(d, req, "launch: \"kernel\" is for a PTX file; a CUDA program launches "
                        "its own kernels.");
        return;
    }
    const dj *args = dj_get(a, "args"), *env = dj_get(a, "env");
    if ((args && args->kind != DJ_ARR) || (env && env->kind != DJ_OBJ)) {
        dap_respond_err(d, req, "launch: \"args\" is an array of strings and \"env\" an object "
                        "of strings.");
        return;
    }
    for (int i = 0; args && i < args->count; i++)
        if (args->items[i]->kind != DJ_STR) {
            dap_respond_err(d, req, "launch: args[%d] is not a string.", i);
            return;
        }
    for (int i = 0; env && i < env->count; i++)
        if (env->items[i]->kind != DJ_STR || !env->keys[i][0] || strchr(env->keys[i], '=')) {
            dap_respond_err(d, req, "launch: env.%s is not a string variable.", env->keys[i]);
            return;
        }
    const dj *setup = dj_get(a, "setupCommands"), *checks = dj_get(a, "checks");
    const dj *check = dj_get(a, "check");
    if ((setup && setup->kind != DJ_ARR) || (checks && checks->kind != DJ_ARR)) {
        dap_respond_err(d, req, "launch: setupCommands and checks are arrays of strings.");
        return;
    }
    /* the checks must exist: `set check NAME on` works in this session too */
    if (checks || check) {
        dj_w sub;
        djw_init(&sub);
        djw_obj(&sub, NULL);
        if (check)
            djw_value(&sub, "check", check);
        if (checks)
            djw_value(&sub, "checks", checks);
        djw_obj_end(&sub);
        dj *only = dj_parse(sub.p, sub.len, NULL, 0);
        djw_free(&sub);
        int rc = only ? dap_launch_setup(d, req, only) : -1;
        dj_free(only);
        if (rc != 0)
            return;
    }
    struct dap_prog *p = calloc(1, sizeof *p);
    if (!p) {
        dap_respond_err(d, req, "launch: out of memory.");
        return;
    }
    p->sock = -1;
    p->io.fd[0] = p->io.fd[1] = p->io.wfd[0] = p->io.wfd[1] = -1;
    p->path = realpath(prog, NULL);
    if (!p->path)
        p->path = strdup(prog);
    int na = args ? args->count : 0;
    p->argv = calloc((size_t)na + 2, sizeof *p->argv);
    p->env = calloc((size_t)(env ? env->count : 0) + 1, sizeof *p->env);
    if (!p->path || !p->argv || !p->env) {
        free(p->path);
        free(p->argv);
        free(p->env);
        free(p);
        dap_respond_err(d, req, "launch: out of memory.");
        return;
    }
    p->argv[0] = strdup(p->path);
    for (int i = 0; i < na; i++)
        p->argv[i + 1] = strdup(args->items[i]->str);
    for (int i = 0; env && i < env->count; i++) {
        size_t n = strlen(env->keys[i]) + env->items[i]->len + 2;
        if ((p->env[p->nenv] = malloc(n)))
            snprintf(p->env[p->nenv++], n, "%s=%s", env->keys[i], env->items[i]->str);
    }
    dj_w w;
    djw_init(&w);
    djw_obj(&w, NULL);
    djw_bool(&w, "stopOnEntry", d->stop_on_entry);
    djw_bool(&w, "lines0", d->lines0);
    if (setup)
        djw_value(&w, "setupCommands", setup);
    if (check)
        djw_value(&w, "check", check);
    if (checks)
        djw_value(&w, "checks", checks);
    djw_obj_end(&w);
    p->setup = strdup(djw_text(&w));
    djw_free(&w);
    djw_init(&p->replay);
    djw_arr(&p->replay, NULL);
    p->next_aseq = 1;
    dbg_program_ptx(p->path, add_pre, p);
    d->prog = p;
    d->launched = 1;
    dap_respond_ok(d, req);
    dj_w e;
    dap_begin_event(d, &e, "initialized");
    dap_send(d, &e);
}

/* ---- starting the program -------------------------------------------------------------------- */
static int write_all(int fd, const char *s, size_t n)
{
    return dap_write_msg(fd, s, n);
}

static void start_child(struct dap_prog *p, int sock, const char *lib)
{
    cmd_pipes_child(&p->io);
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0) {
        dup2(null, 0);
        close(null);
    }
    char num[16];
    snprintf(num, sizeof num, "%d", sock);
    if (sock >= 0) /* noDebug: the program runs plainly, on the runtime library */
        setenv("PTXDBG_DAP", num, 1);
    else
        unsetenv("PTXDBG_DAP");
    const char *old = getenv("LD_LIBRARY_PATH");
    size_t n = strlen(lib) + (old ? strlen(old) : 0) + 2;
    char *ld = malloc(n);
    if (ld) {
        snprintf(ld, n, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
        setenv("LD_LIBRARY_PATH", ld, 1);
    }
    for (int i = 0; i < p->nenv; i++)
        putenv(p->env[i]);
    signal(SIGINT, SIG_DFL);
    signal(SIGURG, SIG_DFL);
    execv(p->path, p->argv);
    fprintf(stderr, "Cannot exec %s: %s.\n", p->path, strerror(errno));
    _exit(127);
}

static int start_program(dap_srv *d, struct dap_prog *p)
{
    char lib[PATH_MAX];
    int sv[2];
    if (dapv_libdir(lib, sizeof lib) != 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        return -1;
    if (cmd_pipes_open(&p->io) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(sv[0]);
        close(d->out_fd);
        if (d->no_debug)
            close(sv[1]);
        start_child(p, d->no_debug ? -1 : sv[1], lib);
    }
    close(sv[1]);
    cmd_pipes_parent(&p->io);
    p->pid = pid;
    p->started = 1;
    p->sock = sv[0];
    fcntl(p->sock, F_SETFD, FD_CLOEXEC);
    dap_reader_init(&p->from, p->sock);
    if (d->no_debug) { /* nothing to say to it: the relay passes its output and status */
        close(p->sock);
        p->sock = -1;
        return 0;
    }
    /* the launch arguments and the breakpoint requests so far */
    djw_arr_end(&p->replay);
    dj_w w;
    djw_init(&w);
    djw_obj(&w, NULL);
    djw_int(&w, "seq", 0);
    djw_str(&w, "type", "request");
    djw_str(&w, "command", "ptxdbg/setup");
    djw_obj(&w, "arguments");
    dj *setup = dj_parse(p->setup, strlen(p->setup), NULL, 0);
    for (int i = 0; setup && i < setup->count; i++)
        djw_value(&w, setup->keys[i], setup->items[i]);
    dj_free(setup);
    dj *rep = dj_parse(p->replay.p, p->replay.len, NULL, 0);
    djw_value(&w, "requests", rep);
    dj_free(rep);
    djw_obj_end(&w);
    djw_obj_end(&w);
    int rc = w.err ? -1 : write_all(p->sock, w.p, w.len);
    djw_free(&w);
    /* later breakpoint requests are recorded again for a restart (none yet) */
    djw_free(&p->replay);
    djw_init(&p->replay);
    djw_arr(&p->replay, NULL);
    return rc;
}

/* ---- relaying -------------------------------------------------------------------------------- */
static void forward(dap_srv *d, struct dap_prog *p, const dj *req, int drop)
{
    if (p->sock < 0)
        return;
    if (p->nfw == p->capfw) {
        int cap = p->capfw ? p->capfw * 2 : 16;
        dap_fwd *nf = realloc(p->fw, (size_t)cap * sizeof *nf);
        if (!nf)
            return;
        p->fw = nf;
        p->capfw = cap;
    }
    int64_t cseq = 0;
    dj_int(req, "seq", 0, INT64_MAX, &cseq);
    dap_fwd *f = &p->fw[p->nfw++];
    f->aseq = p->next_aseq++;
    f->cseq = drop ? 0 : cseq;
    dj_w w;
    djw_init(&w);
    djw_obj(&w, NULL);
    for (int i = 0; i < req->count; i++)
        if (strcmp(req->keys[i], "seq"))
            djw_value(&w, req->keys[i], req->items[i]);
    djw_int(&w, "seq", f->aseq);
    djw_obj_end(&w);
    if (!w.err && write_all(p->sock, w.p, w.len) != 0) {
        close(p->sock);
        p->sock = -1;
    }
    djw_free(&w);
    (void)d;
}

/* A message from the program: to the client with the adapter's numbering, or dropped. */
static void from_program(dap_srv *d, struct dap_prog *p, const dj *m)
{
    const char *type = dj_str(m, "type", "");
    int64_t rs = 0;
    if (!strcmp(type, "response")) {
        dj_int(m, "request_seq", 0, INT64_MAX, &rs);
        int k = -1;
        for (int i = 0; i < p->nfw; i++)
            if (p->fw[i].aseq == rs)
                k = i;
        if (k < 0 || p->fw[k].cseq == 0) {
            if (k >= 0)
                p->fw[k] = p->fw[--p->nfw];
            return;
        }
        rs = p->fw[k].cseq;
        p->fw[k] = p->fw[--p->nfw];
    } else if (!strcmp(type, "event")) {
        const char *ev = dj_str(m, "event", "");
        if (!strcmp(ev, "stopped"))
            p->child_stopped = 1;
        else if (!strcmp(ev, "continued"))
            p->child_stopped = 0;
    } else {
        return;
    }
    dj_w w;
    djw_init(&w);
    djw_obj(&w, NULL);
    djw_int(&w, "seq", d->seq++);
    for (int i = 0; i < m->count; i++) {
        if (!strcmp(m->keys[i], "seq"))
            continue;
        if (!strcmp(m->keys[i], "request_seq"))
            djw_int(&w, "request_seq", rs);
        else
            djw_value(&w, m->keys[i], m->items[i]);
    }
    djw_obj_end(&w);
    if (!w.err)
        dap_write_msg(d->out_fd, w.p, w.len);
    djw_free(&w);
}

static void poke(dap_srv *d, struct dap_prog *p)
{
    if (p->sock < 0)
        return;
    kill(p->pid, SIGURG);
    static const char text[] = "{\"type\":\"request\",\"command\":\"ptxdbg/poke\"}";
    dj *m = dj_parse(text, sizeof text - 1, NULL, 0);
    if (m)
        forward(d, p, m, 1);
    dj_free(m);
}

static int is_bp_request(const char *cmd)
{
    return !strcmp(cmd, "setBreakpoints") || !strcmp(cmd, "setFunctionBreakpoints") ||
           !strcmp(cmd, "setInstructionBreakpoints") || !strcmp(cmd, "setDataBreakpoints") ||
           !strcmp(cmd, "setExceptionBreakpoints");
}

/* Run a request in the adapter's own session and return what it answered (held). */
static void handle_held(dap_srv *d, const dj *req, dj_w *out)
{
    djw_free(&d->held);
    djw_init(&d->held);
    djw_arr(&d->held, NULL);
    d->hold = 1;
    dap_handle(d, req);
    d->hold = 0;
    djw_arr_end(&d->held);
    *out = d->held;
    djw_init(&d->held);
}

static void send_held(dap_srv *d, dj_w *held)
{
    dj *arr = dj_parse(held->p, held->len, NULL, 0);
    for (int i = 0; arr && i < arr->count; i++) {
        dj_w w;
        djw_init(&w);
        djw_value(&w, NULL, arr->items[i]);
        if (!w.err)
            dap_write_msg(d->out_fd, w.p, w.len);
        djw_free(&w);
    }
    dj_free(arr);
}

/* One client request in relay mode: 1 when the session is over. */
static int client_request(dap_srv *d, struct dap_prog *p, const dj *req)
{
    const char *cmd = dj_str(req, "command", "");
    if (strcmp(dj_str(req, "type", ""), "request")) {
        dap_handle(d, req); /* reports what is wrong with it */
        return 0;
    }
    if (!strcmp(cmd, "disconnect") || !strcmp(cmd, "terminate")) {
        if (p->started && !p->exited) {
            kill(p->pid, SIGKILL);
            int st;
            waitpid(p->pid, &st, 0);
            p->exited = 1;
            d->exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        }
        dap_respond_ok(d, req);
        if (!strcmp(cmd, "terminate")) {
            dap_terminate(d, d->exit_code);
            return 0;
        }
        return 1;
    }
    if (!p->started) {
        if (!strcmp(cmd, "configurationDone")) {
            if (d->configured) {
                dap_respond_err(d, req, "configurationDone: the configuration is already done.");
                return 0;
            }
            d->configured = 1;
            if (start_program(d, p) != 0) {
                dap_respond_err(d, req, "configurationDone: cannot start %s: %s.", p->path,
                                strerror(errno));
                dap_terminate(d, 127);
                return 0;
            }
            dap_respond_ok(d, req);
            return 0;
        }
        if (is_bp_request(cmd))
            djw_value(&p->replay, NULL, req);
        if (!strcmp(cmd, "evaluate")) {
            dap_respond_err(d, req, "evaluate: the program has not started.");
            return 0;
        }
        dap_handle(d, req);
        return 0;
    }
    if (p->exited) {
        if (!strcmp(cmd, "threads"))
            dap_handle(d, req);
        else
            dap_respond_err(d, req, "%s: the program has exited.", cmd);
        return 0;
    }
    if (is_bp_request(cmd)) { /* numbered here as the program numbers them */
        djw_value(&p->replay, NULL, req);
        dj_w held;
        handle_held(d, req, &held);
        if (p->child_stopped) {
            forward(d, p, req, 0);
        } else {
            /* the running program takes it at once: the signal interrupts its kernel, which
               serves what came up to the poke and goes on (dap_run.c) */
            send_held(d, &held);
            forward(d, p, req, 1);
            poke(d, p);
        }
        djw_free(&held);
        return 0;
    }
    if (!strcmp(cmd, "pause")) {
        if (!p->child_stopped) {
            kill(p->pid, SIGURG); /* before the request: see dap_stdio.c */
            forward(d, p, req, 1);
        }
        dap_respond_ok(d, req);
        return 0;
    }
    if (p->child_stopped) {
        forward(d, p, req, 0);
        if (!strcmp(cmd, "continue") || !strcmp(cmd, "next") || !strcmp(cmd, "stepIn") ||
            !strcmp(cmd, "stepOut"))
            p->child_stopped = 0; /* until it says it stopped again */
        return 0;
    }
    if (!strcmp(cmd, "threads") || !strcmp(cmd, "initialize") || !strcmp(cmd, "launch") ||
        !strcmp(cmd, "configurationDone"))
        dap_handle(d, req);
    else
        dap_respond_err(d, req, "%s: the program is running (no kernel is stopped).", cmd);
    return 0;
}

static void pipe_output(void *ctx, const char *category, const char *text, size_t n)
{
    dap_output(ctx, category, text, n);
}

void dap_prog_serve(dap_srv *d, dap_reader *in)
{
    struct dap_prog *p = d->prog;
    int client_eof = 0;
    while (!client_eof) {
        struct pollfd fds[4];
        int nfd = 0, ic = -1, is = -1, io[2];
        if (!dap_reader_ready(in)) {
            ic = nfd;
            fds[nfd++] = (struct pollfd){in->fd, POLLIN, 0};
        }
        if (p->sock >= 0 && !dap_reader_ready(&p->from)) {
            is = nfd;
            fds[nfd++] = (struct pollfd){p->sock, POLLIN, 0};
        }
        int first = nfd;
        nfd += cmd_pipes_poll(&p->io, fds + first, io);
        int ready = dap_reader_ready(in) || (p->sock >= 0 && dap_reader_ready(&p->from));
        if (poll(fds, (nfds_t)nfd, ready ? 0 : -1) < 0 && errno != EINTR)
            break;
        /* the program's output first, so it comes before the stop it led to */
        cmd_pipes_read(&p->io, fds + first, io, pipe_output, d);
        if (p->sock >= 0 && (dap_reader_ready(&p->from) || (is >= 0 && fds[is].revents))) {
            cmd_pipes_drain(&p->io, pipe_output, d); /* all it wrote before this message */
            char *body, err[256];
            size_t n;
            int rc = dap_read_msg(&p->from, &body, &n, err, sizeof err, 0);
            if (rc == 1) {
                dj *m = dj_parse(body, n, NULL, 0);
                if (m)
                    from_program(d, p, m);
                dj_free(m);
                free(body);
            } else if (rc == 0) {
                close(p->sock);
                p->sock = -1;
            }
        }
        if (dap_reader_ready(in) || (ic >= 0 && fds[ic].revents)) {
            char *body, err[256];
            size_t n;
            int rc = dap_read_msg(in, &body, &n, err, sizeof err, 0);
            if (rc == 0) {
                client_eof = 1;
            } else if (rc < 0) {
                dap_outputf(d, "stderr", "ptxdbg: %s.\n", err);
            } else {
                char perr[256];
                dj *m = dj_parse(body, n, perr, sizeof perr);
                free(body);
                if (!m) {
                    dap_outputf(d, "stderr", "ptxdbg: malformed message (%s).\n", perr);
                } else if (!strcmp(dj_str(m, "type", ""), "ptxdbg/framing")) {
                    dap_outputf(d, "stderr", "ptxdbg: %s.\n", dj_str(m, "message", ""));
                } else {
                    int over = client_request(d, p, m);
                    dj_free(m);
                    if (over)
                        break;
                    continue;
                }
                dj_free(m);
            }
        }
        /* the program ended: its output is all read, then the exit status */
        if (p->started && !p->exited && p->sock < 0 && cmd_pipes_done(&p->io)) {
            int st;
            if (waitpid(p->pid, &st, 0) == p->pid) {
                p->exited = 1;
                p->child_stopped = 0;
                int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
                d->exit_code = code;
                dap_terminate(d, code);
            }
        }
    }
}
