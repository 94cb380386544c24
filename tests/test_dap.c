/* test_dap.c - the DAP server's JSON reader/writer and its Content-Length framing (values, malformed input, bounds), and the engine rows it reads memory through. */
#include <check.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dap_io.h"
#include "dap_json.h"
#include "dbg_rows.h"
#include "test_util.h"

static dj *parse(const char *s, char *err, size_t n) { return dj_parse(s, strlen(s), err, n); }

START_TEST(json_values)
{
    char err[128];
    dj *v = parse(" {\"seq\": 12, \"type\":\"request\", \"arguments\": {\"lines\": [1, -2.5, 3e2],"
                  " \"ok\": true, \"no\": false, \"nil\": null, \"s\": \"a\\\"b\\\\c\\n\\u00e9\\ud83d\\ude00\"}} ",
                  err, sizeof err);
    ck_assert_msg(v != NULL, "%s", err);
    int64_t seq;
    ck_assert_int_eq(dj_int(v, "seq", 0, 100, &seq), 1);
    ck_assert_int_eq(seq, 12);
    ck_assert_int_eq(dj_int(v, "seq", 0, 5, &seq), -1);      /* out of range */
    ck_assert_int_eq(dj_int(v, "type", 0, 5, &seq), -1);     /* not a number */
    ck_assert_int_eq(dj_int(v, "none", 0, 5, &seq), 0);      /* absent */
    ck_assert_str_eq(dj_str(v, "type", ""), "request");
    const dj *a = dj_get(v, "arguments");
    const dj *lines = dj_get(a, "lines");
    ck_assert_int_eq(lines->count, 3);
    ck_assert(dj_at(lines, 1)->num == -2.5);
    ck_assert(dj_at(lines, 2)->num == 300);
    ck_assert_ptr_null(dj_at(lines, 3));
    ck_assert_int_eq(dj_bool(a, "ok", 0), 1);
    ck_assert_int_eq(dj_bool(a, "no", 1), 0);
    ck_assert_int_eq(dj_get(a, "nil")->kind, DJ_NULL);
    /* escapes: quote, backslash, newline, U+00E9 and U+1F600 from a surrogate pair */
    ck_assert_str_eq(dj_str(a, "s", ""), "a\"b\\c\n\xC3\xA9\xF0\x9F\x98\x80");
    dj_free(v);
    /* a NUL inside a string is kept, with its length */
    v = parse("\"x\\u0000y\"", err, sizeof err);
    ck_assert_int_eq(v->len, 3);
    ck_assert_int_eq(v->str[1], 0);
    dj_free(v);
}
END_TEST

START_TEST(json_malformed)
{
    static const char *bad[] = {
        "", "{", "[1,", "[1 2]", "{\"a\" 1}", "{\"a\":}", "{a:1}", "\"open", "\"bad \\q\"",
        "\"\\u12\"", "\"ctl \x01\"", "01", "1.", "-", "1e", "tru", "nul", "[1]]", "{} {}",
        "[,1]", "{\"a\":1,}", "\xff", NULL};
    for (int i = 0; bad[i]; i++) {
        char err[128] = "";
        dj *v = parse(bad[i], err, sizeof err);
        ck_assert_msg(v == NULL, "accepted \"%s\"", bad[i]);
        ck_assert_msg(strstr(err, "JSON: ") == err, "no message for \"%s\"", bad[i]);
    }
    /* not NUL-terminated: the length bounds the text */
    char t[4] = {'[', '1', ']', '['};
    dj *v = dj_parse(t, 3, NULL, 0);
    ck_assert_ptr_nonnull(v);
    dj_free(v);
}
END_TEST

