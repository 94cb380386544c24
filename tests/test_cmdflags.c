/* test_cmdflags.c - Check suite for the command table's flags (CMD_F_*): each flag's effect through the dispatcher, and an audit of every row. */
#include <string.h>
#include <unistd.h>
#include "cmd.h"
#include "cmd_prog.h"
#include "test_util.h"

/* A kernel of a few instructions; line numbers are the PTX lines. */
static const char ptx[] = ".version 7.0\n.target sm_80\n.address_size 64\n"
                          ".visible .entry k()\n{\n.reg .b32 %r<4>;\n"
                          "mov.u32 %r1, 1;\nadd.u32 %r2, %r1, 1;\nadd.u32 %r3, %r2, 1;\n"
                          "add.u32 %r3, %r3, 1;\nret;\n}\n";

typedef struct {
    char *out, *err;
    int rc;
} run_out;

static char *slurp_tmp(FILE *f)
{
    fflush(f);
    long n = lseek(fileno(f), 0, SEEK_END);
    char *b = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
    ck_assert_ptr_nonnull(b);
    lseek(fileno(f), 0, SEEK_SET);
    size_t got = n > 0 ? fread(b, 1, (size_t)n, f) : 0;
    b[got] = 0;
    fclose(f);
    return b;
}

/* One line through the dispatcher, its stdout and stderr captured. */
static run_out run(cmd_ctx *c, const char *line)
{
    fflush(stdout);
    fflush(stderr);
    FILE *o = tmpfile(), *e = tmpfile();
    ck_assert(o && e);
    int so = dup(1), se = dup(2);
    dup2(fileno(o), 1);
    dup2(fileno(e), 2);
    run_out r;
    r.rc = cmd_execute(c, line);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    r.out = slurp_tmp(o);
    r.err = slurp_tmp(e);
    return r;
}

static void expect_error(cmd_ctx *c, const char *line, const char *msg)
{
    run_out r = run(c, line);
    ck_assert_msg(r.rc == -1, "%s: rc %d", line, r.rc);
    char want[512];
    snprintf(want, sizeof want, "%s\n", msg);
    ck_assert_msg(!strcmp(r.err, want), "%s: got \"%s\", want \"%s\"", line, r.err, msg);
    free(r.out);
    free(r.err);
}

static void ok(cmd_ctx *c, const char *line)
{
    run_out r = run(c, line);
    ck_assert_msg(r.rc == 0, "%s: %s", line, r.err);
    free(r.out);
    free(r.err);
}

static void session(cmd_ctx *c, int module)
{
    dbg_session *s = dbg_new();
    ck_assert_ptr_nonnull(s);
    cmd_ctx_init(c, s);
    c->batch = 1;
    if (module)
        ck_assert_int_eq(dbg_load_text(s, ptx, sizeof ptx - 1, "t.ptx"), 0);
}

static void session_free(cmd_ctx *c)
{
    dbg_session *s = c->s;
    cmd_prog_free(c);
    cmd_ctx_free(c);
    dbg_free(s);
}

/* ---- the preconditions: one message each, from the dispatcher ------------------------------ */
START_TEST(needs_module)
{
    cmd_ctx c;
    session(&c, 0);
    expect_error(&c, "list", CMD_MSG_NO_SYMBOLS);
    expect_error(&c, "info functions", CMD_MSG_NO_SYMBOLS);
    expect_error(&c, "info source", CMD_MSG_NO_SYMBOLS);
    /* buffer said the engine's "No PTX module loaded." before: now the one message */
    expect_error(&c, "buffer x u32 4", CMD_MSG_NO_SYMBOLS);
    expect_error(&c, "texture t x u32 4", CMD_MSG_NO_SYMBOLS);
    session_free(&c);
}
END_TEST

