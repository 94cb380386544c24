/* test_opflags.c - the opcode table's flags column against the PTX ISA, the opcode index of parsed instructions, flags vs decoders, help and completion from the table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core_harness.h"
#include "exec_insn.h"
#include "cmd.h"
#include "cmd_complete.h"

/* ---------------------------------------------------------------------------------------------
 * Expected flags, written from the PTX ISA manual (9.7 Instructions): for each property, every
 * base opcode that has it. Each list is checked both ways over the whole table.
 * ------------------------------------------------------------------------------------------- */
static const struct { unsigned flag; const char *ops; } isa[] = {
    /* 9.7.13 control flow: bra and brx.idx branch, call calls, ret and exit leave */
    { PTX_OPF_BRANCH, "bra brx" },
    { PTX_OPF_CALL, "call" },
    { PTX_OPF_RETURN, "ret exit" },
    /* 9.7.14 parallel synchronisation: bar{.cta} / barrier{.cta} use the 16 named barriers */
    { PTX_OPF_BARRIER, "bar barrier" },
    /* atom: atomic RMW; red: atomic reduction */
    { PTX_OPF_ATOMIC, "atom red" },
    /* membar/fence: memory ordering only */
    { PTX_OPF_FENCE, "membar fence" },
    /* .sync/.aligned warp-level (and warp matrix) instructions; bar/barrier are CTA-wide */
    { PTX_OPF_COLLECTIVE, "bar barrier shfl vote match redux elect activemask wmma mma ldmatrix "
                          "stmatrix movmatrix wgmma" },
    /* operand 0 is an address, label, barrier number, size or count: never a destination */
    { PTX_OPF_SRC0, "st red bar barrier bra brx ret exit prefetch prefetchu sust sured cp "
                    "nanosleep stackrestore setmaxnreg pmevent trap stmatrix tensormap "
                    "applypriority discard fence membar griddepcontrol" },
    /* 9.4.1 Operand Size Exceeding Instruction-Type Size: ld, ldu, st, cvt (+ suld/sust) */
    { PTX_OPF_WIDE, "ld ldu st cvt suld sust" },
    /* 9.7.16 video instructions take .b0-.b3/.h0-.h1 selectors */
    { PTX_OPF_VSEL, "vadd vsub vabsdiff vmin vmax vshl vshr vmad vset vadd2 vsub2 vavrg2 "
                    "vabsdiff2 vmin2 vmax2 vset2 vadd4 vsub4 vavrg4 vabsdiff4 vmin4 vmax4 vset4" },
    /* popc, clz, bfind and fns write .u32 */
    { PTX_OPF_U32DST, "popc clz bfind fns" },
    /* values passed on unchanged: stores and selects */
    { PTX_OPF_PASS, "st stmatrix sust selp shfl" },
    /* serial-only: brkpt stops, sured's surface memory is not claimed by workers */
    { PTX_OPF_NOPAR, "brkpt sured" },
};

static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            return 1;
    return 0;
}

START_TEST(flags_match_the_isa)
{
    unsigned covered = 0;
    for (size_t k = 0; k < sizeof isa / sizeof isa[0]; k++) {
        covered |= isa[k].flag;
        for (int i = 0; i < PTX_OPC__COUNT; i++) {
            int want = in_list(isa[k].ops, ptx_ops[i].name);
            int got = (ptx_ops[i].flags & isa[k].flag) != 0;
            ck_assert_msg(want == got, "%s: flag %#x is %d, the ISA says %d", ptx_ops[i].name,
                          isa[k].flag, got, want);
        }
        /* every name in the list is an opcode of the table */
        char buf[512];
        snprintf(buf, sizeof buf, "%s", isa[k].ops);
        for (char *w = strtok(buf, " "); w; w = strtok(NULL, " "))
            ck_assert_msg(ptx_op_lookup(w) >= 0, "%s is not in the table", w);
    }
    /* every flag bit is checked, and each has a help word */
    ck_assert_uint_eq(covered, (1u << PTX_OPF__NBITS) - 1);
    for (int b = 0; b < PTX_OPF__NBITS; b++)
        ck_assert_ptr_nonnull(ptx_opf_word(b));
    ck_assert_ptr_null(ptx_opf_word(PTX_OPF__NBITS));
}
END_TEST

