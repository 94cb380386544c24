/* test_settings.c - settings (set/show/help), their effects, info cuda filters, options, consistency. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "run_ptxdbg.h"

/* ptxdbg -batch with `args` (quoted -ex options, files); stdout and stderr together. */
static char *run(const char *args)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s -batch %s 2>&1", rp_ptxdbg(), args);
    return rp_run(cmd);
}

#define HAS(out, s) ck_assert_msg(strstr(out, s) != NULL, "missing \"%s\" in:\n%s", s, out)
#define LACKS(out, s) ck_assert_msg(strstr(out, s) == NULL, "unexpected \"%s\" in:\n%s", s, out)

/* "{0, 1, ..., n-1...}" style: the first `shown` integers of iota, "..." when cut. */
static void iota_text(char *out, size_t n, int shown, int total)
{
    size_t k = (size_t)snprintf(out, n, "{");
    for (int i = 0; i < shown; i++)
        k += (size_t)snprintf(out + k, n - k, "%s%d", i ? ", " : "", i);
    snprintf(out + k, n - k, "%s}", shown < total ? "..." : "");
}

START_TEST(print_elements)
{
    /* gdb: elements limit the array elements printed, then "..." right after the last */
    char *o = run("-ex 'buffer b s32 300 = iota' -ex 'print *b@300' -ex 'set print elements 4' "
                  "-ex 'print *b@300' -ex 'show print elements' -ex 'set print elements unlimited' "
                  "-ex 'print *b@300' -ex 'set print elements 0' -ex 'show print elements' "
                  "examples/saxpy.ptx");
    ck_assert_ptr_nonnull(o);
    static char want[4096];
    iota_text(want, sizeof want, 200, 300);
    HAS(o, want);
    iota_text(want, sizeof want, 4, 300);
    HAS(o, want);
    HAS(o, "Limit on string chars or array elements to print is 4.");
    iota_text(want, sizeof want, 300, 300);
    HAS(o, want);
    HAS(o, "Limit on string chars or array elements to print is unlimited.");
    free(o);
    /* strings too: x/s stops after `elements` characters */
    o = run("-ex 'buffer s u8 16 = {72,101,108,108,111,0}' -ex 'set print elements 3' "
            "-ex 'x/2s s' examples/saxpy.ptx");
    ck_assert_ptr_nonnull(o);
    HAS(o, "0x700000000:\t\"Hel\"...\n0x700000003:\t\"lo\"\n");
    free(o);
}
END_TEST

START_TEST(print_repeats)
{
    /* a run of at least `repeats` equal elements collapses (default 10); 0/unlimited: never */
    char *o = run("-ex 'buffer b s32 5 = fill 7' -ex 'print *b@5' -ex 'set print repeats 3' "
                  "-ex 'print *b@5' -ex 'set print repeats unlimited' -ex 'buffer c s32 12' "
                  "-ex 'print *c@12' -ex 'show print repeats' examples/saxpy.ptx");
    ck_assert_ptr_nonnull(o);
    HAS(o, "$1 = {7, 7, 7, 7, 7}\n");
    HAS(o, "$2 = {7 <repeats 5 times>}\n");
    HAS(o, "$3 = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}\n");
    HAS(o, "Threshold for repeated print elements is unlimited.");
    free(o);
}
END_TEST

START_TEST(print_pretty)
{
    /* struct Cell (types.cu): one member a line, two spaces a level, arrays on one line */
    char *o = run("-ex 'buffer in f32 64 = iota' -ex 'buffer out f32 64' -ex 'break types.cu:58' "
                  "-ex 'launch kern<<<1, 32>>>(in, out, {3, 0}, 40)' -ex 'set print pretty on' "
                  "-ex 'print cell' -ex 'set print pretty off' -ex 'print cell' "
                  "tests/fixtures/dwarf/types.G.ptx");
    ck_assert_ptr_nonnull(o);
    HAS(o, "$1 = {\n  p = {\n    a = 3,\n    b = 0\n  },\n  w = {1, 2, 0},\n  c = GREEN\n}\n");
    HAS(o, "$2 = {p = {a = 3, b = 0}, w = {1, 2, 0}, c = GREEN}\n");
    free(o);
}
END_TEST

