/* test_parser_video.c - video operand selectors (.b0 .h1 .b3210 ...) in the parser, and video kernels run end to end. */
#include <stdint.h>
#include <string.h>
#include "exec.h"
#include "test_util.h"

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"
#define SEL(kind, n, digits) ((kind) | (n) << 16 | (digits))

static ptx_module *parse_body(const char *body, ptx_error *err)
{
    static char src[4096];
    snprintf(src, sizeof src, HDR ".visible .entry k()\n{\n .reg .b32 %%r<8>;\n .reg .pred %%p<2>;\n%s\n ret;\n}\n",
             body);
    return ptx_parse(src, strlen(src), "t.ptx", err);
}

START_TEST(test_selectors_scalar)
{
    ptx_error err;
    ptx_module *m = parse_body(" vadd.s32.u32.s32.sat %r1, %r2.b0, %r3.h1;\n"
                               " vabsdiff.s32.s32.s32.sat %r1.h0, %r2.b3, %r3.b2, %r4;\n"
                               " vmad.s32.s32.u32.sat %r0, -%r1, %r2.h0, -%r3;\n", &err);
    ck_assert_msg(m != NULL, "%s", err.msg);
    const ptx_func *f = m->funcs[0];
    const ptx_insn *in = &f->insns[0];
    ck_assert_str_eq(in->opcode, "vadd");
    ck_assert_int_eq(in->nops, 3);
    ck_assert_int_eq(in->ops[0].comp, -1);
    ck_assert_int_eq(in->ops[1].comp, SEL(PTX_SEL_B, 1, 0x0));
    ck_assert_int_eq(in->ops[2].comp, SEL(PTX_SEL_H, 1, 0x1));
    ck_assert_int_eq(PTX_SEL_KIND(in->ops[2].comp), PTX_SEL_H);
    ck_assert_int_eq(PTX_SEL_KIND(in->ops[0].comp), 0);
    in = &f->insns[1];
    ck_assert_int_eq(in->ops[0].comp, SEL(PTX_SEL_H, 1, 0x0));
    ck_assert_int_eq(in->ops[1].comp, SEL(PTX_SEL_B, 1, 0x3));
    ck_assert_int_eq(in->ops[2].comp, SEL(PTX_SEL_B, 1, 0x2));
    ck_assert_int_eq(in->ops[3].comp, -1);
    in = &f->insns[2];
    ck_assert_int_eq(in->ops[1].neg, 1);
    ck_assert_int_eq(in->ops[2].neg, 0);
    ck_assert_int_eq(in->ops[2].comp, SEL(PTX_SEL_H, 1, 0x0));
    ck_assert_int_eq(in->ops[3].neg, 1);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_selectors_simd)
{
    ptx_error err;
    ptx_module *m = parse_body(" vsub4.s32.s32.s32.sat %r1.b0, %r2.b3210, %r3.b7654, %r1;\n"
                               " vmin2.s32.u32.u32.add %r1.h10, %r2.h00, %r3.h22, %r1;\n"
                               " vset4.u32.u32.ne.add %r1.b3210, %r2, %r3.b0716, %r0;\n", &err);
    ck_assert_msg(m != NULL, "%s", err.msg);
    const ptx_insn *in = &m->funcs[0]->insns[0];
    ck_assert_int_eq(in->ops[0].comp, SEL(PTX_SEL_B, 1, 0x0));
    ck_assert_int_eq(in->ops[1].comp, SEL(PTX_SEL_B, 4, 0x3210));
    ck_assert_int_eq(in->ops[2].comp, SEL(PTX_SEL_B, 4, 0x7654));
    ck_assert_int_eq(PTX_SEL_LEN(in->ops[2].comp), 4);
    ck_assert_int_eq(PTX_SEL_DIGIT(in->ops[2].comp, 0), 4);
    ck_assert_int_eq(PTX_SEL_DIGIT(in->ops[2].comp, 3), 7);
    in = &m->funcs[0]->insns[1];
    ck_assert_int_eq(in->ops[0].comp, SEL(PTX_SEL_H, 2, 0x10));
    ck_assert_int_eq(in->ops[1].comp, SEL(PTX_SEL_H, 2, 0x00));
    ck_assert_int_eq(in->ops[2].comp, SEL(PTX_SEL_H, 2, 0x22));
    in = &m->funcs[0]->insns[2];
    ck_assert_int_eq(in->ops[2].comp, SEL(PTX_SEL_B, 4, 0x0716));
    ptx_module_free(m);
}
END_TEST

