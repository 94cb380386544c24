/* bench.c - `make bench`: emulator throughput against plain C, debugger costs, launch, load, memory. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "exec.h"
#include "ptx.h"
#include "dw.h"
#include "chk.h"
#include "baseline.h"

/* Usage: bench [DIR [FILTER]]: DIR holds the bench PTX; FILTER runs only the sections whose
 * name contains it (kernels, checks, threads, debugger, launch, load, memory). BENCH_REPS sets the
 * repetitions (median reported, default 3); BENCH_BIG names the big -G PTX for `load`. */
static int reps = 3;
static const char *filter = "";

/* Single-thread figures use the process's CPU time, which shared, loaded machines disturb far
 * less than wall time; the threads section switches to wall time. */
static clockid_t clk = CLOCK_PROCESS_CPUTIME_ID;

static double now(void)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

static int want(const char *section) { return strstr(section, filter) != NULL; }

static void die(const char *what, exec_machine *m)
{
    fprintf(stderr, "bench: %s: %s\n", what, m ? exec_errmsg(m) : "");
    exit(1);
}

static int load(const char *path, ptx_module **mod, exec_machine **m)
{
    ptx_error perr;
    *mod = ptx_parse_file(path, &perr);
    if (!*mod) {
        fprintf(stderr, "%s\n", perr.msg);
        return -1;
    }
    char err[1024];
    *m = exec_new(*mod, err, sizeof err);
    if (!*m) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    return 0;
}

static uint64_t galloc(exec_machine *m, uint64_t n, const void *init)
{
    uint64_t a = 0;
    if (exec_global_alloc(m, n, &a) != 0)
        die("alloc", m);
    if (init && exec_mem_write(m, PTX_SPACE_GLOBAL, a, init, n, 0, 0, 0) != 0)
        die("write", m);
    return a;
}

static const ptx_func *kernel(ptx_module *mod, const char *name)
{
    const ptx_func *f = ptx_find_func(mod, name);
    if (!f) {
        fprintf(stderr, "no kernel %s\n", name);
        exit(1);
    }
    return f;
}

/* ---- one kernel case -------------------------------------------------------------------------
 * A case prepares its inputs, launches, checks the output against the C baseline. */
typedef struct bcase bcase;
struct bcase {
    const char *name, *kname;
    exec_dim3 grid, block;
    unsigned char params[32];
    size_t np;
    void (*reset)(bcase *c, exec_machine *m);   /* restore inputs before a run */
    double (*base)(bcase *c);                   /* run the C baseline; seconds */
    int (*check)(bcase *c, exec_machine *m);    /* 0 when the emulator's output matches */
    void *host[6];
    uint64_t dev[4];
    uint64_t n;
};

static void launch(exec_machine *m, ptx_module *mod, bcase *c)
{
    if (exec_launch(m, kernel(mod, c->kname), c->grid, c->block, 0, c->params, c->np) != 0)
        die("launch", m);
}

/* Launch and run to completion; returns wall seconds (launch included). */
static double run(exec_machine *m, ptx_module *mod, bcase *c, uint64_t *winsn, uint64_t *tinsn)
{
    uint64_t w0, t0, w1, t1;
    if (c->reset)
        c->reset(c, m);
    exec_stats(m, &w0, &t0);
    double s = now();
    launch(m, mod, c);
    exec_run_opts o = { .mode = EXEC_RUN_CONTINUE };
    exec_stop st;
    if (exec_run(m, &o, &st) != 0 || st.kind != EXEC_STOP_DONE) {
        fprintf(stderr, "run %s: stop kind %d: %s %s\n", c->name, (int)st.kind, st.msg,
                exec_errmsg(m));
        exit(1);
    }
    double e = now() - s;
    exec_stats(m, &w1, &t1);
    if (winsn)
        *winsn = w1 - w0;
    if (tinsn)
        *tinsn = t1 - t0;
    return e;
}

