/* test_calls.c - calls: recursion, indirect calls, .param ABI, printf, assert, trap, malloc/free. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core_harness.h"

/* C references for the recursion fixture */
static unsigned c_fib(unsigned n) { return n < 2 ? n : c_fib(n - 1) + c_fib(n - 2); }
static unsigned long long c_fact(unsigned n) { return n <= 1 ? 1ull : n * c_fact(n - 1); }
static int c_ack(int m, int n)
{
    if (!m)
        return n + 1;
    if (!n)
        return c_ack(m - 1, 1);
    return c_ack(m - 1, c_ack(m, n - 1));
}

/* nvcc output (tests/fixtures/kernels/recursion.cu): fib, fact, ackermann, quicksort on a
 * local array, both -G and -O3. */
static void run_recursion(const char *path)
{
    size_t len;
    char *src = tu_read_file(path, &len);
    ck_assert_msg(src != NULL, "cannot read %s", path);
    T t;
    t_open(&t, src);
    free(src);
    enum { N = 64 };
    uint64_t p[5] = { t_buf(&t, N * 4), t_buf(&t, N * 4), t_buf(&t, N * 8), t_buf(&t, N * 4),
                      t_buf(&t, N * 48) };
    int in[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 37 + 11) % 101;
    t_write(&t, p[0], in, sizeof in);
    t_launch(&t, "_Z16recursion_kernelPKiPjPyPiS3_", 2, 32, p, sizeof p);
    t_run_done(&t);
    unsigned fibs[N];
    unsigned long long facts[N];
    int acks[N], sorted[N * 12];
    t_read(&t, p[1], fibs, sizeof fibs);
    t_read(&t, p[2], facts, sizeof facts);
    t_read(&t, p[3], acks, sizeof acks);
    t_read(&t, p[4], sorted, sizeof sorted);
    for (int i = 0; i < N; i++) {
        ck_assert_uint_eq(fibs[i], c_fib((unsigned)in[i] % 15u));
        ck_assert_uint_eq(facts[i], c_fact((unsigned)i % 21u));
        ck_assert_int_eq(acks[i], c_ack(i % 3, i % 4));
        int a[12];
        for (int k = 0; k < 12; k++)
            a[k] = in[(i * 5 + k * 7) % 64] ^ (k * 37);
        for (int x = 0; x < 12; x++)
            for (int y = x + 1; y < 12; y++)
                if (a[y] < a[x]) {
                    int tmp = a[x];
                    a[x] = a[y];
                    a[y] = tmp;
                }
        for (int k = 0; k < 12; k++)
            ck_assert_int_eq(sorted[i * 12 + k], a[k]);
    }
    t_free(&t);
}

START_TEST(test_recursion_G) { run_recursion("tests/fixtures/kernels/recursion.G.ptx"); }
END_TEST
START_TEST(test_recursion_O3) { run_recursion("tests/fixtures/kernels/recursion.O3.ptx"); }
END_TEST

/* Indirect calls through a register, with .callprototype; divergent targets; .reg params. */
static const char *k_indirect = HDR
    ".visible .func (.param .b32 r) twice(.param .b32 a)\n{\n"
    " .reg .b32 %r<3>;\n ld.param.b32 %r1, [a];\n add.s32 %r2, %r1, %r1;\n"
    " st.param.b32 [r], %r2;\n ret;\n}\n"
    ".visible .func (.param .b32 r) square(.param .b32 a)\n{\n"
    " .reg .b32 %r<3>;\n ld.param.b32 %r1, [a];\n mul.lo.s32 %r2, %r1, %r1;\n"
    " st.param.b32 [r], %r2;\n ret;\n}\n"
    ".visible .func (.reg .b32 r) addr(.reg .b32 a, .reg .b32 b)\n{\n"
    " add.s32 r, a, b;\n ret;\n}\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .pred %p<2>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " and.b32 %r2, %r1, 1;\n"
    " setp.eq.u32 %p1, %r2, 0;\n"
    " mov.u64 %rd2, twice;\n"
    " mov.u64 %rd3, square;\n"
    " selp.b64 %rd4, %rd2, %rd3, %p1;\n"
    " {\n"
    " .param .b32 p0;\n .param .b32 r0;\n"
    " st.param.b32 [p0], %r1;\n"
    "proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    " call (r0), %rd4, (p0), proto;\n"
    " ld.param.b32 %r3, [r0];\n"
    " }\n"
    " call (%r4), addr, (%r3, 1000);\n"
    " mul.wide.u32 %rd5, %r1, 4;\n"
    " add.s64 %rd6, %rd1, %rd5;\n"
    " st.global.u32 [%rd6], %r4;\n"
    " ret;\n}\n";

