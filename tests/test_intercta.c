/* test_intercta.c - CTAs that depend on one another (tests/fixtures/intercta/intercta.cu):
 * parallel runs give one thread's results and stops whatever the number of workers, through
 * interrupts and faults injected in the middle; CTAs that wait for other CTAs make progress
 * (resident CTAs take turns); cooperative launches pass grid.sync(). Expected values come from
 * C references of the kernels. */
#include <stdlib.h>
#include "core_harness.h"
#include "exec_core.h"

#define PTX "tests/fixtures/intercta/intercta.O3.ptx"
#define PTXG "tests/fixtures/intercta/intercta.G.ptx"
#define APTX "tests/fixtures/intercta/intercta_atomic.O3.ptx"
#define APTXG "tests/fixtures/intercta/intercta_atomic.G.ptx"
#define PC "_Z17producer_consumerPViPVjS2_iiiPi"

static const int nthreads[] = {1, 2, 4, 8};
#define NTH (int)(sizeof nthreads / sizeof nthreads[0])

static exec_stop run_opts(T *t, uint64_t max_steps)
{
    exec_run_opts o = { .mode = EXEC_RUN_CONTINUE, .max_steps = max_steps };
    exec_stop st;
    ck_assert_msg(exec_run(t->m, &o, &st) == 0, "%s", exec_errmsg(t->m));
    return st;
}

/* Whether (cta, warp) of the stop has a live lane (the focus lands on a live thread). */
static int stop_on_live_thread(T *t, const exec_stop *st)
{
    exec_warp_info wi;
    if (exec_cta_get_state(t->m, st->cta) != EXEC_CTA_RUNNING)
        return 0;
    if (exec_warp_get(t->m, st->cta, st->warp, &wi))
        return 0;
    return (wi.valid & ~wi.exited & (1u << st->lane)) != 0;
}

/* (a) An interrupt in the middle of a parallel run, then continue: every element counted
 * exactly iters times (a CTA partly run by a worker is neither lost nor run twice). */
START_TEST(interrupt_mid_parallel_then_continue)
{
    enum { G = 24, B = 64, ITERS = 4000 };
    static const uint64_t at[] = {5000, 40000, 150000, 400000};
    for (int ti = 0; ti < NTH; ti++)
        for (size_t ai = 0; ai < sizeof at / sizeof at[0]; ai++) {
            T t;
            t_load_file(&t, PTX);
            exec_set_threads(t.m, nthreads[ti]);
            exec_set_par_warmup(t.m, 0);   /* workers from the first CTA */
            uint64_t out = t_buf(&t, G * B * 4);
            uint64_t args[] = {out, ITERS};
            t_launch_args(&t, "_Z10count_loopPVii", G, B, args, 2);
            int stops = 0;
            exec_stop st;
            for (;;) {
                exec_set_interrupt_after(t.m, at[ai]);
                st = run_opts(&t, 0);
                if (st.kind != EXEC_STOP_INTERRUPT)
                    break;
                ck_assert_msg(stop_on_live_thread(&t, &st), "interrupt stop at CTA %u warp %u "
                              "lane %u is not a live thread", st.cta, st.warp, st.lane);
                stops++;
                ck_assert_int_lt(stops, 1000);
            }
            ck_assert_int_eq(st.kind, EXEC_STOP_DONE);
            ck_assert_int_gt(stops, 0);
            int32_t v[G * B];
            t_read(&t, out, v, sizeof v);
            for (int i = 0; i < G * B; i++)
                ck_assert_msg(v[i] == ITERS, "threads %d interrupt at %llu: out[%d] = %d, "
                              "want %d", nthreads[ti], (unsigned long long)at[ai], i, v[i],
                              ITERS);
            t_free(&t);
        }
}
END_TEST

static uint32_t fault_ref(uint32_t g, int iters)
{
    uint32_t v = g;
    for (int i = 0; i < iters; i++)
        v = v * 1103515245u + 12345u;
    return v | 1u;
}

/* (b) A fault in CTA k with parallel workers and no step limit: CTAs below k done with their
 * results, CTAs above k not started and their memory untouched, CTA k as one thread left it. */
