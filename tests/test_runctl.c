/* test_runctl.c - run control: every resume form bounded by max-steps and stopped by an interrupt
 * over a call that never returns; stepping one lane onto warp-synchronous instructions; device
 * function arguments at every instruction of the function (tests/fixtures/runctl/runctl.cu). */
#include <stdint.h>
#include <string.h>
#include "cmd.h"
#include "dbg_int.h"
#include "run_ptxdbg.h"

#define RUNCTL "tests/fixtures/runctl/runctl.G.ptx"

static dbg_session *s;
static cmd_ctx c;

static void open_session(void)
{
    s = dbg_new();
    ck_assert_ptr_nonnull(s);
    cmd_ctx_init(&c, s);
    ck_assert_int_eq(dbg_load_file(s, RUNCTL), 0);
}

static void close_session(void)
{
    cmd_ctx_free(&c);
    dbg_free(s);
}

static void run(const char *line) { ck_assert_msg(cmd_execute(&c, line) == 0, "%s", line); }

/* Name of the function the focused lane is in ("" when none). */
static const char *focus_func(void)
{
    dbg_frame fr[DBG_MAX_FRAMES];
    int n = dbg_frames(s, fr, DBG_MAX_FRAMES);
    return n > 0 && fr[0].func ? fr[0].func->sym->name : "";
}

static int focus_line(void)
{
    dbg_frame fr[DBG_MAX_FRAMES];
    return dbg_frames(s, fr, DBG_MAX_FRAMES) > 0 ? fr[0].line : -1;
}

/* ---- resume commands over a call that never returns ------------------------------------------
 * hang<<<1,64>>>: every thread calls spin(flag), which loops while *flag == 0; flag stays 0.
 * The session stops at `spin(flag);` (line 19) of the kernel. */
static void stop_before_spin(int lane_steps)
{
    open_session();
    run("buffer flag s32 1");
    run("buffer out s32 64");
    run("break runctl.cu:19");
    run("launch hang<<<1,64>>>(flag, out)");
    run("delete");
    run("cuda thread (3,0,0)");
    ck_assert_int_eq(focus_line(), 19);
    dbg_opts(s)->lane_steps = lane_steps;
}

/* Inside spin (a `step` from line 19 enters it). */
static void stop_inside_spin(int lane_steps)
{
    stop_before_spin(lane_steps);
    dbg_event ev;
    ck_assert_int_eq(dbg_step(s, DBG_STEP_LINE, &ev), 0);
    ck_assert_int_eq(ev.kind, DBG_EV_STEP);
    ck_assert_str_eq(focus_func(), "_Z4spinPVi");
    ck_assert_int_eq(focus_line(), 11);
}

enum { F_NEXT, F_STEP, F_UNTIL, F_FINISH, F_ADVANCE, F_NEXTI, F_CONTINUE, F_RUN, F_NFORMS };
static const char *const form_names[] = {"next", "step", "until", "finish", "advance", "nexti",
                                         "continue", "run"};

/* Resume with form f from where it never comes back: a call of spin (next, until, advance,
 * nexti over the call instruction) or inside spin (step, finish, continue). */
static int resume(int f, dbg_event *ev)
{
    uint32_t pcs[8];
    switch (f) {
    case F_NEXT: return dbg_step(s, DBG_STEP_LINE_OVER, ev);
    case F_STEP: return dbg_step(s, DBG_STEP_LINE, ev);
    case F_UNTIL: return dbg_step(s, DBG_STEP_UNTIL, ev);
    case F_FINISH: return dbg_step(s, DBG_STEP_FINISH, ev);
    case F_ADVANCE: {
        int n = dbg_resolve_location(s, "runctl.cu:20", pcs, 8);
        ck_assert_int_gt(n, 0);
        return dbg_advance_any(s, pcs, n, ev);
    }
    case F_NEXTI: {
        /* up to the call instruction, then over it */
        for (int k = 0; k < 64; k++) {
            uint32_t pc;
            const ptx_func *fn;
            const ptx_insn *pi;
            ck_assert_int_eq(dbg_focus_pc(s, &pc), 0);
            ck_assert_int_eq(exec_pc_insn(dbg_machine(s), pc, &fn, &pi), 0);
            if (!strcmp(pi->opcode, "call"))
                return dbg_step(s, DBG_STEP_INSN_OVER, ev);
            ck_assert_int_eq(dbg_step(s, DBG_STEP_INSN, ev), 0);
            ck_assert_int_eq(ev->kind, DBG_EV_STEP);
        }
        ck_abort_msg("no call instruction on line 19");
        return -1;
    }
    case F_RUN:
        ck_assert_int_eq(dbg_relaunch(s), 0);
        return dbg_continue(s, 0, ev);
    default: return dbg_continue(s, 0, ev);
    }
}

