/* test_source.c - source-level debugging: variables, types, frames, stepping, listing, sources. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run_ptxdbg.h"

/* Transcripts: tests/transcripts/NAME.cmd run by `./ptxdbg -batch -x` on a fixture; stdout must
 * equal NAME.out. Every expected value there was worked out from the CUDA source. */
static const struct { const char *name, *ptx; } transcripts[] = {
    {"srcvars", "tests/fixtures/dwarf/types.G.ptx"},       /* locals, arrays, structs, union,
                                                              enum, __half, shared, constant */
    {"srcstep", "tests/fixtures/source/srcdbg.G.ptx"},     /* device call, finish value, step,
                                                              next, until, condition on i */
    {"srcinline", "tests/fixtures/dwarf/inl.lineinfo.ptx"}, /* inline chain frames, finish */
};

START_TEST(transcript)
{
    const char *name = transcripts[_i].name;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "./ptxdbg -batch -x tests/transcripts/%s.cmd %s 2>/dev/null", name,
             transcripts[_i].ptx);
    rp_check_transcript(name, cmd);
}
END_TEST

/* Run ptxdbg with -ex commands on a fixture; returns stdout+stderr (2>&1 when both). */
static char *dbg(const char *ptx, const char *ex, int both)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "./ptxdbg -batch %s %s %s", ex, ptx, both ? "2>&1" : "2>/dev/null");
    return rp_run(cmd);
}

#define TYPES "tests/fixtures/dwarf/types.G.ptx"
#define SRCDBG "tests/fixtures/source/srcdbg.G.ptx"
#define STOP58 "-ex 'buffer in f32 64 = iota' -ex 'buffer out f32 64' -ex 'break types.cu:58' " \
               "-ex 'launch kern<<<1, 32>>>(in, out, {3, 0}, 40)' "

START_TEST(info_args_and_locals)
{
    char *o = dbg(TYPES, STOP58 "-ex 'info args' -ex 'cuda thread (2,0,0)' -ex 'info locals'", 0);
    ck_assert_ptr_nonnull(o);
    /* kernel parameters with their names and values */
    ck_assert_ptr_nonnull(strstr(o, "in = (const float *) 0x700000200\n"));
    ck_assert_ptr_nonnull(strstr(o, "q = {a = 3, b = 0}\nn = 40\n"));
    /* thread 2: loc[i] = 2 i, col GREEN (even), cell.w[2] = idx */
    ck_assert_ptr_nonnull(strstr(o, "loc = {0, 2, 4, 6, 8}\n"));
    ck_assert_ptr_nonnull(strstr(o, "cell = {p = {a = 3, b = 0}, w = {1, 2, 2}, c = GREEN}\n"));
    ck_assert_ptr_nonnull(strstr(o, "idx = 2\n"));
    ck_assert_ptr_nonnull(strstr(o, "h = 1.5\n"));
    free(o);
}
END_TEST

START_TEST(lanes_and_shared)
{
    char *o = dbg(TYPES, STOP58 "-ex 'print -lanes idx * 2' -ex 'print tile[31]' "
                  "-ex 'print &tile[3] - &tile[1]' -ex 'print sp[7]'", 0);
    ck_assert_ptr_nonnull(o);
    ck_assert_ptr_nonnull(strstr(o, "* Lane  0 (thread (0,0,0)): 0\n"));
    ck_assert_ptr_nonnull(strstr(o, "  Lane 31 (thread (31,0,0)): 62\n"));
    /* tile[t] = in[t] + 1.5 with in = iota */
    ck_assert_ptr_nonnull(strstr(o, "= 32.5\n$2 = 2\n$3 = 8.5\n"));
    free(o);
}
END_TEST

START_TEST(errors_and_shadowing)
{
    char *o = dbg(SRCDBG, "-ex 'buffer x f32 64' -ex 'buffer y f32 64' -ex 'break add_one' "
                  "-ex 'launch saxpy<<<1, 32>>>(40, 2, x, y)' -ex 'print nosuch' "
                  "-ex 'print x.a' -ex 'print y' -ex 'up' -ex 'print y' -ex 'print *x' "
                  "-ex 'ptype x' -ex 'whatis n'", 1);
    ck_assert_ptr_nonnull(o);
    ck_assert_ptr_nonnull(strstr(o, "No symbol \"nosuch\" in current context.\n"));
    ck_assert_ptr_nonnull(strstr(o, "Attempt to extract a component of a value that is not a "
                                    "structure.\n"));
    /* in add_one, y is the local int; in saxpy the float * parameter */
    ck_assert_ptr_nonnull(strstr(o, "$2 = (float *) 0x7"));
    ck_assert_ptr_nonnull(strstr(o, "type = const float *\n"));
    ck_assert_ptr_nonnull(strstr(o, "type = int\n"));
    free(o);
}
END_TEST

