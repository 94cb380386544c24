/* dap_run.c - DAP run control: resuming, stopped events, the end of a kernel, exceptionInfo, focus. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dap_int.h"
#include "chk.h"

int64_t dap_thread_id(const dap_srv *d, uint32_t cta, uint32_t warp)
{
    return (int64_t)cta * dbg_nwarps(d->s) + warp + 1;
}

int dap_thread_warp(const dap_srv *d, int64_t id, uint32_t *cta, uint32_t *warp)
{
    uint32_t nw = dbg_nwarps(d->s);
    if (!nw || id < 1 || (uint64_t)(id - 1) / nw >= dbg_ncta(d->s))
        return -1;
    *cta = (uint32_t)((uint64_t)(id - 1) / nw);
    *warp = (uint32_t)((uint64_t)(id - 1) % nw);
    return 0;
}

void dap_handles_reset(dap_srv *d)
{
    for (int i = 0; i < d->nvars; i++)
        free(d->vars[i].expr);
    d->nvars = 0;
    d->nframes = 0;
}

static void send_continued(dap_srv *d)
{
    const dbg_focus *f = dbg_get_focus(d->s);
    dj_w w;
    dap_begin_event(d, &w, "continued");
    djw_obj(&w, "body");
    djw_int(&w, "threadId", f->valid && dbg_launch_info(d->s) ? dap_thread_id(d, f->cta, f->warp) : 1);
    djw_bool(&w, "allThreadsContinued", 1);
    djw_obj_end(&w);
    dap_send(d, &w);
}

/* The text of a fault stop: cuda-gdb's exception line and the engine's explanation. */
static void fault_text(dap_srv *d, const dbg_event *ev, char *id, size_t idn, char *desc,
                       size_t n, const char **name_out)
{
    int num = 0;
    const char *name;
    if (ev->kind == DBG_EV_TRAP) {
        name = "Warp Illegal Instruction (trap)";
        num = 4;
    } else if (ev->kind == DBG_EV_ASSERT) {
        name = "Warp Assert";
        num = 12;
    } else {
        name = dapv_exc_name(ev->stop.exc, &num);
    }
    snprintf(id, idn, "CUDA_EXCEPTION_%d", num);
    if (name_out)
        *name_out = name;
    /* where: the innermost frame, and the user's frame when that is an outer one (a trap in
       __trap, an assertion in __assert_fail) */
    const dbg_focus *f = dbg_get_focus(d->s);
    dbg_site site;
    char at[1500] = "";
    if (f->valid && dbg_stop_site(d->s, f->cta, f->warp, f->lane, &site) == 0)
        snprintf(at, sizeof at, " at %s", site.at);
    exec_dim3 b = dbg_cta_coord(d->s, ev->stop.cta);
    exec_dim3 t = dbg_focus_thread(d->s);
    snprintf(desc, n, "CUDA Exception: %s%s, block (%u,%u,%u) thread (%u,%u,%u)%s%s", name, at,
             b.x, b.y, b.z, t.x, t.y, t.z, ev->stop.msg[0] ? ": " : "", ev->stop.msg);
}

/* A checker's finding (chk.h): exceptionId CHECKER/KIND ("synccheck/divergent-barrier") and
 * the description its headline; a finding that explains a fault keeps the fault's
 * CUDA_EXCEPTION_N (the launch is over) with the headline before the fault's text. */
static void check_text(dap_srv *d, const dbg_event *ev, char *id, size_t idn, char *desc,
                       size_t n, const char **name_out)
{
    char head[256], fd[1600];
    chk_headline(ev->finding, head, sizeof head);
    if (ev->stop.kind == EXEC_STOP_EXCEPTION) {
        fault_text(d, ev, id, idn, fd, sizeof fd, name_out);
        snprintf(desc, n, "%s. %s", head, fd);
    } else {
        *name_out = chk_kind_name(ev->finding->kind);
        snprintf(id, idn, "%s/%s", chk_name(ev->finding->checker),
                 chk_kind_name(ev->finding->kind));
        snprintf(desc, n, "%s", head);
    }
}

