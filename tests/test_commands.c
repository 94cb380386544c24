/* test_commands.c - Check suite for the command layer: table, expressions, formatting, demangler. */
#include <math.h>
#include <string.h>
#include <unistd.h>
#include "cmd.h"
#include "cmd_prog.h"
#include "cmd.h"
#include "dbg_expr.h"
#include "test_util.h"

/* ---- command table ---------------------------------------------------------------------------- */
START_TEST(lookup_names_aliases_prefixes)
{
    char err[256];
    ck_assert_str_eq(cmd_lookup(cmd_table, "break", err, sizeof err)->name, "break");
    ck_assert_str_eq(cmd_lookup(cmd_table, "b", err, sizeof err)->name, "break");
    ck_assert_str_eq(cmd_lookup(cmd_table, "c", err, sizeof err)->name, "continue");
    ck_assert_str_eq(cmd_lookup(cmd_table, "s", err, sizeof err)->name, "step");
    ck_assert_str_eq(cmd_lookup(cmd_table, "n", err, sizeof err)->name, "next");
    ck_assert_str_eq(cmd_lookup(cmd_table, "si", err, sizeof err)->name, "stepi");
    ck_assert_str_eq(cmd_lookup(cmd_table, "ni", err, sizeof err)->name, "nexti");
    ck_assert_str_eq(cmd_lookup(cmd_table, "p", err, sizeof err)->name, "print");
    ck_assert_str_eq(cmd_lookup(cmd_table, "bt", err, sizeof err)->name, "backtrace");
    ck_assert_str_eq(cmd_lookup(cmd_table, "disas", err, sizeof err)->name, "disassemble");
    ck_assert_str_eq(cmd_lookup(cmd_table, "l", err, sizeof err)->name, "list");
    ck_assert_str_eq(cmd_lookup(cmd_table, "fin", err, sizeof err)->name, "finish");
    ck_assert_str_eq(cmd_lookup(cmd_table, "u", err, sizeof err)->name, "until");
    ck_assert_str_eq(cmd_lookup(cmd_table, "tb", err, sizeof err)->name, "tbreak");
    ck_assert_str_eq(cmd_lookup(cmd_table, "d", err, sizeof err)->name, "delete");
    ck_assert_str_eq(cmd_lookup(cmd_table, "f", err, sizeof err)->name, "frame");
    ck_assert_str_eq(cmd_lookup(cmd_table, "i", err, sizeof err)->name, "info");
    ck_assert_str_eq(cmd_lookup(cmd_info_table, "r", err, sizeof err)->name, "registers");
    ck_assert_str_eq(cmd_lookup(cmd_info_table, "b", err, sizeof err)->name, "breakpoints");
    /* unambiguous prefixes */
    ck_assert_str_eq(cmd_lookup(cmd_table, "wat", err, sizeof err)->name, "watch");
    ck_assert_str_eq(cmd_lookup(cmd_table, "undisp", err, sizeof err)->name, "undisplay");
    ck_assert_str_eq(cmd_lookup(cmd_info_table, "sh", err, sizeof err)->name, "sharedmem");
    /* ambiguous and unknown */
    ck_assert_ptr_null(cmd_lookup(cmd_table, "con", err, sizeof err));
    ck_assert_str_eq(err, "Ambiguous command \"con\": continue, condition.");
    ck_assert_ptr_null(cmd_lookup(cmd_table, "frobnicate", err, sizeof err));
    ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(table_is_consistent)
{
    /* every entry has a usage, a help line and a handler; names are unique */
    for (const cmd_def *d = cmd_table; d->name; d++) {
        ck_assert_ptr_nonnull(d->fn);
        ck_assert_ptr_nonnull(d->usage);
        ck_assert_ptr_nonnull(d->help);
        ck_assert(d->max_args < 0 || d->max_args >= d->min_args);
        for (const cmd_def *e = d + 1; e->name; e++)
            ck_assert_str_ne(d->name, e->name);
    }
}
END_TEST

START_TEST(execute_errors_keep_going)
{
    dbg_session *s = dbg_new();
    cmd_ctx c;
    cmd_ctx_init(&c, s);
    c.batch = 1;
    ck_assert_int_eq(cmd_execute(&c, "# a comment"), 0);
    ck_assert_int_eq(cmd_execute(&c, ""), 0);
    ck_assert_int_eq(c.failed, 0);
    ck_assert_int_eq(cmd_execute(&c, "frobnicate 1 2"), -1);
    ck_assert_int_eq(c.failed, 1);
    c.failed = 0;
    ck_assert_int_eq(cmd_execute(&c, "ignore 1"), -1);          /* arity */
    ck_assert_int_eq(cmd_execute(&c, "dump onlyone"), -1);      /* arity */
    ck_assert_int_eq(cmd_execute(&c, "continue"), -1);          /* nothing running */
    ck_assert_int_eq(cmd_execute(&c, "info"), -1);              /* needs a subcommand */
    ck_assert_int_eq(cmd_execute(&c, "info nosuch"), -1);
    ck_assert_int_eq(cmd_execute(&c, "print 1 +"), -1);
    ck_assert_int_eq(c.failed, 1);
    ck_assert_int_eq(cmd_execute(&c, "print 6 * 7"), 0);
    ck_assert_int_eq(dbg_session_history(c.s)->nhist, 1);
    ck_assert_uint_eq(dbg_session_history(c.s)->hist[0].u, 42);
    ck_assert_int_eq(cmd_execute(&c, "set var $v = $1 + 1"), 0);
    ck_assert_int_eq(cmd_execute(&c, "p $v"), 0);
    ck_assert_uint_eq(dbg_session_history(c.s)->hist[1].u, 43);
    ck_assert_int_eq(cmd_execute(&c, "echo hi\\n"), 0);
    ck_assert_int_eq(cmd_execute(&c, "quit 3"), 0);
    ck_assert_int_eq(c.quit & 0xff, 3);
    cmd_ctx_free(&c);
    dbg_free(s);
}
END_TEST

START_TEST(split_words)
{
    char *buf;
    char **argv;
    int n = cmd_split("  a  bb\tccc ", &buf, &argv);
    ck_assert_int_eq(n, 3);
    ck_assert_str_eq(argv[0], "a");
    ck_assert_str_eq(argv[1], "bb");
    ck_assert_str_eq(argv[2], "ccc");
    free(argv);
    free(buf);
}
END_TEST

/* ---- expressions over a fake machine ------------------------------------------------------------ */
static uint8_t fake_mem[256];
static uint64_t fake_r1 = 5;

static int f_reg_get(void *ctx, const char *name, uint64_t *bits, ptx_type *t, char *err, size_t n)
{
    (void)ctx;
    if (!strcmp(name, "%r1")) {
        *bits = fake_r1;
        *t = PTX_T_B32;
    } else if (!strcmp(name, "%r2")) {
        *bits = 0xfffffffe; /* -2 as s32 */
        *t = PTX_T_S32;
    } else if (!strcmp(name, "%f1")) {
        float f = 2.5f;
        uint32_t b;
        memcpy(&b, &f, 4);
        *bits = b;
        *t = PTX_T_F32;
    } else if (!strcmp(name, "%p1")) {
        *bits = 1;
        *t = PTX_T_PRED;
    } else if (!strcmp(name, "%rd1")) {
        *bits = 0x10;
        *t = PTX_T_U64;
    } else {
        snprintf(err, n, "Invalid register `%s'", name);
        return -1;
    }
    return 0;
}

static int f_reg_set(void *ctx, const char *name, uint64_t bits, char *err, size_t n)
{
    (void)ctx;
    if (strcmp(name, "%r1")) {
        snprintf(err, n, "read-only");
        return -1;
    }
    fake_r1 = bits;
    return 0;
}

static int f_sreg(void *ctx, int id, int comp, uint64_t *v, char *err, size_t n)
{
    (void)ctx;
    (void)err;
    (void)n;
    *v = id == PTX_SREG_TID ? (uint64_t)(37 + comp) : id == PTX_SREG_LANEID ? 5 : 7;
    return 0;
}

static int f_read(void *ctx, ptx_space sp, uint64_t a, void *buf, size_t len, char *err, size_t n)
{
    (void)ctx;
    if (a + len > sizeof fake_mem || (sp != PTX_SPACE_SHARED && sp != PTX_SPACE_GLOBAL)) {
        snprintf(err, n, "Cannot access memory at address 0x%llx", (unsigned long long)a);
        return -1;
    }
    memcpy(buf, fake_mem + a, len);
    return 0;
}

static int f_write(void *ctx, ptx_space sp, uint64_t a, const void *buf, size_t len, char *err,
                   size_t n)
{
    (void)ctx;
    (void)sp;
    if (a + len > sizeof fake_mem) {
        snprintf(err, n, "Cannot access memory at address 0x%llx", (unsigned long long)a);
        return -1;
    }
    memcpy(fake_mem + a, buf, len);
    return 0;
}

static int f_ident(void *ctx, const char *name, dbg_value *out, char *err, size_t n)
{
    (void)ctx;
    (void)err;
    (void)n;
    if (strcmp(name, "buf"))
        return 0;
    memset(out, 0, sizeof *out);
    out->kind = DBG_V_PTR;
    out->type = PTX_T_S32;
    out->space = PTX_SPACE_GLOBAL;
    out->u = 0x20;
    out->count = 8;
    return 1;
}

static dbg_vsrc fake = {NULL, f_reg_get, f_reg_set, f_sreg, f_read, f_write, f_ident, NULL, NULL};

/* The history that owns the synthetic types of casts in these evaluations (values returned
 * point at them, so it lives as long as the suite). */
static dbg_history evh;

static dbg_value ev(const char *text)
{
    dbg_value v;
    char err[256];
    int rc = dbg_eval_text(text, &fake, &evh, &v, err, sizeof err);
    ck_assert_msg(rc == 0, "%s: %s", text, err);
    return v;
}

static const char *ev_err(const char *text)
{
    static char err[256];
    dbg_value v;
    int rc = dbg_eval_text(text, &fake, &evh, &v, err, sizeof err);
    ck_assert_msg(rc != 0, "%s should fail", text);
    return err;
}

static const char *fmt(const char *text, char f)
{
    static char out[256];
    dbg_value v = ev(text);
    dbg_format_value(&v, f, NULL, NULL, out, sizeof out);
    return out;
}

START_TEST(expr_arithmetic)
{
    ck_assert_int_eq(dbg_value_int(&(dbg_value){0}), 0);
    ck_assert_str_eq(fmt("1 + 2 * 3", 0), "7");
    ck_assert_str_eq(fmt("(1 + 2) * 3", 0), "9");
    ck_assert_str_eq(fmt("7 / 2", 0), "3");
    ck_assert_str_eq(fmt("-7 / 2", 0), "-3");
    ck_assert_str_eq(fmt("-7 % 3", 0), "-1");
    ck_assert_str_eq(fmt("7 / 2.0", 0), "3.5");
    ck_assert_str_eq(fmt("1 << 4 | 1", 0), "17");
    ck_assert_str_eq(fmt("0xff & ~0xf", 0), "240");
    ck_assert_str_eq(fmt("3 > 2 && 2 > 1", 0), "1");
    ck_assert_str_eq(fmt("!5", 0), "0");
    ck_assert_str_eq(fmt("1 ? 10 : 20", 0), "10");
    ck_assert_str_eq(fmt("-1", 'x'), "0xffffffff");
    ck_assert_str_eq(fmt("-1L", 'x'), "0xffffffffffffffff");
    ck_assert_str_eq(fmt("4294967295 + 1", 0), "4294967296");
    ck_assert_str_eq(fmt("0xffffffff + 1", 0), "0"); /* unsigned int wraps, like C */
    ck_assert_str_eq(fmt("(unsigned char)300", 0), "44");
    ck_assert_str_eq(fmt("(int)2.9", 0), "2");
    ck_assert_str_eq(fmt("(float)1 / 3", 0), "0.333333343");
    ck_assert_str_eq(fmt("1.0 / 3", 0), "0.33333333333333331");
    ck_assert_str_eq(fmt("0f40490fdb", 0), "3.14159274");
    ck_assert_str_eq(fmt("sizeof(int)", 0), "4");
    ck_assert_str_eq(ev_err("1 / 0"), "Division by zero");
    ck_assert_str_eq(ev_err("1 +"), "A syntax error in expression, near `'.");
    ck_assert_str_eq(ev_err("(1"), "A syntax error in expression, near `'.");
    ck_assert_str_eq(ev_err("1 2"), "A syntax error in expression, near `2'.");
    ck_assert_str_eq(ev_err("nosuch"), "No symbol \"nosuch\" in current context.");
    ck_assert_str_eq(ev_err(""), "Argument required (expression to compute).");
}
END_TEST

START_TEST(expr_registers_builtins_memory)
{
    fake_r1 = 5;
    memset(fake_mem, 0, sizeof fake_mem);
    ck_assert_str_eq(fmt("%r1", 0), "5");
    ck_assert_str_eq(fmt("%r2", 0), "-2");
    ck_assert_str_eq(fmt("%r2", 'x'), "0xfffffffe");
    ck_assert_str_eq(fmt("%f1 * 2", 0), "5");
    ck_assert_str_eq(fmt("%p1", 0), "1");
    ck_assert_str_eq(fmt("%r1 % 3", 0), "2");          /* % after an operand is modulo */
    ck_assert_str_eq(fmt("%r1 %%r1", 0), "0");
    ck_assert_str_eq(fmt("%tid.x", 0), "37");
    ck_assert_str_eq(fmt("%tid.y", 0), "38");
    ck_assert_str_eq(fmt("%laneid", 0), "5");
    ck_assert_str_eq(fmt("threadIdx.x == 37 && %r1 > 3", 0), "1");
    ck_assert_str_eq(fmt("threadIdx", 0), "{x = 37, y = 38, z = 39}");
    ck_assert_str_eq(fmt("warpSize", 0), "32");
    /* memory: buffer indexing, casts with address spaces, assignment */
    int32_t vals[8] = {10, -20, 30, 40, 50, 60, 70, 80};
    memcpy(fake_mem + 0x20, vals, sizeof vals);
    ck_assert_str_eq(fmt("buf[1]", 0), "-20");
    ck_assert_str_eq(fmt("buf[1]", 'x'), "0xffffffec");
    ck_assert_str_eq(fmt("*(buf + 2)", 0), "30");
    ck_assert_str_eq(fmt("*(@shared int *)0x2c", 0), "40");
    ck_assert_str_eq(fmt("*(@global short *)0x20", 0), "10");
    ck_assert_str_eq(fmt("(@shared float *)0x10", 0), "(@shared float *) 0x10");
    ck_assert_str_eq(ev_err("buf[8]"), "Index 8 is out of range of buf[8].");
    ck_assert_str_eq(ev_err("*(@local int *)0"), "Cannot access memory at address 0x0");
    ck_assert_str_eq(ev_err("*5"), "Attempt to take contents of a non-pointer value.");
    ck_assert_str_eq(fmt("buf[3] = 7", 0), "7");
    ck_assert_str_eq(fmt("buf[3]", 0), "7");
    ck_assert_str_eq(fmt("*(@shared float *)0x40 = 1.5", 0), "1.5");
    ck_assert_str_eq(fmt("*(@shared float *)0x40", 0), "1.5");
    ck_assert_str_eq(fmt("%r1 = 9", 0), "9");
    ck_assert_uint_eq(fake_r1, 9);
    ck_assert_str_eq(ev_err("%r2 = 1"), "read-only");
    ck_assert_str_eq(ev_err("3 = 4"), "Left operand of assignment is not an lvalue.");
    ck_assert_str_eq(fmt("&buf[2]", 0), "(@global int *) 0x28");
}
END_TEST

START_TEST(expr_history)
{
    dbg_history h;
    memset(&h, 0, sizeof h);
    dbg_value v;
    char err[256];
    ck_assert_int_eq(dbg_eval_text("40 + 2", &fake, &h, &v, err, sizeof err), 0);
    dbg_history_add(&h, &v, NULL);
    ck_assert_int_eq(dbg_eval_text("$1 * 2", &fake, &h, &v, err, sizeof err), 0);
    ck_assert_uint_eq(v.u, 84);
    dbg_history_add(&h, &v, NULL);
    ck_assert_int_eq(dbg_eval_text("$ - $$", &fake, &h, &v, err, sizeof err), 0);
    ck_assert_uint_eq(v.u, 42);
    ck_assert_int_eq(dbg_eval_text("$9", &fake, &h, &v, err, sizeof err), -1);
    ck_assert_str_eq(err, "History has not yet reached $9.");
    ck_assert_int_eq(dbg_eval_text("$x = 3", &fake, &h, &v, err, sizeof err), 0);
    ck_assert_int_eq(dbg_eval_text("$x + 1", &fake, &h, &v, err, sizeof err), 0);
    ck_assert_uint_eq(v.u, 4);
    dbg_history_free(&h);
}
END_TEST

/* C++ casts without struct, calls and sizeof of a type name (issue: sizeof(Particle) said
 * "No symbol", energy(q) was "A syntax error"). The oracle stands for the debug info. */
static int only_T(void *ctx, const char *name)
{
    (void)ctx;
    return !strcmp(name, "T");
}

/* C++ type names: a template's "<ARGS>" belongs to the name when the debug info knows the
 * whole name as a type; "ns::name" is one name */
static int cxx_types(void *ctx, const char *name)
{
    (void)ctx;
    return !strcmp(name, "tile<8U,void>") || !strcmp(name, "cg::thread_group");
}

START_TEST(expr_cxx_type_names)
{
    char err[256];
    dbg_expr *e = dbg_expr_parse_typed("sizeof(tile<8U,void>)", cxx_types, NULL, err, sizeof err);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->op, EX_SIZEOF);
    ck_assert_str_eq(e->a ? e->a->name : e->tname, "tile<8U,void>");
    dbg_expr_free(e);
    e = dbg_expr_parse_typed("(cg::thread_group *) p", cxx_types, NULL, err, sizeof err);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->op, EX_CAST);
    ck_assert_str_eq(e->tname, "cg::thread_group");
    dbg_expr_free(e);
    /* not a known type: "<" compares */
    e = dbg_expr_parse_typed("tile < 8", cxx_types, NULL, err, sizeof err);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->op, EX_LT);
    dbg_expr_free(e);
    e = dbg_expr_parse_typed("(v<3)", cxx_types, NULL, err, sizeof err);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->op, EX_LT);
    dbg_expr_free(e);
}
END_TEST

