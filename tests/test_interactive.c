/* test_interactive.c - Check suite for the REPL's logic without a terminal: completion, empty-line repeat, SIGINT. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cmd.h"
#include "cmd_complete.h"
#include "test_util.h"

static dbg_session *s;
static cmd_ctx c;

static void open_session(const char *ptx)
{
    s = dbg_new();
    ck_assert_ptr_nonnull(s);
    cmd_ctx_init(&c, s);
    if (ptx)
        ck_assert_int_eq(dbg_load_file(s, ptx), 0);
}

static void close_session(void)
{
    cmd_ctx_free(&c);
    dbg_free(s);
}

static void run(const char *line) { ck_assert_int_eq(cmd_execute(&c, line), 0); }

/* Candidates for the word before the end of `line`, as one space-separated string. */
static const char *comp(const char *line)
{
    static char out[8192];
    int end = (int)strlen(line);
    int start = cmd_complete_word_start(line, end);
    int flags;
    char **v = cmd_complete(&c, line, start, end, &flags);
    ck_assert_ptr_nonnull(v);
    out[0] = 0;
    for (char **p = v; *p; p++) {
        size_t k = strlen(out);
        snprintf(out + k, sizeof out - k, "%s%s", k ? " " : "", *p);
    }
    cmd_complete_free(v);
    return out;
}

/* `word` is one of the space-separated words of `list` */
static int has_word(const char *list, const char *word)
{
    size_t l = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p++)
        if ((p == list || p[-1] == ' ') && (p[l] == ' ' || !p[l]))
            return 1;
    return 0;
}

static void stop_at_saxpy(void)
{
    open_session("examples/saxpy.G.ptx");
    run("break saxpy");
    run("buffer x f32 1024 = iota");
    run("buffer y f32 1024 = fill 0.5");
    run("launch saxpy<<<4,256>>>(1000, 2.0, x, y)");
    ck_assert(dbg_launch_alive(s));
}

START_TEST(complete_commands_and_subcommands)
{
    open_session(NULL);
    ck_assert_str_eq(comp("info brea"), "breakpoints");
    ck_assert_str_eq(comp("i brea"), "breakpoints");
    ck_assert_str_eq(comp("inf"), "info");
    ck_assert(has_word(comp(""), "break"));
    ck_assert(has_word(comp(""), "continue"));
    ck_assert_str_eq(comp("info cuda wa"), "warps");
    ck_assert(has_word(comp("info cuda "), "lanes"));
    ck_assert(!has_word(comp("info cuda "), "cuda"));
    ck_assert_str_eq(comp("set sch"), "scheduler scheduler-locking");   /* as gdb: both */
    ck_assert_str_eq(comp("set scheduler-"), "scheduler-locking");
    ck_assert_str_eq(comp("set scheduler-locking o"), "off on");
    ck_assert_str_eq(comp("set step-granularity "), "lane warp");
    ck_assert_str_eq(comp("set va"), "var");
    ck_assert_str_eq(comp("show step"), "step-granularity");
    /* the settings table: groups, their members, values */
    ck_assert_str_eq(comp("set print el"), "elements");
    ck_assert_str_eq(comp("set print "), "elements pretty repeats");
    ck_assert_str_eq(comp("set cuda break_on_launch "), "all application none");
    ck_assert_str_eq(comp("set print pretty "), "off on");
    ck_assert_str_eq(comp("set listsize "), "unlimited");
    ck_assert_str_eq(comp("show log"), "logging");
    ck_assert_str_eq(comp("show logging "), "enabled file overwrite redirect");
    ck_assert_str_eq(comp("help set cuda "), "break_on_launch");
    ck_assert(has_word(comp("set "), "max-steps"));
    ck_assert(has_word(comp("set "), "threads"));
    ck_assert(!has_word(comp("set "), "verbose"));
    ck_assert_str_eq(comp("cuda bl"), "block");
    ck_assert_str_eq(comp("cuda kernel 0 th"), "thread");
    ck_assert_str_eq(comp("help brea"), "break breakpoints");
    ck_assert_str_eq(comp("help info reg"), "registers");
    ck_assert_str_eq(comp("buffer v f3"), "f32");
    ck_assert_str_eq(comp("buffer v f32 4 = i"), "iota");
    ck_assert_str_eq(comp("continue "), "");
    ck_assert_str_eq(comp("frobnicate "), "");
    close_session();
}
END_TEST

