/* dbg_run.c - run control: continue, instruction and line steps, finish, until, advance. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dbg_int.h"

static void focus_to(dbg_session *s, const exec_stop *st, uint32_t lane, dbg_event *ev)
{
    if (!s->focus.valid || s->focus.cta != st->cta || s->focus.warp != st->warp ||
        s->focus.lane != lane)
        ev->focus_changed = 1;
    s->focus.valid = 1;
    s->focus.cta = st->cta;
    s->focus.warp = st->warp;
    s->focus.lane = lane;
    s->focus.frame = 0;
}

static uint32_t first_lane(uint32_t mask) { return mask ? (uint32_t)__builtin_ctz(mask) : 0; }

/* A condition that could not be evaluated: its message joins the run's (one a line). */
static void note_cond_error(dbg_session *s, const char *err)
{
    size_t len = strlen(s->cond_err);
    snprintf(s->cond_err + len, sizeof s->cond_err - len, "%s\n", err);
}

/* The end of a run command: the condition errors met on the way go with its event. */
static int take_cond_errors(dbg_session *s, dbg_event *ev, int rc)
{
    snprintf(ev->cond_error, sizeof ev->cond_error, "%s", s->cond_err);
    s->cond_err[0] = 0;
    return rc;
}

/* A breakpoint group stop: the first breakpoint at pc whose condition holds for some lane of
 * the group (ignore counts consumed). Returns its number, 0 if none holds; *lane is that lane. */
static int bp_check(dbg_session *s, uint32_t pc, uint32_t cta, uint32_t warp, uint32_t lanes,
                    uint32_t *lane)
{
    for (int i = 0; i < s->nbps; i++) {
        dbg_bp *b = s->bps[i];
        if (!dbg_bp_breaks_at(b, pc))
            continue;
        int hit = 0;
        uint32_t which = first_lane(lanes);
        if (b->cond_compiled) {
            for (uint32_t l = 0; l < 32 && !hit; l++) {
                if (!(lanes >> l & 1))
                    continue;
                char err[256];
                int r = dbg_cond_eval(s, b->cond_compiled, cta, warp, l, err, sizeof err);
                if (r < 0) /* reported with the event (dbg_event.cond_error) */
                    note_cond_error(s, err);
                if (r != 0) { /* an error stops too, like gdb */
                    hit = 1;
                    which = l;
                }
            }
        } else {
            hit = 1;
        }
        if (!hit)
            continue;
        b->hits++; /* gdb counts a crossing the ignore count skips as a hit too */
        if (b->ignore > 0) {
            b->ignore--;
            continue;
        }
        *lane = which;
        return b->num;
    }
    return 0;
}

/* After a stop at breakpoint num: a tbreak (or `enable delete`) goes, `enable once` and
 * `enable count` count down and disable it (gdb's dispositions del and dis). */
static void bp_disposition(dbg_session *s, int num, dbg_event *ev)
{
    dbg_bp *b = dbg_bp_find(s, num);
    if (b && b->temp) {
        dbg_bp_delete(s, num);
        ev->temp_deleted = 1;
    } else if (b && b->disp_dis && --b->disable_after <= 0) {
        b->disable_after = 0;
        dbg_bp_enable(s, num, 0);
        ev->bp_disabled = 1;
    }
}

static dbg_bp *watch_by_exec_id(dbg_session *s, int id)
{
    for (int i = 0; i < s->nbps; i++)
        if (s->bps[i]->type != DBG_BP_BREAK && s->bps[i]->exec_id == id)
            return s->bps[i];
    return NULL;
}

/* Turn a core stop into an event. Returns 1 to report it, 0 to keep running. */
/* Whether a frame's function is the one a breakpoint spec names: "tile_reduce" is also
 * "tile_reduce<...>", and a name may carry its parameter list. */
static int frame_named(const char *name, const char *spec)
{
    size_t n = strlen(spec);
    if (!name || strncmp(name, spec, n) != 0)
        return 0;
    return name[n] == 0 || name[n] == '<' || name[n] == '(';
}

/* A breakpoint on a function that stops where other functions are inlined into its first
 * instruction (cooperative groups' helpers into tile_reduce at -O3) selects the function's
 * frame, as gdb does (it hides the inlined frames that start there): the stop names tile_reduce,
 * not cooperative_groups::details::laneid. */
