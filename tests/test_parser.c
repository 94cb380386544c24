/* test_parser.c - Check suite for the PTX parser: grammar, symbols, real nvcc output, errors. */
#include <string.h>
#include "ptx.h"
#include "test_util.h"

#define FIX "tests/fixtures/parser/"

static ptx_module *parse_fixture(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, FIX "%s", name);
    ptx_error err;
    ptx_module *m = ptx_parse_file(path, &err);
    ck_assert_msg(m != NULL, "%s", err.msg);
    return m;
}

static ptx_module *parse_str(const char *s, ptx_error *err)
{
    return ptx_parse(s, strlen(s), "t.ptx", err);
}

static const ptx_sym *find_reg(const ptx_func *f, const char *name)
{
    for (int i = 0; i < f->nregs; i++)
        if (strcmp(f->regs[i]->name, name) == 0)
            return f->regs[i];
    return NULL;
}

static const ptx_insn *insn_at_line(const ptx_func *f, int line)
{
    for (int i = 0; i < f->ninsns; i++)
        if (f->insns[i].line == line)
            return &f->insns[i];
    return NULL;
}

static char fmtbuf[1024];
static const char *fmt(const ptx_insn *in)
{
    ptx_insn_format(in, fmtbuf, sizeof fmtbuf);
    return fmtbuf;
}