START_TEST(needs_kernel_and_stack)
{
    cmd_ctx c;
    session(&c, 1);
    /* a module but no launch */
    expect_error(&c, "info warps", CMD_MSG_NO_KERNEL);
    expect_error(&c, "info cuda lanes", CMD_MSG_NO_KERNEL);   /* info cuda X checks X's flags */
    expect_error(&c, "info sharedmem", CMD_MSG_NO_KERNEL);
    expect_error(&c, "cuda warp 0", CMD_MSG_NO_KERNEL);
    expect_error(&c, "backtrace", "No stack.");
    expect_error(&c, "frame 1", "No stack.");
    expect_error(&c, "up", "No stack.");
    expect_error(&c, "info frame", "No stack.");
    /* a live launch: before the handler parses its arguments (gdb checks the inferior first) */
    expect_error(&c, "continue", CMD_MSG_NOT_RUN);
    expect_error(&c, "continue abc", CMD_MSG_NOT_RUN);
    expect_error(&c, "step", CMD_MSG_NOT_RUN);
    expect_error(&c, "finish", CMD_MSG_NOT_RUN);
    expect_error(&c, "kill", CMD_MSG_NOT_RUN);
    /* with a launch stopped they run */
    ok(&c, "break k");
    run_out r = run(&c, "launch k<<<1,1>>>()");
    ck_assert_int_eq(r.rc, 0);
    free(r.out);
    free(r.err);
    r = run(&c, "info cuda warps");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "Wp"));
    free(r.out);
    free(r.err);
    r = run(&c, "backtrace");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "#0  "));
    free(r.out);
    free(r.err);
    session_free(&c);
}
END_TEST

START_TEST(ptx_only_in_a_program)
{
    cmd_ctx c;
    session(&c, 0);
    char *args[] = {NULL};
    ck_assert_int_eq(cmd_prog_set(&c, "prog", args, 0), 0);
    expect_error(&c, "buffer x u32 4", "\"buffer\" is for a PTX file: a CUDA program allocates "
                                       "its own memory and launches its own kernels.");
    expect_error(&c, "launch k<<<1,1>>>()", "\"launch\" is for a PTX file: a CUDA program "
                                            "allocates its own memory and launches its own "
                                            "kernels.");
    expect_error(&c, "bind a b", "\"bind\" is for a PTX file: a CUDA program allocates its own "
                                 "memory and launches its own kernels.");
    /* arity comes first, as for every command */
    expect_error(&c, "buffer x", "Usage: buffer NAME TYPE COUNT [= {V, ...} | = file PATH | "
                                 "= fill V | = iota]");
    session_free(&c);
}
END_TEST

/* ---- setup: recorded for a program's reruns, and replayed --------------------------------- */
START_TEST(setup_replayed)
{
    cmd_ctx a, b;
    session(&a, 1);
    char *args[] = {NULL};
    ck_assert_int_eq(cmd_prog_set(&a, "prog", args, 0), 0);
    const char *lines[] = {"break k", "print 1 + 1", "set var $v = 2", "set listsize 7",
                           "display 3", "info breakpoints", "tbreak t.ptx:9", "disable 2",
                           "set $w = 1", "directory /nonexistent-dir", NULL};
    for (int i = 0; lines[i]; i++) {
        run_out r = run(&a, lines[i]);
        ck_assert_msg(r.rc == 0, "%s: %s", lines[i], r.err);
        free(r.out);
        free(r.err);
    }
    size_t n;
    const char *log = cmd_prog_log(&a, &n);
    /* the SETUP rows, `set` only for a setting */
    ck_assert_str_eq(log, "break k\nset listsize 7\ndisplay 3\ntbreak t.ptx:9\ndisable 2\n"
                          "directory /nonexistent-dir\n");
    /* every recorded line is a SETUP row's */
    for (const char *q = log; *q; q = strchr(q, '\n') + 1) {
        const cmd_def *d = cmd_line_def(q);
        ck_assert_ptr_nonnull(d);
        ck_assert(d->flags & CMD_F_SETUP);
    }
    /* a rerun replays it in the program's fresh session */
    session(&b, 1);
    cmd_prog_replay(&b, log);
    ck_assert_int_eq(dbg_bp_count(b.s), 2);
    ck_assert_int_eq(dbg_bp_find(b.s, 2)->enabled, 0);
    ck_assert_uint_eq(b.opt.listsize, 7);
    ck_assert_int_eq(b.ndisp, 1);
    session_free(&b);
    session_free(&a);
}
END_TEST