/* fma_loop */
static const int fma_iters = 1000;
static double fma_base(bcase *c)
{
    double s = now();
    base_fma_loop(c->host[0], 0.999f, 0.001f, fma_iters, (int)c->n);
    return now() - s;
}
static int out_check(bcase *c, exec_machine *m, int hi, int ref, uint64_t bytes)
{
    exec_mem_read(m, PTX_SPACE_GLOBAL, c->dev[hi], c->host[5], bytes, 0, 0, 0);
    return memcmp(c->host[5], c->host[ref], bytes) != 0;
}
static int fma_check(bcase *c, exec_machine *m) { return out_check(c, m, 0, 0, c->n * 4); }
static void fma_setup(bcase *c, exec_machine *m, int nthreads, int iters)
{
    float a = 0.999f, b = 0.001f;
    c->name = "fma_loop";
    c->kname = "fma_loop";
    c->n = (uint64_t)nthreads;
    c->dev[0] = galloc(m, c->n * 4, NULL);
    memcpy(c->params, &c->dev[0], 8);
    memcpy(c->params + 8, &a, 4);
    memcpy(c->params + 12, &b, 4);
    memcpy(c->params + 16, &iters, 4);
    c->np = 20;
    c->grid = (exec_dim3){ (uint32_t)nthreads / 256, 1, 1 };
    c->block = (exec_dim3){ 256, 1, 1 };
    c->host[0] = malloc(c->n * 4);
    c->host[5] = malloc(c->n * 4);
    c->base = fma_base;
    c->check = fma_check;
}

/* saxpy */
static void saxpy_reset(bcase *c, exec_machine *m)
{
    exec_mem_write(m, PTX_SPACE_GLOBAL, c->dev[1], c->host[1], c->n * 4, 0, 0, 0);
}
static double saxpy_base(bcase *c)
{
    memcpy(c->host[2], c->host[1], c->n * 4);
    double s = now();
    base_saxpy((int)c->n, 2.0f, c->host[0], c->host[2]);
    return now() - s;
}
static int saxpy_check(bcase *c, exec_machine *m) { return out_check(c, m, 1, 2, c->n * 4); }
static void saxpy_setup(bcase *c, exec_machine *m, int n)
{
    float a = 2.0f, *x = malloc(n * 4ull), *y = malloc(n * 4ull);
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i % 1000) * 0.5f;
        y[i] = (float)(i % 777);
    }
    c->name = c->kname = "saxpy";
    c->n = (uint64_t)n;
    c->host[0] = x;
    c->host[1] = y;
    c->host[2] = malloc(n * 4ull);
    c->host[5] = malloc(n * 4ull);
    c->dev[0] = galloc(m, n * 4ull, x);
    c->dev[1] = galloc(m, n * 4ull, y);
    memcpy(c->params, &n, 4);
    memcpy(c->params + 4, &a, 4);
    memcpy(c->params + 8, &c->dev[0], 8);
    memcpy(c->params + 16, &c->dev[1], 8);
    c->np = 24;
    c->grid = (exec_dim3){ (uint32_t)(n + 255) / 256, 1, 1 };
    c->block = (exec_dim3){ 256, 1, 1 };
    c->reset = saxpy_reset;
    c->base = saxpy_base;
    c->check = saxpy_check;
    saxpy_base(c);
}

/* reduce */
static double reduce_base(bcase *c)
{
    double s = now();
    base_reduce(c->host[0], c->host[1], (int)c->n, 256);
    return now() - s;
}
static int reduce_check(bcase *c, exec_machine *m) { return out_check(c, m, 1, 1, c->n * 4); }
static void reduce_setup(bcase *c, exec_machine *m)
{
    const int nb = 4096, n = nb * 256;
    int *in = malloc(n * 4ull);
    for (int i = 0; i < n; i++)
        in[i] = (i * 7) % 101 - 50;
    c->name = c->kname = "reduce";
    c->n = nb;
    c->host[0] = in;
    c->host[1] = malloc(nb * 4ull);
    c->host[5] = malloc(nb * 4ull);
    c->dev[0] = galloc(m, n * 4ull, in);
    c->dev[1] = galloc(m, nb * 4ull, NULL);
    memcpy(c->params, &c->dev[0], 8);
    memcpy(c->params + 8, &c->dev[1], 8);
    c->np = 16;
    c->grid = (exec_dim3){ nb, 1, 1 };
    c->block = (exec_dim3){ 256, 1, 1 };
    c->base = reduce_base;
    c->check = reduce_check;
}

