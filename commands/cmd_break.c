/* cmd_break.c - breakpoint and watchpoint commands and `info breakpoints`. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "cmd_ui.h"
#include "cmd_prog.h"

static const char *base_name(const char *p)
{
    const char *s = p ? strrchr(p, '/') : NULL;
    return s ? s + 1 : p ? p : "";
}

/* "file k.cu, line 7" (or the .ptx line) for a pc. */
static void pc_file_line(cmd_ctx *c, uint32_t pc, char *out, size_t n)
{
    dbg_where w;
    if (dbg_pc_where(c->s, pc, &w) != 0)
        snprintf(out, n, "??");
    else if (w.file && w.line > 0)
        snprintf(out, n, "file %s, line %d", base_name(w.file), w.line);
    else
        snprintf(out, n, "file %s, line %d", base_name(dbg_module_name(c->s)), w.ptx_line);
}

int cmd_loc_addr(cmd_ctx *c, const char *spec, char *out, size_t n)
{
    while (isspace((unsigned char)*spec))
        spec++;
    char *end;
    if (*spec != '*' || (strtoull(spec + 1, &end, 0), end > spec + 1 && !*end)) {
        snprintf(out, n, "%s", spec);
        return 0;
    }
    dbg_value v;
    char err[512];
    if (dbg_eval_focus(c->s, spec + 1, &v, err, sizeof err) != 0)
        return cmd_error(c, "%s", err);
    if (v.kind != DBG_V_INT && v.kind != DBG_V_PTR && v.kind != DBG_V_CODE)
        return cmd_error(c, "Invalid instruction address \"%s\".", spec + 1);
    snprintf(out, n, "*%llu", (unsigned long long)dbg_value_to_bits(&v, PTX_T_U64));
    return 0;
}