static void select_bp_frame(dbg_session *s, int num)
{
    dbg_bp *b = dbg_bp_find(s, num);
    if (!b || !b->spec[0] || strchr("*+-0123456789", b->spec[0]) ||
        (strchr(b->spec, ':') && !strstr(b->spec, "::")))
        return;
    dbg_frame fr[DBG_MAX_FRAMES];
    int nf = dbg_frames(s, fr, DBG_MAX_FRAMES);
    for (int k = 0; k < nf && fr[k].phys == 0; k++) {
        char name[512];
        dbg_frame_fn(s->demangle, &fr[k], name, sizeof name);
        if (frame_named(name, b->spec)) {
            s->focus.frame = k;
            return;
        }
        if (!fr[k].inl_name)
            return;
    }
}

static int handle_stop(dbg_session *s, const exec_stop *st, dbg_event *ev)
{
    ev->stop = *st;
    s->stopped_at_bp = 0;
    switch (st->kind) {
    case EXEC_STOP_DONE:
        ev->kind = DBG_EV_EXITED;
        s->alive = 0;
        return 1;
    case EXEC_STOP_BREAKPOINT: {
        uint32_t lane = st->lane;
        int entry = dbg_entry_at(s, st->pc);
        if (entry) { /* the kernel's entry: once per launch */
            s->entry_armed = 0;
            dbg_bp_sync(s);
        }
        int num = bp_check(s, st->pc, st->cta, st->warp, st->lanes, &lane);
        if (!num && entry) {
            ev->kind = DBG_EV_ENTRY;
            focus_to(s, st, first_lane(st->lanes), ev);
            return 1;
        }
        if (!num)
            return 0;
        ev->kind = DBG_EV_BREAKPOINT;
        ev->bp = num;
        s->stopped_at_bp = num;
        focus_to(s, st, lane, ev);
        select_bp_frame(s, num);
        bp_disposition(s, num, ev);
        return 1;
    }
    case EXEC_STOP_STEP:
        ev->kind = DBG_EV_STEP;
        return 1;
    case EXEC_STOP_BRKPT:
        ev->kind = DBG_EV_BRKPT;
        focus_to(s, st, st->lane, ev);
        return 1;
    case EXEC_STOP_CHECK:
        /* a checker's finding, after the instruction (resumable) */
        if (!(ev->finding = chk_by_id(s->chk, st->tag)))
            return 0;
        ev->kind = DBG_EV_CHECK;
        focus_to(s, st, st->lane, ev);
        return 1;
    case EXEC_STOP_TRAP:
    case EXEC_STOP_ASSERT:
    case EXEC_STOP_EXCEPTION:
        if (st->kind == EXEC_STOP_EXCEPTION && st->tag &&
            (ev->finding = chk_by_id(s->chk, st->tag))) {
            /* a fault a checker explains: its finding, and the launch is over */
            ev->kind = DBG_EV_CHECK;
            s->alive = 0;
            focus_to(s, st, st->lane, ev);
            return 1;
        }
        ev->kind = st->kind == EXEC_STOP_TRAP     ? DBG_EV_TRAP
                   : st->kind == EXEC_STOP_ASSERT ? DBG_EV_ASSERT
                                                  : DBG_EV_EXCEPTION;
        s->alive = 0;
        focus_to(s, st, st->lane, ev);
        return 1;
    case EXEC_STOP_WATCH: {
        dbg_bp *b = watch_by_exec_id(s, st->watch_id);
        if (!b)
            return 0;
        /* gdb reports a write watchpoint only when the value changed */
        if (b->type == DBG_BP_WATCH && memcmp(st->old_bytes, st->new_bytes, b->len) == 0)
            return 0;
        b->hits++;
        ev->kind = DBG_EV_WATCH;
        ev->bp = b->num;
        focus_to(s, st, st->lane, ev);
        return 1;
    }
    case EXEC_STOP_INTERRUPT: {
        /* Ctrl-C: the focus stays on its lane while that lane lives; a lane that exited (or a
           block that finished) has no stack, so the focus goes to the lane the core stopped
           at, which is always live */
        exec_lane_info li;
        ev->kind = DBG_EV_INTERRUPT;
        if (!s->focus.valid ||
            exec_lane_get(s->m, s->focus.cta, s->focus.warp, s->focus.lane, &li) != 0 ||
            (li.state != EXEC_LANE_ACTIVE && li.state != EXEC_LANE_DIVERGENT &&
             li.state != EXEC_LANE_BARRIER))
            focus_to(s, st, st->lane, ev);
        s->focus.frame = 0;
        return 1;
    }
    case EXEC_STOP_LIMIT:
        /* the warp that was about to run: where a runaway kernel spins */
        ev->kind = DBG_EV_LIMIT;
        focus_to(s, st, st->lane, ev);
        return 1;
    default:
        return 0;
    }
}