/* collatz */
static double collatz_base(bcase *c)
{
    double s = now();
    base_collatz(c->host[0], c->host[1], (int)c->n);
    return now() - s;
}
static int collatz_check(bcase *c, exec_machine *m) { return out_check(c, m, 1, 1, c->n * 4); }
static void collatz_setup(bcase *c, exec_machine *m)
{
    const int n = 1 << 16;
    uint64_t *st = malloc(n * 8ull);
    for (int i = 0; i < n; i++)
        st[i] = (uint64_t)i + 1;
    c->name = c->kname = "collatz";
    c->n = n;
    c->host[0] = st;
    c->host[1] = malloc(n * 4ull);
    c->host[5] = malloc(n * 4ull);
    c->dev[0] = galloc(m, n * 8ull, st);
    c->dev[1] = galloc(m, n * 4ull, NULL);
    memcpy(c->params, &c->dev[0], 8);
    memcpy(c->params + 8, &c->dev[1], 8);
    c->np = 16;
    c->grid = (exec_dim3){ n / 256, 1, 1 };
    c->block = (exec_dim3){ 256, 1, 1 };
    c->base = collatz_base;
    c->check = collatz_check;
}

/* matmul */
static double matmul_base(bcase *c)
{
    double s = now();
    base_matmul(c->host[0], c->host[1], c->host[2], (int)c->n);
    return now() - s;
}
static int matmul_check(bcase *c, exec_machine *m)
{
    return out_check(c, m, 2, 2, c->n * c->n * 4);
}
static void matmul_setup(bcase *c, exec_machine *m)
{
    const int n = 256;
    float *A = malloc(n * n * 4ull), *B = malloc(n * n * 4ull);
    for (int i = 0; i < n * n; i++) {
        A[i] = (float)((i * 3) % 17) * 0.25f;
        B[i] = (float)((i * 5) % 13) * 0.5f;
    }
    c->name = c->kname = "matmul";
    c->n = n;
    c->host[0] = A;
    c->host[1] = B;
    c->host[2] = malloc(n * n * 4ull);
    c->host[5] = malloc(n * n * 4ull);
    c->dev[0] = galloc(m, n * n * 4ull, A);
    c->dev[1] = galloc(m, n * n * 4ull, B);
    c->dev[2] = galloc(m, n * n * 4ull, NULL);
    memcpy(c->params, &c->dev[0], 8);
    memcpy(c->params + 8, &c->dev[1], 8);
    memcpy(c->params + 16, &c->dev[2], 8);
    memcpy(c->params + 24, &n, 4);
    c->np = 28;
    c->grid = (exec_dim3){ n / 16, n / 16, 1 };
    c->block = (exec_dim3){ 16, 16, 1 };
    c->base = matmul_base;
    c->check = matmul_check;
}

static void case_free(bcase *c, exec_machine *m)
{
    for (int i = 0; i < 6; i++)
        free(c->host[i]);
    for (int i = 0; i < 4; i++)
        if (c->dev[i])
            exec_global_free(m, c->dev[i]);
    memset(c, 0, sizeof *c);
}

enum { NCASES = 5 };
static void setup_all(bcase *cs, exec_machine *m)
{
    memset(cs, 0, sizeof(bcase) * NCASES);
    fma_setup(&cs[0], m, 1 << 16, fma_iters);
    saxpy_setup(&cs[1], m, 1 << 24);
    reduce_setup(&cs[2], m);
    collatz_setup(&cs[3], m);
    matmul_setup(&cs[4], m);
    for (int i = 0; i < NCASES; i++)
        cs[i].base(&cs[i]);   /* reference outputs */
}

