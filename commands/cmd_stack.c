/* cmd_stack.c - stack and listing commands: backtrace, frame, up, down, list, info frame. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "cmd_ui.h"

int cmd_backtrace(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    dbg_frame fr[DBG_MAX_FRAMES];
    int n = dbg_frames(c->s, fr, DBG_MAX_FRAMES);
    long lim = n;
    if (argc && cmd_parse_long(argv[0], -INT_MAX, INT_MAX, &lim) != 0)
        return cmd_error(c, "Invalid frame count \"%s\".", argv[0]);
    /* gdb: backtrace N the innermost N frames, backtrace -N the outermost N */
    int first = 0, last = n;
    if (lim >= 0 && lim < n)
        last = (int)lim;
    else if (lim < 0 && -lim < n)
        first = n + (int)lim;
    cmd_ui_open(c, "frames", 1);
    for (int i = first; i < last; i++)
        cmd_frame_line(c, i, 0, 1);
    cmd_ui_close(c);
    if (last < n)
        cmd_ui_text(c, "(More stack frames follow...)\n");
    /* a CUDA program's kernel: where the host launched it (its own debug info) */
    char site[1024];
    if (last == n && dbg_launch_site(c->s, site, sizeof site) == 0) {
        cmd_ui_text(c, "Launched from host: ");
        cmd_ui_field_str(c, "launch_site", site);
        cmd_ui_text(c, "\n");
    }
    return 0;
}

