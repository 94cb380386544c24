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

int main(void)
{
    Suite *s = suite_create("debugger");
    TCase *t = tcase_create("transcripts");
    tcase_set_timeout(t, 60);
    tcase_add_loop_test(t, transcript, 0, (int)(sizeof transcripts / sizeof transcripts[0]));
    tcase_add_test(t, batch_exit_status);
    suite_add_tcase(s, t);
    return tu_run_suite(s);
}