static int need_live(dbg_session *s)
{
    if (!dbg_launch_info(s) || !s->alive)
        return dbg_err(s, "The program is not being run.");
    return 0;
}

static int step_off(dbg_session *s, uint32_t pc, uint64_t budget, dbg_event *ev);

int dbg_stopped_bp(const dbg_session *s) { return s->stopped_at_bp; }

/* exec_run, with the front end's run hook around it (dbg_set_run_hook): an interrupt the hook
 * raised itself is not a stop; the run goes on within the same step budget. */
static int run_exec(dbg_session *s, exec_run_opts *o, exec_stop *st)
{
    uint64_t budget = o->max_steps, start = 0, now = 0;
    if (s->run_hook && budget)
        exec_stats(s->m, &start, NULL);
    for (;;) {
        if (s->run_hook)
            s->run_hook(s->run_hook_ctx, o, NULL);
        int r = exec_run(s->m, o, st);
        if (r != 0 || !s->run_hook)
            return r;
        if (s->run_hook(s->run_hook_ctx, NULL, st) != 1)
            return 0;
        if (s->interrupt)
            *s->interrupt = 0;
        if (st->kind != EXEC_STOP_INTERRUPT)
            return 0;
        if (budget) {
            exec_stats(s->m, &now, NULL);
            if (now - start >= budget) {
                st->kind = EXEC_STOP_LIMIT;
                return 0;
            }
            o->max_steps = budget - (now - start);
        }
    }
}

static int continue_run(dbg_session *s, int ignore, dbg_event *ev)
{
    memset(ev, 0, sizeof *ev);
    if (need_live(s) != 0)
        return -1;
    if (ignore > 0 && s->stopped_at_bp) {
        dbg_bp *b = dbg_bp_find(s, s->stopped_at_bp);
        if (b)
            b->ignore = ignore;
    }
    s->focus.frame = 0;
    /* max-steps bounds the whole continue, however many unreported stops (false conditions,
       unchanged watched values) it goes through */
    uint64_t limit = s->opts.run_max_steps, start = 0, now = 0;
    exec_stats(s->m, &start, NULL);
    if (s->landed_bp && s->focus.valid) {
        exec_lane_info li;
        s->landed_bp = 0;
        if (exec_lane_get(s->m, s->focus.cta, s->focus.warp, s->focus.lane, &li) == 0 &&
            li.state == EXEC_LANE_ACTIVE) {
            if (step_off(s, li.pc, limit, ev) != 0)
                return -1;
            if (ev->kind == DBG_EV_LIMIT) {
                exec_stats(s->m, &now, NULL);
                ev->steps = now - start;
            }
            if (ev->kind != DBG_EV_STEP)
                return 0;
            memset(ev, 0, sizeof *ev);
        }
    }
    exec_run_opts o;
    memset(&o, 0, sizeof o);
    o.mode = EXEC_RUN_CONTINUE;
    o.interrupt = s->interrupt;
    for (;;) {
        exec_stop st;
        memset(&st, 0, sizeof st);
        if (limit) {
            exec_stats(s->m, &now, NULL);
            if (now - start >= limit) {
                st = ev->stop;
                st.kind = EXEC_STOP_LIMIT;
                ev->steps = now - start;
                handle_stop(s, &st, ev);
                return 0;
            }
            o.max_steps = limit - (now - start);
        }
        exec_set_threads(s->m, s->opts.threads);
        exec_set_schedule(s->m, s->opts.schedule_random ? EXEC_SCHED_RANDOM
                                                        : EXEC_SCHED_ROUND_ROBIN,
                          s->opts.schedule_seed);
        if (run_exec(s, &o, &st) != 0)
            return dbg_err(s, "%s", exec_errmsg(s->m));
        if (handle_stop(s, &st, ev)) {
            if (ev->kind == DBG_EV_LIMIT) {
                exec_stats(s->m, &now, NULL);
                ev->steps = now - start;
            }
            return 0;
        }
    }
}

/* ---- steps ------------------------------------------------------------------------------------ */
typedef struct {
    int has_lane;
    exec_lane_info li;
    dbg_where w;
    int vdepth;               /* source-level frames - 1 (inlined frames count) */
    int stmt;                 /* pc starts a line-table row */
} lane_pos;

