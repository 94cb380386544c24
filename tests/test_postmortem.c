/* test_postmortem.c - traps and faults: reports, info trap, no execution after, core files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cmd.h"
#include "run_ptxdbg.h"

/* Kernels: tests/fixtures/postmortem/postmortem.cu. Expected values come from its source:
 * trap_range<<<2,64>>>(iota, out, 96, 112) traps in check() (line 13) for i in [96,112), i.e.
 * block 1 threads 32..47 = warp 1 lanes 0..15; there v = in[64+33] + 7 = 104. */
#define DIR "tests/fixtures/postmortem/"
static const char *variants[] = {"G", "O3"};
static char tmpdir[256];

#define HAS(out, text) ck_assert_msg(strstr((out), (text)) != NULL, "missing \"%s\" in:\n%s", \
                                     (text), (out))

static void setup(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/ptxdbg-pm.XXXXXX", t && *t ? t : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", tmpdir);
}

static const char *trap_launch =
    "-ex 'buffer in s32 128 = iota' -ex 'buffer out s32 128' "
    "-ex 'launch trap_range<<<2,64>>>(in, out, 96, 112)'";

/* ---- reports ---------------------------------------------------------------------------------- */
START_TEST(trap_report)
{
    const char *v = variants[_i];
    char cmd[2048];
    int st = -1;
    snprintf(cmd, sizeof cmd, "%s -batch %s " DIR "postmortem.%s.ptx 2>&1", rp_ptxdbg(),
             trap_launch, v);
    char *out = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(out);
    HAS(out, "CUDA Exception: Warp Illegal Instruction (trap)");
    HAS(out, "Kernel trapped: block (1,0,0) threads (32..47,0,0) at ");
    HAS(out, "warp 1, lanes 0..15, pc 0x");
    if (!strcmp(v, "G"))
        HAS(out, "at postmortem.cu:13 in check");
    ck_assert_int_eq(st, 1);
    free(out);
}
END_TEST

START_TEST(assert_report)
{
    const char *v = variants[_i];
    char cmd[2048];
    int st = -1;
    snprintf(cmd, sizeof cmd, "%s -batch -ex 'buffer in s32 64 = iota' -ex 'buffer out s32 64' "
             "-ex 'launch assert_small<<<2,32>>>(in, out)' " DIR "postmortem.%s.ptx 2>&1",
             rp_ptxdbg(), v);
    char *out = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(out);
    /* in[i] = i >= 40: block 1 threads 8..31 */
    HAS(out, "Kernel assertion failed: block (1,0,0) threads (8..31,0,0) at ");
    HAS(out, "postmortem.cu:35");
    HAS(out, "Assertion `v < 40` failed");
    HAS(out, "CUDA_EXCEPTION_12, Warp Assert");
    ck_assert_int_eq(st, 1);
    free(out);
}
END_TEST