/* Variants: 0 by warp, 1 by lane, 2 by warp with scheduler-locking off (the other warp runs). */
static void start_form(int f, int variant)
{
    if (f == F_STEP || f == F_FINISH || f == F_CONTINUE || f == F_RUN)
        stop_inside_spin(variant == 1);
    else
        stop_before_spin(variant == 1);
    dbg_opts(s)->scheduler_locking = variant != 2;
}

/* Under max-steps N every form stops with the max-steps stop after exactly N warp-instructions,
 * the focus still on the stepped thread, inside spin; resuming stops again after N more. */
START_TEST(max_steps_bounds_every_form)
{
    for (int lane = 0; lane < 3; lane++)
        for (int f = 0; f < F_NFORMS; f++) {
            start_form(f, lane);
            dbg_opts(s)->run_max_steps = 20000;
            dbg_event ev;
            memset(&ev, 0, sizeof ev);
            ck_assert_int_eq(resume(f, &ev), 0);
            ck_assert_msg(ev.kind == DBG_EV_LIMIT, "%s%s: stop %d, not the max-steps stop",
                          form_names[f], lane == 1 ? " -lane" : lane ? " (unlocked)" : "", ev.kind);
            ck_assert_msg(ev.steps <= 20000 && ev.steps > 0, "%s: %llu steps", form_names[f],
                          (unsigned long long)ev.steps);
            const dbg_focus *fo = dbg_get_focus(s);
            /* a step keeps the stepped thread in focus (continue: where a warp runs) */
            ck_assert_msg((fo->warp == 0 && fo->lane == 3) || f >= F_CONTINUE,
                          "%s: focus moved to warp %u lane %u", form_names[f], fo->warp,
                          fo->lane);
            ck_assert(f >= F_CONTINUE || !strcmp(focus_func(), "_Z4spinPVi"));
            /* the launch lives on; the same form is bounded again */
            ck_assert_int_eq(dbg_launch_alive(s), 1);
            if (f != F_NEXTI && f != F_ADVANCE) {
                ck_assert_int_eq(resume(f == F_STEP || f == F_UNTIL ? F_NEXT
                                        : f == F_RUN ? F_CONTINUE : f, &ev), 0);
                ck_assert_int_eq(ev.kind, DBG_EV_LIMIT);
            }
            close_session();
        }
}
END_TEST

/* With no step limit, an interrupt request (the flag SIGINT sets) stops every form: reported as
 * an interrupt, never as the max-steps stop. (Were it not polled, the test would not end.) */
START_TEST(interrupt_stops_every_form)
{
    for (int lane = 0; lane < 3; lane++)
        for (int f = 0; f < F_NFORMS; f++) {
            start_form(f, lane);
            dbg_opts(s)->run_max_steps = 0;
            static volatile int flag;
            flag = 1;
            dbg_set_interrupt_flag(s, &flag);
            dbg_event ev;
            memset(&ev, 0, sizeof ev);
            ck_assert_int_eq(resume(f, &ev), 0);
            ck_assert_msg(ev.kind == DBG_EV_INTERRUPT, "%s%s: stop %d, not an interrupt",
                          form_names[f], lane == 1 ? " -lane" : lane ? " (unlocked)" : "", ev.kind);
            ck_assert_int_eq(dbg_launch_alive(s), 1);
            flag = 0;
            close_session();
        }
}
END_TEST

/* The focused lane is live and has a stack (bt and print work there). */
static void check_live_focus(const char *when)
{
    exec_lane_info li;
    ck_assert_int_eq(dbg_focus_lane(s, &li), 0);
    ck_assert_msg(li.state == EXEC_LANE_ACTIVE || li.state == EXEC_LANE_DIVERGENT ||
                  li.state == EXEC_LANE_BARRIER, "%s: the focused lane is not live (state %d)",
                  when, li.state);
    dbg_frame fr[DBG_MAX_FRAMES];
    ck_assert_msg(dbg_frames(s, fr, DBG_MAX_FRAMES) > 0, "%s: No stack.", when);
    dbg_value v;
    char err[256];
    ck_assert_msg(dbg_eval_focus(c.s, "threadIdx.x", &v, err, sizeof err) == 0, "%s: %s", when,
                  err);
    ck_assert_uint_ne(v.u, 0); /* thread 0 exited at once */
}

/* Ctrl-C while thread 0 has exited and the others spin (hang_late): the interrupt leaves the
 * focus on a live thread, at the launch's first stop and after a continue from the exited
 * thread, never on a thread without a stack. */
START_TEST(interrupt_focuses_a_live_thread)
{
    open_session();
    run("buffer flag s32 1");
    run("buffer out s32 64");
    exec_set_interrupt_after(dbg_machine(s), 20000);
    run("launch hang_late<<<2,64>>>(flag, out)");
    ck_assert(dbg_launch_alive(s));
    check_live_focus("first interrupt");
    run("cuda thread (0,0,0)"); /* the exited thread, by hand */
    exec_set_interrupt_after(dbg_machine(s), 20000);
    run("continue");
    ck_assert(dbg_launch_alive(s));
    check_live_focus("interrupt after continue");
    close_session();
}
END_TEST