static void where_now(dbg_session *s, lane_pos *p)
{
    memset(p, 0, sizeof *p);
    if (exec_lane_get(s->m, s->focus.cta, s->focus.warp, s->focus.lane, &p->li) == 0) {
        p->has_lane = p->li.state != EXEC_LANE_EXITED && p->li.state != EXEC_LANE_INVALID;
        dbg_pc_where(s, p->li.pc, &p->w);
        dbg_frame fr[DBG_MAX_FRAMES];
        int n = dbg_lane_frames(s, s->focus.cta, s->focus.warp, s->focus.lane, fr,
                                DBG_MAX_FRAMES);
        p->vdepth = n > 0 ? n - 1 : p->li.depth;
        p->stmt = !dbg_has_source(s) || !s->dw || dw_is_stmt(s->dw, p->li.pc);
    }
}

/* Inside the prologue of a function just entered (before gdb's breakpoint address of it)? */
static int in_prologue(dbg_session *s, const lane_pos *p)
{
    if (!s->dw || !p->w.func)
        return 0;
    int64_t body = dw_func_body_pc(s->dw, p->w.func), first = exec_func_pc(s->m, p->w.func);
    return body >= 0 && first >= 0 && p->li.pc >= (uint32_t)first && p->li.pc < (uint32_t)body;
}

/* The line a position is on: the source line with .loc rows, else the PTX line. */
static int line_key(dbg_session *s, const lane_pos *p, const char **file)
{
    if (dbg_has_source(s)) {
        *file = p->w.file;
        return p->w.line;
    }
    *file = NULL;
    return p->w.ptx_line;
}

/* One exec_run of a step: one instruction (run_on 0) or, with run_on, the focused warp (lane)
 * at full speed until something stops it (a step mark, a breakpoint...). The step's share of
 * the max-steps budget is `budget` (0: none); Ctrl-C is polled by the core. */
static int step_run(dbg_session *s, int run_on, uint64_t budget, dbg_event *ev)
{
    exec_run_opts o;
    memset(&o, 0, sizeof o);
    o.mode = s->opts.lane_steps ? EXEC_RUN_STEP_LANE : EXEC_RUN_STEP_WARP;
    o.cta = s->focus.cta;
    o.warp = s->focus.warp;
    o.lane = s->focus.lane;
    o.others_run = !s->opts.scheduler_locking;
    o.interrupt = s->interrupt;
    o.run_on = run_on;
    o.max_steps = budget;
    exec_stop st;
    memset(&st, 0, sizeof st);
    if (run_exec(s, &o, &st) != 0)
        return dbg_err(s, "%s", exec_errmsg(s->m));
    memset(ev, 0, sizeof *ev);
    if (st.kind == EXEC_STOP_LIMIT) {
        /* the budget ends the step: the focus stays on the stepped lane */
        ev->kind = DBG_EV_LIMIT;
        ev->stop = st;
        return 0;
    }
    if (!handle_stop(s, &st, ev))
        ev->kind = DBG_EV_STEP; /* an unconditioned stop elsewhere, a step mark: look where */
    return 0;
}

/* The end of a line step of one lane that executed warp-synchronous instructions or calls with
 * its warp-mates: those behind it finish the line with it (exec_run_opts.rejoin), so no lane is
 * left inside an inlined collective (__shfl_down_sync in a cooperative-groups call) while the lane
 * is past it. A stop on the way (a fault of a mate, the budget) is the step's outcome. */
static int step_rejoin(dbg_session *s, uint64_t budget, dbg_event *ev)
{
    exec_run_opts o;
    memset(&o, 0, sizeof o);
    o.mode = EXEC_RUN_STEP_LANE;
    o.cta = s->focus.cta;
    o.warp = s->focus.warp;
    o.lane = s->focus.lane;
    o.rejoin = 1;
    o.interrupt = s->interrupt;
    o.max_steps = budget;
    exec_stop st;
    memset(&st, 0, sizeof st);
    if (exec_run(s->m, &o, &st) != 0)
        return dbg_err(s, "%s", exec_errmsg(s->m));
    if (st.kind == EXEC_STOP_STEP)
        return 0;
    dbg_event e2;
    memset(&e2, 0, sizeof e2);
    if (st.kind == EXEC_STOP_LIMIT) {
        e2.kind = DBG_EV_LIMIT;
        e2.stop = st;
    } else if (!handle_stop(s, &st, &e2)) {
        return 0;
    }
    e2.old_pc = ev->old_pc;
    *ev = e2;
    return 0;
}

