/* test_decoder.c - decoder: opcode table, operand resolution and conversions, error messages, pc numbering. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core_harness.h"
#include "exec_insn.h"

START_TEST(test_op_table)
{
    ck_assert_int_ge(exec_op_lookup("ld"), 0);
    ck_assert_str_eq(exec_ops[exec_op_lookup("shfl")].name, "shfl");
    ck_assert_ptr_nonnull(exec_ops[exec_op_lookup("call")].decode);
    /* every row of the table is executable now; a row without a decoder would fail at load */
    for (int i = 0; i < exec_nops; i++)
        ck_assert_msg(exec_ops[i].decode != NULL, "%s has no decoder", exec_ops[i].name);
    ck_assert_int_eq(exec_op_lookup("nosuchop"), -1);
}
END_TEST

static const char *k_unsup = HDR
    ".visible .entry k()\n{\n"
    " .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
    " mov.u32 %r1, 1;\n"
    "   multimem.ld_reduce.relaxed.sys.global.add.u32 %r1, [%rd1];\n"
    " ret;\n}\n";

static const char *k_badmod = HDR
    ".visible .entry k(.param .u64 p)\n{\n"
    " .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
    " ld.param.u64 %rd1, [p];\n"
    " ld.global.frobnicate.u32 %r1, [%rd1];\n"
    " ret;\n}\n";

static const char *k_narrow = HDR
    ".visible .entry k(.param .u64 p)\n{\n"
    " .reg .b16 %rs<4>; .reg .b64 %rd<2>;\n"
    " ld.param.u64 %rd1, [p];\n"
    " st.global.u32 [%rd1], %rs1;\n"
    " ret;\n}\n";

START_TEST(test_errors)
{
    T t;
    ck_assert_int_ne(t_load(&t, k_unsup), 0);
    ck_assert_msg(strstr(t.err, "t.ptx:8:4: error: ") == t.err, "%s", t.err);
    ck_assert_msg(strstr(t.err, "multimem requires multicast memory objects, which ptxdbg does "
                                "not model") != NULL, "%s", t.err);
    ptx_module_free(t.mod);
    ck_assert_int_ne(t_load(&t, k_badmod), 0);
    ck_assert_msg(strstr(t.err, "t.ptx:8:") == t.err, "%s", t.err);
    ck_assert_ptr_nonnull(strstr(t.err, "ld.global.frobnicate.u32: unsupported qualifier .frobnicate"));
    ptx_module_free(t.mod);
    ck_assert_int_ne(t_load(&t, k_narrow), 0);
    ck_assert_ptr_nonnull(strstr(t.err, "st.global.u32"));
    ck_assert_ptr_nonnull(strstr(t.err, "%rs1"));
    ptx_module_free(t.mod);
}
END_TEST

/* Operand resolution: immediates converted to the instruction type, wider registers
 * truncated as sources and extended as destinations, pc numbering across functions. */
static const char *k_ops = HDR
    ".visible .func f()\n{\n ret;\n}\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<6>; .reg .f32 %f<3>; .reg .f64 %fd<2>; .reg .b16 %rs<3>;\n"
    " ld.param.u64 %rd1, [p];\n"
    " mov.f32 %f1, 0f3FC00000;\n"       /* 1.5 by bits */
    " mov.f32 %f2, 2.25;\n"             /* decimal literal converted to f32 */
    " mov.f64 %fd1, 0d4004000000000000;\n" /* 2.5 */
    " mov.b32 %r1, -1;\n"
    " mov.b16 %rs1, 0x1234;\n"
    " mov.u64 %rd2, 0xfedcba9876543210;\n"
    " st.global.f32 [%rd1], %f1;\n"
    " st.global.f32 [%rd1+4], %f2;\n"
    " st.global.f64 [%rd1+8], %fd1;\n"
    " st.global.u32 [%rd1+16], %r1;\n"
    " st.global.u16 [%rd1+20], %rs1;\n"
    " st.global.u32 [%rd1+24], %rd2;\n"   /* 64-bit register truncated to 32 */
    " ld.global.s16 %r2, [%rd1+20];\n"    /* 0x1234 sign-extended (positive) */
    " ld.global.s8 %r3, [%rd1+16];\n"     /* 0xff -> -1 */
    " ld.global.u16 %rd3, [%rd1+16];\n"   /* zero-extended into 64 bits */
    " st.global.v2.u32 [%rd1+32], {%r2, %r3};\n"
    " st.global.u64 [%rd1+40], %rd3;\n"
    " mov.u64 %rd4, f;\n"
    " st.global.u64 [%rd1+48], %rd4;\n"
    " ret;\n}\n";

START_TEST(test_operands)
{
    T t;
    ck_assert_msg(t_load(&t, k_ops) == 0, "%s", t.err);
    ck_assert_int_eq(exec_func_pc(t.m, ptx_find_func(t.mod, "f")), 0);
    ck_assert_int_eq(exec_func_pc(t.m, ptx_find_func(t.mod, "k")), 1);
    const ptx_func *f;
    const ptx_insn *pi;
    ck_assert_int_eq(exec_pc_insn(t.m, 2, &f, &pi), 0);
    ck_assert_str_eq(f->sym->name, "k");
    ck_assert_str_eq(pi->opcode, "mov");
    ck_assert_int_eq(exec_pc_insn(t.m, exec_ninsns(t.m), &f, &pi), -1);
    uint64_t buf = t_buf(&t, 64);
    t_launch(&t, "k", 1, 1, &buf, 8);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    uint8_t r[64];
    t_read(&t, buf, r, sizeof r);
    float f1, f2;
    double d1;
    uint32_t u;
    uint64_t q;
    memcpy(&f1, r, 4);
    memcpy(&f2, r + 4, 4);
    memcpy(&d1, r + 8, 8);
    ck_assert(f1 == 1.5f && f2 == 2.25f && d1 == 2.5);
    memcpy(&u, r + 16, 4);
    ck_assert_uint_eq(u, 0xffffffffu);
    ck_assert_uint_eq(r[20] | r[21] << 8, 0x1234);
    memcpy(&u, r + 24, 4);
    ck_assert_uint_eq(u, 0x76543210u);
    memcpy(&u, r + 32, 4);
    ck_assert_uint_eq(u, 0x1234);
    memcpy(&u, r + 36, 4);
    ck_assert_uint_eq(u, 0xffffffffu);
    memcpy(&q, r + 40, 8);
    ck_assert_uint_eq(q, 0xffff);
    memcpy(&q, r + 48, 8);
    ck_assert_uint_ne(q, 0);
    /* a function address is not data */
    char d[64];
    ck_assert_int_eq(exec_addr_describe(t.m, PTX_SPACE_GLOBAL, q, d, sizeof d), 0);
    t_free(&t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("decoder");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_op_table);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_operands);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
