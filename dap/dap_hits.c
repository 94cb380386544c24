/* dap_hits.c - DAP breakpoint stops: hit conditions, logpoints, and which client breakpoints a stop stands for. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dap_int.h"

/* ---- hit conditions: "N" (from the Nth hit on, as gdb's ignore), ">= N", "> N", "== N" (or
 * "= N"), "!= N", "< N", "<= N", "% N" (every Nth); spaces anywhere ------------------------ */
int dap_hit_parse(const char *s, char *op, long *n)
{
    while (isspace((unsigned char)*s))
        s++;
    op[0] = op[1] = 0;
    if (*s == '%' || *s == '>' || *s == '<' || *s == '=' || *s == '!') {
        op[0] = *s++;
        while (isspace((unsigned char)*s) && s[1] == '=')
            s++;
        if (*s == '=')
            op[1] = *s++;
    }
    if ((op[0] == '!' && op[1] != '=') || (op[0] == '%' && op[1]))
        return -1;
    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s))
        return -1;
    char *end;
    long v = strtol(s, &end, 10);
    if (v < 0 || v > 1000000000)
        return -1;
    while (isspace((unsigned char)*end))
        end++;
    if (*end || (op[0] == '%' && v == 0))
        return -1;
    *n = v;
    return 0;
}

static int hit_holds(const char *cond, int hits)
{
    char op[2];
    long n;
    if (dap_hit_parse(cond, op, &n) != 0)
        return 1;
    switch (op[0]) {
    case 0: return hits >= n;
    case '=': return hits == n;
    case '!': return hits != n;
    case '>': return op[1] ? hits >= n : hits > n;
    case '<': return op[1] ? hits <= n : hits < n;
    case '%': return hits % n == 0;
    }
    return 1;
}

dap_bp *dap_bp_by_id(dap_srv *d, int id)
{
    for (int i = 0; i < d->nbps; i++)
        if (d->bps[i].id == id)
            return &d->bps[i];
    return NULL;
}

/* A logpoint's message: {EXPR} parts evaluated in the lane ({{ and }} are braces). */
static void log_message(dap_srv *d, const dap_bp *b, const dap_lref *r)
{
    size_t cap = 256, len = 0;
    char *out = malloc(cap);
    for (const char *p = b->logmsg; out && *p;) {
        char piece[2048];
        size_t pn;
        if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
            piece[0] = p[0];
            pn = 1;
            p += 2;
        } else if (*p == '{' && strchr(p, '}')) {
            const char *e = strchr(p, '}');
            char expr[1024];
            snprintf(expr, sizeof expr, "%.*s", (int)(e - p - 1), p + 1);
            dapv_val v;
            char err[512];
            if (dapv_eval(d->v, r, expr, 0, &v, err, sizeof err) == 0) {
                snprintf(piece, sizeof piece, "%s", v.text);
                dapv_val_free(&v);
            } else {
                snprintf(piece, sizeof piece, "<%s>", err);
            }
            pn = strlen(piece);
            p = e + 1;
        } else {
            piece[0] = *p++;
            pn = 1;
        }
        if (len + pn + 2 > cap) {
            while (len + pn + 2 > cap)
                cap *= 2;
            char *no = realloc(out, cap);
            if (!no)
                break;
            out = no;
        }
        memcpy(out + len, piece, pn);
        len += pn;
    }
    if (out) {
        out[len++] = '\n';
        dap_output(d, "console", out, len);
    }
    free(out);
}

/* Whether a breakpoint's own condition (one the engine does not check: data breakpoints, and
 * the other breakpoints at a pc where one stopped) holds for a lane of the stop. */
static int cond_holds(dap_srv *d, const dap_bp *b, const dap_lref *lanes, int nl)
{
    if (!b->cond)
        return 1;
    for (int i = 0; i < nl; i++) {
        char err[256];
        int r = dapv_cond_holds(d->v, &lanes[i], b->cond, err, sizeof err);
        if (r != 0) /* an error stops too, as gdb does */
            return 1;
    }
    return 0;
}

/* A breakpoint or watchpoint stop: which of the client's breakpoints it stands for (all those
 * at the pc whose conditions hold for a lane there, each counting its own hits), their logpoint
 * messages, and whether to report it. The ids go to d->hit_ids. */
int dap_bp_stop(dap_srv *d, const dbg_event *ev)
{
    d->nhit = 0;
    dap_bp *first = dap_bp_by_num(d, ev->bp);
    if (!first)
        return 1; /* a breakpoint of the debug console: the CLI's own */
    const dbg_focus *f = dbg_get_focus(d->s);
    dap_lref here = {f->cta, f->warp, f->lane, 0};
    dap_lref lanes[32];
    int nl = 0, report = 0;
    if (ev->kind == DBG_EV_BREAKPOINT) { /* the lanes of the warp standing at the pc */
        dbg_lane_row rows[32];
        if (dbg_lane_rows(d->s, f->cta, f->warp, rows) > 0)
            for (int l = 0; l < 32; l++)
                if (rows[l].state == EXEC_LANE_ACTIVE && rows[l].pc == ev->stop.pc)
                    lanes[nl++] = (dap_lref){f->cta, f->warp, (uint32_t)l, 0};
    }
    if (!nl)
        lanes[nl++] = here;
    for (int i = 0; i < d->nbps; i++) {
        dap_bp *b = &d->bps[i];
        dbg_bp *e = b->num > 0 ? dbg_bp_find(d->s, b->num) : NULL;
        if (!e || !e->enabled)
            continue;
        int at = b == first;
        if (!at && ev->kind == DBG_EV_BREAKPOINT && e->type == DBG_BP_BREAK)
            for (int k = 0; k < e->npcs && !at; k++)
                at = e->pcs[k] == ev->stop.pc;
        if (!at)
            continue;
        /* the engine checked the condition of the breakpoint it stopped at */
        if ((b != first || b->kind == DAP_BP_DATA) && !cond_holds(d, b, lanes, nl))
            continue;
        b->hits++;
        if (b->hitcond && !hit_holds(b->hitcond, b->hits))
            continue;
        if (b->logmsg) {
            log_message(d, b, &here);
            continue;
        }
        if (d->nhit < (int)(sizeof d->hit_ids / sizeof d->hit_ids[0]))
            d->hit_ids[d->nhit++] = b->id;
        report = 1;
    }
    return report;
}
