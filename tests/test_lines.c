/* test_lines.c - Check suite for line tables: .loc rows, line 0, step ranges, inline chains, sources. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#define DW_WARN_SIZE 2048
#include "dw_harness.h"

static loaded load(const char *path)
{
    ptx_error err;
    ptx_module *m = ptx_parse_file(path, &err);
    ck_assert_msg(m != NULL, "parse %s: %s", path, err.msg);
    return load_module(m);
}

static loaded load_text(const char *text)
{
    ptx_error err;
    ptx_module *m = ptx_parse(text, strlen(text), "<string>", &err);
    ck_assert_msg(m != NULL, "parse: %s", err.msg);
    return load_module(m);
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = s ? strlen(s) : 0, b = strlen(suf);
    return s && a >= b && strcmp(s + a - b, suf) == 0;
}

/* ---- -lineinfo ------------------------------------------------------------------------------ */
START_TEST(test_lineinfo_rows)
{
    loaded l = load(FIX "inl.lineinfo.ptx");
    dw_line ln;
    /* .file 1 is declared after the code (forward reference) */
    ck_assert_int_eq(dw_line_at(l.d, pc_of(&l, "ld.param.u32 \t%r19", 0), &ln), 0);
    ck_assert(ends_with(ln.file, "/inl.cu"));
    ck_assert_str_eq(ln.file, "/tmp/ptxdbg-fixtures/inl.cu");
    ck_assert_int_eq(ln.file_num, 1);
    ck_assert_int_eq(ln.line, 14);
    ck_assert_int_eq(ln.is_stmt, 1);
    /* second instruction under `.loc 1 17 5`: same row, not a statement start */
    ck_assert_int_eq(dw_line_at(l.d, pc_of(&l, "mov.u32 \t%r40, 0", 0), &ln), 0);
    ck_assert_int_eq(ln.line, 17);
    ck_assert_int_eq(ln.col, 5);
    ck_assert_int_eq(ln.is_stmt, 0);
    /* `.loc 1 0 5`: line 0, never a statement */
    ck_assert_int_eq(dw_line_at(l.d, pc_of(&l, "mul.lo.s32 \t%r2, %r1, %r1", 0), &ln), 0);
    ck_assert_int_eq(ln.line, 0);
    ck_assert_int_eq(ln.is_stmt, 0);
    ck_assert_int_eq(dw_line_at(l.d, dw_npcs(l.d), &ln), -1);
    ck_assert_int_eq(dw_has_dwarf(l.d), 0);
    unload(&l);
}
END_TEST

START_TEST(test_lineinfo_inline_chain)
{
    loaded l = load(FIX "inl.lineinfo.ptx");
    dw_inline_frame fr[8];
    /* `.loc 1 10 5, function_name $L__info_string0, inlined_at 1 27 9` followed by
       `.loc 1 5 5, function_name $L__info_string1, inlined_at 1 10 5`: sq inside sq_plus */
    uint32_t pc = pc_of(&l, "add.s32 \t%r31, %r46, 1", 0);
    int n = dw_inline_chain(l.d, pc, fr, 8);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(fr[0].name, "sq");
    ck_assert_str_eq(fr[0].linkage_name, "_Z2sqi");
    ck_assert_int_eq(fr[0].line, 5);
    ck_assert_int_eq(fr[0].col, 5);
    ck_assert_int_eq(fr[0].call_line, 10);
    ck_assert_int_eq(fr[0].call_col, 5);
    ck_assert_str_eq(fr[1].name, "sq_plus");
    ck_assert_str_eq(fr[1].linkage_name, "_Z7sq_plusii");
    ck_assert_int_eq(fr[1].line, 10);
    ck_assert_int_eq(fr[1].call_line, 27);
    ck_assert_int_eq(fr[1].call_col, 9);
    ck_assert(ends_with(fr[1].call_file, "inl.cu"));
    /* later only the innermost .loc is repeated: the chain is still two deep */
    pc = pc_of(&l, "add.s32 \t%r34, %r46, 2", 0);
    n = dw_inline_chain(l.d, pc, fr, 8);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(fr[0].name, "sq");
    ck_assert_str_eq(fr[1].name, "sq_plus");
    /* one level */
    pc = pc_of(&l, "add.s32 \t%r29, %r51, %r2", 0);
    n = dw_inline_chain(l.d, pc, fr, 8);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(fr[0].name, "sq_plus");
    ck_assert_int_eq(fr[0].line, 11);
    ck_assert_int_eq(fr[0].call_line, 27);
    /* not inlined: the kernel's own line */
    pc = pc_of(&l, "mad.lo.s32 \t%r30", 0);
    ck_assert_int_eq(dw_inline_chain(l.d, pc, fr, 8), 0);
    dw_line ln;
    dw_line_at(l.d, pc, &ln);
    ck_assert_int_eq(ln.line, 27);
    /* max smaller than the depth: count still reported */
    ck_assert_int_eq(dw_inline_chain(l.d, pc_of(&l, "add.s32 \t%r31, %r46, 1", 0), fr, 1), 2);
    unload(&l);
}
END_TEST

