/* bench.c - `make bench`: time the bench kernels in the emulator against plain C baselines. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "exec.h"
#include "ptx.h"
#include "baseline.h"

#define REPS 3

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return v[n / 2];
}

typedef struct {
    const char *name;
    const char *kernel;
    exec_dim3 grid, block;
} kcase;

/* One run of a kernel; returns seconds, fills instruction counts. */
typedef struct {
    exec_machine *m;
    const ptx_func *k;
    uint64_t addr[4];
} ctx;

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
    if (exec_global_alloc(m, n, &a) != 0) {
        fprintf(stderr, "alloc: %s\n", exec_errmsg(m));
        exit(1);
    }
    if (init && exec_mem_write(m, PTX_SPACE_GLOBAL, a, init, n, 0, 0, 0) != 0) {
        fprintf(stderr, "write: %s\n", exec_errmsg(m));
        exit(1);
    }
    return a;
}

/* Launch and run to completion; returns wall seconds. */
static double run(exec_machine *m, const ptx_func *k, exec_dim3 g, exec_dim3 b,
                  const void *params, size_t np, uint64_t *winsn, uint64_t *tinsn)
{
    uint64_t w0, t0, w1, t1;
    exec_stats(m, &w0, &t0);
    double s = now();
    if (exec_launch(m, k, g, b, 0, params, np) != 0) {
        fprintf(stderr, "launch: %s\n", exec_errmsg(m));
        exit(1);
    }
    exec_run_opts o = { .mode = EXEC_RUN_CONTINUE };
    exec_stop st;
    if (exec_run(m, &o, &st) != 0 || st.kind != EXEC_STOP_DONE) {
        fprintf(stderr, "run: stop kind %d: %s %s\n", (int)st.kind, st.msg, exec_errmsg(m));
        exit(1);
    }
    double e = now() - s;
    exec_stats(m, &w1, &t1);
    *winsn = w1 - w0;
    *tinsn = t1 - t0;
    return e;
}

