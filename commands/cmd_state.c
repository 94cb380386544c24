/* cmd_state.c - the session state a program's run hands to its session and back: breakpoint counters, value history, convenience variables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "cmd_prog.h"

/* ---------------------------------------------------------------------------------------------
 * Lines of the session folder's config (parent -> program) and result (program -> parent):
 *   bp NUM HITS IGNORE ENABLED DISP_DIS DISABLE_AFTER   a breakpoint's counters and
 *                                              disposition (hit, ignore and enable counts go on
 *                                              from run to run, as in gdb)
 *   nextbp N                                   the next breakpoint number (watchpoints made at
 *                                              a stop end with the run, their numbers stay used)
 *   hist KIND TYPE SPACE U F D0 D1 D2 COUNT    value history $1, $2, ... in order (numbers in
 *                                              hex; F a double's bits)
 *   conv NAME KIND TYPE SPACE U F D0 D1 D2 COUNT   a convenience variable
 * History values keep their numbers and scalar values across runs, as in gdb; their DWARF
 * types stay with the process that made them, and a structure or array value (it lives in the
 * program's memory) comes back as void.
 * ------------------------------------------------------------------------------------------- */

static void put_value(FILE *f, const dbg_value *v)
{
    dbg_value w = *v;
    if (w.kind == DBG_V_AGG)
        memset(&w, 0, sizeof w); /* void */
    uint64_t fb;
    memcpy(&fb, &w.f, sizeof fb);
    fprintf(f, "%d %d %d %llx %llx %x %x %x %llx\n", (int)w.kind, (int)w.type, (int)w.space,
            (unsigned long long)w.u, (unsigned long long)fb, w.d3[0], w.d3[1], w.d3[2],
            (unsigned long long)w.count);
}

static int get_value(const char *p, dbg_value *v)
{
    int kind, type, space;
    unsigned long long u, fb, count;
    unsigned d0, d1, d2;
    if (sscanf(p, "%d %d %d %llx %llx %x %x %x %llx", &kind, &type, &space, &u, &fb, &d0, &d1,
               &d2, &count) != 9 || kind < DBG_V_VOID || kind > DBG_V_CODE)
        return -1;
    memset(v, 0, sizeof *v);
    v->kind = (dbg_vkind)kind;
    v->type = (ptx_type)type;
    v->space = (ptx_space)space;
    v->u = u;
    memcpy(&v->f, &fb, sizeof v->f);
    v->d3[0] = d0;
    v->d3[1] = d1;
    v->d3[2] = d2;
    v->count = count;
    return 0;
}

int cmd_state_write(cmd_ctx *c, FILE *f)
{
    fprintf(f, "nextbp %d\n", dbg_bp_next_number(c->s));
    for (int i = 0; i < dbg_bp_count(c->s); i++) {
        const dbg_bp *b = dbg_bp_at(c->s, i);
        fprintf(f, "bp %d %d %d %d %d %d\n", b->num, b->hits, b->ignore, b->enabled,
                b->disp_dis, b->disable_after);
    }
    for (int i = 0; i < dbg_session_history(c->s)->nhist; i++) {
        fputs("hist ", f);
        put_value(f, &dbg_session_history(c->s)->hist[i]);
    }
    for (int i = 0; i < dbg_session_history(c->s)->nconv; i++) {
        fprintf(f, "conv %s ", dbg_session_history(c->s)->conv[i].name);
        put_value(f, &dbg_session_history(c->s)->conv[i].v);
    }
    return ferror(f) ? -1 : 0;
}

void cmd_state_read(cmd_ctx *c, const char *text, int values)
{
    int replaced = 0;
    for (const char *q = text; q && *q; q = strchr(q, '\n') ? strchr(q, '\n') + 1 : NULL) {
        int num, hits, ign, en, dd, dis;
        dbg_value v;
        if (sscanf(q, "nextbp %d", &num) == 1) {
            dbg_bp_set_next_number(c->s, num);
        } else if (sscanf(q, "bp %d %d %d %d %d %d", &num, &hits, &ign, &en, &dd, &dis) == 6) {
            dbg_bp *b = dbg_bp_find(c->s, num);
            if (!b)
                continue;
            b->hits = hits;
            b->ignore = ign;
            b->disp_dis = dd;
            b->disable_after = dis;
            if (!b->enabled != !en)
                dbg_bp_enable(c->s, num, en);
        } else if (values && !strncmp(q, "hist ", 5) && get_value(q + 5, &v) == 0) {
            if (!replaced) { /* the other process's history is the whole history */
                dbg_session_history(c->s)->nhist = 0;
                replaced = 1;
            }
            dbg_history_add(dbg_session_history(c->s), &v, NULL);
        } else if (values && !strncmp(q, "conv ", 5)) {
            char name[64];
            int used = 0;
            if (sscanf(q + 5, "%63s %n", name, &used) != 1 || used <= 0 ||
                get_value(q + 5 + used, &v) != 0)
                continue;
            dbg_value *slot = dbg_history_conv(dbg_session_history(c->s), name, 1);
            if (slot)
                *slot = v;
        }
    }
}