START_TEST(fault_leaves_higher_ctas_untouched)
{
    enum { G = 32, B = 64, ITERS = 400, BAD = 9 };
    static int32_t one[G * B];
    for (int ti = 0; ti < NTH; ti++) {
        T t;
        t_load_file(&t, PTX);
        exec_set_threads(t.m, nthreads[ti]);
        exec_set_par_warmup(t.m, 0);   /* workers from the first CTA */
        uint64_t out = t_buf(&t, G * B * 4);
        uint64_t args[] = {out, BAD, ITERS};
        t_launch_args(&t, "_Z14fault_in_blockPiii", G, B, args, 3);
        exec_stop st = run_opts(&t, 0);
        ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
        ck_assert_uint_eq(st.cta, BAD);
        ck_assert_uint_eq(st.warp, 0);
        ck_assert_uint_eq(st.lane, 0);
        int32_t v[G * B];
        t_read(&t, out, v, sizeof v);
        for (uint32_t c = 0; c < G; c++) {
            exec_cta_state want = c < BAD ? EXEC_CTA_DONE : c == BAD ? EXEC_CTA_RUNNING
                                                                     : EXEC_CTA_NOT_STARTED;
            ck_assert_int_eq(exec_cta_get_state(t.m, c), want);
            for (uint32_t i = c * B; i < (c + 1) * B; i++) {
                if (c < BAD)
                    ck_assert_uint_eq((uint32_t)v[i], fault_ref(i, ITERS));
                else if (c > BAD)
                    ck_assert_msg(v[i] == 0, "threads %d: CTA %u (not started) wrote out[%u]",
                                  nthreads[ti], c, i);
            }
        }
        if (ti == 0)
            memcpy(one, v, sizeof v);
        else
            ck_assert(memcmp(one, v, sizeof v) == 0);
        t_free(&t);
    }
}
END_TEST

/* (c) CTAs communicating through memory: the last writer and an order-dependent fold. */
START_TEST(last_writer_is_one_threads)
{
    enum { G = 200, B = 32 };
    uint32_t want = 0;
    for (uint32_t c = 0; c < G; c++)
        want = want * 31u + c + 1u;
    for (int ti = 0; ti < NTH; ti++)
        for (int rep = 0; rep < 3; rep++) {
            T t;
            t_load_file(&t, PTX);
            exec_set_threads(t.m, nthreads[ti]);
            exec_set_par_warmup(t.m, 0);   /* workers from the first CTA */
            uint64_t acc = t_buf(&t, 4), last = t_buf(&t, 4);
            uint64_t args[] = {acc, last};
            t_launch_args(&t, "_Z11last_writerPVjPVi", G, B, args, 2);
            exec_stop st = run_opts(&t, rep == 2 ? T_MAX_STEPS : 0);
            ck_assert_int_eq(st.kind, EXEC_STOP_DONE);
            uint32_t a, l;
            t_read(&t, acc, &a, 4);
            t_read(&t, last, &l, 4);
            ck_assert_uint_eq(a, want);
            ck_assert_uint_eq(l, G - 1);
            t_free(&t);
        }
}
END_TEST

/* A scan kernel over G tiles of 128 (in[i] = i % 13 - 5): out must be the prefix sums. */
static void check_scan(const char *path, const char *kernel, int nbuf, int threads,
                       uint64_t max_steps)
{
    enum { G = 40, B = 128 };
    T t;
    t_load_file(&t, path);
    exec_set_threads(t.m, threads);
    exec_set_par_warmup(t.m, 0);   /* workers from the first CTA */
    int32_t in[G * B], out[G * B];
    for (int i = 0; i < G * B; i++)
        in[i] = i % 13 - 5;
    uint64_t args[8];
    args[0] = t_buf_init(&t, in, sizeof in);
    args[1] = t_buf(&t, sizeof out);
    for (int k = 0; k < nbuf; k++)
        args[2 + k] = t_buf(&t, G * 4);
    t_launch_args(&t, kernel, G, B, args, 2 + nbuf);
    exec_stop st = run_opts(&t, max_steps);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s threads %d: stop %d (%s)", kernel, threads,
                  st.kind, st.msg);
    t_read(&t, args[1], out, sizeof out);
    int32_t s = 0;
    for (int i = 0; i < G * B; i++) {
        s += in[i];
        ck_assert_msg(out[i] == s, "%s threads %d: out[%d] = %d, want %d", kernel, threads, i,
                      out[i], s);
    }
    t_free(&t);
}

/* CTA b spins until CTA b-1 publishes (flags, volatile loads): the C reference's sums. */
START_TEST(chained_scan_through_flags)
{
    for (int ti = 0; ti < NTH; ti++) {
        check_scan(PTX, "_Z12chained_scanPKiPiPViS3_", 2, nthreads[ti], 0);
        check_scan(PTX, "_Z12chained_scanPKiPiPViS3_", 2, nthreads[ti], T_MAX_STEPS);
    }
    check_scan(PTXG, "_Z12chained_scanPKiPiPViS3_", 2, 4, 0);
}
END_TEST

