/* test_threads.c - parallel runs to completion (exec_set_threads) stop and end exactly as one
 * thread does, with and without a step limit (the batch watchdog), across resumes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core_harness.h"
#include "exec_core.h"

/* Each thread loops (tid % 7 + ctaid) * 3 times and stores its count and a running sum. */
static const char *src = HDR
    ".visible .entry k(.param .u64 out)\n{\n"
    "  .reg .pred %p; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.u32 %r4, %r2, %r3, %r1;\n"
    "  rem.u32 %r5, %r1, 7; add.u32 %r5, %r5, %r2; mul.lo.u32 %r5, %r5, 3;\n"
    "  mov.u32 %r6, 0; mov.u32 %r7, 0;\n"
    "L: setp.ge.u32 %p, %r6, %r5;\n"
    "  @%p bra D;\n"
    "  add.u32 %r7, %r7, %r6; mul.lo.u32 %r7, %r7, 33; add.u32 %r6, %r6, 1;\n"
    "  bra L;\n"
    "D: mul.wide.u32 %rd2, %r4, 8;\n"
    "  add.u64 %rd3, %rd1, %rd2;\n"
    "  st.global.v2.u32 [%rd3], {%r6, %r7};\n"
    "  ret;\n}\n";

enum { NCTA = 12, NT = 96 };

typedef struct {
    exec_stop st[32];
    int n;
    uint8_t mem[NCTA * NT * 8];
} trace;

/* Launch, then continue with the given step limit until the kernel completes; the first
 * `warmup` warp-instructions of each run on one thread before the workers. */
static void run_trace_w(int threads, uint64_t limit, uint64_t warmup, trace *tr)
{
    T t;
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    exec_set_threads(t.m, threads);
    exec_set_par_warmup(t.m, warmup);
    uint64_t out = t_buf(&t, sizeof tr->mem);
    t_launch(&t, "k", NCTA, NT, &out, 8);
    exec_run_opts o = { .mode = EXEC_RUN_CONTINUE, .max_steps = limit };
    memset(tr, 0, sizeof *tr);
    for (tr->n = 0; tr->n < 32; tr->n++) {
        exec_stop *st = &tr->st[tr->n];
        ck_assert_int_eq(exec_run(t.m, &o, st), 0);
        if (st->kind != EXEC_STOP_LIMIT) {
            tr->n++;
            break;
        }
        o.max_steps *= 3;   /* resume with a growing limit */
    }
    t_read(&t, out, tr->mem, sizeof tr->mem);
    t_free(&t);
}

static void run_trace(int threads, uint64_t limit, trace *tr)
{
    run_trace_w(threads, limit, 0, tr);   /* workers from the first CTA */
}

START_TEST(parallel_matches_one_thread)
{
    static const uint64_t limits[] = {0, 50, 700, 2000, 5000, 100000};
    /* workers from the first CTA, after a few CTAs on one thread, never (a small grid) */
    static const uint64_t warmups[] = {0, 600, 0, 600, 0, 1u << 17};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        static trace a, b;
        run_trace(1, limits[i], &a);
        run_trace_w(2, limits[i], warmups[i], &b);
        ck_assert_int_eq(a.n, b.n);
        for (int k = 0; k < a.n; k++) {
            ck_assert_int_eq(a.st[k].kind, b.st[k].kind);
            ck_assert_uint_eq(a.st[k].cta, b.st[k].cta);
            ck_assert_uint_eq(a.st[k].warp, b.st[k].warp);
            ck_assert_uint_eq(a.st[k].pc, b.st[k].pc);
            ck_assert_uint_eq(a.st[k].lanes, b.st[k].lanes);
        }
        ck_assert_int_eq(a.st[a.n - 1].kind, EXEC_STOP_DONE);
        ck_assert_msg(memcmp(a.mem, b.mem, sizeof a.mem) == 0, "memory differs (limit %llu)",
                      (unsigned long long)limits[i]);
    }
}
END_TEST

/* Integer reductions into one counter from every CTA: applied with host atomics by parallel
 * workers, the final memory equals one thread's. */
static const char *red_src = HDR
    ".visible .entry r(.param .u64 out)\n{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mad.lo.u32 %r3, %r2, 977, %r1;\n"
    "  red.global.add.u32 [%rd1], %r3;\n"
    "  atom.global.max.u32 _, [%rd1+4], %r3;\n"
    "  red.global.xor.b32 [%rd1+8], %r3;\n"
    "  cvt.u64.u32 %rd2, %r3;\n"
    "  red.global.add.u64 [%rd1+16], %rd2;\n"
    "  ret;\n}\n";

