/* test_barriers.c - CTA barriers: bar.sync/barrier.sync, bar.red, arrive, exited threads, deadlock detection. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core_harness.h"

/* Shared-memory tree reduction over 4 warps with bar.sync between the steps. */
static const char *k_reduce = HDR
    ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
    " .shared .align 4 .b32 sm[128];\n"
    " .reg .b32 %r<12>; .reg .b64 %rd<8>; .reg .pred %p<3>;\n"
    " ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " mul.wide.u32 %rd3, %r1, 4; add.s64 %rd4, %rd1, %rd3;\n"
    " ld.global.u32 %r2, [%rd4];\n"
    " mov.u32 %r3, sm;\n"
    " shl.b32 %r4, %r1, 2; add.s32 %r5, %r3, %r4;\n"
    " st.shared.u32 [%r5], %r2;\n"
    " bar.sync 0;\n"
    " mov.u32 %r6, 64;\n"
    "LOOP:\n"
    " setp.ge.u32 %p1, %r1, %r6;\n"
    " @%p1 bra SKIP;\n"
    " shl.b32 %r7, %r6, 2; add.s32 %r8, %r5, %r7;\n"
    " ld.shared.u32 %r9, [%r8]; ld.shared.u32 %r10, [%r5];\n"
    " add.s32 %r10, %r10, %r9; st.shared.u32 [%r5], %r10;\n"
    "SKIP:\n"
    " barrier.sync 0;\n"
    " shr.u32 %r6, %r6, 1;\n"
    " setp.ne.u32 %p2, %r6, 0;\n"
    " @%p2 bra LOOP;\n"
    " setp.ne.u32 %p1, %r1, 0;\n"
    " @%p1 exit;\n"
    " ld.shared.u32 %r11, [sm];\n"
    " st.global.u32 [%rd2], %r11;\n"
    " ret;\n}\n";

START_TEST(test_bar_reduce)
{
    T t;
    ck_assert_msg(t_load(&t, k_reduce) == 0, "%s", t.err);
    uint32_t in[128], sum[3] = { 0, 0, 0 };
    for (int c = 0; c < 1; c++)
        for (int i = 0; i < 128; i++) {
            in[i] = (uint32_t)(i * i + 3);
            sum[c] += in[i];
        }
    uint64_t p[2] = { t_buf(&t, sizeof in), t_buf(&t, 4) };
    t_write(&t, p[0], in, sizeof in);
    t_launch(&t, "k", 3, 128, p, sizeof p);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    uint32_t r;
    t_read(&t, p[1], &r, 4);
    ck_assert_uint_eq(r, sum[0]);
    uint64_t ss, dbase, dsz;
    exec_shared_var sv[4];
    ck_assert_int_eq(exec_shared_layout(t.m, sv, 4, &ss, &dbase, &dsz), 1);
    ck_assert_uint_eq(ss, 512);
    ck_assert_str_eq(sv[0].sym->name, "sm");
    ck_assert_int_eq(exec_cta_get_state(t.m, 0), EXEC_CTA_DONE);
    t_free(&t);
}
END_TEST

/* Exited threads do not block bar.sync; bar.red.popc/.and/.or; arrive + named barrier. */
static const char *k_red = HDR
    ".visible .entry k(.param .u64 out)\n{\n"
    " .shared .align 4 .b32 flag;\n"
    " .reg .b32 %r<12>; .reg .b64 %rd<8>; .reg .pred %p<5>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " setp.ge.u32 %p1, %r1, 90;\n"
    " @%p1 exit;\n"
    " and.b32 %r2, %r1, 3;\n"
    " setp.eq.u32 %p2, %r2, 0;\n"
    " bar.red.popc.u32 %r3, 0, %p2;\n"
    " bar.red.and.pred %p3, 1, %p2;\n"
    " bar.red.or.pred %p4, 2, %p2;\n"
    " selp.u32 %r4, 1, 0, %p3;\n"
    " selp.u32 %r5, 1, 0, %p4;\n"
    /* warps 0 and 1 (64 threads) meet at named barrier 3; warp 2 arrives without waiting */
    " setp.lt.u32 %p1, %r1, 64;\n"
    " @%p1 bra W;\n"
    " st.shared.u32 [flag], 77;\n"
    " bar.arrive 3, 96;\n"
    " bra E;\n"
    "W:\n"
    " bar.sync 3, 96;\n"
    "E:\n"
    " ld.shared.u32 %r6, [flag];\n"
    " mul.wide.u32 %rd2, %r1, 16; add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};\n"
    " ret;\n}\n";

