/* test_feed.c - the command feed: user commands (define, document, $argc/$argN), if/while, error
 * unwinding, breakpoint commands, enable once/delete/count, clear, frames handed over and back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "cmd_prog.h"
#include <unistd.h>
#include "test_util.h"

/* saxpy<<<4,256>>> on examples/saxpy.G.ptx: line 6 (y[i] = a * x[i] + y[i]) runs in every warp
 * whose lanes have i < n; with n = 1024 that is all 32 warps, so a breakpoint there is
 * reported 32 times (one stop per warp). */
#define SAXPY "examples/saxpy.G.ptx"
#define LAUNCH "launch saxpy<<<4,256>>>(1024, 2.0, x, y)"

static dbg_session *s;
static cmd_ctx c;

static void open_session(const char *file)
{
    s = dbg_new();
    ck_assert_ptr_nonnull(s);
    cmd_ctx_init(&c, s);
    c.batch = 1;
    c.kernel_events = 1;
    if (file) {
        ck_assert_int_eq(dbg_load_file(s, file), 0);
        ck_assert_int_eq(cmd_execute(&c, "buffer x f32 1024 = iota"), 0);
        ck_assert_int_eq(cmd_execute(&c, "buffer y f32 1024 = fill 1"), 0);
    }
}

static void close_session(void)
{
    cmd_ctx_free(&c);
    dbg_free(s);
}

/* Lines of a text, fed as the terminal would feed them (cmd_run_input). */
typedef struct {
    const char *p;
} cursor;

static char *next_line(cmd_input *in, const char *prompt)
{
    (void)prompt;
    cursor *k = in->ctx;
    if (!*k->p)
        return NULL;
    size_t n = strcspn(k->p, "\n");
    char *line = strndup(k->p, n);
    k->p += n + (k->p[n] == '\n');
    return line;
}

/* Feed `text` line by line; what was printed (stdout and stderr, in order). */
static char *feed(const char *text)
{
    char *out = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&out, &n);
    ck_assert_ptr_nonnull(m);
    fflush(stdout);
    fflush(stderr);
    FILE *so = stdout, *se = stderr;
    stdout = stderr = m;
    cursor k = {text};
    cmd_input in = {next_line, &k, 0};
    cmd_run_input(&c, &in, NULL);
    fflush(m);
    stdout = so;
    stderr = se;
    fclose(m);
    return out;
}

#define HAS(out, text) ck_assert_msg(strstr((out), (text)) != NULL, "missing \"%s\" in:\n%s", \
                                     (text), (out))
#define HASNT(out, text) ck_assert_msg(strstr((out), (text)) == NULL, "unexpected \"%s\" in:\n%s", \
                                       (text), (out))

static int64_t conv(const char *name)
{
    dbg_value *v = dbg_history_conv(dbg_session_history(c.s), name, 0);
    ck_assert_msg(v != NULL, "no $%s", name);
    return dbg_value_int(v);
}

/* ---- user commands ------------------------------------------------------------------------- */
START_TEST(define_with_arguments)
{
    open_session(NULL);
    char *out = feed("define adder\n"
                     "  print $arg0 + $arg1 + $arg2\n"
                     "end\n"
                     "document adder\n"
                     "Add three numbers.\n"
                     "end\n"
                     "adder 1 2 3\n"
                     "adder (4 + 1) 10 100\n"
                     "define argc\n"
                     "  set $n = $argc\n"
                     "end\n"
                     "argc a b c d\n"
                     "help adder\n"
                     "help user-defined\n");
    HAS(out, "$1 = 6\n");
    HAS(out, "$2 = 115\n");
    ck_assert_int_eq(conv("n"), 4);
    HAS(out, "Add three numbers.\n");
    HAS(out, "adder -- Add three numbers.\n");
    HAS(out, "argc -- User-defined.\n");
    free(out);
    /* a missing argument is an error when its line runs, and ends the command */
    out = feed("define two\n  set $x = 1\n  print $arg1\n  set $x = 2\nend\ntwo only\n");
    HAS(out, "Missing argument 1 in user function.");
    ck_assert_int_eq(conv("x"), 1);
    free(out);
    /* built-ins stay, hooks are refused */
    out = feed("define print\nend\ndefine hook-stop\nend\n");
    HAS(out, "\"print\" is a built-in command; it cannot be redefined.");
    HAS(out, "Hooks (define hook-COMMAND, hookpost-COMMAND) are not supported by ptxdbg.");
    free(out);
    close_session();
}
END_TEST