/* Call depth of a lane of the focused warp (-1: not live). */
static int lane_depth(uint32_t lane)
{
    const dbg_focus *f = dbg_get_focus(s);
    exec_lane_info li;
    if (exec_lane_get(dbg_machine(s), f->cta, f->warp, lane, &li) != 0 ||
        li.state == EXEC_LANE_EXITED || li.state == EXEC_LANE_INVALID)
        return -1;
    return li.depth;
}

/* wloop: every lane at a breakpoint on the shuffle line (runctl.cu:133, a loop of
 * __shfl_down_sync, a call under -G). `next -lane` of lane 5 ends when lane 5 reaches its next
 * line: its warp-mates, which catch up with it through the breakpoint, are never reported as
 * hits and never take the focus; lane 5 moves on every step; and no lane is left inside
 * __shfl_down_sync while lane 5 is past it (breakpoint kept, then deleted). The sums are
 * right: lane 0 gets 0 + 1 + ... + 31. */
START_TEST(lane_next_at_a_breakpoint_line)
{
    open_session();
    run("buffer out s32 32");
    run("break runctl.cu:133");
    run("launch wloop<<<1,32>>>(out)");
    run("cuda thread (5,0,0)");
    int hits = dbg_bp_find(s, 1)->hits, lines = 0, last = focus_line();
    for (int i = 0; i < 12; i++) {
        if (i == 6)
            run("delete");
        run("next -lane");
        const dbg_focus *f = dbg_get_focus(s);
        ck_assert_msg(f->lane == 5 && f->warp == 0, "step %d: the focus moved to lane %u", i,
                      f->lane);
        lines += focus_line() != last;
        last = focus_line();
        if (lane_depth(5) == 0)
            for (uint32_t l = 0; l < 32; l++)
                ck_assert_msg(lane_depth(l) <= 0, "step %d: lane %u is inside a call lane 5 "
                              "has left", i, l);
    }
    ck_assert_int_ge(lines, 10); /* 133 -> 132 -> 133 ...: a new line every step */
    /* only lane 5's own arrivals at the breakpoint count (at most one per loop pass) */
    if (dbg_bp_find(s, 1))
        ck_assert_int_le(dbg_bp_find(s, 1)->hits - hits, 3);
    run("continue");
    dbg_value v;
    char err[256];
    ck_assert_int_eq(dbg_eval_focus(c.s, "out[0]", &v, err, sizeof err), 0);
    ck_assert_int_eq((int)v.u, 31 * 32 / 2);
    close_session();
}
END_TEST

/* The source file (base name) of a lane's position in the focused warp; "" when not live. */
static const char *lane_file(uint32_t lane)
{
    const dbg_focus *f = dbg_get_focus(s);
    exec_lane_info li;
    dbg_where w;
    if (exec_lane_get(dbg_machine(s), f->cta, f->warp, lane, &li) != 0 ||
        li.state == EXEC_LANE_EXITED || li.state == EXEC_LANE_INVALID)
        return "";
    dbg_pc_where(s, li.pc, &w);
    const char *b = w.file ? strrchr(w.file, '/') : NULL;
    return b ? b + 1 : w.file ? w.file : "";
}

/* lanes.cu, -G and -O3 -lineinfo: lane 5 stepped alone (`next -lane`) through loops whose body
 * has a shuffle: gap (a line between the loop's latch and __shfl_down_sync; the lane stepped
 * over it alone used to be an iteration ahead of its mates, which then entered the shuffle on
 * their own and stayed inside it) and tile (cooperative groups' t.shfl_down, inlined into the
 * line in both builds: the mates that executed it with lane 5 used to stay inside it). After
 * every step, when lane 5 is on a line of lanes.cu no lane of its warp is inside a callee or a
 * header's inlined code (sm_30_intrinsics.hpp, cooperative_groups), and the sums are right:
 * gap: lane 0 gets 0 + 1 + ... + 31; tile: thread 8k gets 8k + ... + 8k+7. */