/* Time the emulator and the C baseline alternately; medians. */
static void bench_case(exec_machine *m, ptx_module *mod, bcase *c, const char *variant)
{
    double t[16], b[16];
    if (getenv("BENCH_ONLY") && strcmp(getenv("BENCH_ONLY"), c->name) != 0)
        return;
    uint64_t w = 0, ti = 0;
    for (int r = 0; r < reps; r++) {
        t[r] = run(m, mod, c, &w, &ti);
        b[r] = c->base(c);
    }
    int bad = c->check(c, m);
    double ts = median(t, reps), bs = median(b, reps);
    printf("%-9s %-3s %10.2f ms %9.1f Mthread-insn/s %8.2f Mwarp-insn/s %7.2fx C (C %.2f ms)%s\n",
           c->name, variant, ts * 1e3, (double)ti / ts / 1e6, (double)w / ts / 1e6, ts / bs,
           bs * 1e3, bad ? "  RESULT DIFFERS FROM C" : "");
}

/* ---- checkers ------------------------------------------------------------------------------- */
/* Each kernel run to completion (one thread, CPU time) with no checker and with each checker
 * implemented so far observing the machine; the overhead against the run with none. */
static void bench_checks(exec_machine *m, ptx_module *mod, bcase *cs, const char *variant)
{
    printf("-- checks (%s PTX; one thread): run to completion with no checker, then each\n",
           variant);
    exec_set_threads(m, 1);
    for (int k = 0; k < NCASES; k++) {
        bcase *c = &cs[k];
        if (getenv("BENCH_ONLY") && strcmp(getenv("BENCH_ONLY"), c->name) != 0)
            continue;
        double t0[16];
        for (int r = 0; r < reps; r++)
            t0[r] = run(m, mod, c, NULL, NULL);
        double base = median(t0, reps);
        printf("%-9s none %9.2f ms", c->name, base * 1e3);
        for (int id = 0; id < CHK_N; id++) {
            if (!chk_implemented(id))
                continue;
            chk_ctx *ck = chk_new();
            char err[256];
            if (!ck || chk_set(ck, chk_name(id), 1, err, sizeof err) || chk_attach(ck, m)) {
                printf("  %s: cannot attach", chk_name(id));
                chk_free(ck);
                continue;
            }
            double t1[16];
            for (int r = 0; r < reps; r++)
                t1[r] = run(m, mod, c, NULL, NULL);
            int bad = c->check(c, m) || chk_count(ck);
            double t = median(t1, reps);
            printf("  %s %9.2f ms (%+.1f %%)%s", chk_name(id), t * 1e3, (t / base - 1) * 100,
                   bad ? " FINDINGS OR RESULT DIFFERS" : "");
            chk_free(ck);
        }
        printf("\n");
    }
}

/* ---- multi-core ---------------------------------------------------------------------------- */
static void bench_threads(exec_machine *m, ptx_module *mod, bcase *cs)
{
    int n = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 2)
        n = 2;
    printf("-- threads: run to completion with 1 and %d worker threads (O3; wall time)\n", n);
    clk = CLOCK_MONOTONIC;
    for (int k = 0; k < NCASES; k++) {
        bcase *c = &cs[k];
        double t1[16], tn[16];
        for (int r = 0; r < reps; r++) {
            exec_set_threads(m, 1);
            t1[r] = run(m, mod, c, NULL, NULL);
            exec_set_threads(m, n);
            tn[r] = run(m, mod, c, NULL, NULL);
        }
        int bad = c->check(c, m);
        exec_set_threads(m, 1);
        double a = median(t1, reps), b = median(tn, reps);
        printf("%-9s 1 thread %9.2f ms  %d threads %9.2f ms  speed-up %.2fx%s\n", c->name,
               a * 1e3, n, b * 1e3, a / b, bad ? "  RESULT DIFFERS" : "");
    }
    clk = CLOCK_PROCESS_CPUTIME_ID;
}

