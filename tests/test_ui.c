/* test_ui.c - the output model: the text backend's tables, the JSON backend's escaping, fields, tuples and lists. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cmd.h"
#include "cmd_ui.h"
#include "test_util.h"

/* The escaped form of n bytes of s (RFC 8259 section 7; invalid UTF-8 as U+FFFD). */
static char *esc(const char *s, size_t n)
{
    char *b = NULL;
    size_t len = 0, cap = 0;
    cmd_ui_escape(&b, &len, &cap, s, n);
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(strlen(b), len);
    return b;
}

#define ESC_EQ(in, want)                                                                         \
    do {                                                                                         \
        char *got_ = esc(in, sizeof in - 1);                                                     \
        ck_assert_str_eq(got_, want);                                                            \
        free(got_);                                                                              \
    } while (0)

START_TEST(escapes_specials_and_controls)
{
    ESC_EQ("plain", "\"plain\"");
    ESC_EQ("q\"b\\", "\"q\\\"b\\\\\"");
    ESC_EQ("a\nb\tc\rd", "\"a\\nb\\tc\\rd\"");
    /* every other control character, and DEL, as \u00XX */
    ESC_EQ("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"");
    ESC_EQ("nul\0end", "\"nul\\u0000end\"");
    /* '/' needs no escape */
    ESC_EQ("a/b", "\"a/b\"");
}
END_TEST

START_TEST(utf8_kept_invalid_replaced)
{
    /* valid: U+00E9 (2 bytes), U+20AC (3), U+1F600 (4) pass through */
    ESC_EQ("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
    /* a lone continuation byte, a 0xff, an overlong '/' (C0 AF), a surrogate (ED A0 80), a
       code point above U+10FFFF (F4 90 80 80), a truncated sequence at the end: U+FFFD each
       invalid byte */
    ESC_EQ("a\x80z", "\"a\xef\xbf\xbdz\"");
    ESC_EQ("\xff", "\"\xef\xbf\xbd\"");
    ESC_EQ("\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\"");
    ESC_EQ("\xed\xa0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
    ESC_EQ("\xf4\x90\x80\x80",
           "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
    ESC_EQ("x\xe2\x82", "\"x\xef\xbf\xbd\xef\xbf\xbd\"");
}
END_TEST

/* A command's result object: captured with the session's stdout redirected to a file. */
START_TEST(result_object_fields)
{
    dbg_session *s = dbg_new();
    ck_assert_ptr_nonnull(s);
    cmd_ctx c;
    cmd_ctx_init(&c, s);
    c.batch = 1;
    ck_assert_int_eq(cmd_ui_set(&c, "json"), 0);
    ck_assert_str_eq(cmd_ui_mode(&c), "json");
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    int fd = fileno(f);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    ck_assert_int_eq(cmd_execute(&c, "print 6 * 7"), 0);
    ck_assert_int_ne(cmd_execute(&c, "no-such-command"), 0);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    static char text[1024];
    rewind(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    ck_assert_str_eq(text,
                     "{\"command\":\"print 6 * 7\",\"ok\":true,\"value\":\"42\",\"type\":\"int\","
                     "\"history\":1,\"output\":\"$1 = 42\\n\"}\n"
                     "{\"command\":\"no-such-command\",\"ok\":false,\"error\":\"Undefined "
                     "command: \\\"no-such-command\\\".  Try \\\"help\\\".\"}\n");
    ck_assert_int_eq(cmd_ui_set(&c, "xml"), -1);
    ck_assert_int_eq(cmd_ui_set(&c, "text"), 0);
    ck_assert_str_eq(cmd_ui_mode(&c), "text");
    cmd_ctx_free(&c);
    dbg_free(s);
}
END_TEST

/* JSON mode runs run control without touching the process's descriptors: seen from inside the
 * run (the engine's run hook), fd 1 is still the file the test put there, no capture is made,
 * and the kernel's printf comes out as an output event before the stop. */
static struct stat fd1_seen[16];
static int nseen;

static int fd1_hook(void *ctx, const exec_run_opts *o, const exec_stop *st)
{
    (void)ctx;
    (void)st;
    if (o && nseen < 16)
        fstat(1, &fd1_seen[nseen++]);
    return 0;
}

START_TEST(run_control_uncaptured)
{
    dbg_session *s = dbg_new();
    ck_assert_ptr_nonnull(s);
    cmd_ctx c;
    cmd_ctx_init(&c, s);
    c.batch = 1;
    ck_assert_int_eq(cmd_ui_attach_output(&c), 0);
    dbg_set_run_hook(s, fd1_hook, NULL);
    ck_assert_int_eq(cmd_ui_set(&c, "json"), 0);
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    struct stat mine;
    ck_assert_int_eq(fstat(fileno(f), &mine), 0);
    fflush(stdout);
    int saved = dup(1);
    dup2(fileno(f), 1);
    ck_assert_int_eq(cmd_execute(&c, "file tests/fixtures/kernels/printf.G.ptx"), 0);
    ck_assert_int_eq(cmd_execute(&c, "buffer v s32 4 = iota"), 0);
    ck_assert_int_eq(cmd_execute(&c, "buffer f f32 8 = fill 1"), 0);
    ck_assert_int_eq(cmd_execute(&c, "buffer d f64 8 = fill 1"), 0);
    ck_assert_int_eq(cmd_execute(&c, "break printf.cu:8"), 0);
    ck_assert_int_eq(cmd_execute(&c, "break printf.cu:10"), 0);
    unsigned long before = cmd_ui_captures(&c);
    ck_assert_uint_gt(before, 0);               /* the counter counts: buffer lines are captured */
    nseen = 0;
    int rl = cmd_execute(&c, "launch printf_formats<<<1, 4>>>(v, f, d)");
    int rc = cmd_execute(&c, "continue");
    int rn = cmd_execute(&c, "next");
    int rk = cmd_execute(&c, "kill");
    int rh = cmd_execute(&c, "help step") | cmd_execute(&c, "echo done\\n") |
             cmd_execute(&c, "info source") | cmd_execute(&c, "info scope printf_formats") |
             cmd_execute(&c, "show") | cmd_execute(&c, "show values");
    unsigned long after = cmd_ui_captures(&c);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    ck_assert_int_eq(rl, 0);
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(rn, 0);
    ck_assert_int_eq(rk, 0);
    ck_assert_int_eq(rh, 0);
    ck_assert_uint_eq(after, before);           /* no dup2 for any of them */
    ck_assert_int_ge(nseen, 3);
    for (int i = 0; i < nseen; i++) {           /* fd 1 unchanged while the kernel ran */
        ck_assert(fd1_seen[i].st_dev == mine.st_dev);
        ck_assert(fd1_seen[i].st_ino == mine.st_ino);
    }
    static char text[16384];
    rewind(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    /* printf_formats' first printf, lane 0 (vals = iota): "thread %d of block %d: val=%d ..." */
    const char *ev = strstr(text, "{\"event\":\"output\",\"category\":\"stdout\",\"text\":"
                                  "\"thread 0 of block 0: val=0 hex=0 u=0\\n");
    const char *stop2 = strstr(text, "{\"event\":\"stop\",\"reason\":\"breakpoint\",\"breakpoint\":2");
    ck_assert_ptr_nonnull(ev);
    ck_assert_ptr_nonnull(stop2);
    ck_assert(ev < stop2);
    ck_assert_ptr_nonnull(strstr(text, "{\"command\":\"kill\",\"ok\":true,\"output\":\"[Kernel 0 killed]\\n\"}"));
    ck_assert_ptr_nonnull(strstr(text, "{\"command\":\"echo done\\\\n\",\"ok\":true,\"output\":\"done\\n\"}"));
    ck_assert_ptr_nonnull(strstr(text, "\"output\":\"Current source file is printf.cu\\n"));
    cmd_ctx_free(&c);
    dbg_free(s);
}
END_TEST

/* What the text backend writes for fn(c) (stdout redirected to a file). */
static char *text_of(cmd_ctx *c, void (*fn)(cmd_ctx *))
{
    static char text[2048];
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    fflush(stdout);
    int saved = dup(1);
    dup2(fileno(f), 1);
    fn(c);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    return text;
}

/* Columns as printf would pad them: %-3s|%5s (right)|last unpadded, one space between. */
static void three_cols(cmd_ctx *c)
{
    cmd_ui_table_col(c, 3, CMD_UI_LEFT, "Ab");
    cmd_ui_table_col(c, 5, CMD_UI_RIGHT, "Num");
    cmd_ui_table_col(c, 0, CMD_UI_LEFT, "What");
}

static void table_rows(cmd_ctx *c)
{
    cmd_ui_table_begin(c, "rows");
    three_cols(c);
    cmd_ui_text(c, "Group 1\n");            /* text in the table: after the heading */
    cmd_ui_row_begin(c);
    cmd_ui_field_bool(c, "on", 1, "y", "n");
    cmd_ui_field_int(c, "num", 42);
    cmd_ui_field_str(c, "what", "x");
    cmd_ui_row_end(c);
    cmd_ui_row_begin(c);
    cmd_ui_field_str(c, "name", "long");      /* wider than its column: not cut */
    cmd_ui_field_hex(c, "mask", 0xff, 8);     /* wider than 5 */
    cmd_ui_cell(c, "");
    cmd_ui_text(c, " (tail)");                /* text ends the cells; fields after it are text */
    cmd_ui_field_uint(c, "n", 7);
    cmd_ui_row_end(c);
    ck_assert_int_eq(cmd_ui_table_end(c), 2);
}

static void table_empty(cmd_ctx *c)
{
    cmd_ui_table_begin(c, "rows");
    three_cols(c);
    ck_assert_int_eq(cmd_ui_table_end(c), 0);  /* no rows: no heading either */
    cmd_ui_text(c, "None.\n");
}

static void table_heading_gap(cmd_ctx *c)
{
    cmd_ui_table_begin(c, "rows");
    cmd_ui_table_gap(c, 0);
    cmd_ui_table_col(c, 4, CMD_UI_LEFT, "");
    cmd_ui_table_col(c, 0, CMD_UI_LEFT, "");
    cmd_ui_table_heading(c, "  given heading");
    cmd_ui_row_begin(c);
    cmd_ui_cell(c, "pc");
    cmd_ui_field_addr(c, "pc", 0x1f);
    cmd_ui_row_end(c);
    cmd_ui_table_end(c);
    cmd_ui_table_begin(c, NULL);                /* a listing: no heading */
    cmd_ui_table_col(c, 0, CMD_UI_LEFT, "");
    cmd_ui_table_heading(c, NULL);
    cmd_ui_row_begin(c);
    cmd_ui_field_int(c, "line", 3);
    cmd_ui_text(c, "\t");
    cmd_ui_field_str(c, "text", "int x;");
    cmd_ui_row_end(c);
    cmd_ui_table_end(c);
}

/* The text backend's tables: widths, alignment, the gap, the heading (built, given, none),
 * empty tables; the bytes are what the printf formats of the commands wrote. */
START_TEST(text_tables)
{
    dbg_session *s = dbg_new();
    ck_assert_ptr_nonnull(s);
    cmd_ctx c;
    cmd_ctx_init(&c, s);
    ck_assert_str_eq(cmd_ui_mode(&c), "text");
    char want[512];
    snprintf(want, sizeof want, "%-3s %5s %s\nGroup 1\n%-3s %5d %s\n%-3s %5s %s (tail)7\n",
             "Ab", "Num", "What", "y", 42, "x", "long", "0x000000ff", "");
    ck_assert_str_eq(text_of(&c, table_rows), want);
    ck_assert_str_eq(text_of(&c, table_empty), "None.\n");
    snprintf(want, sizeof want, "  given heading\n%-4s%s\n3\tint x;\n", "pc", "0x1f");
    ck_assert_str_eq(text_of(&c, table_heading_gap), want);
    /* the row renderer alone */
    char row[128];
    const int w[] = {1, 2, 9, 0}, al[] = {CMD_UI_LEFT, CMD_UI_RIGHT, CMD_UI_RIGHT, CMD_UI_LEFT};
    const char *cells[] = {"*", "3", "active", "tail"};
    cmd_ui_render_row(row, sizeof row, 4, w, al, cells);
    snprintf(want, sizeof want, "%c %2u %9s %s\n", '*', 3u, "active", "tail");
    ck_assert_str_eq(row, want);
    cmd_ctx_free(&c);
    dbg_free(s);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("ui");
    TCase *t = tcase_create("json");
    tcase_add_test(t, escapes_specials_and_controls);
    tcase_add_test(t, utf8_kept_invalid_replaced);
    tcase_add_test(t, result_object_fields);
    tcase_add_test(t, text_tables);
    tcase_add_test(t, run_control_uncaptured);
    suite_add_tcase(su, t);
    return tu_run_suite(su);
}