START_TEST(listsize)
{
    /* list LINE centres listsize lines on it (gdb: first = LINE - listsize / 2) */
    char *o = run("-ex 'set listsize 3' -ex 'list saxpy.cu:10' -ex 'show listsize' "
                  "-ex 'set listsize 1' -ex 'list saxpy.cu:5' examples/saxpy.G.ptx");
    ck_assert_ptr_nonnull(o);
    char *src = tu_read_file("examples/saxpy.cu", NULL);
    ck_assert_ptr_nonnull(src);
    /* the expected lines come from the source file itself */
    char want[2048] = "";
    int line = 1;
    size_t k = 0;
    for (char *p = src; *p; line++) {
        char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (line >= 9 && line <= 11)
            k += (size_t)snprintf(want + k, sizeof want - k, "%d\t%.*s\n", line, (int)len, p);
        if (!nl)
            break;
        p = nl + 1;
    }
    HAS(o, want);
    LACKS(o, "\n8\t");
    LACKS(o, "\n12\t");
    HAS(o, "Number of source lines ptxdbg will list by default is 3.");
    ck_assert_ptr_nonnull(strstr(o, "\n5\t"));
    LACKS(o, "\n4\t");
    LACKS(o, "\n6\t");
    free(src);
    free(o);
}
END_TEST

START_TEST(logging)
{
    char dir[] = "/tmp/ptxdbg-log-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char args[2048], path[256];
    snprintf(path, sizeof path, "%s/session.log", dir);
    /* copy (overwrite), then redirect (append): the file has both, the terminal lacks the
     * redirected part; an error is logged too */
    snprintf(args, sizeof args,
             "-ex 'set logging file %s' -ex 'set logging overwrite on' -ex 'set logging on' "
             "-ex 'echo one\\n' -ex 'print nosuch' -ex 'set logging off' -ex 'echo two\\n' "
             "-ex 'set logging overwrite off' -ex 'set logging redirect on' "
             "-ex 'set logging enabled on' -ex 'echo three\\n' -ex 'set logging enabled off' "
             "-ex 'show logging file' examples/saxpy.ptx", path);
    char *o = run(args);
    ck_assert_ptr_nonnull(o);
    char *log = tu_read_file(path, NULL);
    ck_assert_ptr_nonnull(log);
    HAS(o, "Copying output to ");
    HAS(o, "one\n");
    HAS(o, "two\n");
    LACKS(o, "three\n");
    HAS(o, "Redirecting output to ");
    HAS(log, "one\n");
    HAS(log, "No symbol \"nosuch\" in current context.\n");
    LACKS(log, "two\n");
    HAS(log, "three\n");
    free(log);
    free(o);
    /* device printf output goes to the log too (the machine prints to stdout as it is) */
    snprintf(args, sizeof args,
             "-ex 'set logging file %s' -ex 'set logging overwrite on' -ex 'set logging on' "
             "-ex 'buffer v s32 8 = iota' -ex 'buffer f f32 8' -ex 'buffer d f64 8' "
             "-ex 'launch printf_formats<<<1, 2>>>(v, f, d)' -ex 'set logging off' "
             "-ex 'launch printf_formats<<<1, 2>>>(v, f, d)' tests/fixtures/kernels/printf.G.ptx",
             path);
    o = run(args);
    ck_assert_ptr_nonnull(o);
    log = tu_read_file(path, NULL);
    ck_assert_ptr_nonnull(log);
    HAS(log, "thread 1 of block 0: val=1 hex=1 u=1\n");
    LACKS(strstr(log, "thread 1 of block 0") + 1, "thread 1 of block 0"); /* once: logging off */
    free(log);
    free(o);
    /* overwrite on empties the file when logging starts */
    snprintf(args, sizeof args,
             "-ex 'set logging file %s' -ex 'set logging overwrite on' -ex 'set logging on' "
             "-ex 'echo four\\n' examples/saxpy.ptx", path);
    o = run(args);
    ck_assert_ptr_nonnull(o);
    log = tu_read_file(path, NULL);
    ck_assert_ptr_nonnull(log);
    LACKS(log, "one\n");
    HAS(log, "four\n");
    free(log);
    free(o);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    ck_assert_int_eq(system(args), 0);
}
END_TEST