START_TEST(test_bar_red_exit_arrive)
{
    T t;
    ck_assert_msg(t_load(&t, k_red) == 0, "%s", t.err);
    uint64_t out = t_buf(&t, 96 * 16);
    t_launch(&t, "k", 1, 96, &out, 8);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    uint32_t v[96][4];
    t_read(&t, out, v, sizeof v);
    for (int i = 0; i < 90; i++) {
        ck_assert_uint_eq(v[i][0], 23);  /* multiples of 4 below 90 */
        ck_assert_uint_eq(v[i][1], 0);
        ck_assert_uint_eq(v[i][2], 1);
        if (i < 64)
            ck_assert_uint_eq(v[i][3], 77);
    }
    t_free(&t);
}
END_TEST

/* Counted barriers count warps (PTX ISA: a warp arrives once its non-exited threads have
 * executed the instruction; b is in threads, a multiple of 32). Warp 0 arrives at barrier 1 and
 * exits at once; warp 1 waits there; warp 2 (whole, or 16 threads in a block of 80) stores, then
 * arrives: only its arrival completes the barrier, so warp 1 reads both stores. Lanes that
 * arrived and then exited count once, never again as exited lanes. */
static const char *k_arrive_exit = HDR
    ".visible .entry k(.param .u64 out)\n{\n"
    " .shared .align 4 .b32 f0; .shared .align 4 .b32 f2;\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .pred %p<3>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " setp.ge.u32 %p1, %r1, 32;\n"
    " @%p1 bra W;\n"
    " st.shared.u32 [f0], 5;\n"
    " bar.arrive 1, 96;\n"
    " exit;\n"
    "W:\n"
    " setp.ge.u32 %p2, %r1, 64;\n"
    " @%p2 bra P;\n"
    " bar.sync 1, 96;\n"
    " ld.shared.u32 %r2, [f0];\n"
    " ld.shared.u32 %r3, [f2];\n"
    " mad.lo.u32 %r4, %r3, 10, %r2;\n"
    " mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r4;\n"
    " ret;\n"
    "P:\n"
    " st.shared.u32 [f2], 9;\n"
    " bar.arrive 1, 96;\n"
    " ret;\n}\n";

START_TEST(test_counted_arrive_then_exit)
{
    for (unsigned nt = 96; nt >= 80; nt -= 16) {
        T t;
        ck_assert_msg(t_load(&t, k_arrive_exit) == 0, "%s", t.err);
        uint64_t out = t_buf(&t, 96 * 4);
        t_launch(&t, "k", 1, nt, &out, 8);
        exec_stop st = t_run(&t);
        ck_assert_msg(st.kind == EXEC_STOP_DONE, "%u threads: %s", nt, st.msg);
        uint32_t v[96];
        t_read(&t, out, v, sizeof v);
        for (int i = 32; i < 64; i++)
            ck_assert_msg(v[i] == 95, "%u threads: thread %d read %u, want 95", nt, i, v[i]);
        t_free(&t);
    }
}
END_TEST

/* Half of the threads wait at a barrier the others never reach. */
static const char *k_dead = HDR
    ".visible .entry k()\n{\n"
    " .reg .b32 %r<4>; .reg .pred %p<2>;\n"
    " mov.u32 %r1, %tid.x;\n"
    " setp.lt.u32 %p1, %r1, 32;\n"
    " @%p1 bra A;\n"
    " bar.sync 1;\n"
    " ret;\n"
    "A:\n"
    " bar.sync 2;\n"
    " ret;\n}\n";

START_TEST(test_deadlock)
{
    T t;
    ck_assert_msg(t_load(&t, k_dead) == 0, "%s", t.err);
    t_launch(&t, "k", 1, 64, NULL, 0);
    exec_stop st = t_run(&t);
    ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
    ck_assert_int_eq(st.exc, EXEC_EXC_BARRIER_DEADLOCK);
    ck_assert_ptr_nonnull(strstr(st.msg, "warp 0 lanes 0xffffffff wait at barrier 2"));
    ck_assert_ptr_nonnull(strstr(st.msg, "warp 1 lanes 0xffffffff wait at barrier 1"));
    exec_warp_info wi;
    ck_assert_int_eq(exec_warp_get(t.m, 0, 1, &wi), 0);
    ck_assert_uint_eq(wi.at_barrier, 0xffffffffu);
    ck_assert_int_eq(wi.barrier, 1);
    t_free(&t);
}
END_TEST

