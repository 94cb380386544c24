/* test_simt.c - SIMT divergence and reconvergence, breakpoints, steps, special registers. */
#include <stdint.h>
#include <string.h>
#include "core_harness.h"

/* if/else: lanes < 5 take one side; all lanes reconverge and add their tid afterwards. */
static const char *k_ifelse = HDR
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .b32 %r<6>; .reg .b64 %rd<4>; .reg .pred %p<3>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " setp.lt.u32 %p1, %r1, 5;\n"
    " @%p1 bra L1;\n"
    " mov.u32 %r2, 100;\n"
    " bra L2;\n"
    "L1:\n"
    " mov.u32 %r2, 200;\n"
    "L2:\n"
    " activemask.b32 %r4;\n"
    " add.s32 %r3, %r2, %r1;\n"
    " mul.wide.u32 %rd2, %r1, 8;\n"
    " add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.v2.u32 [%rd3], {%r3, %r4};\n"
    " ret;\n}\n";

START_TEST(test_ifelse_reconverge)
{
    T t;
    ck_assert_msg(t_load(&t, k_ifelse) == 0, "%s", t.err);
    uint64_t out = t_buf(&t, 40 * 8);
    t_launch(&t, "k", 1, 40, &out, 8);
    exec_stop st = t_run(&t);
    ck_assert_int_eq(st.kind, EXEC_STOP_DONE);
    uint32_t v[80];
    t_read(&t, out, v, sizeof v);
    for (int i = 0; i < 40; i++) {
        ck_assert_uint_eq(v[2 * i], (i < 5 ? 200u : 100u) + (unsigned)i);
        /* after the join every valid lane of the warp is active again */
        ck_assert_uint_eq(v[2 * i + 1], i < 32 ? 0xffffffffu : 0xffu);
    }
    t_free(&t);
}
END_TEST

/* Loop with a per-lane trip count (tid % 7), nested loop inside; sum computed per lane. */
static const char *k_loops = HDR
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .b32 %r<12>; .reg .b64 %rd<4>; .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " rem.u32 %r2, %r1, 7;\n"          /* outer trip count */
    " mov.u32 %r3, 0;\n"               /* i */
    " mov.u32 %r4, 0;\n"               /* sum */
    "OUTER:\n"
    " setp.ge.u32 %p1, %r3, %r2;\n"
    " @%p1 bra DONE;\n"
    " mov.u32 %r5, 0;\n"               /* j */
    "INNER:\n"
    " setp.gt.u32 %p2, %r5, %r3;\n"
    " @%p2 bra NEXT;\n"
    " add.s32 %r4, %r4, %r5;\n"
    " add.s32 %r4, %r4, 1;\n"
    " add.s32 %r5, %r5, 1;\n"
    " bra INNER;\n"
    "NEXT:\n"
    " add.s32 %r3, %r3, 1;\n"
    " bra OUTER;\n"
    "DONE:\n"
    " activemask.b32 %r6;\n"
    " mul.wide.u32 %rd2, %r1, 8;\n"
    " add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.v2.u32 [%rd3], {%r4, %r6};\n"
    " ret;\n}\n";

START_TEST(test_loops_per_lane)
{
    T t;
    ck_assert_msg(t_load(&t, k_loops) == 0, "%s", t.err);
    uint64_t out = t_buf(&t, 64 * 8);
    t_launch(&t, "k", 1, 64, &out, 8);
    exec_stop st = t_run(&t);
    ck_assert_int_eq(st.kind, EXEC_STOP_DONE);
    uint32_t v[128];
    t_read(&t, out, v, sizeof v);
    for (unsigned i = 0; i < 64; i++) {
        unsigned s = 0;
        for (unsigned a = 0; a < i % 7; a++)
            for (unsigned b = 0; b <= a; b++)
                s += b + 1;
        ck_assert_uint_eq(v[2 * i], s);
        ck_assert_uint_eq(v[2 * i + 1], 0xffffffffu);
    }
    t_free(&t);
}
END_TEST

/* Nested if inside if/else, and lanes that exit early. */
static const char *k_nested = HDR
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .b32 %r<12>; .reg .b64 %rd<4>; .reg .pred %p<4>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " mul.wide.u32 %rd2, %r1, 4;\n"
    " add.s64 %rd3, %rd1, %rd2;\n"
    " setp.eq.u32 %p3, %r1, 31;\n"
    " @%p3 exit;\n"
    " and.b32 %r2, %r1, 1;\n"
    " setp.eq.u32 %p1, %r2, 0;\n"
    " @!%p1 bra ODD;\n"
    " and.b32 %r3, %r1, 2;\n"
    " setp.eq.u32 %p2, %r3, 0;\n"
    " mov.u32 %r4, 10;\n"
    " @%p2 bra J1;\n"
    " mov.u32 %r4, 20;\n"
    "J1:\n"
    " bra JOIN;\n"
    "ODD:\n"
    " mov.u32 %r4, 30;\n"
    "JOIN:\n"
    " activemask.b32 %r5;\n"
    " add.s32 %r4, %r4, %r5;\n"
    " st.global.u32 [%rd3], %r4;\n"
    " ret;\n}\n";