START_TEST(expr_casts_calls)
{
    char err[256];
    /* "(NAME) operand" is a cast whatever NAME is; "(T) -x" only when T is a type */
    dbg_expr *e = dbg_expr_parse("(Particle) q", err, sizeof err);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->op, EX_CAST);
    ck_assert_str_eq(e->tname, "Particle");
    dbg_expr_free(e);
    e = dbg_expr_parse("(float3)(v).y", err, sizeof err);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->op, EX_CAST);
    ck_assert_int_eq(e->call_form, 1);
    dbg_expr_free(e);
    e = dbg_expr_parse_typed("(T) -x", only_T, NULL, err, sizeof err);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->op, EX_CAST);
    ck_assert_int_eq(e->a->op, EX_NEG);
    dbg_expr_free(e);
    e = dbg_expr_parse_typed("(T) *p + 1", only_T, NULL, err, sizeof err);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->op, EX_ADD);
    ck_assert_int_eq(e->a->op, EX_CAST);
    ck_assert_int_eq(e->a->a->op, EX_DEREF);
    dbg_expr_free(e);
    e = dbg_expr_parse_typed("(x) - 1", only_T, NULL, err, sizeof err);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->op, EX_SUB);
    dbg_expr_free(e);
    e = dbg_expr_parse("(T) - 1", err, sizeof err);  /* no oracle: a subtraction */
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->op, EX_SUB);
    dbg_expr_free(e);
    /* calls are refused with a clear message, never "A syntax error" */
    const char *call = "energy(...): calling functions is not supported: ptxdbg does not run "
                       "device code from an expression.";
    ck_assert_ptr_null(dbg_expr_parse("energy(q)", err, sizeof err));
    ck_assert_str_eq(err, call);
    ck_assert_ptr_null(dbg_expr_parse("1 + energy(q, 2) * 3", err, sizeof err));
    ck_assert_str_eq(err, call);
    ck_assert_str_eq(ev_err("(energy)(1)"), call);
    ck_assert_str_eq(ev_err("(nosuch) 1"), "No symbol \"nosuch\" in current context.");
    /* sizeof of a variable stays the variable's; of an unknown name the symbol error */
    ck_assert_str_eq(fmt("sizeof(buf[0])", 0), "4");
    ck_assert_str_eq(ev_err("sizeof(Particle)"), "No symbol \"Particle\" in current context.");
}
END_TEST

