/* test_ccond.c - breakpoint conditions run by the core agree with the debugger's evaluator. */
#include <stdio.h>
#include <string.h>
#include "core_harness.h"
#include "exec_core.h"
#include "cmd.h"
#include "dbg_expr.h"

/* Registers of every supported type, with values spread over signs and widths per lane. */
static const char *src = HDR
    ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .pred %p<3>; .reg .b16 %rs<3>; .reg .s16 %sh; .reg .b32 %r<6>; .reg .s32 %si;\n"
    "  .reg .u64 %rd<4>; .reg .s64 %sd; .reg .f32 %f<3>; .reg .f64 %fd<3>; .reg .f16 %h;\n"
    "  .reg .u8 %b;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.lo.u32 %r2, %r1, 0x9e3779b9;\n"
    "  sub.s32 %si, %r1, 16;\n"
    "  mul.lo.s32 %si, %si, 100000007;\n"
    "  cvt.u16.u32 %rs1, %r2;\n"
    "  cvt.s16.s32 %sh, %si;\n"
    "  cvt.u64.u32 %rd1, %r2;\n"
    "  mul.lo.u64 %rd1, %rd1, 0x100000001;\n"
    "  cvt.s64.s32 %sd, %si;\n"
    "  mul.lo.s64 %sd, %sd, 1234567;\n"
    "  cvt.rn.f32.s32 %f1, %si;\n"
    "  div.rn.f32 %f1, %f1, 7.0;\n"
    "  cvt.rn.f64.s32 %fd1, %si;\n"
    "  div.rn.f64 %fd1, %fd1, 3.0;\n"
    "  cvt.rn.f16.f32 %h, %f1;\n"
    "  cvt.u8.u32 %b, %r2;\n"
    "  setp.lt.s32 %p1, %si, 0;\n"
    "  and.b32 %r3, %r1, 3;\n"
    "  sub.s32 %r4, %r3, 1;\n"
    "  st.global.u32 [%rd1], %r1;\n"      /* never executed: the breakpoint stops before */
    "  ret;\n}\n";

static int v_reg(void *ctx, const char *name, uint64_t *bits, ptx_type *t, char *err, size_t n)
{
    const uint32_t *lane = ctx;
    T *tt = *(T **)(const void *)(lane + 2);
    if (exec_reg_get(tt->m, 0, lane[1], lane[0], 0, name, bits, t) != 0) {
        snprintf(err, n, "%s", exec_errmsg(tt->m));
        return -1;
    }
    return 0;
}

static int v_sreg(void *ctx, int id, int comp, uint64_t *val, char *err, size_t n)
{
    const uint32_t *lane = ctx;
    T *tt = *(T **)(const void *)(lane + 2);
    (void)err, (void)n;
    return exec_sreg_get(tt->m, 0, lane[1], lane[0], (ptx_sreg_id)id, comp, val);
}

/* conditions the core must run, each compared lane by lane with dbg_eval */
static const char *conds[] = {
    "%r1 == 5", "%r1 > 7 && %r1 < 20", "%r1 % 3 == 1 || %tid.x == 31", "!(%r1 & 4)",
    "%si < 0", "%si / 7 > -3", "%si % 5", "%si >> 3 == -1", "%si << 4", "%r2 >> 31",
    "%r2 > 0x80000000", "%r2 + %si > 100", "%rs1 * 3 > 1000", "%sh < -100", "%sh == %rs1",
    "%rd1 > %sd", "%sd < -5000000000", "%sd * 3 / 2 != 7", "%f1 > 1000.5", "%f1 * 2 < -3",
    "%fd1 > %f1", "%fd1 / 0.5 + 1 > 200000000", "%h < 0", "%h > 1.5e7", "%b > 100",
    "%p1", "!%p1 && %r1 > 3", "threadIdx.x == 17", "blockIdx.x == 0 && threadIdx.x < 8",
    "blockDim.x - threadIdx.x > 30", "warpSize == 32 && %laneid == 2", "~%r1 == -6",
    "-%r1 < -28", "(unsigned char)(%r2) == %b", "(short)(%r2) < 0", "(float)(%si) > 1e8",
    "(double)(%r2) > 3e9", "(bool)(%r3)", "%r1 / %r3 == 2", "%si / %r4 < 0", "%r1 - 40 > 0",
    "%r1 - 40u > 0", "%sd >> 70 == -1", "%rd1 << 1 > %rd1", "1.5 < %r1", "%f1 != %f1",
    "true", "false || %r1 == 9", "%r1 * 0x7fffffff > 100", "%si * 100000 > 0",
};

/* conditions the core must leave to the debugger */
static const char *refused[] = {
    "*(int *)(%rd1) == 3", "$pc == 3", "$x == 1", "p == 0", "%r1 ? 1 : 0", "%f1 % 2",
    "(int)(%f1) == 3", "%nosuch == 1", "%clock > 0", "threadIdx == 1", "(half)(%r1) > 1",
};

