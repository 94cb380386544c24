/* test_debugger.c - end-to-end debugger checks: batch transcripts compared with expected output. */
#include <stdio.h>
#include <string.h>
#include "run_ptxdbg.h"

/* Each transcript is tests/transcripts/NAME.cmd run on a PTX file of that directory by
 * `./ptxdbg -batch -x`; its stdout must equal NAME.out exactly. */
static const struct { const char *name, *ptx; } transcripts[] = {
    {"diverge", "debug.G.ptx"},   /* breakpoints in divergent code, condition on a thread id,
                                     brkpt in one thread, per-lane values, info warps/lanes */
    {"lanestep", "debug.G.ptx"},  /* stepping one lane, x/i, watchpoint on shared memory */
};

START_TEST(transcript)
{
    const char *name = transcripts[_i].name;
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "./ptxdbg -batch -x tests/transcripts/%s.cmd tests/transcripts/%s 2>/dev/null", name,
             transcripts[_i].ptx);
    rp_check_transcript(name, cmd);
}
END_TEST

START_TEST(batch_exit_status)
{
    /* a failing command makes -batch exit non-zero; the session goes on after it */
    char *out = rp_run("./ptxdbg -batch -ex 'frobnicate' -ex 'echo still here\\n' "
                       "tests/transcripts/debug.G.ptx 2>/dev/null; echo status=$?");
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "still here\nstatus=1\n");
    free(out);
    out = rp_run("./ptxdbg -batch -ex 'buffer o s32 64' -ex 'launch diverge<<<1,64>>>(o, 64)' "
                 "-ex 'continue' -ex 'print o[1]' tests/transcripts/debug.G.ptx 2>&1 >/dev/null; "
                 "echo status=$?");
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "status=0\n");
    free(out);
}
END_TEST


/* `run` restores every buffer to its contents at the launch being rerun, including edits made
 * with `set var` before that launch (and not the contents at `buffer` time, nor edits made
 * after). Expected values: saxpy's y[i] = a * x[i] + y[i], computed here in C. */
START_TEST(run_restores_launch_state)
{
    float x[64], y0[64];
    for (int i = 0; i < 64; i++) {
        x[i] = (float)i;
        y0[i] = 1.0f;
    }
    x[40] = 10.0f;   /* set var x[40] = 10 */
    y0[40] = -3.0f;  /* set var y[40] = -3 */
    const float a = 2.0f;
    char want[512];
    size_t k = 0;
    /* after launch; after run; after set var y[41] = 5 then run (the edit is undone) */
    for (int r = 0; r < 3; r++)
        k += (size_t)snprintf(want + k, sizeof want - k, "$%d = %g\n$%d = %g\n", 2 * r + 1,
                              (double)(a * x[40] + y0[40]), 2 * r + 2,
                              (double)(a * x[41] + y0[41]));
    char *out = rp_run("./ptxdbg -batch -ex 'buffer x f32 64 = iota' -ex 'buffer y f32 64 = fill 1'"
                       " -ex 'set var y[40] = -3' -ex 'set var x[40] = 10'"
                       " -ex 'launch saxpy<<<1,64>>>(64, 2, x, y)' -ex 'print y[40]'"
                       " -ex 'print y[41]' -ex 'run' -ex 'print y[40]' -ex 'print y[41]'"
                       " -ex 'set var y[41] = 5' -ex 'run' -ex 'print y[40]' -ex 'print y[41]'"
                       " examples/saxpy.ptx 2>&1");
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, want);
    free(out);
}
END_TEST

/* IEEE binary16 bits of a float that is exactly representable as a normal half (the spec's
 * encoding: sign, exponent biased by 15, the top 10 fraction bits). */
static unsigned half_bits(float f)
{
    unsigned u;
    memcpy(&u, &f, 4);
    unsigned sign = u >> 31, exp = (u >> 23) & 0xff, frac = u & 0x7fffff;
    return sign << 15 | (exp - 127 + 15) << 10 | frac >> 13;
}

/* The standalone PTX REPL: f16 results show their bits, registers set by typed PTX can be
 * printed, and the carry flag goes from one line to the next (add.cc then addc). */
START_TEST(repl_standalone_state)
{
    char want[512];
    unsigned long long sum = 0xffffffffull + 1ull; /* add.cc.u32: carry out of bit 31 */
    unsigned carry = (unsigned)(sum >> 32), low = (unsigned)sum;
    snprintf(want, sizeof want, "%%h1 = 2.75  (0x%x)\n%%r2 = %u  (0x%x)\n%%r3 = %u  (0x%x)\n"
             "$1 = %u\n$2 = 2.75\n", half_bits(2.75f), low, low, carry, carry, carry);
    char *out = rp_run("./ptxdbg -batch -ex '.reg .f16 %h<4>' -ex 'cvt.rn.f16.f32 %h1, 2.75'"
                       " -ex 'mov.u32 %r1, 0xffffffff' -ex 'add.cc.u32 %r2, %r1, 1' "
                       "-ex 'addc.u32 %r3, 0, 0' -ex 'print %r3' -ex 'print %h1' 2>&1 "
                       "| grep -v '^%r1 '");
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, want);
    free(out);
}
END_TEST

