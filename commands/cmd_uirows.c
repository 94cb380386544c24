/* cmd_uirows.c - structured results of the commands scripts use most (the output model's rows). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_ui.h"
#include "chk.h"

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