/* ---- grammar.ptx: hand-written corners; expected values come from the PTX text ---------- */
START_TEST(test_header_and_vars)
{
    ptx_module *m = parse_fixture("grammar.ptx");
    ck_assert_int_eq(m->version_major, 9);
    ck_assert_int_eq(m->version_minor, 0);
    ck_assert_str_eq(m->target, "sm_90");
    ck_assert_int_eq(m->target_debug, 1);
    ck_assert_int_eq(m->address_size, 64);
    ck_assert_int_eq(m->nvars, 19);

    ptx_sym *v = ptx_find_var(m, "gcount");
    ck_assert_int_eq(v->space, PTX_SPACE_GLOBAL);
    ck_assert_int_eq(v->type, PTX_T_U32);
    ck_assert_int_eq(v->align, 4);
    ck_assert_uint_eq(v->size, 4);
    ck_assert_uint_eq(v->init_size, 4);
    ck_assert_int_eq(v->init[0], 7);

    v = ptx_find_var(m, "gptr"); /* generic(gcount) */
    ck_assert_int_eq(v->nrelocs, 1);
    ck_assert_int_eq(v->relocs[0].generic, 1);
    ck_assert_str_eq(v->relocs[0].sym->name, "gcount");
    ck_assert_int_eq(v->relocs[0].size, 8);

    v = ptx_find_var(m, "gaddr"); /* {gcount, gcount+8} */
    ck_assert_int_eq(v->nrelocs, 2);
    ck_assert_uint_eq(v->relocs[1].offset, 8);
    ck_assert_int_eq(v->relocs[1].addend, 8);
    ck_assert_int_eq(v->relocs[1].generic, 0);

    v = ptx_find_var(m, "cf"); /* {1.0, 0f40000000, 3} */
    float f[3];
    memcpy(f, v->init, 12);
    ck_assert(f[0] == 1.0f && f[1] == 2.0f && f[2] == 3.0f);
    ck_assert_int_eq(v->space, PTX_SPACE_CONST);

    v = ptx_find_var(m, "fh"); /* .f16 1.0 = 0x3c00 */
    ck_assert_int_eq(v->init[0] | v->init[1] << 8, 0x3c00);

    v = ptx_find_var(m, "neg"); /* {-1, -2, 0x7f, 0b101} */
    ck_assert_int_eq(v->init[0], 0xff);
    ck_assert_int_eq(v->init[1], 0xfe);
    ck_assert_int_eq(v->init[2], 0x7f);
    ck_assert_int_eq(v->init[3], 5);

    v = ptx_find_var(m, "mat"); /* [2][3] = {{1,2,3},{4,5,6}} */
    ck_assert_int_eq(v->ndims, 2);
    ck_assert_uint_eq(v->dims[1], 3);
    ck_assert_uint_eq(v->size, 24);
    ck_assert_int_eq(v->init[4 * 4], 5);

    v = ptx_find_var(m, "flat"); /* [2][2] = {1, 2, 3} */
    ck_assert_int_eq(v->init[8], 3);
    ck_assert_int_eq(v->init[12], 0);

    v = ptx_find_var(m, "unsz"); /* [] = {10, 20, 30} */
    ck_assert_uint_eq(v->dims[0], 3);
    ck_assert_uint_eq(v->size, 12);
    ck_assert_int_eq(v->init[8], 30);

    v = ptx_find_var(m, "vec4");
    ck_assert_int_eq(v->vec, 4);
    ck_assert_uint_eq(v->size, 16);

    /* (1 << 4) + 3 * 2 - ~0 + (7 > 3 ? 100 : 200) + 017 + 10U / 3 = 16+6+1+100+15+3 */
    v = ptx_find_var(m, "expr1");
    ck_assert_int_eq(v->init[0], 141);
    v = ptx_find_var(m, "expr2"); /* -8 >> 1 */
    ck_assert_int_eq((int8_t)v->init[0], -4);
    ck_assert_int_eq(v->init[7], 0xff);

    v = ptx_find_var(m, "dynsh");
    ck_assert_uint_eq(v->dims[0], 0);
    ck_assert_int_eq(v->flags & PTX_LINK_EXTERN, PTX_LINK_EXTERN);
    ck_assert_int_eq(v->align, 16);
    ck_assert_int_eq(ptx_find_var(m, "cta_buf")->space, PTX_SPACE_SHARED);
    ck_assert_int_eq(ptx_find_var(m, "clus")->space, PTX_SPACE_SHARED_CLUSTER);
    ck_assert(ptx_find_var(m, "managed_var")->flags & PTX_ATTR_MANAGED);
    ck_assert(ptx_find_var(m, "managed_var")->flags & PTX_LINK_VISIBLE);
    ck_assert(ptx_find_var(m, "common_var")->flags & PTX_LINK_COMMON);
    v = ptx_find_var(m, "weak_d");
    double d;
    memcpy(&d, v->init, 8);
    ck_assert(d == 1.0);
    ck_assert(v->flags & PTX_LINK_WEAK);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_functions_and_scopes)
{
    ptx_module *m = parse_fixture("grammar.ptx");
    /* vprintf, fwd, noargs, fwd_alias, kern, prototype_1, brx_kern */
    ck_assert_int_eq(m->nfuncs, 7);
    ptx_func *vp = ptx_find_func(m, "vprintf");
    ck_assert_int_eq(vp->has_body, 0);
    ck_assert(vp->flags & PTX_LINK_EXTERN);
    ck_assert_int_eq(vp->nrets, 1);
    ck_assert_int_eq(vp->nparams, 2);
    ptx_func *fwd = ptx_find_func(m, "fwd"); /* declared, then defined: one function */
    ck_assert_int_eq(fwd->has_body, 1);
    ck_assert_int_eq(fwd->ninsns, 4);
    ck_assert_int_eq(fwd->line, 32);
    ck_assert_int_eq(m->naliases, 1);
    ck_assert_ptr_eq(m->aliases[0].target, fwd->sym);

    ptx_func *k = ptx_find_func(m, "kern");
    ck_assert_int_eq(k->is_entry, 1);
    ck_assert_int_eq(k->nparams, 3);
    ck_assert_int_eq(k->params[0]->ptr_space, PTX_SPACE_GLOBAL);
    ck_assert_int_eq(k->params[0]->ptr_align, 16);
    ck_assert_uint_eq(k->params[2]->size, 24);
    ck_assert_int_eq(k->params[2]->align, 8);
    ck_assert_uint_eq(k->maxntid[0], 128);
    ck_assert_uint_eq(k->maxntid[1], 1);
    ck_assert_uint_eq(k->minnctapersm, 2);
    ck_assert_uint_eq(k->maxnreg, 64);
    ck_assert_int_eq(k->npragmas, 1);
    ck_assert_str_eq(k->pragmas[0], "nounroll");
    /* %p<3> %rs<2> %r<10> %rd<6> %f<3> %fd1 %v %q */
    ck_assert_int_eq(k->nregs, 3 + 2 + 10 + 6 + 3 + 3);
    ck_assert_str_eq(k->regs[0]->name, "%p0");
    ck_assert_int_eq(find_reg(k, "%v")->vec, 2);
    ck_assert_uint_eq(find_reg(k, "%v")->size, 8);
    ck_assert_int_eq(find_reg(k, "%q")->type, PTX_T_B128);
    ck_assert_ptr_eq(find_reg(k, "%r9")->owner, k);
    /* local depot, demoted shared, 2 x (param0, retval0) in call scopes */
    ck_assert_int_eq(k->nvars, 6);
    ck_assert_str_eq(k->vars[1]->name, "demoted");
    ck_assert_int_eq(k->vars[1]->space, PTX_SPACE_SHARED);

    /* the two call sequences' param0 are different syms, each used in its own scope */
    const ptx_insn *st = insn_at_line(k, 104), *call2 = insn_at_line(k, 113);
    ck_assert_ptr_nonnull(st);
    ck_assert_ptr_nonnull(call2);
    ck_assert_ptr_eq(st->ops[0].sym, k->vars[2]);
    ck_assert_ptr_eq(call2->ops[2].elems[0].sym, k->vars[4]);
    ck_assert_ptr_ne(k->vars[2], k->vars[4]);
    ck_assert_str_eq(k->vars[4]->name, "param0");

    /* labels: $L__BB0_2 precedes the first st.param (line 104) */
    ck_assert_int_eq(k->nlabels, 2);
    ck_assert_str_eq(k->labels[0]->name, "$L__BB0_2");
    ck_assert_int_eq(k->insns[k->labels[0]->index].line, 104);
    const ptx_insn *br = insn_at_line(k, 81); /* @%p1 bra $L__BB0_2; (forward) */
    ck_assert_ptr_eq(br->ops[0].sym, k->labels[0]);
    ck_assert_str_eq(br->guard->name, "%p1");

    /* prototype */
    ck_assert_int_eq(m->funcs[5]->is_prototype, 1);
    ck_assert_str_eq(m->funcs[5]->sym->name, "prototype_1");
    ck_assert_int_eq(m->funcs[5]->nrets, 1);
    ck_assert_int_eq(m->funcs[5]->nparams, 1);
    ck_assert_ptr_eq(call2->ops[3].sym, m->funcs[5]->sym);

    ptx_func *b = ptx_find_func(m, "brx_kern");
    ck_assert_uint_eq(b->reqntid[0], 32);
    ck_assert_uint_eq(b->reqnctapercluster[0], 2);
    ck_assert_uint_eq(b->maxclusterrank, 4);
    ck_assert_int_eq(b->ntargets, 1);
    ck_assert_int_eq(b->targets[0].nitems, 2);
    ck_assert_str_eq(b->targets[0].items[1]->name, "L1");
    ck_assert_int_eq(b->targets[0].items[1]->index, 2); /* L1 precedes trap */
    ck_assert_ptr_eq(b->insns[0].ops[1].sym, b->targets[0].sym);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_operands)
{
    ptx_module *m = parse_fixture("grammar.ptx");
    ptx_func *k = ptx_find_func(m, "kern");
    const ptx_insn *in = insn_at_line(k, 73); /* mov.u32 %r2, %tid.x; */
    ck_assert_str_eq(in->opcode, "mov");
    ck_assert_int_eq(in->nmods, 1);
    ck_assert_str_eq(in->mods[0], "u32");
    ck_assert_int_eq(in->ops[1].kind, PTX_OP_REG);
    ck_assert_int_eq(in->ops[1].sym->kind, PTX_SYM_SREG);
    ck_assert_int_eq(in->ops[1].sym->sreg_id, PTX_SREG_TID);
    ck_assert_int_eq(in->ops[1].comp, 0);
    in = insn_at_line(k, 74);
    ck_assert_int_eq(in->ops[1].comp, 1);
    in = insn_at_line(k, 75); /* %envreg3 */
    ck_assert_int_eq(in->ops[1].sym->sreg_id, PTX_SREG_ENVREG);
    ck_assert_int_eq(in->ops[1].comp, 3);

    in = insn_at_line(k, 79); /* setp.lt.u32 %p1|%p2, %r2, %r1; */
    ck_assert_int_eq(in->ops[0].kind, PTX_OP_PAIR);
    ck_assert_str_eq(in->ops[0].elems[1].sym->name, "%p2");
    in = insn_at_line(k, 80); /* setp.eq.and.u32 _|%p0, %r2, 0, !%p1; */
    ck_assert_int_eq(in->ops[0].elems[0].kind, PTX_OP_SINK);
    ck_assert_int_eq(in->ops[2].kind, PTX_OP_IMM);
    ck_assert_int_eq(in->ops[3].neg, 1);
    in = insn_at_line(k, 82); /* @!%p2 bra.uni */
    ck_assert_int_eq(in->guard_neg, 1);

    in = insn_at_line(k, 84); /* ld.global.nc.L1::evict_last.L2::cache_hint.v2.u32 ... */
    ck_assert_int_eq(in->nmods, 6);
    ck_assert_str_eq(in->mods[2], "L1::evict_last");
    ck_assert_str_eq(in->mods[3], "L2::cache_hint");
    ck_assert(ptx_insn_has_mod(in, "v2"));
    ck_assert(ptx_insn_has_mod(in, ".nc"));
    ck_assert(!ptx_insn_has_mod(in, "v4"));
    ck_assert_int_eq(in->ops[0].kind, PTX_OP_VEC);
    ck_assert_int_eq(in->ops[0].nelems, 2);
    ck_assert_int_eq(in->ops[1].kind, PTX_OP_ADDR);
    ck_assert_str_eq(in->ops[1].sym->name, "%rd3");
    ck_assert_int_eq(in->ops[1].ival, -4);
    in = insn_at_line(k, 85); /* {%r5, _} */
    ck_assert_int_eq(in->ops[1].elems[1].kind, PTX_OP_SINK);
    in = insn_at_line(k, 86); /* [demoted+8] */
    ck_assert_str_eq(in->mods[0], "shared::cta");
    ck_assert_int_eq(in->ops[1].sym->kind, PTX_SYM_VAR);
    ck_assert_int_eq(in->ops[1].ival, 8);
    in = insn_at_line(k, 89); /* [100] */
    ck_assert_ptr_null(in->ops[1].sym);
    ck_assert_int_eq(in->ops[1].ival, 100);
    in = insn_at_line(k, 91); /* mat+12 */
    ck_assert_int_eq(in->ops[1].kind, PTX_OP_SYM);
    ck_assert_int_eq(in->ops[1].ival, 12);
    in = insn_at_line(k, 92); /* 0f3F800000 */
    ck_assert_int_eq(in->ops[1].kind, PTX_OP_FIMM);
    ck_assert_int_eq(in->ops[1].fsize, 32);
    ck_assert(in->ops[1].fval == 1.0);
    in = insn_at_line(k, 94); /* 1.5 -> 64-bit */
    ck_assert_int_eq(in->ops[1].fsize, 64);
    ck_assert(in->ops[1].fval == 1.5);
    in = insn_at_line(k, 95); /* (4 * 2 + 1) */
    ck_assert_int_eq(in->ops[2].ival, 9);

    in = insn_at_line(k, 106); /* call.uni (retval0), fwd, (param0); */
    ck_assert_int_eq(in->call_has_ret, 1);
    ck_assert_int_eq(in->nops, 3);
    ck_assert_int_eq(in->ops[0].kind, PTX_OP_LIST);
    ck_assert_int_eq(in->ops[1].sym->kind, PTX_SYM_FUNC);
    ck_assert_ptr_eq(in->ops[1].sym->func, ptx_find_func(m, "fwd"));
    in = insn_at_line(k, 113); /* call (retval0), %rd4, (param0), prototype_1; */
    ck_assert_int_eq(in->nops, 4);
    ck_assert_int_eq(in->ops[1].kind, PTX_OP_REG);
    in = insn_at_line(k, 115); /* call.uni noargs; */
    ck_assert_int_eq(in->call_has_ret, 0);
    ck_assert_int_eq(in->nops, 1);
    in = insn_at_line(k, 116); /* call noargs, (); */
    ck_assert_int_eq(in->nops, 2);
    ck_assert_int_eq(in->ops[1].nelems, 0);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_format)
{
    ptx_module *m = parse_fixture("grammar.ptx");
    ptx_func *k = ptx_find_func(m, "kern");
    ck_assert_str_eq(fmt(insn_at_line(k, 80)), "setp.eq.and.u32 _|%p0, %r2, 0, !%p1;");
    ck_assert_str_eq(fmt(insn_at_line(k, 81)), "@%p1 bra $L__BB0_2;");
    ck_assert_str_eq(fmt(insn_at_line(k, 84)),
                     "ld.global.nc.L1::evict_last.L2::cache_hint.v2.u32 {%r5, %r6}, [%rd3+-4], %rd2;");
    ck_assert_str_eq(fmt(insn_at_line(k, 73)), "mov.u32 %r2, %tid.x;");
    ck_assert_str_eq(fmt(insn_at_line(k, 92)), "mov.f32 %f2, 0f3F800000;");
    ck_assert_str_eq(fmt(insn_at_line(k, 106)), "call.uni (retval0), fwd, (param0);");
    ck_assert_str_eq(fmt(insn_at_line(k, 91)), "mov.u64 %rd5, mat+12;");
    /* truncation: returns the full length, writes a terminated prefix */
    char small[8];
    int n = ptx_insn_format(insn_at_line(k, 73), small, sizeof small);
    ck_assert_int_eq(n, (int)strlen("mov.u32 %r2, %tid.x;"));
    ck_assert_str_eq(small, "mov.u32");
    ptx_module_free(m);
}
END_TEST