/* ---- resume: a resuming command ends the breakpoint command list it runs in ---------------- */
START_TEST(resume_ends_command_list)
{
    cmd_ctx c;
    session(&c, 1);
    ok(&c, "break k");
    char **cmds = calloc(3, sizeof *cmds);
    cmds[0] = strdup("echo BEFORE\\n");
    cmds[1] = strdup("stepi");
    cmds[2] = strdup("echo AFTER\\n");
    ck_assert_int_eq(dbg_bp_set_commands(c.s, 1, cmds, 3), 0);
    run_out r = run(&c, "launch k<<<1,1>>>()");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_msg(strstr(r.out, "BEFORE") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "AFTER") == NULL, "%s", r.out);
    free(r.out);
    free(r.err);
    /* the control: a list without a resuming command runs to its end */
    ok(&c, "kill");
    cmds = calloc(2, sizeof *cmds);
    cmds[0] = strdup("echo BEFORE\\n");
    cmds[1] = strdup("echo AFTER\\n");
    ck_assert_int_eq(dbg_bp_set_commands(c.s, 1, cmds, 2), 0);
    r = run(&c, "launch k<<<1,1>>>()");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_msg(strstr(r.out, "AFTER") != NULL, "%s", r.out);
    free(r.out);
    free(r.err);
    session_free(&c);
}
END_TEST

/* ---- repeat: an empty terminal line repeats only a REPEAT row ------------------------------ */
typedef struct {
    const char *const *lines;
    int i;
} lines_in;

static char *next_line(cmd_input *in, const char *prompt)
{
    (void)prompt;
    lines_in *l = in->ctx;
    return l->lines[l->i] ? strdup(l->lines[l->i++]) : NULL;
}

static void feed(cmd_ctx *c, const char *const *lines)
{
    lines_in l = {lines, 0};
    cmd_input in = {next_line, &l, 0};
    c->interactive = 1;
    fflush(stdout);
    FILE *o = tmpfile();
    int so = dup(1);
    dup2(fileno(o), 1);
    cmd_run_input(c, &in, NULL);
    fflush(stdout);
    dup2(so, 1);
    close(so);
    free(slurp_tmp(o));
    c->interactive = 0;
}

START_TEST(repeat_flag)
{
    cmd_ctx c;
    session(&c, 1);
    ok(&c, "break k");
    run_out r = run(&c, "launch k<<<1,1>>>()");
    ck_assert_int_eq(r.rc, 0);
    free(r.out);
    free(r.err);
    uint32_t pc0, pc1;
    ck_assert_int_eq(dbg_focus_pc(c.s, &pc0), 0);
    static const char *const steps[] = {"stepi", "", "", NULL};
    feed(&c, steps);                     /* stepi is REPEAT: three steps */
    ck_assert_int_eq(dbg_focus_pc(c.s, &pc1), 0);
    ck_assert_uint_eq(pc1, pc0 + 3);
    static const char *const prints[] = {"print 5", "", "", NULL};
    int h = dbg_session_history(c.s)->nhist;
    feed(&c, prints);                    /* print is not: one value */
    ck_assert_int_eq(dbg_session_history(c.s)->nhist, h + 1);
    session_free(&c);
}
END_TEST

/* ---- /FMT sticks to the name of a FORMAT row ---------------------------------------------- */
START_TEST(format_flag)
{
    cmd_ctx c;
    session(&c, 0);
    expect_error(&c, "output/x", "Usage: output[/FMT] EXPR");   /* /x is no argument */
    run_out r = run(&c, "output/x 255");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(r.out, "0xff");
    free(r.out);
    free(r.err);
    session_free(&c);
}
END_TEST

