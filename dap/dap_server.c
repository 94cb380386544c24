/* dap_server.c - the DAP server: messages, output capture, the request table, initialize/launch/configurationDone/disconnect. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dap_int.h"
#include "dap_prog.h"

/* ---- messages -------------------------------------------------------------------------------- */
void dap_srv_init(dap_srv *d, dbg_session *s, int out_fd)
{
    memset(d, 0, sizeof *d);
    d->s = s;
    d->out_fd = out_fd;
    d->seq = 1;
    d->next_bp_id = 1;
    d->sink_out = d->sink_err = -1;
}

void dap_srv_free(dap_srv *d)
{
    dap_handles_reset(d);
    free(d->frames);
    free(d->vars);
    dap_bps_free(d);
    for (int i = 0; i < d->nkernels; i++)
        free(d->kernels[i]);
    free(d->kernels);
    free(d->program);
    djw_free(&d->held);
    if (d->sink_out >= 0)
        close(d->sink_out);
    if (d->sink_err >= 0)
        close(d->sink_err);
}

int dap_send(dap_srv *d, dj_w *w)
{
    djw_obj_end(w);
    int rc = -1;
    if (d->hold) { /* kept as a member of the held array */
        dj *m = w->err ? NULL : dj_parse(w->p, w->len, NULL, 0);
        if (m)
            djw_value(&d->held, NULL, m);
        dj_free(m);
        djw_free(w);
        return 0;
    }
    if (!w->err && d->out_fd >= 0)
        rc = dap_write_msg(d->out_fd, w->p, w->len);
    djw_free(w);
    return rc;
}

void dap_begin_event(dap_srv *d, dj_w *w, const char *event)
{
    djw_init(w);
    djw_obj(w, NULL);
    djw_int(w, "seq", d->seq++);
    djw_str(w, "type", "event");
    djw_str(w, "event", event);
}

void dap_begin_response(dap_srv *d, dj_w *w, const dj *req, int success, const char *msg)
{
    int64_t rs = 0;
    dj_int(req, "seq", 0, INT64_MAX, &rs);
    djw_init(w);
    djw_obj(w, NULL);
    djw_int(w, "seq", d->seq++);
    djw_str(w, "type", "response");
    djw_int(w, "request_seq", rs);
    djw_bool(w, "success", success);
    djw_str(w, "command", dj_str(req, "command", ""));
    if (msg)
        djw_str(w, "message", msg);
}

void dap_respond_ok(dap_srv *d, const dj *req)
{
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    dap_send(d, &w);
}

void dap_respond_err(dap_srv *d, const dj *req, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    dj_w w;
    dap_begin_response(d, &w, req, 0, msg);
    /* an error body as the protocol describes it, so clients can show the text */
    djw_obj(&w, "body");
    djw_obj(&w, "error");
    djw_int(&w, "id", 1);
    djw_str(&w, "format", msg);
    djw_bool(&w, "showUser", 0);
    djw_obj_end(&w);
    djw_obj_end(&w);
    dap_send(d, &w);
}

void dap_output(dap_srv *d, const char *category, const char *text, size_t n)
{
    if (!n)
        return;
    dj_w w;
    dap_begin_event(d, &w, "output");
    djw_obj(&w, "body");
    djw_str(&w, "category", category);
    djw_strn(&w, "output", text, n);
    djw_obj_end(&w);
    dap_send(d, &w);
}

void dap_outputf(dap_srv *d, const char *category, const char *fmt, ...)
{
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    dap_output(d, category, msg, n < 0 ? 0 : (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
}

int dap_client_line(const dap_srv *d, int line) { return line - d->lines0; }
int dap_engine_line(const dap_srv *d, int line) { return line + d->lines0; }

/* ---- output capture -------------------------------------------------------------------------- */
/* A temporary file that every write appends to (so truncating it needs no seek by writers). */
static int sink_open(void)
{
    const char *tmp = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/ptxdbg-dap.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    unlink(path);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_APPEND);
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
}

/* The bytes written to a sink since it was last emptied (malloc'd), then empty it. Output past
 * 16 MB at once is cut, with a note. */
static char *sink_take(int fd, size_t *n)
{
    *n = 0;
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0)
        return NULL;
    size_t want = (size_t)st.st_size, cap = 16u << 20;
    int cut = want > cap;
    if (cut)
        want = cap;
    char *buf = malloc(want + 64);
    if (!buf)
        return NULL;
    ssize_t got = pread(fd, buf, want, 0);
    if (ftruncate(fd, 0) != 0)
        got = got > 0 ? got : 0;
    if (got <= 0) {
        free(buf);
        return NULL;
    }
    *n = (size_t)got;
    if (cut)
        *n += (size_t)snprintf(buf + *n, 64, "\n[output cut at 16 MB]\n");
    buf[*n] = 0;
    return buf;
}