START_TEST(listing)
{
    char *o = dbg(SRCDBG, "-ex 'list add_one' -ex 'list' -ex 'list 5,6' -ex 'info line srcdbg.cu:5' "
                  "-ex 'info scope add_one' -ex 'list 100'", 1);
    ck_assert_ptr_nonnull(o);
    /* centred on line 3, then the next ten, then a range */
    ck_assert_ptr_nonnull(strstr(o, "1\t// srcdbg.cu"));
    ck_assert_ptr_nonnull(strstr(o, "11\t    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"));
    ck_assert_ptr_nonnull(strstr(o, "5\t    int y = x + 1;\n6\t    return y;\nLine 5"));
    ck_assert_ptr_nonnull(strstr(o, "Line 5 of \"srcdbg.cu\" starts at address"));
    ck_assert_ptr_nonnull(strstr(o, "Symbol x is a variable in register"));
    ck_assert_ptr_nonnull(strstr(o, "Line number 95 out of range; \"srcdbg.cu\" has 19 lines.\n"));
    free(o);
}
END_TEST

/* info line ptx:N, with N found in the PTX text: the address break ptx:N uses, and a line
 * without an instruction names the next one. */
START_TEST(info_line_ptx)
{
    char *text = tu_read_file(SRCDBG, NULL);
    ck_assert_ptr_nonnull(text);
    int n = 0, line = 1;
    for (const char *p = text; *p && !n; line++) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!strncmp(p, "ld.param", 8))
            n = line;
        p = strchr(p, '\n');
        p = p ? p + 1 : "";
    }
    free(text);
    ck_assert_int_gt(n, 1);
    char cmds[256];
    snprintf(cmds, sizeof cmds, "-ex 'info line ptx:%d' -ex 'break ptx:%d' -ex 'info line ptx:1'", n, n);
    char *o = dbg(SRCDBG, cmds, 1);
    ck_assert_ptr_nonnull(o);
    char want[64];
    snprintf(want, sizeof want, "PTX line %d is at address 0x", n);
    const char *a = strstr(o, want), *b = strstr(o, "Breakpoint 1 at 0x");
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    a += strlen(want) - 2;
    b += strlen("Breakpoint 1 at ");
    ck_assert_int_eq(strtoul(a, NULL, 16), strtoul(b, NULL, 16));
    ck_assert_ptr_nonnull(strstr(o, "PTX line 1 has no instruction; the next is at address 0x"));
    free(o);
}
END_TEST

/* Launch arguments are host values: stopped in saxpy, whose parameter x is buffer x + 16 bytes,
 * `launch ...(.., x, y)` passes buffer x, not the parameter. With x[i] = i, y = 1, a = 1:
 * y[i] = i + 1 + (0+1+2) + (i+1), so y[0] = 5 and y[31] = 67 (9 and 71 with the parameter). */
START_TEST(launch_args_are_host_values)
{
    char *o = dbg(SRCDBG, "-ex 'buffer x f32 64 = iota' -ex 'buffer y f32 64 = fill 1' "
                  "-ex 'break saxpy' -ex 'launch saxpy<<<1, 32>>>(32, 1, x+4, y)' -ex 'delete' "
                  "-ex 'launch saxpy<<<1, 32>>>(32, 1, x, y)' -ex 'print y[0]' -ex 'print y[31]' "
                  "-ex 'launch saxpy<<<1, 32>>>(32, %f1, x, y)'", 1);
    ck_assert_ptr_nonnull(o);
    ck_assert_ptr_nonnull(strstr(o, "x=0x700000010"));
    ck_assert_ptr_nonnull(strstr(o, "$1 = 5\n$2 = 67\n"));
    ck_assert_ptr_nonnull(strstr(o, "Argument 2: invalid f32 value \"%f1\": No registers."));
    free(o);
}
END_TEST

