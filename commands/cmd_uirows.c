/* cmd_uirows.c - structured results of the commands scripts use most (the output model's rows). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_ui.h"
#include "chk.h"

static const char *lane_state(exec_lane_state st)
{
    switch (st) {
    case EXEC_LANE_ACTIVE: return "active";
    case EXEC_LANE_DIVERGENT: return "divergent";
    case EXEC_LANE_BARRIER: return "barrier";
    case EXEC_LANE_EXITED: return "exited";
    case EXEC_LANE_TRAPPED: return "trapped";
    default: return "invalid";
    }
}

static void dim3(cmd_ctx *c, const char *name, exec_dim3 d)
{
    cmd_ui_open(c, name, 1);
    cmd_ui_uint(c, NULL, d.x);
    cmd_ui_uint(c, NULL, d.y);
    cmd_ui_uint(c, NULL, d.z);
    cmd_ui_close(c);
}

/* "function", "file", "line", "ptx_line" of pc. */
static void where(cmd_ctx *c, uint32_t pc)
{
    char fn[512];
    dbg_where w;
    if (dbg_pc_func_name(c->s, pc, 0, fn, sizeof fn) >= 0)
        cmd_ui_str(c, "function", fn);
    if (dbg_pc_where(c->s, pc, &w) == 0) {
        if (w.file && w.line > 0) {
            cmd_ui_str(c, "file", w.file);
            cmd_ui_int(c, "line", w.line);
        }
        cmd_ui_int(c, "ptx_line", w.ptx_line);
    }
}

/* Lanes of the focused warp (info cuda lanes) or, threads 1, every live lane of the warps in
 * flight (info cuda threads). */
void cmd_ui_lanes(cmd_ctx *c, int threads)
{
    if (!cmd_ui_json(c))
        return;
    const dbg_focus *f = dbg_get_focus(c->s);
    if (!f || !f->valid)
        return;
    enum { MAXW = 1024 };
    dbg_warp_row *w = malloc(MAXW * sizeof *w);
    if (!w)
        return;
    int more = 0, n = 1;
    if (threads)
        n = dbg_warp_rows(c->s, w, MAXW, &more);
    else {
        w[0].cta = f->cta;
        w[0].warp = f->warp;
        w[0].block = dbg_focus_block(c->s);
    }
    cmd_ui_open(c, threads ? "threads" : "lanes", 1);
    for (int i = 0; i < n; i++) {
        dbg_lane_row l[32];
        if (dbg_lane_rows(c->s, w[i].cta, w[i].warp, l) < 0)
            continue;
        for (int k = 0; k < 32; k++) {
            if (l[k].state == EXEC_LANE_INVALID || (threads && l[k].state == EXEC_LANE_EXITED))
                continue;
            cmd_ui_open(c, NULL, 0);
            dim3(c, "block", w[i].block);
            dim3(c, "thread", l[k].tid);
            cmd_ui_uint(c, "warp", w[i].warp);
            cmd_ui_uint(c, "lane", l[k].lane);
            cmd_ui_str(c, "state", lane_state(l[k].state));
            cmd_ui_uint(c, "pc", l[k].pc);
            where(c, l[k].pc);
            cmd_ui_bool(c, "focused", f->cta == w[i].cta && f->warp == w[i].warp &&
                                         f->lane == l[k].lane);
            cmd_ui_close(c);
        }
    }
    cmd_ui_close(c);
    if (threads)
        cmd_ui_bool(c, "truncated", more);
    free(w);
}

/* The finding as chk_write_json writes it (malloc'd), NULL when out of memory. */
static char *finding_json(const chk_finding *f, size_t *n)
{
    char *j = NULL;
    *n = 0;
    FILE *m = open_memstream(&j, n);
    if (!m)
        return NULL;
    chk_write_json(f, m);
    fclose(m);
    return j;
}

void cmd_ui_finding(cmd_ctx *c, const chk_finding *f)
{
    if (!cmd_ui_json(c))
        return;
    size_t n;
    char *j = finding_json(f, &n);
    static const char head[] = "{\"event\":\"finding\",\"finding\":";
    char *line = j ? malloc(sizeof head + n + 2) : NULL;
    if (line) {
        memcpy(line, head, sizeof head - 1);
        memcpy(line + sizeof head - 1, j, n);
        line[sizeof head - 1 + n] = '}';
        cmd_ui_event(c, line, sizeof head + n);
    }
    free(line);
    free(j);
}

void cmd_ui_checks(cmd_ctx *c)
{
    if (!cmd_ui_json(c))
        return;
    chk_ctx *k = dbg_checks(c->s);
    cmd_ui_open(c, "checkers", 1);
    for (int i = 0; i < CHK_N; i++) {
        cmd_ui_open(c, NULL, 0);
        cmd_ui_str(c, "name", chk_name(i));
        cmd_ui_bool(c, "enabled", (chk_enabled(k) >> i) & 1);
        cmd_ui_bool(c, "implemented", chk_implemented(i));
        cmd_ui_close(c);
    }
    cmd_ui_close(c);
    cmd_ui_bool(c, "stop", chk_stops(k));
    cmd_ui_bool(c, "leak_check", c->opt.check_leaks);
    cmd_ui_open(c, "findings", 1);
    for (int i = 0; i < chk_count(k); i++) {
        size_t n;
        char *j = finding_json(chk_at(k, i), &n);
        if (j)
            cmd_ui_raw(c, NULL, j, n);
        free(j);
    }
    cmd_ui_close(c);
}

void cmd_ui_registers(cmd_ctx *c, const dbg_reg_row *rows, int n)
{
    if (!cmd_ui_json(c))
        return;
    cmd_ui_open(c, "registers", 1);
    for (int i = 0; i < n; i++) {
        if (!rows[i].ok)
            continue;
        char hex[32], val[128];
        snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)rows[i].bits);
        dbg_format_bits(rows[i].bits, rows[i].type, 0, val, sizeof val);
        cmd_ui_open(c, NULL, 0);
        cmd_ui_str(c, "name", rows[i].name);
        cmd_ui_str(c, "type", dbg_type_name(rows[i].type));
        cmd_ui_str(c, "hex", hex);
        cmd_ui_str(c, "value", val);
        cmd_ui_close(c);
    }
    cmd_ui_close(c);
}

void cmd_ui_var(cmd_ctx *c, const char *name, const char *value)
{
    if (!cmd_ui_json(c))
        return;
    cmd_ui_open(c, NULL, 0);
    cmd_ui_str(c, "name", name);
    cmd_ui_str(c, "value", value);
    cmd_ui_close(c);
}