START_TEST(test_indirect_calls)
{
    T t;
    t_open(&t, k_indirect);
    uint64_t out = t_buf(&t, 32 * 4);
    t_launch(&t, "k", 1, 32, &out, 8);
    t_run_done(&t);
    uint32_t v[32];
    t_read(&t, out, v, sizeof v);
    for (unsigned i = 0; i < 32; i++)
        ck_assert_uint_eq(v[i], (i % 2 == 0 ? 2 * i : i * i) + 1000);
    t_free(&t);
}
END_TEST

/* Backtrace inside a call: stop at a breakpoint in the callee. */
START_TEST(test_backtrace)
{
    T t;
    t_open(&t, k_indirect);
    uint64_t out = t_buf(&t, 32 * 4);
    t_launch(&t, "k", 1, 32, &out, 8);
    const ptx_func *sq = ptx_find_func(t.mod, "square");
    int64_t pc = exec_func_pc(t.m, sq);
    ck_assert_int_ge(pc, 0);
    ck_assert_int_eq(exec_set_break(t.m, (uint32_t)pc + 1, 1), 0);
    exec_stop st = t_run(&t);
    ck_assert_int_eq(st.kind, EXEC_STOP_BREAKPOINT);
    ck_assert_uint_eq(st.lanes, 0xaaaaaaaau);
    exec_frame fr[4];
    ck_assert_int_eq(exec_backtrace(t.m, 0, 0, 3, fr, 4), 2);
    ck_assert_ptr_eq(fr[0].func, sq);
    ck_assert_uint_eq(fr[0].pc, (uint32_t)pc + 1);
    ck_assert_str_eq(fr[1].func->sym->name, "k");
    uint64_t bits;
    ck_assert_int_eq(exec_reg_get(t.m, 0, 0, 3, 0, "%r1", &bits, NULL), 0);
    ck_assert_uint_eq(bits, 3);
    exec_lane_info li;
    exec_lane_get(t.m, 0, 0, 3, &li);
    ck_assert_int_eq(li.depth, 1);
    st = t_run(&t);
    ck_assert_int_eq(st.kind, EXEC_STOP_DONE);
    t_free(&t);
}
END_TEST

/* Build ".global .align 1 .b8 NAME[n] = {...};" for a C string. */
static void str_var(char *out, size_t n, const char *name, const char *s)
{
    size_t k = (size_t)snprintf(out, n, ".global .align 1 .b8 %s[%zu] = {", name, strlen(s) + 1);
    for (size_t i = 0; i <= strlen(s); i++)
        k += (size_t)snprintf(out + k, n - k, "%s%u", i ? "," : "", (unsigned char)s[i]);
    snprintf(out + k, n - k, "};\n");
}

#define PRINTF_FMT "t%d: x=%5d f=%.3f e=%e s=%s c=%c ll=%lld h=%#x|%-4u|\n"