START_TEST(test_locs_files_sections)
{
    ptx_module *m = parse_fixture("grammar.ptx");
    ck_assert_int_eq(m->nlocs, 3);
    ck_assert_int_eq(m->locs[0].prev, -1);
    ck_assert_int_eq(m->locs[1].prev, -1); /* instructions came between loc 0 and loc 1 */
    ck_assert_int_eq(m->locs[2].prev, 1);  /* directly after loc 1: inline chain */
    ck_assert_str_eq(m->locs[2].function_name, "$L__info_string0");
    ck_assert_int_eq(m->locs[2].inl_file, 1);
    ck_assert_int_eq(m->locs[2].inl_line, 11);
    ck_assert_int_eq(m->locs[2].inl_col, 5);
    ck_assert_int_eq(m->locs[2].ptx_line, 78);
    ptx_func *k = ptx_find_func(m, "kern");
    ck_assert_int_eq(insn_at_line(k, 72)->loc, 0);
    ck_assert_int_eq(insn_at_line(k, 79)->loc, 2);
    ck_assert_int_eq(ptx_find_func(m, "brx_kern")->insns[0].loc, -1);

    ck_assert_int_eq(m->nfiles, 2);
    ck_assert_int_eq(m->files[0].num, 1);
    ck_assert_str_eq(m->files[0].path, "/src/kernel.cu");
    ck_assert_uint_eq(m->files[0].mtime, 1700000000);
    ck_assert_uint_eq(m->files[0].size, 1234);
    ck_assert_uint_eq(m->files[1].mtime, 0);

    ck_assert_int_eq(m->nsections, 2);
    ptx_section *s = &m->sections[0];
    ck_assert_str_eq(s->name, ".debug_str");
    ck_assert_int_eq(s->ndata, 6);
    ck_assert_int_eq(s->nlabels, 1);
    ck_assert_int_eq(s->labels[0]->section, 0);
    ck_assert_int_eq(s->data[0].value, 107);
    ck_assert_int_eq(s->data[5].size, 2);
    ck_assert_uint_eq(s->data[5].value, 0x1234);
    s = &m->sections[1];
    ck_assert_int_eq(s->data[0].kind, PTX_DATUM_SYM);
    ck_assert_str_eq(s->data[0].sym, ".debug_abbrev");
    ck_assert_int_eq(s->data[1].size, 8);
    ck_assert_int_eq(s->data[2].kind, PTX_DATUM_DIFF);
    ck_assert_str_eq(s->data[2].sym, "$L__BB0_3");
    ck_assert_str_eq(s->data[2].sym2, "$L__BB0_2");
    ck_assert_int_eq(s->data[3].addend, 133);
    ck_assert_uint_eq(s->data[4].value, 0xffffffffu);

    int len;
    const char *line = ptx_source_line(m, 4, &len);
    ck_assert_int_eq(len, 12);
    ck_assert(strncmp(line, ".version 9.0", 12) == 0);
    ck_assert_ptr_null(ptx_source_line(m, 100000, &len));
    ptx_module_free(m);
}
END_TEST