void dap_flush_output(dap_srv *d)
{
    if (d->inproc) { /* inside a program its output goes to the adapter's pipes */
        fflush(stdout);
        fflush(stderr);
        return;
    }
    fflush(stdout);
    fflush(stderr);
    size_t n;
    char *t = sink_take(d->sink_out, &n);
    if (t)
        dap_output(d, "stdout", t, n);
    free(t);
    t = sink_take(d->sink_err, &n);
    if (t)
        dap_output(d, "stderr", t, n);
    free(t);
}

int dap_capture_begin(dap_srv *d, int saved[2])
{
    saved[0] = saved[1] = -1;
    if (!d->inproc) {
        dap_flush_output(d);
        return 0;
    }
    /* inside a program: point stdout/stderr at the sink for the command only */
    fflush(stdout);
    fflush(stderr);
    if (d->sink_out < 0 && (d->sink_out = sink_open()) < 0)
        return -1;
    saved[0] = dup(1);
    saved[1] = dup(2);
    dup2(d->sink_out, 1);
    dup2(d->sink_out, 2);
    return 0;
}

char *dap_capture_end(dap_srv *d, int saved[2])
{
    fflush(stdout);
    fflush(stderr);
    size_t n1 = 0, n2 = 0;
    char *a = sink_take(d->sink_out, &n1);
    char *b = d->inproc ? NULL : sink_take(d->sink_err, &n2);
    if (saved[0] >= 0) {
        dup2(saved[0], 1);
        close(saved[0]);
    }
    if (saved[1] >= 0) {
        dup2(saved[1], 2);
        close(saved[1]);
    }
    char *t = malloc(n1 + n2 + 1);
    if (t) {
        if (n1)
            memcpy(t, a, n1);
        if (n2)
            memcpy(t + n1, b, n2);
        t[n1 + n2] = 0;
    }
    free(a);
    free(b);
    return t;
}

/* ---- requests -------------------------------------------------------------------------------- */
static void capability(dj_w *w, const char *name) { djw_bool(w, name, 1); }

static void req_initialize(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    d->lines0 = !dj_bool(a, "linesStartAt1", 1);
    d->initialized = 1;
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    capability(&w, "supportsConfigurationDoneRequest");
    capability(&w, "supportsFunctionBreakpoints");
    capability(&w, "supportsConditionalBreakpoints");
    capability(&w, "supportsHitConditionalBreakpoints");
    capability(&w, "supportsEvaluateForHovers");
    capability(&w, "supportsSetVariable");
    capability(&w, "supportsDataBreakpoints");
    capability(&w, "supportsDisassembleRequest");
    capability(&w, "supportsInstructionBreakpoints");
    capability(&w, "supportsReadMemoryRequest");
    capability(&w, "supportsWriteMemoryRequest");
    capability(&w, "supportsSteppingGranularity");
    capability(&w, "supportsExceptionInfoRequest");
    capability(&w, "supportsTerminateRequest");
    capability(&w, "supportsValueFormattingOptions");
    capability(&w, "supportsDelayedStackTraceLoading");
    djw_arr(&w, "exceptionBreakpointFilters");
    djw_arr_end(&w);
    djw_obj_end(&w);
    dap_send(d, &w);
}

/* Run a CLI command for the launch (setupCommands, checks): its text goes to the console; on
 * failure the text is in *why (malloc'd). */
static int launch_command(dap_srv *d, const char *line, char **why)
{
    int saved[2];
    dap_capture_begin(d, saved);
    int rc = dapv_command(d->v, line);
    char *text = dap_capture_end(d, saved);
    if (rc == 0) {
        if (text)
            dap_output(d, "console", text, strlen(text));
        free(text);
        *why = NULL;
    } else {
        size_t n = text ? strlen(text) : 0;
        while (n && text[n - 1] == '\n')
            text[--n] = 0;
        *why = text;
    }
    return rc;
}