static const struct {
    const char *launch, *g_only, *want[4];
} faults[] = {
    /* thread 5 writes b[1000 + 5]: 4020 - 64 bytes after the end of the 16-int buffer, past
       the 448 bytes of padding a GPU maps with it */
    {"-ex 'buffer b s32 16' -ex 'launch oob_global<<<1,32>>>(b, 1000, 5)'", NULL,
     {"CUDA Exception: Warp Out-of-range Address", "block (0,0,0) thread (5,0,0) at",
      "out-of-range access to global address", "3956 bytes after the end of buffer b ["}},
    /* s2[16 + 3]: 12 bytes after the end of s2 (16 ints), beyond all shared memory */
    {"-ex 'buffer o s32 32' -ex 'launch oob_shared<<<1,32>>>(o, 3)'", NULL,
     {"Warp Out-of-range Address", "thread (0,0,0) at",
      "out-of-range access to shared address", "12 bytes after the end of oob_shared::s2"}},
    {"-ex 'buffer o s32 32' -ex 'launch oob_local<<<1,32>>>(o, 1000)'", NULL,
     {"Warp Out-of-range Address", "thread (3,0,0) at", "out-of-range access to local address",
      "above the thread's stack top"}},
    {"-ex 'buffer o s32 32' -ex 'launch misaligned<<<1,32>>>(o)'", NULL,
     {"CUDA Exception: Warp Misaligned Address", "thread (1,0,0) at",
      "misaligned access to global address", "inside buffer o at offset 2"}},
    /* -O3 turns the store to __constant__ into a trap at compile time */
    {"-ex 'buffer o s32 32' -ex 'launch store_const<<<1,32>>>(o, 1)'", "G",
     {"CUDA Exception: Warp Read-only Address Store", "thread (2,0,0) at",
      "store to read-only const address 0x4", "inside table at offset 4"}},
    {"-ex 'buffer in s32 4 = iota' -ex 'buffer o s32 32' "
     "-ex 'launch runaway<<<1,32>>>(in, o, 100000)'", NULL,
     {"CUDA Exception: Lane User Stack Overflow", "in deep", "stack overflow", NULL}},
    {"-ex 'buffer o s32 64' -ex 'launch deadlock<<<1,64>>>(o)'", NULL,
     {"CUDA Exception: Warp Barrier Deadlock", "waiting at barrier 1",
      "warp 1 lanes 0..31, threads (32..63,0,0): exited", NULL}},
};
#define NFAULTS ((int)(sizeof faults / sizeof faults[0]))

START_TEST(fault_report)
{
    int k = _i / 2;
    const char *v = variants[_i % 2];
    if (faults[k].g_only && strcmp(faults[k].g_only, v))
        return;
    char cmd[2048];
    int st = -1;
    snprintf(cmd, sizeof cmd, "%s -batch %s -ex 'info trap' " DIR "postmortem.%s.ptx 2>&1",
             rp_ptxdbg(), faults[k].launch, v);
    char *out = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(out);
    for (int i = 0; i < 4 && faults[k].want[i]; i++)
        HAS(out, faults[k].want[i]);
    HAS(out, "Blocks: 0 completed, block (0,0,0) stopped, 0 not started");
    ck_assert_int_eq(st, 1);
    free(out);
}
END_TEST

/* ---- postmortem state --------------------------------------------------------------------------*/
START_TEST(no_execution_after_trap)
{
    char cmd[2048];
    int st = -1;
    snprintf(cmd, sizeof cmd, "%s -batch %s -ex 'stepi' -ex 'continue' -ex 'next' -ex 'print v' "
             "-ex 'print i' -ex 'info trap' " DIR "postmortem.G.ptx 2>&1", rp_ptxdbg(),
             trap_launch);
    char *out = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(out);
    HAS(out, "The kernel has trapped; no further execution is possible.");
    HAS(out, "$1 = 104");
    HAS(out, "$2 = 96");
    HAS(out, "Trap: block (1,0,0) threads (32..47,0,0) (warp 1) executed trap at "
             "postmortem.cu:13 in check");
    HAS(out, "Blocks: 1 completed, block (1,0,0) stopped, 0 not started");
    HAS(out, "warp 1 lanes 16..31, threads (48..63,0,0): waiting (divergent)");
    ck_assert_int_eq(st, 1);
    free(out);
}
END_TEST

/* ---- core files ------------------------------------------------------------------------------- */
#define START "-ex 'echo ==START==\\n' "
static const char *inspect =
    "-ex 'info warps' -ex 'info lanes' -ex 'backtrace' "
    "-ex 'info registers' -ex 'x/16dw out' -ex 'x/8dw in' -ex 'info trap' -ex 'print $pc' "
    "-ex 'cuda warp 0 lane 3' -ex 'info registers' -ex 'backtrace' -ex 'info sharedmem' "
    "-ex 'x/8dw (@shared int *)0' -ex 'info breakpoints'";

/* Equal texts, else the first differing line. */
static void same(const char *a, const char *b)
{
    const char *x = a, *y = b;
    int line = 1;
    while (*x && *x == *y) {
        if (*x == '\n')
            line++;
        x++;
        y++;
    }
    ck_assert_msg(*x == 0 && *y == 0, "live and core differ at line %d: \"%.80s\" vs \"%.80s\"",
                  line, x, y);
}