START_TEST(unknown_settings_refused)
{
    char *o = run("-ex 'set cuda nonsense 1' -ex 'set nonsense 3' -ex 'show nonsense' "
                  "-ex 'set print elements lots' -ex 'set print' -ex 'set width 80' "
                  "-ex 'set pagination maybe' -ex 'set cuda break_on_launch sometimes' "
                  "-ex 'set verbose on' -ex 'info cuda kernels 3' examples/saxpy.ptx");
    ck_assert_ptr_nonnull(o);
    HAS(o, "Undefined set cuda command: \"nonsense\".  Try \"help set cuda\".");
    HAS(o, "Undefined set command: \"nonsense\".  Try \"help set\".");
    HAS(o, "Undefined show command: \"nonsense\".  Try \"help show\".");
    HAS(o, "Invalid number \"lots\" for \"set print elements\"");
    HAS(o, "\"set print\" must be followed by the name of a subcommand: elements, pretty, repeats.");
    HAS(o, "only \"set width 0\" (unlimited) is supported");
    HAS(o, "\"on\" or \"off\" expected.");
    HAS(o, "Usage: set cuda break_on_launch none|application|all");
    HAS(o, "Undefined set command: \"verbose\".");
    HAS(o, "Usage: info cuda kernels\n");
    free(o);
}
END_TEST

START_TEST(help_lists_the_table)
{
    /* help set names every real setting (and only those); show of each works */
    char *o = run("-ex 'help set' -ex 'help show print' -ex 'show max-steps' -ex 'show threads' "
                  "-ex 'show auto-core' -ex 'set max-steps 5' -ex 'show max-steps' "
                  "-ex 'show scheduler-locking' -ex 'set scheduler-locking off' "
                  "-ex 'show scheduler-locking' -ex 'show confirm' examples/saxpy.ptx");
    ck_assert_ptr_nonnull(o);
    static const char *names[] = {"max-steps", "auto-core", "threads", "print elements",
                                  "print repeats", "print pretty", "listsize", "height",
                                  "pagination", "logging enabled", "logging file",
                                  "cuda break_on_launch", "confirm", "scheduler-locking", NULL};
    for (int i = 0; names[i]; i++) {
        char w[64];
        snprintf(w, sizeof w, "\nset %s -- ", names[i]);
        HAS(o, w);
    }
    LACKS(o, "set verbose");
    LACKS(o, "set style");
    HAS(o, "Limit on warp-instructions per launch, run, continue or step is 4294967296.");
    HAS(o, "Limit on warp-instructions per launch, run, continue or step is 5.");
    HAS(o, "Writing a core file when a kernel traps or faults is off.");
    HAS(o, "Mode for locking scheduler during execution is \"on\".");
    HAS(o, "Mode for locking scheduler during execution is \"off\".");
    HAS(o, "Whether to confirm potentially dangerous operations is on.");
    free(o);
}
END_TEST

/* ---- info cuda filters: rows checked against the launch geometry ---------------------------- */
static const char filt_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    "\t.reg .u32 %r<4>;\n"
    "\tmov.u32 %r1, %tid.x;\n"          /* line 7 */
    "\tbar.sync 0;\n"                   /* line 8 */
    "\tadd.u32 %r2, %r1, 1;\n"          /* line 9 */
    "\texit;\n}\n";

/* Block (40,2,1), grid (3,1,1): block 0 is the running one at the stop. A thread (x,y) of block
 * 0 is linear l = x + 40y, warp l / 32, lane l % 32. */
#define BX 40
#define BY 2
typedef int (*thread_pred)(unsigned x, unsigned y);
static int p_thread_5_1(unsigned x, unsigned y) { return x == 5 && y == 1; }
static int p_warp1(unsigned x, unsigned y) { return (x + BX * y) / 32 == 1; }
static int p_lane3(unsigned x, unsigned y) { return (x + BX * y) % 32 == 3; }
static int p_row1(unsigned x, unsigned y) { (void)x; return y == 1; }
static int p_warp2(unsigned x, unsigned y) { return (x + BX * y) / 32 == 2; }
static int p_none(unsigned x, unsigned y) { (void)x; (void)y; return 0; }

