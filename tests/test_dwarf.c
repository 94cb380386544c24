/* test_dwarf.c - Check suite for DWARF from PTX: section bytes, DIE tables, locations, values, errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dw_harness.h"

static loaded load_text(const char *text, const char *name)
{
    ptx_error err;
    ptx_module *m = ptx_parse(text, strlen(text), name, &err);
    ck_assert_msg(m != NULL, "parse %s: %s", name, err.msg);
    return load_module(m);
}

static loaded load(const char *path)
{
    char *text = tu_read_file(path, NULL);
    ck_assert_ptr_nonnull(text);
    loaded l = load_text(text, path);
    free(text);
    return l;
}

static const char *tname(const dw_type *t)
{
    static char buf[256];
    dw_type_name(t, buf, sizeof buf);
    return buf;
}

/* ---- small pieces ------------------------------------------------------------------------ */
START_TEST(test_leb_and_regnames)
{
    static const uint8_t u1[] = {0xe5, 0x8e, 0x26};         /* 624485 */
    static const uint8_t s1[] = {0xc0, 0xbb, 0x78};         /* -123456 */
    static const uint8_t s2[] = {0x7f};                     /* -1 */
    static const uint8_t tr[] = {0x80, 0x80};               /* truncated */
    uint64_t u;
    int64_t s;
    ck_assert_uint_eq(dw_uleb(u1, 3, &u), 3);
    ck_assert_uint_eq(u, 624485);
    ck_assert_uint_eq(dw_sleb(s1, 3, &s), 3);
    ck_assert_int_eq(s, -123456);
    ck_assert_uint_eq(dw_sleb(s2, 1, &s), 1);
    ck_assert_int_eq(s, -1);
    ck_assert_uint_eq(dw_uleb(tr, 2, &u), 0);
    char r[16];
    ck_assert_int_eq(dw_regname_unpack(0x257231, r, sizeof r), 0);
    ck_assert_str_eq(r, "%r1");
    ck_assert_int_eq(dw_regname_unpack(0x25726431, r, sizeof r), 0);
    ck_assert_str_eq(r, "%rd1");
    ck_assert_int_eq(dw_regname_unpack(0x2566313233, r, sizeof r), 0);
    ck_assert_str_eq(r, "%f123");
    ck_assert_int_eq(dw_regname_unpack(0x417231, r, sizeof r), -1);  /* no '%' */
    ck_assert_int_eq(dw_regname_unpack(0, r, sizeof r), -1);
    ck_assert_int_eq(dw_regname_unpack(0x25726431, r, 4), -1);       /* buffer too small */
    ck_assert_int_eq(dw_addr_class_space(5), PTX_SPACE_GLOBAL);
    ck_assert_int_eq(dw_addr_class_space(6), PTX_SPACE_LOCAL);
    ck_assert_int_eq(dw_addr_class_space(8), PTX_SPACE_SHARED);
    ck_assert_int_eq(dw_addr_class_space(12), PTX_SPACE_GENERIC);
    ck_assert_int_eq(dw_addr_class_space(99), PTX_SPACE_NONE);
    ck_assert(dw_half_to_float(0x3e00) == 1.5f);
    ck_assert(dw_half_to_float(0xc000) == -2.0f);
    ck_assert(dw_half_to_float(0x0001) > 0.0f);
}
END_TEST

