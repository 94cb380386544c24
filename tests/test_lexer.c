/* test_lexer.c - Check suite for the PTX lexer: token kinds, values, positions, lexical errors. */
#include <string.h>
#include "ptx_lex.h"
#include "test_util.h"

#define MAXT 64
typedef struct {
    ptx_token t[MAXT];
    int n;
    const char *err;
} toks;

static toks lex_all(const char *s)
{
    toks r;
    memset(&r, 0, sizeof r);
    ptx_lexer lx;
    ptx_lex_init(&lx, s, strlen(s));
    for (;;) {
        ck_assert_int_lt(r.n, MAXT);
        ptx_lex_next(&lx, &r.t[r.n]);
        ptx_token *t = &r.t[r.n++];
        if (t->kind == PTX_TK_ERROR)
            r.err = t->msg;
        if (t->kind == PTX_TK_EOF || t->kind == PTX_TK_ERROR)
            break;
    }
    return r;
}

static int text_is(const ptx_token *t, const char *s)
{
    return (size_t)t->len == strlen(s) && memcmp(t->p, s, (size_t)t->len) == 0;
}

START_TEST(test_idents_and_dirs)
{
    toks r = lex_all("ld.global.nc.L1::evict_last.L2::cache_hint.v4.f32 %r1, $L__BB0_2, _;");
    ck_assert_int_eq(r.t[0].kind, PTX_TK_IDENT);
    ck_assert(text_is(&r.t[0], "ld"));
    ck_assert_int_eq(r.t[1].kind, PTX_TK_DIR);
    ck_assert(text_is(&r.t[1], ".global"));
    ck_assert(text_is(&r.t[2], ".nc"));
    ck_assert(text_is(&r.t[3], ".L1::evict_last"));
    ck_assert(text_is(&r.t[4], ".L2::cache_hint"));
    ck_assert(text_is(&r.t[5], ".v4"));
    ck_assert(text_is(&r.t[6], ".f32"));
    ck_assert_int_eq(r.t[6].ws_before, 0);
    ck_assert_int_eq(r.t[7].kind, PTX_TK_IDENT);
    ck_assert(text_is(&r.t[7], "%r1"));
    ck_assert_int_eq(r.t[7].ws_before, 1);
    ck_assert_int_eq(r.t[8].punct, ',');
    ck_assert(text_is(&r.t[9], "$L__BB0_2"));
    ck_assert(text_is(&r.t[11], "_"));
    ck_assert_int_eq(r.t[11].kind, PTX_TK_IDENT);
    ck_assert_int_eq(r.t[12].punct, ';');
    ck_assert_int_eq(r.t[13].kind, PTX_TK_EOF);
}
END_TEST

/* PTX's predefined identifier WARP_SZ (nvcc's warpSize) is the constant 32; longer names that
 * start with it stay identifiers */
START_TEST(test_warp_sz)
{
    toks r = lex_all("mov.u32 %r1, WARP_SZ; WARP_SZX");
    ck_assert_int_eq(r.t[4].kind, PTX_TK_INT);
    ck_assert_uint_eq(r.t[4].ival, 32);
    ck_assert_int_eq(r.t[6].kind, PTX_TK_IDENT);
    ck_assert(text_is(&r.t[6], "WARP_SZX"));
}
END_TEST

START_TEST(test_sreg_component_and_params)
{
    toks r = lex_all("%tid.x %r<5> .shared::cluster .L2::64B .b128 .v8");
    ck_assert(text_is(&r.t[0], "%tid"));
    ck_assert(text_is(&r.t[1], ".x"));
    ck_assert_int_eq(r.t[1].ws_before, 0);
    ck_assert(text_is(&r.t[2], "%r"));
    ck_assert_int_eq(r.t[3].punct, '<');
    ck_assert_int_eq(r.t[4].kind, PTX_TK_INT);
    ck_assert_uint_eq(r.t[4].ival, 5);
    ck_assert_int_eq(r.t[5].punct, '>');
    ck_assert(text_is(&r.t[6], ".shared::cluster"));
    ck_assert(text_is(&r.t[7], ".L2::64B"));
    ck_assert(text_is(&r.t[8], ".b128"));
    ck_assert(text_is(&r.t[9], ".v8"));
}
END_TEST

