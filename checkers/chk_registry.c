/* chk_registry.c - the table of checkers, turning them on and off, and attaching them to machines. */
#include <stdlib.h>
#include <string.h>
#include "chk_int.h"

/* One row per checker: adding a checker is adding its file and filling its row. */
static const chk_def chk_defs[CHK_N] = {
    [CHK_MEMCHECK] = { "memcheck", "out-of-range, misaligned, null, freed and read-only accesses "
                       "in every space; device heap errors; leaks (--leak-check)",
                       chk_memcheck_attach, chk_memcheck_detach },
    [CHK_RACECHECK] = { "racecheck", "shared and global memory hazards between threads with no "
                        "ordering between them", NULL, NULL },
    [CHK_INITCHECK] = { "initcheck", "reads of memory and registers never written", NULL,
                        NULL },
    [CHK_SYNCCHECK] = { "synccheck", "barriers and warp collectives misused (divergent "
                        "barriers, mismatched counts, membermasks naming lanes that exited, "
                        "shuffles reading inactive lanes, mbarrier and cluster barrier misuse)",
                        chk_synccheck_attach, chk_synccheck_detach },
};

const chk_def *chk_def_of(chk_id id) { return id < CHK_N ? &chk_defs[id] : NULL; }

int chk_lookup(const char *name)
{
    for (int i = 0; i < CHK_N; i++)
        if (name && !strcmp(name, chk_defs[i].name))
            return i;
    return -1;
}

const char *chk_name(chk_id id) { return id < CHK_N ? chk_defs[id].name : "?"; }
const char *chk_summary(chk_id id) { return id < CHK_N ? chk_defs[id].summary : ""; }
int chk_implemented(chk_id id) { return id < CHK_N && chk_defs[id].attach != NULL; }

chk_ctx *chk_new(void)
{
    chk_ctx *c = calloc(1, sizeof *c);
    if (c)
        c->stop = 1;
    return c;
}

void chk_free(chk_ctx *c)
{
    if (!c)
        return;
    while (c->nmach)
        chk_detach(c, c->mach[c->nmach - 1].m);
    free(c->mach);
    chk_clear(c);
    free(c->f);
    free(c);
}

void chk_set_hooks(chk_ctx *c, const chk_hooks *h)
{
    if (h)
        c->hooks = *h;
    else
        memset(&c->hooks, 0, sizeof c->hooks);
}

/* Every attached machine observed by exactly the enabled checkers. */
static int chk_sync_machines(chk_ctx *c, char *err, size_t n)
{
    int rc = 0;
    for (int k = 0; k < c->nmach; k++) {
        chk_machine *cm = &c->mach[k];
        for (int i = 0; i < CHK_N; i++) {
            int want = (c->enabled >> i) & 1;
            if (want && !cm->state[i] && chk_defs[i].attach) {
                cm->state[i] = chk_defs[i].attach(c, cm->m);
                if (!cm->state[i]) {
                    if (err)
                        snprintf(err, n, "cannot start %s: %s", chk_defs[i].name,
                                 exec_errmsg(cm->m));
                    rc = -1;
                }
            } else if (!want && cm->state[i]) {
                chk_defs[i].detach(c, cm->m, cm->state[i]);
                cm->state[i] = NULL;
            }
        }
    }
    return rc;
}

/* "all": every checker implemented so far (the others join it as they are written). */
static unsigned chk_all_bits(void)
{
    unsigned bits = 0;
    for (int i = 0; i < CHK_N; i++)
        if (chk_implemented(i))
            bits |= 1u << i;
    return bits;
}

/* The bit of one name, or 0 with a message. */
static unsigned chk_bit(const char *name, int on, char *err, size_t n)
{
    if (!strcmp(name, "all"))
        return chk_all_bits();
    int id = chk_lookup(name);
    if (id < 0) {
        snprintf(err, n, "unknown checker \"%s\" (memcheck, racecheck, initcheck, synccheck or "
                 "all)", name);
        return 0;
    }
    if (on && !chk_implemented(id)) {
        snprintf(err, n, "checker \"%s\" is not implemented yet (available: memcheck)", name);
        return 0;
    }
    return 1u << id;
}

int chk_set(chk_ctx *c, const char *name, int on, char *err, size_t n)
{
    unsigned bits = chk_bit(name, on, err, n);
    if (!bits)
        return -1;
    c->enabled = on ? c->enabled | bits : c->enabled & ~bits;
    return chk_sync_machines(c, err, n);
}

int chk_set_list(chk_ctx *c, const char *list, char *err, size_t n)
{
    unsigned want = 0;
    char buf[256];
    if (!list || strlen(list) >= sizeof buf) {
        snprintf(err, n, "bad list of checkers");
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", list);
    if (strcmp(buf, "none") != 0)
        for (char *save = NULL, *t = strtok_r(buf, ",", &save); t;
             t = strtok_r(NULL, ",", &save)) {
            while (*t == ' ')
                t++;
            unsigned b = chk_bit(t, 1, err, n);
            if (!b)
                return -1;
            want |= b;
        }
    c->enabled = want;
    return chk_sync_machines(c, err, n);
}

unsigned chk_enabled(const chk_ctx *c) { return c->enabled; }
void chk_set_stop(chk_ctx *c, int on) { c->stop = on != 0; }
int chk_stops(const chk_ctx *c) { return c->stop; }

int chk_attach(chk_ctx *c, exec_machine *m)
{
    if (!m)
        return -1;
    for (int k = 0; k < c->nmach; k++)
        if (c->mach[k].m == m)
            return chk_sync_machines(c, NULL, 0);
    if (c->nmach == c->capmach) {
        int nc = c->capmach ? c->capmach * 2 : 8;
        chk_machine *nm = realloc(c->mach, sizeof *nm * (size_t)nc);
        if (!nm)
            return -1;
        c->mach = nm;
        c->capmach = nc;
    }
    memset(&c->mach[c->nmach], 0, sizeof c->mach[c->nmach]);
    c->mach[c->nmach++].m = m;
    return chk_sync_machines(c, NULL, 0);
}

void chk_detach(chk_ctx *c, exec_machine *m)
{
    for (int k = 0; k < c->nmach; k++) {
        if (c->mach[k].m != m)
            continue;
        for (int i = 0; i < CHK_N; i++)
            if (c->mach[k].state[i])
                chk_defs[i].detach(c, m, c->mach[k].state[i]);
        dw_free(c->mach[k].dw);
        c->mach[k] = c->mach[--c->nmach];
        return;
    }
}

void chk_detach_module(chk_ctx *c, const ptx_module *mod)
{
    for (int k = 0; c && k < c->nmach; k++)
        if (exec_module(c->mach[k].m) == mod) {
            chk_detach(c, c->mach[k].m);
            return;
        }
}