START_TEST(test_printf)
{
    char fmt[1024], s2[256], src[8192];
    str_var(fmt, sizeof fmt, "$str", PRINTF_FMT);
    str_var(s2, sizeof s2, "$str1", "hello");
    snprintf(src, sizeof src, HDR
             ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n"
             "%s%s"
             ".visible .entry k()\n{\n"
             " .local .align 8 .b8 __local_depot0[72];\n"
             " .reg .b32 %%r<8>; .reg .b64 %%rd<10>; .reg .f64 %%fd<3>; .reg .b64 %%SP, %%SPL;\n"
             " mov.u64 %%SPL, __local_depot0;\n"
             " cvta.local.u64 %%SP, %%SPL;\n"
             " mov.u32 %%r1, %%tid.x;\n"
             " st.local.u32 [%%SPL+0], %%r1;\n"
             " mul.lo.s32 %%r2, %%r1, -7;\n"
             " st.local.u32 [%%SPL+4], %%r2;\n"
             " cvt.rn.f64.s32 %%fd1, %%r2;\n"
             " div.rn.f64 %%fd2, %%fd1, 3.0;\n"
             " st.local.f64 [%%SPL+8], %%fd2;\n"
             " st.local.f64 [%%SPL+16], %%fd2;\n"
             " mov.u64 %%rd1, $str1;\n"
             " cvta.global.u64 %%rd2, %%rd1;\n"
             " st.local.u64 [%%SPL+24], %%rd2;\n"
             " add.s32 %%r3, %%r1, 65;\n"
             " st.local.u32 [%%SPL+32], %%r3;\n"
             " mul.wide.s32 %%rd3, %%r2, 1000000007;\n"
             " st.local.u64 [%%SPL+40], %%rd3;\n"
             " st.local.u32 [%%SPL+48], %%r1;\n"
             " st.local.u32 [%%SPL+52], %%r1;\n"
             " mov.u64 %%rd4, $str;\n"
             " cvta.global.u64 %%rd5, %%rd4;\n"
             " {\n .param .b64 p0;\n .param .b64 p1;\n .param .b32 r0;\n"
             " st.param.b64 [p0], %%rd5;\n st.param.b64 [p1], %%SP;\n"
             " call.uni (r0), vprintf, (p0, p1);\n ld.param.b32 %%r4, [r0];\n }\n"
             " ret;\n}\n", fmt, s2);
    T t;
    t_open(&t, src);
    FILE *out = tmpfile();
    exec_set_output(t.m, out);
    t_launch(&t, "k", 1, 3, NULL, 0);
    t_run_done(&t);
    char got[2048] = { 0 }, want[2048];
    rewind(out);
    size_t n = fread(got, 1, sizeof got - 1, out);
    got[n] = 0;
    fclose(out);
    size_t k = 0;
    for (int i = 0; i < 3; i++) {
        int x = i * -7;
        k += (size_t)snprintf(want + k, sizeof want - k, PRINTF_FMT, i, x, x / 3.0, x / 3.0,
                              "hello", 'A' + i, (long long)x * 1000000007ll, (unsigned)i,
                              (unsigned)i);
    }
    ck_assert_str_eq(got, want);
    t_free(&t);
}
END_TEST

START_TEST(test_assert_trap)
{
    char s1[256], s2[256], s3[256], src[8192];
    str_var(s1, sizeof s1, "$msg", "x");
    str_var(s2, sizeof s2, "$file", "k.cu");
    str_var(s3, sizeof s3, "$func", "void kern(int *)");
    snprintf(src, sizeof src, HDR
             ".extern .func __assertfail(.param .b64 a, .param .b64 b, .param .b32 c,"
             " .param .b64 d, .param .b64 e);\n%s%s%s"
             ".visible .entry k()\n{\n"
             " .reg .b32 %%r<4>; .reg .b64 %%rd<8>; .reg .pred %%p<2>;\n"
             " mov.u32 %%r1, %%tid.x;\n"
             " setp.ne.u32 %%p1, %%r1, 5;\n"
             " @%%p1 bra DONE;\n"
             " mov.u64 %%rd1, $msg; cvta.global.u64 %%rd1, %%rd1;\n"
             " mov.u64 %%rd2, $file; cvta.global.u64 %%rd2, %%rd2;\n"
             " mov.u64 %%rd3, $func; cvta.global.u64 %%rd3, %%rd3;\n"
             " {\n .param .b64 p0; .param .b64 p1; .param .b32 p2; .param .b64 p3; .param .b64 p4;\n"
             " st.param.b64 [p0], %%rd1; st.param.b64 [p1], %%rd2; st.param.b32 [p2], 12;\n"
             " st.param.b64 [p3], %%rd3; st.param.b64 [p4], 1;\n"
             " call.uni __assertfail, (p0, p1, p2, p3, p4);\n }\n"
             "DONE:\n ret;\n}\n"
             ".visible .entry tr()\n{\n .reg .b32 %%r<2>; .reg .pred %%p<2>;\n"
             " mov.u32 %%r1, %%tid.x;\n setp.gt.u32 %%p1, %%r1, 29;\n @%%p1 trap;\n ret;\n}\n",
             s1, s2, s3);
    T t;
    t_open(&t, src);
    t_launch(&t, "k", 1, 32, NULL, 0);
    exec_stop st = t_run(&t);
    ck_assert_int_eq(st.kind, EXEC_STOP_ASSERT);
    ck_assert_str_eq(st.msg, "k.cu:12: void kern(int *): block: [0,0,0], thread: [5,0,0] "
                             "Assertion `x` failed.");
    ck_assert_uint_eq(st.lanes, 1u << 5);
    exec_lane_info li;
    exec_lane_get(t.m, 0, 0, 5, &li);
    ck_assert_int_eq(li.state, EXEC_LANE_TRAPPED);
    /* the launch is over: running again reports the same stop */
    exec_stop st2 = t_run(&t);
    ck_assert_int_eq(st2.kind, EXEC_STOP_ASSERT);
    t_launch(&t, "tr", 1, 32, NULL, 0);
    st = t_run(&t);
    ck_assert_int_eq(st.kind, EXEC_STOP_TRAP);
    ck_assert_uint_eq(st.lanes, 0xc0000000u);
    t_free(&t);
}
END_TEST