/* Text from ==START== up to a line starting with `stop` (or the end). */
static char *section(char *out, const char *stop)
{
    char *s = strstr(out, "==START==");
    ck_assert_ptr_nonnull(s);
    if (stop) {
        char *e = strstr(s, stop);
        if (e)
            *e = 0;
    }
    return s;
}

START_TEST(core_matches_live)
{
    const char *v = variants[_i];
    char cmd[4096], core[400];
    int st = -1;
    snprintf(core, sizeof core, "%s/trap.%s.core", tmpdir, v);
    const char *var = strcmp(v, "G") ? "" : "-ex 'print v' -ex 'print i'";
    snprintf(cmd, sizeof cmd, "%s -batch %s -ex 'generate-core-file %s' " START "%s %s "
             DIR "postmortem.%s.ptx 2>&1", rp_ptxdbg(), trap_launch, core, var, inspect, v);
    char *live = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(live);
    HAS(live, "Saved corefile");
    /* a new process */
    snprintf(cmd, sizeof cmd, "%s -batch --core '%s' " START "%s %s 2>&1", rp_ptxdbg(), core, var,
             inspect);
    char *dead = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(dead);
    ck_assert_int_eq(st, 0);
    HAS(dead, "Kernel trapped: block (1,0,0) threads (32..47,0,0) at ");
    char *a = section(live, NULL), *b = section(dead, NULL);
    /* the live session names no core file in info trap */
    char *cf = strstr(b, " (core file ");
    ck_assert_ptr_nonnull(cf);
    char *close = strchr(cf, ':');
    ck_assert_ptr_nonnull(close);
    memmove(cf, close, strlen(close) + 1);
    same(a, b);
    free(live);
    free(dead);
}
END_TEST

START_TEST(core_at_breakpoint)
{
    char cmd[4096], core[400];
    int st = -1;
    snprintf(core, sizeof core, "%s/bp.core", tmpdir);
    /* no thread traps (lo = hi); stop at check's store (line 14) for thread (33,0,0) block 1 */
    snprintf(cmd, sizeof cmd, "%s -batch -ex 'buffer in s32 128 = iota' -ex 'buffer out s32 128' "
             "-ex 'break postmortem.cu:14 if i == 97' -ex 'launch trap_range<<<2,64>>>(in, out, 0, 0)' "
             "-ex 'gcore %s' " START "-ex 'print w' %s " DIR "postmortem.G.ptx 2>&1", rp_ptxdbg(),
             core, inspect);
    char *live = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(live);
    ck_assert_int_eq(st, 0);
    /* thread 33 of block 1: v = tile[34] = in[98] + 7 = 105, w = 2 * 105 + 1 */
    HAS(live, "= 211");
    snprintf(cmd, sizeof cmd, "%s -batch --core '%s' " START "-ex 'print w' %s -ex 'continue' "
             "2>&1", rp_ptxdbg(), core, inspect);
    char *dead = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(dead);
    HAS(dead, "it cannot run");
    ck_assert_int_eq(st, 1);
    char *a = section(live, NULL), *b = section(dead, "The program is a core");
    char *cf = strstr(b, " (core file ");
    ck_assert_ptr_nonnull(cf);
    char *close = strchr(cf, ':');
    memmove(cf, close, strlen(close) + 1);
    same(a, b);
    free(live);
    free(dead);
}
END_TEST

/* A stop inside a cluster launch (tests/fixtures/corpus/cluster.cu: clusters of 4 CTAs of 64
 * threads over in = iota): block 2 stops at line 23, blocks 0, 1 and 3 wait in cluster.sync().
 * The core holds all four, each with its own shared memory: block 1's total is 64 + ... + 127
 * = 6112 and part[3] = in[64 + 3] = 67, live and reopened. */