/* Parsed instructions keep their row; the generated constants name the rows. */
static const char *k_sample = HDR
    ".visible .func f()\n{\n ret;\n}\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    " .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .pred %p<3>;\n"
    " ld.param.u64 %rd1, [p];\n"                        /* 0 */
    " atom.global.add.u32 %r1, [%rd1], 1;\n"            /* 1 */
    " red.global.add.u32 [%rd1], 1;\n"                  /* 2 */
    " st.global.u32 [%rd1], %r1;\n"                     /* 3 */
    " bar.sync 0;\n"                                    /* 4 */
    " barrier.sync 0;\n"                                /* 5 */
    " bar.red.popc.u32 %r2, 0, %p1;\n"                  /* 6 */
    " shfl.sync.idx.b32 %r3, %r1, 0, 31, -1;\n"         /* 7 */
    " vote.sync.ballot.b32 %r4, %p1, -1;\n"             /* 8 */
    " match.any.sync.b32 %r5, %r1, -1;\n"               /* 9 */
    " redux.sync.add.u32 %r6, %r1, -1;\n"               /* 10 */
    " call f;\n"                                        /* 11 */
    " membar.gl;\n"                                     /* 12 */
    " @%p1 bra L;\n"                                    /* 13 */
    " exit;\n"                                          /* 14 */
    "L:\n ret;\n}\n";                                   /* 15 */

START_TEST(parsed_instructions_keep_their_row)
{
    for (int i = 0; i < PTX_OPC__COUNT; i++)
        ck_assert_int_eq(ptx_op_lookup(ptx_ops[i].name), i);
    ck_assert_int_eq(ptx_op_lookup("nosuchop"), -1);
    ck_assert_int_eq(ptx_op_lookup("bra.uni"), -1);
    ck_assert_str_eq(ptx_ops[PTX_OPC_call].name, "call");
    ck_assert_str_eq(ptx_ops[PTX_OPC_st].name, "st");
    T t;
    ck_assert_msg(t_load(&t, k_sample) == 0, "%s", t.err);
    const ptx_func *k = ptx_find_func(t.mod, "k");
    ck_assert_ptr_nonnull(k);
    ck_assert_int_eq(k->ninsns, 16);
    for (int i = 0; i < k->ninsns; i++)
        ck_assert_int_eq(k->insns[i].opc, ptx_op_lookup(k->insns[i].opcode));
    const ptx_insn *in = k->insns;
    ck_assert(ptx_op_is(&in[1], PTX_OPF_ATOMIC) && ptx_op_is(&in[2], PTX_OPF_ATOMIC));
    ck_assert(!ptx_op_is(&in[0], PTX_OPF_ATOMIC) && !ptx_op_is(&in[3], PTX_OPF_ATOMIC));
    ck_assert(ptx_op_is(&in[4], PTX_OPF_BARRIER) && ptx_op_is(&in[5], PTX_OPF_BARRIER));
    for (int i = 7; i <= 10; i++)
        ck_assert(ptx_op_is(&in[i], PTX_OPF_COLLECTIVE) && !ptx_op_is(&in[i], PTX_OPF_BARRIER));
    ck_assert(ptx_op_is(&in[11], PTX_OPF_CALL) && in[11].opc == PTX_OPC_call);
    ck_assert(ptx_op_is(&in[12], PTX_OPF_FENCE));
    ck_assert(ptx_op_is(&in[13], PTX_OPF_BRANCH) && !ptx_op_is(&in[13], PTX_OPF_CALL));
    ck_assert(ptx_op_is(&in[14], PTX_OPF_RETURN) && ptx_op_is(&in[15], PTX_OPF_RETURN));
    /* which instructions write their first operand */
    ck_assert_int_eq(ptx_insn_writes_op0(&in[0]), 1);   /* ld */
    ck_assert_int_eq(ptx_insn_writes_op0(&in[1]), 1);   /* atom returns the old value */
    ck_assert_int_eq(ptx_insn_writes_op0(&in[2]), 0);   /* red */
    ck_assert_int_eq(ptx_insn_writes_op0(&in[3]), 0);   /* st */
    ck_assert_int_eq(ptx_insn_writes_op0(&in[4]), 0);   /* bar.sync's barrier number */
    ck_assert_int_eq(ptx_insn_writes_op0(&in[6]), 1);   /* bar.red writes d */
    ck_assert_int_eq(ptx_insn_writes_op0(&in[11]), 0);  /* a call without results */
    ck_assert_int_eq(ptx_insn_writes_op0(&in[13]), 0);  /* bra's label */
    /* a row index outside the table has no flags */
    ptx_insn bad = in[13];
    bad.opc = -1;
    ck_assert_uint_eq(ptx_op_flags(&bad), 0);
    bad.opc = PTX_OPC__COUNT;
    ck_assert_uint_eq(ptx_op_flags(&bad), 0);
    t_free(&t);
    /* an opcode not in the table is still the parser's error, naming it and its line */
    ck_assert_int_ne(t_load(&t, HDR ".visible .entry k()\n{\n frob.u32 %r1;\n ret;\n}\n"), 0);
    ck_assert_msg(strstr(t.err, "t.ptx:6:2: error: unknown instruction 'frob'") != NULL, "%s",
                  t.err);
    t_free(&t);
}
END_TEST