static void lanes_in_loops(const char *ptx, const char *kernel, const char *line, int want0)
{
    s = dbg_new();
    ck_assert_ptr_nonnull(s);
    cmd_ctx_init(&c, s);
    ck_assert_int_eq(dbg_load_file(s, ptx), 0);
    run("buffer out s32 32");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "break lanes.cu:%s", line);
    run(cmd);
    snprintf(cmd, sizeof cmd, "launch %s<<<1,32>>>(out%s)", kernel,
             !strcmp(kernel, "gap") ? ", 0" : "");
    run(cmd);
    run("cuda thread (5,0,0)");
    run("delete");
    for (int i = 0; i < 14 && dbg_launch_alive(s) && lane_depth(5) >= 0; i++) {
        run("next -lane");
        if (!dbg_launch_alive(s) || dbg_get_focus(s)->lane != 5 || lane_depth(5) != 0 ||
            strcmp(lane_file(5), "lanes.cu") != 0)
            continue;
        for (uint32_t l = 0; l < 32; l++) {
            ck_assert_msg(lane_depth(l) <= 0, "%s %s step %d: lane %u is inside a call lane 5 "
                          "has left", ptx, kernel, i, l);
            const char *fl = lane_file(l);
            ck_assert_msg(!*fl || !strcmp(fl, "lanes.cu"), "%s %s step %d: lane %u is in %s "
                          "while lane 5 is past it", ptx, kernel, i, l, fl);
        }
    }
    if (dbg_launch_alive(s))
        run("continue");
    dbg_value v;
    char err[256];
    ck_assert_int_eq(dbg_eval_focus(c.s, "out[0]", &v, err, sizeof err), 0);
    ck_assert_int_eq((int)v.u, want0);
    close_session();
}

START_TEST(lane_steps_in_collective_loops)
{
    lanes_in_loops("tests/fixtures/runctl/lanes.G.ptx", "gap", "14", 31 * 32 / 2);
    lanes_in_loops("tests/fixtures/runctl/lanes.G.ptx", "tile", "24", 28);
    lanes_in_loops("tests/fixtures/runctl/lanes.lineinfo.ptx", "gap", "14", 31 * 32 / 2);
    lanes_in_loops("tests/fixtures/runctl/lanes.lineinfo.ptx", "tile", "24", 28);
}
END_TEST

/* A batch session (PTXDBG_MAX_STEPS) ends on the watchdog after `next` over the call, with the
 * max-steps message and a failing exit status, never "SIGINT". */
START_TEST(batch_watchdog_ends_next)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "PTXDBG_MAX_STEPS=100000 %s -batch -ex 'buffer flag s32 1' "
             "-ex 'buffer out s32 32' -ex 'break runctl.cu:19' "
             "-ex 'launch hang<<<1,32>>>(flag, out)' -ex 'next' -ex 'until' "
             "-ex 'next -lane' " RUNCTL " 2>&1; echo status=$?", rp_ptxdbg());
    char *buf = rp_run(cmd);
    ck_assert_ptr_nonnull(buf);
    int limits = 0;
    for (const char *q = buf; (q = strstr(q, "(max-steps)")) != NULL; q++)
        limits++;
    ck_assert_msg(limits == 3, "%s", buf);
    ck_assert_ptr_null(strstr(buf, "SIGINT"));
    ck_assert_ptr_nonnull(strstr(buf, "status=1"));
    free(buf);
}
END_TEST

/* ---- one lane onto warp-synchronous instructions ---------------------------------------------
 * wsync<<<1,B>>>(out): C reference of the kernel for block size B (B <= 64). */
static void wsync_ref(int B, int32_t *out)
{
    int32_t sh[64] = {0};
    for (int t = 0; t < B; t++)
        sh[t] = t * 3;
    for (int t = 0; t < B; t++) {
        int w0 = t & ~31, lane = t & 31;
        int nw = B - w0 < 32 ? B - w0 : 32;   /* lanes of this warp */
        int v = sh[63 - t];
        int src = (lane + 5) & 31;
        int s = src < nw ? sh[63 - (w0 + src)] : v;
        uint32_t b = 0;
        int any = 0, r = 0;
        uint32_t mm = 0;
        for (int l = 0; l < nw; l++) {
            int vl = sh[63 - (w0 + l)];
            b |= (uint32_t)((vl & 1) != 0) << l;
            any |= vl > 90;
            r += vl;
            if (l / 8 == lane / 8)
                mm |= 1u << l;
        }
        out[t] = s;
        out[64 + t] = (int32_t)b;
        out[128 + t] = any;
        out[192 + t] = (int32_t)mm;
        out[256 + t] = r;
        out[320 + t] = (int32_t)(nw == 32 ? 0xffffffffu : (1u << nw) - 1);
        out[384 + t] = sh[(t + 1) & 63];
    }
}

/* Stop at line 40 of wsync<<<1,B>>>, focus thread `tid`, then step with `kind` (one lane when
 * lane_steps) until the thread reaches line 51: each step is a plain step that moves it, never
 * an exception or the end of the kernel. Then run to the end and compare with the reference. */