/* Golden dump, checked by eye against grammar.ptx. */
START_TEST(test_golden_dump)
{
    ptx_module *m = parse_fixture("grammar.ptx");
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    ptx_module_dump(m, f);
    fclose(f);
    size_t glen;
    char *golden = tu_read_file(FIX "grammar.dump", &glen);
    ck_assert_ptr_nonnull(golden);
    if (strcmp(golden, buf) != 0) {
        FILE *o = fopen("grammar.dump.actual", "w");
        if (o) {
            fputs(buf, o);
            fclose(o);
        }
    }
    ck_assert_msg(strcmp(golden, buf) == 0, "dump differs (see grammar.dump.actual)");
    free(golden);
    free(buf);
    ptx_module_free(m);
}
END_TEST

/* ---- real nvcc output: counts verified with grep on the PTX ----------------------------- */
START_TEST(test_nvcc_G)
{
    ptx_module *m = parse_fixture("kitchen.G.ptx");
    ck_assert_str_eq(m->target, "sm_80");
    ck_assert_int_eq(m->target_debug, 1);
    ck_assert_int_eq(m->nfuncs, 48); /* 47 distinct .func/.entry names + 1 .callprototype */
    int ninsns = 0, nentries = 0;
    for (int i = 0; i < m->nfuncs; i++) {
        ninsns += m->funcs[i]->ninsns;
        nentries += m->funcs[i]->is_entry;
    }
    ck_assert_int_eq(ninsns, 1014);
    ck_assert_int_eq(nentries, 12);
    ck_assert_int_eq(m->nlocs, 178);
    ck_assert_int_eq(m->nfiles, 18);
    ck_assert_int_eq(m->nsections, 4);
    ck_assert_str_eq(m->sections[0].name, ".debug_loc");
    ptx_func *k = ptx_find_func(m, "_Z9k_atomicsPiPfPy");
    ck_assert_int_eq(k->nparams, 3);
    ck_assert_int_eq(k->nregs, 2 + 7 + 9 + 6); /* %f<2> %r<7> %rd<9> + 6 temp_param_reg */
    ck_assert_int_eq(k->ninsns, 35);
    /* demoted __shared__ tile */
    ptx_func *sh = ptx_find_func(m, "_Z8k_sharedPKfPfi");
    ck_assert_int_eq(sh->vars[0]->space == PTX_SPACE_SHARED || sh->vars[1]->space == PTX_SPACE_SHARED, 1);
    ptx_sym *p = ptx_find_var(m, "ptr_to_counter");
    ck_assert_int_eq(p->nrelocs, 1);
    ck_assert_int_eq(p->relocs[0].generic, 1);
    ck_assert_uint_eq(ptx_find_var(m, "table")->size, 24);
    ck_assert_uint_eq(ptx_find_var(m, "dyn")->dims[0], 0);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_nvcc_O3_lineinfo)
{
    ptx_module *m = parse_fixture("kitchen.O3.ptx");
    ck_assert_int_eq(m->target_debug, 0);
    ck_assert_int_eq(m->nfuncs, 18);
    int ninsns = 0;
    for (int i = 0; i < m->nfuncs; i++)
        ninsns += m->funcs[i]->ninsns;
    ck_assert_int_eq(ninsns, 378);
    ck_assert_int_eq(m->nlocs, 0);
    ptx_module_free(m);

    m = parse_fixture("kitchen.lineinfo.ptx");
    ck_assert_int_eq(m->nlocs, 120);
    ck_assert_int_eq(m->nfiles, 7);
    ck_assert_int_eq(m->nsections, 1);
    int chained = 0, inl = 0;
    for (int i = 0; i < m->nlocs; i++) {
        chained += m->locs[i].prev >= 0;
        inl += m->locs[i].inl_file != 0;
        if (m->locs[i].inl_file)
            ck_assert_ptr_nonnull(m->locs[i].function_name);
    }
    ck_assert_int_gt(inl, 0);
    ck_assert_int_gt(chained, 0);
    /* .loc 1 28 5 then .loc 2 107 3, function_name $L__info_string0, inlined_at 1 28 5 */
    for (int i = 0; i < m->nlocs; i++)
        if (m->locs[i].ptx_line == 212) {
            ck_assert_int_eq(m->locs[i].prev, i - 1);
            ck_assert_int_eq(m->locs[i - 1].line, 28);
            ck_assert_str_eq(m->locs[i].function_name, "$L__info_string0");
        }
    ptx_module_free(m);
}
END_TEST