static const char *k_malloc = HDR
    ".extern .func (.param .b64 r) malloc(.param .b64 a);\n"
    ".extern .func free(.param .b64 a);\n"
    ".extern .func nobody(.param .b64 a);\n"
    ".visible .entry k(.param .u64 out, .param .u32 mode)\n{\n"
    " .reg .b32 %r<4>; .reg .b64 %rd<8>; .reg .pred %p<3>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " ld.param.u32 %r2, [mode];\n"
    " mov.u32 %r1, %tid.x;\n"
    " { .param .b64 p0; .param .b64 r0; st.param.b64 [p0], 16;\n"
    "   call.uni (r0), malloc, (p0); ld.param.b64 %rd2, [r0]; }\n"
    " st.u32 [%rd2+12], %r1;\n"
    " ld.u32 %r3, [%rd2+12];\n"
    " mul.wide.u32 %rd3, %r1, 4; add.s64 %rd4, %rd1, %rd3; st.global.u32 [%rd4], %r3;\n"
    " setp.eq.u32 %p1, %r2, 1;\n"
    " @%p1 st.u32 [%rd2+16], %r1;\n"
    " setp.eq.u32 %p2, %r2, 2;\n"
    " @%p2 add.s64 %rd2, %rd2, 4;\n"
    " setp.eq.u32 %p1, %r2, 3;\n"
    " @%p1 bra NOB;\n"
    " { .param .b64 p0; st.param.b64 [p0], %rd2; call.uni free, (p0); }\n"
    " ret;\n"
    "NOB:\n"
    " { .param .b64 p0; st.param.b64 [p0], %rd2; call.uni nobody, (p0); }\n"
    " ret;\n}\n";

START_TEST(test_malloc_free)
{
    for (uint32_t mode = 0; mode < 4; mode++) {
        T t;
        t_open(&t, k_malloc);
        struct { uint64_t out; uint32_t mode, pad; } p = { t_buf(&t, 32 * 4), mode, 0 };
        t_launch(&t, "k", 1, 32, &p, 12);
        exec_stop st = t_run(&t);
        if (mode == 0) {
            ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
            uint32_t v[32];
            t_read(&t, p.out, v, sizeof v);
            for (unsigned i = 0; i < 32; i++)
                ck_assert_uint_eq(v[i], i);
        } else if (mode == 1) {
            /* one past a 16-byte malloc: inside the 256 + 240 bytes a GPU maps with it
               (exec_alloc_padding), so it completes, as on a GPU */
            ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
            ck_assert_uint_eq(exec_pad_accesses(t.m), 32);
        } else if (mode == 2) {
            ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
            ck_assert_int_eq(st.exc, EXEC_EXC_MALLOC);
        } else {
            ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
            ck_assert_int_eq(st.exc, EXEC_EXC_ILLEGAL_INSN);
            ck_assert_ptr_nonnull(strstr(st.msg, "nobody"));
        }
        t_free(&t);
    }
}
END_TEST