/* ---- debugger costs -------------------------------------------------------------------------- */
/* Run to completion; at each breakpoint stop, evaluate `cond` for every lane of the stopped
 * group (as the debugger's condition hook does) and resume unless it holds. Returns seconds;
 * *hit = 1 when the condition held (the run stopped there). */
typedef int (*lane_cond)(exec_machine *m, const exec_stop *st, uint32_t lane, void *arg);
static double run_cond(exec_machine *m, ptx_module *mod, bcase *c, uint32_t pc, lane_cond cond,
                       void *arg, int *hit, uint64_t *nstops)
{
    if (c->reset)
        c->reset(c, m);
    double s = now();
    launch(m, mod, c);
    exec_set_break(m, pc, 1);
    exec_run_opts o = { .mode = EXEC_RUN_CONTINUE };
    exec_stop st;
    *hit = 0;
    *nstops = 0;
    for (;;) {
        if (exec_run(m, &o, &st) != 0)
            die("run", m);
        if (st.kind != EXEC_STOP_BREAKPOINT)
            break;
        (*nstops)++;
        for (uint32_t l = 0; l < 32 && !*hit; l++)
            if (((st.lanes >> l) & 1) && cond(m, &st, l, arg))
                *hit = 1;
        if (*hit)
            break;
    }
    double e = now() - s;
    exec_set_break(m, pc, 0);
    return e;
}

/* The same with the condition evaluated by the core (exec_set_break_cond): only stops where it
 * holds come back. */
static double run_core_cond(exec_machine *m, ptx_module *mod, bcase *c, uint32_t pc,
                            const exec_cond *prog, int n, int *hit, uint64_t *nstops)
{
    if (c->reset)
        c->reset(c, m);
    double s = now();
    launch(m, mod, c);
    exec_set_break(m, pc, 1);
    if (exec_set_break_cond(m, pc, prog, n) != 0)
        die("condition", m);
    exec_run_opts o = { .mode = EXEC_RUN_CONTINUE };
    exec_stop st;
    *nstops = 0;
    if (exec_run(m, &o, &st) != 0)
        die("run", m);
    *hit = st.kind == EXEC_STOP_BREAKPOINT;
    *nstops += *hit;
    double e = now() - s;
    exec_set_break(m, pc, 0);
    return e;
}

static int cond_reg_false(exec_machine *m, const exec_stop *st, uint32_t lane, void *arg)
{
    uint64_t v = 0;
    ptx_type t;
    exec_reg_get(m, st->cta, st->warp, lane, 0, (const char *)arg, &v, &t);
    return v == 0xdeadbeef;   /* never */
}

static int cond_last_cta(exec_machine *m, const exec_stop *st, uint32_t lane, void *arg)
{
    uint64_t v = 0;
    exec_sreg_get(m, st->cta, st->warp, lane, PTX_SREG_CTAID, 0, &v);
    return v == *(const uint32_t *)arg;
}

/* pc of the n-th instruction of kernel k whose opcode is op (first when n = 0). */
static uint32_t find_pc(exec_machine *m, ptx_module *mod, const char *k, const char *op, int n)
{
    const ptx_func *f = kernel(mod, k);
    int64_t pc0 = exec_func_pc(m, f);
    for (int i = 0; i < f->ninsns; i++)
        if (strcmp(f->insns[i].opcode, op) == 0 && n-- == 0)
            return (uint32_t)(pc0 + i);
    fprintf(stderr, "no %s in %s\n", op, k);
    exit(1);
}

