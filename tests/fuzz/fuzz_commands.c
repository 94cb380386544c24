/* fuzz_commands.c - libFuzzer harness: command lines through cmd_execute in a session stopped at a breakpoint. */
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include "cmd.h"
#include "fuzz_module.h"

/* A small module with a loop, a device call, shared, local and const memory. Every input runs
 * on a session in the same state (so every crash reproduces from its input alone): the module
 * is loaded, two buffers exist, breakpoint 1 is on `work`, and the launch work<<<2, 32>>> is
 * stopped there; then the input's first MAX_LINES lines run one by one with a fresh command
 * context (value history, displays, `x`/`list` positions). Building that session (parse,
 * decode, launch) costs more than most inputs, so one is built at startup and kept: an input
 * whose every line is an inspection that changes nothing in the session (print/output/printf/
 * x/display without an assignment, info, show, bt, ptype, whatis, list, disassemble, help,
 * echo) runs on it; any other input gets a session of its own, built and freed around it.
 * FUZZ_COMMANDS_FRESH=1 gives every input a session of its own (to check a reproduction).
 * The lines run (the commands parser and the expression evaluator see every line; what runs
 * kernels is bounded). Budgets keep one input well under a millisecond of kernel time:
 * `set max-steps` (a continue, launch or run) and the line-step limit are RUN_STEPS
 * warp-instructions and are put back after every line (an input may change them; it then runs
 * one line with its own value, at most LINE_USEC), and an interval timer raises the session's
 * interrupt flag after LINE_USEC per line. Commands that
 * touch files (file, source, dump, generate-core-file, `= file`, logging), quit, and buffers
 * of 64 MB or more (a libFuzzer malloc limit report, not a finding) are skipped. */
#define MAX_LINES 16
#define RUN_STEPS 2000
#define LINE_USEC 20000

static const char module[] =
    FUZZ_MODULE_HEAD
    ".func (.param .b32 r) twice(.param .b32 a)\n{\n"
    "\t.reg .b32 %t<3>;\n\tld.param.b32 %t1, [a];\n\tshl.b32 %t2, %t1, 1;\n"
    "\tst.param.b32 [r], %t2;\n\tret;\n}\n"
    FUZZ_MODULE_WORK;

static const char *const setup_cmds[] = {
    "buffer out f32 128",
    "buffer in s32 16 = iota",
    "break work",
    "launch work<<<2, 32>>>(out, 5, 1.5)",
};

static volatile int interrupt_flag;

static void on_alarm(int sig)
{
    (void)sig;
    interrupt_flag = 1;
}

static void arm(long usec)
{
    struct itimerval t = {{0, 0}, {usec / 1000000, usec % 1000000}};
    interrupt_flag = 0;
    setitimer(ITIMER_REAL, &t, NULL);
}

/* Commands the harness never runs: they read or write files, or end the session. */
static int skipped(const char *line)
{
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    char word[64];
    size_t n = 0;
    while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') ||
           (p[n] >= '0' && p[n] <= '9') || p[n] == '_' || p[n] == '-') {
        if (n + 1 < sizeof word)
            word[n] = p[n];
        n++;
    }
    if (n >= sizeof word)
        return 0;
    word[n] = 0;
    if (n == 0)
        return 0;
    const cmd_def *d = cmd_lookup(cmd_table, word, NULL, 0);
    if (!d)
        return 0;
    if (d->fn == cmd_file || d->fn == cmd_source || d->fn == cmd_dump || d->fn == cmd_quit ||
        d->fn == cmd_commands || d->fn == cmd_generate_core)
        return 1;
    if (d->fn == cmd_buffer && strstr(p, "file"))
        return 1;
    if (d->fn == cmd_set && (strstr(p, "logging") || strstr(p, "log")))
        return 1;
    if (d->fn == cmd_buffer)
        for (const char *q = p + n; *q; q++)
            if (*q >= '0' && *q <= '9' && (q[-1] < '0' || q[-1] > '9')) {
                unsigned long long v = strtoull(q, NULL, 0);
                if (v >= (1ull << 26) && v < (1ull << 36))
                    return 1;
            }
    return 0;
}

