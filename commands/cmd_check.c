/* cmd_check.c - the checkers at the prompt: finding stops and reports, set/show check, info checks. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "chk.h"
#include "cmd_ui.h"

/* Findings are printed by the checkers' own formatter (chk_format); interactively on stdout
 * with the stop, in -batch mode on stderr (the batch's report), every one making the batch's
 * exit status non-zero. */
static FILE *check_stream(const cmd_ctx *c) { return c->batch ? stderr : stdout; }

static void check_print(cmd_ctx *c, const chk_finding *f)
{
    char buf[4096];
    int n = chk_format(f, "", buf, sizeof buf);
    const char *more = n >= (int)sizeof buf ? "...\n" : "";
    if (c->batch) {     /* through the model: stderr, or in JSON mode the command's messages */
        cmd_ui_message(c, "\n%s: %s%s", chk_name(f->checker), buf, more);
        fflush(stderr);
    } else {
        cmd_ui_textf(c, "\n%s: %s%s", chk_name(f->checker), buf, more);
        fflush(stdout);
    }
}

/* A finding that does not stop the kernel (set check stop off). */
static void check_reported(void *ctx, const chk_finding *f)
{
    cmd_ctx *c = ctx;
    if (c->batch && f->severity == CHK_SEV_ERROR)   /* warnings do not fail a run */
        c->kernel_failed = 1;
    cmd_ui_finding(c, f);
    check_print(c, f);
}

void cmd_check_init(cmd_ctx *c)
{
    dbg_set_check_reporter(c->s, check_reported, c);
}

void cmd_check_report_stop(cmd_ctx *c, const dbg_event *ev)
{
    const chk_finding *f = ev->finding;
    if (c->batch && f->severity == CHK_SEV_ERROR)
        c->kernel_failed = 1;
    check_print(c, f);
    if (ev->stop.kind == EXEC_STOP_EXCEPTION) {
        /* the fault the finding explains: the launch is over, as for any fault */
        int num = 4;
        const char *name = dbg_exc_name(ev->stop.exc, &num);
        cmd_ui_textf(c, "\nProgram received signal CUDA_EXCEPTION_%d, %s.\n", num, name);
        cmd_announce_focus(c, 1);
        cmd_print_frame_line(c, -1, 1);
        c->kernel_failed = 1;
        cmd_core_auto_save(c);
        return;
    }
    cmd_ui_text(c, "\n");
    cmd_announce_focus(c, 1);
    cmd_print_frame_line(c, -1, 1);
}

/* ---- settings (cmd_settings.c rows call these) ------------------------------------------------ */
int cmd_check_set(cmd_ctx *c, const char *name, const char *value)
{
    char err[256];
    int on;
    if (!strcmp(value, "on") || !strcmp(value, "1") || !strcmp(value, "yes") ||
        !strcmp(value, "enable"))
        on = 1;
    else if (!strcmp(value, "off") || !strcmp(value, "0") || !strcmp(value, "no") ||
             !strcmp(value, "disable"))
        on = 0;
    else
        return cmd_error(c, "\"on\" or \"off\" expected.");
    if (!strcmp(name, "stop")) {
        chk_set_stop(dbg_checks(c->s), on);
        return 0;
    }
    if (!strcmp(name, "leaks")) {
        if (on && !c->prog)
            return cmd_error(c, "The leak check is of a CUDA program's allocations at its exit "
                                "(ptxdbg ./app); a PTX session has none.");
        c->opt.check_leaks = on;
        return 0;
    }
    if (chk_set(dbg_checks(c->s), name, on, err, sizeof err) != 0)
        return cmd_error(c, "%s.", err);
    return 0;
}

void cmd_check_get(cmd_ctx *c, const char *name, char *out, size_t n)
{
    chk_ctx *k = dbg_checks(c->s);
    if (!strcmp(name, "stop"))
        snprintf(out, n, "%s", chk_stops(k) ? "on" : "off");
    else if (!strcmp(name, "leaks"))
        snprintf(out, n, "%s", c->opt.check_leaks ? "on" : "off");
    else if (!strcmp(name, "all"))
        snprintf(out, n, "%s", chk_enabled(k) ? "on" : "off");
    else {
        int id = chk_lookup(name);
        snprintf(out, n, "%s%s", id >= 0 && ((chk_enabled(k) >> id) & 1) ? "on" : "off",
                 id >= 0 && !chk_implemented(id) ? " (not implemented yet)" : "");
    }
}