START_TEST(test_nested_exit)
{
    T t;
    ck_assert_msg(t_load(&t, k_nested) == 0, "%s", t.err);
    uint64_t out = t_buf(&t, 32 * 4);
    t_launch(&t, "k", 1, 32, &out, 8);
    exec_stop st = t_run(&t);
    ck_assert_int_eq(st.kind, EXEC_STOP_DONE);
    uint32_t v[32];
    t_read(&t, out, v, sizeof v);
    for (unsigned i = 0; i < 31; i++) {
        unsigned b = (i & 1) ? 30 : ((i & 2) ? 20 : 10);
        ck_assert_uint_eq(v[i], b + 0x7fffffffu);
    }
    ck_assert_uint_eq(v[31], 0);
    t_free(&t);
}
END_TEST

/* Breakpoints, warp info, stepping a warp and a lane, brkpt, limits. */
START_TEST(test_break_and_step)
{
    T t;
    ck_assert_msg(t_load(&t, k_ifelse) == 0, "%s", t.err);
    uint64_t out = t_buf(&t, 40 * 8);
    t_launch(&t, "k", 1, 40, &out, 8);
    const ptx_func *f = ptx_find_func(t.mod, "k");
    int64_t pc0 = exec_func_pc(t.m, f);
    ck_assert_int_eq(pc0, 0);
    /* instruction 4 is `mov.u32 %r2, 100` (the else side: lanes 5..31 of warp 0) */
    const ptx_insn *pi;
    ck_assert_int_eq(exec_pc_insn(t.m, 4, &f, &pi), 0);
    ck_assert_str_eq(pi->opcode, "mov");
    ck_assert_int_eq(pi->ops[1].ival, 100);
    ck_assert_int_eq(exec_set_break(t.m, 4, 1), 0);
    exec_run_opts o;
    memset(&o, 0, sizeof o);
    exec_stop st;
    ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
    ck_assert_int_eq(st.kind, EXEC_STOP_BREAKPOINT);
    ck_assert_uint_eq(st.pc, 4);
    ck_assert_uint_eq(st.warp, 0);
    ck_assert_uint_eq(st.lanes, 0xffffffe0u);
    exec_warp_info wi;
    ck_assert_int_eq(exec_warp_get(t.m, 0, 0, &wi), 0);
    ck_assert_uint_eq(wi.active, 0xffffffe0u);
    ck_assert_uint_eq(wi.divergent, 0x1fu);
    ck_assert_uint_eq(wi.pc, 4);
    exec_lane_info li;
    ck_assert_int_eq(exec_lane_get(t.m, 0, 0, 2, &li), 0);
    ck_assert_int_eq(li.state, EXEC_LANE_DIVERGENT);
    ck_assert_uint_eq(li.pc, 6); /* L1: mov.u32 %r2, 200 */
    uint64_t bits;
    ptx_type ty;
    ck_assert_int_eq(exec_reg_get(t.m, 0, 0, 7, 0, "%r1", &bits, &ty), 0);
    ck_assert_uint_eq(bits, 7);
    ck_assert_int_eq(ty, PTX_T_B32);
    /* step the warp: executes the mov of the stopped group (no second stop at it) */
    o.mode = EXEC_RUN_STEP_WARP;
    o.cta = 0;
    o.warp = 0;
    ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
    ck_assert_int_eq(st.kind, EXEC_STOP_STEP);
    ck_assert_uint_eq(st.pc, 5);
    ck_assert_int_eq(exec_reg_get(t.m, 0, 0, 7, 0, "%r2", &bits, NULL), 0);
    ck_assert_uint_eq(bits, 100);
    /* step lane 2 alone: it runs L1's mov */
    o.mode = EXEC_RUN_STEP_LANE;
    o.lane = 2;
    ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
    ck_assert_int_eq(st.kind, EXEC_STOP_STEP);
    ck_assert_uint_eq(st.pc, 7);
    ck_assert_int_eq(exec_reg_get(t.m, 0, 0, 2, 0, "%r2", &bits, NULL), 0);
    ck_assert_uint_eq(bits, 200);
    ck_assert_int_eq(exec_reg_get(t.m, 0, 0, 3, 0, "%r2", &bits, NULL), 0);
    ck_assert_uint_eq(bits, 0);
    /* limit */
    exec_set_break(t.m, 4, 0);
    o.mode = EXEC_RUN_CONTINUE;
    o.max_steps = 3;
    ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
    ck_assert_int_eq(st.kind, EXEC_STOP_LIMIT);
    o.max_steps = 0;
    ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
    ck_assert_int_eq(st.kind, EXEC_STOP_DONE);
    uint32_t v[80];
    t_read(&t, out, v, sizeof v);
    for (int i = 0; i < 40; i++)
        ck_assert_uint_eq(v[2 * i], (i < 5 ? 200u : 100u) + (unsigned)i);
    t_free(&t);
}
END_TEST

