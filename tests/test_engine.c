/* test_engine.c - the engine driven directly through its public API, no CLI in between: load, launch, break, step by warp and by lane, evaluate, watch, core round trip, two sessions in one process. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <check.h>
/* the engine's public headers only (debugger/include/), as every front end */
#include "dbg.h"
#include "dbg_rows.h"
#include "dbg_value.h"

/* out[i] = 3 * i + 1 for i < n (the C reference is tri_ref). pcs: 5 the mul, 6 the add,
 * 10 the store, 11 the ret. */
static const char tri_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry tri(.param .u64 out, .param .u32 n)\n{\n"
    " .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out];\n"         /* 0 */
    " ld.param.u32 %r1, [n];\n"            /* 1 */
    " mov.u32 %r2, %tid.x;\n"              /* 2 */
    " setp.ge.u32 %p1, %r2, %r1;\n"        /* 3 */
    " @%p1 bra DONE;\n"                    /* 4 */
    " mul.lo.u32 %r3, %r2, 3;\n"           /* 5 */
    " add.u32 %r4, %r3, 1;\n"              /* 6 */
    " cvta.to.global.u64 %rd2, %rd1;\n"    /* 7 */
    " mul.wide.u32 %rd3, %r2, 4;\n"        /* 8 */
    " add.s64 %rd2, %rd2, %rd3;\n"         /* 9 */
    " st.global.u32 [%rd2], %r4;\n"        /* 10 */
    "DONE:\n ret;\n}\n";                   /* 11 */

static uint32_t tri_ref(uint32_t i) { return 3 * i + 1; }

/* A session with tri loaded, a buffer `out` of 64 u32 and the launch tri<<<1,64>>>(out, n)
 * started (nothing run yet). */
static dbg_session *tri_session(uint32_t n)
{
    dbg_session *s = dbg_new();
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(dbg_load_text(s, tri_ptx, strlen(tri_ptx), "tri.ptx"), 0);
    ck_assert_int_eq(dbg_buffer_add(s, "out", PTX_T_U32, 64, NULL), 0);
    const ptx_func *k = dbg_find_func(s, "tri");
    ck_assert_ptr_nonnull(k);
    dbg_param_row p[2];
    int64_t total = dbg_kernel_params(k, p, 2);
    ck_assert_int_eq(total, 12);
    ck_assert_str_eq(p[0].name, "out");
    ck_assert_int_eq(p[1].offset, 8);
    uint8_t params[12];
    uint64_t addr = dbg_buffer_find(s, "out")->addr;
    memcpy(params + p[0].offset, &addr, 8);
    memcpy(params + p[1].offset, &n, 4);
    exec_dim3 grid = {1, 1, 1}, block = {64, 1, 1};
    ck_assert_int_eq(dbg_launch(s, k, grid, block, 0, params, sizeof params), 0);
    return s;
}

static int64_t eval(dbg_session *s, const char *text)
{
    dbg_value v;
    char err[256];
    ck_assert_msg(dbg_eval_focus(s, text, &v, err, sizeof err) == 0, "%s: %s", text, err);
    ck_assert_int_eq(v.kind, DBG_V_INT);
    return dbg_value_int(&v);
}

static uint32_t lane_pc(dbg_session *s, uint32_t lane)
{
    exec_lane_info li;
    ck_assert_int_eq(dbg_lane_get(s, 0, 0, lane, &li), 0);
    return li.pc;
}

static void check_out(dbg_session *s, uint32_t n)
{
    uint32_t out[64];
    ck_assert_int_eq(dbg_buffer_read(s, dbg_buffer_find(s, "out"), out), 0);
    for (uint32_t i = 0; i < 64; i++)
        ck_assert_uint_eq(out[i], i < n ? tri_ref(i) : 0);
}

/* break at an instruction, evaluate at several lanes, step by warp and by lane, run to the end */
START_TEST(break_step_eval)
{
    dbg_session *s = tri_session(64);
    ck_assert_int_gt(dbg_break_add(s, "*6", NULL, 0), 0);
    dbg_event ev;
    ck_assert_int_eq(dbg_continue(s, 0, &ev), 0);
    ck_assert_int_eq(ev.kind, DBG_EV_BREAKPOINT);
    ck_assert_uint_eq(ev.stop.pc, 6);
    ck_assert_int_eq(dbg_set_focus(s, 0, 0, 5), 0);
    ck_assert_int_eq(eval(s, "%r3"), 15);
    ck_assert_int_eq(eval(s, "%r2 * 3 + 1"), tri_ref(5));
    /* by warp: every lane of warp 0 executes the add */
    dbg_opts(s)->lane_steps = 0;
    ck_assert_int_eq(dbg_step(s, DBG_STEP_INSN, &ev), 0);
    ck_assert_int_eq(ev.kind, DBG_EV_STEP);
    ck_assert_int_eq(eval(s, "%r4"), tri_ref(5));
    ck_assert_uint_eq(lane_pc(s, 5), 7);
    ck_assert_uint_eq(lane_pc(s, 9), 7);
    /* by lane: only lane 9 goes on */
    dbg_opts(s)->lane_steps = 1;
    ck_assert_int_eq(dbg_set_focus(s, 0, 0, 9), 0);
    ck_assert_int_eq(dbg_step(s, DBG_STEP_INSN, &ev), 0);
    ck_assert_uint_eq(lane_pc(s, 9), 8);
    ck_assert_uint_eq(lane_pc(s, 5), 7);
    ck_assert_int_eq(dbg_bp_delete(s, 0), 0);
    ck_assert_int_eq(dbg_continue(s, 0, &ev), 0);
    ck_assert_int_eq(ev.kind, DBG_EV_EXITED);
    check_out(s, 64);
    dbg_free(s);
}
END_TEST

/* a watchpoint on out[20]: the store of thread 20 stops after it with the new value */
START_TEST(watch_store)
{
    dbg_session *s = tri_session(64);
    uint64_t a = dbg_buffer_find(s, "out")->addr + 20 * 4;
    ck_assert_int_gt(dbg_watch_add(s, DBG_BP_WATCH, "out[20]", PTX_SPACE_GLOBAL, a, 4, PTX_T_U32),
                     0);
    dbg_event ev;
    ck_assert_int_eq(dbg_continue(s, 0, &ev), 0);
    ck_assert_int_eq(ev.kind, DBG_EV_WATCH);
    ck_assert_uint_eq(ev.stop.pc, 10);
    uint32_t now;
    memcpy(&now, ev.stop.new_bytes, 4);
    ck_assert_uint_eq(now, tri_ref(20));
    ck_assert_int_eq(eval(s, "out[20]"), tri_ref(20));
    dbg_free(s);
}
END_TEST

/* a core saved at a breakpoint reopens in another session with the same registers and memory */
START_TEST(core_round_trip)
{
    dbg_session *s = tri_session(40);
    ck_assert_int_gt(dbg_break_add(s, "*11", NULL, 0), 0);
    dbg_event ev;
    ck_assert_int_eq(dbg_continue(s, 0, &ev), 0);
    ck_assert_int_eq(ev.kind, DBG_EV_BREAKPOINT);
    ck_assert_int_eq(dbg_set_focus(s, 0, 0, 7), 0);
    int64_t r4 = eval(s, "%r4");
    ck_assert_int_eq(r4, tri_ref(7));
    /* what has been stored so far (lane 7 has stored; threads from 40 on never store) */
    uint32_t live[64];
    ck_assert_int_eq(dbg_buffer_read(s, dbg_buffer_find(s, "out"), live), 0);
    ck_assert_uint_eq(live[7], tri_ref(7));
    char path[] = "/tmp/test_engine_coreXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_msg(dbg_core_save(s, path) == 0, "%s", dbg_errmsg(s));
    dbg_free(s);
    dbg_session *c = dbg_new();
    ck_assert_msg(dbg_core_load(c, path) == 0, "%s", dbg_errmsg(c));
    unlink(path);
    ck_assert_int_eq(dbg_set_focus(c, 0, 0, 7), 0);
    ck_assert_int_eq(eval(c, "%r4"), r4);
    for (int i = 0; i < 64; i++) {
        char e[32];
        snprintf(e, sizeof e, "out[%d]", i);
        ck_assert_int_eq(eval(c, e), i < 40 ? live[i] : 0);
    }
    dbg_free(c);
}
END_TEST

/* two sessions in one process share nothing: each its module, buffers, launch, breakpoints,
 * focus, value history, convenience variables and print settings */
START_TEST(two_sessions)
{
    dbg_session *a = tri_session(64), *b = tri_session(10);
    ck_assert_int_gt(dbg_break_add(a, "*6", NULL, 0), 0);
    ck_assert_int_gt(dbg_break_add(b, "*10", NULL, 0), 0);
    ck_assert_int_eq(dbg_bp_count(a), 1);
    ck_assert_int_eq(dbg_bp_count(b), 1);
    dbg_event ea, eb;
    ck_assert_int_eq(dbg_continue(a, 0, &ea), 0);
    ck_assert_int_eq(dbg_continue(b, 0, &eb), 0);
    ck_assert_uint_eq(ea.stop.pc, 6);
    ck_assert_uint_eq(eb.stop.pc, 10);
    ck_assert_int_eq(dbg_set_focus(a, 0, 0, 3), 0);
    ck_assert_int_eq(dbg_set_focus(b, 0, 1, 2), 0);   /* warp 1 exists in both launches */
    ck_assert_uint_eq(dbg_get_focus(a)->lane, 3);
    ck_assert_uint_eq(dbg_get_focus(b)->warp, 1);
    /* convenience variables and the value history are the session's */
    ck_assert_int_eq(eval(a, "$x = 41"), 41);
    dbg_value v;
    char err[256];
    ck_assert_int_eq(dbg_eval_focus(b, "$x", &v, err, sizeof err), 0);
    ck_assert_int_eq(v.kind, DBG_V_VOID);
    dbg_history_push(a, &v);
    ck_assert_int_eq(dbg_session_history(a)->nhist, 1);
    ck_assert_int_eq(dbg_session_history(b)->nhist, 0);
    /* print settings */
    dbg_opts(a)->print_elements = 3;
    ck_assert_uint_eq(dbg_opts(b)->print_elements, 200);
    /* each runs to its own end */
    dbg_bp_delete(a, 0);
    dbg_bp_delete(b, 0);
    ck_assert_int_eq(dbg_continue(b, 0, &eb), 0);
    ck_assert_int_eq(eb.kind, DBG_EV_EXITED);
    ck_assert_int_eq(dbg_continue(a, 0, &ea), 0);
    ck_assert_int_eq(ea.kind, DBG_EV_EXITED);
    check_out(a, 64);
    check_out(b, 10);
    /* freeing one leaves the other whole */
    dbg_free(a);
    ck_assert_int_eq(eval(b, "out[9]"), tri_ref(9));
    dbg_free(b);
}
END_TEST

/* The synthetic types of casts and VALUE@N belong to the session whose history holds the
 * values: equal ones are made once per session, two sessions share none, and a value of one
 * keeps its types when the other is freed. (sizeof of a written array type makes two.) */
START_TEST(synthetic_types_per_session)
{
    dbg_session *a = dbg_new(), *b = dbg_new();
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    const dbg_history *ha = dbg_session_history(a), *hb = dbg_session_history(b);
    ck_assert_int_eq(ha->nsynth, 0);
    /* a written array type: the scalar and the array are made in a's history only */
    ck_assert_int_eq(eval(a, "sizeof(unsigned int[3])"), 12);
    ck_assert_int_eq(ha->nsynth, 2);
    ck_assert_int_eq(hb->nsynth, 0);
    ck_assert_int_eq(eval(a, "sizeof(unsigned int[3]) + 1"), 13);
    ck_assert_int_eq(ha->nsynth, 2);                  /* equal types are made once */
    ck_assert_int_eq(eval(b, "sizeof(unsigned int[3][2])"), 24);
    ck_assert_int_eq(hb->nsynth, 2);
    for (int i = 0; i < ha->nsynth; i++)
        for (int j = 0; j < hb->nsynth; j++)
            ck_assert_ptr_ne(ha->synth[i], hb->synth[j]);
    /* freeing one session leaves the other's types whole (ASan/valgrind see any stale use) */
    dbg_free(a);
    ck_assert_int_eq(eval(b, "sizeof(unsigned int[3][2]) * 2"), 48);
    ck_assert_int_eq(hb->nsynth, 2);
    dbg_free(b);
}
END_TEST

static Suite *engine_suite(void)
{
    Suite *s = suite_create("engine");
    TCase *tc = tcase_create("engine");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, break_step_eval);
    tcase_add_test(tc, watch_store);
    tcase_add_test(tc, core_round_trip);
    tcase_add_test(tc, two_sessions);
    tcase_add_test(tc, synthetic_types_per_session);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(engine_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