static int set_break(cmd_ctx *c, const char *args, int temp)
{
    while (isspace((unsigned char)*args))
        args++;
    char loc[512];
    const char *cond = NULL;
    /* LOCATION [if COND] */
    const char *p = args;
    const char *ifp = NULL;
    if (!strncmp(p, "if", 2) && (isspace((unsigned char)p[2]) || !p[2]))
        ifp = p;
    for (const char *q = p; *q && !ifp; q++)
        if (isspace((unsigned char)*q) && !strncmp(q + 1, "if", 2) &&
            (isspace((unsigned char)q[3]) || !q[3]))
            ifp = q + 1;
    size_t len = ifp ? (size_t)(ifp - p) : strlen(p);
    while (len && isspace((unsigned char)p[len - 1]))
        len--;
    if (len >= sizeof loc)
        return cmd_error(c, "Location too long.");
    snprintf(loc, sizeof loc, "%.*s", (int)len, p);
    char given[512];
    snprintf(given, sizeof given, "%s", loc);
    if (cmd_loc_addr(c, given, loc, sizeof loc) != 0)
        return -1;
    if (ifp) {
        cond = ifp + 2;
        while (isspace((unsigned char)*cond))
            cond++;
        if (!*cond)
            return cmd_error(c, "Argument required (boolean expression).");
    }
    if (!loc[0]) {
        uint32_t pc;
        if (dbg_focus_pc(c->s, &pc) != 0)
            return cmd_error(c, "No default breakpoint location now selected.");
        snprintf(loc, sizeof loc, "*%u", pc);
    }
    if (cond && dbg_has_module(c->s)) {
        uint32_t pcs[DBG_MAX_LOCS];
        char err[512];
        int np = dbg_resolve_location(c->s, loc, pcs, DBG_MAX_LOCS);
        if (np > 0 && dbg_cond_check(c->s, cond, pcs, np, err, sizeof err) != 0)
            return cmd_error(c, "%s", err);
    }
    /* a CUDA program's host code never stops: say so now, not a pending breakpoint forever */
    char why[1024];
    int hc = dbg_host_code(c->s, cmd_prog_path(c), loc, why, sizeof why);
    if (hc == 1)
        return cmd_error(c, "%s", why);
    if (hc == 2)
        printf("%s\n", why);   /* why it will stay pending; it may still resolve */
    int num = dbg_break_add(c->s, loc, cond, temp);
    if (num < 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    dbg_bp *b = dbg_bp_find(c->s, num);
    dbg_history_set_int(dbg_session_history(c->s), "bpnum", num);   /* gdb's $bpnum: the last one set */
    const char *kind = temp ? "Temporary breakpoint" : "Breakpoint";
    if (b->pending || b->npcs == 0) {
        printf("%s %d (%s) pending.\n", kind, num, loc);
    } else {
        char fl[600];
        pc_file_line(c, b->pcs[0], fl, sizeof fl);
        if (b->npcs > 1)
            printf("%s %d at 0x%x: %s. (%d locations)\n", kind, num, b->pcs[0], fl, b->npcs);
        else
            printf("%s %d at 0x%x: %s.\n", kind, num, b->pcs[0], fl);
    }
    return 0;
}

int cmd_break(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return set_break(c, args, 0);
}

int cmd_tbreak(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return set_break(c, args, 1);
}

static int bp_num(cmd_ctx *c, const char *s, int *num)
{
    long v;
    if (cmd_parse_long(s, 1, INT_MAX, &v) != 0)
        return cmd_error(c, "Bad breakpoint argument: '%s'", s);
    *num = (int)v;
    return 0;
}

int cmd_condition(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    int num = 0;
    if (bp_num(c, argv[0], &num) != 0)
        return -1;
    while (isspace((unsigned char)*args))
        args++;
    const char *cond = args + strlen(argv[0]);
    while (isspace((unsigned char)*cond))
        cond++;
    const dbg_bp *b = dbg_bp_find(c->s, num);
    char err[512];
    if (*cond && b && b->type == DBG_BP_BREAK && !b->pending &&
        dbg_cond_check(c->s, cond, b->pcs, b->npcs, err, sizeof err) != 0)
        return cmd_error(c, "%s", err);
    if (dbg_bp_condition(c->s, num, *cond ? cond : NULL) != 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    if (!*cond)
        printf("Breakpoint %d now unconditional.\n", num);
    return 0;
}

int cmd_ignore(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    int num = 0;
    if (bp_num(c, argv[0], &num) != 0)
        return -1;
    long n;
    if (cmd_parse_long(argv[1], 0, INT_MAX, &n) != 0)
        return cmd_error(c, "Invalid count \"%s\".", argv[1]);
    if (dbg_bp_ignore(c->s, num, (int)n) != 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    if (n == 0)
        printf("Will stop next time breakpoint %d is reached.\n", num);
    else if (n == 1)
        printf("Will ignore next crossing of breakpoint %d.\n", num);
    else
        printf("Will ignore next %ld crossings of breakpoint %d.\n", n, num);
    return 0;
}

/* delete/disable/enable [N...] (N may be a range A-B) */
static int each_bp(cmd_ctx *c, int argc, char **argv, int (*fn)(dbg_session *, int, int), int arg)
{
    int rc = 0;
    if (argc > 0 && !strcmp(argv[0], "breakpoints")) { /* "delete breakpoints 1" */
        argc--;
        argv++;
    }
    if (argc == 0)
        return fn(c->s, 0, arg) == 0 ? 0 : cmd_error(c, "%s", dbg_errmsg(c->s));
    for (int i = 0; i < argc; i++) {
        char *dash = strchr(argv[i], '-');
        int a = 0, b = 0;
        if (dash && dash != argv[i]) {
            *dash = 0;
            if (bp_num(c, argv[i], &a) != 0 || bp_num(c, dash + 1, &b) != 0)
                return -1;
        } else {
            if (bp_num(c, argv[i], &a) != 0)
                return -1;
            b = a;
        }
        if (a > b)
            return cmd_error(c, "Inverted breakpoint range at '%d-%d'.", a, b);
        if (a == b) {
            if (fn(c->s, a, arg) != 0)
                rc = cmd_error(c, "%s", dbg_errmsg(c->s));
            continue;
        }
        /* a range visits the breakpoints that exist in it (never counts up to its end, which may
         * be INT_MAX); the numbers are taken first since deleting changes the list */
        int n = dbg_bp_count(c->s), m = 0;
        int *nums = malloc(sizeof *nums * (size_t)(n ? n : 1));
        if (!nums)
            return cmd_error(c, "Out of memory.");
        for (int k = 0; k < n; k++) {
            int num = dbg_bp_at(c->s, k)->num;
            if (num >= a && num <= b)
                nums[m++] = num;
        }
        for (int k = 0; k < m; k++)
            if (fn(c->s, nums[k], arg) != 0 && dbg_bp_find(c->s, nums[k]))
                rc = cmd_error(c, "%s", dbg_errmsg(c->s));
        free(nums);
    }
    return rc;
}

static int display_enable(cmd_ctx *c, int argc, char **argv, int on);

static int del_fn(dbg_session *s, int num, int arg)
{
    (void)arg;
    return dbg_bp_delete(s, num);
}

int cmd_delete(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (argc > 0 && !strcmp(argv[0], "display"))
        return cmd_undisplay(c, "", argc - 1, argv + 1);
    return each_bp(c, argc, argv, del_fn, 0);
}

int cmd_disable(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (argc > 0 && !strcmp(argv[0], "display"))
        return display_enable(c, argc - 1, argv + 1, 0);
    return each_bp(c, argc, argv, dbg_bp_enable, 0);
}

static int enable_count;  /* the COUNT of `enable count COUNT N...` while each_bp runs */

static int enable_disp(dbg_session *s, int num, int how)
{
    return dbg_bp_enable_disp(s, num, how, enable_count);
}

/* enable [breakpoints] [once|delete|count COUNT] [N...] (gdb) */
int cmd_enable(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    if (argc > 0 && !strcmp(argv[0], "display"))
        return display_enable(c, argc - 1, argv + 1, 1);
    if (argc > 0 && !strcmp(argv[0], "breakpoints")) {
        argc--;
        argv++;
    }
    const char *w = argc > 0 ? argv[0] : "";
    if (!strcmp(w, "once") || !strcmp(w, "delete")) {
        enable_count = 1;
        return each_bp(c, argc - 1, argv + 1, enable_disp, !strcmp(w, "once") ? 1 : 2);
    }
    if (!strcmp(w, "count")) {
        long n;
        if (argc < 2)
            return cmd_error(c, "Argument required (hit count).");
        if (cmd_parse_long(argv[1], 1, INT_MAX, &n) != 0)
            return cmd_error(c, "Bad count \"%s\" (a number from 1).", argv[1]);
        enable_count = (int)n;
        return each_bp(c, argc - 2, argv + 2, enable_disp, 3);
    }
    enable_count = 0;
    return each_bp(c, argc, argv, enable_disp, 0);
}

/* clear [LOCATION]: delete the breakpoints at LOCATION (its pcs, or, while pending, the same
 * location text), else at the selected frame's line; gdb's "Deleted breakpoint(s) N ...". */
int cmd_clear(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    while (isspace((unsigned char)*args))
        args++;
    char loc[512];
    size_t l = strlen(args);
    while (l && isspace((unsigned char)args[l - 1]))
        l--;
    if (l >= sizeof loc)
        return cmd_error(c, "Location too long.");
    snprintf(loc, sizeof loc, "%.*s", (int)l, args);
    char given[512];
    snprintf(given, sizeof given, "%s", loc);
    if (cmd_loc_addr(c, given, loc, sizeof loc) != 0)
        return -1;
    uint32_t pcs[DBG_MAX_LOCS];
    int np = 0;
    if (!loc[0]) {
        dbg_frame f;
        if (dbg_focus_frame(c->s, &f) != 0)
            return cmd_error(c, "No source file specified.");
        if (f.file && f.line > 0)
            snprintf(loc, sizeof loc, "%s:%d", f.file, f.line);
        else
            snprintf(loc, sizeof loc, "*%u", f.pc);
    }
    if (dbg_has_module(c->s) && dbg_has_machine(c->s)) {
        np = dbg_resolve_location(c->s, loc, pcs, DBG_MAX_LOCS);
        if (np < 0 && !c->prog)
            return cmd_error(c, "%s", dbg_errmsg(c->s));
        if (np < 0)
            np = 0;
    }
    int n = dbg_bp_count(c->s), m = 0;
    int *nums = malloc(sizeof *nums * (size_t)(n ? n : 1));
    if (!nums)
        return cmd_error(c, "Out of memory.");
    for (int i = 0; i < n; i++) {
        dbg_bp *b = dbg_bp_at(c->s, i);
        if (b->type != DBG_BP_BREAK)
            continue;
        int at = !strcmp(b->spec, loc);
        for (int k = 0; k < b->npcs && !at; k++)
            for (int j = 0; j < np && !at; j++)
                at = b->pcs[k] == pcs[j];
        if (at)
            nums[m++] = b->num;
    }
    if (!m) {
        free(nums);
        return cmd_error(c, "No breakpoint at %s.", args[0] ? loc : "this line");
    }
    char logline[4096] = "delete";
    size_t k = strlen(logline);
    printf("Deleted breakpoint%s ", m > 1 ? "s" : "");
    for (int i = 0; i < m; i++) {
        dbg_bp_delete(c->s, nums[i]);
        printf("%d%s", nums[i], i + 1 < m ? " " : "\n");
        k += (size_t)snprintf(logline + k, k < sizeof logline ? sizeof logline - k : 0, " %d",
                              nums[i]);
    }
    /* a program's session replays what clear did, whatever the location resolves to there */
    if (k < sizeof logline)
        cmd_prog_note(c, logline);
    free(nums);
    return 0;
}

/* commands [N | A-B]...: one list for every breakpoint named (the last one without N) */
int cmd_commands(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    int nb = dbg_bp_count(c->s), m = 0;
    int *nums = malloc(sizeof *nums * (size_t)(nb ? nb : 1));
    if (!nums)
        return cmd_error(c, "Out of memory.");
    if (argc == 0 && nb > 0) {
        int last = 0;
        for (int i = 0; i < nb; i++)
            if (dbg_bp_at(c->s, i)->num > last)
                last = dbg_bp_at(c->s, i)->num;
        nums[m++] = last;
    }
    for (int i = 0; i < argc; i++) {
        char *dash = strchr(argv[i], '-');
        int a = 0, b = 0;
        if (dash && dash != argv[i]) {
            *dash = 0;
            if (bp_num(c, argv[i], &a) != 0 || bp_num(c, dash + 1, &b) != 0) {
                free(nums);
                return -1;
            }
        } else if (bp_num(c, argv[i], &a) != 0) {
            free(nums);
            return -1;
        } else {
            b = a;
        }
        int any = 0;
        for (int k = 0; k < nb; k++) {
            int num = dbg_bp_at(c->s, k)->num, seen = 0;
            for (int j = 0; j < m; j++)
                seen |= nums[j] == num;
            if (num >= a && num <= b && !seen && m < nb)
                nums[m++] = num;
            any |= num >= a && num <= b;
        }
        if (!any) {
            free(nums);
            return cmd_error(c, "No breakpoint number %d.", a);
        }
    }
    if (!m) {
        free(nums);
        return cmd_error(c, "No breakpoints specified.");
    }
    if (!c->in) {
        free(nums);
        return cmd_error(c, "\"commands\" needs its lines from a script or the terminal.");
    }
    if (c->interactive) {
        printf("Type commands for breakpoint(s) ");
        for (int i = 0; i < m; i++)
            printf("%s%d", i ? " " : "", nums[i]);
        printf(", one per line.\nEnd with a line saying just \"end\".\n");
    }
    char **lines = NULL;
    int n = 0;
    /* the body up to its end; if/while blocks inside need their own end (gdb) */
    if (cmd_read_block(c, &lines, &n, NULL) != 0) {
        free(nums);
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < m && rc == 0; i++) {
        char **copy = i + 1 < m ? calloc((size_t)(n ? n : 1), sizeof *copy) : lines;
        for (int k = 0; copy && copy != lines && k < n; k++)
            copy[k] = strdup(lines[k]);
        if (!copy)
            rc = cmd_error(c, "Out of memory.");
        else if (dbg_bp_set_commands(c->s, nums[i], copy, n) != 0)
            rc = cmd_error(c, "%s", dbg_errmsg(c->s));
    }
    if (rc != 0 && m > 0) { /* the list was not handed over */
        for (int k = 0; k < n; k++)
            free(lines[k]);
        free(lines);
    }
    free(nums);
    return rc;
}

/* enable/disable display [N...] (gdb): a display that is disabled is not shown at stops */
static int display_enable(cmd_ctx *c, int argc, char **argv, int on)
{
    for (int i = 0; i < c->ndisp && argc == 0; i++)
        c->disp[i].enabled = on;
    for (int k = 0; k < argc; k++) {
        long num;
        if (cmd_parse_long(argv[k], 1, INT_MAX, &num) != 0)
            return cmd_error(c, "Arguments must be display numbers.");
        int found = 0;
        for (int i = 0; i < c->ndisp; i++)
            if (c->disp[i].num == num) {
                c->disp[i].enabled = on;
                found = 1;
            }
        if (!found)
            return cmd_error(c, "No display number %ld.", num);
    }
    return 0;
}

static int set_watch(cmd_ctx *c, const char *args, dbg_bp_type type)
{
    while (isspace((unsigned char)*args))
        args++;
    dbg_value v;
    char err[512];
    if (dbg_eval_focus(c->s, args, &v, err, sizeof err) != 0)
        return cmd_error(c, "%s", err);
    if (v.lv != DBG_LV_MEM)
        return cmd_error(c, "Cannot watch constant value `%s'.", args);
    int size = dbg_value_size(&v);
    ptx_type shown = v.kind == DBG_V_PTR ? PTX_T_U64 : v.type;
    ptx_space space = v.mspace;
    uint64_t addr = v.maddr;
    if (space == PTX_SPACE_GENERIC) /* p[i] through a kernel's pointer: the space it points in */
        space = dbg_generic_decode(v.maddr, &addr);
    int num = dbg_watch_add(c->s, type, args, space, addr, (uint32_t)size, shown);
    if (num < 0)
        return cmd_error(c, "%s", dbg_errmsg(c->s));
    const char *kind = type == DBG_BP_WATCH    ? "Hardware watchpoint"
                       : type == DBG_BP_RWATCH ? "Hardware read watchpoint"
                                               : "Hardware access (read/write) watchpoint";
    printf("%s %d: %s\n", kind, num, args);
    return 0;
}

int cmd_watch(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return set_watch(c, args, DBG_BP_WATCH);
}

int cmd_rwatch(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return set_watch(c, args, DBG_BP_RWATCH);
}

int cmd_awatch(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return set_watch(c, args, DBG_BP_AWATCH);
}

/* "in FUNC at FILE:LINE" of a breakpoint location (the inlined function where it is one). */
static void loc_what(cmd_ctx *c, uint32_t pc, char *what, size_t n)
{
    dbg_where w;
    char fn[512] = "??";
    dbg_pc_where(c->s, pc, &w);
    if (w.func)
        dbg_pc_func_name(c->s, pc, 1, fn, sizeof fn);
    if (w.file && w.line > 0)
        snprintf(what, n, "in %s at %s:%d", fn, base_name(w.file), w.line);
    else
        snprintf(what, n, "in %s at %s:%d", fn, base_name(dbg_module_name(c->s)), w.ptx_line);
}

int cmd_info_breakpoints(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    long *nums = argc ? malloc((size_t)argc * sizeof *nums) : NULL;
    if (argc && !nums)
        return cmd_error(c, "Out of memory.");
    for (int k = 0; k < argc; k++)
        if (cmd_parse_long(argv[k], 1, INT_MAX, &nums[k]) != 0) {
            free(nums);
            return cmd_error(c, "Bad breakpoint argument: '%s'", argv[k]);
        }
    static const char *const kinds[] = {"breakpoint", "watchpoint", "read-watchpoint",
                                        "acc-watchpoint"};
    cmd_ui_table_begin(c, "breakpoints");
    cmd_ui_table_col(c, 7, CMD_UI_LEFT, "Num");
    cmd_ui_table_col(c, 14, CMD_UI_LEFT, "Type");
    cmd_ui_table_col(c, 4, CMD_UI_LEFT, "Disp");
    cmd_ui_table_col(c, 3, CMD_UI_LEFT, "Enb");
    cmd_ui_table_col(c, 18, CMD_UI_LEFT, "Address");
    cmd_ui_table_col(c, 0, CMD_UI_LEFT, "What");
    int n = dbg_bp_count(c->s);
    for (int i = 0; i < n; i++) {
        dbg_bp *b = dbg_bp_at(c->s, i);
        int want = argc == 0;
        for (int k = 0; k < argc; k++)
            want |= nums[k] == b->num;
        if (!want)
            continue;
        const char *type = b->type == DBG_BP_BREAK    ? "breakpoint"
                           : b->type == DBG_BP_WATCH  ? "hw watchpoint"
                           : b->type == DBG_BP_RWATCH ? "read watchpoint"
                                                      : "acc watchpoint";
        char addr[32] = "", what[1200];
        int located = b->type == DBG_BP_BREAK && !b->pending && b->npcs;
        if (b->type == DBG_BP_BREAK) {
            if (!located) {
                snprintf(addr, sizeof addr, "<PENDING>");
                snprintf(what, sizeof what, "%s", b->spec);
            } else if (b->npcs > 1) {
                snprintf(addr, sizeof addr, "<MULTIPLE>");   /* gdb: one row per location */
                what[0] = 0;
            } else {
                snprintf(addr, sizeof addr, "0x%016x", b->pcs[0]);
                loc_what(c, b->pcs[0], what, sizeof what);
            }
        } else {
            snprintf(what, sizeof what, "%s", b->spec);
        }
        cmd_ui_row_begin(c);
        cmd_ui_field_int(c, "number", b->num);
        cmd_ui_cell(c, type);
        cmd_ui_str(c, "type", kinds[b->type]);
        cmd_ui_field_str(c, "disposition", b->temp ? "del" : b->disp_dis ? "dis" : "keep");
        cmd_ui_field_bool(c, "enabled", b->enabled, "y", "n");
        cmd_ui_cell(c, addr);
        cmd_ui_cell(c, what);
        cmd_ui_str(c, "location", b->spec);
        cmd_ui_bool(c, "pending", b->type == DBG_BP_BREAK && !located);
        if (located) {
            cmd_ui_open(c, "pcs", 1);
            for (int k = 0; k < b->npcs; k++)
                cmd_ui_uint(c, NULL, b->pcs[k]);
            cmd_ui_close(c);
            cmd_where_data(c, b->pcs[0]);
        }
        /* the lines under the row: each starts with its newline, the row's end ends the last */
        if (b->cond) {
            cmd_ui_text(c, "\n\tstop only if ");
            cmd_ui_field_str(c, "condition", b->cond);
        }
        if (b->hits)
            cmd_ui_textf(c, "\n\tbreakpoint already hit %d time%s", b->hits,
                         b->hits == 1 ? "" : "s");
        cmd_ui_int(c, "hits", b->hits);
        if (b->ignore)
            cmd_ui_textf(c, "\n\tWill ignore next %d crossings of breakpoint.", b->ignore);
        cmd_ui_int(c, "ignore", b->ignore);
        cmd_ui_open(c, "commands", 1);
        for (int k = 0; k < b->ncommands; k++) {
            cmd_ui_text(c, "\n        ");
            cmd_ui_field_str(c, NULL, b->commands[k]);
        }
        cmd_ui_close(c);
        /* gdb's rows of a breakpoint with several locations (after its own lines) */
        if (located && b->npcs > 1)
            for (int k = 0; k < b->npcs; k++) {
                char num[32];
                loc_what(c, b->pcs[k], what, sizeof what);
                snprintf(num, sizeof num, "%d.%d", b->num, k + 1);
                cmd_ui_textf(c, "\n%-27s %-3s 0x%016x %s", num, b->enabled ? "y" : "n",
                             b->pcs[k], what);
            }
        cmd_ui_row_end(c);
    }
    if (!cmd_ui_table_end(c)) {
        if (argc)
            cmd_ui_textf(c, "No breakpoint or watchpoint matching '%s'.\n", argv[0]);
        else
            cmd_ui_text(c, "No breakpoints or watchpoints.\n");
    }
    free(nums);
    return 0;
}