START_TEST(if_while_nesting)
{
    open_session(NULL);
    /* sum of 0..9 without 5, stop at 8: 0+1+2+3+4+6+7 = 23; 3 passes print "odd" */
    char *out = feed("set $i = 0\n"
                     "set $sum = 0\n"
                     "while $i < 10\n"
                     "  set $i = $i + 1\n"
                     "  if $i - 1 == 5\n"
                     "    loop_continue\n"
                     "  end\n"
                     "  if $i - 1 == 8\n"
                     "    loop_break\n"
                     "  else\n"
                     "    set $sum = $sum + ($i - 1)\n"
                     "    if ($i - 1) % 2 == 1 && $i < 6\n"
                     "      echo odd\\n\n"
                     "    end\n"
                     "  end\n"
                     "end\n"
                     "echo after\\n\n");
    ck_assert_int_eq(conv("sum"), 23);
    ck_assert_int_eq(conv("i"), 9);
    HAS(out, "odd\nodd\nafter\n");
    HASNT(out, "odd\nodd\nodd");
    free(out);
    /* a user command whose body loops over its argument, nested in another */
    out = feed("define countdown\n"
               "  set $k = $arg0\n"
               "  while $k > 0\n"
               "    set $k = $k - 1\n"
               "    set $calls = $calls + 1\n"
               "  end\n"
               "end\n"
               "define twice\n"
               "  countdown $arg0\n"
               "  countdown $arg0\n"
               "end\n"
               "set $calls = 0\n"
               "twice 3\n"
               "loop_break\n"
               "end\n"
               "if\n");
    ck_assert_int_eq(conv("calls"), 6);
    HAS(out, "loop_break can only be used in a \"while\" loop.");
    HAS(out, "This command cannot be used at the top level.");
    HAS(out, "if/while commands require arguments.");
    free(out);
    close_session();
}
END_TEST

/* gdb: an error ends the script (and the scripts that sourced it, the user commands it runs
 * in); the terminal's lines go on. */
START_TEST(errors_end_nested_frames)
{
    open_session(NULL);
    const char *dir = getenv("TMPDIR");
    char path[512], path2[600];
    snprintf(path, sizeof path, "%s/ptxdbg-feed-%d.gdb", dir && *dir ? dir : "/tmp", (int)getpid());
    snprintf(path2, sizeof path2, "%s.inner", path);
    FILE *f = fopen(path2, "w");
    ck_assert_ptr_nonnull(f);
    fputs("set $a = 1\nfrobnicate\nset $a = 2\n", f);
    fclose(f);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "set $b = 1\nsource %s\nset $b = 2\n", path2);
    fclose(f);
    char text[1200];
    snprintf(text, sizeof text, "source %s\nset $c = 3\n", path);
    char *out = feed(text);
    HAS(out, "Undefined command: \"frobnicate\".");
    ck_assert_int_eq(conv("a"), 1);
    ck_assert_int_eq(conv("b"), 1);
    ck_assert_int_eq(conv("c"), 3);
    free(out);
    unlink(path);
    unlink(path2);
    close_session();
}
END_TEST

/* ---- breakpoint commands -------------------------------------------------------------------- */
/* Commands run after the stop is shown, one stop after the other (no nesting limit: 32 stops),
 * and the lines after a command that resumes are dropped, as gdb does. */
START_TEST(breakpoint_commands_iterate)
{
    open_session(SAXPY);
    char *out = feed("set $n = 0\n"
                     "break saxpy.cu:6\n"
                     "commands\n"
                     "  silent\n"
                     "  set $n = $n + 1\n"
                     "  if $n == 2\n"
                     "    set $second = i\n"
                     "  end\n"
                     "  continue\n"
                     "  set $never = 1\n"
                     "end\n"
                     LAUNCH "\n"
                     "print y[1023]\n");
    ck_assert_int_eq(conv("n"), 32);
    ck_assert_int_eq(conv("second"), 32); /* warp 1's first lane */
    ck_assert_ptr_null(dbg_history_conv(dbg_session_history(c.s), "never", 0));
    HASNT(out, "Breakpoint 1, "); /* silent */
    HAS(out, "$1 = 2047\n");      /* 2 * 1023 + 1: the kernel ran to its end */
    free(out);
    close_session();
}
END_TEST

/* ---- enable once / delete / count, clear ------------------------------------------------------ */
START_TEST(enable_dispositions)
{
    open_session(SAXPY);
    char *out = feed("break saxpy.cu:6\n"
                     "break saxpy.cu:6\n"
                     "break saxpy.cu:6\n"
                     "disable\n"
                     "enable once 1\n"
                     "enable count 2 2\n"
                     "enable delete 3\n"
                     "info breakpoints\n");
    /* Disp: dis, dis, del */
    HAS(out, "1       breakpoint     dis  y");
    HAS(out, "2       breakpoint     dis  y");
    HAS(out, "3       breakpoint     del  y");
    free(out);
    /* stop 1 (warp 0): all three there; the first enabled one is reported, each stop counts
       for the first enabled breakpoint: 1 (then disabled), 2 twice (then disabled), then 3
       (then deleted); the fifth stop has none left: the kernel completes */
    out = feed(LAUNCH "\ncontinue\ncontinue\ncontinue\ncontinue\ninfo breakpoints\n");
    HAS(out, "Breakpoint 1, ");
    HAS(out, "Breakpoint 2, ");
    HAS(out, "Temporary breakpoint 3, ");
    HAS(out, "[Kernel 0 exited]");
    HAS(out, "1       breakpoint     dis  n");
    HAS(out, "2       breakpoint     dis  n");
    HASNT(out, "\n3       breakpoint");
    ck_assert_int_eq(dbg_bp_find(s, 1)->hits, 1);
    ck_assert_int_eq(dbg_bp_find(s, 2)->hits, 2);
    free(out);
    /* a plain enable keeps the "dis" disposition: the next stop disables it again */
    out = feed("enable 1\n" LAUNCH "\ncontinue\n");
    ck_assert_int_eq(dbg_bp_find(s, 1)->enabled, 0);
    ck_assert_int_eq(dbg_bp_find(s, 1)->hits, 2);
    HAS(out, "[Kernel 1 exited]");
    free(out);
    close_session();
}
END_TEST