START_TEST(test_numbers)
{
    toks r = lex_all("0 42 0x1fU 017 0b101 18446744073709551615 0f3F800000 0dBFF0000000000000 "
                     "1.5 2.5e3 1e-2 9.0");
    ck_assert_uint_eq(r.t[0].ival, 0);
    ck_assert_uint_eq(r.t[1].ival, 42);
    ck_assert_int_eq(r.t[1].is_unsigned, 0);
    ck_assert_uint_eq(r.t[2].ival, 31);
    ck_assert_int_eq(r.t[2].is_unsigned, 1);
    ck_assert_uint_eq(r.t[3].ival, 15);
    ck_assert_uint_eq(r.t[4].ival, 5);
    ck_assert(r.t[5].ival == UINT64_MAX);
    ck_assert_int_eq(r.t[6].kind, PTX_TK_FLOAT);
    ck_assert_int_eq(r.t[6].fsize, 32);
    ck_assert(r.t[6].fbits == 0x3F800000u);
    ck_assert(r.t[6].fval == 1.0);
    ck_assert_int_eq(r.t[7].fsize, 64);
    ck_assert(r.t[7].fval == -1.0);
    ck_assert_int_eq(r.t[8].kind, PTX_TK_FLOAT);
    ck_assert(r.t[8].fval == 1.5);
    ck_assert_int_eq(r.t[8].fsize, 64);
    ck_assert(r.t[9].fval == 2500.0);
    ck_assert(r.t[10].fval == 0.01);
    ck_assert(text_is(&r.t[11], "9.0"));
    ck_assert_int_eq(r.t[12].kind, PTX_TK_EOF);
}
END_TEST

START_TEST(test_operators)
{
    toks r = lex_all("a<<2>>1<=b>=c==d!=e&&f||g ? ~h : !i % j | k ^ l & m @ [x+-4]");
    int want[] = {0, PTX_P_SHL, 0, PTX_P_SHR, 0, PTX_P_LE, 0, PTX_P_GE, 0, PTX_P_EQ, 0, PTX_P_NE,
                  0, PTX_P_ANDAND, 0, PTX_P_OROR, 0, '?', '~', 0, ':', '!', 0, '%', 0, '|', 0,
                  '^', 0, '&', 0, '@', '[', 0, '+', '-', 0, ']'};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        if (want[i])
            ck_assert_msg(r.t[i].kind == PTX_TK_PUNCT && r.t[i].punct == want[i], "token %zu", i);
        else
            ck_assert_msg(r.t[i].kind == PTX_TK_IDENT || r.t[i].kind == PTX_TK_INT, "token %zu", i);
    }
}
END_TEST

START_TEST(test_comments_positions)
{
    toks r = lex_all("// line comment\n/* block\n comment */ \tmov /* x */ %r1;\n\"a \\\" b\"");
    ck_assert(text_is(&r.t[0], "mov"));
    ck_assert_int_eq(r.t[0].line, 3);
    ck_assert_int_eq(r.t[0].col, 14);
    ck_assert(text_is(&r.t[1], "%r1"));
    ck_assert_int_eq(r.t[1].col, 26);
    ck_assert_int_eq(r.t[3].kind, PTX_TK_STRING);
    ck_assert_int_eq(r.t[3].line, 4);
    ck_assert(text_is(&r.t[3], "\"a \\\" b\""));
}
END_TEST

START_TEST(test_lex_errors)
{
    ck_assert_str_eq(lex_all("mov /* never closed").err, "unterminated comment");
    ck_assert_str_eq(lex_all("\"open string\nnext").err, "unterminated string");
    ck_assert_str_eq(lex_all("0f123").err, "malformed float literal (0f needs 8 hex digits)");
    ck_assert_str_eq(lex_all("0d12345678").err, "malformed double literal (0d needs 16 hex digits)");
    ck_assert_str_eq(lex_all("99999999999999999999").err, "integer literal too large");
    ck_assert_str_eq(lex_all("0x").err, "malformed hexadecimal literal");
    ck_assert_str_eq(lex_all("09").err, "invalid digit in octal literal");
    ck_assert_str_eq(lex_all("12abc").err, "malformed number");
    ck_assert_str_eq(lex_all("a # b").err, "unexpected character");
    toks r = lex_all("a \x01");
    ck_assert_str_eq(r.err, "invalid character");
    ck_assert_int_eq(r.t[1].col, 3);
}
END_TEST

/* The lexer never reads past the given length, even without a terminating NUL. */
START_TEST(test_no_overread)
{
    const char *srcs[] = {"0f3F80000", "\"abc", "/* x", ".L2::", "%", "0x", "1.", "1e+", "<"};
    for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
        size_t n = strlen(srcs[i]);
        char *buf = malloc(n ? n : 1);
        memcpy(buf, srcs[i], n);
        ptx_lexer lx;
        ptx_lex_init(&lx, buf, n);
        ptx_token t;
        for (int k = 0; k < 10; k++) {
            ptx_lex_next(&lx, &t);
            if (t.kind == PTX_TK_EOF || t.kind == PTX_TK_ERROR)
                break;
        }
        ck_assert(lx.p <= buf + n);
        free(buf);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lexer");
    TCase *tc = tcase_create("lexer");
    tcase_add_test(tc, test_idents_and_dirs);
    tcase_add_test(tc, test_warp_sz);
    tcase_add_test(tc, test_sreg_component_and_params);
    tcase_add_test(tc, test_numbers);
    tcase_add_test(tc, test_operators);
    tcase_add_test(tc, test_comments_positions);
    tcase_add_test(tc, test_lex_errors);
    tcase_add_test(tc, test_no_overread);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