/* Typed PTX shows each result as the instruction writes it (item: "mul.hi.s32 %r10, -7, 3"
 * printed 4294967295): signed results signed whatever the register's declared type, unsigned
 * ones unsigned, .wide results at twice the width, f16/bf16 pairs as {low, high}, predicates
 * as 0/1. Expected values are computed here in C from the PTX ISA's definitions. */
START_TEST(repl_typed_results)
{
    int32_t mulhi = (int32_t)(((int64_t)-7 * 3) >> 32);           /* mul.hi.s32 */
    uint32_t umulhi = (uint32_t)(((uint64_t)(uint32_t)-7 * 3) >> 32); /* mul.hi.u32 */
    int64_t wide = (int64_t)-3 * 4;                                /* mul.wide.s32 */
    uint32_t addu = (uint32_t)-5 + 2u;                             /* add.u32 into a .s32 */
    int16_t adds16 = (int16_t)(-3 + 1);
    char want[1024];
    snprintf(want, sizeof want,
             "%%r10 = %d  (0x%x)\n%%r11 = %u  (0x%x)\n%%rd1 = %lld  (0x%llx)\n"
             "%%s1 = %u  (0x%x)\n%%rs1 = %d  (0x%x)\n%%b2 = {%g, %g}  (0x%x)\n"
             "%%b2 = {%g, %g}  (0x%x)\n%%p1 = 1\n%%r12 = %u  (0x%x)\n",
             mulhi, (unsigned)mulhi, umulhi, umulhi, (long long)wide, (unsigned long long)wide,
             addu, addu, adds16, (unsigned)(uint16_t)adds16,
             /* f16x2: 0x3c00bc00 holds {-1, 1}; doubled {-2, 2} = 0x4000c000 */
             -2.0, 2.0, half_bits(2.0f) << 16 | half_bits(-2.0f),
             /* bf16x2: 0x3f80bf80 holds {-1, 1} (the top halves of the f32s) */
             -2.0, 2.0, 0x4000c000u, 32u, 32u);
    char *out = rp_run("./ptxdbg -batch -ex '.reg .b32 %r<20>' -ex '.reg .b64 %rd<4>' "
                       "-ex '.reg .s32 %s<2>' -ex '.reg .b16 %rs<2>' -ex '.reg .pred %p<2>' "
                       "-ex '.reg .b32 %b<3>' -ex 'mul.hi.s32 %r10, -7, 3' "
                       "-ex 'mul.hi.u32 %r11, -7, 3' -ex 'mul.wide.s32 %rd1, -3, 4' "
                       "-ex 'add.u32 %s1, -5, 2' -ex 'add.s16 %rs1, -3, 1' "
                       "-ex 'mov.b32 %b1, 0x3c00bc00' -ex 'add.f16x2 %b2, %b1, %b1' "
                       "-ex 'mov.b32 %b1, 0x3f80bf80' -ex 'add.rn.bf16x2 %b2, %b1, %b1' "
                       "-ex 'setp.lt.s32 %p1, -1, 0' -ex 'popc.b32 %r12, -1' 2>&1 "
                       "| grep -v '^%b1 '");
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, want);
    free(out);
}
END_TEST

/* Typed PTX whose opcode is also a command's name (set, the PTX instruction, was taken for gdb's
 * `set` command: "Undefined set command"): the value as the PTX ISA defines it, computed here
 * (set with an integer destination writes 0xffffffff for true, 0 for false). */
START_TEST(repl_command_named_opcodes)
{
    char want[256];
    snprintf(want, sizeof want, "%%r7 = %d  (0x%x)\n%%r8 = %u  (0x%x)\n", -1, 0xffffffffu,
             0u, 0u);
    char *out = rp_run("./ptxdbg -batch -ex '.reg .b32 %r<10>' "
                       "-ex 'set.lt.s32.s32 %r7, -1, 0;' -ex 'set.lt.u32.u32 %r8, -1, 0;' "
                       "-ex 'set confirm off' 2>&1");
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, want);
    free(out);
}
END_TEST

/* gdb's MI front ends: every spelling gets the same message naming ptxdbg's protocols and
 * status 2 (it said "doesn't allow an argument" for =mi and "unrecognized" alone); the
 * console interpreter is ptxdbg itself. */