START_TEST(test_nvcc_sm90_cluster)
{
    static const struct { const char *file; int nfuncs, ninsns, nlocs; } want[] = {
        {"cluster.G.ptx", 133, 6281, 1339},
        {"cluster.O3.ptx", 2, 52, 0},
        {"cluster.lineinfo.ptx", 2, 52, 54},
    };
    for (int v = 0; v < 3; v++) {
        ptx_module *m = parse_fixture(want[v].file);
        ck_assert_str_eq(m->target, "sm_90");
        ck_assert_int_eq(m->nfuncs, want[v].nfuncs);
        int ninsns = 0;
        for (int i = 0; i < m->nfuncs; i++)
            ninsns += m->funcs[i]->ninsns;
        ck_assert_int_eq(ninsns, want[v].ninsns);
        ck_assert_int_eq(m->nlocs, want[v].nlocs);
        ptx_func *k = ptx_find_func(m, "_Z2kcPi"); /* __cluster_dims__(2,1,1) __launch_bounds__(128, 2) */
        ck_assert_ptr_nonnull(k);
        ck_assert_uint_eq(k->maxntid[0], 128);
        ck_assert_uint_eq(k->minnctapersm, 2);
        ck_assert_uint_eq(k->reqnctapercluster[0], 2);
        ptx_module_free(m);
    }
}
END_TEST