START_TEST(test_lineinfo_breakpoints)
{
    loaded l = load(FIX "inl.lineinfo.ptx");
    uint32_t pcs[8];
    int actual = 0;
    /* line 18 `s += i;` has two row starts in tri (unrolled and remainder loop): lowest */
    int n = dw_line_breakpoints(l.d, "inl.cu", 18, pcs, 8, &actual);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(actual, 18);
    ck_assert_uint_eq(pcs[0], pc_of(&l, "add.s32 \t%r27, %r35, %r40", 0));
    /* line 16 `int s = 0;` has no code: the next line with code, 17 */
    n = dw_line_breakpoints(l.d, "/tmp/ptxdbg-fixtures/inl.cu", 16, pcs, 8, &actual);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(actual, 17);
    ck_assert_uint_eq(pcs[0], pc_of(&l, "setp.lt.s32 \t%p1, %r19, 0", 0));
    /* line 5 only exists inlined (sq within sq_plus within the kernel) */
    n = dw_line_breakpoints(l.d, "inl.cu", 5, pcs, 8, &actual);
    ck_assert_int_eq(n, 1);
    ck_assert_uint_eq(pcs[0], pc_of(&l, "add.s32 \t%r31, %r46, 1", 0));
    /* unknown file */
    ck_assert_int_eq(dw_line_breakpoints(l.d, "other.cu", 18, pcs, 8, &actual), 0);
    /* every range of line 27 */
    dw_pc_range r[16];
    n = dw_line_pcs(l.d, "inl.cu", 27, r, 16);
    ck_assert_int_eq(n, 5);
    ck_assert_uint_eq(r[0].lo, pc_of(&l, "mad.lo.s32 \t%r30", 0));
    ck_assert_uint_eq(r[0].hi, r[0].lo + 1);
    unload(&l);
}
END_TEST

START_TEST(test_lineinfo_prologue_and_ranges)
{
    loaded l = load(FIX "inl.lineinfo.ptx");
    const ptx_func *tri = ptx_find_func(l.m, "_Z3trii");
    const ptx_func *k = ptx_find_func(l.m, "_Z10inl_kernelPii");
    ck_assert_ptr_nonnull(tri);
    ck_assert_ptr_nonnull(k);
    ck_assert_int_eq(dw_func_body_pc(l.d, tri), pc_of(&l, "setp.lt.s32 \t%p1, %r19, 0", 0));
    ck_assert_int_eq(dw_func_body_pc(l.d, k), pc_of(&l, "mov.u32 \t%r1, %tid.x", 0));
    ck_assert_int_eq(dw_func_first_pc(l.d, tri), 0);
    ck_assert_int_eq(dw_func_first_pc(l.d, k), 30);
    /* step range of line 26 containing a line-0 row */
    uint32_t lo, hi;
    ck_assert_int_eq(dw_line_range(l.d, pc_of(&l, "setp.lt.s32 \t%p1, %r21, 1", 0), &lo, &hi), 0);
    ck_assert_uint_eq(lo, pc_of(&l, "setp.lt.s32 \t%p1, %r21, 1", 0));
    ck_assert_uint_eq(hi, pc_of(&l, "add.s32 \t%r29, %r51, %r2", 0));
    ck_assert_int_eq(dw_line_range(l.d, pc_of(&l, "mul.lo.s32 \t%r2, %r1, %r1", 0), &lo, &hi), -1);
    /* functions without DWARF come from the PTX names */
    const dw_func *f = dw_func_at(l.d, pc_of(&l, "add.s32 \t%r27", 0));
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(f->name, "tri");
    ck_assert_str_eq(f->linkage_name, "_Z3trii");
    ck_assert_int_eq(f->is_kernel, 0);
    f = dw_func_by_name(l.d, "inl_kernel");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(f->is_kernel, 1);
    ck_assert_ptr_eq(dw_func_of_ptx(l.d, k), f);
    unload(&l);
}
END_TEST

