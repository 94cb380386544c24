/* cmd_src.c - source-level commands: info locals/args/scope/line/source/address, directory, substitute-path. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"

static const char *base_name(const char *p)
{
    const char *s = p ? strrchr(p, '/') : NULL;
    return s ? s + 1 : p ? p : "";
}

static dw_info *need_symbols(cmd_ctx *c)
{
    dw_info *d = dbg_dwarf(c->s);
    if (!dbg_module(c->s)) {
        cmd_error(c, "No symbol table is loaded.  Use the \"file\" command.");
        return NULL;
    }
    if (!d || !dw_has_dwarf(d)) {
        cmd_error(c, "No symbol table info available.");
        return NULL;
    }
    return d;
}

/* ---- info locals / info args ------------------------------------------------------------------ */
static int print_vars(cmd_ctx *c, unsigned flags, const char *none)
{
    dw_info *d = need_symbols(c);
    if (!d)
        return -1;
    dbg_frame f;
    if (dbg_focus_frame(c->s, &f) != 0)
        return cmd_error(c, "No frame selected.");
    const dw_var *vs[256];
    int n = dw_vars_at_frame(d, f.pc, f.inl, flags, vs, 256);
    if (n > 256)
        n = 256;
    int shown = 0;
    const dbg_focus *fo = dbg_get_focus(c->s);
    dbg_at at = {fo->cta, fo->warp, fo->lane, fo->frame, 0};
    for (int i = 0; i < n; i++) {
        if (vs[i]->artificial)
            continue;
        dbg_value v;
        char err[512], out[8192];
        if (dbg_var_value(c->s, &at, vs[i], &f, &v, err, sizeof err) != 0)
            snprintf(out, sizeof out, "<error: %s>", err);
        else
            dbg_format_at(c->s, &at, &v, 0, out, sizeof out);
        printf("%s = %s\n", vs[i]->name, out);
        shown++;
    }
    if (!shown)
        printf("%s\n", none);
    return 0;
}

int cmd_info_locals(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    return print_vars(c, DW_VARS_LOCALS, "No locals.");
}

int cmd_info_args(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    return print_vars(c, DW_VARS_PARAMS, "No arguments.");
}

/* ---- info scope / info address ---------------------------------------------------------------- */
static void static_where(dw_info *d, const dw_var *v, uint32_t pc, char *out, size_t n)
{
    dw_loc loc;
    uint64_t len = dw_type_size(v->type);
    if (dw_var_location(d, v, pc, &loc) != 0 || loc.kind == DW_LOCK_NONE)
        snprintf(out, n, "Symbol %s is optimized out.", v->name);
    else if (loc.kind == DW_LOCK_UNSUPPORTED)
        snprintf(out, n, "Symbol %s is a variable with complex DWARF expression locating its "
                 "address in memory, length %llu.", v->name, (unsigned long long)len);
    else if (loc.kind == DW_LOCK_REG)
        snprintf(out, n, "Symbol %s is a variable in register %s, length %llu.", v->name, loc.reg,
                 (unsigned long long)len);
    else if (loc.sym)
        snprintf(out, n, "Symbol %s is a variable at %s+%llu in @%s memory, length %llu.",
                 v->name, loc.sym, (unsigned long long)loc.offset, dbg_space_name(loc.space),
                 (unsigned long long)len);
    else
        snprintf(out, n, "Symbol %s is a variable at @%s address 0x%llx, length %llu.", v->name,
                 dbg_space_name(loc.space), (unsigned long long)loc.offset,
                 (unsigned long long)len);
}

int cmd_info_scope(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    while (isspace((unsigned char)*args))
        args++;
    if (!*args)
        return cmd_error(c, "requires an argument (an expression or variable): foo, *0x12345");
    dw_info *d = need_symbols(c);
    if (!d)
        return -1;
    uint32_t pcs[DBG_MAX_LOCS];
    if (dbg_resolve_location(c->s, args, pcs, DBG_MAX_LOCS) <= 0)
        return cmd_error(c, "No function \"%s\" in this program.", args);
    const dw_var *vs[256];
    int n = dw_vars_at(d, pcs[0], DW_VARS_LOCALS | DW_VARS_PARAMS, vs, 256);
    if (n > 256)
        n = 256;
    int shown = 0;
    for (int i = 0; i < n; i++) {
        if (vs[i]->artificial)
            continue;
        if (!shown++)
            printf("Scope for %s:\n", args);
        char line[1024];
        static_where(d, vs[i], pcs[0], line, sizeof line);
        printf("%s\n", line);
    }
    if (!shown)
        printf("Scope for %s:\nSymbol table contains no locals.\n", args);
    return 0;
}