/* Does the line leave the session as it found it (see above)? Skipped lines do. */
static int inspect_only(const char *line)
{
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    char word[64];
    size_t n = 0;
    while (n + 1 < sizeof word && ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') ||
                                   p[n] == '-' || p[n] == '_'))
        word[n] = p[n], n++;
    word[n] = 0;
    if (n == 0)
        return *p == 0 || *p == '#';
    const cmd_def *d = cmd_lookup(cmd_table, word, NULL, 0);
    if (!d)
        return 0; /* maybe a PTX statement for the REPL (`mov.u32 %r1, 7;`) */
    if (d->fn == cmd_info || d->fn == cmd_show || d->fn == cmd_backtrace || d->fn == cmd_ptype ||
        d->fn == cmd_whatis || d->fn == cmd_list || d->fn == cmd_disassemble ||
        d->fn == cmd_help || d->fn == cmd_echo)
        return 1;
    if (d->fn == cmd_print || d->fn == cmd_output || d->fn == cmd_printf || d->fn == cmd_x ||
        d->fn == cmd_display) {
        for (const char *q = p + n; *q; q++) {
            if ((q[0] == '+' && q[1] == '+') || (q[0] == '-' && q[1] == '-'))
                return 0;
            if (*q == '=' && q[1] != '=' && (q == p || !strchr("=!<>", q[-1])))
                return 0;
        }
        return 1;
    }
    return 0;
}

static void budgets(dbg_session *s)
{
    dbg_options *o = dbg_opts(s);
    o->run_max_steps = RUN_STEPS;
    o->max_steps = RUN_STEPS;
}

static void init_once(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    if (!freopen("/dev/null", "w", stdout))
        abort();
    /* libFuzzer and the sanitizers keep their own handle on fd 2; only the session's
     * messages go quiet. */
    FILE *null = fopen("/dev/null", "w");
    if (null && !getenv("FUZZ_VERBOSE"))
        stderr = null;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
}

/* A session stopped at the breakpoint, as every input starts. */
static dbg_session *new_session(void)
{
    dbg_session *s = dbg_new();
    if (!s)
        abort();
    cmd_ctx c;
    cmd_ctx_init(&c, s);
    c.batch = 1;
    dbg_set_interrupt_flag(s, &interrupt_flag); /* after cmd_ctx_init, which sets its own */
    if (dbg_load_text(s, module, sizeof module - 1, "fuzz.ptx") != 0)
        abort(); /* the harness's own module must load */
    budgets(s);
    arm(2000000);
    for (size_t i = 0; i < sizeof setup_cmds / sizeof setup_cmds[0]; i++)
        cmd_execute(&c, setup_cmds[i]);
    arm(0);
    cmd_ctx_free(&c);
    return s;
}

/* The input's lines, NUL-terminated, at most MAX_LINES. */
static int split(const uint8_t *data, size_t size, char lines[][512])
{
    size_t at = 0;
    int k = 0;
    while (at < size && k < MAX_LINES) {
        size_t n = 0;
        while (at < size && data[at] != '\n' && data[at] != 0) {
            if (n + 1 < 512)
                lines[k][n++] = (char)data[at];
            at++;
        }
        at++;
        lines[k++][n] = 0;
    }
    return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static dbg_session *kept;
    static char lines[MAX_LINES][512];
    init_once();
    if (size > 4096)
        return 0;
    int nl = split(data, size, lines);
    int pure = !getenv("FUZZ_COMMANDS_FRESH");
    for (int i = 0; i < nl && pure; i++)
        pure = skipped(lines[i]) || inspect_only(lines[i]);
    dbg_session *s;
    if (pure) {
        if (!kept)
            kept = new_session();
        s = kept;
    } else {
        s = new_session();
    }
    cmd_ctx c;
    cmd_ctx_init(&c, s);
    c.batch = 1;
    dbg_set_interrupt_flag(s, &interrupt_flag); /* cmd_ctx_init sets its own */
    for (int i = 0; i < nl && !c.quit; i++) {
        if (skipped(lines[i]))
            continue;
        arm(LINE_USEC);
        cmd_execute(&c, lines[i]);
        budgets(s);
    }
    arm(0);
    fflush(stdout);
    cmd_ctx_free(&c);
    if (s != kept)
        dbg_free(s);
    return 0;
}