/* Bad selectors, selectors outside video instructions, whitespace before the selector. */
START_TEST(test_selector_errors)
{
    static const char *const bad[] = {
        " vadd.s32.s32.s32 %r1, %r2.b8, %r3;",
        " vadd.s32.s32.s32 %r1, %r2.h2x, %r3;",
        " vadd2.s32.s32.s32 %r1, %r2.h4, %r3, %r4;",
        " vadd2.s32.s32.s32 %r1, %r2.h012, %r3, %r4;",
        " vadd4.s32.s32.s32 %r1, %r2.b01234, %r3, %r4;",
        " vadd.s32.s32.s32 %r1, %r2 .b0, %r3;",
        " vadd.s32.s32.s32 %r1, %r2.c0, %r3;",
        " add.u32 %r1, %r2.b0, 1;",
        " mov.b32 %r1, %r2.h1;",
        " vote.all.pred %p1, %p0.b0;",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        ptx_error err;
        ptx_module *m = parse_body(bad[k], &err);
        ck_assert_msg(m == NULL, "parsed: %s", bad[k]);
        ck_assert_msg(strstr(err.msg, "error") != NULL, "%s: %s", bad[k], err.msg);
    }
}
END_TEST

/* ---- end to end: parse, load (decode), launch and run ------------------------------------- */
static const char *k_video = HDR
    ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
    " .reg .b32 %r<20>; .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [in];\n"
    " ld.param.u64 %rd2, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " mul.wide.u32 %rd3, %r1, 12;\n"
    " add.s64 %rd4, %rd1, %rd3;\n"
    " ld.global.u32 %r2, [%rd4];\n"        /* a */
    " ld.global.u32 %r3, [%rd4+4];\n"      /* b */
    " ld.global.u32 %r4, [%rd4+8];\n"      /* c */
    " vadd4.u32.u32.u32.sat %r5, %r2, %r3, %r4;\n"
    " vabsdiff4.u32.u32.u32.add %r6, %r2, %r3, %r4;\n"
    " vmad.s32.s32.s32 %r7, %r2.h0, -%r3.h1, %r4;\n"
    " vset.u32.u32.lt %r8.b2, %r2, %r3, %r4;\n"
    " vshl.u32.u32.u32.clamp.sat %r9, %r2.b1, %r3.b0;\n"
    " vmax2.s32.s32.s32 %r10.h1, %r2.h01, %r3, %r4;\n"
    " vsub.s32.s32.s32.sat.min %r11, %r2, %r3, %r4;\n"
    " mul.wide.u32 %rd5, %r1, 32;\n"
    " add.s64 %rd6, %rd2, %rd5;\n"
    " st.global.v4.u32 [%rd6], {%r5, %r6, %r7, %r8};\n"
    " st.global.u32 [%rd6+16], %r9;\n"
    " st.global.u32 [%rd6+20], %r10;\n"
    " st.global.u32 [%rd6+24], %r11;\n"
    " ret;\n}\n";

static uint32_t byte_of(uint32_t v, int k) { return v >> (8 * k) & 0xff; }
static int32_t shalf(uint32_t v, int k) { return (int16_t)(uint16_t)(v >> (16 * k)); }