/* ---- -G ------------------------------------------------------------------------------------- */
START_TEST(test_G_rows)
{
    loaded l = load(FIX "types.G.ptx");
    dw_line ln;
    /* the helper nvcc emits without debug info (after the kernel's last .loc) has no line */
    uint32_t pc = pc_of(&l, "atom.add.u32", 0);
    ck_assert_int_eq(dw_line_at(l.d, pc, &ln), 0);
    ck_assert_ptr_null(ln.file);
    ck_assert_int_eq(ln.line, 0);
    ck_assert_int_eq(ln.is_stmt, 0);
    /* file numbers of the -G module: 3 = device_atomic_functions.hpp */
    pc = pc_of(&l, "mov.b64 \t%rd2, %rd1", 0);
    dw_line_at(l.d, pc, &ln);
    ck_assert_int_eq(ln.file_num, 3);
    ck_assert(ends_with(ln.file, "/device_atomic_functions.hpp"));
    ck_assert_int_eq(ln.line, 107);
    /* -G line-0 rows of the ternary */
    dw_line_at(l.d, pc_of(&l, "mov.u32 \t%r20, 5", 0), &ln);
    ck_assert_int_eq(ln.line, 0);
    dw_line_at(l.d, pc_of(&l, "mov.u32 \t%r45, %r20", 0), &ln);
    ck_assert_int_eq(ln.line, 43);
    ck_assert_int_eq(ln.is_stmt, 1);
    /* prologue: kern's body starts at line 41 */
    const ptx_func *k = ptx_find_func(l.m, "_Z4kernPKfPf4Pairi");
    int64_t body = dw_func_body_pc(l.d, k);
    dw_line_at(l.d, (uint32_t)body, &ln);
    ck_assert_int_eq(ln.line, 41);
    ck_assert_int_eq(body, pc_of(&l, "st.param.f32 \t[param0+0], 0f3FC00000", 0));
    unload(&l);
}
END_TEST

START_TEST(test_G_inlined_dwarf)
{
    /* -G keeps __forceinline__ inlining but writes no inline chains in .loc: the frames come
       from DW_TAG_inlined_subroutine */
    loaded l = load(FIX "inl.G.ptx");
    dw_inline_frame fr[8];
    uint32_t pc = pc_of(&l, "mul.lo.s32 \t%r18, %r17, %r17", 0);   /* x * x of sq(x) */
    int n = dw_inline_chain(l.d, pc, fr, 8);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(fr[0].name, "sq");
    ck_assert_int_eq(fr[0].line, 5);
    ck_assert_int_eq(fr[0].call_line, 10);
    ck_assert_str_eq(fr[1].name, "sq_plus");
    ck_assert_int_eq(fr[1].line, 10);
    ck_assert_int_eq(fr[1].call_line, 27);
    pc = pc_of(&l, "mul.lo.s32 \t%r21, %r20, %r20", 0);             /* sq(y) */
    n = dw_inline_chain(l.d, pc, fr, 8);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(fr[0].call_line, 11);
    ck_assert_int_eq(fr[1].line, 11);
    pc = pc_of(&l, "add.s32 \t%r22, %r19, %r21", 0);                /* t + sq(y) */
    n = dw_inline_chain(l.d, pc, fr, 8);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(fr[0].name, "sq_plus");
    ck_assert_int_eq(fr[0].line, 11);
    /* variables per frame: sq's x, then sq_plus's x, y and t, then the kernel's */
    const dw_var *v = dw_var_lookup_frame(l.d, pc_of(&l, "mul.lo.s32 \t%r18", 0), 0, "x");
    ck_assert_ptr_nonnull(v);
    ck_assert_int_eq(v->kind, DW_VAR_PARAM);
    ck_assert_ptr_null(dw_var_lookup_frame(l.d, pc_of(&l, "mul.lo.s32 \t%r18", 0), 0, "acc"));
    const dw_var *x1 = dw_var_lookup_frame(l.d, pc_of(&l, "mul.lo.s32 \t%r18", 0), 1, "x");
    ck_assert_ptr_nonnull(x1);
    ck_assert_ptr_ne(x1, v);
    ck_assert_ptr_nonnull(dw_var_lookup_frame(l.d, pc_of(&l, "mul.lo.s32 \t%r18", 0), 1, "t"));
    ck_assert_ptr_nonnull(dw_var_lookup_frame(l.d, pc_of(&l, "mul.lo.s32 \t%r18", 0), 2, "acc"));
    ck_assert_ptr_null(dw_var_lookup_frame(l.d, pc_of(&l, "mul.lo.s32 \t%r18", 0), 3, "acc"));
    /* the kernel's parameter list does not include the inlined ones */
    const dw_func *k = dw_func_by_name(l.d, "inl_kernel");
    ck_assert_int_eq(k->nparams, 2);
    ck_assert_str_eq(k->params[0]->name, "out");
    unload(&l);
}
END_TEST