static int select_frame(cmd_ctx *c, int frame)
{
    if (dbg_set_frame(c->s, frame) != 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    cmd_print_frame_line(c, frame, 1);
    return 0;
}

int cmd_frame(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (argc == 0) {
        cmd_print_frame_line(c, dbg_get_focus(c->s)->frame, 1);
        return 0;
    }
    long n;
    if (cmd_parse_long(argv[0], 0, INT_MAX, &n) != 0)
        return cmd_error(c, "Invalid frame number \"%s\".", argv[0]);
    dbg_frame fr[DBG_MAX_FRAMES];
    if (n >= dbg_frames(c->s, fr, DBG_MAX_FRAMES))
        return cmd_error(c, "No frame at level %s.", argv[0]); /* gdb */
    return select_frame(c, (int)n);
}

/* up (dir 1) or down (dir -1) N frames, default 1. */
static int move_frame(cmd_ctx *c, int argc, char **argv, int dir)
{
    long n = 1;
    if (argc && cmd_parse_long(argv[0], -DBG_MAX_FRAMES, DBG_MAX_FRAMES, &n) != 0)
        return cmd_error(c, "Invalid frame count \"%s\".", argv[0]);
    return select_frame(c, dbg_get_focus(c->s)->frame + dir * (int)n);
}

int cmd_up(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    return move_frame(c, argc, argv, 1);
}

int cmd_down(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    return move_frame(c, argc, argv, -1);
}

int cmd_info_frame(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    dbg_frame fr[DBG_MAX_FRAMES];
    int n = dbg_frames(c->s, fr, DBG_MAX_FRAMES);
    int sel = dbg_get_focus(c->s)->frame;
    if (sel >= n)
        sel = n - 1;
    const dbg_frame *f = &fr[sel];
    char d[300], where[600] = "";
    dbg_describe_pc(c->s, f->pc, d, sizeof d);
    if (f->file && f->line > 0) {
        const char *b = strrchr(f->file, '/');
        snprintf(where, sizeof where, " (%s:%d)", b ? b + 1 : f->file, f->line);
    }
    /* JSON: "level", "pc", "function", "file", "line", "saved_pc", "inlined", "caller_level",
       "callee_level", "language", "args" */
    cmd_ui_text(c, "Stack level ");
    cmd_ui_field_int(c, "level", sel);
    cmd_ui_textf(c, ", pc = 0x%x %s:\n", f->pc, d);
    cmd_ui_uint(c, "pc", f->pc);
    char name[600], fn[600];
    if (f->inl_name)
        snprintf(name, sizeof name, "%s", f->inl_name);
    else if (dbg_func_is_kernel(f->func))
        cmd_kernel_label(c, name, sizeof name);
    else
        dbg_func_name(c->s, f->func, 0, name, sizeof name);
    dbg_frame_fn(dbg_demangle, f, fn, sizeof fn);
    cmd_ui_str(c, "function", fn);
    if (f->file && f->line > 0) {
        cmd_ui_str(c, "file", f->file);
        cmd_ui_int(c, "line", f->line);
    }
    cmd_ui_textf(c, " pc = 0x%x in %s%s", f->pc, name, where);
    if (sel + 1 < n && fr[sel + 1].phys != f->phys) {
        cmd_ui_textf(c, "; saved pc = 0x%x", fr[sel + 1].pc + 1);
        cmd_ui_uint(c, "saved_pc", fr[sel + 1].pc + 1);
    }
    cmd_ui_text(c, "\n");
    cmd_ui_bool(c, "inlined", f->inl_name != NULL);
    if (f->inl_name)
        cmd_ui_textf(c, " inlined into frame %d\n", sel + 1);
    if (sel + 1 < n) {
        cmd_ui_text(c, " called by frame at level ");
        cmd_ui_field_int(c, "caller_level", sel + 1);
        cmd_ui_text(c, "\n");
    }
    if (sel > 0) {
        cmd_ui_text(c, " caller of frame at level ");
        cmd_ui_field_int(c, "callee_level", sel - 1);
        cmd_ui_text(c, "\n");
    }
    if (dbg_has_source(c->s)) {
        cmd_ui_text(c, " source language ");
        cmd_ui_field_str(c, "language", "c++");
        cmd_ui_text(c, ".\n");
    }
    char argsbuf[2048];
    cmd_frame_args(c, f, argsbuf, sizeof argsbuf);
    cmd_ui_text(c, " args: ");
    cmd_ui_field_str(c, "args", argsbuf);
    cmd_ui_text(c, "\n");
    return 0;
}

/* ---- list ----------------------------------------------------------------------------------- */
/* Lines a listing shows (set listsize; 0: unlimited, bounded by the file). */
static int list_size(const cmd_ctx *c)
{
    return c->opt.listsize && c->opt.listsize < 100000000 ? (int)c->opt.listsize : 100000000;
}

/* Print lines first..last of file ("" = the PTX text). */
static int list_lines(cmd_ctx *c, const char *file, int first, int last)
{
    char keep[512];
    snprintf(keep, sizeof keep, "%s", file ? file : "");
    int nlines = keep[0] ? dbg_source_nlines(c->s, keep) : dbg_ptx_text_nlines(c->s);
    const char *shown = keep[0] ? keep : (dbg_module_name(c->s) ? dbg_module_name(c->s) : "");
    const char *b = strrchr(shown, '/');
    b = b ? b + 1 : shown;
    if (first < 1)
        first = 1;
    if (first > nlines)
        return cmd_error(c, "Line number %d out of range; \"%s\" has %d lines.", first, b, nlines);
    if (last > nlines)
        last = nlines;
    int len;
    /* JSON: "file" (the source as debug info names it; absent for the PTX: "ptx" true),
       "lines": [{"line", "text"}] */
    if (keep[0])
        cmd_ui_str(c, "file", keep);
    else
        cmd_ui_bool(c, "ptx", 1);
    cmd_ui_table_begin(c, "lines");
    cmd_ui_table_col(c, 0, CMD_UI_LEFT, "");
    cmd_ui_table_heading(c, NULL);
    for (int l = first; l <= last; l++) {
        const char *t = keep[0] ? dbg_source_line(c->s, keep, l, &len)
                                : dbg_ptx_text_line(c->s, l, &len);
        if (!t)
            break;
        char *text = strndup(t, (size_t)len);
        cmd_ui_row_begin(c);
        cmd_ui_field_int(c, "line", l);
        cmd_ui_text(c, "\t");
        cmd_ui_field_str(c, "text", text ? text : "");
        cmd_ui_row_end(c);
        free(text);
    }
    cmd_ui_table_end(c);
    snprintf(c->list_file, sizeof c->list_file, "%s", keep);
    if (keep[0])
        c->list_missing[0] = 0; /* listing a source: no fallback to undo */
    c->list_first = first;
    c->list_line = last + 1;
    c->list_valid = 1;
    return 0;
}

static int list_centered(cmd_ctx *c, const char *file, int line)
{
    int first = cmd_list_centre(c, line);
    return list_lines(c, file, first, first + list_size(c) - 1);
}

/* A source file that cannot be read: say so and list the PTX around pc instead; a later `list`
 * goes back to the source once `directory` finds it. */
static int list_missing(cmd_ctx *c, const char *file_in, int line, uint32_t pc, int have_pc)
{
    char file[sizeof c->list_missing]; /* file_in may be c->list_file, which listing changes */
    snprintf(file, sizeof file, "%s", file_in);
    const char *b = strrchr(file, '/');
    b = b ? b + 1 : file;
    dbg_source_missing_once(c->s, file);
    if (!have_pc)
        return cmd_error(c, "%d\tin %s", line, file);
    fflush(stdout);
    cmd_ui_message(c, "Listing the PTX: source file %s not found (\"directory DIR\" tells where "
                      "it is).\n", b);
    dbg_where w;
    dbg_pc_where(c->s, pc, &w);
    int rc = list_centered(c, "", w.ptx_line);
    snprintf(c->list_missing, sizeof c->list_missing, "%s", file);
    c->list_missing_line = line;
    return rc;
}

/* Where a location names: file and line (file "" for PTX lines). */
static int list_where(cmd_ctx *c, const char *given, char *file, size_t n, int *line,
                      uint32_t *pc)
{
    char spec[512];
    if (cmd_loc_addr(c, given, spec, sizeof spec) != 0)
        return -1;
    if (dbg_func_decl(c->s, spec, file, n, line, pc) == 0)
        return 0;
    uint32_t pcs[DBG_MAX_LOCS];
    if (dbg_resolve_location(c->s, spec, pcs, DBG_MAX_LOCS) <= 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    dbg_where w;
    dbg_pc_where(c->s, pcs[0], &w);
    *pc = pcs[0];
    /* FILE:LINE lists around the line asked for, even where it has no code */
    const char *colon = strrchr(spec, ':');
    if (w.file && colon && strncmp(spec, "ptx:", 4) && atoi(colon + 1) > 0) {
        snprintf(file, n, "%s", w.file);
        *line = atoi(colon + 1);
    } else if (w.file && w.line > 0) {
        snprintf(file, n, "%s", w.file);
        *line = w.line;
    } else {
        file[0] = 0;
        *line = w.ptx_line;
    }
    return 0;
}

static int parse_line_no(const char *s, int *v)
{
    char *end;
    long l = strtol(s, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    if (end == s || *end || l < 1 || l > 10000000)
        return -1;
    *v = (int)l;
    return 0;
}

/* The file a bare LINE means: the last listed, else the focus's, else the module's first. A
 * PTX listing shown because a source file was missing stands for that source file: once
 * `directory` finds it, LINE and A,B are its lines again, not PTX lines. */
static void current_file(cmd_ctx *c, char *file, size_t n)
{
    const char *f = c->list_valid && !c->list_file[0] && c->list_missing[0] ? c->list_missing
                    : c->list_valid ? c->list_file
                    : dbg_has_source(c->s) ? dbg_default_file(c->s) : "";
    snprintf(file, n, "%s", f ? f : "");
}

int cmd_list(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    char a[512];
    while (isspace((unsigned char)*args))
        args++;
    snprintf(a, sizeof a, "%s", args);
    for (size_t l = strlen(a); l && isspace((unsigned char)a[l - 1]);)
        a[--l] = 0;
    char file[512];
    int line;
    uint32_t pc = 0;
    if (!a[0]) {
        /* listing the PTX for a missing source that can now be read: back to the source */
        if (c->list_valid && !c->list_file[0] && c->list_missing[0] &&
            dbg_source_nlines(c->s, c->list_missing)) {
            char f[sizeof c->list_missing];
            snprintf(f, sizeof f, "%s", c->list_missing);
            return list_centered(c, f, c->list_missing_line);
        }
        if (c->list_valid && c->list_file[0] && !dbg_source_nlines(c->s, c->list_file)) {
            int have = dbg_focus_pc(c->s, &pc) == 0;
            /* list_line is the first line the next listing shows: its centre is half a
               listing further (so a later `list` shows the same lines from the source) */
            int centre = c->list_line + (list_size(c) < 100000000 ? list_size(c) / 2 : 0);
            return list_missing(c, c->list_file, centre, pc, have);
        }
        if (c->list_valid)
            return list_lines(c, c->list_file, c->list_line, c->list_line + list_size(c) - 1);
        /* first list: around the focus, else the first kernel */
        if (dbg_focus_pc(c->s, &pc) != 0) {
            uint32_t pcs[1];
            pc = UINT32_MAX;
            for (int i = 0; i < dbg_nfuncs(c->s) && pc == UINT32_MAX; i++) {
                dbg_func_info fi;
                dbg_func_info_of(dbg_func_at(c->s, i), &fi);
                if (fi.kernel && fi.has_body && dbg_resolve_location(c->s, fi.name, pcs, 1) == 1)
                    pc = pcs[0];
            }
            if (pc == UINT32_MAX)
                return cmd_error(c, "No kernel to list.");
        }
        dbg_where w;
        dbg_pc_where(c->s, pc, &w);
        if (w.file && w.line > 0) {
            if (!dbg_source_nlines(c->s, w.file))
                return list_missing(c, w.file, w.line, pc, 1);
            return list_centered(c, w.file, w.line);
        }
        return list_centered(c, "", w.ptx_line);
    }
    if (!strcmp(a, "-")) {
        if (!c->list_valid)
            return cmd_error(c, "No default source file to list.");
        if (!c->list_file[0] && c->list_missing[0] && dbg_source_nlines(c->s, c->list_missing)) {
            /* the PTX stood for a source now found: the source lines before that listing */
            char f[sizeof c->list_missing];
            snprintf(f, sizeof f, "%s", c->list_missing);
            int first = cmd_list_centre(c, c->list_missing_line), n = list_size(c);
            if (first <= 1)
                return cmd_error(c, "Already at the start of %s.", f);
            return list_lines(c, f, first - n < 1 ? 1 : first - n, first - 1);
        }
        if (c->list_first <= 1)
            return cmd_error(c, "Already at the start of %s.",
                             c->list_file[0] ? c->list_file : "the PTX text");
        int last = c->list_first - 1;
        int n = list_size(c);
        return list_lines(c, c->list_file, last - n + 1 < 1 ? 1 : last - n + 1, last);
    }
    /* ptx:N lists the PTX text */
    if (!strncmp(a, "ptx:", 4)) {
        int l;
        if (parse_line_no(a + 4, &l) != 0)
            return cmd_error(c, "Invalid PTX line \"%s\".", a + 4);
        int rc = list_centered(c, "", l);
        c->list_missing[0] = 0; /* the PTX asked for: LINE means a PTX line now */
        return rc;
    }
    char *comma = strchr(a, ',');
    if (comma) {
        *comma = 0;
        char *lhs = a, *rhs = comma + 1;
        while (isspace((unsigned char)*rhs))
            rhs++;
        for (size_t l = strlen(lhs); l && isspace((unsigned char)lhs[l - 1]);)
            lhs[--l] = 0;
        int first = 0, last = 0;
        current_file(c, file, sizeof file);
        if (lhs[0]) {
            if (parse_line_no(lhs, &first) != 0) {
                if (list_where(c, lhs, file, sizeof file, &first, &pc) != 0)
                    return -1;
            }
        }
        if (rhs[0]) {
            const char *colon = strrchr(rhs, ':');
            if (parse_line_no(colon ? colon + 1 : rhs, &last) != 0)
                return cmd_error(c, "Invalid line number \"%s\".", rhs);
        }
        if (!lhs[0] && !rhs[0])
            return cmd_error(c, "Junk at end of line specification.");
        if (!lhs[0])
            first = last - list_size(c) + 1 < 1 ? 1 : last - list_size(c) + 1;
        if (!rhs[0])
            last = first + list_size(c) - 1;
        if (last < first)
            return cmd_error(c, "Second line number out of range.");
        if (file[0] && !dbg_source_nlines(c->s, file))
            return list_missing(c, file, first, 0, 0);
        return list_lines(c, file, first, last);
    }
    if (parse_line_no(a, &line) == 0) {
        current_file(c, file, sizeof file);
        if (file[0] && !dbg_source_nlines(c->s, file))
            return list_missing(c, file, line, 0, 0);
        return list_centered(c, file, line);
    }
    if (list_where(c, a, file, sizeof file, &line, &pc) != 0)
        return -1;
    if (file[0] && !dbg_source_nlines(c->s, file))
        return list_missing(c, file, line, pc, 1);
    return list_centered(c, file, line);
}