static char filt_path[64];

static void write_filt_ptx(void)
{
    snprintf(filt_path, sizeof filt_path, "/tmp/ptxdbg-filt-%d.ptx", (int)getpid());
    FILE *f = fopen(filt_path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(filt_ptx, f);
    fclose(f);
}

static char *filt_run(const char *cmd)
{
    char args[2048];
    snprintf(args, sizeof args, "-ex 'break ptx:9' -ex 'launch k<<<3, (%d,%d)>>>(0)' -ex '%s' %s",
             BX, BY, cmd, filt_path);
    return run(args);
}

/* info cuda threads FILTER: every row lies in block 0, its range's threads all match, and the
 * counts add up to the threads of block 0 that match. */
static void check_threads(const char *filter, thread_pred pred)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "info cuda threads %s", filter);
    char *o = filt_run(cmd);
    ck_assert_ptr_nonnull(o);
    unsigned want = 0;
    for (unsigned y = 0; y < BY; y++)
        for (unsigned x = 0; x < BX; x++)
            want += (unsigned)pred(x, y);
    unsigned got = 0;
    for (char *p = strstr(o, "Kernel 0\n"); p && (p = strchr(p, '\n'));) {
        p++;
        unsigned b[3], t[3], b2[3], t2[3], n;
        if (sscanf(p, "%*c (%u,%u,%u) (%u,%u,%u) (%u,%u,%u) (%u,%u,%u) %u", &b[0], &b[1], &b[2],
                   &t[0], &t[1], &t[2], &b2[0], &b2[1], &b2[2], &t2[0], &t2[1], &t2[2], &n) != 13)
            continue;
        ck_assert_msg(b[0] == 0 && b2[0] == 0, "%s: a row outside block 0:\n%s", filter, o);
        /* the range runs in linear order from t to t2 */
        unsigned l0 = t[0] + BX * t[1], l1 = t2[0] + BX * t2[1];
        ck_assert_msg(l1 >= l0 && l1 - l0 + 1 == n, "%s: range and count disagree:\n%s", filter,
                      o);
        for (unsigned l = l0; l <= l1; l++)
            ck_assert_msg(pred(l % BX, l / BX), "%s: thread (%u,%u) listed:\n%s", filter, l % BX,
                          l / BX, o);
        got += n;
    }
    ck_assert_msg(got == want, "%s: %u threads listed, %u match:\n%s", filter, got, want, o);
    if (!want)
        HAS(o, "No CUDA threads match the filter.");
    free(o);
}

START_TEST(filter_threads)
{
    write_filt_ptx();
    check_threads("block (0,0,0) thread (5,1,0)", p_thread_5_1);
    check_threads("thread 5,1", p_thread_5_1);
    check_threads("warp 1", p_warp1);
    check_threads("lane 3", p_lane3);
    check_threads("thread (*,1,*)", p_row1);
    check_threads("warp 2 lane any", p_warp2);
    check_threads("block (1,0,0)", p_none);   /* not started: no live threads */
    check_threads("kernel 1", p_none);
    check_threads("device 1", p_none);
    unlink(filt_path);
}
END_TEST

