/* dap_stdio.c - `ptxdbg --dap`: the session on stdin/stdout, with a reader process so pause and disconnect reach a running kernel. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "dap.h"
#include "dap_int.h"
#include "dap_prog.h"

/* ---------------------------------------------------------------------------------------------
 * A kernel runs in this process's only thread, so while it runs nobody reads stdin. A reader
 * process does: it copies every message from stdin to a pipe this process reads, and signals
 * this process so that a running kernel hears of it:
 * - `pause`, `disconnect` and `terminate`: SIGURG first, whose handler raises the engine's
 *   interrupt flag (pause_flag; every run and step stops at its next check), then the message.
 *   The signal is sent before the message is written, so it has been handled by the time the
 *   message is read: a pause handled while idle clears the flag (nothing to pause), a pause that
 *   came during a run has stopped it.
 * - any other request: SIGUSR2 before and after the message is written (before: a message too
 *   long for the pipe cannot block the reader unseen). Its handler raises req_flag, which is
 *   the engine's interrupt flag only during a `continue` (dap_run.c): the run stops between two
 *   instructions, the requests that are there are served (threads, breakpoints; inspection is
 *   refused while running) and the same continue goes on, as if nothing had stopped it (an
 *   interrupt stop gives no breakpoint pass, so the run is the same). Steps and CLI commands
 *   watch pause_flag only: they are never cut short for a request, which waits for their end.
 * At the end of stdin the reader signals SIGURG too and exits, closing the pipe.
 * ------------------------------------------------------------------------------------------- */

static volatile int pause_flag, req_flag;

static void on_pause(int sig)
{
    (void)sig;
    pause_flag = 1;
    req_flag = 1;
}

static void on_request(int sig)
{
    (void)sig;
    req_flag = 1;
}

/* Whether a message is a request that must stop a running kernel. */
static int urgent(const char *body, size_t n)
{
    dj *m = dj_parse(body, n, NULL, 0);
    const char *cmd = dj_str(m, "command", "");
    int u = !strcmp(cmd, "pause") || !strcmp(cmd, "disconnect") || !strcmp(cmd, "terminate");
    dj_free(m);
    return u;
}

static void reader_main(int out, pid_t parent)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(0);
    dap_reader r;
    dap_reader_init(&r, 0);
    for (;;) {
        char *body, err[256];
        size_t n;
        int rc = dap_read_msg(&r, &body, &n, err, sizeof err, 0);
        if (rc == 0)
            break;
        if (rc < 0) { /* hand the framing error on as a message the server reports */
            dj_w w;
            djw_init(&w);
            djw_obj(&w, NULL);
            djw_str(&w, "type", "ptxdbg/framing");
            djw_str(&w, "message", err);
            djw_obj_end(&w);
            if (dap_write_msg(out, djw_text(&w), strlen(djw_text(&w))) != 0)
                _exit(0);
            djw_free(&w);
            continue;
        }
        int u = urgent(body, n);
        kill(parent, u ? SIGURG : SIGUSR2);
        int wr = dap_write_msg(out, body, n);
        free(body);
        if (wr != 0)
            break;
        if (!u)
            kill(parent, SIGUSR2);
    }
    kill(parent, SIGURG);
    _exit(0);
}

int dap_main(void)
{
    int proto = dup(1);
    int p[2];
    if (proto < 0 || pipe(p) != 0) {
        fprintf(stderr, "ptxdbg: cannot set up the DAP streams\n");
        return 2;
    }
    fcntl(proto, F_SETFD, FD_CLOEXEC);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_pause;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGURG, &sa, NULL);
    struct sigaction sr = sa;
    sr.sa_handler = on_request;
    sigaction(SIGUSR2, &sr, NULL);
    fflush(NULL);
    pid_t parent = getpid();
    pid_t rd = fork();
    if (rd < 0) {
        fprintf(stderr, "ptxdbg: cannot start the DAP reader\n");
        return 2;
    }
    if (rd == 0) {
        close(p[0]);
        close(proto);
        reader_main(p[1], parent);
    }
    close(p[1]);
    fcntl(p[0], F_SETFD, FD_CLOEXEC);
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0) { /* stdin belongs to the reader: commands never read it */
        dup2(null, 0);
        close(null);
    }
    dbg_session *s = dbg_new();
    dap_srv d;
    if (!s || dap_srv_stdio(&d, s, proto) != 0) {
        fprintf(stderr, "ptxdbg: cannot start the DAP session\n");
        return 2;
    }
    d.v = dapv_new(s);
    if (!d.v)
        return 2;
    /* the engine's interrupt: SIGURG from the reader, and Ctrl-C on a terminal */
    dbg_set_interrupt_flag(s, &pause_flag);
    sigaction(SIGINT, &sa, NULL);
    d.pause_flag = &pause_flag;
    d.req_flag = &req_flag;
    dap_reader in;
    dap_reader_init(&in, p[0]);
    d.in = &in;
    for (;;) {
        if (d.prog) {
            dap_prog_serve(&d, &in);
            break;
        }
        char *body, err[256];
        size_t n;
        int rc = dap_read_msg(&in, &body, &n, err, sizeof err, 0);
        if (rc == 0)
            break;
        if (rc < 0) {
            dap_outputf(&d, "stderr", "ptxdbg: %s.\n", err);
            continue;
        }
        dap_handle_text(&d, body, n);
        free(body);
        if (d.done)
            break;
    }
    dap_reader_free(&in);
    close(p[0]);
    kill(rd, SIGKILL);
    waitpid(rd, NULL, 0);
    dap_prog_free(&d);
    dapv_free(d.v);
    dap_srv_free(&d);
    dbg_free(s);
    close(proto);
    return 0;
}