/* The launch arguments a PTX file and a CUDA program share: setupCommands, checks. */
int dap_launch_setup(dap_srv *d, const dj *req, const dj *a)
{
    const dj *setup = dj_get(a, "setupCommands");
    if (setup && setup->kind != DJ_ARR) {
        dap_respond_err(d, req, "launch: setupCommands must be an array of ptxdbg commands.");
        return -1;
    }
    for (int i = 0; setup && i < setup->count; i++) {
        const dj *c = setup->items[i];
        if (c->kind != DJ_STR) {
            dap_respond_err(d, req, "launch: setupCommands[%d] is not a string.", i);
            return -1;
        }
        char *why;
        if (launch_command(d, c->str, &why) != 0) {
            dap_respond_err(d, req, "launch: setup command \"%s\" failed: %s", c->str,
                            why && *why ? why : "error");
            free(why);
            return -1;
        }
    }
    const dj *checks = dj_get(a, "checks");
    if (checks && checks->kind != DJ_ARR) {
        dap_respond_err(d, req, "launch: checks must be an array of checker names.");
        return -1;
    }
    for (int i = 0; checks && i < checks->count; i++) {
        const dj *c = checks->items[i];
        if (c->kind != DJ_STR || !c->str[0] || strpbrk(c->str, " \t\n;")) {
            dap_respond_err(d, req, "launch: checks[%d] is not a checker name.", i);
            return -1;
        }
        char line[256], *why;
        snprintf(line, sizeof line, "set check %s on", c->str);
        if (launch_command(d, line, &why) != 0) {
            dap_respond_err(d, req, "launch: the check \"%s\" cannot be enabled: %s", c->str,
                            why && *why ? why : "error");
            free(why);
            return -1;
        }
    }
    return 0;
}

static void req_launch(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    if (d->launched) {
        dap_respond_err(d, req, "launch: the session is already launched.");
        return;
    }
    const char *prog = dj_str(a, "program", NULL);
    if (!prog || !*prog) {
        dap_respond_err(d, req, "launch: \"program\" (a .ptx file or a CUDA executable) is required.");
        return;
    }
    const char *cwd = dj_str(a, "cwd", NULL);
    if (cwd && *cwd && chdir(cwd) != 0) {
        dap_respond_err(d, req, "launch: cannot change to cwd \"%s\": %s.", cwd, strerror(errno));
        return;
    }
    const dj *soe = dj_get(a, "stopOnEntry");
    if (soe && soe->kind != DJ_BOOL) {
        dap_respond_err(d, req, "launch: stopOnEntry must be true or false.");
        return;
    }
    d->stop_on_entry = soe && soe->b;
    if (dap_prog_is_executable(prog)) {
        dap_prog_launch(d, req, a);
        return;
    }
    if (dj_get(a, "args") || dj_get(a, "env")) {
        dap_respond_err(d, req, "launch: \"args\" and \"env\" are for a CUDA program; \"%s\" is a "
                        "PTX file (give \"kernel\", a launch line).", prog);
        return;
    }
    const dj *k = dj_get(a, "kernel");
    if (k && k->kind != DJ_STR && k->kind != DJ_ARR) {
        dap_respond_err(d, req, "launch: \"kernel\" must be a launch line (KERNEL<<<GRID, BLOCK>>>(ARGS)) "
                        "or an array of them.");
        return;
    }
    int nk = !k ? 0 : k->kind == DJ_STR ? 1 : k->count;
    for (int i = 0; k && k->kind == DJ_ARR && i < k->count; i++)
        if (k->items[i]->kind != DJ_STR) {
            dap_respond_err(d, req, "launch: kernel[%d] is not a launch line.", i);
            return;
        }
    if (dbg_load_file(d->s, prog) != 0) {
        dap_respond_err(d, req, "launch: %s", dbg_errmsg(d->s));
        return;
    }
    if (dap_launch_setup(d, req, a) != 0)
        return;
    d->kernels = calloc((size_t)nk + 1, sizeof *d->kernels);
    for (int i = 0; d->kernels && i < nk; i++) {
        const char *line = k->kind == DJ_STR ? k->str : k->items[i]->str;
        d->kernels[d->nkernels++] = strdup(line);
    }
    d->program = strdup(prog);
    d->launched = 1;
    dap_respond_ok(d, req);
    dj_w w;
    dap_begin_event(d, &w, "initialized");
    dap_send(d, &w);
}

