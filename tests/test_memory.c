/* test_memory.c - state spaces: bounds checks in every space, generic windows, vectors, sub-word loads, watchpoints. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core_harness.h"

/* One kernel, many ways to fault: `mode` picks the access. */
static const char *k_faults = HDR
    ".global .align 4 .b32 gv[4] = {1, 2, 3, 4};\n"
    ".global .align 8 .u64 gp = generic(gv);\n"
    ".const .align 4 .b32 cv[2] = {10, 20};\n"
    ".visible .entry k(.param .u64 buf, .param .u32 mode)\n{\n"
    " .shared .align 4 .b32 sm[8];\n"
    " .local .align 4 .b8 __local_depot0[16];\n"
    " .reg .b32 %r<10>; .reg .b64 %rd<10>; .reg .pred %p<12>; .reg .b64 %SPL;\n"
    " ld.param.u64 %rd1, [buf];\n"
    " ld.param.u32 %r1, [mode];\n"
    " mov.u64 %SPL, __local_depot0;\n"
    " mov.u32 %r2, %tid.x;\n"
    " setp.eq.u32 %p1, %r1, 1;\n"
    " @%p1 ld.global.u32 %r3, [%rd1+4096];\n"    /* past the 64-byte buffer's padding */
    " setp.eq.u32 %p2, %r1, 2;\n"
    " @%p2 st.global.u32 [%rd1+2], %r2;\n"       /* misaligned */
    " setp.eq.u32 %p3, %r1, 3;\n"
    " @%p3 ld.shared.u32 %r3, [sm+32];\n"        /* past the shared block */
    " setp.eq.u32 %p4, %r1, 4;\n"
    " @%p4 ld.local.u32 %r3, [%SPL+16];\n"       /* above the stack top */
    " setp.eq.u32 %p5, %r1, 5;\n"
    " mov.u64 %rd2, cv;\n"
    " cvta.const.u64 %rd3, %rd2;\n"
    " @%p5 st.u32 [%rd3], %r2;\n"               /* generic store into const */
    " setp.eq.u32 %p6, %r1, 6;\n"
    " @%p6 ld.global.u32 %r3, [gv+-4];\n"        /* before the first region (before a
                                                    later one is its neighbour's padding) */
    " setp.eq.u32 %p7, %r1, 7;\n"
    " @%p7 ld.u32 %r3, [0];\n"                   /* null */
    " setp.eq.u32 %p8, %r1, 0;\n"
    " @!%p8 ret;\n"
    /* mode 0: every space works */
    " ld.global.u64 %rd4, [gp];\n"
    " ld.u32 %r4, [%rd4+8];\n"                   /* gv[2] through the relocated pointer */
    " ld.const.u32 %r5, [cv+4];\n"
    " st.shared.u32 [sm+4], %r4;\n"
    " mov.u64 %rd5, sm;\n"
    " cvta.shared.u64 %rd6, %rd5;\n"
    " ld.u32 %r6, [%rd6+4];\n"                   /* generic read of shared */
    " st.local.u32 [%SPL+12], %r5;\n"
    " cvta.local.u64 %rd7, %SPL;\n"
    " ld.u32 %r7, [%rd7+12];\n"                  /* generic read of local */
    " isspacep.shared %p9, %rd6;\n"
    " isspacep.local %p10, %rd7;\n"
    " isspacep.global %p11, %rd1;\n"
    " selp.u32 %r8, 1, 0, %p9;\n"
    " selp.u32 %r9, 2, 0, %p10;\n"
    " add.s32 %r8, %r8, %r9;\n"
    " selp.u32 %r9, 4, 0, %p11;\n"
    " add.s32 %r8, %r8, %r9;\n"
    " cvta.to.shared.u64 %rd8, %rd6;\n"
    " cvt.u32.u64 %r9, %rd8;\n"
    " mul.wide.u32 %rd9, %r2, 16; add.s64 %rd9, %rd1, %rd9;\n"
    " st.global.v4.u32 [%rd9], {%r4, %r6, %r7, %r8};\n"
    " ret;\n}\n";

typedef struct { uint64_t buf; uint32_t mode, pad; } fparams;

static exec_stop run_mode(T *t, uint32_t mode, uint64_t *buf)
{
    ck_assert_msg(t_load(t, k_faults) == 0, "%s", t->err);
    fparams p = { t_buf(t, 64), mode, 0 };
    *buf = p.buf;
    t_launch(t, "k", 1, 4, &p, 12);
    return t_run(t);
}