static void step_through_wsync(int B, int tid, dbg_step_kind kind, int lane_steps)
{
    open_session();
    run("buffer out s32 448");
    run("break runctl.cu:40");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "launch wsync<<<1,%d>>>(out)", B);
    run(cmd);
    run("delete");
    snprintf(cmd, sizeof cmd, "cuda thread (%d,0,0)", tid);
    run(cmd);
    dbg_opts(s)->lane_steps = lane_steps;
    dbg_opts(s)->run_max_steps = 10000000;
    int k;
    for (k = 0; k < 4000 && focus_line() != 51; k++) {
        uint32_t before, after;
        ck_assert_int_eq(dbg_focus_pc(s, &before), 0);
        dbg_event ev;
        ck_assert_int_eq(dbg_step(s, kind, &ev), 0);
        ck_assert_msg(ev.kind == DBG_EV_STEP, "B=%d thread %d: step %d stopped with %d at pc "
                      "0x%x", B, tid, k, ev.kind, before);
        ck_assert_int_eq(dbg_focus_pc(s, &after), 0);
        ck_assert_msg(after != before || kind != DBG_STEP_INSN,
                      "B=%d thread %d: stepi at pc 0x%x did not move", B, tid, before);
    }
    ck_assert_int_eq(focus_line(), 51);
    ck_assert_int_ge(k, kind == DBG_STEP_INSN ? 40 : 8);   /* lines 40..50 were all stepped */
    dbg_event ev;
    ck_assert_int_eq(dbg_continue(s, 0, &ev), 0);
    ck_assert_int_eq(ev.kind, DBG_EV_EXITED);
    const dbg_buffer *b = dbg_buffer_find(s, "out");
    ck_assert_ptr_nonnull(b);
    int32_t got[448], want[448] = {0};
    ck_assert_int_eq(dbg_buffer_read(s, b, got), 0);
    wsync_ref(B, want);
    for (int t = 0; t < B; t++)
        for (int r = 0; r < 7; r++)
            ck_assert_msg(got[64 * r + t] == want[64 * r + t],
                          "B=%d stepping thread %d: out[%d] = %d, reference %d", B, tid,
                          64 * r + t, got[64 * r + t], want[64 * r + t]);
    close_session();
}

/* stepi -lane onto bar.sync in a one-warp block and in a two-warp block, and onto shfl, vote,
 * match, redux, activemask, bar.warp.sync (scheduler-locking on, the default). */
START_TEST(stepi_lane_onto_collectives)
{
    step_through_wsync(32, 7, DBG_STEP_INSN, 1);
    step_through_wsync(64, 40, DBG_STEP_INSN, 1);
    step_through_wsync(64, 0, DBG_STEP_INSN, 1);
    step_through_wsync(64, 31, DBG_STEP_INSN, 1);
}
END_TEST

START_TEST(line_steps_lane_onto_collectives)
{
    step_through_wsync(32, 5, DBG_STEP_LINE_OVER, 1);
    step_through_wsync(64, 37, DBG_STEP_LINE, 1);
    step_through_wsync(64, 12, DBG_STEP_UNTIL, 1);
}
END_TEST

/* warp steps (no -lane) onto bar.sync in a multi-warp block: the other warp arrives, no
 * fabricated deadlock */
START_TEST(warp_steps_onto_barrier)
{
    step_through_wsync(64, 33, DBG_STEP_INSN, 0);
    step_through_wsync(64, 3, DBG_STEP_LINE_OVER, 0);
    step_through_wsync(64, 63, DBG_STEP_LINE, 0);
}
END_TEST

/* coll<<<1,64>>>(out): C reference (ldmatrix, elect, redux.min, match.all, vote.all/.uni,
 * bar.red.popc, bar.arrive/bar.sync 2, 64). */
static void coll_ref(int32_t *out)
{
    for (int t = 0; t < 64; t++) {
        int lane = t & 31, w = t >> 5;
        out[t] = (int32_t)((uint32_t)(2 * lane) | (uint32_t)(2 * lane + 1) << 16);
        out[64 + t] = 0;
        out[128 + t] = lane == 0;
        out[192 + t] = 100 - 31;
        out[256 + t] = -1;
        out[320 + t] = 2;   /* all(lane < 40) * 2 + uni(lane < 16) */
        out[384 + t] = 32;
        out[448 + t] = w == 0 ? 0 : 7;
    }
}

/* From line 81 of coll, step thread `tid` with `kind` until it exits: every stop is a plain
 * step (or its exit), then the results equal the reference. */