START_TEST(test_no_loc_module)
{
    loaded l = load_text(".version 7.0\n.target sm_80\n.address_size 64\n"
                         ".visible .entry _ZN2ns6kernelEv()\n{\n\tret;\n}\n");
    dw_line ln;
    ck_assert_int_eq(dw_npcs(l.d), 1);
    ck_assert_int_eq(dw_line_at(l.d, 0, &ln), 0);
    ck_assert_ptr_null(ln.file);
    ck_assert_int_eq(ln.line, 0);
    const dw_func *f = dw_func_at(l.d, 0);
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(f->name, "ns::kernel");
    ck_assert_int_eq(dw_inline_chain(l.d, 0, NULL, 0), 0);
    ck_assert_int_eq(dw_func_body_pc(l.d, l.m->funcs[0]), 0);
    ck_assert_str_eq(l.warn, "");
    unload(&l);
}
END_TEST

START_TEST(test_file_match_and_demangle)
{
    loaded l = load(FIX "inl.lineinfo.ptx");
    ck_assert(dw_file_matches(l.d, 1, "inl.cu"));
    ck_assert(dw_file_matches(l.d, 1, "ptxdbg-fixtures/inl.cu"));
    ck_assert(dw_file_matches(l.d, 1, "/tmp/ptxdbg-fixtures/inl.cu"));
    ck_assert(!dw_file_matches(l.d, 1, "l.cu"));
    ck_assert(!dw_file_matches(l.d, 2, "inl.cu"));
    unload(&l);
    char b[128];
    dw_demangle_base("_Z7sq_plusii", b, sizeof b);
    ck_assert_str_eq(b, "sq_plus");
    dw_demangle_base("_ZN38_INTERNAL_6535cc25_8_types_cu_95e294ff9atomicAddEPii", b, sizeof b);
    ck_assert_str_eq(b, "atomicAdd");
    dw_demangle_base("_ZN2ns3fooEi", b, sizeof b);
    ck_assert_str_eq(b, "ns::foo");
    dw_demangle_base("_ZZ4kernPKfPf4PairiE4tile", b, sizeof b);
    ck_assert_str_eq(b, "kern::tile");
    dw_demangle_base("_Z3maxIiET_S0_S0_", b, sizeof b);
    ck_assert_str_eq(b, "max");
    dw_demangle_base("__iAtomicAdd", b, sizeof b);
    ck_assert_str_eq(b, "__iAtomicAdd");
    dw_demangle_base("_Z99x", b, sizeof b);   /* truncated: copied */
    ck_assert_str_eq(b, "_Z99x");
}
END_TEST