/* ---- operand forms of the ISA that ptxas accepts: WARP_SZ, register + constant, vector
 * registers and their elements, `_` in packs and return lists ------------------------------ */
START_TEST(test_isa_operand_forms)
{
    static const char *src =
        ".version 8.5\n.target sm_90\n.address_size 64\n"
        ".global .u32 gw = WARP_SZ * 2;\n"
        ".func (.reg .b32 a, .reg .b32 b) two()\n{\n\tmov.u32 a, 1;\n\tmov.u32 b, 2;\n\tret;\n}\n"
        ".entry k()\n{\n"
        "\t.reg .b32 %r<4>; .reg .b64 %rd; .reg .b16 %h<2>;\n"
        "\t.reg .v2 .u32 v; .reg .v4 .f32 q;\n"
        "\tmov.u32 %r0, WARP_SZ;\n"                 /* line 15 */
        "\tadd.u32 %r1, %r0, WARP_SZ - 1;\n"
        "\tst.u64 [%rd], %rd + 1;\n"
        "\tmov.u32 %r2, %r1 + -3;\n"
        "\tmov.u32 %r3, v.y;\n"
        "\tadd.f32 q.a, q.r, q.g;\n"
        "\tmov.b32 %r0, {%h0, _};\n"
        "\tmov.v2.u32 v, {%r1, %r2};\n"
        "\tcall (%r1, _), two;\n"
        "\tcvt.pack.sat.u8.s32.b32 %r0, %r1, %r2, %r3;\n"
        "\tret;\n}\n";
    ptx_error err;
    ptx_module *m = parse_str(src, &err);
    ck_assert_msg(m != NULL, "%s", err.msg);
    const ptx_sym *gw = ptx_find_var(m, "gw");
    ck_assert_uint_eq(gw->init[0], 64);
    ptx_func *k = ptx_find_func(m, "k");
    const ptx_insn *in = insn_at_line(k, 15);
    ck_assert_int_eq(in->ops[1].kind, PTX_OP_IMM);
    ck_assert_int_eq(in->ops[1].ival, 32);
    ck_assert_int_eq(insn_at_line(k, 16)->ops[2].ival, 31);
    in = insn_at_line(k, 17);
    ck_assert_int_eq(in->ops[1].kind, PTX_OP_REG);
    ck_assert_int_eq(in->ops[1].reg_add, 1);
    ck_assert_int_eq(in->ops[1].ival, 1);
    ck_assert_str_eq(fmt(in), "st.u64 [%rd], %rd+1;");
    in = insn_at_line(k, 18);
    ck_assert_int_eq(in->ops[1].ival, -3);
    ck_assert_str_eq(fmt(in), "mov.u32 %r2, %r1+-3;");
    in = insn_at_line(k, 19);
    ck_assert_int_eq(in->ops[1].sym->vec, 2);
    ck_assert_int_eq(in->ops[1].comp, 1);
    ck_assert_int_eq(in->ops[1].reg_add, 0);
    in = insn_at_line(k, 20);
    ck_assert_int_eq(in->ops[0].comp, 3);
    ck_assert_int_eq(in->ops[2].comp, 1);
    ck_assert_int_eq(in->ops[0].sym->type, PTX_T_F32);
    ck_assert_int_eq(insn_at_line(k, 21)->ops[1].elems[1].kind, PTX_OP_SINK);
    ck_assert_str_eq(fmt(insn_at_line(k, 22)), "mov.v2.u32 v, {%r1, %r2};");
    in = insn_at_line(k, 23);
    ck_assert_int_eq(in->ops[0].nelems, 2);
    ck_assert_int_eq(in->ops[0].elems[1].kind, PTX_OP_SINK);
    ck_assert_int_eq(insn_at_line(k, 24)->nops, 4);
    ptx_module_free(m);
}
END_TEST