START_TEST(integer_reductions_in_parallel)
{
    uint8_t res[2][24];
    for (int th = 1; th <= 2; th++) {
        T t;
        ck_assert_msg(t_load(&t, red_src) == 0, "%s", t.err);
        exec_set_threads(t.m, th);
        exec_set_par_warmup(t.m, 0);   /* workers from the first CTA */
        uint64_t out = t_buf(&t, 24);
        t_launch(&t, "r", 300, 64, &out, 8);
        exec_run_opts o = { .mode = EXEC_RUN_CONTINUE };
        exec_stop st;
        ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
        ck_assert_int_eq(st.kind, EXEC_STOP_DONE);
        if (th == 2)
            ck_assert_int_eq(t.m->par_ok, 1);   /* the workers did run */
        t_read(&t, out, res[th - 1], 24);
        t_free(&t);
    }
    ck_assert(memcmp(res[0], res[1], 24) == 0);
    uint32_t sum;
    memcpy(&sum, res[0], 4);
    uint32_t want = 0;
    for (uint32_t c = 0; c < 300; c++)
        for (uint32_t i = 0; i < 64; i++)
            want += c * 977 + i;
    ck_assert_uint_eq(sum, want);
}
END_TEST

/* Atomics whose old value is used, each thread on its own word, in a module whose other
 * kernel reads %clock: the kernel runs on the workers (parallel safety is per kernel, and
 * atomics are claimed like stores), with one thread's results. */
static const char *atom_src = HDR
    ".visible .entry a(.param .u64 cnt, .param .u64 old)\n{\n"
    "  .reg .b32 %r<6>; .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [cnt]; ld.param.u64 %rd2, [old];\n"
    "  mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.u32 %r4, %r2, %r3, %r1;\n"
    "  mul.wide.u32 %rd3, %r4, 4; add.u64 %rd4, %rd1, %rd3; add.u64 %rd5, %rd2, %rd3;\n"
    "  atom.global.add.u32 %r5, [%rd4], %r4;\n"
    "  atom.global.add.u32 %r5, [%rd4], %r5;\n"
    "  st.global.u32 [%rd5], %r5;\n"
    "  ret;\n}\n"
    ".visible .entry c(.param .u64 out)\n{\n"
    "  .reg .b32 %r1; .reg .b64 %rd1;\n"
    "  ld.param.u64 %rd1, [out]; mov.u32 %r1, %clock; st.global.u32 [%rd1], %r1;\n"
    "  ret;\n}\n";

START_TEST(atomics_per_word_in_parallel)
{
    enum { G = 40, B = 64 };
    for (int th = 1; th <= 4; th *= 2) {
        T t;
        ck_assert_msg(t_load(&t, atom_src) == 0, "%s", t.err);
        exec_set_threads(t.m, th);
        exec_set_par_warmup(t.m, 0);   /* workers from the first CTA */
        uint32_t init[G * B];
        for (uint32_t i = 0; i < G * B; i++)
            init[i] = 1000 + i;
        uint64_t args[2] = {t_buf_init(&t, init, sizeof init), t_buf(&t, sizeof init)};
        t_launch(&t, "a", G, B, args, 16);
        exec_run_opts o = { .mode = EXEC_RUN_CONTINUE };
        exec_stop st;
        ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
        ck_assert_int_eq(st.kind, EXEC_STOP_DONE);
        if (th > 1)
            ck_assert_int_eq(t.m->par_ok, 1);
        uint32_t cnt[G * B], old[G * B];
        t_read(&t, args[0], cnt, sizeof cnt);
        t_read(&t, args[1], old, sizeof old);
        for (uint32_t i = 0; i < G * B; i++) {
            ck_assert_uint_eq(old[i], 1000 + 2 * i);
            ck_assert_uint_eq(cnt[i], 2000 + 3 * i);
        }
        t_launch(&t, "c", 4, 32, args, 8);   /* %clock: one thread */
        ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
        if (th > 1)
            ck_assert_int_eq(t.m->par_ok, -1);
        t_free(&t);
    }
}
END_TEST

/* printf from every CTA: workers buffer each CTA's output and it comes out in CTA order. */
START_TEST(printf_in_parallel)
{
    char *text[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    for (int th = 1; th <= 2; th++) {
        T t;
        t_load_file(&t, "tests/fixtures/kernels/printf.O3.ptx");
        FILE *out = open_memstream(&text[th - 1], &len[th - 1]);
        ck_assert_ptr_nonnull(out);
        exec_set_output(t.m, out);
        exec_set_threads(t.m, th);
        exec_set_par_warmup(t.m, 0);   /* workers from the first CTA */
        int32_t vals[64 * 8];
        for (int i = 0; i < 64 * 8; i++)
            vals[i] = i;
        uint64_t v = t_buf_init(&t, vals, sizeof vals);
        t_launch(&t, "_Z13printf_blocksPKi", 64, 8, &v, 8);
        exec_run_opts o = { .mode = EXEC_RUN_CONTINUE };
        exec_stop st;
        ck_assert_int_eq(exec_run(t.m, &o, &st), 0);
        ck_assert_int_eq(st.kind, EXEC_STOP_DONE);
        if (th == 2)
            ck_assert_int_eq(t.m->par_ok, 1);
        fclose(out);
        t_free(&t);
    }
    ck_assert_uint_gt(len[0], 1000);
    ck_assert_uint_eq(len[0], len[1]);
    ck_assert(memcmp(text[0], text[1], len[0]) == 0);
    free(text[0]);
    free(text[1]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("threads");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, parallel_matches_one_thread);
    tcase_add_test(tc, integer_reductions_in_parallel);
    tcase_add_test(tc, printf_in_parallel);
    tcase_add_test(tc, atomics_per_word_in_parallel);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