/* ---- formatting and literals -------------------------------------------------------------------- */
START_TEST(format_values)
{
    char out[128];
    dbg_format_bits(10, PTX_T_S32, 't', out, sizeof out);
    ck_assert_str_eq(out, "1010");
    dbg_format_bits(8, PTX_T_U32, 'o', out, sizeof out);
    ck_assert_str_eq(out, "010");
    dbg_format_bits(65, PTX_T_U8, 'c', out, sizeof out);
    ck_assert_str_eq(out, "65 'A'");
    dbg_format_bits(5, PTX_T_U16, 'z', out, sizeof out);
    ck_assert_str_eq(out, "0x0005");
    dbg_format_bits(0x7fc00000, PTX_T_F32, 0, out, sizeof out);
    ck_assert_str_eq(out, "nan(0x400000)");
    dbg_format_bits(0xff800000, PTX_T_F32, 0, out, sizeof out);
    ck_assert_str_eq(out, "-inf");
    dbg_format_bits(0x3c00, PTX_T_F16, 0, out, sizeof out);
    ck_assert_str_eq(out, "1");
    dbg_format_bits(0x40200000, PTX_T_U32, 'f', out, sizeof out);
    ck_assert_str_eq(out, "2.5");
    dbg_value v;
    dbg_value_from_bits(&v, PTX_T_F32, 0x40200000);
    ck_assert_int_eq(dbg_format_value(&v, 'q', NULL, NULL, out, sizeof out), -1);
    ck_assert_str_eq(out, "Undefined output format \"q\".");
}
END_TEST