static void bench_debugger(exec_machine *m, ptx_module *mod, bcase *cs)
{
    printf("-- debugger costs (O3 kernels, one thread)\n");
    bcase *fma = &cs[0], *red = &cs[2];
    double t0[16], t1[16], t2[16];
    /* 10 unhit breakpoints; one false conditional breakpoint (evaluated per lane per stop) */
    int64_t other = exec_func_pc(m, kernel(mod, "collatz"));
    uint32_t stpc = find_pc(m, mod, "fma_loop", "st", 0);
    uint64_t nstops = 0, ncstops = 0;
    double t3[16];
    exec_cond rfalse[3];   /* %r1 == 0xdeadbeef */
    memset(rfalse, 0, sizeof rfalse);
    rfalse[0].op = EXEC_C_REG;
    snprintf(rfalse[0].name, sizeof rfalse[0].name, "%%r1");
    ptx_type r1t = PTX_T_NONE;
    exec_func_reg_type(m, kernel(mod, "fma_loop"), "%r1", &r1t);
    rfalse[0].type = (uint16_t)r1t;
    rfalse[1].op = EXEC_C_IMM;
    rfalse[1].imm = 0xdeadbeef;
    rfalse[2].op = EXEC_C_EQ;
    for (int r = 0; r < reps; r++) {
        t0[r] = run(m, mod, fma, NULL, NULL);
        for (int i = 0; i < 10; i++)
            exec_set_break(m, (uint32_t)(other + i), 1);
        t1[r] = run(m, mod, fma, NULL, NULL);
        for (int i = 0; i < 10; i++)
            exec_set_break(m, (uint32_t)(other + i), 0);
        int hit;
        t2[r] = run_cond(m, mod, fma, stpc, cond_reg_false, "%r1", &hit, &nstops);
        t3[r] = run_core_cond(m, mod, fma, stpc, rfalse, 3, &hit, &ncstops);
        if (hit)
            die("false core condition stopped", m);
    }
    double a = median(t0, reps), b = median(t1, reps), c = median(t2, reps);
    double d = median(t3, reps);
    printf("fma_loop plain %.2f ms; 10 unhit breakpoints %.2f ms (%+.1f%%); false conditional "
           "breakpoint on the store: evaluated by the caller at each stop %.2f ms (%+.1f%%, "
           "%" PRIu64 " stops), by the core %.2f ms (%+.1f%%, %" PRIu64 " stops)\n", a * 1e3,
           b * 1e3, (b / a - 1) * 100, c * 1e3, (c / a - 1) * 100, nstops, d * 1e3,
           (d / a - 1) * 100, ncstops);
    /* a watchpoint on a shared address: s[0] of the last CTA (hit at its first store) */
    double tw[16];
    for (int r = 0; r < reps; r++) {
        t0[r] = run(m, mod, red, NULL, NULL);
        launch(m, mod, red);
        int id = exec_watch_add(m, PTX_SPACE_SHARED, 0, 4, 1, red->grid.x - 1);
        exec_run_opts o = { .mode = EXEC_RUN_CONTINUE };
        exec_stop st;
        double s = now();
        if (exec_run(m, &o, &st) != 0 || st.kind != EXEC_STOP_WATCH)
            die("watch run", m);
        tw[r] = now() - s;
        exec_watch_del(m, id);
        exec_kill(m);
    }
    a = median(t0, reps);
    b = median(tw, reps);
    printf("reduce plain %.2f ms; watch shared s[0] of the last CTA %.2f ms (%+.1f%%)\n",
           a * 1e3, b * 1e3, (b / a - 1) * 100);
    /* stepi with a 2^20-thread grid launched; continue to a breakpoint in the last block */
    bcase big;
    memset(&big, 0, sizeof big);
    fma_setup(&big, m, 1 << 20, 50);
    int steps_iters = 100000;
    memcpy(big.params + 16, &steps_iters, 4);   /* warp 0 must not finish while stepping */
    for (int r = 0; r < reps; r++) {
        launch(m, mod, &big);
        exec_run_opts o = { .mode = EXEC_RUN_STEP_WARP };
        exec_stop st;
        const int nsteps = 200;
        double s = now();
        for (int i = 0; i < nsteps; i++)
            if (exec_run(m, &o, &st) != 0 || st.kind != EXEC_STOP_STEP)
                die("stepi", m);
        t0[r] = (now() - s) / nsteps;
        exec_kill(m);
    }
    printf("stepi with a 2^20-thread grid launched: %.1f us per step\n", median(t0, reps) * 1e6);
    steps_iters = 50;
    memcpy(big.params + 16, &steps_iters, 4);
    uint32_t last = big.grid.x - 1;
    exec_cond lastc[3];    /* %ctaid.x == last */
    memset(lastc, 0, sizeof lastc);
    lastc[0].op = EXEC_C_SREG;
    lastc[0].id = PTX_SREG_CTAID;
    lastc[1].op = EXEC_C_IMM;
    lastc[1].imm = last;
    lastc[2].op = EXEC_C_EQ;
    for (int r = 0; r < reps; r++) {
        t0[r] = run(m, mod, &big, NULL, NULL);
        int hit;
        t1[r] = run_cond(m, mod, &big, stpc, cond_last_cta, &last, &hit, &nstops);
        if (!hit)
            die("breakpoint in the last block not reached", m);
        exec_kill(m);
        t2[r] = run_core_cond(m, mod, &big, stpc, lastc, 3, &hit, &ncstops);
        if (!hit)
            die("breakpoint in the last block not reached (core condition)", m);
        exec_kill(m);
    }
    a = median(t0, reps);
    b = median(t1, reps);
    c = median(t2, reps);
    printf("fma_loop 2^20 threads x 50 iterations: to completion %.2f ms; continue to a "
           "breakpoint in the last block (condition %%ctaid.x == %u): evaluated by the caller "
           "(%" PRIu64 " stops) %.2f ms (%.2fx), by the core (%" PRIu64 " stop) %.2f ms (%.2fx)\n",
           a * 1e3, last, nstops, b * 1e3, b / a, ncstops, c * 1e3, c / a);
    case_free(&big, m);
}