/* A step ended on a breakpoint location of the focused lane: report it as that breakpoint. */
static void landed_on_bp(dbg_session *s, const lane_pos *p, dbg_event *ev)
{
    if (!p->has_lane || p->li.state != EXEC_LANE_ACTIVE)
        return;
    uint32_t lane = s->focus.lane;
    int num = bp_check(s, p->li.pc, s->focus.cta, s->focus.warp, 1u << s->focus.lane, &lane);
    if (num) {
        ev->kind = DBG_EV_BREAKPOINT;
        ev->bp = num;
        s->landed_bp = 1;
        select_bp_frame(s, num);
        bp_disposition(s, num, ev);
    }
}

/* One step of the focused warp; a breakpoint at the pc it stands on does not stop it (the core
 * skips it by itself only for lanes that reported it: their breakpoint pass). */
static int step_off(dbg_session *s, uint32_t pc, uint64_t budget, dbg_event *ev)
{
    /* the focused lane's pass at this pc is used by the step itself; else the breakpoint is
       lifted for the step */
    exec_warp_info wi;
    if (exec_warp_get(s->m, s->focus.cta, s->focus.warp, &wi) == 0 &&
        wi.bp_pass && wi.bp_pass_pc == pc) {
        s->landed_bp = 0;
        return step_run(s, 0, budget, ev);
    }
    int flagged = dbg_bp_at_pc(s, pc) != 0;
    if (flagged)
        exec_set_break(s->m, pc, 0);
    int rc = step_run(s, 0, budget, ev);
    if (flagged)
        exec_set_break(s->m, pc, 1);
    s->landed_bp = 0;
    return rc;
}

typedef enum { GOAL_INSN, GOAL_INSN_OVER, GOAL_LINE, GOAL_LINE_OVER, GOAL_FINISH, GOAL_UNTIL,
               GOAL_ADVANCE, GOAL_ADVANCE_ANY } goal_kind;

/* ---- step marks --------------------------------------------------------------------------------
 * A step runs at the speed of `continue`: instead of executing instruction after instruction
 * through the debugger, it sets step marks (exec_set_step_mark: internal breakpoints that stop
 * only the focused lane) on every pc where the step could end or has to look again, and lets the
 * core run. The marks are recomputed at each stop from where the lane is:
 *   - the return address into the frame the step started in (a callee was entered) or into the
 *     caller (finish, and every step that may leave the function);
 *   - in the step's own frame: the pcs of the function that start another line or another
 *     inlined frame (step, next, until), or that leave the inlined frame (finish); the calls of
 *     the function for `step`, which enters callees one instruction at a time; the locations of
 *     `advance` / `until LOC`;
 *   - in a callee entered by `step`: its line starts (its first line after the prologue);
 *   - every `exit` (and `ret` of the kernel), so the lane is seen before it leaves;
 *   - stepping one lane: every warp-synchronous instruction and call, which the core executes
 *     with the lanes it needs (EXEC_RUN_STEP_LANE).
 * Where the lane stops is judged exactly as after a single instruction, so the result is the
 * instruction-by-instruction one; only the speed differs. */
typedef struct {
    uint32_t *pcs;
    int n, cap;
} markset;

static void mark_add(markset *ms, uint32_t pc)
{
    if (ms->n == ms->cap) {
        int cap = ms->cap ? ms->cap * 2 : 64;
        uint32_t *p = realloc(ms->pcs, sizeof *p * (size_t)cap);
        if (!p)
            return;   /* fewer marks: the step stops less often, never wrongly */
        ms->pcs = p;
        ms->cap = cap;
    }
    ms->pcs[ms->n++] = pc;
}

static void marks_apply(dbg_session *s, markset *ms, int on)
{
    for (int i = 0; i < ms->n; i++)
        exec_set_step_mark(s->m, ms->pcs[i], on);
    if (!on)
        ms->n = 0;
}

/* Inlined frames at pc (0 when none or no line info). */
static int inl_count(dbg_session *s, uint32_t pc)
{
    return s->dw ? dw_inline_chain(s->dw, pc, NULL, 0) : 0;
}

/* How many of the innermost functions inlined at pc start there (gdb hides them at a stop:
 * the line is the call's, in the function they are inlined into): those of pc's chain that
 * the previous instruction's chain does not have, called from the same place. */