/* Unbounded recursion: a stack overflow exception, not a host crash. */
static const char *k_deep = HDR
    ".visible .func f(.param .b32 a)\n{\n"
    " .local .align 8 .b8 __local_depot1[256];\n .reg .b32 %r<3>; .reg .b64 %SPL;\n"
    " mov.u64 %SPL, __local_depot1;\n"
    " ld.param.b32 %r1, [a];\n st.local.u32 [%SPL], %r1;\n add.s32 %r2, %r1, 1;\n"
    " { .param .b32 p0; st.param.b32 [p0], %r2; call.uni f, (p0); }\n ret;\n}\n"
    ".visible .entry k()\n{\n"
    " { .param .b32 p0; st.param.b32 [p0], 0; call.uni f, (p0); }\n ret;\n}\n";

START_TEST(test_stack_overflow)
{
    T t;
    t_open(&t, k_deep);
    t_launch(&t, "k", 1, 1, NULL, 0);
    exec_stop st = t_run(&t);
    ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
    ck_assert_int_eq(st.exc, EXEC_EXC_STACK_OVERFLOW);
    t_free(&t);
}
END_TEST

/* Several return values: .reg returns (the form ptxas requires for more than one) and a `_`
 * sink in the return list (divmod: what ptxas accepts). ptxdbg also runs forms ptxas refuses
 * but whose meaning is plain: .param returns through a call sequence (swap), a recursive
 * function with two results (sumto: ptxas has no ABI for it), and vector elements as call
 * arguments (%v.y). Reference: C. */
static const char *k_multiret = HDR
    ".func (.reg .b32 q, .reg .b32 r) divmod(.reg .b32 a, .reg .b32 b)\n{\n"
    " div.u32 q, a, b;\n rem.u32 r, a, b;\n ret;\n}\n"
    ".func (.reg .b32 s, .reg .b32 n) sumto(.reg .b32 k)\n{\n"
    " .reg .pred %p; .reg .b32 %t<3>;\n"
    " setp.eq.u32 %p, k, 0;\n @%p bra Z;\n"
    " sub.u32 %t0, k, 1;\n call (%t1, %t2), sumto, (%t0);\n"
    " add.u32 s, %t1, k;\n add.u32 n, %t2, 1;\n ret;\n"
    "Z:\n mov.u32 s, 0;\n mov.u32 n, 0;\n ret;\n}\n"
    ".func (.param .b32 x, .param .b32 y) swap(.param .b32 a, .param .b32 b)\n{\n"
    " .reg .b32 %u<2>;\n ld.param.b32 %u0, [a];\n ld.param.b32 %u1, [b];\n"
    " st.param.b32 [x], %u1;\n st.param.b32 [y], %u0;\n ret;\n}\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .b32 %r<12>; .reg .b64 %rd<4>; .reg .v2 .b32 %v;\n"
    " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
    " add.u32 %r2, %r1, 1000;\n add.u32 %r3, %r1, 3;\n"
    " call (%r4, %r5), divmod, (%r2, %r3);\n"
    " call (_, %r6), divmod, (%r2, 7);\n"
    " mov.v2.b32 %v, {%r3, %r2};\n call (%r7, _), divmod, (%v.y, %v.x);\n"
    " call (%r8, %r9), sumto, (%r1);\n"
    " {\n .param .b32 pa; .param .b32 pb; .param .b32 px; .param .b32 py;\n"
    " st.param.b32 [pa], %r1; st.param.b32 [pb], %r2;\n"
    " call (px, py), swap, (pa, pb);\n"
    " ld.param.b32 %r10, [px]; ld.param.b32 %r11, [py];\n }\n"
    " mul.wide.u32 %rd2, %r1, 32; add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.v4.u32 [%rd3], {%r4, %r5, %r6, %r7};\n"
    " st.global.v4.u32 [%rd3+16], {%r8, %r9, %r10, %r11};\n"
    " ret;\n}\n";

