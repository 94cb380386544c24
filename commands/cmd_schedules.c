/* cmd_schedules.c - --schedules=N: a finished PTX launch rerun under N seeded random schedules, the first result that differs. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "cmd_ui.h"
#include "chk.h"

/* Every buffer's bytes, one block after another (NULL, *n 0: no buffers). */
static uint8_t *snapshot(cmd_ctx *c, size_t *n)
{
    size_t total = 0;
    int nb = dbg_buffer_count(c->s);
    for (int i = 0; i < nb; i++)
        total += dbg_buffer_at(c->s, i)->size;
    *n = total;
    if (!total)
        return NULL;
    uint8_t *p = malloc(total);
    if (!p)
        return NULL;
    size_t off = 0;
    for (int i = 0; i < nb; i++) {
        const dbg_buffer *b = dbg_buffer_at(c->s, i);
        if (dbg_buffer_read(c->s, b, p + off) != 0) {
            free(p);
            return NULL;
        }
        off += b->size;
    }
    return p;
}

/* Run the relaunched kernel to its end: findings are recorded (reported once, below), other
 * stops the user set (breakpoints, watchpoints) are passed. 0 when it completed, else -1 with
 * the stop reported. */
static int run_to_end(cmd_ctx *c, uint64_t seed)
{
    for (;;) {
        dbg_event ev;
        if (dbg_continue(c->s, 0, &ev) != 0)
            return cmd_error(c, "Schedule random:%" PRIu64 ": %s", seed, dbg_errmsg(c->s));
        if (ev.kind == DBG_EV_EXITED)
            return 0;
        int passable = ev.kind == DBG_EV_CHECK || ev.kind == DBG_EV_BREAKPOINT ||
                       ev.kind == DBG_EV_WATCH || ev.kind == DBG_EV_STEP ||
                       ev.kind == DBG_EV_ENTRY || ev.kind == DBG_EV_LANE_EXITED;
        if (passable && dbg_launch_alive(c->s))
            continue;
        cmd_ui_textf(c, "Schedule random:%" PRIu64 " ended the kernel differently:\n", seed);
        cmd_report_event(c, &ev);
        return -1;
    }
}

/* The races racecheck found, as the evidence for a difference. */
static void show_races(cmd_ctx *c)
{
    const chk_ctx *k = dbg_checks(c->s);
    int shown = 0;
    for (int i = 0; k && i < chk_count(k); i++) {
        const chk_finding *f = chk_at(k, i);
        if (f->checker != CHK_RACECHECK)
            continue;
        char text[4096];
        chk_format(f, "    ", text, sizeof text);
        cmd_ui_textf(c, "%s%s", shown++ ? "" : "The racing pair(s) racecheck found:\n", text);
    }
    if (!shown)
        cmd_ui_textf(c,
            "(racecheck %s: `set check racecheck on` and rerun to see the racing pair.)\n",
               chk_enabled(k) & (1u << CHK_RACECHECK) ? "found no race" : "is off");
}

int cmd_schedules(cmd_ctx *c)
{
    uint64_t n = c->opt.schedules;
    if (!n || dbg_launch_alive(c->s))
        return 0;
    size_t size;
    uint8_t *ref = snapshot(c, &size);
    if (size && !ref)
        return cmd_error(c, "--schedules: out of memory for the buffers' contents.");
    dbg_options *o = dbg_opts(c->s);
    int was_random = o->schedule_random;
    uint64_t was_seed = o->schedule_seed;
    int rc = 0, differs = 0;
    for (uint64_t seed = 1; seed <= n && !rc && !differs; seed++) {
        o->schedule_random = 1;
        o->schedule_seed = seed;
        if (dbg_relaunch(c->s) != 0) {
            rc = cmd_error(c, "%s", dbg_errmsg(c->s));
            break;
        }
        if (run_to_end(c, seed) != 0) {
            rc = -1;
            break;
        }
        size_t got_n;
        uint8_t *got = snapshot(c, &got_n);
        if (got_n && !got) {
            rc = cmd_error(c, "--schedules: out of memory for the buffers' contents.");
            break;
        }
        size_t off = 0;
        for (int i = 0; i < dbg_buffer_count(c->s) && !differs; i++) {
            const dbg_buffer *b = dbg_buffer_at(c->s, i);
            for (uint64_t j = 0; j < b->size; j++)
                if (got[off + j] != ref[off + j]) {
                    char first[48];
                    if (was_random)
                        snprintf(first, sizeof first, "random:%" PRIu64, was_seed);
                    else
                        snprintf(first, sizeof first, "round-robin");
                    cmd_ui_textf(c,
                        "Schedule random:%" PRIu64 " gives a different result: byte %" PRIu64
                           " of buffer %s (element %" PRIu64 ") is 0x%02x, and 0x%02x with "
                           "the first run's schedule (%s).\n", seed, j, b->name,
                           b->count ? j / (b->size / b->count) : j, got[off + j], ref[off + j],
                           first);
                    differs = 1;
                    break;
                }
            off += b->size;
        }
        free(got);
    }
    o->schedule_random = was_random;
    o->schedule_seed = was_seed;
    free(ref);
    if (differs) {
        show_races(c);
        cmd_ui_textf(c, "The buffers now hold that schedule's result.\n");
        c->failed = 1;
        return 0;
    }
    if (!rc)
        cmd_ui_textf(c,
            "All %" PRIu64 " random schedules give the same result as the first run.\n", n);
    return rc;
}