START_TEST(complete_word_breaks)
{
    /* settings keep their dashes; expressions break at operators but keep %reg.x names */
    ck_assert_int_eq(cmd_complete_word_start("set scheduler-lo", 16), 4);
    ck_assert_int_eq(cmd_complete_word_start("print a+%tid.", 13), 8);
    ck_assert_int_eq(cmd_complete_word_start("print (%r", 9), 7);
    ck_assert_int_eq(cmd_complete_word_start("launch k<<<1,32>>>(x, y", 23), 22);
    ck_assert_int_eq(cmd_complete_word_start("file dir/my-kernel.p", 20), 5);
    int flags;
    char **v = cmd_complete(NULL, "source sc", 7, 9, &flags);
    ck_assert(flags & CMD_COMPLETE_FILES);
    cmd_complete_free(v);
}
END_TEST

START_TEST(complete_functions_and_files)
{
    open_session("examples/saxpy.G.ptx");
    ck_assert(has_word(comp("break sax"), "saxpy"));
    ck_assert(has_word(comp("break sax"), "saxpy.cu:"));
    ck_assert_str_eq(comp("break _Z5"), "_Z5saxpyifPKfPf");
    ck_assert_str_eq(comp("launch sa"), "saxpy");
    ck_assert_str_eq(comp("disassemble sa"), "saxpy");
    ck_assert_str_eq(comp("tbreak saxpy.cu:4 i"), "if");
    ck_assert(has_word(comp("list "), "ptx:"));
    run("buffer xs f32 4");
    ck_assert_str_eq(comp("dump x"), "xs");
    ck_assert_str_eq(comp("print x"), "xs");
    /* without a focus, registers of every function */
    ck_assert(has_word(comp("print %rd"), "%rd11"));
    close_session();
}
END_TEST

START_TEST(complete_at_the_focus)
{
    stop_at_saxpy();
    const char *r = comp("print %r");
    ck_assert(has_word(r, "%r1"));
    ck_assert(has_word(r, "%rd11"));
    ck_assert(!has_word(r, "%tid.x"));
    ck_assert_str_eq(comp("print %tid."), "%tid.x %tid.y %tid.z");
    ck_assert(has_word(comp("print %"), "%laneid"));
    ck_assert(has_word(comp("print %"), "%f1"));
    ck_assert_str_eq(comp("print blockIdx."), "blockIdx.x blockIdx.y blockIdx.z");
    const char *v = comp("print ");
    ck_assert(has_word(v, "i"));
    ck_assert(has_word(v, "n"));
    ck_assert(has_word(v, "a"));
    ck_assert(has_word(v, "x"));
    ck_assert(has_word(v, "y"));
    ck_assert(has_word(v, "threadIdx"));
    ck_assert(has_word(comp("info registers %r"), "%r2"));
    ck_assert_str_eq(comp("print $p"), "$pc");
    run("set var $foo = 3");
    ck_assert_str_eq(comp("output $f"), "$foo");
    /* breakpoint and display numbers */
    run("break saxpy.cu:6");
    ck_assert_str_eq(comp("delete "), "1 2");
    ck_assert_str_eq(comp("condition "), "1 2");
    ck_assert_str_eq(comp("info breakpoints 2"), "2");
    ck_assert(has_word(comp("condition 2 threadIdx"), "threadIdx"));
    ck_assert(has_word(comp("break saxpy.cu:6 if %r"), "%r1"));
    run("display i");
    ck_assert_str_eq(comp("undisplay "), "1");
    close_session();
}
END_TEST

START_TEST(complete_struct_members)
{
    open_session("tests/fixtures/kernels/structs.G.ptx");
    run("break step");
    run("buffer in s32 64 = iota");
    run("buffer pos s32 192");
    run("buffer mass f64 64");
    run("buffer lo s64 64");
    run("buffer hi s32 64");
    run("launch structs_kernel<<<2, 32>>>(in, pos, mass, lo, hi)");
    ck_assert(dbg_launch_alive(s));
    ck_assert(has_word(comp("print "), "b"));
    ck_assert(has_word(comp("print "), "accel"));
    ck_assert_str_eq(comp("print b.p"), "b.pos");
    ck_assert_str_eq(comp("print b.pos."), "b.pos.x b.pos.y b.pos.z");
    ck_assert_str_eq(comp("print b.m"), "b.mass");
    ck_assert_str_eq(comp("print b.pos.x."), "");
    close_session();
}
END_TEST

/* ---- the loop: an empty line repeats ------------------------------------------------------------ */
typedef struct {
    const char *const *lines;
    int i;
} script;

static char *script_next(cmd_input *in, const char *prompt)
{
    (void)prompt;
    script *sc = in->ctx;
    return sc->lines[sc->i] ? strdup(sc->lines[sc->i++]) : NULL;
}

static int focus_line(void)
{
    uint32_t pc;
    dbg_where w;
    ck_assert_int_eq(dbg_focus_pc(s, &pc), 0);
    ck_assert_int_eq(dbg_pc_where(s, pc, &w), 0);
    return w.line;
}