/* ---- the audit: every row's flags agree with its class and with each other ----------------- */
static void audit(const cmd_def *t, int sub)
{
    for (const cmd_def *d = t; d->name; d++) {
        unsigned f = d->flags;
        ck_assert_msg(!(f & ~(unsigned)CMD_F__ALL), "%s: unknown flag bits", d->name);
        if (f & CMD_F_RESUMES)
            ck_assert_msg(d->cls == CMD_CLASS_RUNNING, "%s: resumes outside running", d->name);
        if (f & CMD_F_STEPS)
            ck_assert_msg(f & CMD_F_RESUMES, "%s: steps without resuming", d->name);
        if (f & CMD_F_SETUP)
            ck_assert_msg(!(f & (CMD_F_RESUMES | CMD_F_PTX_ONLY | CMD_F_REPEAT)) &&
                              d->cls != CMD_CLASS_RUNNING && d->cls != CMD_CLASS_STACK,
                          "%s: setup must be session state, not running", d->name);
        if (f & CMD_F_PTX_ONLY)
            ck_assert_msg(f & CMD_F_NEEDS_MODULE, "%s: PTX-only needs the PTX module", d->name);
        if (f & CMD_F_NEEDS_STACK)
            ck_assert_msg(d->cls == CMD_CLASS_STACK, "%s: needs a stack outside stack", d->name);
        if (f & CMD_F_NEEDS_LIVE)
            ck_assert_msg(d->cls == CMD_CLASS_RUNNING, "%s: needs a launch outside running",
                          d->name);
        if (f & CMD_F_RESUMES)  /* resuming needs something to resume */
            ck_assert_msg(f & CMD_F_NEEDS_LIVE, "%s: resumes without a live launch", d->name);
        if (f & CMD_F_NEEDS_KERNEL)
            ck_assert_msg(d->cls == CMD_CLASS_CUDA, "%s: needs a kernel outside cuda", d->name);
        if (f & CMD_F_FORMAT)
            ck_assert_msg(d->cls == CMD_CLASS_DATA, "%s: /FMT outside data", d->name);
        if (f & CMD_F_REPEAT)   /* an empty line must not repeat a change of state */
            ck_assert_msg(!(f & (CMD_F_SETUP | CMD_F_PTX_ONLY)), "%s: repeats setup", d->name);
        if (f & CMD_F_MODEL_ONLY)  /* runs uncaptured; a setup line is replayed by programs */
            ck_assert_msg(!(f & CMD_F_SETUP), "%s: model-only setup", d->name);
        if (f & CMD_F_RESUMES)     /* what runs the kernel reports its stops through the model */
            ck_assert_msg((f & CMD_F_MODEL_ONLY) && (f & CMD_F_STRUCTURED),
                          "%s: resumes outside the model", d->name);
        if (sub)                /* info: inspection only */
            ck_assert_msg(!(f & (CMD_F_RESUMES | CMD_F_SETUP | CMD_F_REPEAT | CMD_F_PTX_ONLY |
                                 CMD_F_FORMAT)), "info %s: not an inspection flag", d->name);
        if (d->sub)
            audit(d->sub, 1);
    }
}

START_TEST(table_audit)
{
    audit(cmd_table, 0);
    /* the run control rows are exactly the ones cmd_core_guard refuses where nothing can run,
       and DAP's steps are those that end in a stepping range */
    static const char *const resumes[] = {"continue", "step", "next", "stepi", "nexti",
                                          "finish", "until", "advance", NULL};
    int n = 0;
    for (const cmd_def *d = cmd_table; d->name; d++)
        n += (d->flags & CMD_F_RESUMES) != 0;
    ck_assert_int_eq(n, 8);
    for (int i = 0; resumes[i]; i++) {
        const cmd_def *d = cmd_line_def(resumes[i]);
        ck_assert(d && (d->flags & CMD_F_RESUMES));
        ck_assert_int_eq((d->flags & CMD_F_STEPS) != 0, i > 0);
    }
    ck_assert(cmd_line_def("si 3")->flags & CMD_F_STEPS);
    ck_assert_ptr_null(cmd_line_def("frobnicate"));
}
END_TEST