/* Flags against the decoders: rows sharing one decoder share their flags; the WIDE flag is
 * exactly where the decoder takes a register wider than the instruction type; the VSEL flag
 * is where the parser takes video selectors. */
static int loads(const char *body)
{
    char src[1024];
    snprintf(src, sizeof src,
             HDR ".visible .entry k(.param .u64 p)\n{\n"
                 " .reg .b32 %%r<4>; .reg .b64 %%rd<4>; .reg .f32 %%f<2>; .reg .pred %%p<2>;\n"
                 " ld.param.u64 %%rd1, [p];\n %s\n ret;\n}\n", body);
    T t;
    int rc = t_load(&t, src);
    t_free(&t);
    return rc == 0;
}

START_TEST(flags_agree_with_the_decoders)
{
    for (int i = 0; i < exec_nops; i++)
        for (int j = i + 1; j < exec_nops; j++)
            if (exec_ops[i].decode == exec_ops[j].decode && exec_ops[i].decode != exec_dec_refuse)
                ck_assert_msg(ptx_ops[i].flags == ptx_ops[j].flags, "%s and %s share %s",
                              ptx_ops[i].name, ptx_ops[j].name, "a decoder but not their flags");
    /* 64-bit data register for a 32-bit instruction type */
    static const struct { const char *insn; int op; } wide[] = {
        { "ld.global.u32 %rd2, [%rd1];", PTX_OPC_ld },
        { "ldu.global.u32 %rd2, [%rd1];", PTX_OPC_ldu },
        { "st.global.u32 [%rd1], %rd2;", PTX_OPC_st },
        { "cvt.u32.u16 %rd2, %r1;", PTX_OPC_cvt },
        { "add.u32 %rd2, %r1, %r2;", PTX_OPC_add },
        { "mov.u32 %rd2, %r1;", PTX_OPC_mov },
        { "and.b32 %rd2, %r1, %r2;", PTX_OPC_and },
        { "selp.u32 %rd2, %r1, %r2, %p1;", PTX_OPC_selp },
        { "atom.global.add.u32 %rd2, [%rd1], 1;", PTX_OPC_atom },
        { "popc.b32 %rd2, %r1;", PTX_OPC_popc },
    };
    for (size_t k = 0; k < sizeof wide / sizeof wide[0]; k++)
        ck_assert_msg(loads(wide[k].insn) == ((ptx_ops[wide[k].op].flags & PTX_OPF_WIDE) != 0),
                      "%s: the decoder and the WIDE flag disagree", wide[k].insn);
    ck_assert(loads("st.global.u32 [%rd1], %r1;"));   /* the exact width loads everywhere */
    ck_assert(loads("add.u32 %r3, %r1, %r2;"));
    /* video selectors: accepted where VSEL is set, a parse error elsewhere */
    ck_assert(loads("vadd.u32.u32.u32 %r3, %r1.b0, %r2.b1;"));
    ck_assert(!loads("add.u32 %r3, %r1.b0, %r2;"));
    ck_assert(!loads("vote.sync.all.pred %p1, %p1.b0, -1;"));
}
END_TEST

