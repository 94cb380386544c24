/* exec_sched.c - resident CTAs taking turns: forward progress for CTAs that wait on others.
 *
 * CTAs normally run one at a time in linear order (exec_run_grid). A CTA that has not finished
 * after a turn of EXEC_TURN warp-instructions (or whose warp executed nanosleep, a back-off)
 * while other CTAs could run gives the machine to them: the resident set is the CTAs started
 * and not finished, at most exec_res_limit() of them (all CTAs of a cooperative launch). The
 * fairness rule: turns go to the resident CTAs in increasing CTA order, wrapping around; where
 * the wrap would happen (the CTA whose turn ended is the highest-numbered resident) and the set
 * has room, the next CTA not yet started is admitted and takes the turn instead. So a CTA
 * spinning on a flag that another CTA sets (a later CTA, or one admitted later) lets that CTA
 * run, every resident CTA gets a turn in each round, and the order depends only on the
 * program and its inputs (instruction counts), never on time: runs and stops are
 * deterministic. CTAs that finish within their first turn (no waiting) keep the one-at-a-time
 * path: m->res stays NULL until a turn ends with another CTA to run.
 *
 * The machine keeps one CTA swapped in (m->cta, m->warps, m->sregs; m->cur_cta its number);
 * the others are parked in m->res->s (sorted by CTA number) and swapped in for their turn, for
 * a step focused on them, or for inspection of their warps (exec_res_warp). Arrays of finished
 * CTAs are kept for the next admitted CTA. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec_core.h"

typedef struct {
    exec_cta cta;
    exec_warp *warps;
    uint8_t *sregs;
} exec_rslot;

struct exec_res {
    exec_rslot *s;            /* parked CTAs, increasing CTA number */
    uint32_t n, cap;
    exec_rslot *spare;        /* arrays (warps, sregs, shared block) of finished CTAs */
    uint32_t nspare, capspare;
    uint32_t next;            /* first CTA not yet started */
};

uint32_t exec_res_limit(const exec_machine *m)
{
    if (m->coop)
        return m->ncta;   /* cooperative: the whole grid is co-resident */
    return EXEC_RESIDENT_MAX;
}

/* The first CTA not yet started. */
uint32_t exec_res_next(const exec_machine *m)
{
    if (m->res)
        return m->res->next;
    return m->cta_live ? m->cur_cta + 1 : m->cur_cta;
}

static int res_push(exec_rslot **a, uint32_t *n, uint32_t *cap, uint32_t at, const exec_rslot *v)
{
    if (*n == *cap) {
        uint32_t nc = *cap ? *cap * 2 : 8;
        exec_rslot *na = realloc(*a, nc * sizeof *na);
        if (!na)
            return -1;
        *a = na;
        *cap = nc;
    }
    memmove(*a + at + 1, *a + at, (*n - at) * sizeof **a);
    (*a)[at] = *v;
    (*n)++;
    return 0;
}

/* Park the swapped-in CTA (live) among the others. */
static int res_park(exec_machine *m)
{
    exec_res *r = m->res;
    exec_rslot v = { m->cta, m->warps, m->sregs };
    uint32_t at = 0;
    while (at < r->n && r->s[at].cta.id < m->cta.id)
        at++;
    if (res_push(&r->s, &r->n, &r->cap, at, &v))
        return -1;
    m->warps = NULL;
    m->sregs = NULL;
    m->cta.shared = NULL;
    m->cta_live = 0;
    return 0;
}

static void res_load(exec_machine *m, exec_rslot *v)
{
    m->cta = v->cta;
    m->warps = v->warps;
    m->sregs = v->sregs;
    for (uint32_t k = 0; k < m->nwarps; k++)
        m->warps[k].cta = &m->cta;
    m->cur_cta = m->cta.id;
    m->cta_live = 1;
}

/* Swap in parked slot i (the machine holds no live CTA). */
static void res_take(exec_machine *m, uint32_t i)
{
    exec_res *r = m->res;
    exec_rslot v = r->s[i];
    memmove(r->s + i, r->s + i + 1, (r->n - i - 1) * sizeof *r->s);
    r->n--;
    res_load(m, &v);
}

/* Give the machine arrays for a new CTA (a finished CTA's, or fresh ones). */
static int res_arrays(exec_machine *m, const uint8_t *sregs_model)
{
    exec_res *r = m->res;
    if (r->nspare) {
        exec_rslot *v = &r->spare[--r->nspare];
        m->warps = v->warps;
        m->sregs = v->sregs;
        m->cta.shared = v->cta.shared;
        m->cta.shared_cap = v->cta.shared_cap;
        return 0;
    }
    size_t sb = (size_t)m->nwarps * EXEC_SR__COUNT * EXEC_SLOT;
    m->warps = calloc(m->nwarps, sizeof(exec_warp));
    m->sregs = malloc(sb);
    m->cta.shared = NULL;
    m->cta.shared_cap = 0;
    if (!m->warps || !m->sregs) {
        free(m->warps);
        free(m->sregs);
        m->warps = NULL;
        m->sregs = NULL;
        return -1;
    }
    memcpy(m->sregs, sregs_model, sb);   /* per-launch values; per-CTA ones set at start */
    return 0;
}