static int inl_starting(dbg_session *s, uint32_t pc)
{
    if (!s->dw || !dbg_has_source(s))
        return 0;
    dw_inline_frame ch[16], pv[16];
    int nc = dw_inline_chain(s->dw, pc, ch, 16);
    if (nc <= 0 || nc > 16)
        return 0;
    dbg_where w, wp;
    int np = 0;
    if (pc > 0 && dbg_pc_where(s, pc, &w) == 0 && dbg_pc_where(s, pc - 1, &wp) == 0 &&
        w.func == wp.func)
        np = dw_inline_chain(s->dw, pc - 1, pv, 16);
    if (np < 0 || np > 16)
        np = 0;
    int m = 0;   /* instances shared with pc - 1, counted from the outermost */
    while (m < nc && m < np) {
        const dw_inline_frame *a = &ch[nc - 1 - m], *b = &pv[np - 1 - m];
        if (!a->name || !b->name || strcmp(a->name, b->name) || a->call_line != b->call_line ||
            !a->call_file || !b->call_file || strcmp(a->call_file, b->call_file))
            break;
        m++;
    }
    return nc - m;
}

typedef struct {
    const char *file;
    int line, depth, vd, inl;
    uint32_t pc;
} step_anchor;

static void anchor_at(dbg_session *s, const lane_pos *p, step_anchor *a)
{
    a->line = line_key(s, p, &a->file);
    a->depth = p->li.depth;
    a->vd = p->vdepth;
    a->pc = p->li.pc;
    a->inl = inl_count(s, p->li.pc);
}

static int is_call(const ptx_insn *pi) { return pi && ptx_op_is(pi, PTX_OPF_CALL); }

static void marks_for(dbg_session *s, goal_kind goal, const lane_pos *p, const step_anchor *a,
                      const uint32_t *pcs, int npcs, markset *ms)
{
    exec_frame fr[DBG_MAX_FRAMES];
    int nf = exec_backtrace(s->m, s->focus.cta, s->focus.warp, s->focus.lane, fr,
                            DBG_MAX_FRAMES);
    int deeper = p->li.depth > a->depth;
    int k = deeper ? p->li.depth - a->depth : 1;
    if (k < nf)
        mark_add(ms, fr[k].pc + 1);   /* the return into the anchor frame / the caller */
    for (int i = 0; i < npcs; i++)
        mark_add(ms, pcs[i]);
    uint32_t n = exec_ninsns(s->m);
    for (uint32_t pc = 0; pc < n; pc++) {
        const ptx_func *f;
        const ptx_insn *pi;
        if (exec_pc_insn(s->m, pc, &f, &pi) != 0)
            continue;
        /* where the thread ends: exit, and ret in a kernel */
        if ((ptx_op_is(pi, PTX_OPF_RETURN) && (pi->opc == PTX_OPC_exit || f->is_entry)) ||
            (s->opts.lane_steps && exec_lane_group_insn(s->m, pc)))
            mark_add(ms, pc);
    }
    if (!p->w.func || p->li.depth < a->depth)
        return;
    int64_t lo = exec_func_pc(s->m, p->w.func);
    if (lo < 0)
        return;
    uint32_t hi = (uint32_t)lo + (uint32_t)p->w.func->ninsns;
    if (deeper) {
        /* `step` entered a callee: its line starts, the first after its prologue */
        if (goal == GOAL_LINE && p->w.line != 0 && s->dw)
            for (uint32_t q = (uint32_t)lo; q < hi; q++)
                if (dw_is_stmt(s->dw, q))
                    mark_add(ms, q);
        return;
    }
    if (goal != GOAL_LINE && goal != GOAL_LINE_OVER && goal != GOAL_UNTIL && goal != GOAL_FINISH)
        return;
    int src = dbg_has_source(s);
    for (uint32_t q = (uint32_t)lo; q < hi; q++) {
        int inl = inl_count(s, q);
        if (goal == GOAL_FINISH) {
            if (inl < a->inl)
                mark_add(ms, q);
            continue;
        }
        const ptx_insn *pi = &p->w.func->insns[q - (uint32_t)lo];
        dbg_where w;
        dbg_pc_where(s, q, &w);
        int line = src ? w.line : w.ptx_line;
        int other = line != 0 && (line != a->line || (src && w.file && a->file &&
                                                      strcmp(w.file, a->file) != 0));
        if (inl != a->inl || (other && (!src || !s->dw || dw_is_stmt(s->dw, q))) ||
            (goal == GOAL_LINE && is_call(pi)))
            mark_add(ms, q);
    }
}