START_TEST(json_depth_bounded)
{
    /* at the limit it parses; one more level, or a very deep text, is an error, not a crash */
    char buf[300000];
    int depth = DJ_MAX_DEPTH;
    for (int i = 0; i < depth; i++)
        buf[i] = '[';
    for (int i = 0; i < depth; i++)
        buf[depth + i] = ']';
    dj *v = dj_parse(buf, (size_t)(2 * depth), NULL, 0);
    ck_assert_ptr_nonnull(v);
    dj_free(v);
    depth++;
    for (int i = 0; i < depth; i++)
        buf[i] = '[';
    for (int i = 0; i < depth; i++)
        buf[depth + i] = ']';
    char err[128];
    ck_assert_ptr_null(dj_parse(buf, (size_t)(2 * depth), err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "too deep"));
    memset(buf, '{', sizeof buf);
    ck_assert_ptr_null(dj_parse(buf, sizeof buf, err, sizeof err));
    memset(buf, '[', sizeof buf);
    ck_assert_ptr_null(dj_parse(buf, sizeof buf, err, sizeof err));
    /* the size bound is checked before anything is read */
    ck_assert_ptr_null(dj_parse(buf, (size_t)DJ_MAX_TEXT + 1, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "too long"));
}
END_TEST

START_TEST(json_many_values)
{
    /* a wide array: memory grows with the input only */
    size_t n = 200000;
    char *buf = malloc(2 * n + 2);
    buf[0] = '[';
    for (size_t i = 0; i < n; i++) {
        buf[1 + 2 * i] = '0';
        buf[2 + 2 * i] = i + 1 < n ? ',' : ']';
    }
    dj *v = dj_parse(buf, 2 * n + 1, NULL, 0);
    ck_assert_ptr_nonnull(v);
    ck_assert_int_eq(v->count, (int)n);
    dj_free(v);
    free(buf);
}
END_TEST

START_TEST(json_writer)
{
    dj_w w;
    djw_init(&w);
    djw_obj(&w, NULL);
    djw_int(&w, "seq", 3);
    djw_str(&w, "s", "q\"b\\n\n\t\x01");
    djw_arr(&w, "a");
    djw_bool(&w, NULL, 1);
    djw_null(&w, NULL);
    djw_num(&w, NULL, 0.5);
    djw_num(&w, NULL, 1.0 / 0.0); /* no infinity in JSON */
    djw_obj(&w, NULL);
    djw_obj_end(&w);
    djw_arr_end(&w);
    djw_obj_end(&w);
    ck_assert_str_eq(djw_text(&w), "{\"seq\":3,\"s\":\"q\\\"b\\\\n\\n\\t\\u0001\",\"a\":[true,null,0.5,null,{}]}");
    /* round trip through the reader */
    dj *v = dj_parse(w.p, w.len, NULL, 0);
    ck_assert_ptr_nonnull(v);
    ck_assert_str_eq(dj_str(v, "s", ""), "q\"b\\n\n\t\x01");
    dj_w w2;
    djw_init(&w2);
    djw_value(&w2, NULL, v);
    ck_assert_str_eq(djw_text(&w2), djw_text(&w));
    djw_free(&w2);
    dj_free(v);
    djw_free(&w);
}
END_TEST

START_TEST(json_writer_utf8)
{
    /* valid UTF-8 passes; bytes that are not (a lone continuation, a truncated sequence, an
       overlong form, a surrogate) become U+FFFD, so the text stays valid JSON */
    dj_w w;
    djw_init(&w);
    djw_str(&w, NULL, "\xC3\xA9|\x80|\xE2\x82|\xC0\xAF|\xED\xA0\x80|\xF0\x9F\x98\x80");
    ck_assert_str_eq(djw_text(&w), "\"\xC3\xA9|\xEF\xBF\xBD|\xEF\xBF\xBD\xEF\xBF\xBD|"
                                   "\xEF\xBF\xBD\xEF\xBF\xBD|\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD|"
                                   "\xF0\x9F\x98\x80\"");
    djw_free(&w);
    /* nesting past the bound marks the writer failed instead of overflowing */
    djw_init(&w);
    for (int i = 0; i < DJ_MAX_DEPTH + 5; i++)
        djw_arr(&w, NULL);
    ck_assert_int_eq(w.err, 1);
    ck_assert_str_eq(djw_text(&w), "");
    djw_free(&w);
}
END_TEST