START_TEST(core_of_a_cluster)
{
    char cmd[4096], core[400];
    int st = -1;
    snprintf(core, sizeof core, "%s/cl.core", tmpdir);
    const char *look = "-ex 'cuda block 1 thread 3' -ex 'frame 4' -ex 'print total' "
                       "-ex 'print part[3]' -ex 'info cuda threads'";
    snprintf(cmd, sizeof cmd, "%s -batch -ex 'buffer in s32 500 = iota' -ex 'buffer out s32 1000' "
             "-ex 'break cluster.cu:23 if blockIdx.x == 2' "
             "-ex 'launch _Z11cluster_sumPKiPii<<<8, 64>>>(in, out, 500)' -ex 'gcore %s' %s "
             "tests/fixtures/corpus/cluster.G.ptx 2>&1", rp_ptxdbg(), core, look);
    char *live = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(live);
    ck_assert_int_eq(st, 0);
    snprintf(cmd, sizeof cmd, "%s -batch --core '%s' %s 2>&1", rp_ptxdbg(), core, look);
    char *dead = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(dead);
    ck_assert_int_eq(st, 0);
    for (int k = 0; k < 2; k++) {
        const char *out = k ? dead : live;
        HAS(out, "$1 = 6112\n");
        HAS(out, "$2 = 67\n");
        HAS(out, "  (0,0,0)   (0,0,0)     (0,0,0)  (63,0,0)      64");
        HAS(out, "  (3,0,0)   (0,0,0)     (3,0,0)  (63,0,0)      64");
    }
    free(live);
    free(dead);
}
END_TEST

static size_t file_size(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 ? (size_t)sb.st_size : 0;
}

static void make_core(char *core, size_t n)
{
    snprintf(core, n, "%s/good.core", tmpdir);
    char cmd[2048];
    int st = -1;
    snprintf(cmd, sizeof cmd, "%s -batch %s -ex 'gcore %s' " DIR "postmortem.O3.ptx >/dev/null "
             "2>&1", rp_ptxdbg(), trap_launch, core);
    free(rp_run_status(cmd, &st));
    ck_assert_uint_gt(file_size(core), 100);
}

/* Open a damaged core: must fail cleanly (status 1, message), and the session goes on. */
static void expect_refused(const char *path, const char *msg)
{
    char cmd[2048];
    int st = -1;
    snprintf(cmd, sizeof cmd, "%s -batch --core '%s' -ex 'info warps' -ex 'echo alive\\n' 2>&1",
             rp_ptxdbg(), path);
    char *out = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(out);
    HAS(out, msg);
    HAS(out, "alive");
    ck_assert_int_eq(st, 1);
    free(out);
}

static void write_variant(const char *src, const char *dst, size_t cut, long flip, int append)
{
    size_t n;
    char *d = tu_read_file(src, &n);
    ck_assert_ptr_nonnull(d);
    if (flip >= 0 && (size_t)flip < n)
        d[flip] ^= 0x40;
    FILE *f = fopen(dst, "wb");
    ck_assert_ptr_nonnull(f);
    size_t len = cut < n ? cut : n;
    ck_assert_uint_eq(fwrite(d, 1, len, f), len);
    if (append)
        fputc(0, f);
    fclose(f);
    free(d);
}

START_TEST(corrupted_cores)
{
    char core[400], bad[400];
    make_core(core, sizeof core);
    size_t n = file_size(core);
    snprintf(bad, sizeof bad, "%s/bad.core", tmpdir);
    long flips[] = {40, 100, (long)n / 3, (long)n / 2, (long)n - 20, (long)n - 1};
    for (size_t i = 0; i < sizeof flips / sizeof flips[0]; i++) {
        write_variant(core, bad, n, flips[i], 0);
        expect_refused(bad, "the core file is corrupted (checksum mismatch");
    }
    write_variant(core, bad, n, 0, 0);
    expect_refused(bad, "not a ptxdbg core file (bad magic)");
    write_variant(core, bad, n, 9, 0); /* version 5 -> 0x4005 */
    expect_refused(bad, "core file format version 16389 is not supported");
    size_t cuts[] = {4, 20, 36, 1000, n / 3, n / 2, n - 5, n - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        write_variant(core, bad, cuts[i], -1, 0);
        expect_refused(bad, "the core file is truncated");
    }
    write_variant(core, bad, 0, -1, 0);
    expect_refused(bad, "not a ptxdbg core file");
    write_variant(core, bad, n, -1, 1);
    expect_refused(bad, "the core file is corrupted");
    expect_refused(DIR "postmortem.cu", "not a ptxdbg core file (bad magic)");
    char none[450];
    snprintf(none, sizeof none, "%s/missing.core", tmpdir);
    expect_refused(none, "cannot open the core file");
}
END_TEST