/* ---- launch overhead ------------------------------------------------------------------------- */
static void bench_launch(exec_machine *m, ptx_module *mod)
{
    bcase c;
    memset(&c, 0, sizeof c);
    saxpy_setup(&c, m, 256);
    enum { N = 2000 };
    static double t[N];
    double l[N];
    for (int i = 0; i < N; i++) {
        t[i] = run(m, mod, &c, NULL, NULL);
        double s = now();
        launch(m, mod, &c);
        l[i] = now() - s;
        exec_kill(m);
    }
    printf("-- launch: one-CTA saxpy (256 threads): exec_launch %.1f us; launch + run to "
           "completion %.1f us%s\n", median(l, N) * 1e6, median(t, N) * 1e6,
           c.check(&c, m) ? "  RESULT DIFFERS" : "");
    case_free(&c, m);
}

/* ---- load ------------------------------------------------------------------------------------ */
static void bench_load(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("-- load: %s not found (run tests/bench.sh)\n", path);
        return;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    double t[16], tp[16], te[16], td[16];
    int nk = 0;
    for (int r = 0; r < reps; r++) {
        double s = now();
        ptx_error perr;
        ptx_module *mod = ptx_parse_file(path, &perr);
        if (!mod) {
            fprintf(stderr, "%s\n", perr.msg);
            exit(1);
        }
        double s1 = now();
        nk = 0;
        for (int i = 0; i < mod->nfuncs; i++)
            nk += mod->funcs[i]->is_entry;
        char err[1024];
        exec_machine *m = exec_new(mod, err, sizeof err);
        if (!m) {
            fprintf(stderr, "%s\n", err);
            exit(1);
        }
        double s2 = now();
        char warn[1024] = "";
        dw_info *d = dw_load(mod, warn, sizeof warn);
        double s3 = now();
        t[r] = s3 - s;
        tp[r] = s1 - s;
        te[r] = s2 - s1;
        td[r] = s3 - s2;
        dw_free(d);
        exec_free(m);
        ptx_module_free(mod);
    }
    printf("-- load: %.1f MB -G PTX (%d kernels): %.1f ms (parse %.1f, decode %.1f, DWARF %.1f)\n",
           (double)size / 1e6, nk, median(t, reps) * 1e3, median(tp, reps) * 1e3,
           median(te, reps) * 1e3, median(td, reps) * 1e3);
}

/* ---- memory ---------------------------------------------------------------------------------- */
static long maxrss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* In a child process: a 2^24-element saxpy with buffers filled through a small chunk, so the
 * peak RSS is the emulator's own. */