static const char *k_brkpt = HDR
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " setp.eq.u32 %p1, %r1, 3;\n"
    " @%p1 brkpt;\n"
    " mul.wide.u32 %rd2, %r1, 4;\n"
    " add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r1;\n"
    " ret;\n}\n";

START_TEST(test_brkpt_resumes)
{
    T t;
    ck_assert_msg(t_load(&t, k_brkpt) == 0, "%s", t.err);
    uint64_t out = t_buf(&t, 32 * 4);
    t_launch(&t, "k", 1, 32, &out, 8);
    exec_stop st = t_run(&t);
    ck_assert_int_eq(st.kind, EXEC_STOP_BRKPT);
    ck_assert_uint_eq(st.lanes, 1u << 3);
    ck_assert_uint_eq(st.pc, 3);
    st = t_run(&t);
    ck_assert_int_eq(st.kind, EXEC_STOP_DONE);
    uint32_t v[32];
    t_read(&t, out, v, sizeof v);
    for (unsigned i = 0; i < 32; i++)
        ck_assert_uint_eq(v[i], i);
    t_free(&t);
}
END_TEST

/* Special registers with CUDA values. */
static const char *k_sregs = HDR
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .b32 %r<12>; .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " mov.u32 %r2, %laneid;\n"
    " mov.u32 %r3, %warpid;\n"
    " mov.u32 %r4, %lanemask_lt;\n"
    " mov.u32 %r5, %ntid.x;\n"
    " mov.u32 %r6, %ctaid.x;\n"
    " mov.u32 %r7, %nctaid.x;\n"
    " mov.u32 %r8, %lanemask_ge;\n"
    " mov.u64 %rd4, %clock64;\n"
    " mov.u64 %rd5, %clock64;\n"
    " sub.s64 %rd6, %rd5, %rd4;\n"
    " cvt.u32.u64 %r9, %rd6;\n"
    " mov.u32 %r10, %dynamic_smem_size;\n"
    " mov.u32 %r11, %tid.y;\n"
    " mov.u32 %r0, %ctaid.x;\n"
    " mad.lo.s32 %r0, %r0, %r5, %r1;\n"
    " mul.wide.u32 %rd2, %r0, 48;\n"
    " add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};\n"
    " st.global.v4.u32 [%rd3+16], {%r5, %r6, %r7, %r8};\n"
    " st.global.v2.u32 [%rd3+32], {%r9, %r10};\n"
    " ret;\n}\n";

START_TEST(test_sregs)
{
    T t;
    ck_assert_msg(t_load(&t, k_sregs) == 0, "%s", t.err);
    uint64_t out = t_buf(&t, 2 * 48 * 48);
    const ptx_func *f = ptx_find_func(t.mod, "k");
    exec_dim3 g = { 2, 1, 1 }, b = { 48, 1, 1 };
    ck_assert_int_eq(exec_launch(t.m, f, g, b, 64, &out, 8), 0);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%d %s", st.kind, st.msg);
    uint32_t v[2 * 48 * 12];
    t_read(&t, out, v, sizeof v);
    for (unsigned c = 0; c < 2; c++)
        for (unsigned i = 0; i < 48; i++) {
            uint32_t *e = v + (c * 48 + i) * 12;
            unsigned l = i % 32;
            ck_assert_uint_eq(e[0], i);
            ck_assert_uint_eq(e[1], l);
            ck_assert_uint_eq(e[2], i / 32);
            ck_assert_uint_eq(e[3], (1u << l) - 1);
            ck_assert_uint_eq(e[4], 48);
            ck_assert_uint_eq(e[5], c);
            ck_assert_uint_eq(e[6], 2);
            ck_assert_uint_eq(e[7], ~((1u << l) - 1));
            ck_assert_uint_gt(e[8], 0); /* the clock advances */
            ck_assert_uint_eq(e[9], 64);
        }
    t_free(&t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("simt");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_ifelse_reconverge);
    tcase_add_test(tc, test_loops_per_lane);
    tcase_add_test(tc, test_nested_exit);
    tcase_add_test(tc, test_break_and_step);
    tcase_add_test(tc, test_brkpt_resumes);
    tcase_add_test(tc, test_sregs);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
