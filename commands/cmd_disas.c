/* cmd_disas.c - gdb's disassemble: a function or a pc range of PTX, with /s, /m and /r. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "cmd_ui.h"

enum { DIS_RAW = 1, DIS_SRC = 2, DIS_MIXED = 4 };

typedef struct {
    cmd_ctx *c;
    unsigned mods;
    uint32_t cur;             /* the focus's pc, or UINT32_MAX */
    const ptx_func *fn;       /* whole-function mode: offsets are <+N>; range mode: NULL */
    int64_t base;             /* fn's first pc */
    const char *last_file;    /* /s: the file of the last source line shown */
    int last_line;
} dis_ctx;

static const char *base_name(const char *p)
{
    const char *b = p ? strrchr(p, '/') : NULL;
    return b ? b + 1 : p ? p : "";
}

/* One instruction line: "=> 0x000030 <+12>:\t[ptx 122\t]ld.global.u32 ..." */
static void dis_insn(dis_ctx *d, uint32_t pc)
{
    dbg_insn_info ii;
    if (dbg_insn_at(d->c->s, pc, &ii) != 0)
        return;
    const ptx_func *f = ii.func;
    cmd_ctx *c = d->c;
    char text[512], where[600], name[512];
    dbg_insn_text(c->s, pc, text, sizeof text, NULL);
    dbg_func_name(c->s, f, 0, name, sizeof name);
    long long off = d->fn ? (long long)pc - (long long)d->base
                          : (long long)pc - (long long)ii.func_pc;
    if (d->fn)
        snprintf(where, sizeof where, "<+%lld>", off);
    else
        snprintf(where, sizeof where, "<%s+%lld>", name, off);
    /* a row of "instructions": {"pc", "function", "offset", "ptx_line", "instruction",
       "current"} */
    cmd_ui_open(c, NULL, 0);
    cmd_ui_field_bool(c, "current", pc == d->cur, "=> ", "   ");
    cmd_ui_textf(c, "0x%06x %s:\t", pc, where);
    cmd_ui_uint(c, "pc", pc);
    cmd_ui_str(c, "function", name);
    cmd_ui_int(c, "offset", off);
    cmd_ui_int(c, "ptx_line", ii.line);
    /* /r: PTX has no binary encoding; the raw form of an instruction is its PTX line */
    if (d->mods & DIS_RAW)
        cmd_ui_textf(c, "ptx:%d\t", ii.line);
    cmd_ui_field_str(c, "instruction", text);
    cmd_ui_text(c, "\n");
    cmd_ui_close(c);
}

static void dis_source_lines(dis_ctx *d, const char *file, int first, int last)
{
    for (int l = first; l <= last; l++) {
        int len;
        const char *t = dbg_source_line(d->c->s, file, l, &len);
        if (t)
            cmd_ui_textf(d->c, "%d\t%.*s\n", l, len, t);
        else
            cmd_ui_textf(d->c, "%d\tin %s\n", l, file);
    }
}

typedef struct { const char *file; int line; } dis_seen;

static int dis_was_shown(const dis_seen *seen, int n, const char *file, int line)
{
    for (int i = 0; i < n; i++)
        if (seen[i].line == line && !strcmp(seen[i].file, file))
            return 1;
    return 0;
}

/* /s: instructions in pc order, each run of one source line after that line; going forward a
 * little in the same file, the lines skipped since the last one shown come first (those not
 * shown before), as gdb does. */