/* Stepping a warp into a barrier runs the rest of the CTA until it arrives. */
START_TEST(test_step_barrier)
{
    T t;
    ck_assert_msg(t_load(&t, k_reduce) == 0, "%s", t.err);
    uint32_t in[128];
    for (int i = 0; i < 128; i++)
        in[i] = (uint32_t)i;
    uint64_t p[2] = { t_buf(&t, sizeof in), t_buf(&t, 4) };
    t_write(&t, p[0], in, sizeof in);
    t_launch(&t, "k", 1, 128, p, sizeof p);
    exec_run_opts o;
    memset(&o, 0, sizeof o);
    o.mode = EXEC_RUN_STEP_WARP;
    exec_stop st;
    for (int i = 0; i < 9; i++) { /* up to and including bar.sync 0 (pc 8) */
        ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
        ck_assert_int_eq(st.kind, EXEC_STOP_STEP);
    }
    ck_assert_uint_eq(st.pc, 9);
    exec_warp_info wi;
    for (uint32_t w = 0; w < 4; w++) {
        ck_assert_int_eq(exec_warp_get(t.m, 0, w, &wi), 0);
        ck_assert_uint_eq(wi.at_barrier, 0);
    }
    o.mode = EXEC_RUN_CONTINUE;
    ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
    ck_assert_int_eq(st.kind, EXEC_STOP_DONE);
    uint32_t r;
    t_read(&t, p[1], &r, 4);
    ck_assert_uint_eq(r, 127 * 128 / 2);
    t_free(&t);
}
END_TEST

/* pc of the first instruction with opcode op (from pc `from`). */
static uint32_t find_op(T *t, const char *op, uint32_t from)
{
    for (uint32_t pc = from; pc < exec_ninsns(t->m); pc++) {
        const ptx_func *f;
        const ptx_insn *pi;
        if (exec_pc_insn(t->m, pc, &f, &pi) == 0 && strcmp(pi->opcode, op) == 0)
            return pc;
    }
    ck_abort_msg("no %s", op);
    return 0;
}

static void launch_reduce(T *t, uint64_t *p)
{
    ck_assert_msg(t_load(t, k_reduce) == 0, "%s", t->err);
    uint32_t in[128];
    for (int i = 0; i < 128; i++)
        in[i] = (uint32_t)i;
    p[0] = t_buf(t, sizeof in);
    p[1] = t_buf(t, 4);
    t_write(t, p[0], in, sizeof in);
    t_launch(t, "k", 1, 128, p, 2 * sizeof *p);
}

/* Every warp stopped at a breakpoint passes it once on resume, not only the last one that
 * reported it: warp 0 reports, warp 1 is stepped onto it alone (scheduler locking) and reports
 * too; a continue must not report warp 0 again. */
START_TEST(test_bp_pass_per_warp)
{
    T t;
    uint64_t p[2];
    launch_reduce(&t, p);
    uint32_t bp = find_op(&t, "ld", 2);   /* ld.global, before the first barrier */
    ck_assert_int_eq(exec_set_break(t.m, bp, 1), 0);
    exec_run_opts o;
    memset(&o, 0, sizeof o);
    exec_stop st;
    ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
    ck_assert_int_eq(st.kind, EXEC_STOP_BREAKPOINT);
    ck_assert_uint_eq(st.warp, 0);
    ck_assert_uint_eq(st.pc, bp);
    o.mode = EXEC_RUN_STEP_WARP;
    o.warp = 1;
    for (int i = 0; i < 64; i++) {
        ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
        if (st.kind != EXEC_STOP_STEP)
            break;
    }
    ck_assert_int_eq(st.kind, EXEC_STOP_BREAKPOINT);
    ck_assert_uint_eq(st.warp, 1);
    ck_assert_uint_eq(st.pc, bp);
    exec_warp_info wi;
    ck_assert_int_eq(exec_warp_get(t.m, 0, 0, &wi), 0);
    ck_assert_uint_eq(wi.bp_pass, 0xffffffffu);
    ck_assert_uint_eq(wi.bp_pass_pc, bp);
    o.mode = EXEC_RUN_CONTINUE;
    uint32_t seen = 0;
    for (int i = 0; i < 8; i++) {
        ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
        if (st.kind != EXEC_STOP_BREAKPOINT)
            break;
        ck_assert_uint_eq(st.pc, bp);
        ck_assert_msg(st.warp >= 2 && !(seen >> st.warp & 1), "warp %u reported again",
                      st.warp);
        seen |= 1u << st.warp;
    }
    ck_assert_int_eq(st.kind, EXEC_STOP_DONE);
    ck_assert_uint_eq(seen, 0xcu);
    uint32_t r;
    t_read(&t, p[1], &r, 4);
    ck_assert_uint_eq(r, 127 * 128 / 2);
    t_free(&t);
}
END_TEST

/* Stepping onto a barrier lets the other warps reach it and no further: a breakpoint just
 * after it is not hit by the step, every warp stands right after the barrier; each warp then
 * reports that breakpoint once on continue. */