static void step_through_coll(int tid, dbg_step_kind kind, int lane_steps)
{
    open_session();
    run("buffer out s32 512");
    run("break runctl.cu:81");
    run("launch coll<<<1,64>>>(out)");
    run("delete");
    char cmd[64];
    snprintf(cmd, sizeof cmd, "cuda thread (%d,0,0)", tid);
    run(cmd);
    dbg_opts(s)->lane_steps = lane_steps;
    dbg_opts(s)->run_max_steps = 10000000;
    dbg_event ev;
    int k;
    for (k = 0; k < 5000; k++) {
        ck_assert_int_eq(dbg_step(s, kind, &ev), 0);
        if (ev.kind == DBG_EV_LANE_EXITED || ev.kind == DBG_EV_EXITED)
            break;
        ck_assert_msg(ev.kind == DBG_EV_STEP, "thread %d: step %d stopped with %d", tid, k,
                      ev.kind);
    }
    ck_assert_int_gt(k, 10);
    if (ev.kind != DBG_EV_EXITED) {
        ck_assert_int_eq(dbg_continue(s, 0, &ev), 0);
        ck_assert_int_eq(ev.kind, DBG_EV_EXITED);
    }
    int32_t got[512], want[512];
    ck_assert_int_eq(dbg_buffer_read(s, dbg_buffer_find(s, "out"), got), 0);
    coll_ref(want);
    for (int i = 0; i < 512; i++)
        ck_assert_msg(got[i] == want[i], "stepping thread %d: out[%d] = %d, reference %d", tid,
                      i, got[i], want[i]);
    close_session();
}

START_TEST(lane_steps_onto_other_collectives)
{
    step_through_coll(5, DBG_STEP_INSN, 1);    /* producer warp */
    step_through_coll(40, DBG_STEP_INSN, 1);   /* consumer warp: waits for bar.arrive */
    step_through_coll(0, DBG_STEP_LINE_OVER, 1);
    step_through_coll(63, DBG_STEP_LINE, 1);
    step_through_coll(33, DBG_STEP_INSN, 0);
    step_through_coll(2, DBG_STEP_LINE_OVER, 0);
}
END_TEST

/* wmmak<<<1,32>>>: 16x16x16 f16 product (a row-major, b column-major, both iota), stepping one
 * lane through the wmma loads, mma and store. */
START_TEST(lane_steps_through_wmma)
{
    open_session();
    run("buffer a f16 256 = iota");
    run("buffer b f16 256 = iota");
    run("buffer c f32 256");
    run("break wmmak");
    run("launch wmmak<<<1,32>>>(a, b, c)");
    run("delete");
    run("cuda thread (3,0,0)");
    dbg_opts(s)->lane_steps = 1;
    dbg_event ev;
    for (int k = 0; k < 60; k++) {
        ck_assert_int_eq(dbg_step(s, DBG_STEP_LINE_OVER, &ev), 0);
        if (ev.kind != DBG_EV_STEP)
            break;
    }
    ck_assert(ev.kind == DBG_EV_STEP || ev.kind == DBG_EV_LANE_EXITED);
    ck_assert_int_eq(dbg_continue(s, 0, &ev), 0);
    ck_assert_int_eq(ev.kind, DBG_EV_EXITED);
    float got[256];
    ck_assert_int_eq(dbg_buffer_read(s, dbg_buffer_find(s, "c"), got), 0);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            double want = 0;
            for (int k = 0; k < 16; k++)
                want += (double)(i * 16 + k) * (double)(j * 16 + k);
            ck_assert_msg(got[i * 16 + j] == (float)want, "c[%d][%d] = %g, reference %g", i, j,
                          got[i * 16 + j], want);
        }
    close_session();
}
END_TEST

/* stuck<<<1,32>>>: threads 16..31 wait at __syncthreads, 0..15 in a full-warp shuffle: a real
 * deadlock. Lane steps end with the lane waiting in the shuffle (a plain step, the kernel still
 * alive, the lanes it waits for named); only running on reports the deadlock, as without any
 * stepping. */
START_TEST(lane_step_onto_unreachable_collective)
{
    for (int stepped = 0; stepped < 2; stepped++) {
        open_session();
        run("buffer out s32 32");
        run("break runctl.cu:110");
        run("launch stuck<<<1,32>>>(out)");
        run("delete");
        run("cuda thread (3,0,0)");
        dbg_opts(s)->lane_steps = 1;
        dbg_event ev;
        for (int k = 0; stepped && k < 3; k++) {
            ck_assert_int_eq(dbg_step(s, DBG_STEP_LINE_OVER, &ev), 0);
            ck_assert_int_eq(ev.kind, DBG_EV_STEP);
            ck_assert_int_eq(dbg_launch_alive(s), 1);
        }
        if (stepped) {
            exec_lane_info li;
            ck_assert_int_eq(dbg_focus_lane(s, &li), 0);
            ck_assert_uint_eq(li.waits_for, 0xffffffffu);
        }
        ck_assert_int_eq(dbg_continue(s, 0, &ev), 0);
        ck_assert_int_eq(ev.kind, DBG_EV_EXCEPTION);
        ck_assert_int_eq(ev.stop.exc, EXEC_EXC_BARRIER_DEADLOCK);
        close_session();
    }
}
END_TEST

/* ---- arguments of a one-line device function ---------------------------------------------------
 * calls<<<1,32>>>(out, a, 5): bump(out, a + t, 5 + t). At `break bump` and at every instruction
 * of bump (stepped into from the call), p == out, a == &a[t], v == 5 + t and *a == t. */