/* ---- errors: exact message line and caret ------------------------------------------------ */
#define HDR ".version 9.0\n.target sm_80\n.address_size 64\n"
static const struct { const char *src, *msg; } error_cases[] = {
    {HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tadd.s32 %r1, %r9, 1;\n\tret;\n}\n",
     "t.ptx:7:15: error: use of undeclared register '%r9'\n\tadd.s32 %r1, %r9, 1;\n\t             ^"},
    {HDR ".entry k()\n{\n\tbra $L__missing;\n\tret;\n}\n",
     "t.ptx:6:6: error: use of undeclared identifier '$L__missing'\n\tbra $L__missing;\n\t    ^"},
    {HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\t.reg .b32 %r1;\n}\n",
     "t.ptx:7:12: error: duplicate declaration of '%r1' (first declared at line 6)\n"
     "\t.reg .b32 %r1;\n\t          ^"},
    {HDR ".entry k()\n{\n\tfrobnicate.u32 %r1;\n}\n",
     "t.ptx:6:2: error: unknown instruction 'frobnicate'\n\tfrobnicate.u32 %r1;\n\t^"},
    {HDR ".entry k()\n{\n\tret;\n",
     "t.ptx:5:1: error: unterminated block: missing '}'\n{\n^"},
    {HDR ".global .b8 s[2] = {1, 2;\n",
     "t.ptx:4:25: error: expected '}' or ',', found ';'\n.global .b8 s[2] = {1, 2;\n"
     "                        ^"},
    {HDR ".pragma \"abc;\n",
     "t.ptx:4:9: error: unterminated string\n.pragma \"abc;\n        ^"},
    {HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tadd.s32 %r1 %r0, 1;\n}\n",
     "t.ptx:7:14: error: expected ',' or ';' after operand, found '%r0'\n"
     "\tadd.s32 %r1 %r0, 1;\n\t            ^"},
    {HDR ".entry k()\n{\n\t.reg .b32 %r<99999999999>;\n}\n",
     "t.ptx:6:14: error: too many registers (limit 1048576 per module)\n"
     "\t.reg .b32 %r<99999999999>;\n\t            ^"},
    {HDR ".global .b8 huge[100000000000];\n",
     "t.ptx:4:18: error: array dimension out of range\n.global .b8 huge[100000000000];\n"
     "                 ^"},
    {HDR ".global .b8 huge[65536][65536][4];\n",
     "t.ptx:4:13: error: variable 'huge' is too large\n.global .b8 huge[65536][65536][4];\n"
     "            ^"},
    {HDR ".global .u32 x = 1 / 0;\n",
     "t.ptx:4:20: error: division by zero in constant expression\n.global .u32 x = 1 / 0;\n"
     "                   ^"},
    {HDR ".entry k()\n{\n\tcall.uni nosuch, ();\n}\n",
     "t.ptx:6:11: error: use of undeclared function 'nosuch'\n\tcall.uni nosuch, ();\n\t         ^"},
    {HDR ".entry k()\n{\nL1:\nL1:\n\tret;\n}\n",
     "t.ptx:7:1: error: duplicate label 'L1' (first defined at line 6)\nL1:\n^"},
    {HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\t@%r1 ret;\n}\n",
     "t.ptx:7:3: error: guard '%r1' is not a predicate register\n\t@%r1 ret;\n\t ^"},
    {HDR "/* unterminated\n", "t.ptx:4:1: error: unterminated comment\n/* unterminated\n^"},
    {HDR ".global .u32 a = 0f3F80;\n",
     "t.ptx:4:18: error: malformed float literal (0f needs 8 hex digits)\n"
     ".global .u32 a = 0f3F80;\n                 ^"},
    {HDR ".entry k()\n{\n\tret\n}\n",
     "t.ptx:7:1: error: expected ';' after instruction\n}\n^"},
    {HDR ".bogus 1;\n", "t.ptx:4:1: error: unknown or misplaced directive '.bogus'\n.bogus 1;\n^"},
    {HDR "ret;\n", "t.ptx:4:1: error: expected a directive, found 'ret'\nret;\n^"},
    {HDR ".global .u32 dup;\n.global .u32 dup;\n",
     "t.ptx:5:14: error: duplicate declaration of 'dup' (first declared at line 4)\n"
     ".global .u32 dup;\n             ^"},
    {HDR ".entry k()\n{\n\tret;\n}\n.entry k()\n{\n\tret;\n}\n",
     "t.ptx:8:8: error: redefinition of 'k' (first defined at line 4)\n.entry k()\n       ^"},
    {HDR ".global .u32 arr[2] = {1, 2, 3};\n",
     "t.ptx:4:30: error: too many initializers for 'arr'\n.global .u32 arr[2] = {1, 2, 3};\n"
     "                             ^"},
    {HDR ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r0, [%r1;\n}\n",
     "t.ptx:7:19: error: expected ']', found ';'\n\tmov.u32 %r0, [%r1;\n\t                 ^"},
    {HDR ".entry k()\n{\n\tcall.uni (a, nosuch;\n}\n",
     "t.ptx:6:21: error: expected ')', found ';'\n\tcall.uni (a, nosuch;\n\t                   ^"},
};

START_TEST(test_errors)
{
    int i = _i;
    ptx_error err;
    ptx_module *m = parse_str(error_cases[i].src, &err);
    ck_assert_msg(m == NULL, "case %d parsed", i);
    ck_assert_str_eq(err.msg, error_cases[i].msg);
}
END_TEST