START_TEST(literals)
{
    uint64_t b;
    ck_assert_int_eq(dbg_parse_literal("42", PTX_T_U32, &b), 0);
    ck_assert_uint_eq(b, 42);
    ck_assert_int_eq(dbg_parse_literal("-1", PTX_T_S32, &b), 0);
    ck_assert_uint_eq(b, 0xffffffffu);
    ck_assert_int_eq(dbg_parse_literal("0x10", PTX_T_U64, &b), 0);
    ck_assert_uint_eq(b, 16);
    ck_assert_int_eq(dbg_parse_literal("2.5", PTX_T_F32, &b), 0);
    ck_assert_uint_eq(b, 0x40200000);
    ck_assert_int_eq(dbg_parse_literal("2", PTX_T_F64, &b), 0);
    ck_assert_uint_eq(b, 0x4000000000000000ull);
    ck_assert_int_eq(dbg_parse_literal("1.5", PTX_T_F16, &b), 0);
    ck_assert_uint_eq(b, 0x3e00);
    ck_assert_int_eq(dbg_parse_literal("0f3f800000", PTX_T_F32, &b), 0);
    ck_assert_uint_eq(b, 0x3f800000);
    ck_assert_int_eq(dbg_parse_literal("256", PTX_T_U8, &b), -1);
    ck_assert_int_eq(dbg_parse_literal("-129", PTX_T_S8, &b), -1);
    ck_assert_int_eq(dbg_parse_literal("abc", PTX_T_U32, &b), -1);
    ck_assert_int_eq(dbg_parse_literal("", PTX_T_U32, &b), -1);
    ck_assert_uint_eq(dbg_f32_to_f16(65504.0f), 0x7bff);
    ck_assert_uint_eq(dbg_f32_to_f16(1e6f), 0x7c00);
    ck_assert(dbg_f16_to_f32(0x0001) == ldexpf(1, -24));
}
END_TEST

