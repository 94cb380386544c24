/* cmd_stack.c - stack and listing commands: backtrace, frame, up, down, list, disassemble, info frame. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"

static int need_stack(cmd_ctx *c)
{
    exec_frame fr[1];
    if (dbg_backtrace(c->s, fr, 1) <= 0)
        return cmd_error(c, "No stack.");
    return 0;
}

int cmd_backtrace(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (need_stack(c) != 0)
        return -1;
    exec_frame fr[64];
    int n = dbg_backtrace(c->s, fr, 64);
    int limit = argc ? atoi(argv[0]) : n;
    if (limit <= 0 || limit > n)
        limit = n;
    for (int i = 0; i < limit; i++)
        cmd_print_frame_line(c, i, 0);
    if (limit < n)
        printf("(More stack frames follow...)\n");
    return 0;
}

static int select_frame(cmd_ctx *c, int frame)
{
    if (need_stack(c) != 0)
        return -1;
    if (dbg_set_frame(c->s, frame) != 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    cmd_print_frame_line(c, frame, 1);
    return 0;
}

int cmd_frame(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (argc == 0) {
        if (need_stack(c) != 0)
            return -1;
        cmd_print_frame_line(c, dbg_get_focus(c->s)->frame, 1);
        return 0;
    }
    char *end;
    long n = strtol(argv[0], &end, 10);
    if (*end || n < 0)
        return cmd_error(c, "Invalid frame number \"%s\".", argv[0]);
    return select_frame(c, (int)n);
}

int cmd_up(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    int n = argc ? atoi(argv[0]) : 1;
    return select_frame(c, dbg_get_focus(c->s)->frame + n);
}

int cmd_down(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    int n = argc ? atoi(argv[0]) : 1;
    return select_frame(c, dbg_get_focus(c->s)->frame - n);
}

int cmd_info_frame(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    if (need_stack(c) != 0)
        return -1;
    exec_frame fr[64];
    int n = dbg_backtrace(c->s, fr, 64);
    int sel = dbg_get_focus(c->s)->frame;
    printf("Stack level %d, pc = 0x%x", sel, fr[sel].pc);
    char d[300];
    cmd_describe(c, fr[sel].pc, d, sizeof d);
    printf(" %s\n", d);
    if (sel + 1 < n)
        printf(" called by frame at level %d\n", sel + 1);
    if (sel > 0)
        printf(" caller of frame at level %d\n", sel - 1);
    cmd_print_frame_line(c, sel, 0);
    return 0;
}

/* ---- list ----------------------------------------------------------------------------------- */
static void list_lines(cmd_ctx *c, const char *file, int first, int last)
{
    if (first < 1)
        first = 1;
    int len;
    for (int l = first; l <= last; l++) {
        const char *t = file && *file ? dbg_source_line(c->s, file, l, &len)
                                      : ptx_source_line(dbg_module(c->s), l, &len);
        if (!t)
            break;
        printf("%d\t%.*s\n", l, len, t);
        c->list_line = l + 1;
    }
    snprintf(c->list_file, sizeof c->list_file, "%s", file ? file : "");
    c->list_valid = 1;
}

int cmd_list(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (!dbg_module(c->s))
        return cmd_error(c, "No symbol table is loaded.  Use the \"file\" command.");
    if (argc == 0) {
        if (c->list_valid) {
            list_lines(c, c->list_file, c->list_line, c->list_line + 9);
            return 0;
        }
        /* first list: around the focus, else the first kernel */
        uint32_t pc;
        dbg_where w;
        if (dbg_focus_pc(c->s, &pc) != 0) {
            uint32_t pcs[1];
            const ptx_module *m = dbg_module(c->s);
            pc = UINT32_MAX;
            for (int i = 0; i < m->nfuncs && pc == UINT32_MAX; i++)
                if (m->funcs[i]->is_entry && m->funcs[i]->has_body &&
                    dbg_resolve_location(c->s, m->funcs[i]->sym->name, pcs, 1) == 1)
                    pc = pcs[0];
            if (pc == UINT32_MAX)
                return cmd_error(c, "No kernel to list.");
        }
        dbg_pc_where(c->s, pc, &w);
        if (w.file && w.line > 0)
            list_lines(c, w.file, w.line - 5, w.line + 4);
        else
            list_lines(c, "", w.ptx_line - 5, w.ptx_line + 4);
        return 0;
    }
    const char *a = argv[0];
    /* ptx:N lists the PTX text */
    if (!strncmp(a, "ptx:", 4)) {
        int l = atoi(a + 4);
        list_lines(c, "", l - 5, l + 4);
        return 0;
    }
    if (isdigit((unsigned char)a[0]) && !strchr(a, ':')) {
        int l = atoi(a);
        const char *file = dbg_has_source(c->s) ? (c->list_valid && c->list_file[0]
                                                       ? c->list_file : dbg_default_file(c->s))
                                                : "";
        char keep[512];
        snprintf(keep, sizeof keep, "%s", file ? file : "");
        if (keep[0] && !dbg_source_nlines(c->s, keep))
            return cmd_error(c, "%s: No such file or directory.", keep);
        list_lines(c, keep, l - 5, l + 4);
        return 0;
    }
    uint32_t pcs[DBG_MAX_LOCS];
    if (dbg_resolve_location(c->s, a, pcs, DBG_MAX_LOCS) <= 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    dbg_where w;
    dbg_pc_where(c->s, pcs[0], &w);
    if (w.file && w.line > 0) {
        if (!dbg_source_nlines(c->s, w.file))
            return cmd_error(c, "%d\tin %s (source file not found)", w.line, w.file);
        list_lines(c, w.file, w.line - 5, w.line + 4);
    } else {
        list_lines(c, "", w.ptx_line - 5, w.ptx_line + 4);
    }
    return 0;
}

int cmd_disassemble(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    exec_machine *m = dbg_machine(c->s);
    const ptx_func *fn = NULL;
    uint32_t cur = UINT32_MAX;
    dbg_focus_pc(c->s, &cur);
    if (argc == 1) {
        fn = dbg_find_func(c->s, argv[0]);
        if (!fn)
            return cmd_error(c, "%s", dbg_errmsg(c->s));
    } else {
        const ptx_insn *in;
        if (cur == UINT32_MAX || exec_pc_insn(m, cur, &fn, &in) != 0)
            return cmd_error(c, "No frame selected.");
    }
    int64_t base = exec_func_pc(m, fn);
    if (base < 0)
        return cmd_error(c, "Function has no body.");
    char name[1024];
    dbg_func_name(c->s, fn, 1, name, sizeof name);
    printf("Dump of assembler code for function %s:\n", name);
    for (int i = 0; i < fn->ninsns; i++) {
        char text[512];
        ptx_insn_format(&fn->insns[i], text, sizeof text);
        uint32_t pc = (uint32_t)base + (uint32_t)i;
        printf("%s0x%06x <+%d>:\t%s\n", pc == cur ? "=> " : "   ", pc, i, text);
    }
    printf("End of assembler dump.\n");
    return 0;
}