static uint64_t eval_u(const char *expr)
{
    dbg_value v;
    char err[256];
    ck_assert_msg(dbg_eval_focus(c.s, expr, &v, err, sizeof err) == 0, "%s: %s", expr, err);
    return v.u;
}

static void check_bump_args(int t)
{
    const dbg_buffer *out = dbg_buffer_find(s, "out"), *a = dbg_buffer_find(s, "a");
    ck_assert_uint_eq(eval_u("p"), out->addr);
    ck_assert_uint_eq(eval_u("a"), a->addr + 4 * (uint64_t)t);
    ck_assert_uint_eq((uint32_t)eval_u("v"), (uint32_t)(5 + t));
    ck_assert_uint_eq((uint32_t)eval_u("*a"), (uint32_t)t);
}

START_TEST(args_at_break_on_one_line_function)
{
    open_session();
    run("buffer out s32 32");
    run("buffer a s32 32 = iota");
    run("break bump");
    run("launch calls<<<1,32>>>(out, a, 5)");
    ck_assert_str_eq(focus_func(), "_Z4bumpPiPKii");
    int lanes[] = {0, 3, 17, 31};
    for (int i = 0; i < 4; i++) {
        char cmd[64];
        snprintf(cmd, sizeof cmd, "cuda thread (%d,0,0)", lanes[i]);
        run(cmd);
        check_bump_args(lanes[i]);
    }
    /* the body runs before the next step leaves the function: out[t] = t + t * (5 + t) */
    run("delete");
    dbg_event ev;
    ck_assert_int_eq(dbg_continue(s, 0, &ev), 0);
    ck_assert_int_eq(ev.kind, DBG_EV_EXITED);
    int32_t got[32];
    ck_assert_int_eq(dbg_buffer_read(s, dbg_buffer_find(s, "out"), got), 0);
    for (int t = 0; t < 32; t++)
        ck_assert_int_eq(got[t], 2 * (t + t * (5 + t)));
    close_session();
}
END_TEST

/* Stopped at the call of bump (line 31), thread `tid` in focus. */
static void stop_at_bump_call(int tid)
{
    open_session();
    run("buffer out s32 32");
    run("buffer a s32 32 = iota");
    run("break runctl.cu:31");
    run("launch calls<<<1,32>>>(out, a, 5)");
    run("delete");
    char cmd[64];
    snprintf(cmd, sizeof cmd, "cuda thread (%d,0,0)", tid);
    run(cmd);
}

START_TEST(args_at_every_instruction)
{
    stop_at_bump_call(6);
    int inside = 0;
    for (int k = 0; k < 200; k++) {
        dbg_event ev;
        ck_assert_int_eq(dbg_step(s, DBG_STEP_INSN, &ev), 0);
        ck_assert_int_eq(ev.kind, DBG_EV_STEP);
        if (!strcmp(focus_func(), "_Z4bumpPiPKii")) {
            check_bump_args(6);
            inside++;
        } else if (inside) {
            break;
        }
    }
    ck_assert_int_ge(inside, 5);   /* the loads, the body and the ret */
    close_session();
}
END_TEST

/* scale(Pair p, float f) of tests/fixtures/scenarios/scen.cu, called with p = {g, 0.5 t} and
 * f = 2: f (a register loaded in the prologue) is 2 at every instruction; p, which the prologue
 * copies into the local depot, is either not available yet or exactly {5, 2.5} (thread 5). */
START_TEST(args_through_a_prologue_with_a_struct)
{
    s = dbg_new();
    ck_assert_ptr_nonnull(s);
    cmd_ctx_init(&c, s);
    ck_assert_int_eq(dbg_load_file(s, "tests/fixtures/scenarios/scen.G.ptx"), 0);
    run("buffer out s32 64");
    run("buffer fout f32 64");
    run("break scen.cu:40");
    run("launch scen<<<1,32>>>(out, fout, 64)");
    run("delete");
    run("cuda thread (5,0,0)");
    int inside = 0, have_p = 0;
    for (int k = 0; k < 100; k++) {
        dbg_event ev;
        ck_assert_int_eq(dbg_step(s, DBG_STEP_INSN, &ev), 0);
        ck_assert_int_eq(ev.kind, DBG_EV_STEP);
        if (strcmp(focus_func(), "_Z5scale4Pairf") != 0) {
            if (inside)
                break;
            continue;
        }
        inside++;
        dbg_value v;
        char err[256];
        ck_assert_msg(dbg_eval_focus(c.s, "f", &v, err, sizeof err) == 0, "%s", err);
        ck_assert(v.kind == DBG_V_FLOAT && v.f == 2.0);
        ck_assert_msg(dbg_eval_focus(c.s, "p", &v, err, sizeof err) == 0, "%s", err);
        if (v.optout) {
            ck_assert_int_eq(have_p, 0);   /* available from the copy on, never lost */
            continue;
        }
        have_p = 1;
        ck_assert_uint_eq((uint32_t)eval_u("p.key"), 5);
        ck_assert_msg(dbg_eval_focus(c.s, "p.weight", &v, err, sizeof err) == 0, "%s", err);
        ck_assert(v.kind == DBG_V_FLOAT && v.f == 2.5);
    }
    ck_assert_int_ge(inside, 8);
    ck_assert_int_eq(have_p, 1);
    close_session();
}
END_TEST