static void report(const char *name, const char *variant, double secs, uint64_t w, uint64_t t,
                   double base)
{
    printf("%-10s %-3s %9.3f ms  %8.1f Mthread-insn/s  %7.2f Mwarp-insn/s", name, variant,
           secs * 1e3, t / secs / 1e6, w / secs / 1e6);
    if (base > 0)
        printf("  %7.1fx C (C %.3f ms)", secs / base, base * 1e3);
    printf("\n");
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

/* Each bench: build inputs, time REPS runs (median), compare with C output. */
static void bench_fma(exec_machine *m, ptx_module *mod, const char *variant, int nbp)
{
    const int nthreads = 1 << 16, iters = 1000;
    float a = 0.999f, b = 0.001f;
    uint64_t out = galloc(m, nthreads * 4ull, NULL);
    unsigned char p[24];
    memcpy(p, &out, 8);
    memcpy(p + 8, &a, 4);
    memcpy(p + 12, &b, 4);
    memcpy(p + 16, &iters, 4);
    const ptx_func *k = kernel(mod, "fma_loop");
    /* unhit breakpoints: flag the first instructions of another kernel */
    int64_t other = exec_func_pc(m, kernel(mod, "collatz"));
    for (int i = 0; i < nbp; i++)
        exec_set_break(m, (uint32_t)(other + i), 1);
    double t[REPS], c[REPS];
    uint64_t w = 0, ti = 0;
    float *ref = malloc(nthreads * 4), *got = malloc(nthreads * 4);
    for (int r = 0; r < REPS; r++) {
        t[r] = run(m, k, (exec_dim3){ nthreads / 256, 1, 1 }, (exec_dim3){ 256, 1, 1 }, p, 20,
                   &w, &ti);
        double s = now();
        base_fma_loop(ref, a, b, iters, nthreads);
        c[r] = now() - s;
    }
    for (int i = 0; i < nbp; i++)
        exec_set_break(m, (uint32_t)(other + i), 0);
    exec_mem_read(m, PTX_SPACE_GLOBAL, out, got, nthreads * 4ull, 0, 0, 0);
    if (memcmp(ref, got, nthreads * 4))
        printf("  (fma_loop result differs from C)\n");
    char name[32];
    snprintf(name, sizeof name, nbp ? "fma+%dbp" : "fma_loop", nbp);
    report(name, variant, median(t, REPS), w, ti, median(c, REPS));
    exec_global_free(m, out);
    free(ref);
    free(got);
}

static void bench_saxpy(exec_machine *m, ptx_module *mod, const char *variant)
{
    const int n = 1 << 24;
    float a = 2.0f;
    float *x = malloc(n * 4ull), *y = malloc(n * 4ull), *yr = malloc(n * 4ull);
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i % 1000) * 0.5f;
        y[i] = (float)(i % 777);
    }
    uint64_t dx = galloc(m, n * 4ull, x), dy = galloc(m, n * 4ull, y);
    unsigned char p[24];
    memcpy(p, &n, 4);
    memcpy(p + 4, &a, 4);
    memcpy(p + 8, &dx, 8);
    memcpy(p + 16, &dy, 8);
    double t[REPS], c[REPS];
    uint64_t w = 0, ti = 0;
    for (int r = 0; r < REPS; r++) {
        exec_mem_write(m, PTX_SPACE_GLOBAL, dy, y, n * 4ull, 0, 0, 0);
        t[r] = run(m, kernel(mod, "saxpy"), (exec_dim3){ n / 256, 1, 1 },
                   (exec_dim3){ 256, 1, 1 }, p, 24, &w, &ti);
        memcpy(yr, y, n * 4ull);
        double s = now();
        base_saxpy(n, a, x, yr);
        c[r] = now() - s;
    }
    exec_mem_read(m, PTX_SPACE_GLOBAL, dy, y, n * 4ull, 0, 0, 0);
    if (memcmp(y, yr, n * 4ull))
        printf("  (saxpy result differs from C)\n");
    report("saxpy", variant, median(t, REPS), w, ti, median(c, REPS));
    exec_global_free(m, dx);
    exec_global_free(m, dy);
    free(x);
    free(y);
    free(yr);
}

static void bench_reduce(exec_machine *m, ptx_module *mod, const char *variant)
{
    const int nb = 4096, bs = 256, n = nb * bs;
    int *in = malloc(n * 4ull), *out = malloc(nb * 4ull), *ref = malloc(nb * 4ull);
    for (int i = 0; i < n; i++)
        in[i] = (i * 7) % 101 - 50;
    uint64_t din = galloc(m, n * 4ull, in), dout = galloc(m, nb * 4ull, NULL);
    unsigned char p[16];
    memcpy(p, &din, 8);
    memcpy(p + 8, &dout, 8);
    double t[REPS], c[REPS];
    uint64_t w = 0, ti = 0;
    for (int r = 0; r < REPS; r++) {
        t[r] = run(m, kernel(mod, "reduce"), (exec_dim3){ nb, 1, 1 }, (exec_dim3){ bs, 1, 1 },
                   p, 16, &w, &ti);
        double s = now();
        base_reduce(in, ref, nb, bs);
        c[r] = now() - s;
    }
    exec_mem_read(m, PTX_SPACE_GLOBAL, dout, out, nb * 4ull, 0, 0, 0);
    if (memcmp(out, ref, nb * 4ull))
        printf("  (reduce result differs from C)\n");
    report("reduce", variant, median(t, REPS), w, ti, median(c, REPS));
    exec_global_free(m, din);
    exec_global_free(m, dout);
    free(in);
    free(out);
    free(ref);
}