/* A hand-made module: labels, differences, section names and data symbols. */
static const char sec_ptx[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".global .align 4 .u32 gv[4];\n"
    ".func f0()\n{\n\tret;\n}\n"
    ".func f1()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 1;\n$L__lbl:\n"
    "\tadd.u32 %r1, %r1, 2;\n\tret;\n$L__end:\n}\n"
    "\t.section\t.debug_abbrev\n\t{\n.b8 1,17,0\n.b8 0\n\t}\n"
    "\t.section\t.debug_info\n\t{\n$L__start:\n"
    ".b32 287454020\n.b8 7\n.b16 43981\n.b64 $L__lbl\n.b64 gv+4\n.b32 .debug_abbrev\n"
    ".b32 $L__stop-$L__start\n.b32 .debug_abbrev+1\n.b32 $L__stop\n$L__stop:\n.b8 9\n"
    ".b64 $L__end\n\t}\n";

START_TEST(test_section_bytes)
{
    loaded l = load_text(sec_ptx, "sec.ptx");
    const uint8_t *p;
    size_t n;
    static const uint8_t abbrev[] = {1, 17, 0, 0};
    ck_assert_int_eq(dw_section_bytes(l.d, ".debug_abbrev", &p, &n), 0);
    ck_assert_uint_eq(n, sizeof abbrev);
    ck_assert(!memcmp(p, abbrev, n));
    static const uint8_t info[] = {
        0x44, 0x33, 0x22, 0x11,                         /* .b32 287454020 */
        0x07,                                           /* .b8 7 */
        0xcd, 0xab,                                     /* .b16 43981 */
        2, 0, 0, 0, 0, 0, 0, 0,                         /* $L__lbl: pc 2 (f0 has 1 insn) */
        4, 0, 0, 0, 1, 0, 0, 0xc0,                      /* gv+4: data symbol 0, offset 4 */
        0, 0, 0, 0,                                     /* .debug_abbrev */
        39, 0, 0, 0,                                    /* $L__stop-$L__start */
        1, 0, 0, 0,                                     /* .debug_abbrev+1 */
        39, 0, 0, 0,                                    /* $L__stop: offset in section */
        9,                                              /* .b8 9 */
        4, 0, 0, 0, 0, 0, 0, 0,                         /* $L__end: one past f1's last pc */
    };
    ck_assert_int_eq(dw_section_bytes(l.d, ".debug_info", &p, &n), 0);
    ck_assert_uint_eq(n, sizeof info);
    ck_assert(!memcmp(p, info, n));
    ck_assert_int_eq(dw_section_bytes(l.d, ".debug_loc", &p, &n), -1);
    const char *sym;
    uint64_t off;
    ck_assert_int_eq(dw_symaddr_decode(l.d, 0xc000000100000004ull, &sym, &off), 0);
    ck_assert_str_eq(sym, "gv");
    ck_assert_uint_eq(off, 4);
    ck_assert_uint_eq(DW_SYMADDR(0, 4), 0xc000000100000004ull);
    ck_assert_int_eq(dw_symaddr_decode(l.d, 2, &sym, &off), -1);
    ck_assert_int_eq(dw_symaddr_decode(l.d, DW_SYMADDR(77, 0), &sym, &off), -1);
    /* the bytes are not valid DWARF: a warning, no crash, line info still there */
    ck_assert(strstr(l.warn, "warning:") != NULL);
    ck_assert_uint_eq(dw_npcs(l.d), 4);
    unload(&l);
}
END_TEST

/* ---- DIE tables of types.G.ptx ------------------------------------------------------------ */
static const dw_var *var_at(const loaded *l, uint32_t pc, const char *name)
{
    const dw_var *v = dw_var_lookup(l->d, pc, name);
    ck_assert_msg(v != NULL, "variable %s not visible at pc %u", name, pc);
    return v;
}

static void check_mem(const loaded *l, const dw_var *v, uint32_t pc, ptx_space sp,
                      const char *sym, uint64_t off)
{
    dw_loc lc;
    ck_assert_int_eq(dw_var_location(l->d, v, pc, &lc), 0);
    ck_assert_int_eq(lc.kind, DW_LOCK_MEM);
    ck_assert_int_eq(lc.space, sp);
    ck_assert_str_eq(lc.sym, sym);
    ck_assert_uint_eq(lc.offset, off);
}

static void check_reg(const loaded *l, const dw_var *v, uint32_t pc, const char *reg)
{
    dw_loc lc;
    ck_assert_int_eq(dw_var_location(l->d, v, pc, &lc), 0);
    ck_assert_int_eq(lc.kind, DW_LOCK_REG);
    ck_assert_str_eq(lc.reg, reg);
}

START_TEST(test_G_functions)
{
    loaded l = load(FIX "types.G.ptx");
    ck_assert_str_eq(l.warn, "");
    ck_assert(dw_has_dwarf(l.d));
    const dw_func *k = dw_func_by_name(l.d, "kern");
    ck_assert_ptr_nonnull(k);
    ck_assert_str_eq(k->linkage_name, "_Z4kernPKfPf4Pairi");
    ck_assert_int_eq(k->is_kernel, 1);
    ck_assert_int_eq(k->decl_line, 33);
    ck_assert_ptr_eq(k->ptx, ptx_find_func(l.m, "_Z4kernPKfPf4Pairi"));
    ck_assert_int_eq(k->lo, dw_func_first_pc(l.d, k->ptx));
    ck_assert_int_eq(k->hi, k->lo + (uint32_t)k->ptx->ninsns);
    ck_assert_int_eq(k->nparams, 4);
    ck_assert_str_eq(k->params[0]->name, "in");
    ck_assert_str_eq(k->params[1]->name, "out");
    ck_assert_str_eq(k->params[2]->name, "q");
    ck_assert_str_eq(k->params[3]->name, "n");
    ck_assert_str_eq(tname(k->params[0]->type), "const float *");
    ck_assert_str_eq(tname(k->params[1]->type), "float *");
    ck_assert_str_eq(tname(k->params[2]->type), "Pair");
    ck_assert_str_eq(tname(k->params[3]->type), "int");
    const dw_func *ps = dw_func_at(l.d, pc_of(&l, "mul.lo.s32 \t%r4, %r3, %r2", 0));
    ck_assert_ptr_nonnull(ps);
    ck_assert_str_eq(ps->name, "pair_sum");
    ck_assert_int_eq(ps->nparams, 2);
    ck_assert_str_eq(ps->params[0]->name, "p");
    ck_assert_str_eq(ps->params[1]->name, "scale");
    ck_assert_str_eq(tname(ps->ret_type), "float");
    /* the helper without debug info comes from the PTX */
    const dw_func *h = dw_func_at(l.d, pc_of(&l, "atom.add.u32", 0));
    ck_assert_ptr_nonnull(h);
    ck_assert_str_eq(h->name, "__iAtomicAdd");
    ck_assert_uint_eq(h->die, 0);
    /* scopes: the first loop's block inside kern */
    dw_scope sc[8];
    int ns = dw_scopes_at(l.d, pc_of(&l, "setp.lt.s32 \t%p3, %r4, 5", 0), sc, 8);
    ck_assert_int_ge(ns, 2);
    ck_assert_str_eq(sc[ns - 1].name, "kern");
    ck_assert_uint_eq(sc[ns - 1].lo, k->lo);
    ck_assert_uint_lt(sc[0].hi - sc[0].lo, k->hi - k->lo);
    unload(&l);
}
END_TEST

START_TEST(test_G_variables)
{
    loaded l = load(FIX "types.G.ptx");
    uint32_t pc = pc_of(&l, "bar.sync \t0", 0);          /* line 58 */
    /* params: pointers in param space, the struct copied to the local depot */
    check_mem(&l, var_at(&l, pc, "in"), pc, PTX_SPACE_PARAM, "_Z4kernPKfPf4Pairi_param_0", 0);
    check_mem(&l, var_at(&l, pc, "n"), pc, PTX_SPACE_PARAM, "_Z4kernPKfPf4Pairi_param_3", 0);
    check_mem(&l, var_at(&l, pc, "q"), pc, PTX_SPACE_LOCAL, "__local_depot4", 0);
    ck_assert_int_eq(var_at(&l, pc, "in")->kind, DW_VAR_PARAM);
    /* locals at the offsets the PTX uses (%SP+8, +28, +56, +96, +100) */
    const dw_var *v = var_at(&l, pc, "loc");
    ck_assert_int_eq(v->kind, DW_VAR_LOCAL);
    check_mem(&l, v, pc, PTX_SPACE_LOCAL, "__local_depot4", 8);
    const dw_type *t = dw_type_strip(v->type);
    ck_assert_int_eq(t->kind, DW_TY_ARRAY);
    ck_assert_int_eq(t->ndims, 1);
    ck_assert_uint_eq(t->dims[0], 5);
    ck_assert_uint_eq(t->size, 20);
    ck_assert_str_eq(tname(v->type), "int [5]");
    v = var_at(&l, pc, "mat");
    check_mem(&l, v, pc, PTX_SPACE_LOCAL, "__local_depot4", 28);
    t = dw_type_strip(v->type);
    ck_assert_int_eq(t->ndims, 2);
    ck_assert_uint_eq(t->dims[0], 2);
    ck_assert_uint_eq(t->dims[1], 3);
    ck_assert_uint_eq(t->size, 24);
    ck_assert_str_eq(tname(v->type), "float [2][3]");
    const dw_type *row = dw_type_subarray(l.d, v->type, 1);
    ck_assert_str_eq(tname(row), "float [3]");
    ck_assert_uint_eq(dw_type_size(row), 12);
    ck_assert_ptr_eq(dw_type_subarray(l.d, v->type, 1), row);
    ck_assert_str_eq(tname(dw_type_subarray(l.d, v->type, 2)), "float");
    v = var_at(&l, pc, "cell");
    check_mem(&l, v, pc, PTX_SPACE_LOCAL, "__local_depot4", 56);
    t = dw_type_strip(v->type);
    ck_assert_int_eq(t->kind, DW_TY_STRUCT);
    ck_assert_str_eq(t->name, "Cell");
    ck_assert_uint_eq(t->size, 40);
    ck_assert_int_eq(t->nmembers, 3);
    ck_assert_uint_eq(dw_type_member(t, "p")->offset, 0);
    ck_assert_uint_eq(dw_type_member(t, "w")->offset, 8);
    ck_assert_uint_eq(dw_type_member(t, "c")->offset, 32);
    ck_assert_str_eq(tname(dw_type_member(t, "w")->type), "double [3]");
    ck_assert_ptr_null(dw_type_member(t, "zz"));
    const dw_type *pair = dw_type_strip(dw_type_member(t, "p")->type);
    ck_assert_uint_eq(dw_type_member(pair, "b")->offset, 4);
    const dw_type *col = dw_type_strip(dw_type_member(t, "c")->type);
    ck_assert_int_eq(col->kind, DW_TY_ENUM);
    ck_assert_int_eq(col->nenums, 3);
    ck_assert_str_eq(col->enums[2].name, "BLUE");
    ck_assert_int_eq(col->enums[2].value, 5);
    v = var_at(&l, pc, "bits");
    check_mem(&l, v, pc, PTX_SPACE_LOCAL, "__local_depot4", 96);
    t = dw_type_strip(v->type);
    ck_assert_int_eq(t->kind, DW_TY_UNION);
    ck_assert_uint_eq(t->size, 4);
    ck_assert_uint_eq(dw_type_member(t, "u")->offset, 0);
    v = var_at(&l, pc, "h");
    check_mem(&l, v, pc, PTX_SPACE_LOCAL, "__local_depot4", 100);
    ck_assert_str_eq(tname(v->type), "__half");
    ck_assert_uint_eq(dw_type_size(v->type), 2);
    ck_assert_int_eq(dw_type_strip(v->type)->enc, DW_BT_HALF);
    /* registers */
    check_reg(&l, var_at(&l, pc, "idx"), pc, "%r1");
    ck_assert_str_eq(tname(var_at(&l, pc, "idx")->type), "uint_t");
    ck_assert_int_eq(var_at(&l, pc, "idx")->type->kind, DW_TY_TYPEDEF);
    check_reg(&l, var_at(&l, pc, "col"), pc, "%r2");
    check_reg(&l, var_at(&l, pc, "lp"), pc, "%rd1");
    check_reg(&l, var_at(&l, pc, "sp"), pc, "%rd2");
    check_reg(&l, var_at(&l, pc, "cp"), pc, "%rd3");
    t = dw_type_strip(var_at(&l, pc, "sp")->type);
    ck_assert_int_eq(t->kind, DW_TY_POINTER);
    ck_assert_int_eq(t->space, PTX_SPACE_GENERIC);
    /* shared arrays (demoted into the kernel) and module variables */
    v = var_at(&l, pc, "tile");
    check_mem(&l, v, pc, PTX_SPACE_SHARED, "_ZZ4kernPKfPf4PairiE4tile", 0);
    ck_assert_str_eq(tname(v->type), "float [32]");
    v = var_at(&l, pc, "grid2");
    check_mem(&l, v, pc, PTX_SPACE_SHARED, "_ZZ4kernPKfPf4PairiE5grid2", 0);
    ck_assert_str_eq(tname(v->type), "int [4][8]");
    v = var_at(&l, pc, "ctab");
    ck_assert_int_eq(v->kind, DW_VAR_GLOBAL);
    check_mem(&l, v, pc, PTX_SPACE_CONST, "ctab", 0);
    ck_assert_str_eq(tname(v->type), "float [4]");
    v = var_at(&l, pc, "gcount");
    check_mem(&l, v, pc, PTX_SPACE_GLOBAL, "gcount", 0);
    ck_assert_int_eq(dw_nglobals(l.d), 2);
    /* pair_sum: p copied to its own depot, scale in %r2 */
    uint32_t pc2 = pc_of(&l, "mul.lo.s32 \t%r4, %r3, %r2", 0);
    check_mem(&l, var_at(&l, pc2, "p"), pc2, PTX_SPACE_LOCAL, "__local_depot3", 0);
    check_reg(&l, var_at(&l, pc2, "scale"), pc2, "%r2");
    ck_assert_ptr_null(dw_var_lookup(l.d, pc2, "cell"));   /* kern's local */
    /* listing: locals before params before globals */
    const dw_var *vs[64];
    int n = dw_vars_at(l.d, pc, DW_VARS_ALL, vs, 64);
    ck_assert_int_ge(n, 18);
    ck_assert_int_eq(vs[0]->kind, DW_VAR_LOCAL);
    ck_assert_int_eq(vs[n - 1]->kind, DW_VAR_GLOBAL);
    ck_assert_int_eq(dw_vars_at(l.d, pc, DW_VARS_PARAMS, vs, 64), 4);
    /* types by name */
    ck_assert_uint_eq(dw_type_size(dw_type_lookup(l.d, "Pair")), 8);
    ck_assert_int_eq(dw_type_lookup(l.d, "union Bits")->kind, DW_TY_UNION);
    ck_assert_int_eq(dw_type_lookup(l.d, "Color")->kind, DW_TY_ENUM);
    ck_assert_ptr_null(dw_type_lookup(l.d, "struct Color"));
    ck_assert_ptr_null(dw_type_lookup(l.d, "Nope"));
    unload(&l);
}
END_TEST

START_TEST(test_G_location_lists)
{
    loaded l = load(FIX "types.G.ptx");
    /* the first loop's `i`: %r46 before the test, %r4 in the body (mov.u32 %r4, %r46) */
    uint32_t pc = pc_of(&l, "setp.lt.s32 \t%p3, %r4, 5", 0);
    const dw_var *i = var_at(&l, pc, "i");
    ck_assert_int_ge(i->loclist, 0);
    check_reg(&l, i, pc, "%r4");
    check_reg(&l, i, pc_of(&l, "mov.u32 \t%r4, %r46", 0), "%r46");
    check_reg(&l, i, pc_of(&l, "mul.lo.s32 \t%r44, %r4, %r1", 0), "%r4");
    /* the second loop's `i` is visible at its init but has no location yet */
    uint32_t pc2 = pc_of(&l, "mov.u32 \t%r23, 0", 0);
    const dw_var *i2 = var_at(&l, pc2, "i");
    ck_assert_ptr_ne(i2, i);
    dw_loc lc;
    ck_assert_int_eq(dw_var_location(l.d, i2, pc2, &lc), 0);
    ck_assert_int_eq(lc.kind, DW_LOCK_NONE);
    check_reg(&l, i2, pc_of(&l, "setp.lt.s32 \t%p5, %r7, 2", 0), "%r7");
    /* the inner loop's `j` shadows nothing and is only inside its block */
    ck_assert_ptr_null(dw_var_lookup(l.d, pc2, "j"));
    check_reg(&l, var_at(&l, pc_of(&l, "setp.lt.s32 \t%p9, %r9, 3", 0), "j"),
              pc_of(&l, "setp.lt.s32 \t%p9, %r9, 3", 0), "%r9");
    /* outside every loop no `i` at all */
    ck_assert_ptr_null(dw_var_lookup(l.d, pc_of(&l, "bar.sync", 0), "i"));
    unload(&l);
}
END_TEST

/* ---- values ---------------------------------------------------------------------------------- */
static const char *fmt(const dw_type *t, const void *b, size_t n, int f, int top)
{
    static char out[1024];
    ck_assert_int_ge(dw_format_value(t, b, n, f, top, NULL, NULL, out, sizeof out), 0);
    return out;
}

static void put32(uint8_t *b, uint32_t v) { memcpy(b, &v, 4); }

START_TEST(test_format_fixture_types)
{
    loaded l = load(FIX "types.G.ptx");
    uint32_t pc = pc_of(&l, "bar.sync \t0", 0);
    uint8_t b[64];
    memset(b, 0, sizeof b);
    /* Cell {p = {a = 1, b = 2.5}, w = {1, 2, 3}, c = BLUE} */
    int one = 1;
    float f25 = 2.5f;
    double w[3] = {1, 2, 3};
    memcpy(b, &one, 4);
    memcpy(b + 4, &f25, 4);
    memcpy(b + 8, w, 24);
    put32(b + 32, 5);
    const dw_type *cell = var_at(&l, pc, "cell")->type;
    ck_assert_str_eq(fmt(cell, b, 40, 0, 1), "{p = {a = 1, b = 2.5}, w = {1, 2, 3}, c = BLUE}");
    put32(b + 32, 7);
    ck_assert_str_eq(fmt(cell, b, 40, 0, 1), "{p = {a = 1, b = 2.5}, w = {1, 2, 3}, c = 7}");
    ck_assert_str_eq(fmt(cell, b, 10, 0, 1), "<unavailable>");
    /* float [2][3] = i + j * 0.5 */
    float m[2][3] = {{0, 0.5f, 1}, {1, 1.5f, 2}};
    ck_assert_str_eq(fmt(var_at(&l, pc, "mat")->type, m, 24, 0, 1), "{{0, 0.5, 1}, {1, 1.5, 2}}");
    /* union */
    float fone = 1.0f;
    ck_assert_str_eq(fmt(var_at(&l, pc, "bits")->type, &fone, 4, 0, 1),
                     "{f = 1, u = 1065353216}");
    /* __half 1.5 */
    uint16_t h = 0x3e00;
    ck_assert_str_eq(fmt(var_at(&l, pc, "h")->type, &h, 2, 0, 1), "1.5");
    ck_assert_str_eq(fmt(var_at(&l, pc, "h")->type, &h, 2, 'x', 1), "{__x = 0x3e00}");
    /* repeats and /x */
    float tile[32];
    memset(tile, 0, sizeof tile);
    ck_assert_str_eq(fmt(var_at(&l, pc, "tile")->type, tile, sizeof tile, 0, 1),
                     "{0 <repeats 32 times>}");
    int loc[5] = {0, 1, 2, 3, 255};
    ck_assert_str_eq(fmt(var_at(&l, pc, "loc")->type, loc, 20, 0, 1), "{0, 1, 2, 3, 255}");
    ck_assert_str_eq(fmt(var_at(&l, pc, "loc")->type, loc, 20, 'x', 1), "{0x0, 0x1, 0x2, 0x3, 0xff}");
    /* pointers */
    uint64_t p = 0x7fff1000;
    ck_assert_str_eq(fmt(var_at(&l, pc, "in")->type, &p, 8, 0, 1), "(const float *) 0x7fff1000");
    ck_assert_str_eq(fmt(var_at(&l, pc, "in")->type, &p, 8, 0, 0), "0x7fff1000");
    /* enum and typedef */
    uint32_t c = 1;
    ck_assert_str_eq(fmt(var_at(&l, pc, "col")->type, &c, 4, 0, 1), "GREEN");
    c = 4000000000u;
    ck_assert_str_eq(fmt(var_at(&l, pc, "idx")->type, &c, 4, 0, 1), "4000000000");
    ck_assert_str_eq(fmt(var_at(&l, pc, "n")->type, &c, 4, 0, 1), "-294967296");
    /* a pointer to the fixture's type, as `&cell` would give */
    const dw_type *pc_t = dw_type_pointer_to(l.d, cell, PTX_SPACE_LOCAL);
    ck_assert_str_eq(tname(pc_t), "Cell *");
    ck_assert_str_eq(fmt(pc_t, &p, 8, 0, 1), "(@local Cell *) 0x7fff1000");
    unload(&l);
}
END_TEST

static int read_mem(void *ctx, ptx_space space, uint64_t addr, void *buf, size_t n)
{
    const char *s = ctx;
    if ((space != PTX_SPACE_GLOBAL && space != PTX_SPACE_GENERIC) || addr < 0x100 || addr - 0x100 + n > strlen(s) + 1)
        return -1;
    memcpy(buf, s + (addr - 0x100), n);
    return 0;
}

START_TEST(test_format_synthetic)
{
    dw_type chr = {.kind = DW_TY_BASE, .name = "char", .size = 1, .enc = DW_BT_SIGNED_CHAR};
    dw_type cchr = {.kind = DW_TY_CONST, .target = &chr};
    dw_type pstr = {.kind = DW_TY_POINTER, .size = 8, .target = &cchr, .space = PTX_SPACE_GLOBAL};
    dw_type bl = {.kind = DW_TY_BASE, .name = "bool", .size = 1, .enc = DW_BT_BOOL};
    dw_type dbl = {.kind = DW_TY_BASE, .name = "double", .size = 8, .enc = DW_BT_FLOAT};
    dw_type arr = {.kind = DW_TY_ARRAY, .size = 8, .target = &chr, .ndims = 1, .dims = {8}};
    dw_type pp = {.kind = DW_TY_POINTER, .size = 8, .target = &pstr, .space = PTX_SPACE_GENERIC};
    dw_type parr = {.kind = DW_TY_POINTER, .size = 8, .target = &arr, .space = PTX_SPACE_GENERIC};
    char out[256];
    uint64_t a = 0x100;
    dw_format_value(&pstr, (uint8_t *)&a, 8, 0, 1, read_mem, "hi\n", out, sizeof out);
    ck_assert_str_eq(out, "(@global const char *) 0x100 \"hi\\n\"");
    a = 0x50;
    dw_format_value(&pstr, (uint8_t *)&a, 8, 0, 0, read_mem, "hi", out, sizeof out);
    ck_assert_str_eq(out, "0x50 <error: Cannot access memory at address 0x50>");
    /* a reference shows its referent after its address, as gdb does: "(char &) @0x101: 105
       'i'" ('i' is the second byte of "hi"; it showed the address alone) */
    dw_type rchr = {.kind = DW_TY_REFERENCE, .size = 8, .target = &chr, .space = PTX_SPACE_GLOBAL};
    a = 0x101;
    dw_format_value(&rchr, (uint8_t *)&a, 8, 0, 1, read_mem, "hi", out, sizeof out);
    ck_assert_str_eq(out, "(@global char &) @0x101: 105 'i'");
    dw_format_value(&rchr, (uint8_t *)&a, 8, 0, 0, read_mem, "hi", out, sizeof out);
    ck_assert_str_eq(out, "@0x101: 105 'i'");
    a = 0x50;
    dw_format_value(&rchr, (uint8_t *)&a, 8, 0, 0, read_mem, "hi", out, sizeof out);
    ck_assert_str_eq(out, "@0x50: <error: Cannot access memory at address 0x50>");
    uint8_t t = 1, f = 0, x = 65;
    ck_assert_str_eq(fmt(&bl, &t, 1, 0, 1), "true");
    ck_assert_str_eq(fmt(&bl, &f, 1, 0, 1), "false");
    ck_assert_str_eq(fmt(&chr, &x, 1, 0, 1), "65 'A'");
    ck_assert_str_eq(fmt(&chr, &x, 1, 't', 1), "1000001");
    double d = 0.1;
    ck_assert_str_eq(fmt(&dbl, &d, 8, 0, 1), "0.10000000000000001");
    ck_assert_str_eq(fmt(&arr, "ab\0\0\0\0\0\0", 8, 0, 1), "\"ab\"");
    ck_assert_str_eq(fmt(&arr, "ab\0c\0\0\0\0", 8, 0, 1), "\"ab\\000c\\000\\000\\000\\000\"");
    ck_assert_str_eq(tname(&pp), "const char **");
    ck_assert_str_eq(tname(&parr), "char (*)[8]");
    ck_assert_str_eq(tname(&cchr), "const char");
    /* small output buffers are truncated, not overrun */
    char small[6];
    ck_assert_int_eq(dw_format_value(&dbl, (uint8_t *)&d, 8, 0, 1, NULL, NULL, small, sizeof small), 5);
    ck_assert_str_eq(small, "0.100");
}
END_TEST

START_TEST(test_spaces_fixture)
{
    loaded l = load(FIX "spaces.G.ptx");
    ck_assert_str_eq(l.warn, "");
    uint32_t pc = pc_of(&l, "bar.sync \t0", 0);
    /* struct Node: int, const char *, bool, unsigned char[3], volatile int */
    const dw_type *node = dw_type_lookup(l.d, "Node");
    ck_assert_ptr_nonnull(node);
    ck_assert_uint_eq(node->size, 24);
    ck_assert_uint_eq(dw_type_member(node, "label")->offset, 8);
    ck_assert_uint_eq(dw_type_member(node, "live")->offset, 16);
    ck_assert_uint_eq(dw_type_member(node, "tag")->offset, 17);
    ck_assert_uint_eq(dw_type_member(node, "hits")->offset, 20);
    ck_assert_str_eq(tname(dw_type_member(node, "label")->type), "const char *");
    ck_assert_str_eq(tname(dw_type_member(node, "tag")->type), "unsigned char [3]");
    ck_assert_str_eq(tname(dw_type_member(node, "hits")->type), "volatile int");
    uint8_t b[24];
    memset(b, 0, sizeof b);
    b[0] = 7;
    b[8] = 0x00;
    b[9] = 0x01;                      /* label = 0x100 */
    b[16] = 1;
    b[17] = 'x';
    b[18] = 'y';
    b[20] = 3;
    char out[512];
    dw_format_value(node, b, 24, 0, 1, read_mem, "node0", out, sizeof out);
    ck_assert_str_eq(out, "{key = 7, label = 0x100 \"node0\", live = true, tag = \"xy\", hits = 3}");
    /* __half2 */
    const dw_type *h2 = dw_type_lookup(l.d, "__half2");
    uint16_t hv[2] = {0x3e00, 0xc000};
    ck_assert_str_eq(fmt(h2, hv, 4, 0, 1), "{x = 1.5, y = -2}");
    ck_assert_str_eq(tname(var_at(&l, pc, "pair")->type), "__half2");
    check_mem(&l, var_at(&l, pc, "pair"), pc, PTX_SPACE_LOCAL, "__local_depot2", 32);
    /* locals, pointers to each space (generic pointers in DWARF), bool and char */
    check_mem(&l, var_at(&l, pc, "larr"), pc, PTX_SPACE_LOCAL, "__local_depot2", 8);
    check_mem(&l, var_at(&l, pc, "sarr"), pc, PTX_SPACE_SHARED,
              "_ZZ13spaces_kernelPiP7__half2iE4sarr", 0);
    ck_assert_str_eq(tname(var_at(&l, pc, "to_const")->type), "const int *");
    ck_assert_str_eq(tname(var_at(&l, pc, "to_global")->type), "Node *");
    ck_assert_int_eq(dw_type_strip(var_at(&l, pc, "to_shared")->type)->space, PTX_SPACE_GENERIC);
    uint8_t one = 1, a = 'C';
    ck_assert_str_eq(fmt(var_at(&l, pc, "flag")->type, &one, 1, 0, 1), "true");
    ck_assert_str_eq(fmt(var_at(&l, pc, "letter")->type, &a, 1, 0, 1), "67 'C'");
    /* module variables */
    const dw_var *cv = var_at(&l, pc, "cvals");
    check_mem(&l, cv, pc, PTX_SPACE_CONST, "cvals", 0);
    ck_assert_str_eq(tname(cv->type), "int [3][2]");
    check_mem(&l, var_at(&l, pc, "gnode"), pc, PTX_SPACE_GLOBAL, "gnode", 0);
    /* references with the generic address class */
    const dw_func *bump = dw_func_by_name(l.d, "bump");
    ck_assert_int_eq(bump->nparams, 2);
    ck_assert_str_eq(tname(bump->params[0]->type), "int &");
    ck_assert_str_eq(tname(bump->params[1]->type), "const Node &");
    const dw_type *rt = dw_type_strip(bump->params[0]->type);
    ck_assert_int_eq(rt->kind, DW_TY_REFERENCE);
    ck_assert_int_eq(rt->addr_class, 12);
    ck_assert_int_eq(rt->space, PTX_SPACE_GENERIC);
    unload(&l);
}
END_TEST

/* ---- broken DWARF ----------------------------------------------------------------------------- */
/* Replace the body of `.section NAME { ... }` by `body` (or keep its first `keep` lines). */
static char *edit_section(const char *text, const char *name, const char *body, int keep)
{
    char hdr[64];
    snprintf(hdr, sizeof hdr, ".section\t%s\n", name);
    const char *s = strstr(text, hdr);
    ck_assert_ptr_nonnull(s);
    const char *open = strchr(s, '{');
    ck_assert_ptr_nonnull(open);
    const char *p = open + 1;
    if (*p == '\n')
        p++;
    const char *cut = p;
    for (int i = 0; i < keep; i++) {
        const char *nl = strchr(cut, '\n');
        ck_assert_ptr_nonnull(nl);
        cut = nl + 1;
    }
    const char *close = strstr(p, "\n\t}");
    ck_assert_ptr_nonnull(close);
    size_t n = strlen(text) + strlen(body) + 16;
    char *r = malloc(n);
    ck_assert_ptr_nonnull(r);
    snprintf(r, n, "%.*s%s%s%s", (int)(cut - text), text, body, keep ? "" : "\n", close + 1);
    return r;
}

static void check_lines_still_work(const loaded *l)
{
    dw_line ln;
    uint32_t pc = pc_of(l, "bar.sync \t0", 0);
    ck_assert_int_eq(dw_line_at(l->d, pc, &ln), 0);
    ck_assert_int_eq(ln.line, 58);
    const dw_func *f = dw_func_at(l->d, pc);
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(f->name, "kern");
}

START_TEST(test_truncated_info)
{
    char *text = tu_read_file(FIX "types.G.ptx", NULL);
    ck_assert_ptr_nonnull(text);
    for (int keep = 1; keep < 400; keep += 37) {
        char *bad = edit_section(text, ".debug_info", "", keep);
        loaded l = load_text(bad, "trunc.ptx");
        ck_assert_msg(strstr(l.warn, "warning:") != NULL, "keep %d: no warning", keep);
        check_lines_still_work(&l);
        unload(&l);
        free(bad);
    }
    free(text);
}
END_TEST

START_TEST(test_garbage_abbrev)
{
    char *text = tu_read_file(FIX "types.G.ptx", NULL);
    ck_assert_ptr_nonnull(text);
    static const char *bodies[] = {
        ".b8 255,255,255,255,255,255,255,255,255,255,0",
        ".b8 1,17,1,37,8,19,11,3,8,27,8,16,6,17,1,0,0,2,52,0,3,77,0,0,0",
        ".b8 1,17,1,0,0,2,46,1,3,8,0,0,0",
        ".b8 0",
    };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        char *bad = edit_section(text, ".debug_abbrev", bodies[i], 0);
        loaded l = load_text(bad, "abbrev.ptx");
        ck_assert_msg(strstr(l.warn, "warning:") != NULL, "body %zu: no warning", i);
        check_lines_still_work(&l);
        /* whatever was read can be queried */
        const dw_var *vs[64];
        int n = dw_vars_at(l.d, pc_of(&l, "bar.sync \t0", 0), DW_VARS_ALL, vs, 64);
        for (int k = 0; k < n && k < 64; k++) {
            dw_loc lc;
            char buf[256];
            dw_var_location(l.d, vs[k], 0, &lc);
            dw_type_name(vs[k]->type, buf, sizeof buf);
        }
        unload(&l);
        free(bad);
    }
    free(text);
}
END_TEST