START_TEST(test_multi_return)
{
    T t;
    t_open(&t, k_multiret);
    uint64_t out = t_buf(&t, 40 * 32);
    t_launch(&t, "k", 1, 40, &out, sizeof out);
    t_run_done(&t);
    uint32_t o[40][8];
    t_read(&t, out, o, sizeof o);
    for (uint32_t l = 0; l < 40; l++) {
        uint32_t a = l + 1000, b = l + 3;
        const uint32_t want[8] = { a / b, a % b, a % 7, a / b, l * (l + 1) / 2, l, a, l };
        for (int i = 0; i < 8; i++)
            ck_assert_msg(o[l][i] == want[i], "thread %u value %d: %u, want %u", l, i,
                          o[l][i], want[i]);
    }
    t_free(&t);
}
END_TEST

/* What ptxas accepts beyond its ABI: whole vector registers as arguments and results
 * (`call (w), f, (v)` with .reg .v2/.v4 parameters) and predicates as arguments and results.
 * Reference: C. */
static const char *k_regargs = HDR
    ".func (.reg .v2 .u32 r) swap2(.reg .v2 .u32 a)\n{\n"
    " mov.u32 r.x, a.y;\n mov.u32 r.y, a.x;\n ret;\n}\n"
    ".func (.reg .v4 .u16 r, .reg .pred odd) rev4(.reg .v4 .u16 a, .reg .pred flip)\n{\n"
    " .reg .b16 %h;\n"
    " mov.u16 r.x, a.w;\n mov.u16 r.y, a.z;\n mov.u16 r.z, a.y;\n mov.u16 r.w, a.x;\n"
    " and.b16 %h, a.x, 1;\n setp.ne.u16 odd, %h, 0;\n"
    " @flip not.pred odd, odd;\n ret;\n}\n"
    ".func (.reg .pred q) neg(.reg .pred p)\n{\n not.pred q, p;\n ret;\n}\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .b32 %r<12>; .reg .b64 %rd<4>; .reg .pred %p<6>;\n"
    " .reg .v2 .u32 %v; .reg .v2 .u32 %w; .reg .v4 .u16 %a; .reg .v4 .u16 %b;\n"
    " .reg .b16 %h<4>;\n"
    " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
    " mov.u32 %v.x, %r1;\n add.u32 %v.y, %r1, 500;\n"
    " call (%w), swap2, (%v);\n"
    " cvt.u16.u32 %a.x, %r1;\n add.u16 %a.y, %a.x, 10;\n add.u16 %a.z, %a.x, 20;\n"
    " add.u16 %a.w, %a.x, 30;\n"
    " setp.gt.u32 %p1, %r1, 20;\n"
    " call (%b, %p2), rev4, (%a, %p1);\n"
    " setp.lt.u32 %p3, %r1, 7;\n call (%p4), neg, (%p3);\n"
    " selp.u32 %r2, 1, 0, %p2;\n selp.u32 %r3, 1, 0, %p4;\n"
    " cvt.u32.u16 %r4, %b.x;\n cvt.u32.u16 %r5, %b.w;\n"
    " mul.wide.u32 %rd2, %r1, 32; add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.v4.u32 [%rd3], {%w.x, %w.y, %r2, %r3};\n"
    " st.global.v2.u32 [%rd3+16], {%r4, %r5};\n"
    " ret;\n}\n";

START_TEST(test_reg_args)
{
    T t;
    t_open(&t, k_regargs);
    uint64_t out = t_buf(&t, 40 * 32);
    t_launch(&t, "k", 1, 40, &out, sizeof out);
    t_run_done(&t);
    uint32_t o[40][8];
    t_read(&t, out, o, sizeof o);
    for (uint32_t l = 0; l < 40; l++) {
        uint32_t odd = (l & 1) ^ (l > 20);
        const uint32_t want[6] = { l + 500, l, odd, l >= 7, l + 30, l };
        for (int i = 0; i < 6; i++)
            ck_assert_msg(o[l][i] == want[i], "thread %u value %d: %u, want %u", l, i,
                          o[l][i], want[i]);
    }
    t_free(&t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("calls");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_recursion_G);
    tcase_add_test(tc, test_recursion_O3);
    tcase_add_test(tc, test_indirect_calls);
    tcase_add_test(tc, test_backtrace);
    tcase_add_test(tc, test_printf);
    tcase_add_test(tc, test_assert_trap);
    tcase_add_test(tc, test_malloc_free);
    tcase_add_test(tc, test_stack_overflow);
    tcase_add_test(tc, test_multi_return);
    tcase_add_test(tc, test_reg_args);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