static void req_configuration_done(dap_srv *d, const dj *req)
{
    if (!d->launched) {
        dap_respond_err(d, req, "configurationDone: launch first.");
        return;
    }
    if (d->configured) {
        dap_respond_err(d, req, "configurationDone: the configuration is already done.");
        return;
    }
    d->configured = 1;
    dap_respond_ok(d, req);
    if (d->nkernels == 0) {
        dap_outputf(d, "console", "No kernel given (launch argument \"kernel\"): type commands "
                    "in the debug console, e.g. launch KERNEL<<<GRID, BLOCK>>>(ARGS).\n");
        return;
    }
    dap_next_kernel(d);
}

void dap_terminate(dap_srv *d, int code)
{
    if (d->terminated)
        return;
    dap_flush_output(d);
    d->terminated = 1;
    d->stopped = 0;
    dj_w w;
    dap_begin_event(d, &w, "exited");
    djw_obj(&w, "body");
    djw_int(&w, "exitCode", code);
    djw_obj_end(&w);
    dap_send(d, &w);
    dap_begin_event(d, &w, "terminated");
    dap_send(d, &w);
}

static void req_disconnect(dap_srv *d, const dj *req)
{
    dbg_kill(d->s);
    d->stopped = 0;
    dap_respond_ok(d, req);
    d->done = 1;
}

static void req_terminate(dap_srv *d, const dj *req)
{
    dbg_kill(d->s);
    dap_respond_ok(d, req);
    dap_terminate(d, d->exit_code);
}

static int need_stop(dap_srv *d, const dj *req)
{
    if (d->stopped)
        return 0;
    dap_respond_err(d, req, "%s: no kernel is stopped.", dj_str(req, "command", ""));
    return -1;
}

static void run_request(dap_srv *d, const dj *req, int how)
{
    if (need_stop(d, req) != 0)
        return;
    const dj *a = dj_get(req, "arguments");
    int64_t tid;
    int has = dj_int(a, "threadId", INT32_MIN, INT64_MAX, &tid);
    if (has < 0) {
        dap_respond_err(d, req, "%s: threadId must be an integer.", dj_str(req, "command", ""));
        return;
    }
    const char *gran = dj_str(a, "granularity", "statement");
    if (strcmp(gran, "statement") && strcmp(gran, "line") && strcmp(gran, "instruction")) {
        dap_respond_err(d, req, "%s: unknown granularity \"%s\".", dj_str(req, "command", ""), gran);
        return;
    }
    if (has && how != DAP_RUN_CONTINUE) { /* a step of another warp: focus it first */
        uint32_t cta, warp, lane;
        const dbg_focus *f = dbg_get_focus(d->s);
        if (dap_thread_warp(d, tid, &cta, &warp) != 0) {
            dap_respond_err(d, req, "%s: no thread %lld.", dj_str(req, "command", ""),
                            (long long)tid);
            return;
        }
        if ((!f->valid || f->cta != cta || f->warp != warp) &&
            (dbg_warp_show_lane(d->s, cta, warp, &lane) != 0 ||
             dbg_set_focus(d->s, cta, warp, lane) != 0)) {
            dap_respond_err(d, req, "%s: thread %lld cannot be stepped: %s",
                            dj_str(req, "command", ""), (long long)tid, dbg_errmsg(d->s));
            return;
        }
    }
    if (!strcmp(gran, "instruction"))
        how = how == DAP_RUN_NEXT ? DAP_RUN_NEXTI : how == DAP_RUN_STEPIN ? DAP_RUN_STEPI : how;
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    if (how == DAP_RUN_CONTINUE) {
        djw_obj(&w, "body");
        djw_bool(&w, "allThreadsContinued", 1);
        djw_obj_end(&w);
    }
    dap_send(d, &w);
    dap_resume(d, how);
}

static void req_pause(dap_srv *d, const dj *req)
{
    /* a running kernel was interrupted by the signal that came with this request; here the
       server is idle again, so there is nothing left to pause */
    if (d->pause_flag && (d->stopped || !d->inproc))
        *d->pause_flag = 0;
    /* inside a program between kernels the flag stays raised: the next kernel stops at once */
    dap_respond_ok(d, req);
}

static void req_set_exception_breakpoints(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    const dj *f = dj_get(a, "filters");
    if (f && f->kind == DJ_ARR && f->count > 0) {
        const dj *first = f->items[0];
        dap_respond_err(d, req, "setExceptionBreakpoints: unknown filter \"%s\" (CUDA exceptions, "
                        "traps and failed assertions always stop).",
                        first->kind == DJ_STR ? first->str : "?");
        return;
    }
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_arr(&w, "breakpoints");
    djw_arr_end(&w);
    djw_obj_end(&w);
    dap_send(d, &w);
}