/* Decoupled look-back with tiles taken from a counter. */
START_TEST(lookback_scan_completes)
{
    for (int ti = 0; ti < NTH; ti++)
        check_scan(APTX, "_Z13lookback_scanPKiPiPjPViS4_S4_", 4, nthreads[ti], 0);
}
END_TEST

/* Last-block ticket reduction. */
START_TEST(ticket_reduction)
{
    enum { G = 48, B = 128 };
    for (int ti = 0; ti < NTH; ti++) {
        T t;
        t_load_file(&t, APTX);
        exec_set_threads(t.m, nthreads[ti]);
        exec_set_par_warmup(t.m, 0);   /* workers from the first CTA */
        int32_t in[G * B];
        int32_t want = 0;
        for (int i = 0; i < G * B; i++) {
            in[i] = (i * 7) % 101 - 50;
            want += in[i];
        }
        uint64_t args[] = {t_buf_init(&t, in, sizeof in), t_buf(&t, G * 4), t_buf(&t, 4),
                           t_buf(&t, 4)};
        t_launch_args(&t, "_Z10ticket_sumPKiPiPjS1_", G, B, args, 4);
        exec_stop st = run_opts(&t, 0);
        ck_assert_int_eq(st.kind, EXEC_STOP_DONE);
        int32_t total;
        t_read(&t, args[3], &total, 4);
        ck_assert_int_eq(total, want);
        t_free(&t);
    }
}
END_TEST

/* CTA 0 consumes what the last CTA of g (started after it) produces through a ring of 4
 * slots, the CTAs between wait for the production to end: the waiting CTAs must let the
 * producer run, on one thread (resident CTAs take turns) as with workers (which all wait: the
 * run goes on on one thread). With intr, an interrupt is injected after that many steps, while
 * CTA 0 waits: the stop is on a live thread and the run completes on continue. */
static void producer_consumer(int threads, int g, uint64_t intr)
{
    enum { CAP = 4, COUNT = 60 };
    int32_t want = 0;
    for (int i = 0; i < COUNT; i++)
        want += i * 7 + 3;
    T t;
    t_load_file(&t, PTX);
    exec_set_threads(t.m, threads);
    exec_set_par_warmup(t.m, 0);   /* workers from the first CTA */
    uint64_t args[] = {t_buf(&t, CAP * 4), t_buf(&t, 4), t_buf(&t, 4), CAP, COUNT,
                       (uint64_t)g - 1, t_buf(&t, 4)};
    t_launch_args(&t, PC, (unsigned)g, 32, args, 7);
    exec_stop st;
    if (intr) {
        exec_set_interrupt_after(t.m, intr);
        st = run_opts(&t, 0);
        ck_assert_int_eq(st.kind, EXEC_STOP_INTERRUPT);
        ck_assert(stop_on_live_thread(&t, &st));
        ck_assert_int_eq(exec_cta_get_state(t.m, 0), EXEC_CTA_RUNNING);
    }
    st = run_opts(&t, T_MAX_STEPS);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "threads %d grid %d: stop %d (%s)", threads, g,
                  st.kind, st.msg);
    int32_t sum;
    t_read(&t, args[6], &sum, 4);
    ck_assert_int_eq(sum, want);
    t_free(&t);
}

START_TEST(producer_consumer_across_ctas)
{
    for (int ti = 0; ti < NTH; ti++) {
        producer_consumer(nthreads[ti], 2, 0);
        producer_consumer(nthreads[ti], 10, 0);
    }
}
END_TEST

START_TEST(producer_consumer_interrupted)
{
    for (int ti = 0; ti < NTH; ti++) {
        producer_consumer(nthreads[ti], 2, EXEC_TURN * 3 + 17);
        producer_consumer(nthreads[ti], 10, 20000);
    }
}
END_TEST

