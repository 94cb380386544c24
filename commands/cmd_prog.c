/* cmd_prog.c - debugging a CUDA program: `run` starts it with the runtime library and the setup. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cmd.h"
#include "cmd_pipe.h"
#include "cmd_prog.h"
#include "cmd_ui.h"

/* ---------------------------------------------------------------------------------------------
 * The parent side. ptxdbg keeps the program's path and arguments and a setup log: the command
 * lines that changed session state (breakpoints, settings, displays, user commands), in the
 * order typed. `run` writes a session folder, then forks; the child puts the runtime library's
 * folder first in LD_LIBRARY_PATH, names the folder in PTXDBG_SESSION and execs the program.
 * The library sees the variable and runs every launch under its own debugger session
 * (cmd_inproc.c), which replays the setup log, takes the command feed's frames (the rest of
 * the -ex/-x list and of every script, body and loop `run` came from) as its input at the
 * program's stops, and hands back what is left of them, the setup lines typed at its stops and
 * the counters and values of the session. The parent replays those lines and goes on with the
 * frames: every way of feeding commands sees the same state before, during and after the run.
 * Files of the session folder:
 *   setup    the setup log (the child appends to it)
 *   actions  the command feed's frames above the terminal (cmd_feed_export)
 *   config   "batch 0|1", "threads N", "max-steps N", "entry 0|1", then the state lines of
 *            cmd_state.c (breakpoint counters, value history, convenience variables)
 *   result   written by the child: "kill" / "rerun" (+ "entry 1", "args N", "arg A"...) /
 *            "quit STATUS", "fault", "failed", then the state lines
 *   input    written by the child: what is left of the frames
 * ------------------------------------------------------------------------------------------- */

typedef struct cmd_prog {
    char *path;               /* the executable as given */
    char **args;              /* its arguments */
    int nargs;
    char *log;                /* setup log: lines ending in '\n' */
    size_t loglen;
    int runs;                 /* inferior runs so far */
    int entry;                /* `start`: stop at the first launch's entry */
} cmd_prog;

/* An ELF file for the host: a cubin is ELF too, but for machine EM_CUDA (190). */
int cmd_is_executable(const char *path)
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

static void free_args(cmd_prog *p)
{
    for (int i = 0; i < p->nargs; i++)
        free(p->args[i]);
    free(p->args);
    p->args = NULL;
    p->nargs = 0;
}

int cmd_prog_set(cmd_ctx *c, const char *path, char **args, int nargs)
{
    cmd_prog *p = c->prog;
    if (!p) {
        p = calloc(1, sizeof *p);
        if (!p)
            return cmd_error(c, "Out of memory.");
        c->prog = p;
    }
    free(p->path);
    free_args(p);
    p->path = strdup(path);
    p->args = calloc((size_t)nargs + 1, sizeof *p->args);
    if (!p->path || !p->args)
        return cmd_error(c, "Out of memory.");
    for (int i = 0; i < nargs; i++)
        if (!(p->args[p->nargs++] = strdup(args[i])))
            return cmd_error(c, "Out of memory.");
    return 0;
}

void cmd_prog_free(cmd_ctx *c)
{
    cmd_prog *p = c->prog;
    if (!p)
        return;
    free(p->path);
    free_args(p);
    free(p->log);
    free(p);
    c->prog = NULL;
}

/* ---- the setup log --------------------------------------------------------------------------- */
static int log_append(cmd_prog *p, const char *text, size_t n)
{
    char *nl = realloc(p->log, p->loglen + n + 2);
    if (!nl)
        return -1;
    p->log = nl;
    memcpy(p->log + p->loglen, text, n);
    p->loglen += n;
    if (!n || text[n - 1] != '\n')
        p->log[p->loglen++] = '\n';
    p->log[p->loglen] = 0;
    return 0;
}

/* Commands whose effect is session state a later run must have: the rows flagged CMD_F_SETUP.
 * `set var`/`print` change memory, not the session, and are not kept; `commands`, `define`
 * and `document` are kept with their lines (below); `clear` as the deletions it made
 * (cmd_prog_note). Watchpoints watch the memory of one run: they end with it (their numbers
 * stay used: cmd_state.c's "nextbp"). The flag's one exception is `set`: only a setting is
 * setup, not an assignment (set var / set variable, set $conv = ..., set *ADDR = ...). */
static int set_is_setting(const char *args)
{
    while (isspace((unsigned char)*args))
        args++;
    size_t n = strcspn(args, " \t=");
    int var = (n == 3 && !strncmp(args, "var", 3)) || (n == 8 && !strncmp(args, "variable", 8));
    return !var && n > 0 && args[0] != '$' && args[0] != '*';
}