/* Start the next CTA not yet started in fresh arrays; 1 when started, 0 none left. */
static int res_admit(exec_machine *m, const uint8_t *sregs_model)
{
    exec_res *r = m->res;
    if (r->next >= m->ncta)
        return 0;
    if (res_arrays(m, sregs_model))
        return -1;
    m->cur_cta = r->next++;
    if (exec_run_cta_start(m, m->cur_cta))
        return -1;
    return 1;
}

/* The swapped-in CTA's turn ended and it has not finished. Returns 1 when a new CTA was
 * started (its setup is to be charged), 0 when another (or the same) CTA is swapped in, -1
 * out of memory. */
int exec_res_turn_over(exec_machine *m)
{
    uint32_t next = exec_res_next(m);
    if (!m->res) {
        if (next >= m->ncta)
            return 0;   /* nobody else to run */
        m->res = calloc(1, sizeof *m->res);
        if (!m->res)
            return -1;
        m->res->next = next;
    }
    exec_res *r = m->res;
    uint32_t cur = m->cta.id, i = 0;
    while (i < r->n && r->s[i].cta.id < cur)
        i++;
    int admit = i == r->n && r->next < m->ncta && r->n + 1 < exec_res_limit(m);
    if (!admit && !r->n)
        return 0;
    uint8_t *model = m->sregs;
    if (res_park(m))
        return -1;
    if (admit) {
        int a = res_admit(m, model);
        if (a < 0)
            return -1;
        return 1;
    }
    res_take(m, i + 1 < r->n ? i + 1 : 0);   /* cur is parked at i: the next one, wrapping */
    return 0;
}

/* The swapped-in CTA finished (its threads all exited). With parked CTAs: it is ended, its
 * arrays kept for a later CTA, and the next one by the rule is swapped in or admitted (1 when
 * admitted: charge its setup). Without: the one-at-a-time path (m->cur_cta++). Returns -1
 * out of memory; m->cta_live is 0 when nothing is left to run. */
int exec_res_finish(exec_machine *m)
{
    exec_res *r = m->res;
    if (!r || (!r->n && r->next >= m->ncta)) {
        m->cur_cta = r ? r->next : m->cur_cta + 1;
        exec_run_cta_end(m, m->cur_cta < m->ncta);
        return 0;
    }
    uint32_t cur = m->cta.id;
    exec_run_cta_end(m, 1);
    exec_rslot v = { m->cta, m->warps, m->sregs };
    if (res_push(&r->spare, &r->nspare, &r->capspare, r->nspare, &v))
        return -1;
    uint8_t *model = m->sregs;
    m->warps = NULL;
    m->sregs = NULL;
    m->cta.shared = NULL;
    uint32_t i = 0;
    while (i < r->n && r->s[i].cta.id < cur)
        i++;
    if (i == r->n && r->next < m->ncta && r->n < exec_res_limit(m))
        return res_admit(m, model);
    if (r->n) {
        res_take(m, i < r->n ? i : 0);
        return 0;
    }
    m->cur_cta = r->next;   /* nothing resident, nothing left */
    return 0;
}

void exec_res_free(exec_machine *m)
{
    exec_res *r = m->res;
    if (!r)
        return;
    for (uint32_t i = 0; i < r->n + r->nspare; i++) {
        exec_rslot *v = i < r->n ? &r->s[i] : &r->spare[i - r->n];
        exec_run_cta_free_parked(m, &v->cta, v->warps, v->sregs);
    }
    free(r->s);
    free(r->spare);
    free(r);
    m->res = NULL;
}

uint32_t exec_res_parked(const exec_machine *m) { return m->res ? m->res->n : 0; }

static const exec_rslot *res_find(const exec_machine *m, uint32_t cta)
{
    const exec_res *r = m->res;
    for (uint32_t i = 0; r && i < r->n; i++)
        if (r->s[i].cta.id == cta)
            return &r->s[i];
    return NULL;
}

exec_cta_state exec_res_cta_state(const exec_machine *m, uint32_t cta)
{
    if ((m->cta_live && cta == m->cta.id) || res_find(m, cta))
        return EXEC_CTA_RUNNING;
    return cta >= m->res->next ? EXEC_CTA_NOT_STARTED : EXEC_CTA_DONE;
}