/* `step` into the one-line function stops after its prologue, with the values passed */
START_TEST(step_into_one_line_function)
{
    stop_at_bump_call(9);
    dbg_event ev;
    ck_assert_int_eq(dbg_step(s, DBG_STEP_LINE, &ev), 0);
    ck_assert_int_eq(ev.kind, DBG_EV_STEP);
    ck_assert_str_eq(focus_func(), "_Z4bumpPiPKii");
    check_bump_args(9);
    close_session();
}
END_TEST

/* Transcript: tests/transcripts/runctl.cmd (next, until, finish, next -lane, step -lane over
 * the spinning call under max-steps; break bump and its arguments; next -lane over shfl, ballot,
 * any, match, reduce, activemask): every value in runctl.out was worked out from runctl.cu. */
START_TEST(transcript)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s -batch -x tests/transcripts/runctl.cmd " RUNCTL " 2>&1",
             rp_ptxdbg());
    rp_check_transcript("runctl", cmd);
}
END_TEST

/* ---- breakpoints on template functions ----------------------------------------------------
 * templreduce.cu instantiates reduce_sum<T> for int, float and double: `break reduce_sum` (no
 * template arguments, as gdb accepts) names all three; `reduce_sum<int>` names one. */
START_TEST(break_template_name_all_instantiations)
{
    dbg_session *ts = dbg_new();
    ck_assert_ptr_nonnull(ts);
    cmd_ctx tc;
    cmd_ctx_init(&tc, ts);
    ck_assert_int_eq(dbg_load_file(ts, "tests/fixtures/corpus/templreduce.G.ptx"), 0);
    uint32_t pcs[8];
    int n = dbg_resolve_location(ts, "reduce_sum", pcs, 8);
    ck_assert_int_eq(n, 3);
    const char *want[3] = {"_Z10reduce_sumIiEvPKT_PS0_i", "_Z10reduce_sumIfEvPKT_PS0_i",
                           "_Z10reduce_sumIdEvPKT_PS0_i"};
    for (int i = 0; i < n; i++) {
        const ptx_func *fn;
        const ptx_insn *pi;
        ck_assert_int_eq(exec_pc_insn(dbg_machine(ts), pcs[i], &fn, &pi), 0);
        ck_assert_str_eq(fn->sym->name, want[i]);
    }
    ck_assert_int_eq(dbg_resolve_location(ts, "reduce_sum<int>", pcs, 8), 1);
    ck_assert_int_eq(dbg_resolve_location(ts, "reduce_su", pcs, 8), -1);
    ck_assert_ptr_nonnull(strstr(dbg_errmsg(ts), "not defined"));
    ck_assert_int_eq(dbg_resolve_location(ts, "reduce_sum", pcs, 2), 2);   /* bounded by max */
    cmd_ctx_free(&tc);
    dbg_free(ts);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("runctl");
    TCase *t = tcase_create("resume");
    tcase_set_timeout(t, 300);
    tcase_add_test(t, max_steps_bounds_every_form);
    tcase_add_test(t, interrupt_stops_every_form);
    tcase_add_test(t, interrupt_focuses_a_live_thread);
    tcase_add_test(t, batch_watchdog_ends_next);
    tcase_add_test(t, transcript);
    suite_add_tcase(su, t);
    TCase *l = tcase_create("lanes");
    tcase_set_timeout(l, 300);
    tcase_add_test(l, stepi_lane_onto_collectives);
    tcase_add_test(l, line_steps_lane_onto_collectives);
    tcase_add_test(l, warp_steps_onto_barrier);
    tcase_add_test(l, lane_steps_onto_other_collectives);
    tcase_add_test(l, lane_steps_through_wmma);
    tcase_add_test(l, lane_step_onto_unreachable_collective);
    tcase_add_test(l, lane_next_at_a_breakpoint_line);
    tcase_add_test(l, lane_steps_in_collective_loops);
    suite_add_tcase(su, l);
    TCase *a = tcase_create("args");
    tcase_set_timeout(a, 120);
    tcase_add_test(a, args_at_break_on_one_line_function);
    tcase_add_test(a, args_at_every_instruction);
    tcase_add_test(a, step_into_one_line_function);
    tcase_add_test(a, args_through_a_prologue_with_a_struct);
    tcase_add_test(a, break_template_name_all_instantiations);
    suite_add_tcase(su, a);
    return tu_run_suite(su);
}