START_TEST(test_spaces_ok)
{
    T t;
    uint64_t buf;
    exec_stop st = run_mode(&t, 0, &buf);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    uint32_t v[4][4];
    t_read(&t, buf, v, sizeof v);
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq(v[i][0], 3);
        ck_assert_uint_eq(v[i][1], 3);
        ck_assert_uint_eq(v[i][2], 20);
        ck_assert_uint_eq(v[i][3], 7);
    }
    ptx_space sp;
    uint64_t a, sz;
    ck_assert_int_eq(exec_symbol_addr(t.m, "gv", &sp, &a, &sz), 0);
    ck_assert_int_eq(sp, PTX_SPACE_GLOBAL);
    ck_assert_uint_eq(sz, 16);
    uint64_t gp;
    ck_assert_int_eq(exec_symbol_addr(t.m, "gp", &sp, &gp, NULL), 0);
    uint64_t val;
    t_read(&t, gp, &val, 8);
    ck_assert_uint_eq(val, a);
    char d[128];
    exec_addr_describe(t.m, PTX_SPACE_GLOBAL, a + 4, d, sizeof d);
    ck_assert_str_eq(d, "gv+4");
    t_free(&t);
}
END_TEST

START_TEST(test_faults)
{
    static const struct { uint32_t mode; exec_exc e; ptx_space sp; const char *text; } c[] = {
        { 1, EXEC_EXC_OUT_OF_RANGE, PTX_SPACE_GLOBAL, "4032 bytes after the end of buf#" },
        { 2, EXEC_EXC_MISALIGNED, PTX_SPACE_GLOBAL, "misaligned" },
        { 3, EXEC_EXC_OUT_OF_RANGE, PTX_SPACE_SHARED, "shared" },
        { 4, EXEC_EXC_OUT_OF_RANGE, PTX_SPACE_LOCAL, "stack top" },
        { 5, EXEC_EXC_READONLY, PTX_SPACE_CONST, "read-only" },
        { 6, EXEC_EXC_OUT_OF_RANGE, PTX_SPACE_GLOBAL, "4 bytes before gv" },
        { 7, EXEC_EXC_OUT_OF_RANGE, PTX_SPACE_GLOBAL, "0x0" },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        T t;
        uint64_t buf;
        exec_stop st = run_mode(&t, c[i].mode, &buf);
        ck_assert_int_eq(st.kind, EXEC_STOP_EXCEPTION);
        ck_assert_msg(st.exc == c[i].e, "mode %u: exc %d (%s)", c[i].mode, st.exc, st.msg);
        ck_assert_int_eq(st.space, c[i].sp);
        ck_assert_msg(strstr(st.msg, c[i].text) != NULL, "mode %u: %s", c[i].mode, st.msg);
        ck_assert_uint_eq(st.lane, 0);
        ck_assert_uint_eq(st.size, 4);
        if (c[i].mode == 1)
            ck_assert_uint_eq(st.addr, buf + 4096);
        exec_warp_info wi;
        exec_warp_get(t.m, 0, 0, &wi);
        ck_assert_int_eq(wi.stopped, 1);
        t_free(&t);
    }
}
END_TEST

/* Vector loads/stores, sinks, sub-word loads with extension, .b128, ld.param of a byval. */
static const char *k_vec = HDR
    ".visible .entry k(.param .u64 buf, .param .align 8 .b8 s[16])\n{\n"
    " .reg .b32 %r<12>; .reg .b16 %rs<4>; .reg .b64 %rd<6>; .reg .b128 %q1;\n"
    " ld.param.u64 %rd1, [buf];\n"
    " ld.global.v4.u32 {%r1, _, %r3, %r4}, [%rd1];\n"
    " ld.global.s8 %r5, [%rd1+16];\n"
    " ld.global.u8 %r6, [%rd1+16];\n"
    " ld.global.s16 %rd2, [%rd1+18];\n"
    " ld.global.u8 %rs1, [%rd1+17];\n"
    " ld.param.u32 %r7, [s+12];\n"
    " ld.global.b128 %q1, [%rd1+32];\n"
    " st.global.b128 [%rd1+48], %q1;\n"
    " st.global.v2.u32 [%rd1+64], {%r5, %r6};\n"
    " st.global.u64 [%rd1+72], %rd2;\n"
    " st.global.u16 [%rd1+80], %rs1;\n"
    " st.global.u8 [%rd1+82], %r7;\n"          /* truncated to 8 bits */
    " st.global.v4.u32 [%rd1+96], {%r1, %r3, %r4, 9};\n"
    " mov.b64 %rd3, {%r1, %r3};\n"
    " mov.b32 {%rs2, %rs3}, %r4;\n"
    " st.global.u64 [%rd1+112], %rd3;\n"
    " st.global.v2.u16 [%rd1+120], {%rs3, %rs2};\n"
    " ret;\n}\n";