START_TEST(filter_tables)
{
    write_filt_ptx();
    /* info cuda warps: 80 threads are warps 0, 1 (full) and 2 (16 lanes) */
    char *o = filt_run("info cuda warps warp 2");
    ck_assert_ptr_nonnull(o);
    HAS(o, "Block (0,0,0)\n");
    HAS(o, "  2  0x0000ffff");
    LACKS(o, "  0  0x");
    LACKS(o, "  1  0x");
    free(o);
    o = filt_run("info cuda warps thread (5,1,0)"); /* thread 45: warp 1 */
    ck_assert_ptr_nonnull(o);
    HAS(o, "  1  0x");
    LACKS(o, "  2  0x");
    free(o);
    /* info cuda lanes: lane 3 of the focused warp only (the stop focuses a lane of warp 2,
     * the warp that reached the breakpoint first); warp 2 has lanes 0..15 */
    o = filt_run("info cuda lanes lane 3");
    ck_assert_ptr_nonnull(o);
    HAS(o, "\n   3 ");
    LACKS(o, "\n   4 ");
    LACKS(o, "\n*  0 ");
    LACKS(o, "\n   2 ");
    free(o);
    o = filt_run("info cuda lanes warp 0 lane 31");
    ck_assert_ptr_nonnull(o);
    HAS(o, "Warp 0\n  31 ");
    LACKS(o, "\n  30 ");
    free(o);
    o = filt_run("info cuda lanes warp 2");
    ck_assert_ptr_nonnull(o);
    HAS(o, "Warp 2\n");
    HAS(o, "\n  15 ");
    LACKS(o, "\n  16 ");
    free(o);
    /* info cuda blocks: grid 3; block (1,0,0) alone */
    o = filt_run("info cuda blocks block (1,0,0)");
    ck_assert_ptr_nonnull(o);
    const char *tab = strstr(o, "Kernel 0\n");
    ck_assert_ptr_nonnull(tab);
    ck_assert_str_eq(tab, "Kernel 0\n     (1,0,0)      (1,0,0)       1 not started\n");
    free(o);
    /* refusals */
    o = filt_run("info cuda warps 2");
    ck_assert_ptr_nonnull(o);
    HAS(o, "Invalid filter \"2\" for \"info cuda warps\"");
    free(o);
    o = filt_run("info cuda blocks thread 3");
    ck_assert_ptr_nonnull(o);
    HAS(o, "The \"thread\" filter does not apply to \"info cuda blocks\".");
    free(o);
    o = filt_run("info cuda threads block (1,x)");
    ck_assert_ptr_nonnull(o);
    HAS(o, "Invalid value for the \"block\" filter.");
    free(o);
    unlink(filt_path);
}
END_TEST

/* ---- break_on_launch and start ---------------------------------------------------------------- */
START_TEST(break_on_launch)
{
    char *o = run("-ex 'buffer x f32 32 = iota' -ex 'buffer y f32 32' "
                  "-ex 'set cuda break_on_launch application' "
                  "-ex 'launch saxpy<<<1, 32>>>(32, 2, x, y)' -ex 'print y[0]' -ex 'continue' "
                  "-ex 'print y[31]' -ex 'set cuda break_on_launch none' -ex 'run' "
                  "-ex 'show cuda break_on_launch' -ex 'start' -ex 'info cuda kernels' "
                  "examples/saxpy.G.ptx");
    ck_assert_ptr_nonnull(o);
    /* the first stop is at the kernel's first line, before anything ran */
    const char *s = strstr(o, "saxpy<<<(1,1,1),(32,1,1)>>> (n=32, a=2, x=");
    ck_assert_msg(s != NULL, "no entry stop:\n%s", o);
    HAS(o, "$1 = 0\n");
    HAS(o, "$2 = 62\n"); /* y = 2x + y ran to the end after continue */
    HAS(o, "Stopping at the first line of launched kernels is \"none\".");
    /* start stops once more (kernel 2) even with break_on_launch none */
    HAS(o, "CUDA kernel 2, grid 3");
    free(o);
}
END_TEST