START_TEST(fmt_specs)
{
    int count = 1;
    char f = 0, s = 0;
    ck_assert_int_eq(dbg_parse_fmt("16xw", &count, &f, &s), 0);
    ck_assert_int_eq(count, 16);
    ck_assert_int_eq(f, 'x');
    ck_assert_int_eq(s, 'w');
    ck_assert_int_eq(dbg_parse_fmt("4i", &count, &f, &s), 0);
    ck_assert_int_eq(f, 'i');
    ck_assert_int_eq(dbg_parse_fmt("q", &count, &f, &s), -1);
}
END_TEST

/* ---- demangler ---------------------------------------------------------------------------------- */
static const char *dm(const char *m, int base)
{
    static char out[1024];
    if (dbg_demangle(m, out, sizeof out, base) != 0)
        return "(fail)";
    return out;
}

START_TEST(demangler)
{
    ck_assert_str_eq(dm("_Z5saxpyifPKfPf", 0), "saxpy(int, float, float const*, float*)");
    ck_assert_str_eq(dm("_Z5saxpyifPKfPf", 1), "saxpy");
    ck_assert_str_eq(dm("_Z6kernelv", 0), "kernel()");
    ck_assert_str_eq(dm("_Z4testPfS_", 0), "test(float*, float*)");
    ck_assert_str_eq(dm("_ZN2ns6kernelEPfS0_", 0), "ns::kernel(float*, float*)");
    ck_assert_str_eq(dm("_Z6kernelIfEvPT_i", 0), "kernel<float>(float*, int)");
    ck_assert_str_eq(dm("_Z6kernelIfEvPT_i", 1), "kernel<float>");
    ck_assert_str_eq(dm("_Z3addIiLi5EEvPT_", 0), "add<int, 5>(int*)");
    ck_assert_str_eq(dm("_Z3barRK5PointS1_", 0), "bar(Point const&, Point const&)");
    ck_assert_str_eq(dm("_ZN12_GLOBAL__N_13fooEi", 0), "(anonymous namespace)::foo(int)");
    ck_assert_str_eq(dm("_Z4halfPDhPKDh", 0), "half(half*, half const*)");
    /* operators, constructors, destructors and const member functions (as c++filt writes
       them): a functor's operator() showed mangled in bt and break Smooth::operator() missed */
    ck_assert_str_eq(dm("_ZNK6SmoothclEff", 0), "Smooth::operator()(float, float) const");
    ck_assert_str_eq(dm("_ZNK6SmoothclEff", 1), "Smooth::operator()");
    ck_assert_str_eq(dm("_ZNK6WindowIfLi4EE4meanEv", 0), "Window<float, 4>::mean() const");
    ck_assert_str_eq(dm("_ZN6WindowIfLi4EEC2Ev", 0), "Window<float, 4>::Window()");
    ck_assert_str_eq(dm("_ZN6WindowIfLi4EED1Ev", 0), "Window<float, 4>::~Window()");
    ck_assert_str_eq(dm("_Zpl4Vec3S_", 0), "operator+(Vec3, Vec3)");
    ck_assert_str_eq(dm("_ZN4Vec3pLERKS_", 0), "Vec3::operator+=(Vec3 const&)");
    ck_assert_str_eq(dm("_ZNK4Vec3ixEi", 0), "Vec3::operator[](int) const");
    ck_assert_str_eq(dm("_ZNK3FoocvbEv", 0), "Foo::operator bool() const");
    ck_assert_str_eq(dm("_ZN2ns3Foo3BarC2Ev", 0), "ns::Foo::Bar::Bar()");
    ck_assert_str_eq(dm("_ZN2nsdlEPv", 0), "ns::operator delete(void*)");
    /* nvcc's per-file namespace for internal linkage is not shown */
    ck_assert_str_eq(dm("_ZN43_INTERNAL_e79b45d4_12_particles_cu_c03994e29atomicAddEPii", 1),
                     "atomicAdd");
    ck_assert_str_eq(dm("_ZN43_INTERNAL_e79b45d4_12_particles_cu_c03994e29atomicAddEPii", 0),
                     "atomicAdd(int*, int)");
    ck_assert_str_eq(dm("_Z7row_sumILi4EEiPKi", 1), "row_sum<4>");
    ck_assert_str_eq(dm("_Z1fjlmxyhtsca", 0),
                     "f(unsigned int, long, unsigned long, long long, unsigned long long, "
                     "unsigned char, unsigned short, short, char, signed char)");
    /* a template parameter in an expression of a parameter type (c++filt's forms, without a
       template function's return type, as gdb names functions) */
    ck_assert_str_eq(dm("_Z8tile_sumILi8EEiN18cooperative_groups4__v117thread_block_tileIXT_EvEEii", 0),
                     "tile_sum<8>(cooperative_groups::__v1::thread_block_tile<8, void>, int, int)");
    ck_assert_str_eq(dm("_Z8tile_sumILi8EEiN18cooperative_groups4__v117thread_block_tileIXT_EvEEii", 1),
                     "tile_sum<8>");
    ck_assert_str_eq(dm("_Z1gIiLj4EEvN2cg4tileIXT0_ET_EE", 0), "g<int, 4u>(cg::tile<4u, int>)");
    ck_assert_str_eq(dm("_Z1gILi4EEvN2cg4tileIXT0_EEE", 0), "(fail)");
    /* argument packs, function pointers, lambdas (c++filt's forms without return types) */
    ck_assert_str_eq(dm("_Z5packkIJifcEEvDpT_", 0), "packk<int, float, char>(int, float, char)");
    ck_assert_str_eq(dm("_Z5packkIJEEvDpT_", 0), "packk<>()");
    ck_assert_str_eq(dm("_Z5fnptrPFiiEPi", 0), "fnptr(int (*)(int), int*)");
    ck_assert_str_eq(dm("_Z5applyIZ4mainEUliE_EvPiT_", 0),
                     "apply<main::{lambda(int)#1}>(int*, main::{lambda(int)#1})");
    ck_assert_str_eq(dm("_Z5applyIZ4mainEUliE_EvPiT_", 1), "apply<main::{lambda(int)#1}>");
    ck_assert_str_eq(dm("_Z5applyIZ3runiEUlifE0_EvT_", 0),
                     "apply<run(int)::{lambda(int, float)#2}>(run(int)::{lambda(int, float)#2})");
    /* a variable has no parameter list */
    ck_assert_str_eq(dm("_ZN6thrust12placeholders2_1E", 0), "thrust::placeholders::_1");
    /* a name longer than the demangler's parts fails whole, never cut short */
    char longname[1200] = "_Z1fI", *q = longname + 5;
    for (int i = 0; i < 40; i++)
        q += sprintf(q, "N2aa14bbbbbbbbbbbbbbE");
    sprintf(q, "EvT_");
    ck_assert_str_eq(dm(longname, 0), "(fail)");
    ck_assert_str_eq(dm("saxpy", 0), "(fail)");
    ck_assert_str_eq(dm("_Z", 0), "(fail)");
    ck_assert_str_eq(dm("_Z5sa", 0), "(fail)");
    ck_assert_str_eq(dm("_Z3fooS9_", 0), "(fail)");
}
END_TEST

