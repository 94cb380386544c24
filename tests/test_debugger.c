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

/* Vector registers (tests/fixtures/parser/vecregs.ptx): `info registers` shows every element,
 * elements are read by name (%q.w, %q.a), an element past the vector's length is refused, and
 * a whole vector register in an expression asks for an element instead of showing one.
 * Expected values: the fixture's constants and the buffer given ({1.5, 2.25, 3, 4}: q.w =
 * 1.5 + 2.25). */
START_TEST(vector_registers)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s -batch -ex 'buffer b f32 4 = {1.5, 2.25, 3, 4}' "
             "-ex 'launch vecregs<<<1,1>>>(b)' -ex 'break 19' -ex 'run' -ex 'info registers' "
             "-ex 'info registers %%q.a %%v' -ex 'info registers %%v.z' -ex 'print %%v.y + 1' "
             "-ex 'print %%q' -ex 'print b[3]' tests/fixtures/parser/vecregs.ptx 2>&1",
             rp_ptxdbg());
    char *out = rp_run(cmd);
    ck_assert_ptr_nonnull(out);
    static const char *const want[] = {
        "%v.x           0x7                7\n%v.y           0x9                9\n"
        "%q.x           0x3fc00000         1.5\n%q.y           0x40100000         2.25\n"
        "%q.z           0x40400000         3\n%q.w           0x40700000         3.75\n",
        "%q.a           0x40700000         3.75\n%v.x           0x7                7\n"
        "%v.y           0x9                9\n",
        "Invalid register `%v.z'",
        "$1 = 10",
        "%q is a vector register (.v4 .f32): name an element, %q.x .. %q.w",
        "$2 = 3.75",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(out, want[i]), "missing \"%s\" in:\n%s", want[i], out);
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
    tcase_add_test(t, vector_registers);
    suite_add_tcase(s, t);
    return tu_run_suite(s);
}