START_TEST(test_garbage_loc)
{
    char *text = tu_read_file(FIX "types.G.ptx", NULL);
    ck_assert_ptr_nonnull(text);
    char *bad = edit_section(text, ".debug_loc", ".b64 0\n.b64 99999\n.b16 60000\n.b8 144", 0);
    loaded l = load_text(bad, "loc.ptx");
    uint32_t pc = pc_of(&l, "setp.lt.s32 \t%p3, %r4, 5", 0);
    const dw_var *i = dw_var_lookup(l.d, pc, "i");
    ck_assert_ptr_nonnull(i);
    dw_loc lc;
    ck_assert_int_eq(dw_var_location(l.d, i, pc, &lc), 0);
    ck_assert(lc.kind == DW_LOCK_NONE || lc.kind == DW_LOCK_UNSUPPORTED);
    unload(&l);
    free(bad);
    free(text);
}
END_TEST

/* fuzz-dwarf-1 (tests/badinput/fuzz-dwarf-1.bin, a fuzz_dwarf input): damaged DWARF gave a
 * bit-field a bit offset of 2031, and printing it shifted a 64-bit value by that much. Bit-fields
 * that do not fit the 64-bit unit print as invalid; a valid one beside them still prints. */
START_TEST(test_bitfield_out_of_unit)
{
    static const dw_type s32 = {.kind = DW_TY_BASE, .name = "int", .size = 4, .enc = DW_BT_SIGNED};
    static const dw_member m[] = {
        {"a", &s32, 0, 3, 2031}, {"b", &s32, 0, 70, 0}, {"c", &s32, 0, -1, 0},
        {"d", &s32, 0, 4, 62}, {"e", &s32, 0, 3, 2},
    };
    static const dw_type st = {.kind = DW_TY_STRUCT, .name = "Bits", .size = 4, .members = m,
                               .nmembers = 5};
    const uint8_t bytes[4] = {0x14, 0, 0, 0}; /* bits 2..4 = 0b101: e = -3 as a signed 3-bit */
    char out[256];
    ck_assert_int_ge(dw_format_value(&st, bytes, sizeof bytes, 0, 1, NULL, NULL, out, sizeof out), 0);
    ck_assert_str_eq(out, "{a = <invalid bit-field>, b = <invalid bit-field>, "
                          "c = <invalid bit-field>, d = <invalid bit-field>, e = -3}");
}
END_TEST