START_TEST(core_sources_embedded)
{
    char core[400], cmd[2048];
    int st = -1;
    snprintf(core, sizeof core, "%s/src.core", tmpdir);
    snprintf(cmd, sizeof cmd, "%s -batch %s -ex 'gcore %s' " DIR "postmortem.G.ptx >/dev/null "
             "2>&1", rp_ptxdbg(), trap_launch, core);
    free(rp_run_status(cmd, &st));
    snprintf(cmd, sizeof cmd, "%s -batch --core '%s' -ex 'list 12,13' 2>&1", rp_ptxdbg(), core);
    char *out = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(out);
    HAS(out, "12\t    if (i >= lo && i < hi)\n13\t        __trap();\n");
    ck_assert_int_eq(st, 0);
    free(out);
}
END_TEST

START_TEST(auto_core)
{
    char cmd[4096];
    int st = -1;
    char here[1024];
    ck_assert_ptr_nonnull(getcwd(here, sizeof here));
    const char *p = rp_ptxdbg();
    snprintf(cmd, sizeof cmd, "cd '%s' && PTXDBG_COREDUMP=1 %s%s%s -batch %s '%s/" DIR
             "postmortem.O3.ptx' 2>&1", tmpdir, p[0] == '/' ? "" : here, p[0] == '/' ? "" : "/",
             p, trap_launch, here);
    char *out = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(out);
    HAS(out, "[Core file written to core.trap_range.0]");
    ck_assert_int_eq(st, 1);
    free(out);
    char core[600];
    snprintf(core, sizeof core, "%s/core.trap_range.0", tmpdir);
    snprintf(cmd, sizeof cmd, "%s -batch --core '%s' -ex 'info trap' 2>&1", p, core);
    out = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(out);
    HAS(out, "Trap: block (1,0,0) threads (32..47,0,0)");
    ck_assert_int_eq(st, 0);
    free(out);
    /* the setting, in a session */
    snprintf(cmd, sizeof cmd, "%s -batch -ex 'set auto-core on' %s " DIR "postmortem.O3.ptx "
             "2>&1; rm -f core.trap_range.0", p, trap_launch);
    out = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(out);
    HAS(out, "[Core file written to core.trap_range.0]");
    free(out);
}
END_TEST


/* Every core that generate-core-file or auto-core writes reopens: buffer counts 0..5 times name
 * lengths 1..6 (short names once tripped a wrong minimum record size in the buffer section).
 * Buffer i of a case holds (i * 7 + len) % 256 in every byte; after reopening, each buffer
 * prints that value and "info buffers" lists it. auto: the same through set auto-core on. */