int cmd_info_address(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (argc != 1)
        return cmd_error(c, "Argument required.");
    dw_info *d = need_symbols(c);
    if (!d)
        return -1;
    dbg_frame f;
    int have = dbg_focus_frame(c->s, &f) == 0;
    const dw_var *v = NULL;
    if (have)
        v = dw_var_lookup_frame(d, f.pc, f.inl, argv[0]);
    for (int i = 0; i < dw_nglobals(d) && !v; i++)
        if (!strcmp(dw_global_get(d, i)->name, argv[0]))
            v = dw_global_get(d, i);
    if (!v)
        return cmd_error(c, "No symbol \"%s\" in current context.", argv[0]);
    const dbg_focus *fo = dbg_get_focus(c->s);
    dbg_at at = {fo->cta, fo->warp, fo->lane, fo->frame, 0};
    char where[600];
    if (!have || !fo->valid || !dbg_launch_info(c->s)) {
        static_where(d, v, have ? f.pc : 0, where, sizeof where);
        printf("%s\n", where);
        return 0;
    }
    dbg_var_where(c->s, &at, v, &f, where, sizeof where);
    printf("Symbol \"%s\" is %s.\n", v->name, where);
    return 0;
}

/* ---- info line -------------------------------------------------------------------------------- */
static void describe(cmd_ctx *c, uint32_t pc, char *out, size_t n)
{
    char d[300];
    dbg_describe_pc(c->s, pc, d, sizeof d);
    snprintf(out, n, "0x%x%s%s", pc, d[0] ? " " : "", d);
}

static int line_of_pc(cmd_ctx *c, dw_info *d, uint32_t pc)
{
    dw_line l;
    uint32_t lo, hi;
    char a[400], b[400];
    if (dw_line_at(d, pc, &l) != 0 || l.line == 0 || dw_line_range(d, pc, &lo, &hi) != 0) {
        describe(c, pc, a, sizeof a);
        printf("No line number information available for address %s\n", a);
        return 0;
    }
    describe(c, lo, a, sizeof a);
    describe(c, hi, b, sizeof b);
    printf("Line %d of \"%s\" starts at address %s and ends at %s.\n", l.line, base_name(l.file),
           a, b);
    return 0;
}

int cmd_info_line(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argv;
    dw_info *d = dbg_dwarf(c->s);
    if (!dbg_module(c->s) || !d)
        return cmd_error(c, "No symbol table is loaded.  Use the \"file\" command.");
    while (isspace((unsigned char)*args))
        args++;
    uint32_t pc;
    if (argc == 0) {
        if (dbg_focus_pc(c->s, &pc) == 0)
            return line_of_pc(c, d, pc);
        if (!c->list_valid || !c->list_file[0])
            return cmd_error(c, "No line number information available.");
        char spec[600];
        snprintf(spec, sizeof spec, "%s:%d", c->list_file, c->list_line > 1 ? c->list_line : 1);
        return cmd_info_line(c, spec, 1, NULL);
    }
    if (*args == '*') {
        uint32_t pcs[1];
        if (dbg_resolve_location(c->s, args, pcs, 1) <= 0)
            return cmd_error(c, "%s", dbg_errmsg(c->s));
        return line_of_pc(c, d, pcs[0]);
    }
    if (strncmp(args, "ptx:", 4) == 0) { /* as break ptx:N: the first instruction at or after */
        uint32_t pcs[1];
        if (dbg_resolve_location(c->s, args, pcs, 1) <= 0)
            return cmd_error(c, "%s", dbg_errmsg(c->s));
        char a[400];
        describe(c, pcs[0], a, sizeof a);
        dbg_where w;
        long want = strtol(args + 4, NULL, 0); /* as the location parser reads it */
        if (dbg_pc_where(c->s, pcs[0], &w) == 0 && w.ptx_line != want)
            printf("PTX line %ld has no instruction; the next is at address %s (PTX line %d).\n",
                   want, a, w.ptx_line);
        else
            printf("PTX line %ld is at address %s.\n", want, a);
        return line_of_pc(c, d, pcs[0]);
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
        dw_pc_range r[4];
        int n = dw_line_pcs(d, file, (int)line, r, 4);
        char a[400], b[400];
        if (n > 0) {
            describe(c, r[0].lo, a, sizeof a);
            describe(c, r[0].hi, b, sizeof b);
            printf("Line %ld of \"%s\" starts at address %s and ends at %s.\n", line,
                   base_name(file), a, b);
            return 0;
        }
        uint32_t pcs[4];
        int actual = 0;
        if (dw_line_breakpoints(d, file, (int)line, pcs, 4, &actual) > 0) {
            describe(c, pcs[0], a, sizeof a);
            printf("Line %ld of \"%s\" is at address %s but contains no code.\n", line,
                   base_name(file), a);
            return 0;
        }
        int known = 0;
        const ptx_module *m = dbg_module(c->s);
        for (int i = 0; i < m->nfiles && !known; i++)
            known = dw_file_matches(d, m->files[i].num, file);
        if (!known)
            return cmd_error(c, "No source file named %s.", file);
        return cmd_error(c, "Line number %ld is out of range for \"%s\".", line, base_name(file));
    }
    /* FUNC: the line where it starts */
    const dw_func *df = dw_func_by_name(d, args);
    if (!df) {
        const ptx_func *pf = dbg_find_func(c->s, args);
        if (!pf)
            return cmd_error(c, "Function \"%s\" not defined.", args);
        df = dw_func_of_ptx(d, pf);
        if (!df)
            return cmd_error(c, "Function \"%s\" not defined.", args);
    }
    if (df->lo == df->hi)
        return cmd_error(c, "Function \"%s\" has no code.", args);
    return line_of_pc(c, d, df->lo);
}