/* gdb records every printed value in the history, void ones too ($1 = void, then $2 = 5): the
 * void value was shown as $1 and not kept, so the next one was $1 again */
START_TEST(void_history)
{
    int st = -1;
    char *out = rp_run_status("./ptxdbg -q -batch -ex 'print $_exitcode' -ex 'print 5' "
                              "-ex 'print $$' 2>&1", &st);
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "$1 = void\n$2 = 5\n$3 = void\n");
    free(out);
}
END_TEST

/* gdb's show values: the last ten history values, ten centered on N, the ten after them (+) */
START_TEST(show_values)
{
    int st = -1;
    char cmd[2048] = "./ptxdbg -q -batch";
    for (int i = 1; i <= 12; i++)
        snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), " -ex 'print %d * 10'", i);
    snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd),
             " -ex 'show values' -ex 'show values 3' -ex 'show values +' 2>&1");
    char *out = rp_run_status(cmd, &st);
    ck_assert_ptr_nonnull(out);
    char want[2048] = "";
    for (int i = 1; i <= 12; i++)   /* the prints */
        snprintf(want + strlen(want), sizeof want - strlen(want), "$%d = %d\n", i, i * 10);
    for (int i = 3; i <= 12; i++)   /* show values: $3..$12 */
        snprintf(want + strlen(want), sizeof want - strlen(want), "$%d = %d\n", i, i * 10);
    for (int i = 1; i <= 10; i++)   /* show values 3: from $1 (3 - 5, clamped) */
        snprintf(want + strlen(want), sizeof want - strlen(want), "$%d = %d\n", i, i * 10);
    for (int i = 11; i <= 12; i++)  /* show values +: the rest */
        snprintf(want + strlen(want), sizeof want - strlen(want), "$%d = %d\n", i, i * 10);
    ck_assert_str_eq(out, want);
    free(out);
}
END_TEST

START_TEST(interpreter_option)
{
    static const char *const forms[] = {"--interpreter=mi", "--interpreter", "-i=mi2",
                                        "--interpreter mi3", "-interpreter=mi"};
    const char *want = "ptxdbg has no MI interpreter; use --dap (Debug Adapter Protocol) or "
                       "--json\n";
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        char cmd[256];
        int st = -1;
        snprintf(cmd, sizeof cmd, "./ptxdbg %s </dev/null 2>&1", forms[i]);
        char *out = rp_run_status(cmd, &st);
        ck_assert_ptr_nonnull(out);
        ck_assert_msg(!strcmp(out, want), "%s: %s", forms[i], out);
        ck_assert_int_eq(st, 2);
        free(out);
    }
    int st = -1;
    char *out = rp_run_status("./ptxdbg -q --interpreter=console -batch -ex 'print 1+1' 2>&1",
                              &st);
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "$1 = 2\n");
    ck_assert_int_eq(st, 0);
    free(out);
    /* an interpreter gdb does not have either: named as gdb does */
    out = rp_run_status("./ptxdbg --interpreter=tui </dev/null 2>&1", &st);
    ck_assert_ptr_nonnull(out);
    ck_assert_msg(strstr(out, "Interpreter `tui' unrecognized") != NULL, "%s", out);
    ck_assert_int_eq(st, 2);
    free(out);
    /* gdb 14's --interpreter=dap is the debug adapter (--dap): it answers initialize */
    out = rp_run_status("printf 'Content-Length: 64\\r\\n\\r\\n{\"seq\":1,\"type\":\"request\","
                        "\"command\":\"initialize\",\"arguments\":{}}' | "
                        "./ptxdbg --interpreter=dap 2>&1", &st);
    ck_assert_ptr_nonnull(out);
    ck_assert_msg(strstr(out, "\"command\":\"initialize\"") && strstr(out, "\"success\":true"),
                  "%s", out);
    free(out);
}
END_TEST

/* At a stop, typed PTX runs on a scratch copy of the focused lane's registers and reads the
 * real memory: changing a_ (%f1) there changes neither %f1 nor the kernel's result; ld.global
 * reads the buffers, ld.shared the CTA's shared memory; stores are refused. */