static int dis_run_s(dis_ctx *d, uint32_t lo, uint32_t hi)
{
    int have = 0, shown_line = 0, nseen = 0;
    const char *shown_file = NULL;
    dis_seen *seen = calloc((size_t)(hi - lo) * 11 + 1, sizeof *seen);
    if (!seen)
        return cmd_error(d->c, "Out of memory.");
    for (uint32_t pc = lo; pc < hi; pc++) {
        dbg_where w;
        if (dbg_pc_where(d->c->s, pc, &w) == 0 && w.file && w.line > 0 &&
            (!have || w.line != shown_line || strcmp(w.file, shown_file))) {
            if (have)
                cmd_ui_text(d->c, "\n");
            if (!shown_file || strcmp(w.file, shown_file))
                cmd_ui_textf(d->c, "%s:\n", base_name(w.file));
            int first = w.line;
            if (shown_file && !strcmp(w.file, shown_file) && w.line > shown_line &&
                w.line - shown_line <= 10)
                first = shown_line + 1;
            for (int l = first; l <= w.line; l++) {
                if (l < w.line && dis_was_shown(seen, nseen, w.file, l))
                    continue;
                dis_source_lines(d, w.file, l, l);
                if (!dis_was_shown(seen, nseen, w.file, l))
                    seen[nseen++] = (dis_seen){w.file, l};
            }
            shown_file = w.file;
            shown_line = w.line;
            have = 1;
        }
        dis_insn(d, pc);
    }
    free(seen);
    return 0;
}

typedef struct { const char *file; int line; uint32_t pc; int main; } dis_row;