/* `commands [N...]`: keep the command lists as the engine holds them now. */
static void log_commands(cmd_ctx *c, cmd_prog *p, const char *args)
{
    char buf[64];
    const char *q = args;
    int any = 0;
    for (;;) {
        while (isspace((unsigned char)*q))
            q++;
        if (!*q)
            break;
        char *end;
        long num = strtol(q, &end, 10);
        if (end == q)
            return;
        q = end;
        any = 1;
        dbg_bp *b = dbg_bp_find(c->s, (int)num);
        if (!b)
            continue;
        snprintf(buf, sizeof buf, "commands %d", b->num);
        log_append(p, buf, strlen(buf));
        for (int i = 0; i < b->ncommands; i++)
            log_append(p, b->commands[i], strlen(b->commands[i]));
        log_append(p, "end", 3);
    }
    if (!any && dbg_bp_count(c->s) > 0) {
        dbg_bp *b = dbg_bp_at(c->s, dbg_bp_count(c->s) - 1);
        snprintf(buf, sizeof buf, "commands %d", b->num);
        log_append(p, buf, strlen(buf));
        for (int i = 0; i < b->ncommands; i++)
            log_append(p, b->commands[i], strlen(b->commands[i]));
        log_append(p, "end", 3);
    }
}

void cmd_prog_record(cmd_ctx *c, const cmd_def *d, const char *line, const char *args)
{
    cmd_prog *p = c->prog;
    if (!p || c->replaying || !(d->flags & CMD_F_SETUP))
        return;
    if (d->fn == cmd_commands) {
        log_commands(c, p, args);
    } else if (d->fn == cmd_define || d->fn == cmd_document) {
        char name[256], *text;
        size_t len;
        if (sscanf(args, " %255s", name) == 1 &&
            cmd_user_log(c, name, d->fn == cmd_document, &text, &len) == 0) {
            log_append(p, text, len);
            free(text);
        }
    } else if (d->fn != cmd_set || set_is_setting(args)) {
        log_append(p, line, strlen(line));
    }
}

void cmd_prog_note(cmd_ctx *c, const char *line)
{
    if (c->prog && !c->replaying)
        log_append(c->prog, line, strlen(line));
}

/* Lines of a text in memory, for cmd_run_input. */
typedef struct {
    const char *p;
} mem_cursor;

static char *feed_next(cmd_input *in, const char *prompt)
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

void cmd_prog_replay(cmd_ctx *c, const char *text)
{
    mem_cursor cur = {text};
    cmd_input in = {feed_next, &cur, 0};
    int failed = c->failed, interactive = c->interactive;
    c->interactive = 0;
    c->replaying = 1;
    cmd_out_quiet(1); /* it was shown when typed */
    cmd_run_input(c, &in, NULL);
    cmd_out_quiet(0);
    c->replaying = 0;
    c->failed = failed;
    c->interactive = interactive;
}

const char *cmd_prog_log(const cmd_ctx *c, size_t *len)
{
    *len = c->prog ? c->prog->loglen : 0;
    return c->prog && c->prog->log ? c->prog->log : "";
}

void cmd_prog_set_log(cmd_ctx *c, const char *text, size_t len)
{
    if (!c->prog)
        return;
    free(c->prog->log);
    c->prog->log = NULL;
    c->prog->loglen = 0;
    if (len)
        log_append(c->prog, text, len);
}

/* ---- the runtime library's folder ------------------------------------------------------------ */
/* build/lib beside the ptxdbg executable (the build tree), else lib or ../lib of its folder (an
 * installed layout); the absolute path. */
int cmd_prog_libdir(char *out, size_t n)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return -1;
    exe[len] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = 0;
    static const char *rel[] = {"/build/lib", "/lib", "/../lib", NULL};
    for (int i = 0; rel[i]; i++) {
        char cand[PATH_MAX + 32], lib[PATH_MAX + 64];
        snprintf(cand, sizeof cand, "%s%s", exe, rel[i]);
        snprintf(lib, sizeof lib, "%s/libcudart.so.13", cand);
        if (access(lib, R_OK) == 0) {
            char *real = realpath(cand, NULL);
            snprintf(out, n, "%s", real ? real : cand);
            free(real);
            return 0;
        }
    }
    snprintf(out, n, "%s/build/lib", exe);
    return -1;
}

/* ---- run ------------------------------------------------------------------------------------- */
int cmd_prog_file_write(const char *dir, const char *name, const char *text, size_t n)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int ok = fwrite(text, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

char *cmd_prog_file_read(const char *dir, const char *name, size_t *len)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return dbg_file_read_all(path, len);
}