static void bench_memory(const char *path)
{
    fflush(stdout);
    pid_t p = fork();
    if (p == 0) {
        ptx_module *mod;
        exec_machine *m;
        if (load(path, &mod, &m))
            _exit(1);
        long before = maxrss_kb();
        const int n = 1 << 24;
        uint64_t dx = galloc(m, n * 4ull, NULL), dy = galloc(m, n * 4ull, NULL);
        static float chunk[1 << 16];
        for (int i = 0; i < (1 << 16); i++)
            chunk[i] = (float)(i % 1000);
        for (uint64_t o = 0; o < n * 4ull; o += sizeof chunk) {
            exec_mem_write(m, PTX_SPACE_GLOBAL, dx + o, chunk, sizeof chunk, 0, 0, 0);
            exec_mem_write(m, PTX_SPACE_GLOBAL, dy + o, chunk, sizeof chunk, 0, 0, 0);
        }
        unsigned char prm[24];
        float a = 2.0f;
        memcpy(prm, &n, 4);
        memcpy(prm + 4, &a, 4);
        memcpy(prm + 8, &dx, 8);
        memcpy(prm + 16, &dy, 8);
        if (exec_launch(m, kernel(mod, "saxpy"), (exec_dim3){ n / 256, 1, 1 },
                        (exec_dim3){ 256, 1, 1 }, 0, prm, 24))
            _exit(1);
        exec_run_opts o = { .mode = EXEC_RUN_CONTINUE };
        exec_stop st;
        exec_run(m, &o, &st);
        long after = maxrss_kb();
        double state = 2.0 * n * 4 / 1024.0;   /* KB of global buffers */
        printf("-- memory: saxpy 2^24: peak RSS %.1f MB (%.1f MB before the buffers), live "
               "architectural state %.1f MB (x, y) -> %.2fx\n", after / 1024.0, before / 1024.0,
               state / 1024.0, (double)(after - before) / state);
        fflush(stdout);
        _exit(0);
    }
    int status;
    waitpid(p, &status, 0);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/bench";
    if (argc > 2)
        filter = argv[2];
    if (getenv("BENCH_REPS"))
        reps = atoi(getenv("BENCH_REPS"));
    if (reps < 1 || reps > 15)
        reps = 3;
    static const char *variants[] = { "O3", "G" };
    printf("ptxdbg bench: median of %d runs; \"x C\" = emulator time / plain C (gcc -O2) time "
           "measured in the same run; CPU time of one thread unless stated\n", reps);
    char path[512];
    for (int v = 0; v < 2; v++) {
        snprintf(path, sizeof path, "%s/bench_kernels.%s.ptx", dir, variants[v]);
        ptx_module *mod;
        exec_machine *m;
        if (load(path, &mod, &m) != 0)
            return 1;
        bcase cs[NCASES];
        if (want("kernels") || want("checks") ||
            (v == 0 && (want("threads") || want("debugger")))) {
            setup_all(cs, m);
            if (want("kernels")) {
                printf("-- kernels (%s PTX)\n", variants[v]);
                for (int k = 0; k < NCASES; k++)
                    bench_case(m, mod, &cs[k], variants[v]);
            }
            if (want("checks"))
                bench_checks(m, mod, cs, variants[v]);
            if (v == 0 && want("threads"))
                bench_threads(m, mod, cs);
            if (v == 0 && want("debugger"))
                bench_debugger(m, mod, cs);
            for (int k = 0; k < NCASES; k++)
                case_free(&cs[k], m);
        }
        if (v == 0 && want("launch"))
            bench_launch(m, mod);
        exec_free(m);
        ptx_module_free(mod);
    }
    if (want("load"))
        bench_load(getenv("BENCH_BIG") ? getenv("BENCH_BIG") : "build/big_kernels.G.ptx");
    snprintf(path, sizeof path, "%s/bench_kernels.O3.ptx", dir);
    if (want("memory"))
        bench_memory(path);
    return 0;
}