/* A CUDA program's own ELF (tests/cuda/particles, built with host -g): its symbols, host line
 * table (rows of the generated .cudafe1.cpp count as particles.cu's), functions known only to
 * its DWARF (host_fn is inlined), and the PTX of its fat binary. Lines come from the source. */
static int src_line(const char *path, const char *text)
{
    FILE *f = fopen(path, "r");
    char buf[512];
    int n = 0, found = 0;
    while (f && !found && fgets(buf, sizeof buf, f)) {
        n++;
        found = strstr(buf, text) != NULL;
    }
    if (f)
        fclose(f);
    return found ? n : 0;
}

START_TEST(test_host_program)
{
    ck_assert(dw_path_matches("/a/b/particles.cu", "particles.cu"));
    ck_assert(dw_path_matches("/a/b/particles.cu", "b/particles.cu"));
    ck_assert(!dw_path_matches("/a/b/xparticles.cu", "particles.cu"));
    ck_assert(!dw_path_matches("particles.cu", "/particles.cu"));
    ck_assert_ptr_null(dw_host_open("tests/cuda/particles.cu"));   /* not an ELF */
    dw_host *h = dw_host_open("tests/cuda/particles");
    ck_assert_ptr_nonnull(h);
    ck_assert(dw_host_has_lines(h));
    int seen_main = 0;
    for (int i = 0; i < dw_host_nsymbols(h); i++)
        seen_main |= !strcmp(dw_host_symbol_name(h, i), "main");
    ck_assert(seen_main);
    int l_free = src_line("tests/cuda/particles.cu", "CHECK(cudaFree(p));");
    int l_host = src_line("tests/cuda/particles.cu", "c += e > 1.0f;");
    int l_decl = src_line("tests/cuda/particles.cu", "static void release(void *p)");
    ck_assert_int_gt(l_free, 0);
    ck_assert_int_eq(dw_host_next_line(h, "particles.cu", l_free), l_free);
    ck_assert_int_eq(dw_host_next_line(h, "particles.cu", l_host), l_host);
    /* the declaration line has no code: the next line with some is the body's */
    int nl = dw_host_next_line(h, "particles.cu", l_decl);
    ck_assert(nl > l_decl && nl <= l_free);
    ck_assert_int_eq(dw_host_next_line(h, "nosuch.cu", 1), 0);
    ck_assert(dw_host_func_named(h, "host_fn", NULL));
    ck_assert(dw_host_func_named(h, "main", NULL));
    ck_assert(!dw_host_func_named(h, "row_sum", NULL));   /* device code only */
    const uint8_t *fb;
    size_t len;
    ck_assert_int_eq(dw_host_section(h, ".nv_fatbin", &fb, &len), 0);
    /* containers back to back (8-aligned): the device link's holds SASS only (-2), the
       program's its PTX */
    int with_ptx = 0, sass_only = 0;
    for (size_t off = 0; off + 16 <= len;) {
        size_t cs = ptx_fatbin_size(fb + off, len - off);
        if (!cs) {
            off += 8;
            continue;
        }
        char *ptx = NULL, err[256];
        size_t pl = 0;
        int r = ptx_fatbin_ptx(fb + off, cs, 80, &ptx, &pl, err, sizeof err);
        if (r == 0) {
            with_ptx++;
            ck_assert_ptr_nonnull(strstr(ptx, ".entry _Z7advanceP8ParticleifPi"));
        } else {
            ck_assert_int_eq(r, -2);
            sass_only++;
        }
        free(ptx);
        off += (cs + 7) & ~(size_t)7;
    }
    ck_assert_int_eq(with_ptx, 1);
    ck_assert_int_ge(sass_only, 1);
    ck_assert_int_eq(dw_host_section(h, ".nosuch", &fb, &len), -1);
    dw_host_close(h);
}
END_TEST