START_TEST(clear_locations)
{
    open_session(SAXPY);
    char *out = feed("break saxpy\n"
                     "break saxpy.cu:6\n"
                     "break 6\n"
                     "break saxpy.cu:7\n"
                     "clear saxpy.cu:6\n"
                     "clear saxpy\n"
                     "clear saxpy.cu:6\n"
                     "info breakpoints\n");
    HAS(out, "Deleted breakpoints 2 3\n");
    HAS(out, "Deleted breakpoint 1\n");
    HAS(out, "No breakpoint at saxpy.cu:6.");
    HAS(out, "4       breakpoint     keep y");
    ck_assert_int_eq(dbg_bp_count(s), 1);
    free(out);
    /* clear without a location: the breakpoints at the selected frame's line */
    out = feed("break saxpy.cu:6\n" LAUNCH "\nclear\ninfo breakpoints\n");
    HAS(out, "Deleted breakpoint 5\n");
    ck_assert_int_eq(dbg_bp_count(s), 1);
    free(out);
    close_session();
}
END_TEST

/* commands for a list of breakpoints; disable/enable display */
START_TEST(commands_list_and_displays)
{
    open_session(SAXPY);
    char *out = feed("break saxpy.cu:6\n"
                     "break saxpy.cu:7\n"
                     "break saxpy\n"
                     "commands 1-2 3\n"
                     "  set $c = $c + 1\n"
                     "end\n"
                     "display i\n"
                     "display n\n"
                     "disable display 1\n"
                     "info display\n"
                     "set $c = 0\n"
                     "launch saxpy<<<1,32>>>(32, 2.0, x, y)\n"
                     "continue\n"
                     "enable display\n"
                     "continue\n"
                     "disable display 9\n");
    for (int b = 1; b <= 3; b++)
        ck_assert_int_eq(dbg_bp_find(s, b)->ncommands, 1);
    ck_assert_int_eq(conv("c"), 3); /* three stops: saxpy, line 6, line 7 */
    HAS(out, "1:   n  i\n");
    HAS(out, "2:   y  n\n");
    /* line 6's stop shows display 2 only; line 7's (after enable display) both */
    HASNT(out, "1: i = 0\n2: n = 32\n\nBreakpoint 1, ");
    HAS(out, "1: i = 0\n2: n = 32\n");
    HAS(out, "No display number 9.");
    free(out);
    close_session();
}
END_TEST

/* ---- frames handed to a program's session and back --------------------------------------------- */
START_TEST(export_import_round_trip)
{
    open_session(NULL);
    ck_assert_int_eq(cmd_feed_push(&c, CMD_FR_TEXT, CMD_FF_NEST | CMD_FF_SCRIPT, "s.gdb", NULL,
                                   "set $p = 1\nset $p = $p + 10\n", 28), 0);
    ck_assert_int_eq(cmd_feed_push(&c, CMD_FR_LOOP, CMD_FF_NEST, "while", "$q < 3",
                                   "set $q = $q + 1\n", 16), 0);
    c.frames[0].pos = 11; /* its first line already read */
    char *text;
    size_t len;
    ck_assert_int_eq(cmd_feed_export(&c, &text, &len), 0);
    cmd_feed_free(&c);
    ck_assert_int_eq(cmd_feed_import(&c, text, len), 0);
    free(text);
    ck_assert_int_eq(c.nframes, 2);
    ck_assert_int_eq(cmd_execute(&c, "set $p = 5"), 0);
    ck_assert_int_eq(cmd_execute(&c, "set $q = 0"), 0);
    cmd_feed_run(&c, 0);
    ck_assert_int_eq(conv("q"), 3);  /* the loop ran to its end first */
    ck_assert_int_eq(conv("p"), 15); /* then the script's second line only */
    ck_assert_int_eq(cmd_feed_import(&c, "frame 1 1 0 99 0 0 0\nx", 22), -1); /* corrupt */
    close_session();
}
END_TEST

int main(void)
{
    Suite *su = suite_create("feed");
    TCase *t = tcase_create("feed");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, define_with_arguments);
    tcase_add_test(t, if_while_nesting);
    tcase_add_test(t, errors_end_nested_frames);
    tcase_add_test(t, breakpoint_commands_iterate);
    tcase_add_test(t, enable_dispositions);
    tcase_add_test(t, clear_locations);
    tcase_add_test(t, commands_list_and_displays);
    tcase_add_test(t, export_import_round_trip);
    suite_add_tcase(su, t);
    return tu_run_suite(su);
}
