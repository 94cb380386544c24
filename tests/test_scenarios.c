/* test_scenarios.c - debugging sessions as cuda-gdb users run them, on kernels of
 * tests/fixtures/scenarios/ (nvcc -G): batch transcripts compared with expected output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "run_ptxdbg.h"

#define SCEN "tests/fixtures/scenarios/scen.G.ptx"

/* Each transcript is tests/transcripts/NAME.cmd run by `ptxdbg -batch -x` on its PTX file; its
 * output, error messages in their place, must equal NAME.out exactly. */
static const struct { const char *name, *ptx; } transcripts[] = {
    {"scen_diverge", SCEN}, /* divergent branches over two blocks: a breakpoint in one branch
                               conditional on thread ids, per-lane values, brkpt in one thread,
                               focus switches (exited, by SM), printf in commands, @, x @shared */
    {"scen_step", SCEN},    /* recursion: backtrace, finish values, next out of it; advance into
                               a callee; one lane stepping alone, then reconverging */
    {"scen_watch", SCEN},   /* watch a __shared__ and a global element, rwatch, awatch, display,
                               tbreak, ignore, condition, commands, disable, run again */
};

START_TEST(transcript)
{
    const char *name = transcripts[_i].name;
    char dir[] = "/tmp/ptxdbg-tr-XXXXXX", path[256], parts[2048], cmd[4096];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "tests/transcripts/%s.cmd", name);
    ck_assert_int_eq(rp_script_parts(path, dir, name, parts, sizeof parts), 0);
    snprintf(cmd, sizeof cmd, "%s -batch%s %s 2>&1", rp_ptxdbg(), parts, transcripts[_i].ptx);
    rp_check_transcript(name, cmd);
    char rm[128];
    snprintf(rm, sizeof rm, "rm -rf %s", dir);
    ck_assert_int_eq(system(rm), 0);
}
END_TEST

/* A trap and an out-of-range store (scen_fault.cmd, which writes a core file), then that core
 * opened by a new process (scen_core.cmd): both in a scratch directory, one transcript. */
START_TEST(postmortem)
{
    char top[1024], bin[2048];
    ck_assert_ptr_nonnull(getcwd(top, sizeof top));
    const char *p = rp_ptxdbg();
    if (p[0] == '/')
        snprintf(bin, sizeof bin, "%s", p);
    else
        snprintf(bin, sizeof bin, "%s/%s", top, p);
    char dir[] = "/tmp/ptxdbg-scen-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char cmd[16384], p1[4096], p2[4096], path[2048];
    snprintf(path, sizeof path, "%s/tests/transcripts/scen_fault.cmd", top);
    ck_assert_int_eq(rp_script_parts(path, dir, "scen_fault", p1, sizeof p1), 0);
    snprintf(path, sizeof path, "%s/tests/transcripts/scen_core.cmd", top);
    ck_assert_int_eq(rp_script_parts(path, dir, "scen_core", p2, sizeof p2), 0);
    snprintf(cmd, sizeof cmd,
             "cd %s && %s -batch%s %s/tests/fixtures/scenarios/fault.G.ptx 2>&1; "
             "echo '--- core'; %s -batch --core scen_fault.core%s 2>&1",
             dir, bin, p1, top, bin, p2);
    rp_check_transcript("scen_fault", cmd);
    char rm[128];
    snprintf(rm, sizeof rm, "rm -rf %s", dir);
    ck_assert_int_eq(system(rm), 0);
}
END_TEST

START_TEST(batch_status)
{
    /* the trap makes -batch exit non-zero, reopening its core does not */
    int st = -1;
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "%s -batch -ex 'buffer in s32 96 = iota' -ex 'buffer out s32 96' "
             "-ex 'launch check_cells<<<3, 32>>>(in, out, 350)' -ex 'print i' "
             "tests/fixtures/scenarios/fault.G.ptx 2>/dev/null >/dev/null",
             rp_ptxdbg());
    char *out = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(out);
    ck_assert_int_ne(st, 0);
    free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("scenarios");
    TCase *t = tcase_create("transcripts");
    tcase_set_timeout(t, 120);
    tcase_add_loop_test(t, transcript, 0, (int)(sizeof transcripts / sizeof transcripts[0]));
    tcase_add_test(t, postmortem);
    tcase_add_test(t, batch_status);
    suite_add_tcase(s, t);
    return tu_run_suite(s);
}