/* ---- a CUDA program's modules (caller-owned) and the setup log ----------------------------------- */
static const char mod_a[] = ".version 7.0\n.target sm_80\n.address_size 64\n"
                            ".visible .entry ka()\n{\n.reg .b32 %r<3>;\nmov.u32 %r1, 1;\nret;\n}\n";
static const char mod_b[] = ".version 7.0\n.target sm_80\n.address_size 64\n"
                            ".visible .entry kb()\n{\n.reg .b32 %r<3>;\nmov.u32 %r1, 1;\n"
                            "add.u32 %r2, %r1, 1;\nret;\n}\n";

START_TEST(borrowed_modules)
{
    ptx_error pe;
    ptx_module *a = ptx_parse(mod_a, sizeof mod_a - 1, "a.ptx", &pe);
    ptx_module *b = ptx_parse(mod_b, sizeof mod_b - 1, "b.ptx", &pe);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    char err[256];
    exec_machine *ma = exec_new(a, err, sizeof err), *mb = exec_new(b, err, sizeof err);
    ck_assert_ptr_nonnull(ma);
    ck_assert_ptr_nonnull(mb);
    dbg_session *s = dbg_new();
    cmd_ctx c;
    cmd_ctx_init(&c, s);
    c.batch = 1;
    /* no module yet: pending */
    ck_assert_int_eq(cmd_execute(&c, "break kb"), 0);
    ck_assert_int_eq(dbg_bp_find(s, 1)->pending, 1);
    /* module a has no kb: still pending, and a new breakpoint on a missing kernel is too */
    ck_assert_int_eq(dbg_use_module(s, a, ma, "."), 0);
    ck_assert_int_eq(dbg_bp_find(s, 1)->pending, 1);
    ck_assert_int_eq(cmd_execute(&c, "break nosuch"), 0);
    ck_assert_int_eq(dbg_bp_find(s, 2)->pending, 1);
    exec_dim3 one = {1, 1, 1}, warp = {32, 1, 1};
    ck_assert_int_eq(exec_launch(ma, a->funcs[0], one, warp, 0, NULL, 0), 0);
    ck_assert_int_eq(dbg_adopt_launch(s, a->funcs[0], 4), 0);
    ck_assert_uint_eq(dbg_launch_info(s)->launch_id, 4);
    dbg_event ev;
    ck_assert_int_eq(dbg_continue(s, 0, &ev), 0);
    ck_assert_int_eq(ev.kind, DBG_EV_EXITED);
    /* module b: the breakpoint resolves and stops its launch */
    ck_assert_int_eq(dbg_use_module(s, b, mb, "."), 0);
    ck_assert_int_eq(dbg_bp_find(s, 1)->pending, 0);
    ck_assert_int_eq(exec_launch(mb, b->funcs[0], one, warp, 0, NULL, 0), 0);
    ck_assert_int_eq(dbg_adopt_launch(s, b->funcs[0], 5), 0);
    ck_assert_int_eq(dbg_continue(s, 0, &ev), 0);
    ck_assert_int_eq(ev.kind, DBG_EV_BREAKPOINT);
    ck_assert_int_eq(ev.bp, 1);
    ck_assert_uint_eq(dbg_get_focus(s)->kernel, 5);
    ck_assert_int_eq(dbg_continue(s, 0, &ev), 0);
    ck_assert_int_eq(ev.kind, DBG_EV_EXITED);
    /* back to a: the machine's breakpoint flags follow the session's breakpoints */
    ck_assert_int_eq(dbg_use_module(s, a, ma, "."), 0);
    ck_assert_int_eq(dbg_bp_find(s, 1)->pending, 1);
    ck_assert_int_eq(dbg_forget_module(s, b), 0);
    cmd_ctx_free(&c);
    dbg_free(s); /* the modules are the caller's */
    exec_free(ma);
    exec_free(mb);
    ptx_module_free(a);
    ptx_module_free(b);
}
END_TEST