/* ---- framing --------------------------------------------------------------------------------- */
static int feed(const char *data, size_t n)
{
    char path[] = "/tmp/ptxdbg-test-dap.XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    unlink(path);
    ck_assert_int_eq(write(fd, data, n), (ssize_t)n);
    lseek(fd, 0, SEEK_SET);
    return fd;
}

START_TEST(framing_messages)
{
    const char in[] = "Content-Length: 2\r\n\r\n{}"
                      "content-length:   7\r\nX-Other: 1\r\n\r\n[1,2,3]";
    int fd = feed(in, sizeof in - 1);
    dap_reader r;
    dap_reader_init(&r, fd);
    char *body, err[200];
    size_t n;
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 0), 1);
    ck_assert_str_eq(body, "{}");
    free(body);
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 0), 1);
    ck_assert_int_eq(n, 7);
    ck_assert_str_eq(body, "[1,2,3]");
    free(body);
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 0), 0);
    dap_reader_free(&r);
    close(fd);
}
END_TEST

START_TEST(framing_errors_recover)
{
    /* a header without a length, a length that is not a number, a body longer than the limit
       (skipped as it streams by), then a good message: every error is reported and skipped */
    size_t big = (size_t)DAP_MAX_BODY + 10;
    char head[256];
    int hl = snprintf(head, sizeof head, "Content-Type: x\r\n\r\nContent-Length: 1x\r\n\r\n"
                      "Content-Length: %zu\r\n\r\n", big);
    const char tail[] = "Content-Length: 4\r\n\r\ntrue";
    size_t total = (size_t)hl + big + sizeof tail - 1;
    char *data = malloc(total);
    memcpy(data, head, (size_t)hl);
    memset(data + hl, 'z', big);
    memcpy(data + hl + big, tail, sizeof tail - 1);
    int fd = feed(data, total);
    free(data);
    dap_reader r;
    dap_reader_init(&r, fd);
    char *body, err[200];
    size_t n;
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 0), -1);
    ck_assert_ptr_nonnull(strstr(err, "Content-Length"));
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 0), -1);
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 0), -1);
    ck_assert_ptr_nonnull(strstr(err, "longer than"));
    ck_assert(r.cap < (size_t)DAP_MAX_BODY); /* never buffered whole */
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 0), 1);
    ck_assert_str_eq(body, "true");
    free(body);
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 0), 0);
    dap_reader_free(&r);
    close(fd);
}
END_TEST

START_TEST(framing_bounds)
{
    /* a huge length (past 2^50), a header block with no end, and input ending mid-message */
    const char huge[] = "Content-Length: 99999999999999999999999\r\n\r\n{}";
    int fd = feed(huge, sizeof huge - 1);
    dap_reader r;
    dap_reader_init(&r, fd);
    char *body, err[200];
    size_t n;
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 0), -1);
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 0), -1); /* "{}" is no header */
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 0), 0);
    dap_reader_free(&r);
    close(fd);
    char *junk = malloc(3 * DAP_MAX_HEADER);
    memset(junk, 'h', 3 * DAP_MAX_HEADER);
    fd = feed(junk, 3 * DAP_MAX_HEADER);
    free(junk);
    dap_reader_init(&r, fd);
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 0), -1);
    ck_assert_ptr_nonnull(strstr(err, "header longer"));
    dap_reader_free(&r);
    close(fd);
    const char cut[] = "Content-Length: 10\r\n\r\n{\"a\"";
    fd = feed(cut, sizeof cut - 1);
    dap_reader_init(&r, fd);
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 0), -1);
    ck_assert_ptr_nonnull(strstr(err, "ended inside"));
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 0), 0);
    dap_reader_free(&r);
    close(fd);
}
END_TEST