START_TEST(test_e2e_video)
{
    enum { N = 64 };
    ptx_error pe;
    char err[1024];
    ptx_module *mod = ptx_parse(k_video, strlen(k_video), "t.ptx", &pe);
    ck_assert_msg(mod != NULL, "%s", pe.msg);
    exec_machine *m = exec_new(mod, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    uint32_t in[N * 3], out[N * 8];
    uint64_t s = 12345;
    for (int i = 0; i < N * 3; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        in[i] = (uint32_t)(s >> 32);
    }
    in[0] = 0xff7f0180u; in[1] = 0x01ff7f80u; in[2] = 0x00000010u;
    uint64_t din, dout;
    ck_assert_int_eq(exec_global_alloc(m, sizeof in, &din), 0);
    ck_assert_int_eq(exec_global_alloc(m, sizeof out, &dout), 0);
    ck_assert_int_eq(exec_mem_write(m, PTX_SPACE_GLOBAL, din, in, sizeof in, 0, 0, 0), 0);
    uint64_t params[2] = { din, dout };
    exec_dim3 g = { 1, 1, 1 }, b = { N, 1, 1 };
    ck_assert_msg(exec_launch(m, ptx_find_func(mod, "k"), g, b, 0, params, sizeof params) == 0,
                  "%s", exec_errmsg(m));
    exec_run_opts o;
    exec_stop st;
    memset(&o, 0, sizeof o);
    o.max_steps = 1000000;
    ck_assert_int_eq(exec_run(m, &o, &st), 0);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "stop %d at pc %u: %s", (int)st.kind, st.pc, st.msg);
    ck_assert_int_eq(exec_mem_read(m, PTX_SPACE_GLOBAL, dout, out, sizeof out, 0, 0, 0), 0);
    for (int i = 0; i < N; i++) {
        uint32_t a = in[3 * i], bb = in[3 * i + 1], c = in[3 * i + 2], want;
        const uint32_t *r = &out[8 * i];
        /* vadd4.u32 sat: per byte min(a + b, 255) */
        want = 0;
        for (int k = 0; k < 4; k++) {
            uint32_t x = byte_of(a, k) + byte_of(bb, k);
            want |= (x > 255 ? 255 : x) << (8 * k);
        }
        ck_assert_uint_eq(r[0], want);
        /* vabsdiff4 accumulate: c + sum |a_k - b_k| */
        want = c;
        for (int k = 0; k < 4; k++)
            want += byte_of(a, k) > byte_of(bb, k) ? byte_of(a, k) - byte_of(bb, k)
                                                   : byte_of(bb, k) - byte_of(a, k);
        ck_assert_uint_eq(r[1], want);
        /* vmad: a.h0 * -(b.h1) + c, all signed */
        ck_assert_uint_eq(r[2], (uint32_t)((int64_t)shalf(a, 0) * -(int64_t)shalf(bb, 1) + (int32_t)c));
        /* vset.lt merged into byte 2 of c */
        ck_assert_uint_eq(r[3], (c & 0xff00ffffu) | (uint32_t)(a < bb) << 16);
        /* vshl clamp sat: byte 1 of a << min(byte 0 of b, 32), clamped to u32 */
        {
            uint32_t n = byte_of(bb, 0) > 32 ? 32 : byte_of(bb, 0);
            uint64_t v = byte_of(a, 1);
            uint64_t x = n >= 32 ? (v ? UINT64_MAX : 0) : v << n;
            ck_assert_uint_eq(r[4], x > 0xffffffffu ? 0xffffffffu : (uint32_t)x);
        }
        /* vmax2 with a's halves swapped, only h1 written, h0 from c */
        {
            int32_t hi = shalf(a, 0) > shalf(bb, 1) ? shalf(a, 0) : shalf(bb, 1);
            ck_assert_uint_eq(r[5], ((uint32_t)hi & 0xffff) << 16 | (c & 0xffff));
        }
        /* vsub sat then min with c (signed) */
        {
            int64_t d = (int64_t)(int32_t)a - (int32_t)bb;
            d = d > INT32_MAX ? INT32_MAX : d < INT32_MIN ? INT32_MIN : d;
            int64_t mn = d < (int32_t)c ? d : (int32_t)c;
            ck_assert_uint_eq(r[6], (uint32_t)mn);
        }
    }
    exec_free(m);
    ptx_module_free(mod);
}
END_TEST

/* A video instruction with an invalid form is rejected at load time with its line. */
START_TEST(test_e2e_decode_error)
{
    const char *src = HDR ".visible .entry k()\n{\n .reg .b32 %r<4>;\n"
                      " vadd2.s32.s32.s32.sat.add %r1, %r2, %r3, %r1;\n ret;\n}\n";
    ptx_error pe;
    char err[1024] = "";
    ptx_module *mod = ptx_parse(src, strlen(src), "t.ptx", &pe);
    ck_assert_msg(mod != NULL, "%s", pe.msg);
    exec_machine *m = exec_new(mod, err, sizeof err);
    ck_assert_ptr_null(m);
    ck_assert_msg(strstr(err, ":7:") != NULL, "%s", err);
    ptx_module_free(mod);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("parser_video");
    TCase *tc = tcase_create("parser_video");
    tcase_add_test(tc, test_selectors_scalar);
    tcase_add_test(tc, test_selectors_simd);
    tcase_add_test(tc, test_selector_errors);
    tcase_add_test(tc, test_e2e_video);
    tcase_add_test(tc, test_e2e_decode_error);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
