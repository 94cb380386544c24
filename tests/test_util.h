/* test_util.h - small helpers shared by the Check suites (run from the repository root). */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <check.h>
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

/* Read a whole file into a NUL-terminated malloc'd buffer; NULL when unreadable. */
static inline char *tu_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 65536;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0)
            break;
    }
    fclose(f);
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

/* Whether the host FPU honours fesetround and fuses fma() exactly. References computed on
 * the host FPU need both; valgrind's CPU emulation provides neither, so under it those
 * comparisons are skipped with a note (memcheck still covers the code paths). */
static inline int tu_host_fpu_exact(void)
{
    volatile float one = 1.0f, tiny = 0x1p-30f;
    fesetround(FE_UPWARD);
    volatile float up = one + tiny;
    fesetround(FE_TONEAREST);
    volatile double a = 1.0 + 0x1p-30, b = 1.0 - 0x1p-30, c = -1.0;
    double f = fma(a, b, c); /* exactly -2^-60 when fused */
    return up > 1.0f && f == -0x1p-60;
}

/* Skip the rest of a test (with a note) when host-FPU references cannot be trusted. */
#define TU_NEED_HOST_FPU()                                                                   \
    do {                                                                                     \
        if (!tu_host_fpu_exact()) {                                                          \
            printf("%s: skipped: the host FPU ignores rounding modes or does not fuse fma "  \
                   "(valgrind)\n", __func__);                                                \
            return;                                                                          \
        }                                                                                    \
    } while (0)

/* Run one suite and return the process exit status. */
/* Tests bound the work, not the wall time. Before main: every test process (and each ptxdbg it
 * starts, which inherits the limit) gets a CPU-time budget of 600 s, which only a hang uses up,
 * and the suites' Check timeouts (wall clock) are stretched 20 times (CK_TIMEOUT_MULTIPLIER,
 * unless set) into a backstop against a process blocked without using CPU. A loaded machine
 * slows a test down; it cannot make it fail. */
__attribute__((constructor)) static void tu_bound_work(void)
{
    setenv("CK_TIMEOUT_MULTIPLIER", "20", 0);
    struct rlimit r;
    if (getrlimit(RLIMIT_CPU, &r) == 0 && r.rlim_cur == RLIM_INFINITY) {
        r.rlim_cur = r.rlim_max == RLIM_INFINITY || r.rlim_max > 600 ? 600 : r.rlim_max;
        setrlimit(RLIMIT_CPU, &r);
    }
}

static inline int tu_run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

#endif