static void roundtrip_case(int nb, int len, int autocore)
{
    char cmd[6144], core[400];
    int st = -1;
    snprintf(core, sizeof core, "%s/rt.%d.%d.%d.core", tmpdir, nb, len, autocore);
    size_t k = (size_t)snprintf(cmd, sizeof cmd, "cd '%s' && ", tmpdir);
    char here[1024];
    ck_assert_ptr_nonnull(getcwd(here, sizeof here));
    const char *p = rp_ptxdbg();
    k += (size_t)snprintf(cmd + k, sizeof cmd - k, "%s%s%s -batch -ex 'set auto-core %s' ",
                          p[0] == '/' ? "" : here, p[0] == '/' ? "" : "/", p,
                          autocore ? "on" : "off");
    for (int i = 0; i < nb; i++) {
        char name[16];
        for (int c = 0; c < len; c++)
            name[c] = (char)('a' + i);
        name[len] = 0;
        k += (size_t)snprintf(cmd + k, sizeof cmd - k, "-ex 'buffer %s u8 %d = fill %d' ", name,
                              3 + i, (i * 7 + len) % 256);
    }
    if (autocore)
        k += (size_t)snprintf(cmd + k, sizeof cmd - k, "%s '%s/" DIR "postmortem.O3.ptx' 2>&1 "
                              "&& true; mv core.trap_range.0 '%s'", trap_launch, here, core);
    else
        k += (size_t)snprintf(cmd + k, sizeof cmd - k, "-ex 'gcore %s' '%s/" DIR
                              "postmortem.O3.ptx' 2>&1", core, here);
    ck_assert_uint_lt(k, sizeof cmd);
    free(rp_run_status(cmd, &st));
    ck_assert_uint_gt(file_size(core), 100);
    k = (size_t)snprintf(cmd, sizeof cmd, "%s -batch --core '%s' -ex 'info buffers' ", p, core);
    for (int i = 0; i < nb; i++) {
        char name[16];
        for (int c = 0; c < len; c++)
            name[c] = (char)('a' + i);
        name[len] = 0;
        k += (size_t)snprintf(cmd + k, sizeof cmd - k, "-ex 'print %s[%d]' ", name, 2 + i);
    }
    snprintf(cmd + k, sizeof cmd - k, "2>&1");
    char *out = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(out);
    ck_assert_msg(strstr(out, "corrupted") == NULL && st == 0,
                  "%d buffers, names of %d: core does not reopen (status %d):\n%s", nb, len, st,
                  out);
    int hist = 1;
    for (int i = 0; i < nb; i++) {
        char want[64];
        snprintf(want, sizeof want, "$%d = %d", hist++, (i * 7 + len) % 256);
        HAS(out, want);
    }
    free(out);
}

START_TEST(core_roundtrip_matrix)
{
    for (int nb = 0; nb <= 5; nb++)
        for (int len = 1; len <= 6; len++)
            roundtrip_case(nb, len, 0);
}
END_TEST

START_TEST(auto_core_roundtrip_matrix)
{
    for (int nb = 0; nb <= 3; nb++)
        for (int len = 1; len <= 4; len++)
            roundtrip_case(nb, len, 1);
}
END_TEST

/* Memory nobody wrote is stored sparsely: a never-written 256 MB buffer (plus one written
 * element) makes a core under 1 MB, and the element and the zeros around it come back. */
START_TEST(core_sparse_large_buffer)
{
    char cmd[4096], core[400];
    int st = -1;
    snprintf(core, sizeof core, "%s/sparse.core", tmpdir);
    snprintf(cmd, sizeof cmd, "%s -batch -ex 'buffer big u8 268435456' "
             "-ex 'set var big[200000001] = 7' -ex 'gcore %s' examples/saxpy.ptx 2>&1",
             rp_ptxdbg(), core);
    free(rp_run_status(cmd, &st));
    ck_assert_int_eq(st, 0);
    size_t n = file_size(core);
    ck_assert_msg(n > 0 && n < (1u << 20), "core of a never-written 256 MB buffer: %zu bytes", n);
    snprintf(cmd, sizeof cmd, "%s -batch --core '%s' -ex 'print big[200000001]' "
             "-ex 'print big[200000000]' -ex 'print big[268435455]' 2>&1", rp_ptxdbg(), core);
    char *out = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(out);
    HAS(out, "$1 = 7\n$2 = 0\n$3 = 0\n");
    ck_assert_int_eq(st, 0);
    free(out);
}
END_TEST

/* Fault injection: the interrupt flag (what Ctrl-C raises) set before long host-side work
 * stops it: a core of a 64 MB buffer is not written (no file left), and "= iota" / "= fill"
 * of a 64 M-element buffer create no buffer. The session goes on with the flag cleared. */