/* The standard output of one command. */
static char *capture(cmd_ctx *c, const char *line)
{
    fflush(stdout);
    FILE *tmp = tmpfile();
    ck_assert_ptr_nonnull(tmp);
    int saved = dup(1);
    dup2(fileno(tmp), 1);
    cmd_execute(c, line);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    long n = ftell(tmp) > 0 ? ftell(tmp) : lseek(fileno(tmp), 0, SEEK_END);
    char *buf = calloc(1, (size_t)n + 1);
    ck_assert_ptr_nonnull(buf);
    rewind(tmp);
    lseek(fileno(tmp), 0, SEEK_SET);
    size_t got = fread(buf, 1, (size_t)n, tmp);
    buf[got] = 0;
    fclose(tmp);
    return buf;
}

/* `break k` on a template: a location in every instance (gdb's breakpoint with locations) */
START_TEST(template_locations)
{
    static const char text[] = ".version 7.0\n.target sm_80\n.address_size 64\n"
                               ".visible .entry _Z1kIiEvv()\n{\nret;\n}\n"
                               ".visible .entry _Z1kIfEvv()\n{\nret;\n}\n"
                               ".visible .entry _Z2k2v()\n{\nret;\n}\n";
    dbg_session *s = dbg_new();
    cmd_ctx c;
    cmd_ctx_init(&c, s);
    c.batch = 1;
    ck_assert_int_eq(dbg_load_text(s, text, sizeof text - 1, "t.ptx"), 0);
    ck_assert_int_eq(cmd_execute(&c, "break k"), 0);
    ck_assert_int_eq(dbg_bp_find(s, 1)->npcs, 2);
    ck_assert_int_eq(cmd_execute(&c, "break k2"), 0);   /* k2 is not an instance of k */
    ck_assert_int_eq(dbg_bp_find(s, 2)->npcs, 1);
    ck_assert_int_eq(cmd_execute(&c, "break _Z1kIfEvv"), 0);
    ck_assert_int_eq(dbg_bp_find(s, 3)->npcs, 1);
    /* gdb's $bpnum: the number of the last breakpoint set */
    dbg_value v;
    char err[256];
    ck_assert_int_eq(dbg_eval_focus(c.s, "$bpnum", &v, err, sizeof err), 0);
    ck_assert_int_eq(v.kind, DBG_V_INT);
    ck_assert_int_eq((int)v.u, 3);
    /* info breakpoints: gdb's <MULTIPLE> row, then one row N.M per location, each naming its
       function and line (the second used to show a bare address) */
    char *out = capture(&c, "info breakpoints 1");
    ck_assert_msg(strstr(out, "1       breakpoint     keep y   <MULTIPLE>") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "\n1.1                         y   0x") != NULL, "%s", out);
    ck_assert_msg(strstr(out, " in k<int>() at t.ptx:") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "\n1.2                         y   0x") != NULL, "%s", out);
    ck_assert_msg(strstr(out, " in k<float>() at t.ptx:") != NULL, "%s", out);
    free(out);
    cmd_ctx_free(&c);
    dbg_free(s);
}
END_TEST