static int is_fault_kind(dbg_event_kind k)
{
    return k == DBG_EV_TRAP || k == DBG_EV_ASSERT || k == DBG_EV_EXCEPTION;
}

/* A stop that ends the launch: a fault, or a checker's finding that explains one. */
static int is_fault(const dbg_event *ev)
{
    return is_fault_kind(ev->kind) ||
           (ev->kind == DBG_EV_CHECK && ev->stop.kind == EXEC_STOP_EXCEPTION);
}

/* The kernel completed (or its fault was left): the next kernel, the end of the session, or
 * (inside a program) back to the host code. */
static void kernel_over(dap_srv *d, int code)
{
    dap_flush_output(d);
    d->stopped = 0;
    dap_handles_reset(d);
    const exec_launch_info *li = dbg_launch_info(d->s);
    dap_outputf(d, "console", "[Kernel %u %s]\n", li ? li->launch_id : 0,
                code ? "ended with a fault" : "exited");
    if (d->inproc) { /* back to the host code: the adapter must know the program runs */
        send_continued(d);
        d->kernel_over = 1;
        return;
    }
    if (code)
        d->exit_code = code;
    if (d->nkernels == 0)
        return; /* kernels launched from the debug console: the session goes on */
    if (d->next_kernel < d->nkernels && !code) {
        dap_next_kernel(d);
        return;
    }
    dap_terminate(d, d->exit_code);
}

static int lane_live(exec_lane_state st)
{
    return st != EXEC_LANE_EXITED && st != EXEC_LANE_INVALID;
}

/* A stop must name a thread the editor can show: when the focused lane has exited (a step that
 * ended with it), the focus moves to a live lane of its warp (an active one first), else to
 * the first warp that has one. Returns 1 when it moved. */
static int focus_live(dap_srv *d)
{
    const dbg_focus *f = dbg_get_focus(d->s);
    if (!f->valid)
        return 0;
    dbg_lane_row rows[32];
    if (dbg_lane_rows(d->s, f->cta, f->warp, rows) <= 0 || lane_live(rows[f->lane].state))
        return 0;
    int pick = -1;
    for (int l = 0; l < 32 && pick < 0; l++)
        if (rows[l].state == EXEC_LANE_ACTIVE)
            pick = l;
    for (int l = 0; l < 32 && pick < 0; l++)
        if (lane_live(rows[l].state))
            pick = l;
    if (pick >= 0)
        return dbg_set_focus(d->s, f->cta, f->warp, (uint32_t)pick) == 0;
    dbg_warp_row w[1];
    int more;
    uint32_t lane;
    if (dbg_warp_rows(d->s, w, 1, &more) < 1 ||
        dbg_warp_show_lane(d->s, w[0].cta, w[0].warp, &lane) != 0)
        return 0;
    return dbg_set_focus(d->s, w[0].cta, w[0].warp, lane) == 0;
}