/* A cooperative launch: grid.sync() through the %envreg workspace, all CTAs resident. */
START_TEST(cooperative_grid_sync)
{
    enum { G = 12, B = 64, N = G * B };
    int32_t a[N], b[N], want[N];
    for (int i = 0; i < N; i++)
        a[i] = i * 3 + 1;
    for (int i = 0; i < N; i++)
        b[i] = a[i] + a[(i + 1) % N];
    for (int i = 0; i < N; i++)
        want[i] = b[(i + 5) % N] * 2;
    for (int v = 0; v < 2; v++)
        for (int ti = 0; ti < NTH; ti += 3) {
            T t;
            t_load_file(&t, v ? APTXG : APTX);
            exec_set_threads(t.m, nthreads[ti]);
            exec_set_par_warmup(t.m, 0);   /* workers from the first CTA */
            exec_set_cooperative(t.m, 1);
            uint64_t args[] = {t_buf(&t, N * 4), t_buf(&t, N * 4), N};
            for (int rep = 0; rep < 2; rep++) {   /* the workspace is ready again */
                t_launch_args(&t, "_Z9grid_syncPiS_i", G, B, args, 3);
                exec_stop st = run_opts(&t, T_MAX_STEPS);
                ck_assert_msg(st.kind == EXEC_STOP_DONE, "stop %d (%s)", st.kind, st.msg);
                int32_t got[N];
                t_read(&t, args[0], got, sizeof got);
                ck_assert(memcmp(got, want, sizeof got) == 0);
            }
            t_free(&t);
        }
    {   /* more CTAs than any device keeps resident: refused */
        T t;
        t_load_file(&t, APTX);
        exec_set_cooperative(t.m, 1);
        const ptx_func *f = ptx_find_func(t.mod, "_Z9grid_syncPiS_i");
        uint8_t p[24] = {0};
        exec_dim3 g = { 5000, 1, 1 }, b = { 32, 1, 1 };
        ck_assert_int_eq(exec_launch(t.m, f, g, b, 0, p, 20), -1);
        ck_assert_ptr_nonnull(strstr(exec_errmsg(t.m), "cooperative launch of 5000 CTAs"));
        t_free(&t);
    }
    /* without the cooperative attribute, grid.sync() finds no workspace and traps */
    T t;
    t_load_file(&t, APTX);
    uint64_t args[] = {t_buf(&t, N * 4), t_buf(&t, N * 4), N};
    t_launch_args(&t, "_Z9grid_syncPiS_i", G, B, args, 3);
    exec_stop st = run_opts(&t, T_MAX_STEPS);
    ck_assert_int_eq(st.kind, EXEC_STOP_TRAP);
    t_free(&t);
    t_load_file(&t, APTX);
    ck_assert_int_eq(exec_set_envreg(t.m, 32, 1), -1);
    ck_assert_int_eq(exec_set_envreg(t.m, -1, 1), -1);
    ck_assert_int_eq(exec_set_envreg(t.m, 31, 1), 0);
    t_free(&t);
}
END_TEST

/* The watchdog counts CTA setup: a grid of many empty CTAs reaches a small step limit. */
START_TEST(cta_setup_counts_against_the_budget)
{
    static const char *src = HDR ".visible .entry e()\n{\n  ret;\n}\n";
    T t;
    ck_assert_msg(t_load(&t, src) == 0, "%s", t.err);
    for (int th = 1; th <= 2; th++) {
        exec_set_threads(t.m, th);
        exec_set_par_warmup(t.m, 0);   /* workers from the first CTA */
        const ptx_func *f = ptx_find_func(t.mod, "e");
        exec_dim3 g = { 65535, 65535, 1 }, b = { 32, 1, 1 };
        ck_assert_int_eq(exec_launch(t.m, f, g, b, 0, NULL, 0), 0);
        exec_stop st = run_opts(&t, 100000);
        ck_assert_int_eq(st.kind, EXEC_STOP_LIMIT);
        ck_assert_uint_lt(st.cta, 100000);
        /* an interrupt is seen between CTAs too, and lands on a live thread */
        exec_set_interrupt_after(t.m, 5000);
        st = run_opts(&t, 0);
        ck_assert_int_eq(st.kind, EXEC_STOP_INTERRUPT);
        ck_assert_uint_lt(st.cta, 200000);
        ck_assert(stop_on_live_thread(&t, &st));
    }
    t_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("intercta");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, interrupt_mid_parallel_then_continue);
    tcase_add_test(tc, fault_leaves_higher_ctas_untouched);
    tcase_add_test(tc, last_writer_is_one_threads);
    tcase_add_test(tc, chained_scan_through_flags);
    tcase_add_test(tc, lookback_scan_completes);
    tcase_add_test(tc, ticket_reduction);
    tcase_add_test(tc, producer_consumer_across_ctas);
    tcase_add_test(tc, producer_consumer_interrupted);
    tcase_add_test(tc, cooperative_grid_sync);
    tcase_add_test(tc, cta_setup_counts_against_the_budget);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