START_TEST(setup_log)
{
    dbg_session *s = dbg_new();
    cmd_ctx c;
    cmd_ctx_init(&c, s);
    c.batch = 1;
    char *args[] = {"7"};
    ck_assert_int_eq(cmd_prog_set(&c, "prog", args, 1), 0);
    ck_assert_int_eq(cmd_execute(&c, "break k if threadIdx.x == 5"), 0);
    ck_assert_int_eq(cmd_execute(&c, "print 1 + 1"), 0);          /* not state */
    ck_assert_int_eq(cmd_execute(&c, "set var $x = 3"), 0);       /* not state */
    ck_assert_int_eq(cmd_execute(&c, "tbreak other.cu:12"), 0);
    ck_assert_int_eq(cmd_execute(&c, "frobnicate"), -1);          /* failed: not kept */
    ck_assert_int_eq(cmd_execute(&c, "disable 2"), 0);
    ck_assert_int_eq(cmd_execute(&c, "set scheduler-locking off"), 0);
    size_t n;
    const char *log = cmd_prog_log(&c, &n);
    ck_assert_str_eq(log, "break k if threadIdx.x == 5\ntbreak other.cu:12\ndisable 2\n"
                          "set scheduler-locking off\n");
    ck_assert_uint_eq(n, strlen(log));
    cmd_prog_free(&c);
    cmd_ctx_free(&c);
    dbg_free(s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("commands");
    TCase *t = tcase_create("commands");
    tcase_add_test(t, lookup_names_aliases_prefixes);
    tcase_add_test(t, table_is_consistent);
    tcase_add_test(t, execute_errors_keep_going);
    tcase_add_test(t, split_words);
    tcase_add_test(t, expr_arithmetic);
    tcase_add_test(t, expr_registers_builtins_memory);
    tcase_add_test(t, expr_history);
    tcase_add_test(t, expr_casts_calls);
    tcase_add_test(t, expr_cxx_type_names);
    tcase_add_test(t, format_values);
    tcase_add_test(t, literals);
    tcase_add_test(t, fmt_specs);
    tcase_add_test(t, demangler);
    tcase_add_test(t, borrowed_modules);
    tcase_add_test(t, setup_log);
    tcase_add_test(t, template_locations);
    suite_add_tcase(s, t);
    return tu_run_suite(s);
}