START_TEST(test_error_positions_and_io)
{
    ptx_error err;
    ptx_module *m = parse_str(HDR ".entry k()\n{\n\t\t.reg .b32 %r<2>;\n\t\tmov.u32 %r0, %nope;\n}\n",
                              &err);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(err.line, 7);
    ck_assert_int_eq(err.col, 16);
    /* tabs are kept in the caret line so the caret lines up */
    ck_assert(strstr(err.msg, "\n\t\t             ^") != NULL);
    m = ptx_parse_file("tests/fixtures/parser/does-not-exist.ptx", &err);
    ck_assert_ptr_null(m);
    ck_assert(strstr(err.msg, "cannot open") != NULL);
    /* as in ptxas, a module starts with .version then .target: empty or comment-only input
       (NULL text with length 0 too) is an error, and so is a .version newer than 9.0 */
    static const char *const bad[] = {
        "", "// nothing\n/* at all */\n", ".target sm_80\n.version 8.0\n",
        ".version 8.0\n.address_size 64\n.target sm_80\n",
        ".version 8.0\n.target sm_80\n.version 8.0\n",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        m = ptx_parse(bad[k], strlen(bad[k]), NULL, &err);
        ck_assert_msg(m == NULL, "accepted %s", bad[k]);
        ck_assert_int_eq(err.kind, PTX_ERR_SYNTAX);
        ck_assert(strstr(err.msg, "error:") != NULL);
    }
    ck_assert_ptr_null(ptx_parse(NULL, 0, NULL, NULL));
    static const char *const newer[] = { ".version 9.1\n.target sm_80\n", ".version 10.0\n" };
    for (int k = 0; k < 2; k++) {
        m = ptx_parse(newer[k], strlen(newer[k]), NULL, &err);
        ck_assert_ptr_null(m);
        ck_assert_int_eq(err.kind, PTX_ERR_VERSION);
        ck_assert(strstr(err.msg, "unsupported .version") != NULL);
    }
    /* a module with a header and nothing else is a valid (empty) module */
    m = parse_str("// header only\n.version 9.0\n.target sm_80\n", &err);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(m->nfuncs, 0);
    ptx_module_free(m);
}
END_TEST

START_TEST(test_limits)
{
    ptx_error err;
    /* deeply nested blocks and expressions are errors, not stack overflows */
    size_t n = 20000;
    char *s = malloc(n * 2 + 256);
    strcpy(s, HDR ".entry k()\n");
    size_t o = strlen(s);
    for (size_t i = 0; i < n; i++)
        s[o++] = '{';
    s[o] = 0;
    ptx_module *m = parse_str(s, &err);
    ck_assert_ptr_null(m);
    ck_assert(strstr(err.msg, "nested too deeply") != NULL);
    strcpy(s, HDR ".global .u32 x = ");
    o = strlen(s);
    for (size_t i = 0; i < n; i++)
        s[o++] = '(';
    strcpy(s + o, "1;\n");
    m = parse_str(s, &err);
    ck_assert_ptr_null(m);
    ck_assert(strstr(err.msg, "nested too deeply") != NULL);
    strcpy(s, HDR ".global .u32 x = ");
    o = strlen(s);
    for (size_t i = 0; i < n; i++)
        s[o++] = '-';
    strcpy(s + o, "1;\n");
    m = parse_str(s, &err);
    ck_assert_ptr_null(m);
    free(s);
    /* a huge initialized array is refused, not allocated */
    m = parse_str(HDR ".global .b8 big[4000000000] = {1};\n", &err);
    ck_assert_ptr_null(m);
    ck_assert(strstr(err.msg, "initializer too large") != NULL);
    /* but a huge uninitialized one is just a size */
    m = parse_str(HDR ".global .b8 big[4000000000];\n", &err);
    ck_assert_ptr_nonnull(m);
    ck_assert_uint_eq(m->vars[0]->size, 4000000000u);
    ptx_module_free(m);
}
END_TEST

/* Every prefix of a real file (200 cut points) and byte-damaged copies parse or fail cleanly. */
START_TEST(test_truncation_fuzz)
{
    size_t len;
    char *text = tu_read_file(FIX "kitchen.G.ptx", &len);
    ck_assert_ptr_nonnull(text);
    int ok = 0, bad = 0;
    for (int i = 0; i <= 200; i++) {
        size_t cut = len * (size_t)i / 200;
        char *copy = malloc(cut ? cut : 1); /* exact size: ASan catches any overread */
        memcpy(copy, text, cut);
        ptx_error err;
        ptx_module *m = ptx_parse(copy, cut, "cut.ptx", &err);
        if (m) {
            ok++;
            ptx_module_free(m);
        } else {
            bad++;
            ck_assert(strncmp(err.msg, "cut.ptx:", 8) == 0);
        }
        free(copy);
    }
    ck_assert_int_gt(bad, 0);
    ck_assert_int_gt(ok, 1); /* cuts between top-level items yield modules */
    /* damage: replace one byte with each of a few troublesome characters */
    const char junk[] = {'{', '}', '(', ';', '"', '[', '%', '.', '\0', '/'};
    unsigned seed = 12345;
    for (int i = 0; i < 300; i++) {
        seed = seed * 1103515245u + 12345u;
        size_t pos = (seed >> 8) % len;
        char saved = text[pos];
        text[pos] = junk[i % (int)sizeof junk];
        ptx_error err;
        ptx_module *m = ptx_parse(text, len, "dmg.ptx", &err);
        ptx_module_free(m);
        text[pos] = saved;
    }
    free(text);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("parser");
    TCase *tc = tcase_create("parser");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_header_and_vars);
    tcase_add_test(tc, test_functions_and_scopes);
    tcase_add_test(tc, test_operands);
    tcase_add_test(tc, test_format);
    tcase_add_test(tc, test_isa_operand_forms);
    tcase_add_test(tc, test_locs_files_sections);
    tcase_add_test(tc, test_golden_dump);
    tcase_add_test(tc, test_nvcc_G);
    tcase_add_test(tc, test_nvcc_O3_lineinfo);
    tcase_add_test(tc, test_nvcc_sm90_cluster);
    tcase_add_loop_test(tc, test_errors, 0, (int)(sizeof error_cases / sizeof error_cases[0]));
    tcase_add_test(tc, test_error_positions_and_io);
    tcase_add_test(tc, test_limits);
    tcase_add_test(tc, test_truncation_fuzz);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