void dap_report_event(dap_srv *d, const dbg_event *ev)
{
    dap_flush_output(d);
    d->progress = dbg_progress(d->s);
    if (ev->kind == DBG_EV_EXITED) {
        kernel_over(d, 0);
        return;
    }
    if (ev->kind == DBG_EV_INTERRUPT && d->pause_flag)
        *d->pause_flag = 0;
    d->stopped = 1;
    d->last = *ev;
    dap_handles_reset(d);
    const char *reason = "step";
    char desc[2048] = "", id[64];
    int ids[32], nids = 0;
    switch (ev->kind) {
    case DBG_EV_BREAKPOINT:
    case DBG_EV_WATCH: {
        /* the client's breakpoints of this stop (dap_bp_stop), else the engine's one */
        if (!d->nhit) {
            dap_bp *b = dap_bp_by_num(d, ev->bp);
            if (b)
                d->hit_ids[d->nhit++] = b->id;
        }
        dap_bp *b = d->nhit ? dap_bp_by_id(d, d->hit_ids[0]) : NULL;
        reason = ev->kind == DBG_EV_WATCH ? "data breakpoint" : "breakpoint";
        if (b && b->kind == DAP_BP_FUNCTION)
            reason = "function breakpoint";
        else if (b && b->kind == DAP_BP_INSN)
            reason = "instruction breakpoint";
        nids = d->nhit;
        memcpy(ids, d->hit_ids, sizeof ids);
        int k = snprintf(desc, sizeof desc, "%s", ev->kind == DBG_EV_WATCH ? "Data breakpoint"
                                                 : "Breakpoint");
        for (int i = 0; i < nids && k < (int)sizeof desc - 16; i++)
            k += snprintf(desc + k, sizeof desc - (size_t)k, "%s %d", i ? "," : "", ids[i]);
        if (!nids && ev->bp) /* set in the debug console: the CLI's number */
            snprintf(desc, sizeof desc, "%s %d (debug console)", ev->kind == DBG_EV_WATCH
                     ? "Watchpoint" : "Breakpoint", ev->bp);
        break;
    }
    case DBG_EV_BRKPT:
        reason = "breakpoint";
        snprintf(desc, sizeof desc, "brkpt instruction");
        break;
    case DBG_EV_TRAP:
    case DBG_EV_ASSERT:
    case DBG_EV_EXCEPTION:
        reason = "exception";
        fault_text(d, ev, id, sizeof id, desc, sizeof desc, NULL);
        dap_outputf(d, "stderr", "%s\n", desc);
        if (d->no_debug) { /* a run without debugging does not stop: the kernel failed */
            kernel_over(d, 1);
            return;
        }
        break;
    case DBG_EV_CHECK: {
        /* a checker's finding, in the checkers' own words (chk_format) */
        char text[4096];
        reason = "exception";
        const char *nm;
        check_text(d, ev, id, sizeof id, desc, sizeof desc, &nm);
        chk_format(ev->finding, "", text, sizeof text);
        dap_outputf(d, "stderr", "%s: %s", chk_name(ev->finding->checker), text);
        if (d->no_debug && ev->stop.kind == EXEC_STOP_EXCEPTION) {
            kernel_over(d, 1);   /* a run without debugging does not stop: the kernel failed */
            return;
        }
        break;
    }
    case DBG_EV_INTERRUPT:
        reason = "pause";
        break;
    case DBG_EV_LIMIT:
        reason = "pause";
        snprintf(desc, sizeof desc, "max-steps: %llu warp-instructions ran without a stop",
                 (unsigned long long)ev->steps);
        break;
    case DBG_EV_ENTRY:
        reason = "entry";
        break;
    case DBG_EV_LANE_EXITED: {
        exec_dim3 t = dbg_focus_thread(d->s);
        int moved = focus_live(d);
        exec_dim3 n = dbg_focus_thread(d->s);
        if (moved)
            snprintf(desc, sizeof desc, "thread (%u,%u,%u) exited; focus on thread (%u,%u,%u)",
                     t.x, t.y, t.z, n.x, n.y, n.z);
        else
            snprintf(desc, sizeof desc, "thread (%u,%u,%u) exited", t.x, t.y, t.z);
        break;
    }
    default:
        break;
    }
    const dbg_focus *f = dbg_get_focus(d->s);
    dj_w w;
    dap_begin_event(d, &w, "stopped");
    djw_obj(&w, "body");
    djw_str(&w, "reason", reason);
    if (desc[0]) {
        djw_str(&w, "description", desc);
        if (is_fault(ev) || ev->kind == DBG_EV_CHECK)
            djw_str(&w, "text", desc);
    }
    if (f->valid)
        djw_int(&w, "threadId", dap_thread_id(d, f->cta, f->warp));
    djw_bool(&w, "allThreadsStopped", 1);
    djw_bool(&w, "preserveFocusHint", 0);
    if (nids) {
        djw_arr(&w, "hitBreakpointIds");
        for (int i = 0; i < nids; i++)
            djw_int(&w, NULL, ids[i]);
        djw_arr_end(&w);
    }
    d->nhit = 0;
    djw_obj_end(&w);
    dap_send(d, &w);
}