START_TEST(test_step_barrier_no_further)
{
    T t;
    uint64_t p[2];
    launch_reduce(&t, p);
    uint32_t bar = find_op(&t, "bar", 0);
    ck_assert_int_eq(exec_set_break(t.m, bar + 1, 1), 0);
    exec_run_opts o;
    memset(&o, 0, sizeof o);
    o.mode = EXEC_RUN_STEP_WARP;   /* scheduler locking: the others wait at pc 0 */
    exec_stop st;
    for (uint32_t i = 0; i <= bar; i++) {
        ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
        ck_assert_msg(st.kind == EXEC_STOP_STEP, "step %u: stop %d warp %u pc %u", i, st.kind,
                      st.warp, st.pc);
    }
    ck_assert_uint_eq(st.pc, bar + 1);
    for (uint32_t w = 0; w < 4; w++) {
        exec_warp_info wi;
        ck_assert_int_eq(exec_warp_get(t.m, 0, w, &wi), 0);
        ck_assert_uint_eq(wi.at_barrier, 0);
        ck_assert_uint_eq(wi.active, 0xffffffffu);
        ck_assert_msg(wi.pc == bar + 1, "warp %u at pc %u, not %u", w, wi.pc, bar + 1);
    }
    o.mode = EXEC_RUN_CONTINUE;
    uint32_t seen = 0;
    for (int i = 0; i < 8; i++) {
        ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
        if (st.kind != EXEC_STOP_BREAKPOINT)
            break;
        ck_assert_uint_eq(st.pc, bar + 1);
        ck_assert(!(seen >> st.warp & 1));
        seen |= 1u << st.warp;
    }
    ck_assert_uint_eq(seen, 0xfu);
    ck_assert_int_eq(st.kind, EXEC_STOP_DONE);
    uint32_t r;
    t_read(&t, p[1], &r, 4);
    ck_assert_uint_eq(r, 127 * 128 / 2);
    t_free(&t);
}
END_TEST

/* A breakpoint another warp hits before it reaches the barrier ends the step there; the
 * stepped warp waits at the barrier, and is reported at the barrier instruction itself
 * (exec_warp_get, exec_lane_get, exec_backtrace) while it resumes after it. */
START_TEST(test_step_barrier_bp_first)
{
    T t;
    uint64_t p[2];
    launch_reduce(&t, p);
    uint32_t bar = find_op(&t, "bar", 0);
    exec_run_opts o;
    memset(&o, 0, sizeof o);
    o.mode = EXEC_RUN_STEP_WARP;
    exec_stop st;
    for (uint32_t i = 0; i < bar; i++) {
        ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
        ck_assert_int_eq(st.kind, EXEC_STOP_STEP);
    }
    ck_assert_uint_eq(st.pc, bar);
    ck_assert_int_eq(exec_set_break(t.m, bar - 1, 1), 0);
    ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
    ck_assert_int_eq(st.kind, EXEC_STOP_BREAKPOINT);
    ck_assert_uint_eq(st.warp, 1);
    ck_assert_uint_eq(st.pc, bar - 1);
    exec_warp_info wi;
    ck_assert_int_eq(exec_warp_get(t.m, 0, 0, &wi), 0);
    ck_assert_uint_eq(wi.at_barrier, 0xffffffffu);
    ck_assert_int_eq(wi.barrier, 0);
    ck_assert_uint_eq(wi.pc, bar);
    exec_lane_info li;
    ck_assert_int_eq(exec_lane_get(t.m, 0, 0, 3, &li), 0);
    ck_assert_int_eq(li.state, EXEC_LANE_BARRIER);
    ck_assert_uint_eq(li.pc, bar);
    exec_frame fr[4];
    ck_assert_int_eq(exec_backtrace(t.m, 0, 0, 3, fr, 4), 1);
    ck_assert_uint_eq(fr[0].pc, bar);
    /* warps 2 and 3 report it once each, then the barrier completes and the kernel ends */
    exec_set_break(t.m, bar - 1, 0);
    ck_assert_int_eq(exec_set_break(t.m, bar - 1, 1), 0);
    o.mode = EXEC_RUN_CONTINUE;
    uint32_t seen = 0;
    for (int i = 0; i < 8; i++) {
        ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
        if (st.kind != EXEC_STOP_BREAKPOINT)
            break;
        ck_assert_uint_eq(st.pc, bar - 1);
        seen |= 1u << st.warp;
    }
    ck_assert_int_eq(st.kind, EXEC_STOP_DONE);
    ck_assert_uint_eq(seen, 0xcu);
    uint32_t r;
    t_read(&t, p[1], &r, 4);
    ck_assert_uint_eq(r, 127 * 128 / 2);
    t_free(&t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("barriers");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_bar_reduce);
    tcase_add_test(tc, test_bar_red_exit_arrive);
    tcase_add_test(tc, test_counted_arrive_then_exit);
    tcase_add_test(tc, test_deadlock);
    tcase_add_test(tc, test_step_barrier);
    tcase_add_test(tc, test_bp_pass_per_warp);
    tcase_add_test(tc, test_step_barrier_no_further);
    tcase_add_test(tc, test_step_barrier_bp_first);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