void dap_handle(dap_srv *d, const dj *req)
{
    const char *type = dj_str(req, "type", NULL);
    const char *cmd = dj_str(req, "command", NULL);
    int64_t seq;
    if (!type || strcmp(type, "request") || !cmd || dj_int(req, "seq", 0, INT64_MAX, &seq) != 1) {
        if (type && !strcmp(type, "request") && cmd)
            dap_respond_err(d, req, "%s: the request has no valid seq.", cmd);
        else
            dap_outputf(d, "stderr", "ptxdbg: ignoring a message that is not a request.\n");
        return;
    }
    const dj *a = dj_get(req, "arguments");
    if (a && a->kind != DJ_OBJ) {
        dap_respond_err(d, req, "%s: arguments must be an object.", cmd);
        return;
    }
    if (!d->initialized && strcmp(cmd, "initialize") && strcmp(cmd, "disconnect")) {
        dap_respond_err(d, req, "%s: send initialize first.", cmd);
        return;
    }
    if (!strcmp(cmd, "initialize"))
        req_initialize(d, req);
    else if (!strcmp(cmd, "launch"))
        req_launch(d, req);
    else if (!strcmp(cmd, "attach"))
        dap_respond_err(d, req, "attach: ptxdbg launches its programs (use a launch configuration).");
    else if (!strcmp(cmd, "configurationDone"))
        req_configuration_done(d, req);
    else if (!strcmp(cmd, "disconnect"))
        req_disconnect(d, req);
    else if (!strcmp(cmd, "terminate"))
        req_terminate(d, req);
    else if (!strcmp(cmd, "setBreakpoints") || !strcmp(cmd, "setFunctionBreakpoints") ||
             !strcmp(cmd, "setInstructionBreakpoints") || !strcmp(cmd, "setDataBreakpoints"))
        dap_bps_request(d, req, cmd);
    else if (!strcmp(cmd, "dataBreakpointInfo"))
        dap_bps_data_info(d, req);
    else if (!strcmp(cmd, "setExceptionBreakpoints"))
        req_set_exception_breakpoints(d, req);
    else if (!strcmp(cmd, "threads"))
        dap_threads(d, req);
    else if (!strcmp(cmd, "stackTrace"))
        dap_stack_trace(d, req);
    else if (!strcmp(cmd, "scopes"))
        dap_scopes(d, req);
    else if (!strcmp(cmd, "variables"))
        dap_variables(d, req);
    else if (!strcmp(cmd, "setVariable"))
        dap_set_variable(d, req);
    else if (!strcmp(cmd, "evaluate"))
        dap_evaluate(d, req);
    else if (!strcmp(cmd, "continue"))
        run_request(d, req, DAP_RUN_CONTINUE);
    else if (!strcmp(cmd, "next"))
        run_request(d, req, DAP_RUN_NEXT);
    else if (!strcmp(cmd, "stepIn"))
        run_request(d, req, DAP_RUN_STEPIN);
    else if (!strcmp(cmd, "stepOut"))
        run_request(d, req, DAP_RUN_STEPOUT);
    else if (!strcmp(cmd, "pause"))
        req_pause(d, req);
    else if (!strcmp(cmd, "disassemble"))
        dap_disassemble(d, req);
    else if (!strcmp(cmd, "readMemory"))
        dap_read_memory(d, req);
    else if (!strcmp(cmd, "writeMemory"))
        dap_write_memory(d, req);
    else if (!strcmp(cmd, "exceptionInfo"))
        dap_exception_info(d, req);
    else if (!strcmp(cmd, "ptxdbg/focus"))
        dap_focus_request(d, req);
    else
        dap_respond_err(d, req, "Unrecognized request \"%s\".", cmd);
}

/* Set up the server for stdin/stdout: the protocol keeps the real stdout (proto_fd); the
 * process's stdout and stderr go to sinks turned into output events. */
int dap_srv_stdio(dap_srv *d, dbg_session *s, int proto_fd)
{
    dap_srv_init(d, s, proto_fd);
    d->sink_out = sink_open();
    d->sink_err = sink_open();
    if (d->sink_out < 0 || d->sink_err < 0)
        return -1;
    fflush(stdout);
    fflush(stderr);
    dup2(d->sink_out, 1);
    dup2(d->sink_err, 2);
    return 0;
}
