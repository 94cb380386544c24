/* test_debugger.c - end-to-end debugger checks: batch transcripts compared with expected output. */
#include <stdio.h>
#include <string.h>
#include "test_util.h"

/* Each transcript is tests/transcripts/NAME.cmd run on a PTX file of that directory by
 * `./ptxdbg -batch -x`; its stdout must equal NAME.out exactly. */
static const struct { const char *name, *ptx; } transcripts[] = {
    {"diverge", "debug.G.ptx"},   /* breakpoints in divergent code, condition on a thread id,
                                     brkpt in one thread, per-lane values, info warps/lanes */
    {"lanestep", "debug.G.ptx"},  /* stepping one lane, x/i, watchpoint on shared memory */
};

static char *run(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t r = fread(buf + n, 1, cap - n - 1, p);
        n += r;
        if (r == 0)
            break;
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    pclose(p);
    if (buf)
        buf[n] = 0;
    return buf;
}

START_TEST(transcript)
{
    const char *name = transcripts[_i].name;
    char cmd[512], path[256];
    snprintf(cmd, sizeof cmd,
             "./ptxdbg -batch -x tests/transcripts/%s.cmd tests/transcripts/%s 2>/dev/null", name,
             transcripts[_i].ptx);
    snprintf(path, sizeof path, "tests/transcripts/%s.out", name);
    char *want = tu_read_file(path, NULL);
    ck_assert_msg(want != NULL, "cannot read %s", path);
    char *got = run(cmd);
    ck_assert_msg(got != NULL, "cannot run %s", cmd);
    if (strcmp(got, want) != 0) {
        /* show the first differing line */
        const char *g = got, *w = want;
        int line = 1;
        while (*g && *g == *w) {
            if (*g == '\n')
                line++;
            g++;
            w++;
        }
        ck_abort_msg("%s: output differs at line %d: got \"%.60s\", want \"%.60s\"", name, line,
                     g, w);
    }
    free(got);
    free(want);
}
END_TEST

START_TEST(batch_exit_status)
{
    /* a failing command makes -batch exit non-zero; the session goes on after it */
    char *out = run("./ptxdbg -batch -ex 'frobnicate' -ex 'echo still here\\n' "
                    "tests/transcripts/debug.G.ptx 2>/dev/null; echo status=$?");
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "still here\nstatus=1\n");
    free(out);
    out = run("./ptxdbg -batch -ex 'buffer o s32 64' -ex 'launch diverge<<<1,64>>>(o, 64)' "
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