/* docs/JSON.md's "Structured commands" table names exactly the STRUCTURED rows. */
static const cmd_def *doc_row(const char *cell)
{
    char name[128];           /* the command's words: options and ARGUMENTS dropped */
    snprintf(name, sizeof name, "%s", cell);
    for (char *p = name; *p; p++)
        if (*p == ' ' && (p[1] == '-' || (p[1] >= 'A' && p[1] <= 'Z'))) {
            *p = 0;
            break;
        }
    if (!strncmp(name, "info cuda ", 10))
        return cmd_lookup(cmd_info_table, name + 10, NULL, 0);
    if (!strncmp(name, "info ", 5))
        return cmd_lookup(cmd_info_table, name + 5, NULL, 0);
    return cmd_lookup(cmd_table, name, NULL, 0);
}

START_TEST(structured_rows_are_documented)
{
    size_t len;
    char *doc = tu_read_file("docs/JSON.md", &len);
    ck_assert_ptr_nonnull(doc);
    char *sec = strstr(doc, "### Structured commands");
    ck_assert_ptr_nonnull(sec);
    const cmd_def *seen[64];
    int nseen = 0;
    char *table = strstr(sec, "\n|");  /* the table, after the section's prose */
    ck_assert_ptr_nonnull(table);
    for (char *l = table + 1; *l == '|'; l = strchr(l, '\n') + 1) {
        if (strncmp(l, "| `", 3))
            continue;         /* the header, the rule, blank lines */
        char cell[256];
        size_t k = strcspn(l + 1, "|");
        snprintf(cell, sizeof cell, "%.*s", (int)k, l + 1);
        int depth = 0;
        for (char *p = cell; *p; p++) {  /* what is in parentheses is a remark */
            int close = *p == ')' && depth;
            if (*p == '(')
                depth++;
            if (depth)
                *p = ' ';
            if (close)
                depth--;
        }
        for (char *p = strchr(cell, '`'); p; p = strchr(p, '`')) {
            char *e = strchr(p + 1, '`');
            ck_assert_ptr_nonnull(e);
            *e = 0;
            const cmd_def *d = doc_row(p + 1);
            ck_assert_msg(d != NULL, "docs/JSON.md names no command: %s", p + 1);
            ck_assert_msg(d->flags & CMD_F_STRUCTURED, "%s is documented but not STRUCTURED",
                          p + 1);
            int dup = 0;
            for (int i = 0; i < nseen; i++)
                dup |= seen[i] == d;
            if (!dup && nseen < 64)
                seen[nseen++] = d;
            p = e + 1;
        }
    }
    int flagged = 0;
    for (const cmd_def *d = cmd_table; d->name; d++)
        flagged += (d->flags & CMD_F_STRUCTURED) != 0;
    for (const cmd_def *d = cmd_info_table; d->name; d++)
        flagged += (d->flags & CMD_F_STRUCTURED) != 0;
    ck_assert_int_eq(nseen, flagged);
    free(doc);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cmdflags");
    TCase *t = tcase_create("flags");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, needs_module);
    tcase_add_test(t, needs_kernel_and_stack);
    tcase_add_test(t, ptx_only_in_a_program);
    tcase_add_test(t, setup_replayed);
    tcase_add_test(t, resume_ends_command_list);
    tcase_add_test(t, repeat_flag);
    tcase_add_test(t, format_flag);
    tcase_add_test(t, table_audit);
    tcase_add_test(t, structured_rows_are_documented);
    suite_add_tcase(s, t);
    return tu_run_suite(s);
}