/* A finding whose checker's exception filter is off (and that explains no fault): reported on
 * the console, and the run goes on (setExceptionBreakpoints). */
static int check_passes(dap_srv *d, const dbg_event *ev)
{
    if (ev->kind != DBG_EV_CHECK || !ev->finding || ev->stop.kind == EXEC_STOP_EXCEPTION ||
        !((d->chk_nostop >> ev->finding->checker) & 1))
        return 0;
    char text[4096];
    chk_format(ev->finding, "", text, sizeof text);
    dap_outputf(d, "stderr", "%s: %s", chk_name(ev->finding->checker), text);
    return 1;
}

void dap_resume(dap_srv *d, int how)
{
    dap_handles_reset(d);
    if (is_fault(&d->last) || !dbg_launch_alive(d->s)) {
        /* the launch is over (a fault stays inspectable until the session goes on) */
        send_continued(d);
        kernel_over(d, is_fault(&d->last) ? 1 : 0);
        return;
    }
    send_continued(d);
    d->stopped = 0;
    for (;;) {
        dbg_event ev;
        int rc;
        switch (how) {
        case DAP_RUN_NEXT: rc = dbg_step(d->s, DBG_STEP_LINE_OVER, &ev); break;
        case DAP_RUN_STEPIN: rc = dbg_step(d->s, DBG_STEP_LINE, &ev); break;
        case DAP_RUN_STEPOUT: rc = dbg_step(d->s, DBG_STEP_FINISH, &ev); break;
        case DAP_RUN_NEXTI: rc = dbg_step(d->s, DBG_STEP_INSN_OVER, &ev); break;
        case DAP_RUN_STEPI: rc = dbg_step(d->s, DBG_STEP_INSN, &ev); break;
        default:
            /* a request that comes meanwhile interrupts the run (req_flag); it is served and
               the same continue goes on */
            if (d->req_flag)
                dbg_set_interrupt_flag(d->s, d->req_flag);
            rc = dbg_continue(d->s, 0, &ev);
            if (d->req_flag)
                dbg_set_interrupt_flag(d->s, d->pause_flag);
            break;
        }
        if (rc == 0 && ev.kind == DBG_EV_INTERRUPT && how == DAP_RUN_CONTINUE && d->inproc &&
            d->in) {
            /* inside a program the adapter's SIGURG precedes a pause, or follows requests it
               passed on and their ptxdbg/poke: serve until one of them (each signal has its
               message), then what else is there, and go on unless it was a pause */
            if (d->pause_pending) {
                d->pause_pending = 0;
            } else {
                *d->pause_flag = 0;
                d->running = 1;
                d->pause_req = d->woke = 0;
                while (!d->pause_req && !d->woke && dap_serve_one(d) == 0)
                    ;
                if (!d->done)
                    dap_serve_pending(d);
                d->running = 0;
                if (d->done || d->terminated || !dbg_launch_alive(d->s))
                    return;
                if (!d->pause_req)
                    continue;
            }
        }
        if (rc == 0 && ev.kind == DBG_EV_INTERRUPT && how == DAP_RUN_CONTINUE && d->req_flag &&
            !(d->pause_flag && *d->pause_flag)) {
            *d->req_flag = 0; /* before serving: a request that comes now raises it again */
            d->running = 1;
            d->pause_req = 0;
            dap_serve_pending(d);
            d->running = 0;
            if (d->done || d->terminated || !dbg_launch_alive(d->s)) {
                if (!d->done && !d->terminated)
                    kernel_over(d, 0);
                return;
            }
            if (!d->pause_req)
                continue;
        }
        for (const char *p = ev.cond_error; *p;) {
            const char *nl = strchr(p, '\n');
            int len = nl ? (int)(nl - p) : (int)strlen(p);
            dap_outputf(d, "stderr", "Error in testing condition for breakpoint: %.*s\n", len, p);
            p += len + (nl != NULL);
        }
        if (rc != 0) {
            dap_outputf(d, "stderr", "%s\n", dbg_errmsg(d->s));
            if (!dbg_launch_alive(d->s)) {
                kernel_over(d, 0);
                return;
            }
            /* the step could not be made: still stopped where it was */
            ev = d->last;
            ev.kind = DBG_EV_STEP;
            dap_report_event(d, &ev);
            return;
        }
        if ((ev.kind == DBG_EV_BREAKPOINT || ev.kind == DBG_EV_WATCH) && !dap_bp_stop(d, &ev)) {
            how = DAP_RUN_CONTINUE; /* hit conditions, conditions or logpoints say go on */
            d->last = ev;
            continue;
        }
        if (check_passes(d, &ev)) {
            how = DAP_RUN_CONTINUE; /* its checker's exception filter is off: go on */
            d->last = ev;
            continue;
        }
        dap_report_event(d, &ev);
        return;
    }
}