START_TEST(framing_write_read)
{
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    ck_assert_int_eq(dap_write_msg(p[1], "{\"a\":1}", 7), 0);
    ck_assert_int_eq(dap_write_msg(p[1], "[]", 2), 0);
    close(p[1]);
    dap_reader r;
    dap_reader_init(&r, p[0]);
    char *body, err[100];
    size_t n;
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 0), 1);
    ck_assert_str_eq(body, "{\"a\":1}");
    free(body);
    ck_assert_int_eq(dap_reader_ready(&r), 1);
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 0), 1);
    ck_assert_str_eq(body, "[]");
    free(body);
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 0), 0);
    dap_reader_free(&r);
    close(p[0]);
    /* non-blocking: a partial message is not returned yet */
    ck_assert_int_eq(pipe(p), 0);
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    ck_assert_int_eq(write(p[1], "Content-Length: 4\r\n\r\nnu", 23), 23);
    dap_reader_init(&r, p[0]);
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 1), 2);
    ck_assert_int_eq(write(p[1], "ll", 2), 2);
    ck_assert_int_eq(dap_read_msg(&r, &body, &n, err, sizeof err, 1), 1);
    ck_assert_str_eq(body, "null");
    free(body);
    dap_reader_free(&r);
    close(p[0]);
    close(p[1]);
}
END_TEST

/* readMemory's unreadable bytes: how far from an address the next readable byte is, against
 * where the buffers are (each one run of readable bytes, with gaps between them). */
START_TEST(mem_readable_from)
{
    static const char ptx[] = ".version 7.0\n.target sm_80\n.address_size 64\n"
                              ".visible .entry k()\n{\n\tret;\n}\n";
    dbg_session *s = dbg_new();
    ck_assert_int_eq(dbg_load_text(s, ptx, strlen(ptx), "k.ptx"), 0);
    ck_assert_int_eq(dbg_buffer_add(s, "a", PTX_T_U8, 100, NULL), 0);
    ck_assert_int_eq(dbg_buffer_add(s, "b", PTX_T_U8, 1000, NULL), 0);
    const dbg_buffer *a = dbg_buffer_find(s, "a"), *b = dbg_buffer_find(s, "b");
    ck_assert(b->addr > a->addr + a->size); /* a gap between them */
    uint64_t ae = a->addr + a->size;
    /* inside a buffer: nothing to skip */
    ck_assert_int_eq(dbg_mem_readable_from(s, PTX_SPACE_GLOBAL, a->addr + 10, 50, 0, 0, 0), 0);
    /* before a: the bytes up to its start, or all when it starts past the range */
    ck_assert_int_eq(dbg_mem_readable_from(s, PTX_SPACE_GLOBAL, a->addr - 8, 16, 0, 0, 0), 8);
    ck_assert_int_eq(dbg_mem_readable_from(s, PTX_SPACE_GLOBAL, a->addr - 8, 5, 0, 0, 0), 5);
    /* from a's end across the gap to b, whatever the alignment of the start */
    for (uint64_t at = ae; at < ae + 300 && at < b->addr; at += 37)
        ck_assert_int_eq(dbg_mem_readable_from(s, PTX_SPACE_GLOBAL, at, 1 << 20, 0, 0, 0),
                         (int64_t)(b->addr - at));
    /* past b: nothing in the range */
    ck_assert_int_eq(dbg_mem_readable_from(s, PTX_SPACE_GLOBAL, b->addr + b->size, 4096, 0, 0, 0),
                     4096);
    /* dbg_mem_read stops at the first unreadable byte */
    uint8_t buf[64];
    ck_assert_int_eq(dbg_mem_read(s, PTX_SPACE_GLOBAL, ae - 4, buf, sizeof buf, 0, 0, 0), 4);
    dbg_free(s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dap");
    TCase *t = tcase_create("dap");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, json_values);
    tcase_add_test(t, json_malformed);
    tcase_add_test(t, json_depth_bounded);
    tcase_add_test(t, json_many_values);
    tcase_add_test(t, json_writer);
    tcase_add_test(t, json_writer_utf8);
    tcase_add_test(t, framing_messages);
    tcase_add_test(t, framing_errors_recover);
    tcase_add_test(t, framing_bounds);
    tcase_add_test(t, framing_write_read);
    tcase_add_test(t, mem_readable_from);
    suite_add_tcase(s, t);
    return tu_run_suite(s);
}