/* ---- options ------------------------------------------------------------------------------------ */
START_TEST(options)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s --version", rp_ptxdbg());
    char *o = rp_run(cmd);
    ck_assert_ptr_nonnull(o);
    ck_assert_msg(!strncmp(o, "ptxdbg ", 7), "%s", o);
    free(o);
    o = run("--eval-command='echo a\\n' --ex='echo b\\n' -ex 'echo c\\n' --quiet");
    ck_assert_ptr_nonnull(o);
    ck_assert_str_eq(o, "a\nb\nc\n");
    free(o);
    /* a script stops at its first error (gdb); -ex commands and later scripts go on */
    char path[64];
    snprintf(path, sizeof path, "/tmp/ptxdbg-x-%d.cmd", (int)getpid());
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("echo one\\n\nprint nosuch\necho two\\n\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "--command=%s -ex 'print nosuch2' -ex 'echo three\\n' -x %s", path,
             path);
    o = run(cmd);
    ck_assert_ptr_nonnull(o);
    ck_assert_str_eq(o, "one\nNo symbol \"nosuch\" in current context.\n"
                        "No symbol \"nosuch2\" in current context.\nthree\n"
                        "one\nNo symbol \"nosuch\" in current context.\n");
    free(o);
    unlink(path);
    /* CUDA source and cubins get a hint */
    snprintf(path, sizeof path, "/tmp/ptxdbg-h-%d.cu", (int)getpid());
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("__global__ void k(int *p) { *p = 1; }\n", f);
    fclose(f);
    o = run(path);
    ck_assert_ptr_nonnull(o);
    HAS(o, "is CUDA source; ptxdbg debugs PTX. Compile it with \"nvcc -ptx -G ");
    free(o);
    unlink(path);
    snprintf(path, sizeof path, "/tmp/ptxdbg-h-%d.cubin", (int)getpid());
    f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    unsigned char elf[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    elf[18] = 190; /* EM_CUDA */
    fwrite(elf, 1, sizeof elf, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "-ex 'file %s'", path);
    o = run(cmd);
    ck_assert_ptr_nonnull(o);
    HAS(o, "is GPU machine code (cubin/fatbin); ptxdbg debugs PTX.");
    free(o);
    unlink(path);
}
END_TEST

/* ---- consistency -------------------------------------------------------------------------------- */
START_TEST(types_agree)
{
    /* print, whatis and ptype name one type, and that name parses back as a cast */
    char *o = run("-ex 'buffer in f32 64 = iota' -ex 'buffer out f32 64' -ex 'break types.cu:58' "
                  "-ex 'launch kern<<<1, 32>>>(in, out, {3, 0}, 40)' -ex 'print &loc' "
                  "-ex 'whatis &loc' -ex 'ptype &loc' -ex 'print (@local int (*)[5])&loc' "
                  "-ex 'print *(@local int (*)[5])&loc' -ex 'print loc' "
                  "-ex 'whatis (@local float (*)[4])&loc' -ex 'print sizeof(struct Cell)' "
                  "-ex 'print sizeof(cell)' -ex 'print sizeof(int [5])' -ex 'print sizeof(loc)' "
                  "-ex 'print {float}&in[3]' -ex 'print {int}&loc[1] == loc[1]' "
                  "-ex 'print sizeof(float (*)[4])' tests/fixtures/dwarf/types.G.ptx");
    ck_assert_ptr_nonnull(o);
    HAS(o, "$1 = (@local int (*)[5]) 0x");
    HAS(o, "type = @local int (*)[5]\ntype = @local int (*)[5]\n");
    HAS(o, "$2 = (@local int (*)[5]) 0x");
    /* *(T (*)[5])&loc is loc itself */
    const char *a = strstr(o, "$3 = "), *b = strstr(o, "$4 = ");
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_int_eq(strcspn(a + 5, "\n"), strcspn(b + 5, "\n"));
    ck_assert_int_eq(strncmp(a + 5, b + 5, strcspn(a + 5, "\n")), 0);
    HAS(o, "type = @local float (*)[4]\n");
    /* sizeof(struct Cell) == sizeof(cell); sizeof(int [5]) == sizeof(loc) == 20 */
    char *s1 = strstr(o, "$5 = "), *s2 = strstr(o, "$6 = ");
    ck_assert_ptr_nonnull(s1);
    ck_assert_ptr_nonnull(s2);
    ck_assert_int_eq(atoi(s1 + 5), atoi(s2 + 5));
    ck_assert_int_gt(atoi(s1 + 5), 0);
    HAS(o, "$7 = 20\n$8 = 20\n");
    HAS(o, "$9 = 3\n");  /* in = iota */
    HAS(o, "$10 = 1\n");
    HAS(o, "$11 = 8\n");
    free(o);
    /* a buffer: print and whatis agree */
    o = run("-ex 'buffer x f32 8 = iota' -ex 'print x' -ex 'whatis x' -ex 'ptype x' "
            "examples/saxpy.ptx");
    ck_assert_ptr_nonnull(o);
    HAS(o, "$1 = (@global float *) 0x");
    HAS(o, "type = @global float *\ntype = @global float *\n");
    free(o);
}
END_TEST