const exec_warp *exec_res_warp(const exec_machine *m, uint32_t cta, uint32_t warp)
{
    if (warp >= m->nwarps)
        return NULL;
    if (m->cta_live && cta == m->cta.id)
        return &m->warps[warp];
    const exec_rslot *v = res_find(m, cta);
    return v ? &v->warps[warp] : NULL;
}

/* Make `cta` (resident) the swapped-in CTA, e.g. for a step focused on it. */
void exec_res_focus(exec_machine *m, uint32_t cta)
{
    exec_res *r = m->res;
    if (!r || (m->cta_live && m->cta.id == cta))
        return;
    for (uint32_t i = 0; i < r->n; i++)
        if (r->s[i].cta.id == cta) {
            exec_rslot v = r->s[i];
            if (m->cta_live) {
                r->s[i] = (exec_rslot){ m->cta, m->warps, m->sregs };
                /* keep the order: move the parked slot into place */
                while (i > 0 && r->s[i - 1].cta.id > r->s[i].cta.id) {
                    exec_rslot t = r->s[i - 1];
                    r->s[i - 1] = r->s[i];
                    r->s[i] = t;
                    i--;
                }
                while (i + 1 < r->n && r->s[i + 1].cta.id < r->s[i].cta.id) {
                    exec_rslot t = r->s[i + 1];
                    r->s[i + 1] = r->s[i];
                    r->s[i] = t;
                    i++;
                }
                res_load(m, &v);
            } else {
                res_take(m, i);
            }
            return;
        }
}

exec_cta *exec_parked_cta(exec_machine *m, uint32_t cta)
{
    if (m->cta_live && m->cta.id == cta)
        return NULL;
    if (m->cl)
        return exec_cluster_parked_cta(m, cta);
    for (uint32_t i = 0; m->res && i < m->res->n; i++)
        if (m->res->s[i].cta.id == cta)
            return &m->res->s[i].cta;
    return NULL;
}

int exec_res_slot(const exec_machine *m, uint32_t i, const exec_cta **cta,
                  const exec_warp **warps, const uint8_t **sregs)
{
    if (!m->res || i >= m->res->n)
        return -1;
    *cta = &m->res->s[i].cta;
    *warps = m->res->s[i].warps;
    *sregs = m->res->s[i].sregs;
    return 0;
}

int exec_res_restore(exec_machine *m, uint32_t next)
{
    if (m->res)
        return -1;
    m->res = calloc(1, sizeof *m->res);
    if (!m->res)
        return -1;
    m->res->next = next;
    return 0;
}

int exec_res_restore_add(exec_machine *m, const exec_cta *cta, exec_warp *warps, uint8_t *sregs)
{
    exec_res *r = m->res;
    if (!r || (r->n && r->s[r->n - 1].cta.id >= cta->id))
        return -1;
    exec_rslot v = { *cta, warps, sregs };
    return res_push(&r->s, &r->n, &r->cap, r->n, &v);
}

/* ---- cooperative launches ------------------------------------------------------------------ */
int exec_set_envreg(exec_machine *m, int idx, uint32_t value)
{
    if (idx < 0 || idx > 31) {
        snprintf(m->err, sizeof m->err, "%%envreg%d does not exist (0 to 31)", idx);
        return -1;
    }
    m->envreg[idx] = value;
    return 0;
}

void exec_set_cooperative(exec_machine *m, int on) { m->coop = on != 0; }

/* A cooperative launch: a zeroed workspace for the grid barrier, its address in %envreg1
 * (high 32 bits) and %envreg2 (low), where cooperative_groups::this_grid().sync() reads it. */
int exec_coop_prepare(exec_machine *m)
{
    if (!m->coop)
        return 0;
    if (m->ncta > EXEC_COOP_MAX_CTAS) {
        snprintf(m->err, sizeof m->err, "cooperative launch of %u CTAs: at most %u CTAs can be "
                 "resident at once", m->ncta, EXEC_COOP_MAX_CTAS);
        return -1;
    }
    mem_region *r = m->coop_ws ? mem_global_find(&m->glob, m->coop_ws, EXEC_COOP_WS) : NULL;
    if (!r) {
        m->coop_ws = mem_global_add(&m->glob, EXEC_COOP_WS, MEM_R_ALLOC, NULL);
        r = m->coop_ws ? mem_global_find(&m->glob, m->coop_ws, EXEC_COOP_WS) : NULL;
        if (!r) {
            snprintf(m->err, sizeof m->err, "cannot allocate the grid barrier's workspace");
            return -1;
        }
    }
    memset(r->data + (m->coop_ws - r->base), 0, EXEC_COOP_WS);
    m->envreg[1] = (uint32_t)(m->coop_ws >> 32);
    m->envreg[2] = (uint32_t)m->coop_ws;
    return 0;
}