/* The focused lane stands at a call instruction of the function it is in. */
static int at_call(dbg_session *s, const lane_pos *p)
{
    const ptx_func *f;
    const ptx_insn *pi;
    return exec_pc_insn(s->m, p->li.pc, &f, &pi) == 0 && is_call(pi);
}

static int step_loop(dbg_session *s, goal_kind goal, const uint32_t *pcs, int npcs,
                     dbg_event *ev)
{
    memset(ev, 0, sizeof *ev);
    if (need_live(s) != 0)
        return -1;
    if (!s->focus.valid)
        return dbg_err(s, "No CUDA thread in focus.");
    int sel = s->focus.frame;
    s->focus.frame = 0;
    lane_pos start;
    where_now(s, &start);
    if (!start.has_lane)
        return dbg_err(s, "The focused thread has exited; switch focus with \"cuda thread\".");
    step_anchor a;
    anchor_at(s, &start, &a);
    /* gdb steps in the selected frame: one of the functions inlined at the pc (a breakpoint
       on tile_reduce at -O3 selects it over the cooperative-groups helpers inlined into its
       first instruction) is stepped as if the frames inside it were calls */
    if (sel > 0 && goal != GOAL_INSN && goal != GOAL_INSN_OVER) {
        dbg_frame fr[DBG_MAX_FRAMES];
        int nf = dbg_frames(s, fr, DBG_MAX_FRAMES);
        if (sel < nf && fr[sel].phys == 0 && sel <= a.vd && sel <= a.inl) {
            a.vd -= sel;
            a.inl -= sel;
            if (dbg_has_source(s)) {
                a.file = fr[sel].file;
                a.line = fr[sel].line;
            }
        }
    }
    if (goal == GOAL_FINISH && a.vd == 0)
        return dbg_err(s, "\"finish\" not meaningful in the outermost frame.");
    int depth_in = a.depth, vd_in = a.vd; /* the frame the command started in */
    uint32_t pc_in = a.pc;
    uint64_t groups_in = exec_lane_group_runs(s->m);
    /* max-steps bounds the whole step as it bounds a continue */
    uint64_t limit = s->opts.run_max_steps, t0 = 0, now = 0;
    exec_stats(s->m, &t0, NULL);
    markset ms = {NULL, 0, 0};
    lane_pos p = start;
    int rc = 0;
    for (uint64_t n = 0;; n++) {
        uint64_t budget = 0;
        if (limit) {
            exec_stats(s->m, &now, NULL);
            if (now - t0 >= limit) {
                ev->kind = DBG_EV_LIMIT;
                break;
            }
            budget = limit - (now - t0);
        }
        /* the first instruction (off a breakpoint), stepi, and `step` into a call go one
           instruction; everything else runs to the marks */
        int single = n == 0 || goal == GOAL_INSN ||
                     (goal == GOAL_LINE && p.li.depth == a.depth && at_call(s, &p));
        uint64_t before = 0, after = 0;
        exec_stats(s->m, &before, NULL);
        if (n == 0) {
            rc = step_off(s, pc_in, budget, ev);
        } else if (single) {
            rc = step_run(s, 0, budget, ev);
        } else {
            marks_for(s, goal, &p, &a, pcs, npcs, &ms);
            marks_apply(s, &ms, 1);
            rc = step_run(s, 1, budget, ev);
            marks_apply(s, &ms, 0);
        }
        ev->old_pc = pc_in;
        if (rc != 0 || ev->kind != DBG_EV_STEP)
            break;
        exec_stats(s->m, &after, NULL);
        where_now(s, &p);
        if (n > 0 && after == before && ev->stop.kind == EXEC_STOP_STEP && p.has_lane) {
            /* nothing could run: the lane waits for lanes that cannot come; the step ends */
            ev->new_frame = p.vdepth != vd_in || p.li.depth != depth_in;
            break;
        }
        if (!p.has_lane) {
            ev->kind = dbg_launch_alive(s) ? DBG_EV_LANE_EXITED : DBG_EV_EXITED;
            if (ev->kind == DBG_EV_EXITED)
                s->alive = 0;
            break;
        }
        /* still waiting at the old place (another group of the warp ran) */
        int moved = p.li.pc != a.pc || p.li.depth != a.depth;
        const char *file;
        int line = line_key(s, &p, &file);
        int vd = p.vdepth;
        int newline = line != 0 && (line != a.line ||
                                    (file && a.file && strcmp(file, a.file) != 0) || vd != a.vd);
        /* gdb: a line step that returns from a call into the middle of a line of the caller
           (no line-table row at the return address) finishes that line: the step goes on as
           one in the caller, from where it returned */
        if ((goal == GOAL_LINE || goal == GOAL_LINE_OVER || goal == GOAL_UNTIL) &&
            p.li.depth < a.depth && !p.stmt && line != 0) {
            anchor_at(s, &p, &a);
            continue;
        }
        /* a new line counts where a row starts; a return to a caller stops at once (gdb) */
        int at_line = newline && (vd < a.vd || p.stmt);
        int done = 0;
        switch (goal) {
        case GOAL_INSN:
            done = 1;
            break;
        case GOAL_INSN_OVER:
            done = p.li.depth <= a.depth;
            break;
        case GOAL_LINE:
            done = moved && at_line && !(p.li.depth > a.depth && in_prologue(s, &p));
            break;
        case GOAL_LINE_OVER:
            done = moved && vd <= a.vd && p.li.depth <= a.depth && at_line;
            break;
        case GOAL_UNTIL:
            done = moved && (vd < a.vd || p.li.depth < a.depth ||
                             (vd == a.vd && p.li.depth == a.depth && at_line && p.li.pc > a.pc));
            break;
        case GOAL_FINISH:
            done = vd < a.vd || p.li.depth < a.depth;
            break;
        case GOAL_ADVANCE:
        case GOAL_ADVANCE_ANY: /* gdb's advance: the location may be in a callee */
            done = p.li.depth < a.depth;
            for (int i = 0; i < npcs && !done; i++)
                done = p.li.pc == pcs[i] && (goal == GOAL_ADVANCE_ANY || p.li.depth <= a.depth);
            break;
        }
        if (done) {
            /* functions inlined into the line that start here are hidden as gdb hides them:
               the frame shown is the one they are inlined into, at its line (a step from
               their caller's frame enters the outermost of them, as gdb's step does) */
            int hide = goal == GOAL_INSN || goal == GOAL_INSN_OVER ? 0 : inl_starting(s, p.li.pc);
            if (hide > 0 && goal == GOAL_LINE && vd - hide == a.vd && p.li.depth == a.depth)
                hide--;
            if (hide > 0 && hide <= vd)
                s->focus.frame = hide;
            ev->new_frame = vd - s->focus.frame != vd_in || p.li.depth != depth_in;
            if (goal != GOAL_INSN && goal != GOAL_INSN_OVER && s->opts.lane_steps &&
                exec_lane_group_runs(s->m) != groups_in) {
                if (limit) {
                    exec_stats(s->m, &now, NULL);
                    budget = now - t0 < limit ? limit - (now - t0) : 1;
                }
                rc = step_rejoin(s, budget, ev);
                if (rc != 0 || ev->kind != DBG_EV_STEP)
                    break;
            }
            if (goal != GOAL_INSN && goal != GOAL_INSN_OVER)
                landed_on_bp(s, &p, ev);
            break;
        }
    }
    free(ms.pcs);
    if (rc == 0 && ev->kind == DBG_EV_LIMIT) {
        exec_stats(s->m, &now, NULL);
        ev->steps = now - t0;
        ev->old_pc = pc_in;
    }
    return rc;
}

int dbg_continue(dbg_session *s, int ignore, dbg_event *ev)
{
    s->cond_err[0] = 0;
    return take_cond_errors(s, ev, continue_run(s, ignore, ev));
}

int dbg_step(dbg_session *s, dbg_step_kind kind, dbg_event *ev)
{
    static const goal_kind map[] = {GOAL_INSN, GOAL_INSN_OVER, GOAL_LINE, GOAL_LINE_OVER,
                                    GOAL_FINISH, GOAL_UNTIL};
    s->cond_err[0] = 0;
    return take_cond_errors(s, ev, step_loop(s, map[kind], NULL, 0, ev));
}

int dbg_advance(dbg_session *s, const uint32_t *pcs, int npcs, dbg_event *ev)
{
    s->cond_err[0] = 0;
    return take_cond_errors(s, ev, step_loop(s, GOAL_ADVANCE, pcs, npcs, ev));
}

int dbg_advance_any(dbg_session *s, const uint32_t *pcs, int npcs, dbg_event *ev)
{
    s->cond_err[0] = 0;
    return take_cond_errors(s, ev, step_loop(s, GOAL_ADVANCE_ANY, pcs, npcs, ev));
}