START_TEST(no_live_kernel)
{
    char *o = run("-ex 'buffer x f32 32 = iota' -ex 'buffer y f32 32' "
                  "-ex 'launch saxpy<<<1, 32>>>(32, 2, x, y)' -ex 'print %tid.x' "
                  "-ex 'print threadIdx' -ex 'print %r1' examples/saxpy.ptx");
    ck_assert_ptr_nonnull(o);
    const char *m = "No live kernel: kernel 0 has exited";
    const char *p = strstr(o, m);
    ck_assert_msg(p != NULL, "%s", o);
    p = strstr(p + 1, m);
    ck_assert_msg(p != NULL, "%s", o);
    ck_assert_msg(strstr(p + 1, m) != NULL, "%s", o);
    free(o);
}
END_TEST

START_TEST(condition_symbols)
{
    char *o = run("-ex 'break types.cu:60 if nosuchvar > 3' -ex 'break types.cu:60 if idx > 3' "
                  "-ex 'condition 1 zork == 1' -ex 'condition 1 threadIdx.x == 2' "
                  "-ex 'info breakpoints' tests/fixtures/dwarf/types.G.ptx");
    ck_assert_ptr_nonnull(o);
    HAS(o, "No symbol \"nosuchvar\" in current context.\nBreakpoint 1 at ");
    HAS(o, "No symbol \"zork\" in current context.");
    HAS(o, "stop only if threadIdx.x == 2");
    free(o);
}
END_TEST

START_TEST(buffer_names)
{
    /* a buffer has one name in every message: x labels, fault reports, relations */
    char *o = run("-ex 'buffer x f32 16 = iota' -ex 'buffer y f32 16' -ex 'x/2xw 0x700000040' "
                  "-ex 'x/1xw 0x700000004' -ex 'launch saxpy<<<1, 32>>>(32, 2, x, y)' "
                  "-ex 'info trap' examples/saxpy.ptx");
    ck_assert_ptr_nonnull(o);
    HAS(o, "<0 bytes after the end of buffer x [0x700000000, 64 bytes)>");
    HAS(o, "<x+4>");
    /* x[16..31] lie in the padding a GPU maps after x: memcheck's report names x */
    HAS(o, "and is 0 bytes after the nearest allocation at 0x700000000 of size 64 bytes (x)\n");
    LACKS(o, "buf#");
    free(o);
}
END_TEST

START_TEST(pc_format)
{
    /* PCs are 0x hex in stop lines, info trap, fault reports and every info cuda table */
    char *o = run("-ex 'buffer in s32 96 = iota' -ex 'buffer out s32 96' "
                  "-ex 'launch check_cells<<<3, 32>>>(in, out, 350)' -ex 'info trap' "
                  "-ex 'info cuda threads' -ex 'info cuda warps' -ex 'info cuda lanes' "
                  "tests/fixtures/scenarios/fault.G.ptx");
    ck_assert_ptr_nonnull(o);
    HAS(o, ", pc 0x");
    HAS(o, "at pc 0x");
    LACKS(o, "PC 0 ");
    /* the PC column of the tables */
    const char *t = strstr(o, "Count       PC");
    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_nonnull(strstr(t, "      0x"));
    free(o);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("settings");
    TCase *t = tcase_create("settings");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, print_elements);
    tcase_add_test(t, print_repeats);
    tcase_add_test(t, print_pretty);
    tcase_add_test(t, listsize);
    tcase_add_test(t, logging);
    tcase_add_test(t, unknown_settings_refused);
    tcase_add_test(t, help_lists_the_table);
    tcase_add_test(t, filter_threads);
    tcase_add_test(t, filter_tables);
    tcase_add_test(t, break_on_launch);
    tcase_add_test(t, options);
    tcase_add_test(t, types_agree);
    tcase_add_test(t, no_live_kernel);
    tcase_add_test(t, condition_symbols);
    tcase_add_test(t, pc_format);
    tcase_add_test(t, buffer_names);
    suite_add_tcase(s, t);
    return tu_run_suite(s);
}