/* ---- kernels of a PTX program ---------------------------------------------------------------- */
/* Engine breakpoint hit counts, to tell which breakpoint a CLI-made stop was. */
typedef struct dap_hits {
    int num, hits;
} hit_snap;

static hit_snap *snap_hits(dap_srv *d, int *n)
{
    *n = dbg_bp_count(d->s);
    hit_snap *h = calloc((size_t)*n + 1, sizeof *h);
    for (int i = 0; h && i < *n; i++) {
        dbg_bp *b = dbg_bp_at(d->s, i);
        h[i].num = b->num;
        h[i].hits = b->hits;
    }
    return h;
}

/* The event of the stop a CLI command made (it reported it as text); steps: the command was a
 * step (its stop is a step unless a breakpoint was hit). */
static void synth_event(dap_srv *d, const hit_snap *h, int nh, int steps, dbg_event *ev)
{
    memset(ev, 0, sizeof *ev);
    exec_stop st;
    int over = 0;
    if (dbg_last_stop(d->s, &st, &over) != 0) {
        ev->kind = DBG_EV_EXITED;
        return;
    }
    ev->stop = st;
    for (int i = 0; i < dbg_bp_count(d->s); i++) {
        dbg_bp *b = dbg_bp_at(d->s, i);
        int before = 0;
        for (int k = 0; h && k < nh; k++)
            if (h[k].num == b->num)
                before = h[k].hits;
        if (b->hits > before) {
            ev->kind = b->type == DBG_BP_BREAK ? DBG_EV_BREAKPOINT : DBG_EV_WATCH;
            ev->bp = b->num;
            if (ev->kind == DBG_EV_BREAKPOINT ? st.kind == EXEC_STOP_BREAKPOINT
                                               : st.kind == EXEC_STOP_WATCH)
                return;
        }
    }
    switch (st.kind) {
    case EXEC_STOP_DONE: ev->kind = DBG_EV_EXITED; break;
    case EXEC_STOP_BREAKPOINT: ev->kind = steps ? DBG_EV_STEP : DBG_EV_ENTRY; break;
    case EXEC_STOP_BRKPT: ev->kind = DBG_EV_BRKPT; break;
    case EXEC_STOP_TRAP: ev->kind = DBG_EV_TRAP; break;
    case EXEC_STOP_ASSERT: ev->kind = DBG_EV_ASSERT; break;
    case EXEC_STOP_EXCEPTION: ev->kind = DBG_EV_EXCEPTION; break;
    case EXEC_STOP_INTERRUPT: ev->kind = DBG_EV_INTERRUPT; break;
    case EXEC_STOP_LIMIT: ev->kind = DBG_EV_LIMIT; break;
    default: ev->kind = DBG_EV_STEP; break;
    }
    if (ev->kind == DBG_EV_EXITED && dbg_launch_alive(d->s))
        ev->kind = DBG_EV_STEP;
}