/* ---- info source ------------------------------------------------------------------------------ */
int cmd_info_source(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    const ptx_module *m = dbg_module(c->s);
    if (!m)
        return cmd_error(c, "No symbol table is loaded.  Use the \"file\" command.");
    const char *file = NULL;
    uint32_t pc;
    dbg_where w;
    if (c->list_valid && c->list_file[0])
        file = c->list_file;
    else if (dbg_focus_pc(c->s, &pc) == 0 && dbg_pc_where(c->s, pc, &w) == 0 && w.file)
        file = w.file;
    if (!file) {
        printf("No current source file.\n");
        if (m->path)
            printf("PTX file is %s\n", base_name(m->path));
        return 0;
    }
    printf("Current source file is %s\n", base_name(file));
    const char *slash = strrchr(file, '/');
    if (slash)
        printf("Compilation directory is %.*s\n", (int)(slash - file), file);
    char buf[4096];
    const char *dir = dbg_module_dir(c->s);
    const char *found = dw_src_resolve(dbg_srcpath(c->s), file, dir && dir[0] ? dir : NULL, buf,
                                       sizeof buf);
    if (found) {
        printf("Located in %s\n", found);
        printf("Contains %d lines.\n", dbg_source_nlines(c->s, file));
    } else {
        printf("Source file not found.\n");
    }
    printf("Source language is c++.\n");
    dw_info *d = dbg_dwarf(c->s);
    printf("%s\n", d && dw_has_dwarf(d) ? "Compiled with DWARF debugging format."
                                        : "Line table only (no DWARF variables).");
    return 0;
}

/* ---- directory, substitute-path ---------------------------------------------------------------- */
static void show_dirs(cmd_ctx *c)
{
    dw_srcpath *sp = dbg_srcpath(c->s);
    printf("Source directories searched: ");
    for (int i = 0; i < dw_src_ndirs(sp); i++)
        printf("%s:", dw_src_dir(sp, i));
    printf("$cdir:$cwd\n");
}

int cmd_directory(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    dw_srcpath *sp = dbg_srcpath(c->s);
    if (argc == 0) {
        dw_src_clear_dirs(sp);
    } else {
        for (int i = 0; i < argc; i++) {
            /* gdb accepts DIR1:DIR2 */
            char *copy = strdup(argv[i]);
            if (!copy)
                return cmd_error(c, "Out of memory.");
            for (char *save = NULL, *t = strtok_r(copy, ":", &save); t;
                 t = strtok_r(NULL, ":", &save))
                if (strcmp(t, "$cdir") && strcmp(t, "$cwd") && dw_src_add_dir(sp, t) != 0) {
                    free(copy);
                    return cmd_error(c, "Cannot add directory %s.", t);
                }
            free(copy);
        }
    }
    dw_src_flush(sp);
    show_dirs(c);
    return 0;
}

int cmd_set_substitute(cmd_ctx *c, int argc, char **argv)
{
    if (argc != 3)
        return cmd_error(c, "Incorrect usage, too %s arguments in command",
                         argc < 3 ? "few" : "many");
    if (dw_src_add_subst(dbg_srcpath(c->s), argv[1], argv[2]) != 0)
        return cmd_error(c, "Cannot add the substitution rule.");
    dw_src_flush(dbg_srcpath(c->s));
    return 0;
}

int cmd_unset(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (argc < 1 || strcmp(argv[0], "substitute-path"))
        return cmd_error(c, "Usage: unset substitute-path [FROM]");
    if (argc > 2)
        return cmd_error(c, "Incorrect usage, too many arguments in command");
    if (dw_src_del_subst(dbg_srcpath(c->s), argc == 2 ? argv[1] : NULL) != 0 && argc == 2)
        return cmd_error(c, "No substitution rule defined for `%s'", argv[1]);
    dw_src_flush(dbg_srcpath(c->s));
    return 0;
}

int cmd_show_src(cmd_ctx *c, const char *what)
{
    if (!strcmp(what, "directories")) {
        show_dirs(c);
        return 1;
    }
    if (!strcmp(what, "substitute-path")) {
        dw_srcpath *sp = dbg_srcpath(c->s);
        printf("List of all source path substitution rules:\n");
        for (int i = 0; i < dw_src_nsubst(sp); i++) {
            const char *from, *to;
            if (dw_src_subst(sp, i, &from, &to) == 0)
                printf("  `%s' -> `%s'.\n", from, to);
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