static void remove_dir(const char *dir)
{
    static const char *names[] = {"setup", "actions", "config", "result", "input", NULL};
    char path[PATH_MAX + 16];
    for (int i = 0; names[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

/* JSON mode (docs/JSON.md, "Program output"): the program's stdout and stderr are pipes
 * (cmd_pipe.c) and its session writes its objects into a third pipe (PTXDBG_JSON_FD); `run`
 * relays all three onto the JSON stream while the program runs: the program's output as
 * {"event":"output"} objects, the session's objects whole lines as they are. Before a line of
 * the session is passed on, the output pipes are drained, so a stop comes after the output
 * written before it. */
typedef struct {
    cmd_pipes io;
    int json[2];              /* the session's objects: read end, write end (-1: closed) */
    char *line;               /* a partial object line of the session */
    size_t len, cap;
} prog_relay;

static void relay_output(void *ctx, const char *category, const char *text, size_t n)
{
    cmd_ui_output(ctx, category, text, n);
}

/* What the session wrote: its complete lines go on (the output before them first). 0 more may
 * come, -1 the end. */
static int relay_objects(cmd_ctx *c, prog_relay *r)
{
    char buf[65536];
    ssize_t n = read(r->json[0], buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return 0;
    if (n <= 0) {             /* a line cut short by the program's end is dropped */
        close(r->json[0]);
        r->json[0] = -1;
        return -1;
    }
    cmd_pipes_drain(&r->io, relay_output, c);
    if (r->len + (size_t)n > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->len + (size_t)n)
            cap *= 2;
        char *nl = realloc(r->line, cap);
        if (!nl)
            return 0;
        r->line = nl;
        r->cap = cap;
    }
    memcpy(r->line + r->len, buf, (size_t)n);
    r->len += (size_t)n;
    size_t start = 0;
    for (size_t i = 0; i < r->len; i++)
        if (r->line[i] == '\n') {
            if (i > start)
                cmd_ui_event(c, r->line + start, i - start);
            start = i + 1;
        }
    memmove(r->line, r->line + start, r->len - start);
    r->len -= start;
    return 0;
}

/* Until the program has exited and the pipes are read (or stay open without data: a process
 * the program started holds them): relay, then its status. */
static void relay_wait(cmd_ctx *c, prog_relay *r, pid_t pid, int *status)
{
    int exited = 0;
    for (;;) {
        struct pollfd fds[3];
        int idx[2];
        int n = cmd_pipes_poll(&r->io, fds, idx), ij = -1;
        if (r->json[0] >= 0) {
            ij = n;
            fds[n++] = (struct pollfd){r->json[0], POLLIN, 0};
        }
        if (n == 0)
            break;
        /* a short timeout only to notice the program's end while something it started keeps
           the pipes open */
        int k = poll(fds, (nfds_t)n, exited ? 0 : 200);
        if (k < 0 && errno != EINTR)
            break;
        if (k > 0) {
            if (ij >= 0 && fds[ij].revents)
                relay_objects(c, r);
            cmd_pipes_read(&r->io, fds, idx, relay_output, c);
        }
        if (exited && k <= 0)
            break;
        if (!exited && waitpid(pid, status, WNOHANG) == pid)
            exited = 1;
    }
    cmd_pipes_drain(&r->io, relay_output, c);
    if (!exited)
        while (waitpid(pid, status, 0) < 0 && errno == EINTR)
            ;
}

/* The child: environment, then exec. Only async-signal-safe work would be strictly required
 * after fork in a threaded parent; ptxdbg's parent has no other threads at this point. */
static void run_child(cmd_prog *p, const char *dir, const char *libdir, prog_relay *r)
{
    if (r) {                  /* JSON mode: the pipes */
        cmd_pipes_child(&r->io);
        close(r->json[0]);
        char num[16];
        snprintf(num, sizeof num, "%d", r->json[1]);
        setenv("PTXDBG_JSON_FD", num, 1);
    }
    const char *old = getenv("LD_LIBRARY_PATH");
    size_t n = strlen(libdir) + (old ? strlen(old) : 0) + 2;
    char *ld = malloc(n);
    if (ld) {
        snprintf(ld, n, "%s%s%s", libdir, old && *old ? ":" : "", old && *old ? old : "");
        setenv("LD_LIBRARY_PATH", ld, 1);
    }
    setenv("PTXDBG_SESSION", dir, 1);
    signal(SIGINT, SIG_DFL);
    char **argv = calloc((size_t)p->nargs + 2, sizeof *argv);
    if (argv) {
        argv[0] = p->path;
        for (int i = 0; i < p->nargs; i++)
            argv[i + 1] = p->args[i];
        execv(p->path, argv);
    }
    fprintf(stderr, "Cannot exec %s: %s.\n", p->path, strerror(errno));
    _exit(127);
}

static int parse_result(const char *text, const char *key, long *out)
{
    size_t kl = strlen(key);
    for (const char *q = text; q && *q; q = strchr(q, '\n') ? strchr(q, '\n') + 1 : NULL) {
        if (!strncmp(q, key, kl) && (q[kl] == ' ' || q[kl] == '\n' || !q[kl])) {
            *out = strtol(q + kl, NULL, 10);
            return 1;
        }
    }
    return 0;
}

/* Run the program once; returns 0 (the exit was reported) or -1. */
static int run_once(cmd_ctx *c, int *rerun)
{
    cmd_prog *p = c->prog;
    *rerun = 0;
    char libdir[PATH_MAX];
    if (cmd_prog_libdir(libdir, sizeof libdir) != 0)
        return cmd_error(c, "The CUDA runtime library (libcudart.so.13) is not built: run make "
                         "(looked in %s).", libdir);
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/ptxdbg-session.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return cmd_error(c, "Cannot create a session folder: %s.", strerror(errno));
    /* the command feed's frames go to the program's session; its config and state */
    char *actions = NULL, *config = NULL;
    size_t alen = 0, clen = 0;
    FILE *cf = open_memstream(&config, &clen);
    if (cf) {
        fprintf(cf, "batch %d\nthreads %d\nmax-steps %llu\nentry %d\n", c->batch,
                dbg_opts(c->s)->threads, (unsigned long long)dbg_opts(c->s)->run_max_steps,
                p->entry);
        if (dbg_opts(c->s)->schedule_random)   /* set scheduler random SEED */
            fprintf(cf, "schedule %llu\n", (unsigned long long)dbg_opts(c->s)->schedule_seed);
        cmd_state_write(c, cf);
        if (fclose(cf) != 0) {
            free(config);
            config = NULL;
        }
    }
    if (cmd_feed_export(c, &actions, &alen) != 0 || !config ||
        cmd_prog_file_write(dir, "setup", p->log ? p->log : "", p->loglen) != 0 ||
        cmd_prog_file_write(dir, "actions", actions, alen) != 0 ||
        cmd_prog_file_write(dir, "config", config, clen) != 0) {
        free(actions);
        free(config);
        remove_dir(dir);
        return cmd_error(c, "Cannot write the session folder %s.", dir);
    }
    free(actions);
    free(config);
    char *abs = realpath(p->path, NULL); /* gdb names the program by its absolute path */
    printf("Starting program: %s", abs ? abs : p->path);
    free(abs);
    for (int i = 0; i < p->nargs; i++)
        printf(" %s", p->args[i]);
    printf("\n");
    fflush(stdout);
    fflush(stderr);
    prog_relay relay = {.json = {-1, -1}}, *rl = NULL;
    if (cmd_ui_json(c)) {
        if (cmd_pipes_open(&relay.io) != 0 || pipe(relay.json) != 0) {
            cmd_pipes_close(&relay.io);
            remove_dir(dir);
            return cmd_error(c, "Cannot start %s: %s.", p->path, strerror(errno));
        }
        rl = &relay;
    }
    pid_t pid = fork();
    if (pid < 0) {
        if (rl) {
            cmd_pipes_close(&relay.io);
            close(relay.json[0]);
            close(relay.json[1]);
        }
        remove_dir(dir);
        return cmd_error(c, "Cannot start %s: %s.", p->path, strerror(errno));
    }
    if (pid == 0)
        run_child(p, dir, libdir, rl);
    if (rl) {
        cmd_pipes_parent(&relay.io);
        close(relay.json[1]);
        relay.json[1] = -1;
        fcntl(relay.json[0], F_SETFD, FD_CLOEXEC);
    }
    p->runs++;
    /* the terminal's Ctrl-C reaches the program, which interrupts its kernel; ptxdbg waits */
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGINT, &ign, &old);
    int status = 0;
    if (rl) {
        relay_wait(c, &relay, pid, &status);
        cmd_pipes_close(&relay.io);
        if (relay.json[0] >= 0)
            close(relay.json[0]);
        free(relay.line);
    } else {
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
    sigaction(SIGINT, &old, NULL);
    size_t rlen = 0, slen = 0, ilen = 0;
    char *result = cmd_prog_file_read(dir, "result", &rlen);
    char *setup = cmd_prog_file_read(dir, "setup", &slen);
    char *input = result ? cmd_prog_file_read(dir, "input", &ilen) : NULL;
    remove_dir(dir);
    if (setup) {
        /* the lines typed at the program's stops (and the changes its stops made) are this
           session's too: replayed here, so `info breakpoints` and the next run agree */
        if (slen >= p->loglen && (!p->loglen || !memcmp(setup, p->log, p->loglen)))
            cmd_prog_replay(c, setup + p->loglen);
        free(p->log);
        p->log = setup;
        p->loglen = slen;
    }
    if (result)
        cmd_state_read(c, result, 1);
    if (input && cmd_feed_import(c, input, ilen) != 0)
        cmd_error(c, "The commands the program's session left could not be read back.");
    free(input);
    long qstatus = 0, flag = 0;
    int killed = result && parse_result(result, "kill", &flag);
    *rerun = result && parse_result(result, "rerun", &flag);
    p->entry = *rerun && parse_result(result, "entry", &flag) && flag;
    if (result && parse_result(result, "fault", &flag))
        c->kernel_failed = 1;
    if (result && parse_result(result, "failed", &flag))
        c->failed = 1;
    int quit = result && parse_result(result, "quit", &qstatus);
    long nargs = 0;
    if (*rerun && parse_result(result, "args", &nargs) && nargs > 0 && nargs < 100000) {
        char **args = calloc((size_t)nargs, sizeof *args);
        int k = 0;
        for (const char *q = result; args && q && *q && k < nargs;
             q = strchr(q, '\n') ? strchr(q, '\n') + 1 : NULL)
            if (!strncmp(q, "arg ", 4))
                args[k++] = strndup(q + 4, strcspn(q + 4, "\n"));
        char *path = strdup(p->path);
        if (args && path)
            cmd_prog_set(c, path, args, k);
        for (int j = 0; args && j < k; j++)
            free(args[j]);
        free(args);
        free(path);
    }
    free(result);
    fflush(stdout);
    if (killed || *rerun) {
        if (killed && !c->batch)
            printf("[Inferior 1 (process %d) killed]\n", (int)pid);
    } else if (WIFEXITED(status)) {
        int code = WEXITSTATUS(status);
        if (code == 0)
            printf("[Inferior 1 (process %d) exited normally]\n", (int)pid);
        else
            printf("[Inferior 1 (process %d) exited with code %02o]\n", (int)pid, code);
        c->prog_status = code;
        dbg_history_set_int(dbg_session_history(c->s), "_exitcode", code);   /* gdb's */
    } else if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        printf("\nProgram terminated with signal %s, %s.\nThe program no longer exists.\n",
               sig == SIGSEGV ? "SIGSEGV" : sig == SIGABRT ? "SIGABRT" : sig == SIGKILL ? "SIGKILL"
               : sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGBUS ? "SIGBUS"
               : sig == SIGFPE ? "SIGFPE" : "SIGNAL", strsignal(sig));
        c->prog_status = 128 + sig;
        dbg_history_set_int(dbg_session_history(c->s), "_exitsignal", sig);
    }
    c->prog_exited = 1;
    if (quit) {
        c->quit = (int)(qstatus & 0xff) | 0x100;
        if (qstatus < 0)
            c->quit = 1;
    }
    fflush(stdout);
    return 0;
}

int cmd_prog_run(cmd_ctx *c, int argc, char **argv)
{
    cmd_prog *p = c->prog;
    if (argc > 0) { /* run ARGS: new arguments for this and later runs */
        char *path = strdup(p->path);
        int rc = path ? cmd_prog_set(c, path, argv, argc) : cmd_error(c, "Out of memory.");
        free(path);
        if (rc != 0)
            return rc;
    }
    struct stat st;
    if (stat(p->path, &st) != 0)
        return cmd_error(c, "%s: %s.", p->path, strerror(errno));
    if (!(st.st_mode & S_IXUSR) || !S_ISREG(st.st_mode))
        return cmd_error(c, "%s: Permission denied.", p->path);
    int rerun, rc, guard = 0;
    do {
        rc = run_once(c, &rerun);
    } while (rc == 0 && rerun && ++guard < 1000 && !c->quit);
    p->entry = 0;
    return rc;
}

int cmd_prog_start(cmd_ctx *c, int argc, char **argv)
{
    c->prog->entry = 1;
    return cmd_prog_run(c, argc, argv);
}

const char *cmd_prog_path(const cmd_ctx *c) { return c->prog ? c->prog->path : NULL; }