int dap_next_kernel(dap_srv *d)
{
    const char *line = d->kernels[d->next_kernel++];
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "launch %s", line);
    int nh;
    hit_snap *h = snap_hits(d, &nh);
    /* stop before the first line: breakpoints then apply (noDebug: it just runs) */
    dbg_request_entry_stop(d->s, !d->no_debug);
    int saved[2];
    dap_capture_begin(d, saved);
    int rc = dapv_command(d->v, cmd);
    char *text = dap_capture_end(d, saved);
    if (rc != 0) {
        dbg_request_entry_stop(d->s, 0);
        dap_outputf(d, "stderr", "ptxdbg: kernel \"%s\": %s", line, text ? text : "error\n");
        free(text);
        free(h);
        d->exit_code = 1;
        dap_terminate(d, 1);
        return -1;
    }
    free(text);
    dbg_event ev;
    synth_event(d, h, nh, 0, &ev);
    free(h);
    if (ev.kind == DBG_EV_ENTRY && !d->stop_on_entry) {
        d->last = ev;
        dap_resume(d, DAP_RUN_CONTINUE);
        return 0;
    }
    if (((ev.kind == DBG_EV_BREAKPOINT || ev.kind == DBG_EV_WATCH) && !dap_bp_stop(d, &ev)) ||
        check_passes(d, &ev)) {
        d->last = ev;
        dap_resume(d, DAP_RUN_CONTINUE);
        return 0;
    }
    dap_report_event(d, &ev);
    return 0;
}

void dap_before_command(dap_srv *d, const char *line, dap_cmd_state *st)
{
    st->progress = dbg_progress(d->s);
    st->focus = *dbg_get_focus(d->s);
    st->hits = snap_hits(d, &st->nhits);
    st->steps = dapv_command_steps(line);
}

/* After a CLI command of the debug console: a stop it made, the kernel's end (a continue that
 * finished it, `kill`), a focus it moved, `quit`. */
void dap_after_command(dap_srv *d, dap_cmd_state *cs)
{
    const dbg_focus *f = dbg_get_focus(d->s), *fb = &cs->focus;
    int ran = dbg_progress(d->s) != cs->progress;
    int alive = dbg_launch_alive(d->s);
    hit_snap *h = cs->hits;
    cs->hits = NULL;
    if (dapv_quit_requested(d->v) && !d->inproc) { /* the session ends */
        free(h);
        dbg_kill(d->s);
        dap_terminate(d, d->exit_code);
        return;
    }
    if (ran) {
        dbg_event ev;
        synth_event(d, h, cs->nhits, cs->steps, &ev);
        free(h);
        if (ev.kind == DBG_EV_EXITED) {
            kernel_over(d, 0);
            return;
        }
        dap_report_event(d, &ev);
        return;
    }
    free(h);
    if (d->stopped && !alive && !is_fault(&d->last)) { /* `kill` */
        kernel_over(d, 0);
        return;
    }
    if (f->valid && (!fb->valid || f->cta != fb->cta || f->warp != fb->warp ||
                     f->lane != fb->lane || f->frame != fb->frame) && d->stopped) {
        dbg_event ev = d->last;
        dap_handles_reset(d);
        dj_w w;
        dap_begin_event(d, &w, "stopped");
        djw_obj(&w, "body");
        djw_str(&w, "reason", "focus");
        exec_dim3 b = dbg_focus_block(d->s), t = dbg_focus_thread(d->s);
        char desc[160];
        snprintf(desc, sizeof desc, "focus on block (%u,%u,%u) thread (%u,%u,%u)", b.x, b.y, b.z,
                 t.x, t.y, t.z);
        djw_str(&w, "description", desc);
        djw_int(&w, "threadId", dap_thread_id(d, f->cta, f->warp));
        djw_bool(&w, "allThreadsStopped", 1);
        djw_obj_end(&w);
        dap_send(d, &w);
        d->last = ev;
    }
}