static void bench_collatz(exec_machine *m, ptx_module *mod, const char *variant)
{
    const int n = 1 << 16;
    uint64_t *st = malloc(n * 8ull);
    int *steps = malloc(n * 4ull), *ref = malloc(n * 4ull);
    for (int i = 0; i < n; i++)
        st[i] = (uint64_t)i + 1;
    uint64_t ds = galloc(m, n * 8ull, st), dn = galloc(m, n * 4ull, NULL);
    unsigned char p[16];
    memcpy(p, &ds, 8);
    memcpy(p + 8, &dn, 8);
    double t[REPS], c[REPS];
    uint64_t w = 0, ti = 0;
    for (int r = 0; r < REPS; r++) {
        t[r] = run(m, kernel(mod, "collatz"), (exec_dim3){ n / 256, 1, 1 },
                   (exec_dim3){ 256, 1, 1 }, p, 16, &w, &ti);
        double s = now();
        base_collatz(st, ref, n);
        c[r] = now() - s;
    }
    exec_mem_read(m, PTX_SPACE_GLOBAL, dn, steps, n * 4ull, 0, 0, 0);
    if (memcmp(steps, ref, n * 4ull))
        printf("  (collatz result differs from C)\n");
    report("collatz", variant, median(t, REPS), w, ti, median(c, REPS));
    exec_global_free(m, ds);
    exec_global_free(m, dn);
    free(st);
    free(steps);
    free(ref);
}

static void bench_matmul(exec_machine *m, ptx_module *mod, const char *variant)
{
    const int n = 256;
    float *A = malloc(n * n * 4ull), *B = malloc(n * n * 4ull), *C = malloc(n * n * 4ull),
          *R = malloc(n * n * 4ull);
    for (int i = 0; i < n * n; i++) {
        A[i] = (float)((i * 3) % 17) * 0.25f;
        B[i] = (float)((i * 5) % 13) * 0.5f;
    }
    uint64_t dA = galloc(m, n * n * 4ull, A), dB = galloc(m, n * n * 4ull, B),
             dC = galloc(m, n * n * 4ull, NULL);
    unsigned char p[32];
    memcpy(p, &dA, 8);
    memcpy(p + 8, &dB, 8);
    memcpy(p + 16, &dC, 8);
    memcpy(p + 24, &n, 4);
    double t[REPS], c[REPS];
    uint64_t w = 0, ti = 0;
    for (int r = 0; r < REPS; r++) {
        t[r] = run(m, kernel(mod, "matmul"), (exec_dim3){ n / 16, n / 16, 1 },
                   (exec_dim3){ 16, 16, 1 }, p, 28, &w, &ti);
        double s = now();
        base_matmul(A, B, R, n);
        c[r] = now() - s;
    }
    exec_mem_read(m, PTX_SPACE_GLOBAL, dC, C, n * n * 4ull, 0, 0, 0);
    if (memcmp(C, R, n * n * 4ull))
        printf("  (matmul result differs from C)\n");
    report("matmul", variant, median(t, REPS), w, ti, median(c, REPS));
    exec_global_free(m, dA);
    exec_global_free(m, dB);
    exec_global_free(m, dC);
    free(A);
    free(B);
    free(C);
    free(R);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/bench";
    static const char *variants[] = { "O3", "G" };
    printf("ptxdbg bench: median of %d runs; ratio = emulator time / plain C (gcc -O2) time\n",
           REPS);
    for (int v = 0; v < 2; v++) {
        char path[512];
        snprintf(path, sizeof path, "%s/bench_kernels.%s.ptx", dir, variants[v]);
        ptx_module *mod;
        exec_machine *m;
        double s = now();
        if (load(path, &mod, &m) != 0)
            return 1;
        printf("load %s: %.1f ms\n", path, (now() - s) * 1e3);
        bench_fma(m, mod, variants[v], 0);
        if (v == 0)
            bench_fma(m, mod, variants[v], 10);
        bench_saxpy(m, mod, variants[v]);
        bench_reduce(m, mod, variants[v]);
        bench_collatz(m, mod, variants[v]);
        bench_matmul(m, mod, variants[v]);
        exec_free(m);
        ptx_module_free(mod);
    }
    return 0;
}
