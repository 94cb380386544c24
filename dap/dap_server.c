/* dap_server.c - the DAP server: messages, output capture, the request table, initialize, run requests, disconnect/terminate. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dap_int.h"
#include "dap_prog.h"
#include "chk.h"

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
    d->cols0 = !dj_bool(a, "columnsStartAt1", 1);
    d->client_invalidated = dj_bool(a, "supportsInvalidatedEvent", 0);
    d->client_memory = dj_bool(a, "supportsMemoryEvent", 0);
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
    capability(&w, "supportsLogPoints");
    capability(&w, "supportsSetExpression");
    capability(&w, "supportsCancelRequest");
    capability(&w, "supportsClipboardContext");
    capability(&w, "supportsCompletionsRequest");
    capability(&w, "supportsDataBreakpointBytes");
    /* one filter per checker: on, its findings stop like exceptions (which checkers run is the
       launch's "check"/"checks" or `set check`); CUDA exceptions always stop */
    djw_arr(&w, "exceptionBreakpointFilters");
    for (int i = 0; i < CHK_N; i++) {
        if (!chk_implemented((chk_id)i))
            continue;
        char label[64], desc[400];
        snprintf(label, sizeof label, "%s findings", chk_name((chk_id)i));
        snprintf(desc, sizeof desc, "Stop at %s's findings (when it is on): %s",
                 chk_name((chk_id)i), chk_summary((chk_id)i));
        djw_obj(&w, NULL);
        djw_str(&w, "filter", chk_name((chk_id)i));
        djw_str(&w, "label", label);
        djw_str(&w, "description", desc);
        djw_bool(&w, "default", 1);
        djw_obj_end(&w);
    }
    djw_arr_end(&w);
    djw_obj_end(&w);
    dap_send(d, &w);
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
    dap_respond_err(d, req, d->running ? "%s: the kernel is running." : "%s: no kernel is stopped.",
                    dj_str(req, "command", ""));
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
    const dj *g = dj_get(a, "granularity");
    if (g && g->kind != DJ_STR) {
        dap_respond_err(d, req, "%s: granularity is \"statement\", \"line\" or \"instruction\".",
                        dj_str(req, "command", ""));
        return;
    }
    const char *gran = g ? g->str : "statement";
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
    if (how != DAP_RUN_CONTINUE) {
        /* a step is the thread's: from its innermost frame, whatever frame is selected */
        dbg_set_frame(d->s, 0);
        dbg_frame fr[DBG_MAX_FRAMES];
        if (how == DAP_RUN_STEPOUT && dbg_frames(d->s, fr, DBG_MAX_FRAMES) <= 1) {
            dap_respond_err(d, req, "stepOut: the kernel's own frame is the outermost: there is "
                            "nothing to step out to (continue instead).");
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
    if (d->running) { /* served in the middle of a continue: it stops there */
        if (d->pause_flag)
            *d->pause_flag = 0; /* its signal came before it */
        d->pause_req = 1;
        dap_respond_ok(d, req);
        return;
    }
    /* a running kernel was interrupted by the signal that came with this request; here the
       server is idle again, so there is nothing left to pause */
    if (d->pause_flag && (d->stopped || !d->inproc))
        *d->pause_flag = 0;
    /* inside a program between kernels the flag stays raised: the next kernel stops at once */
    else if (d->inproc)
        d->pause_pending = 1;
    dap_respond_ok(d, req);
}

/* Inside a CUDA program: the adapter passed requests on while the program ran and signalled
 * (SIGURG, as for pause) after them; this marker ends them. Between kernels the signal must not
 * stop the next kernel unless a pause came. */
static void req_poke(dap_srv *d, const dj *req)
{
    d->woke = 1;
    if (d->pause_flag && !d->running && !d->pause_pending)
        *d->pause_flag = 0;
    dap_respond_ok(d, req);
}

/* Requests are served one at a time, in order: the one a cancel names has been answered by
 * the time the cancel is read (and nothing reports progress), so there is nothing to stop. */
static void req_cancel(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    int64_t id;
    if (dj_int(a, "requestId", 0, INT64_MAX, &id) < 0 || (dj_get(a, "progressId") &&
                                                          !dj_str(a, "progressId", NULL))) {
        dap_respond_err(d, req, "cancel: requestId is an integer and progressId a string.");
        return;
    }
    dap_respond_ok(d, req);
}

static void req_set_exception_breakpoints(dap_srv *d, const dj *req)
{
    const dj *a = dj_get(req, "arguments");
    const dj *f = dj_get(a, "filters");
    const dj *fo = dj_get(a, "filterOptions");
    if (fo && fo->kind == DJ_ARR && fo->count > 0) {
        dap_respond_err(d, req, "setExceptionBreakpoints: filters take no conditions.");
        return;
    }
    if (f && f->kind != DJ_ARR) {
        dap_respond_err(d, req, "setExceptionBreakpoints: filters must be an array.");
        return;
    }
    /* the checkers' filters: each one named stops at its checker's findings */
    unsigned stop = 0;
    for (int i = 0; f && i < f->count; i++) {
        const dj *e = f->items[i];
        int id = e->kind == DJ_STR ? chk_lookup(e->str) : -1;
        if (id < 0 || !chk_implemented((chk_id)id)) {
            dap_respond_err(d, req, "setExceptionBreakpoints: unknown filter \"%s\" (the "
                            "filters are the checkers' findings; CUDA exceptions, traps and "
                            "failed assertions always stop).",
                            e->kind == DJ_STR ? e->str : "?");
            return;
        }
        stop |= 1u << id;
    }
    d->chk_nostop = CHK_ALL & ~stop;
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_arr(&w, "breakpoints");
    for (int i = 0; f && i < f->count; i++) {
        djw_obj(&w, NULL);
        djw_bool(&w, "verified", 1);
        djw_obj_end(&w);
    }
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
    /* in the middle of a continue: what needs a stopped kernel waits for pause */
    static const char *const need_stopped[] = {
        "stackTrace", "scopes", "variables", "setVariable", "setExpression", "evaluate",
        "readMemory", "writeMemory", "exceptionInfo", "ptxdbg/focus", "dataBreakpointInfo",
        "completions", NULL};
    for (int i = 0; d->running && need_stopped[i]; i++)
        if (!strcmp(cmd, need_stopped[i])) {
            dap_respond_err(d, req, "%s: the kernel is running (pause it first).", cmd);
            return;
        }
    if (!strcmp(cmd, "initialize"))
        req_initialize(d, req);
    else if (!strcmp(cmd, "launch"))
        dap_launch(d, req);
    else if (!strcmp(cmd, "attach"))
        dap_respond_err(d, req, "attach: ptxdbg launches its programs (use a launch configuration).");
    else if (!strcmp(cmd, "configurationDone"))
        dap_configuration_done(d, req);
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
    else if (!strcmp(cmd, "setExpression"))
        dap_set_expression(d, req);
    else if (!strcmp(cmd, "cancel"))
        req_cancel(d, req);
    else if (!strcmp(cmd, "completions"))
        dap_completions(d, req);
    else if (!strcmp(cmd, "source"))
        dap_source(d, req);
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
    else if (!strcmp(cmd, "ptxdbg/poke") && d->inproc)
        req_poke(d, req);
    else
        dap_respond_err(d, req, "Unrecognized request \"%s\".", cmd);
}

void dap_handle_text(dap_srv *d, const char *body, size_t n)
{
    char err[256];
    dj *m = dj_parse(body, n, err, sizeof err);
    if (!m) {
        dap_outputf(d, "stderr", "ptxdbg: malformed message (%s).\n", err);
        return;
    }
    if (!strcmp(dj_str(m, "type", ""), "ptxdbg/framing"))
        dap_outputf(d, "stderr", "ptxdbg: %s.\n", dj_str(m, "message", "bad message"));
    else
        dap_handle(d, m);
    dj_free(m);
    dap_flush_output(d);
}

int dap_serve_one(dap_srv *d)
{
    for (;;) {
        char *body, err[256];
        size_t n;
        int rc = d->in ? dap_read_msg(d->in, &body, &n, err, sizeof err, 0) : 0;
        if (rc == 0) {
            d->done = 1;
            return -1;
        }
        if (rc < 0) {
            dap_outputf(d, "stderr", "ptxdbg: %s.\n", err);
            continue;
        }
        dap_handle_text(d, body, n);
        free(body);
        return 0;
    }
}

void dap_serve_pending(dap_srv *d)
{
    while (d->in && !d->done) {
        struct pollfd p = {d->in->fd, POLLIN, 0};
        if (!dap_reader_ready(d->in) && poll(&p, 1, 0) <= 0)
            return;
        char *body, err[256];
        size_t n;
        /* a message that has begun is read whole: its writer is finishing it */
        int rc = dap_read_msg(d->in, &body, &n, err, sizeof err, 0);
        if (rc == 0) {
            d->done = 1;
            return;
        }
        if (rc < 0) {
            dap_outputf(d, "stderr", "ptxdbg: %s.\n", err);
            continue;
        }
        dap_handle_text(d, body, n);
        free(body);
    }
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