START_TEST(missing_source)
{
    /* the PTX alone in a directory: a warning once, PTX lines instead */
    char dir[] = "/tmp/ptxdbg-src-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cp " SRCDBG " %s/", dir);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "-ex 'buffer x f32 64' -ex 'buffer y f32 64' -ex 'break srcdbg.cu:14' "
             "-ex 'launch saxpy<<<1, 32>>>(40, 2, x, y)' -ex 'list' -ex 'next' -ex 'print i' "
             "%s/srcdbg.G.ptx", dir);
    char *o = dbg("", cmd, 1);
    ck_assert_ptr_nonnull(o);
    const char *w = strstr(o, "warning: source file not found: srcdbg.cu\n");
    ck_assert_ptr_nonnull(w);
    ck_assert_ptr_null(strstr(w + 1, "warning: source file not found"));
    ck_assert_ptr_nonnull(strstr(o, "14\tin /tmp/ptxdbg-fixtures/srcdbg.cu\n"));
    /* list says it falls back to the PTX, and lists it */
    ck_assert_ptr_nonnull(strstr(o, "Listing the PTX: source file srcdbg.cu not found"));
    ck_assert_ptr_nonnull(strstr(o, "\tld.param"));      /* PTX listed instead */
    ck_assert_ptr_nonnull(strstr(o, "$1 = 0\n"));
    free(o);
    /* a listing of the PTX goes back to the source once `directory` finds it */
    snprintf(cmd, sizeof cmd, "-ex 'buffer x f32 64' -ex 'buffer y f32 64' "
             "-ex 'break srcdbg.cu:14' -ex 'launch saxpy<<<1, 32>>>(40, 2, x, y)' -ex 'list' "
             "-ex 'directory tests/fixtures/source' -ex 'list' %s/srcdbg.G.ptx", dir);
    o = dbg("", cmd, 1);
    ck_assert_ptr_nonnull(o);
    w = strstr(o, "Listing the PTX: source file srcdbg.cu not found");
    ck_assert_ptr_nonnull(w);
    ck_assert_ptr_nonnull(strstr(w, "\tld.param"));
    ck_assert_ptr_nonnull(strstr(w, "13\t        int k = add_one(i);\n"));
    ck_assert_ptr_null(strstr(w + 1, "Listing the PTX"));
    free(o);
    /* `directory` finds it again */
    snprintf(cmd, sizeof cmd, "-ex 'directory tests/fixtures/source' -ex 'list 13,13' "
             "-ex 'show directories' %s/srcdbg.G.ptx", dir);
    o = dbg("", cmd, 1);
    ck_assert_ptr_nonnull(o);
    ck_assert_ptr_nonnull(strstr(o, "13\t        int k = add_one(i);\n"));
    ck_assert_ptr_nonnull(strstr(o, "Source directories searched: tests/fixtures/source:$cdir:$cwd\n"));
    free(o);
    /* set substitute-path maps the compile directory */
    snprintf(cmd, sizeof cmd, "-ex 'set substitute-path /tmp/ptxdbg-fixtures tests/fixtures/source' "
             "-ex 'list 6,6' -ex 'show substitute-path' %s/srcdbg.G.ptx", dir);
    o = dbg("", cmd, 1);
    ck_assert_ptr_nonnull(o);
    ck_assert_ptr_nonnull(strstr(o, "6\t    return y;\n"));
    ck_assert_ptr_nonnull(strstr(o, "`/tmp/ptxdbg-fixtures' -> `tests/fixtures/source'.\n"));
    free(o);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(corrupt_dwarf)
{
    /* a damaged .debug_info: a warning at load, PTX-level debugging still works */
    char dir[] = "/tmp/ptxdbg-src-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "sed '/.section .debug_info/,/^\\t}/{s/\\.b8 [0-9]*/.b8 255/g}' "
             SRCDBG " > %s/bad.ptx", dir);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "-ex 'buffer x f32 64' -ex 'buffer y f32 64' -ex 'break srcdbg.cu:14' "
             "-ex 'launch saxpy<<<1, 32>>>(40, 2, x, y)' -ex 'print %%r1 >= 0' %s/bad.ptx", dir);
    char *o = dbg("", cmd, 1);
    ck_assert_ptr_nonnull(o);
    ck_assert_ptr_nonnull(strstr(o, "warning"));
    ck_assert_ptr_nonnull(strstr(o, "Breakpoint 1, saxpy<<<(1,1,1),(32,1,1)>>>"));
    ck_assert_ptr_nonnull(strstr(o, "$1 = 1\n"));
    free(o);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("source");
    TCase *t = tcase_create("source");
    tcase_set_timeout(t, 60);
    tcase_add_loop_test(t, transcript, 0, (int)(sizeof transcripts / sizeof transcripts[0]));
    tcase_add_test(t, info_args_and_locals);
    tcase_add_test(t, lanes_and_shared);
    tcase_add_test(t, errors_and_shadowing);
    tcase_add_test(t, listing);
    tcase_add_test(t, info_line_ptx);
    tcase_add_test(t, launch_args_are_host_values);
    tcase_add_test(t, missing_source);
    tcase_add_test(t, corrupt_dwarf);
    suite_add_tcase(s, t);
    return tu_run_suite(s);
}