START_TEST(test_lineinfo_has_no_dies)
{
    loaded l = load(FIX "types.lineinfo.ptx");
    ck_assert_str_eq(l.warn, "");
    ck_assert(!dw_has_dwarf(l.d));
    ck_assert_int_eq(dw_nglobals(l.d), 0);
    const dw_func *k = dw_func_by_name(l.d, "kern");
    ck_assert_ptr_nonnull(k);
    ck_assert_int_eq(k->nparams, 0);
    ck_assert_ptr_null(dw_var_lookup(l.d, k->lo, "idx"));
    unload(&l);
    l = load(FIX "types.O3.ptx");
    ck_assert_str_eq(l.warn, "");
    ck_assert_ptr_nonnull(dw_func_by_name(l.d, "kern"));
    unload(&l);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dwarf");
    TCase *tc = tcase_create("dwarf");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_leb_and_regnames);
    tcase_add_test(tc, test_section_bytes);
    tcase_add_test(tc, test_G_functions);
    tcase_add_test(tc, test_G_variables);
    tcase_add_test(tc, test_G_location_lists);
    tcase_add_test(tc, test_format_fixture_types);
    tcase_add_test(tc, test_format_synthetic);
    tcase_add_test(tc, test_spaces_fixture);
    tcase_add_test(tc, test_truncated_info);
    tcase_add_test(tc, test_garbage_abbrev);
    tcase_add_test(tc, test_garbage_loc);
    tcase_add_test(tc, test_bitfield_out_of_unit);
    tcase_add_test(tc, test_lineinfo_has_no_dies);
    tcase_add_test(tc, test_host_program);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