void dap_exception_info(dap_srv *d, const dj *req)
{
    int check = d->stopped && d->last.kind == DBG_EV_CHECK;
    if (!d->stopped || (!is_fault(&d->last) && !check)) {
        dap_respond_err(d, req, "exceptionInfo: the kernel is not stopped at an exception.");
        return;
    }
    char id[64], desc[2048];
    const char *name = "";
    if (check)
        check_text(d, &d->last, id, sizeof id, desc, sizeof desc, &name);
    else
        fault_text(d, &d->last, id, sizeof id, desc, sizeof desc, &name);
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_str(&w, "exceptionId", id);
    djw_str(&w, "description", desc);
    djw_str(&w, "breakMode", "always");
    djw_obj(&w, "details");
    if (check) {   /* the finding's whole report, in the checkers' words (chk_format) */
        char text[4096];
        chk_format(d->last.finding, "", text, sizeof text);
        djw_str(&w, "message", text);
    } else {
        djw_str(&w, "message", d->last.stop.msg[0] ? d->last.stop.msg : desc);
    }
    djw_str(&w, "typeName", name);
    djw_str(&w, "fullTypeName", id);
    /* the faulting lane's stack, as `bt` shows it */
    int saved[2];
    dap_capture_begin(d, saved);
    int rc = dapv_command(d->v, "backtrace");
    char *bt = dap_capture_end(d, saved);
    if (rc == 0 && bt && *bt)
        djw_str(&w, "stackTrace", bt);
    free(bt);
    djw_obj_end(&w);
    djw_obj_end(&w);
    dap_send(d, &w);
}

/* A "[x,y,z]" coordinate array (missing components 0). */
static int coord(const dj *a, const char *key, exec_dim3 *out, int *given)
{
    const dj *v = dj_get(a, key);
    *given = v != NULL;
    out->x = out->y = out->z = 0;
    if (!v)
        return 0;
    if (v->kind != DJ_ARR || v->count < 1 || v->count > 3)
        return -1;
    uint32_t c[3] = {0, 0, 0};
    for (int i = 0; i < v->count; i++) {
        const dj *e = v->items[i];
        if (e->kind != DJ_NUM || e->num < 0 || e->num > 4294967295.0 || e->num != (uint32_t)e->num)
            return -1;
        c[i] = (uint32_t)e->num;
    }
    out->x = c[0];
    out->y = c[1];
    out->z = c[2];
    return 0;
}

void dap_focus_request(dap_srv *d, const dj *req)
{
    if (!d->stopped) {
        dap_respond_err(d, req, "ptxdbg/focus: no kernel is stopped.");
        return;
    }
    const dj *a = dj_get(req, "arguments");
    exec_dim3 blk, thr;
    int hb, ht;
    if (coord(a, "block", &blk, &hb) != 0 || coord(a, "thread", &thr, &ht) != 0) {
        dap_respond_err(d, req, "ptxdbg/focus: block and thread are arrays [x, y, z] of "
                        "non-negative integers.");
        return;
    }
    if (!hb && !ht) {
        dap_respond_err(d, req, "ptxdbg/focus: give block and/or thread.");
        return;
    }
    if (!hb)
        blk = dbg_focus_block(d->s);
    if (!ht)
        thr = dbg_focus_thread(d->s);
    /* through the CLI's `cuda block (..) thread (..)`, which validates as cuda-gdb does */
    char line[200];
    snprintf(line, sizeof line, "cuda block (%u,%u,%u) thread (%u,%u,%u)", blk.x, blk.y, blk.z,
             thr.x, thr.y, thr.z);
    dap_cmd_state cs;
    dap_before_command(d, line, &cs);
    cs.focus.valid = 0; /* always tell the editor, even when the focus stays */
    int saved[2];
    dap_capture_begin(d, saved);
    int rc = dapv_command(d->v, line);
    char *text = dap_capture_end(d, saved);
    if (rc != 0) {
        size_t n = text ? strlen(text) : 0;
        while (n && text[n - 1] == '\n')
            text[--n] = 0;
        dap_respond_err(d, req, "ptxdbg/focus: %s", text && *text ? text : "cannot focus there");
        free(text);
        free(cs.hits);
        return;
    }
    free(text);
    const dbg_focus *f = dbg_get_focus(d->s);
    dj_w w;
    dap_begin_response(d, &w, req, 1, NULL);
    djw_obj(&w, "body");
    djw_int(&w, "threadId", dap_thread_id(d, f->cta, f->warp));
    djw_int(&w, "lane", f->lane);
    djw_obj_end(&w);
    dap_send(d, &w);
    dap_after_command(d, &cs);
}