START_TEST(interrupt_host_work)
{
    dbg_session *s = dbg_new();
    ck_assert_ptr_nonnull(s);
    cmd_ctx c;
    cmd_ctx_init(&c, s);
    ck_assert_int_eq(dbg_load_file(s, "examples/saxpy.ptx"), 0);
    static volatile int flag;
    dbg_set_interrupt_flag(s, &flag);
    ck_assert_int_eq(cmd_execute(&c, "buffer big u32 16777216 = fill 3"), 0);
    char core[400];
    snprintf(core, sizeof core, "%s/int.core", tmpdir);
    flag = 1;
    ck_assert_int_ne(dbg_core_save(s, core), 0);
    ck_assert_msg(strstr(dbg_errmsg(s), "interrupted") != NULL, "%s", dbg_errmsg(s));
    struct stat sb;
    ck_assert_int_ne(stat(core, &sb), 0);
    ck_assert_int_ne(cmd_execute(&c, "buffer a u32 67108864 = iota"), 0);
    ck_assert_ptr_null(dbg_buffer_find(s, "a"));
    ck_assert_int_ne(cmd_execute(&c, "buffer b f32 67108864 = fill 2.5"), 0);
    ck_assert_ptr_null(dbg_buffer_find(s, "b"));
    char path[400], line[600];
    snprintf(path, sizeof path, "%s/bytes.bin", tmpdir);
    FILE *bf = fopen(path, "wb");
    ck_assert_ptr_nonnull(bf);
    for (int i = 0; i < 4096; i++)
        fputc(i & 0xff, bf);
    fclose(bf);
    snprintf(line, sizeof line, "buffer f u8 4096 = file %s", path);
    ck_assert_int_ne(cmd_execute(&c, line), 0);
    ck_assert_ptr_null(dbg_buffer_find(s, "f"));
    char dump[800];
    snprintf(dump, sizeof dump, "dump big %s/big.bin", tmpdir);
    ck_assert_int_ne(cmd_execute(&c, dump), 0);
    snprintf(dump, sizeof dump, "%s/big.bin", tmpdir);
    ck_assert_int_ne(stat(dump, &sb), 0);
    flag = 0;
    ck_assert_int_eq(dbg_core_save(s, core), 0);
    ck_assert_int_eq(stat(core, &sb), 0);
    ck_assert_int_eq(cmd_execute(&c, "buffer a u32 1024 = iota"), 0);
    ck_assert_ptr_nonnull(dbg_buffer_find(s, "a"));
    ck_assert_int_eq(cmd_execute(&c, line), 0);
    ck_assert_ptr_nonnull(dbg_buffer_find(s, "f"));
    /* reading a core stops too; the session keeps its program */
    flag = 1;
    ck_assert_int_ne(dbg_core_load(s, core), 0);
    ck_assert_msg(strstr(dbg_errmsg(s), "interrupted") != NULL, "%s", dbg_errmsg(s));
    ck_assert_ptr_nonnull(dbg_buffer_find(s, "f"));
    flag = 0;
    cmd_ctx_free(&c);
    dbg_free(s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("postmortem");
    TCase *t = tcase_create("reports");
    tcase_set_timeout(t, 120);
    tcase_add_loop_test(t, trap_report, 0, 2);
    tcase_add_loop_test(t, assert_report, 0, 2);
    tcase_add_loop_test(t, fault_report, 0, 2 * NFAULTS);
    tcase_add_test(t, no_execution_after_trap);
    suite_add_tcase(s, t);
    TCase *c = tcase_create("cores");
    tcase_set_timeout(c, 120);
    tcase_add_checked_fixture(c, setup, teardown);
    tcase_add_loop_test(c, core_matches_live, 0, 2);
    tcase_add_test(c, core_at_breakpoint);
    tcase_add_test(c, corrupted_cores);
    tcase_add_test(c, core_sources_embedded);
    tcase_add_test(c, auto_core);
    tcase_add_test(c, core_roundtrip_matrix);
    tcase_add_test(c, core_sparse_large_buffer);
    tcase_add_test(c, interrupt_host_work);
    tcase_add_test(c, auto_core_roundtrip_matrix);
    tcase_add_test(c, core_of_a_cluster);
    suite_add_tcase(s, c);
    return tu_run_suite(s);
}
