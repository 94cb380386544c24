/* cmd_src.c - source-level commands: info locals/args/scope/line/source/address, directory, substitute-path. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "cmd_ui.h"

static const char *base_name(const char *p)
{
    const char *s = p ? strrchr(p, '/') : NULL;
    return s ? s + 1 : p ? p : "";
}

static int need_symbols(cmd_ctx *c)
{
    if (dbg_need_symbols(c->s) != 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    return 0;
}

/* ---- info locals / info args ------------------------------------------------------------------ */
/* A row of "variables": {"name", "value" (as print shows it)}. */
static void print_var(void *ctx, const char *name, const char *value)
{
    cmd_ctx *c = ctx;
    cmd_ui_open(c, NULL, 0);
    cmd_ui_field_str(c, "name", name);
    cmd_ui_text(c, " = ");
    cmd_ui_field_str(c, "value", value);
    cmd_ui_text(c, "\n");
    cmd_ui_close(c);
}

static int print_vars(cmd_ctx *c, int params, const char *none)
{
    if (need_symbols(c) != 0)
        return -1;
    cmd_ui_open(c, "variables", 1);   /* JSON: [{"name", "value"}] */
    int shown = dbg_frame_vars_each(c->s, params, print_var, c);
    cmd_ui_close(c);
    if (shown < 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    if (!shown) {
        cmd_ui_text(c, none);
        cmd_ui_text(c, "\n");
    }
    return 0;
}

int cmd_info_locals(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    return print_vars(c, 0, "No locals.");
}

int cmd_info_args(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    return print_vars(c, 1, "No arguments.");
}

/* ---- info scope / info address ---------------------------------------------------------------- */
struct scope_ctx {
    cmd_ctx *c;
    const char *args;
    int shown;
};

static void scope_line(void *ctx, const char *line)
{
    struct scope_ctx *k = ctx;
    if (!k->shown++)
        cmd_ui_textf(k->c, "Scope for %s:\n", k->args);
    cmd_ui_textf(k->c, "%s\n", line);
}

int cmd_info_scope(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    while (isspace((unsigned char)*args))
        args++;
    if (!*args)
        return cmd_error(c, "requires an argument (an expression or variable): foo, *0x12345");
    if (need_symbols(c) != 0)
        return -1;
    uint32_t pcs[DBG_MAX_LOCS];
    if (dbg_resolve_location(c->s, args, pcs, DBG_MAX_LOCS) <= 0)
        return cmd_error(c, "No function \"%s\" in this program.", args);
    struct scope_ctx k = {c, args, 0};
    dbg_scope_each(c->s, pcs[0], scope_line, &k);
    if (!k.shown)
        cmd_ui_textf(c, "Scope for %s:\nSymbol table contains no locals.\n", args);
    return 0;
}

int cmd_info_address(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (argc != 1)
        return cmd_error(c, "Argument required.");
    if (need_symbols(c) != 0)
        return -1;
    char line[1200];
    if (dbg_var_address(c->s, argv[0], line, sizeof line) != 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    printf("%s\n", line);
    return 0;
}

/* ---- info line -------------------------------------------------------------------------------- */
static void describe(cmd_ctx *c, uint32_t pc, char *out, size_t n)
{
    char d[300];
    dbg_describe_pc(c->s, pc, d, sizeof d);
    snprintf(out, n, "0x%x%s%s", pc, d[0] ? " " : "", d);
}

/* "Line N of "FILE" starts at address A and ends at B." (k 1) or "... is at address A but
 * contains no code." (k 2); JSON "line", "file", "start" and "end" (pcs). */
static void line_msg(cmd_ctx *c, int k, long line, const char *file, uint32_t lo, uint32_t hi)
{
    char a[400], b[400];
    describe(c, lo, a, sizeof a);
    cmd_ui_text(c, "Line ");
    cmd_ui_field_int(c, "line", line);
    cmd_ui_textf(c, " of \"%s\" ", base_name(file));
    cmd_ui_str(c, "file", file);
    cmd_ui_uint(c, "start", lo);
    if (k == 2) {
        cmd_ui_textf(c, "is at address %s but contains no code.\n", a);
        return;
    }
    describe(c, hi, b, sizeof b);
    cmd_ui_uint(c, "end", hi);
    cmd_ui_textf(c, "starts at address %s and ends at %s.\n", a, b);
}

static int line_of_pc(cmd_ctx *c, uint32_t pc)
{
    const char *file;
    int line;
    uint32_t lo, hi;
    char a[400];
    if (dbg_pc_line_range(c->s, pc, &file, &line, &lo, &hi) != 0) {
        describe(c, pc, a, sizeof a);
        cmd_ui_textf(c, "No line number information available for address %s\n", a);
        cmd_ui_uint(c, "start", pc);
        return 0;
    }
    line_msg(c, 1, line, file, lo, hi);
    return 0;
}

int cmd_info_line(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argv;
    if (!dbg_has_lines(c->s))   /* the module is there (CMD_F_NEEDS_MODULE), lines are not */
        return cmd_error(c, "%s", CMD_MSG_NO_SYMBOLS);
    while (isspace((unsigned char)*args))
        args++;
    uint32_t pc;
    if (argc == 0) {
        if (dbg_focus_pc(c->s, &pc) == 0)
            return line_of_pc(c, pc);
        if (!c->list_valid || !c->list_file[0])
            return cmd_error(c, "No line number information available.");
        char spec[600];
        snprintf(spec, sizeof spec, "%s:%d", c->list_file, c->list_line > 1 ? c->list_line : 1);
        return cmd_info_line(c, spec, 1, NULL);
    }
    if (*args == '*') {
        uint32_t pcs[1];
        char loc[512];
        if (cmd_loc_addr(c, args, loc, sizeof loc) != 0)
            return -1;
        if (dbg_resolve_location(c->s, loc, pcs, 1) <= 0)
            return cmd_error(c, "%s", dbg_errmsg(c->s));
        return line_of_pc(c, pcs[0]);
    }
    if (strncmp(args, "ptx:", 4) == 0) { /* as break ptx:N: the first instruction at or after */
        uint32_t pcs[1];
        if (dbg_resolve_location(c->s, args, pcs, 1) <= 0)
            return cmd_error(c, "%s", dbg_errmsg(c->s));
        char a[400];
        describe(c, pcs[0], a, sizeof a);
        dbg_where w;
        long want = strtol(args + 4, NULL, 0); /* as the location parser reads it */
        cmd_ui_int(c, "ptx_line", want);
        cmd_ui_uint(c, "address", pcs[0]);
        if (dbg_pc_where(c->s, pcs[0], &w) == 0 && w.ptx_line != want)
            cmd_ui_textf(c, "PTX line %ld has no instruction; the next is at address %s (PTX line "
                            "%d).\n", want, a, w.ptx_line);
        else
            cmd_ui_textf(c, "PTX line %ld is at address %s.\n", want, a);
        return line_of_pc(c, pcs[0]);
    }
    /* FILE:LINE or LINE: exact rows of that line */
    const char *colon = strrchr(args, ':');
    char file[512] = "";
    long line = 0;
    char *end;
    if (colon) {
        line = strtol(colon + 1, &end, 10);
        if (*end || line <= 0)
            line = 0;
        else
            snprintf(file, sizeof file, "%.*s", (int)(colon - args), args);
    } else if (isdigit((unsigned char)*args)) {
        line = strtol(args, &end, 10);
        const char *df = dbg_default_file(c->s);
        if (*end || !df)
            line = 0;
        else
            snprintf(file, sizeof file, "%s", c->list_valid && c->list_file[0] ? c->list_file : df);
    }
    if (line > INT_MAX) /* strtol's LONG_MAX on overflow too */
        return cmd_error(c, "Line number %s out of range.", colon ? colon + 1 : args);
    if (line > 0) {
        uint32_t lo, hi;
        int k = dbg_line_code(c->s, file, (int)line, &lo, &hi);
        if (k == 1 || k == 2) {
            line_msg(c, k, line, file, lo, hi);
            return 0;
        }
        if (k < 0)
            return cmd_error(c, "No source file named %s.", file);
        return cmd_error(c, "Line number %ld is out of range for \"%s\".", line, base_name(file));
    }
    /* FUNC: the line where it starts */
    uint32_t lo;
    int k = dbg_func_code_start(c->s, args, &lo);
    if (k == -1)
        return cmd_error(c, "Function \"%s\" not defined.", args);
    if (k == -2)
        return cmd_error(c, "Function \"%s\" has no code.", args);
    return line_of_pc(c, lo);
}

/* ---- info source ------------------------------------------------------------------------------ */
int cmd_info_source(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    const char *file = NULL;
    uint32_t pc;
    dbg_where w;
    if (c->list_valid && c->list_file[0])
        file = c->list_file;
    else if (dbg_focus_pc(c->s, &pc) == 0 && dbg_pc_where(c->s, pc, &w) == 0 && w.file)
        file = w.file;
    if (!file) {
        cmd_ui_textf(c, "No current source file.\n");
        if (dbg_module_name(c->s))
            cmd_ui_textf(c, "PTX file is %s\n", base_name(dbg_module_name(c->s)));
        return 0;
    }
    cmd_ui_textf(c, "Current source file is %s\n", base_name(file));
    const char *slash = strrchr(file, '/');
    if (slash)
        cmd_ui_textf(c, "Compilation directory is %.*s\n", (int)(slash - file), file);
    char buf[4096];
    const char *found = dbg_source_locate(c->s, file, buf, sizeof buf);
    if (found) {
        cmd_ui_textf(c, "Located in %s\n", found);
        cmd_ui_textf(c, "Contains %d lines.\n", dbg_source_nlines(c->s, file));
    } else {
        cmd_ui_textf(c, "Source file not found.\n");
    }
    cmd_ui_textf(c, "Source language is c++.\n");
    cmd_ui_textf(c, "%s\n", dbg_has_dwarf_vars(c->s) ? "Compiled with DWARF debugging format."
                                        : "Line table only (no DWARF variables).");
    return 0;
}

/* ---- directory, substitute-path ---------------------------------------------------------------- */
static void show_dirs(cmd_ctx *c)
{
    cmd_ui_textf(c, "Source directories searched: ");
    for (int i = 0; i < dbg_src_ndirs(c->s); i++)
        cmd_ui_textf(c, "%s:", dbg_src_dir(c->s, i));
    cmd_ui_textf(c, "$cdir:$cwd\n");
}

int cmd_directory(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (argc == 0) {
        dbg_src_clear_dirs(c->s);
    } else {
        for (int i = 0; i < argc; i++) {
            /* gdb accepts DIR1:DIR2 */
            char *copy = strdup(argv[i]);
            if (!copy)
                return cmd_error(c, "Out of memory.");
            for (char *save = NULL, *t = strtok_r(copy, ":", &save); t;
                 t = strtok_r(NULL, ":", &save))
                if (strcmp(t, "$cdir") && strcmp(t, "$cwd") && dbg_src_add_dir(c->s, t) != 0) {
                    free(copy);
                    return cmd_error(c, "Cannot add directory %s.", t);
                }
            free(copy);
        }
    }
    dbg_src_flush(c->s);
    show_dirs(c);
    return 0;
}

int cmd_set_substitute(cmd_ctx *c, int argc, char **argv)
{
    if (argc != 3)
        return cmd_error(c, "Incorrect usage, too %s arguments in command",
                         argc < 3 ? "few" : "many");
    if (dbg_src_add_subst(c->s, argv[1], argv[2]) != 0)
        return cmd_error(c, "Cannot add the substitution rule.");
    dbg_src_flush(c->s);
    return 0;
}

int cmd_unset(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (argc < 1 || strcmp(argv[0], "substitute-path"))
        return cmd_error(c, "Usage: unset substitute-path [FROM]");
    if (argc > 2)
        return cmd_error(c, "Incorrect usage, too many arguments in command");
    if (dbg_src_del_subst(c->s, argc == 2 ? argv[1] : NULL) != 0 && argc == 2)
        return cmd_error(c, "No substitution rule defined for `%s'", argv[1]);
    dbg_src_flush(c->s);
    return 0;
}

int cmd_show_src(cmd_ctx *c, const char *what)
{
    if (!strcmp(what, "directories")) {
        show_dirs(c);
        return 1;
    }
    if (!strcmp(what, "substitute-path")) {
        cmd_ui_textf(c, "List of all source path substitution rules:\n");
        for (int i = 0; i < dbg_src_nsubst(c->s); i++) {
            const char *from, *to;
            if (dbg_src_subst(c->s, i, &from, &to) == 0)
                cmd_ui_textf(c, "  `%s' -> `%s'.\n", from, to);
        }
        return 1;
    }
    return 0;
}

void cmd_load_warnings(cmd_ctx *c)
{
    const char *w = dbg_load_warnings(c->s);
    fflush(stdout);
    while (w && *w) {
        size_t l = strcspn(w, "\n");
        if (l)
            fprintf(stderr, "%s%.*s\n", strncmp(w, "warning:", 8) ? "warning: " : "", (int)l, w);
        w += l + (w[l] == '\n');
    }
}

/* Not PTX: CUDA C++ source, or GPU machine code (an ELF for EM_CUDA, 190: a cubin; a fatbin). */
void cmd_program_hint(const char *path)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    int cu = dot && (!strcmp(dot, ".cu") || !strcmp(dot, ".cuh"));
    int bin = 0;
    FILE *f = fopen(path, "rb");
    if (f) {
        unsigned char h[20] = {0};
        size_t n = fread(h, 1, sizeof h, f);
        fclose(f);
        if (n >= 20 && !memcmp(h, "\177ELF", 4) && (h[18] | h[19] << 8) == 190)
            bin = 1;
        if (n >= 4 && h[0] == 0x50 && h[1] == 0xed && h[2] == 0x55 && h[3] == 0xba)
            bin = 1;
    }
    if (dot && (!strcmp(dot, ".cubin") || !strcmp(dot, ".fatbin")))
        bin = 1;
    int stem = dot && dot > base ? (int)(dot - base) : (int)strlen(base);
    fflush(stdout);
    if (cu)
        fprintf(stderr, "hint: %s is CUDA source; ptxdbg debugs PTX. Compile it with \"nvcc -ptx "
                        "-G %s\" (or -lineinfo) and load %.*s.ptx.\n", base, base, stem, base);
    else if (bin)
        fprintf(stderr, "hint: %s is GPU machine code (cubin/fatbin); ptxdbg debugs PTX. "
                        "Compile the source with \"nvcc -ptx -G FILE.cu\" and load the .ptx.\n",
                base);
}