/* ---- sources ------------------------------------------------------------------------------- */
static void write_file(const char *p, const char *text)
{
    FILE *f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(test_sources)
{
    char tmpl[] = "/tmp/dwsrcXXXXXX";
    char *root = mkdtemp(tmpl);
    ck_assert_ptr_nonnull(root);
    char a[256], b[256], c[256], p[512], buf[512];
    snprintf(a, sizeof a, "%s/ptxdir", root);
    snprintf(b, sizeof b, "%s/srcdir", root);
    snprintf(c, sizeof c, "%s/moved/sub", root);
    mkdir(a, 0755);
    mkdir(b, 0755);
    snprintf(p, sizeof p, "%s/moved", root);
    mkdir(p, 0755);
    mkdir(c, 0755);
    snprintf(p, sizeof p, "%s/k.cu", a);
    write_file(p, "line one\nline two\r\nlast");
    snprintf(p, sizeof p, "%s/other.cu", b);
    write_file(p, "o1\n");
    snprintf(p, sizeof p, "%s/m.cu", c);
    write_file(p, "m1\nm2\n");

    dw_srcpath *s = dw_src_new();
    /* basename beside the PTX file */
    ck_assert_ptr_nonnull(dw_src_resolve(s, "/nowhere/build/k.cu", a, buf, sizeof buf));
    snprintf(p, sizeof p, "%s/k.cu", a);
    ck_assert_str_eq(buf, p);
    int len = 0;
    const char *t = dw_src_line(s, "/nowhere/build/k.cu", a, 2, &len);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(len, 8);
    ck_assert(!strncmp(t, "line two", 8));
    t = dw_src_line(s, "/nowhere/build/k.cu", a, 3, &len);
    ck_assert_int_eq(len, 4);
    ck_assert_ptr_null(dw_src_line(s, "/nowhere/build/k.cu", a, 4, &len));
    ck_assert_int_eq(dw_src_nlines(s, "/nowhere/build/k.cu", a), 3);
    /* missing until a directory is added */
    ck_assert_ptr_null(dw_src_resolve(s, "/nowhere/other.cu", a, buf, sizeof buf));
    ck_assert_int_eq(dw_src_nlines(s, "/nowhere/other.cu", a), -1);
    ck_assert_int_eq(dw_src_add_dir(s, b), 0);
    ck_assert_int_eq(dw_src_ndirs(s), 1);
    ck_assert_ptr_nonnull(dw_src_resolve(s, "/nowhere/other.cu", a, buf, sizeof buf));
    ck_assert_int_eq(dw_src_nlines(s, "/nowhere/other.cu", a), 1);
    /* substitute-path: prefix at a directory boundary only */
    ck_assert_ptr_null(dw_src_resolve(s, "/build/tree/sub/m.cu", NULL, buf, sizeof buf));
    snprintf(p, sizeof p, "%s/moved", root);
    ck_assert_int_eq(dw_src_add_subst(s, "/build/tree", p), 0);
    ck_assert_ptr_nonnull(dw_src_resolve(s, "/build/tree/sub/m.cu", NULL, buf, sizeof buf));
    snprintf(p, sizeof p, "%s/m.cu", c);
    ck_assert_str_eq(buf, p);
    ck_assert_ptr_null(dw_src_resolve(s, "/build/treetop/sub/m.cu", NULL, buf, sizeof buf));
    t = dw_src_line(s, "/build/tree/sub/m.cu", NULL, 2, &len);
    ck_assert_ptr_nonnull(t);
    ck_assert(!strncmp(t, "m2", 2) && len == 2);
    ck_assert_int_eq(dw_src_nsubst(s), 1);
    ck_assert_int_eq(dw_src_add_subst(s, "/build/tree", "/elsewhere"), 0);   /* replaces */
    ck_assert_int_eq(dw_src_nsubst(s), 1);
    ck_assert_ptr_null(dw_src_line(s, "/build/tree/sub/m.cu", NULL, 2, &len));
    ck_assert_int_eq(dw_src_del_subst(s, "/build/tree"), 0);
    ck_assert_int_eq(dw_src_del_subst(s, "/build/tree"), -1);
    /* a path a rule rewrites is never looked for at its original place (gdb): the file exists
       at its recorded path, the rule sends it where it is not */
    snprintf(p, sizeof p, "%s/m.cu", c);
    ck_assert_ptr_nonnull(dw_src_resolve(s, p, NULL, buf, sizeof buf));
    ck_assert_int_eq(dw_src_add_subst(s, root, "/nonexistent-dir"), 0);
    ck_assert_ptr_null(dw_src_resolve(s, p, NULL, buf, sizeof buf));
    ck_assert_int_eq(dw_src_del_subst(s, root), 0);
    dw_src_clear_dirs(s);
    ck_assert_int_eq(dw_src_ndirs(s), 0);
    dw_src_free(s);
    /* the fixture's own .cu is found beside its PTX file although .file names /tmp/... */
    s = dw_src_new();
    t = dw_src_line(s, "/tmp/ptxdbg-fixtures-nowhere/inl.cu", "tests/fixtures/dwarf", 27, &len);
    ck_assert_ptr_nonnull(t);
    ck_assert(strstr(t, "acc += sq_plus(k, i);") != NULL);
    dw_src_free(s);
    snprintf(p, sizeof p, "rm -rf '%s'", root);
    ck_assert_int_eq(system(p), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lines");
    TCase *tc = tcase_create("lines");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_lineinfo_rows);
    tcase_add_test(tc, test_lineinfo_inline_chain);
    tcase_add_test(tc, test_lineinfo_breakpoints);
    tcase_add_test(tc, test_lineinfo_prologue_and_ranges);
    tcase_add_test(tc, test_G_rows);
    tcase_add_test(tc, test_G_inlined_dwarf);
    tcase_add_test(tc, test_no_loc_module);
    tcase_add_test(tc, test_file_match_and_demangle);
    tcase_add_test(tc, test_sources);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