START_TEST(core_conditions_match_eval)
{
    T t;
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    uint64_t buf = t_buf(&t, 64);
    t_launch(&t, "k", 1, 64, &buf, 8);
    const ptx_func *f = NULL;
    for (int i = 0; i < t.mod->nfuncs; i++)
        if (!strcmp(t.mod->funcs[i]->sym->name, "k"))
            f = t.mod->funcs[i];
    ck_assert_ptr_nonnull(f);
    uint32_t pc = (uint32_t)exec_func_pc(t.m, f) + 19;
    ck_assert_int_eq(exec_set_break(t.m, pc, 1), 0);
    exec_stop st = t_run(&t);
    ck_assert_int_eq(st.kind, EXEC_STOP_BREAKPOINT);
    ck_assert_uint_eq(st.pc, pc);
    exec_cond prog[EXEC_COND_MAX];
    for (size_t k = 0; k < sizeof conds / sizeof conds[0]; k++) {
        char err[256];
        dbg_expr *e = dbg_expr_parse(conds[k], err, sizeof err);
        ck_assert_msg(e != NULL, "%s: %s", conds[k], err);
        int n = dbg_cond_core(t.m, e, f, prog, EXEC_COND_MAX);
        ck_assert_msg(n > 0, "%s: not compiled for the core", conds[k]);
        ck_assert_msg(exec_set_break_cond(t.m, pc, prog, n) == 0, "%s: %s", conds[k],
                      exec_errmsg(t.m));
        for (uint32_t w = 0; w < 2; w++) {
            uint32_t want = 0;
            for (uint32_t l = 0; l < 32; l++) {
                uint32_t ctx[4] = {l, w, 0, 0};
                T *tp = &t;
                memcpy(ctx + 2, &tp, sizeof tp);
                dbg_vsrc vs;
                memset(&vs, 0, sizeof vs);
                vs.ctx = ctx;
                vs.reg_get = v_reg;
                vs.sreg_get = v_sreg;
                dbg_value v;
                int r = dbg_eval(e, &vs, NULL, &v, err, sizeof err);
                if (r != 0 || dbg_value_true(&v))
                    want |= 1u << l;
            }
            exec_warp *wp = &t.m->warps[w];
            uint32_t got = exec_bp_cond_lanes(wp, t.m->bp_cond[pc], EXEC_FULL);
            ck_assert_msg(got == want, "%s (warp %u): core 0x%08x, debugger 0x%08x", conds[k],
                          w, got, want);
        }
        dbg_expr_free(e);
    }
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        char err[256];
        dbg_expr *e = dbg_expr_parse(refused[k], err, sizeof err);
        ck_assert_msg(e != NULL, "%s: %s", refused[k], err);
        ck_assert_msg(dbg_cond_core(t.m, e, f, prog, EXEC_COND_MAX) < 0, "%s: compiled",
                      refused[k]);
        dbg_expr_free(e);
    }
    t_free(&t);
}
END_TEST

/* The run loop only stops where the condition holds, with those lanes. */
START_TEST(core_condition_filters_stops)
{
    T t;
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    uint64_t buf = t_buf(&t, 64);
    t_launch(&t, "k", 1, 64, &buf, 8);
    const ptx_func *f = t.mod->funcs[0];
    uint32_t pc = (uint32_t)exec_func_pc(t.m, f) + 18;  /* the sub: runs, then the store */
    char err[256];
    dbg_expr *e = dbg_expr_parse("%r1 % 16 == 3 && %r1 < 32", err, sizeof err);
    exec_cond prog[EXEC_COND_MAX];
    int n = dbg_cond_core(t.m, e, f, prog, EXEC_COND_MAX);
    ck_assert_int_gt(n, 0);
    exec_set_break(t.m, pc, 1);
    ck_assert_int_eq(exec_set_break_cond(t.m, pc, prog, n), 0);
    exec_stop st = t_run(&t);
    ck_assert_int_eq(st.kind, EXEC_STOP_BREAKPOINT);
    ck_assert_uint_eq(st.warp, 0);
    ck_assert_uint_eq(st.lanes, (1u << 3) | (1u << 19));
    ck_assert_uint_eq(st.lane, 3);
    /* a malformed program is refused and leaves no condition */
    exec_cond bad[2];
    memset(bad, 0, sizeof bad);
    bad[0].op = EXEC_C_ADD;
    ck_assert_int_eq(exec_set_break_cond(t.m, pc, bad, 1), -1);
    ck_assert_ptr_null(t.m->bp_cond[pc]);
    dbg_expr_free(e);
    t_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ccond");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, core_conditions_match_eval);
    tcase_add_test(tc, core_condition_filters_stops);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