/* ---- help and completion read the table ------------------------------------------------------ */
static char *run_cmds(const char *const *lines)
{
    dbg_session *s = dbg_new();
    ck_assert_ptr_nonnull(s);
    cmd_ctx c;
    cmd_ctx_init(&c, s);
    c.batch = 1;
    char *out = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&out, &n);
    ck_assert_ptr_nonnull(m);
    fflush(stdout);
    fflush(stderr);
    FILE *so = stdout, *se = stderr;
    stdout = stderr = m;
    for (int i = 0; lines[i]; i++)
        cmd_execute(&c, lines[i]);
    fflush(m);
    stdout = so;
    stderr = se;
    fclose(m);
    cmd_ctx_free(&c);
    dbg_free(s);
    return out;
}

#define HAS(out, text) ck_assert_msg(strstr((out), (text)) != NULL, "missing \"%s\" in:\n%s", \
                                     (text), (out))

START_TEST(help_reads_the_table)
{
    static const char *const lines[] = { "help bra", "help exit", "help instructions exit",
                                         "help instructions", "help instructions frob",
                                         "help", NULL };
    char *out = run_cmds(lines);
    char want[512];
    snprintf(want, sizeof want, "bra -- %s\n", ptx_ops[PTX_OPC_bra].summary);
    HAS(out, want);
    HAS(out, "PTX instruction of family control.\nProperties: branch, no-destination.\n");
    HAS(out, "Leave ptxdbg.\n");                      /* help exit: the command's alias */
    snprintf(want, sizeof want, "exit -- %s\n", ptx_ops[PTX_OPC_exit].summary);
    HAS(out, want);                                   /* help instructions exit */
    snprintf(want, sizeof want, "\nsync:\n  bar            -- %s\n", ptx_ops[PTX_OPC_bar].summary);
    HAS(out, want);
    HAS(out, "Undefined PTX instruction: \"frob\".  Try \"help instructions\".");
    HAS(out, "instructions -- PTX instructions the prompt runs");
    free(out);
}
END_TEST

static char *comp(const char *line)
{
    static char buf[1024];
    cmd_ctx c;
    dbg_session *s = dbg_new();
    cmd_ctx_init(&c, s);
    int flags = 0, len = (int)strlen(line);
    char **v = cmd_complete(&c, line, cmd_complete_word_start(line, len), len, &flags);
    buf[0] = 0;
    for (int i = 0; v && v[i]; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? " " : "", v[i]);
    cmd_complete_free(v);
    cmd_ctx_free(&c);
    dbg_free(s);
    return buf;
}

START_TEST(completion_offers_opcodes)
{
    ck_assert_str_eq(comp("help instructions sh"), "shf shfl shl shr");
    ck_assert_str_eq(comp("help instructions vo"), "vote");
    ck_assert_str_eq(comp("help ldm"), "ldmatrix");
    ck_assert_str_eq(comp("help instr"), "instructions");
}
END_TEST

int main(void)
{
    Suite *su = suite_create("opflags");
    TCase *t = tcase_create("table");
    tcase_add_test(t, flags_match_the_isa);
    tcase_add_test(t, parsed_instructions_keep_their_row);
    tcase_add_test(t, flags_agree_with_the_decoders);
    tcase_add_test(t, help_reads_the_table);
    tcase_add_test(t, completion_offers_opcodes);
    suite_add_tcase(su, t);
    return tu_run_suite(su);
}