/* ---- info checks ------------------------------------------------------------------------------ */
int cmd_info_checks(cmd_ctx *c, const char *args, int argc, char **argv)
{
    (void)args;
    (void)argc;
    (void)argv;
    chk_ctx *k = dbg_checks(c->s);
    /* JSON: "checkers": [{"name", "enabled", "implemented", "summary"}], "stop", "leak_check",
       "findings": [finding objects as --check-report writes them] */
    cmd_ui_table_begin(c, "checkers");
    cmd_ui_table_col(c, 10, CMD_UI_LEFT, "Checker");
    cmd_ui_table_col(c, 6, CMD_UI_LEFT, "State");
    cmd_ui_table_col(c, 0, CMD_UI_LEFT, "What it finds");
    for (int i = 0; i < CHK_N; i++) {
        cmd_ui_row_begin(c);
        cmd_ui_field_str(c, "name", chk_name(i));
        cmd_ui_field_bool(c, "enabled", (chk_enabled(k) >> i) & 1, "on", "off");
        cmd_ui_field_str(c, "summary", chk_summary(i));
        cmd_ui_bool(c, "implemented", chk_implemented(i));
        if (!chk_implemented(i))
            cmd_ui_text(c, " (not implemented yet)");
        cmd_ui_row_end(c);
    }
    cmd_ui_table_end(c);
    cmd_ui_bool(c, "stop", chk_stops(k));
    cmd_ui_bool(c, "leak_check", c->opt.check_leaks);
    cmd_ui_textf(c, "Findings %s the kernel (set check stop on|off); leak check at program exit is "
                    "%s.\n", chk_stops(k) ? "stop" : "do not stop",
                 c->opt.check_leaks ? "on" : "off");
    int n = chk_count(k);
    cmd_ui_open(c, "findings", 1);
    if (n)
        cmd_ui_text(c, "\n");
    cmd_ui_table_begin(c, NULL);   /* the rows' JSON: the finding objects */
    cmd_ui_table_col(c, 5, CMD_UI_RIGHT, "Num");
    cmd_ui_table_col(c, 10, CMD_UI_LEFT, "Checker");
    cmd_ui_table_col(c, 15, CMD_UI_LEFT, "Kind");
    cmd_ui_table_col(c, 5, CMD_UI_RIGHT, "Count");
    cmd_ui_table_col(c, 0, CMD_UI_LEFT, "");
    cmd_ui_table_col(c, 6, CMD_UI_RIGHT, "Kernel");
    cmd_ui_table_col(c, 0, CMD_UI_LEFT, "");
    cmd_ui_table_col(c, 0, CMD_UI_LEFT, "Where");
    for (int i = 0; i < n; i++) {
        const chk_finding *f = chk_at(k, i);
        char where[600] = "", head[256], num[32];
        chk_headline(f, head, sizeof head);
        if (f->nparties) {
            const chk_party *p = &f->party[0];
            snprintf(where, sizeof where, "%s:%d (pc 0x%x), block (%u,%u,%u) thread (%u,%u,%u)",
                     p->ufile[0] ? p->ufile : p->file[0] ? p->file : "?",
                     p->ufile[0] ? p->uline : p->line, p->pc, p->block.x, p->block.y,
                     p->block.z, p->thread.x, p->thread.y, p->thread.z);
        } else {
            snprintf(where, sizeof where, "%s", f->alloc_name);
        }
        cmd_ui_row_begin(c);
        snprintf(num, sizeof num, "%d", f->id);
        cmd_ui_cell(c, num);
        cmd_ui_cell(c, chk_name(f->checker));
        cmd_ui_cell(c, chk_kind_name(f->kind));
        snprintf(num, sizeof num, "%" PRIu64, f->count);
        cmd_ui_cell(c, num);
        cmd_ui_cell(c, "");
        snprintf(num, sizeof num, "%u", f->launch);
        cmd_ui_cell(c, num);
        cmd_ui_cell(c, "");
        cmd_ui_cell(c, where);
        cmd_ui_textf(c, "\n      %s", head);
        cmd_ui_finding_data(c, f);
        cmd_ui_row_end(c);
    }
    cmd_ui_table_end(c);
    cmd_ui_close(c);
    if (!n)
        cmd_ui_text(c, "No findings.\n");
    return 0;
}

/* ---- the end of a session --------------------------------------------------------------------- */
void cmd_check_finish(cmd_ctx *c)
{
    chk_ctx *k = dbg_checks(c->s);
    fflush(stdout);   /* the summaries come after everything the session printed */
    if (chk_count(k)) {
        chk_leak_summary(k, "", check_stream(c));
        if (c->batch)
            chk_summary_line(k, "", stderr);
    }
    if (c->opt.check_report[0]) {
        char err[CMD_PATH_MAX + 64];
        if (chk_write_report(k, c->opt.check_report, err, sizeof err) != 0)
            cmd_error(c, "%s", err);
    }
}
