/* test_debugger.c - end-to-end debugger checks: batch transcripts compared with expected output. */
#include <stdio.h>
#include <string.h>
#include "run_ptxdbg.h"

/* Each transcript is tests/transcripts/NAME.cmd run on a PTX file of that directory by
 * `./ptxdbg -batch -x`; its stdout must equal NAME.out exactly. */
static const struct { const char *name, *ptx; } transcripts[] = {
    {"diverge", "debug.G.ptx"},   /* breakpoints in divergent code, condition on a thread id,
                                     brkpt in one thread, per-lane values, info warps/lanes */
    {"lanestep", "debug.G.ptx"},  /* stepping one lane, x/i, watchpoint on shared memory */
};

START_TEST(transcript)
{
    const char *name = transcripts[_i].name;
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "./ptxdbg -batch -x tests/transcripts/%s.cmd tests/transcripts/%s 2>/dev/null", name,
             transcripts[_i].ptx);
    rp_check_transcript(name, cmd);
}
END_TEST

START_TEST(batch_exit_status)
{
    /* a failing command makes -batch exit non-zero; the session goes on after it */
    char *out = rp_run("./ptxdbg -batch -ex 'frobnicate' -ex 'echo still here\\n' "
                       "tests/transcripts/debug.G.ptx 2>/dev/null; echo status=$?");
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "still here\nstatus=1\n");
    free(out);
    out = rp_run("./ptxdbg -batch -ex 'buffer o s32 64' -ex 'launch diverge<<<1,64>>>(o, 64)' "
                 "-ex 'continue' -ex 'print o[1]' tests/transcripts/debug.G.ptx 2>&1 >/dev/null; "
                 "echo status=$?");
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "status=0\n");
    free(out);
}
END_TEST


/* `run` restores every buffer to its contents at the launch being rerun, including edits made
 * with `set var` before that launch (and not the contents at `buffer` time, nor edits made
 * after). Expected values: saxpy's y[i] = a * x[i] + y[i], computed here in C. */
START_TEST(run_restores_launch_state)
{
    float x[64], y0[64];
    for (int i = 0; i < 64; i++) {
        x[i] = (float)i;
        y0[i] = 1.0f;
    }
    x[40] = 10.0f;   /* set var x[40] = 10 */
    y0[40] = -3.0f;  /* set var y[40] = -3 */
    const float a = 2.0f;
    char want[512];
    size_t k = 0;
    /* after launch; after run; after set var y[41] = 5 then run (the edit is undone) */
    for (int r = 0; r < 3; r++)
        k += (size_t)snprintf(want + k, sizeof want - k, "$%d = %g\n$%d = %g\n", 2 * r + 1,
                              (double)(a * x[40] + y0[40]), 2 * r + 2,
                              (double)(a * x[41] + y0[41]));
    char *out = rp_run("./ptxdbg -batch -ex 'buffer x f32 64 = iota' -ex 'buffer y f32 64 = fill 1'"
                       " -ex 'set var y[40] = -3' -ex 'set var x[40] = 10'"
                       " -ex 'launch saxpy<<<1,64>>>(64, 2, x, y)' -ex 'print y[40]'"
                       " -ex 'print y[41]' -ex 'run' -ex 'print y[40]' -ex 'print y[41]'"
                       " -ex 'set var y[41] = 5' -ex 'run' -ex 'print y[40]' -ex 'print y[41]'"
                       " examples/saxpy.ptx 2>&1");
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, want);
    free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("debugger");
    TCase *t = tcase_create("transcripts");
    tcase_set_timeout(t, 60);
    tcase_add_loop_test(t, transcript, 0, (int)(sizeof transcripts / sizeof transcripts[0]));
    tcase_add_test(t, batch_exit_status);
    tcase_add_test(t, run_restores_launch_state);
    suite_add_tcase(s, t);
    return tu_run_suite(s);
}