static int dis_row_cmp(const void *a, const void *b)
{
    const dis_row *x = a, *y = b;
    if (x->main != y->main)
        return y->main - x->main;   /* the function's own file first */
    int f = strcmp(x->file ? x->file : "", y->file ? y->file : "");
    if (f)
        return f;
    if (x->line != y->line)
        return x->line - y->line;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* /m: source-centric, as gdb's deprecated /m: each source line once, in line order (the
 * function's own file first), followed by all of its instructions in pc order. */
static int dis_run_m(dis_ctx *d, uint32_t lo, uint32_t hi)
{
    dis_row *rows = calloc((size_t)(hi - lo) + 1, sizeof *rows);
    if (!rows)
        return cmd_error(d->c, "Out of memory.");
    dbg_where w0;
    const char *main_file = dbg_pc_where(d->c->s, lo, &w0) == 0 ? w0.file : NULL;
    for (uint32_t pc = lo; pc < hi; pc++) {
        dbg_where w;
        dis_row *r = &rows[pc - lo];
        r->pc = pc;
        if (dbg_pc_where(d->c->s, pc, &w) == 0 && w.file && w.line > 0) {
            r->file = w.file;
            r->line = w.line;
        }
        r->main = r->file && main_file && !strcmp(r->file, main_file);
        if (!main_file && r->file)
            main_file = r->file, r->main = 1;
    }
    qsort(rows, hi - lo, sizeof *rows, dis_row_cmp);
    for (uint32_t i = 0; i < hi - lo; i++) {
        const dis_row *r = &rows[i];
        if (r->file && (i == 0 || r->line != rows[i - 1].line ||
                        strcmp(r->file, rows[i - 1].file ? rows[i - 1].file : ""))) {
            if (i)
                cmd_ui_text(d->c, "\n");
            if (!r->main)
                cmd_ui_textf(d->c, "%s:\n", base_name(r->file));
            dis_source_lines(d, r->file, r->line, r->line);
        } else if (!r->file && i && rows[i - 1].file) {
            cmd_ui_text(d->c, "\n");
        }
        dis_insn(d, r->pc);
    }
    cmd_ui_text(d->c, "\n");
    free(rows);
    return 0;
}

/* A pc from an argument: a number, or an expression evaluated in the focused lane ($pc). */
static int dis_pc(cmd_ctx *c, const char *text, uint64_t *pc)
{
    dbg_value v;
    char err[512];
    if (dbg_eval_focus(c->s, text, &v, err, sizeof err) != 0)
        return cmd_error(c, "%s", err);
    if (v.kind != DBG_V_INT && v.kind != DBG_V_PTR && v.kind != DBG_V_CODE)
        return cmd_error(c, "Invalid address \"%s\".", text);
    *pc = v.u;
    return 0;
}

int cmd_disassemble(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    dbg_session *m = c->s;
    dis_ctx d;
    memset(&d, 0, sizeof d);
    d.c = c;
    d.cur = UINT32_MAX;
    dbg_focus_pc(c->s, &d.cur);
    /* modifiers: "/rs", "/r /s", as gdb parses them */
    const char *p = args;
    while (isspace((unsigned char)*p))
        p++;
    while (*p == '/') {
        for (p++; *p && !isspace((unsigned char)*p); p++) {
            if (*p == 'r')
                d.mods |= DIS_RAW;
            else if (*p == 's')
                d.mods |= DIS_SRC;
            else if (*p == 'm')
                d.mods |= DIS_MIXED;
            else
                return cmd_error(c, "Invalid disassembly modifier.");
        }
        while (isspace((unsigned char)*p))
            p++;
    }
    if ((d.mods & DIS_SRC) && (d.mods & DIS_MIXED))
        return cmd_error(c, "Cannot specify both /m and /s.");
    char arg[512];
    snprintf(arg, sizeof arg, "%s", p);
    for (size_t l = strlen(arg); l && isspace((unsigned char)arg[l - 1]);)
        arg[--l] = 0;
    uint32_t lo, hi;
    const ptx_func *fn = NULL;
    char *comma = strchr(arg, ',');
    if (comma) { /* START,END or START,+LENGTH */
        *comma = 0;
        char *rhs = comma + 1;
        while (isspace((unsigned char)*rhs))
            rhs++;
        uint64_t a, b;
        if (dis_pc(c, arg, &a) != 0 || dis_pc(c, rhs[0] == '+' ? rhs + 1 : rhs, &b) != 0)
            return -1;
        if (rhs[0] == '+')
            b += a;
        if (a >= UINT32_MAX || dbg_insn_at(m, (uint32_t)a, NULL) != 0)
            return cmd_error(c, "No function contains specified address.");
        lo = (uint32_t)a;
        hi = b > UINT32_MAX ? UINT32_MAX : (uint32_t)b;
        /* only instructions: stop at the first pc that is none */
        uint32_t e = lo;
        while (e < hi && dbg_insn_at(m, e, NULL) == 0)
            e++;
        hi = e;
        cmd_ui_textf(c, "Dump of assembler code from 0x%x to 0x%x:\n", lo, (uint32_t)b);
        cmd_ui_uint(c, "from", lo);
        cmd_ui_uint(c, "to", (uint32_t)b);
    } else {
        if (arg[0]) {
            fn = dbg_find_func(c->s, arg);
            if (!fn) {
                /* not a function name: an address in the function to show */
                char ferr[512];
                snprintf(ferr, sizeof ferr, "%s", dbg_errmsg(c->s));
                uint64_t a;
                if (!(isdigit((unsigned char)arg[0]) || arg[0] == '$' || arg[0] == '*' ||
                      arg[0] == '('))
                    return cmd_error(c, "%s", ferr);
                if (dis_pc(c, arg[0] == '*' ? arg + 1 : arg, &a) != 0)
                    return -1;
                if (a >= UINT32_MAX || dbg_pc_func(m, (uint32_t)a, &fn) != 0)
                    return cmd_error(c, "No function contains specified address.");
            }
        } else {
            if (d.cur == UINT32_MAX || dbg_pc_func(m, d.cur, &fn) != 0)
                return cmd_error(c, "No frame selected.");
        }
        d.base = dbg_func_first_pc(m, fn);
        if (d.base < 0)
            return cmd_error(c, "Function has no body.");
        d.fn = fn;
        lo = (uint32_t)d.base;
        dbg_func_info fi;
        dbg_func_info_of(fn, &fi);
        hi = lo + (uint32_t)fi.ninsns;
        char name[1024];
        dbg_func_name(c->s, fn, 1, name, sizeof name);
        cmd_ui_text(c, "Dump of assembler code for function ");
        cmd_ui_field_str(c, "function", name);
        cmd_ui_text(c, ":\n");
    }
    cmd_ui_open(c, "instructions", 1);
    int rc = 0;
    if (d.mods & DIS_SRC) {
        rc = dis_run_s(&d, lo, hi);
    } else if (d.mods & DIS_MIXED) {
        rc = dis_run_m(&d, lo, hi);
    } else {
        for (uint32_t pc = lo; pc < hi; pc++)
            dis_insn(&d, pc);
    }
    cmd_ui_close(c);
    if (rc != 0)
        return -1;
    cmd_ui_text(c, "End of assembler dump.\n");
    return 0;
}