START_TEST(empty_line_repeats_next)
{
    stop_at_saxpy();
    ck_assert_int_eq(focus_line(), 4);
    static const char *const lines[] = {"next", "", NULL};
    script sc = {lines, 0};
    cmd_input in = {script_next, &sc, 0};
    c.interactive = 1;
    ck_assert_int_eq(cmd_run_input(&c, &in, "(ptxdbg) "), 0);
    ck_assert_int_eq(focus_line(), 6);
    c.interactive = 0;
    close_session();
}
END_TEST

START_TEST(empty_line_does_not_repeat_print)
{
    open_session(NULL);
    static const char *const lines[] = {"print 7", "", "   ", NULL};
    script sc = {lines, 0};
    cmd_input in = {script_next, &sc, 0};
    c.interactive = 1;
    ck_assert_int_eq(cmd_run_input(&c, &in, "(ptxdbg) "), 0);
    ck_assert_int_eq(dbg_session_history(c.s)->nhist, 1);
    c.interactive = 0;
    close_session();
}
END_TEST

START_TEST(empty_line_outside_terminal_does_nothing)
{
    stop_at_saxpy();
    static const char *const lines[] = {"next", "", NULL};
    script sc = {lines, 0};
    cmd_input in = {script_next, &sc, 0};
    ck_assert_int_eq(cmd_run_input(&c, &in, NULL), 0);
    ck_assert_int_eq(focus_line(), 5);
    close_session();
}
END_TEST

/* ---- SIGINT while a kernel runs ------------------------------------------------------------------ */
/* The SIGINT comes once the process has used 0.3 s of CPU time since the line started: after
 * real work by the kernel, however loaded the machine is (wall time would not say that). */
static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *interrupt_later(void *arg)
{
    double start = *(double *)arg;
    free(arg);
    struct timespec ts = {0, 10 * 1000 * 1000};
    while (cpu_seconds() < start + 0.3)
        nanosleep(&ts, NULL);
    kill(getpid(), SIGINT);
    return NULL;
}

/* Run one line through the REPL loop (as typed), with a SIGINT after 0.3 s of its work. */
static char *interrupted_next(cmd_input *in, const char *prompt)
{
    (void)prompt;
    script *sc = in->ctx;
    if (!sc->lines[sc->i])
        return NULL;
    pthread_t t;
    double *start = malloc(sizeof *start);
    ck_assert_ptr_nonnull(start);
    *start = cpu_seconds();
    ck_assert_int_eq(pthread_create(&t, NULL, interrupt_later, start), 0);
    ck_assert_int_eq(pthread_detach(t), 0);
    return strdup(sc->lines[sc->i++]);
}

static void run_interrupted(const char *line)
{
    const char *lines[] = {line, NULL};
    script sc = {lines, 0};
    cmd_input in = {interrupted_next, &sc, 0};
    cmd_run_input(&c, &in, NULL); /* returns once the signal stopped the kernel */
}

START_TEST(sigint_stops_a_long_kernel)
{
    open_session("tests/fixtures/interactive/spin.ptx");
    run("buffer out u32 64");
    run_interrupted("launch spin<<<2,64>>>(4000000000, out)");
    /* stopped, not finished: the launch is alive and inspectable */
    ck_assert(dbg_launch_alive(s));
    ck_assert(dbg_get_focus(s)->valid);
    dbg_value v;
    char err[256];
    ck_assert_int_eq(dbg_eval_focus(c.s, "%r3", &v, err, sizeof err), 0);
    uint64_t first = v.u;
    ck_assert_uint_gt(first, 0);
    ck_assert_uint_lt(first, 4000000000u);
    run_interrupted("continue");
    ck_assert(dbg_launch_alive(s));
    ck_assert_int_eq(dbg_eval_focus(c.s, "%r3", &v, err, sizeof err), 0);
    ck_assert_uint_gt(v.u, first);
    run("kill");
    ck_assert(!dbg_launch_alive(s));
    close_session();
}
END_TEST

int main(void)
{
    Suite *su = suite_create("interactive");
    TCase *tc = tcase_create("completion");
    tcase_add_test(tc, complete_commands_and_subcommands);
    tcase_add_test(tc, complete_word_breaks);
    tcase_add_test(tc, complete_functions_and_files);
    tcase_add_test(tc, complete_at_the_focus);
    tcase_add_test(tc, complete_struct_members);
    suite_add_tcase(su, tc);
    tc = tcase_create("loop");
    tcase_add_test(tc, empty_line_repeats_next);
    tcase_add_test(tc, empty_line_does_not_repeat_print);
    tcase_add_test(tc, empty_line_outside_terminal_does_nothing);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, sigint_stops_a_long_kernel);
    suite_add_tcase(su, tc);
    return tu_run_suite(su);
}