START_TEST(test_vectors_subword)
{
    T t;
    ck_assert_msg(t_load(&t, k_vec) == 0, "%s", t.err);
    uint8_t mem[128];
    for (int i = 0; i < 128; i++)
        mem[i] = (uint8_t)(i * 7 + 0x81);
    uint64_t buf = t_buf(&t, sizeof mem);
    t_write(&t, buf, mem, sizeof mem);
    struct { uint64_t buf; uint32_t s[4]; } p = { buf, { 1, 2, 3, 0x1234 } };
    uint64_t offs[2], sizes[2];
    ck_assert_int_eq(exec_param_layout(ptx_find_func(t.mod, "k"), offs, sizes, 2), 24);
    ck_assert_uint_eq(offs[1], 8);
    t_launch(&t, "k", 1, 1, &p, sizeof p);
    exec_stop st = t_run(&t);
    ck_assert_msg(st.kind == EXEC_STOP_DONE, "%s", st.msg);
    uint8_t r[128];
    t_read(&t, buf, r, sizeof r);
    uint32_t w[4];
    memcpy(w, mem, 16);
    ck_assert_int_eq(memcmp(r + 48, mem + 32, 16), 0);
    uint32_t got[2];
    memcpy(got, r + 64, 8);
    ck_assert_uint_eq(got[0], (uint32_t)(int32_t)(int8_t)mem[16]);
    ck_assert_uint_eq(got[1], mem[16]);
    int16_t h;
    memcpy(&h, mem + 18, 2);
    uint64_t g64;
    memcpy(&g64, r + 72, 8);
    ck_assert_uint_eq(g64, (uint64_t)(int64_t)h);
    ck_assert_uint_eq(r[80], mem[17]);
    ck_assert_uint_eq(r[81], 0);
    ck_assert_uint_eq(r[82], 0x34);
    uint32_t v4[4];
    memcpy(v4, r + 96, 16);
    ck_assert_uint_eq(v4[0], w[0]);
    ck_assert_uint_eq(v4[1], w[2]);
    ck_assert_uint_eq(v4[2], w[3]);
    ck_assert_uint_eq(v4[3], 9);
    uint64_t pk;
    memcpy(&pk, r + 112, 8);
    ck_assert_uint_eq(pk, (uint64_t)w[0] | (uint64_t)w[2] << 32);
    uint16_t hh[2];
    memcpy(hh, r + 120, 4);
    ck_assert_uint_eq(hh[0], w[3] >> 16);
    ck_assert_uint_eq(hh[1], w[3] & 0xffff);
    t_free(&t);
}
END_TEST

/* Watchpoints on global memory stop after the accessing instruction. */
START_TEST(test_watch)
{
    T t;
    uint64_t buf;
    ck_assert_msg(t_load(&t, k_vec) == 0, "%s", t.err);
    buf = t_buf(&t, 128);
    struct { uint64_t buf; uint32_t s[4]; } p = { buf, { 1, 2, 3, 0x1234 } };
    t_launch(&t, "k", 1, 1, &p, sizeof p);
    int id = exec_watch_add(t.m, PTX_SPACE_GLOBAL, buf + 82, 1, 1, UINT32_MAX);
    ck_assert_int_ge(id, 0);
    exec_stop st = t_run(&t);
    ck_assert_int_eq(st.kind, EXEC_STOP_WATCH);
    ck_assert_int_eq(st.watch_id, id);
    ck_assert_uint_eq(st.addr, buf + 82);
    ck_assert_uint_eq(st.new_bytes[0], 0x34);
    ck_assert_uint_eq(st.old_bytes[0], 0);
    ck_assert_int_eq(exec_watch_del(t.m, id), 0);
    st = t_run(&t);
    ck_assert_int_eq(st.kind, EXEC_STOP_DONE);
    t_free(&t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("memory");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_spaces_ok);
    tcase_add_test(tc, test_faults);
    tcase_add_test(tc, test_vectors_subword);
    tcase_add_test(tc, test_watch);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(suite());
}