START_TEST(eval_session_model)
{
    char want[512];
    float x3 = 3.0f, y4 = 1.0f, y5 = 2.0f * 5.0f + 1.0f; /* iota x, y = 1, a = 2 */
    snprintf(want, sizeof want, "%%f1 = 100  (0x42c80000)\n$1 = 2\n%%f2 = %g  (0x40400000)\n"
             "%%f2 = %g  (0x3f800000)\n$2 = %g\n", (double)x3, (double)y4, (double)y5);
    char *out = rp_run("./ptxdbg -batch -ex 'buffer x f32 64 = iota' -ex 'buffer y f32 64 = fill 1'"
                       " -ex 'break saxpy.cu:6' -ex 'launch saxpy<<<1,64>>>(64, 2, x, y)'"
                       " -ex 'cuda lane 5' -ex 'eval mov.f32 %f1, 100' -ex 'print %f1'"
                       " -ex 'ld.global.f32 %f2, [%rd1+12]' -ex 'ld.f32 %f2, [%rd2+16]'"
                       " -ex 'delete' -ex 'continue' -ex 'print y[5]' examples/saxpy.ptx 2>/dev/null"
                       " | grep -E '^(%|\\$)'");
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, want);
    free(out);
    out = rp_run("./ptxdbg -batch -ex 'buffer x f32 64' -ex 'break saxpy.cu:6'"
                 " -ex 'launch saxpy<<<1,64>>>(64, 2, x, x)' -ex 'eval st.f32 [%rd2], %f1'"
                 " examples/saxpy.ptx 2>&1 >/dev/null");
    ck_assert_ptr_nonnull(out);
    ck_assert_msg(strstr(out, "'st' is refused") != NULL, "%s", out);
    free(out);
    /* shared memory: the address of tile (frame 1), then tile[5] = in[5] + 7 = 12 read by
     * ld.shared from the focused lane's CTA */
    const char *pm = "-ex 'buffer in s32 128 = iota' -ex 'buffer out s32 128' -ex 'break check' "
                     "-ex 'launch trap_range<<<2,64>>>(in, out, 96, 112)' ";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "./ptxdbg -batch %s -ex 'up' -ex 'output/x (long)&tile' "
             "tests/fixtures/postmortem/postmortem.G.ptx 2>/dev/null | tail -c 40", pm);
    out = rp_run(cmd);
    ck_assert_ptr_nonnull(out);
    char *hx = strstr(out, "0x");
    ck_assert_ptr_nonnull(hx);
    unsigned long long tile = strtoull(hx, NULL, 16);
    free(out);
    snprintf(cmd, sizeof cmd, "./ptxdbg -batch %s -ex 'eval ld.shared.u32 %%r1, [0x%llx]' "
             "tests/fixtures/postmortem/postmortem.G.ptx 2>&1 | grep '^%%r1 '", pm, tile + 20);
    out = rp_run(cmd);
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "%r1 = 12  (0xc)\n");
    free(out);
}
END_TEST

/* Vector registers (tests/fixtures/parser/vecregs.ptx): `info registers` shows every element,
 * elements are read by name (%q.w, %q.a), an element past the vector's length is refused, and
 * a whole vector register in an expression asks for an element instead of showing one.
 * Expected values: the fixture's constants and the buffer given ({1.5, 2.25, 3, 4}: q.w =
 * 1.5 + 2.25). */
START_TEST(vector_registers)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s -batch -ex 'buffer b f32 4 = {1.5, 2.25, 3, 4}' "
             "-ex 'launch vecregs<<<1,1>>>(b)' -ex 'break 19' -ex 'run' -ex 'info registers' "
             "-ex 'info registers %%q.a %%v' -ex 'info registers %%v.z' -ex 'print %%v.y + 1' "
             "-ex 'print %%q' -ex 'print b[3]' tests/fixtures/parser/vecregs.ptx 2>&1",
             rp_ptxdbg());
    char *out = rp_run(cmd);
    ck_assert_ptr_nonnull(out);
    static const char *const want[] = {
        "%v.x           0x7                7\n%v.y           0x9                9\n"
        "%q.x           0x3fc00000         1.5\n%q.y           0x40100000         2.25\n"
        "%q.z           0x40400000         3\n%q.w           0x40700000         3.75\n",
        "%q.a           0x40700000         3.75\n%v.x           0x7                7\n"
        "%v.y           0x9                9\n",
        "Invalid register `%v.z'",
        "$1 = 10",
        "%q is a vector register (.v4 .f32): name an element, %q.x .. %q.w",
        "$2 = 3.75",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(out, want[i]), "missing \"%s\" in:\n%s", want[i], out);
    free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("debugger");
    TCase *t = tcase_create("transcripts");
    tcase_set_timeout(t, 60);
    tcase_add_loop_test(t, transcript, 0, (int)(sizeof transcripts / sizeof transcripts[0]));
    tcase_add_test(t, batch_exit_status);
    tcase_add_test(t, run_restores_launch_state);
    tcase_add_test(t, repl_standalone_state);
    tcase_add_test(t, repl_typed_results);
    tcase_add_test(t, repl_command_named_opcodes);
    tcase_add_test(t, interpreter_option);
    tcase_add_test(t, void_history);
    tcase_add_test(t, show_values);
    tcase_add_test(t, eval_session_model);
    tcase_add_test(t, vector_registers);
    suite_add_tcase(s, t);
    return tu_run_suite(s);
}
