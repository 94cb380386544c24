/* chk_synccheck.c - synccheck: CTA barriers, warp collectives and mbarriers misused, as findings. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "chk_int.h"

/* ---------------------------------------------------------------------------------------------
 * synccheck observes the sync seam only (EXEC_OBS_SYNC: a launch it watches runs on one thread,
 * the memory hot paths are untouched). It keeps, per resident CTA, each warp's lanes that have
 * taken part in a CTA barrier and, per barrier number, the phase in progress: the barrier
 * instruction and thread count of its first arrival and where each warp arrived. Findings:
 *   - divergent barrier (compute-sanitizer's "Divergent thread(s) in block"): threads of one
 *     phase of a barrier without a thread count (__syncthreads) arrive at different barrier
 *     instructions, or threads that took part in earlier barriers exit while others wait in a
 *     phase (the `__syncthreads()` inside `if (tid < s)`). Threads that exit before any barrier
 *     (`if (i >= n) return;`) are not divergent: exited threads do not count on a GPU of
 *     compute capability 7.0 or later, and ptxdbg completes such barriers the same way;
 *   - mismatched thread counts between warps meeting at one barrier number; barrier numbers and
 *     counts the ISA forbids (the warp faults: EXEC_SYNC_MISUSE);
 *   - __syncwarp (bar.warp.sync) by a lane its mask does not name ("Invalid arguments");
 *   - a shuffle lane reading a lane its membermask names that exited or is not executing the
 *     shuffle (undefined value on a GPU: the spmv bug of a __shfl_down_sync after returns);
 *     reading a lane outside the mask is undefined too, but NVIDIA's reduction sample does it
 *     (a one-lane mask shuffling down), so it is not reported;
 *   - mbarrier and barrier.cluster operations the ISA forbids (the warp faults; the finding
 *     explains the fault).
 * Lanes past the CTA's thread count in a partial warp count as exited, as on a GPU: a full
 * membermask there, or a shuffle reading such a lane, is not reported (compute-sanitizer does
 * not either). A collective whose mask names live lanes that exit instead of executing it
 * completes without them (the ISA waits for the non-exited threads of the mask): what is
 * undefined there is a shuffle reading them, which is reported. Other undefined masks a GPU
 * tolerates (lanes passing different masks together, a shuffle or vote by a lane outside its
 * own mask) are not reported either: real programs use them (docs/CHECKERS.md).
 * ------------------------------------------------------------------------------------------- */

#define SC_NBAR 16
#define SC_WARPS 32

typedef struct {
    int pending;              /* a phase is in progress */
    uint32_t pc, count;       /* its first arrival's instruction and count (0: all threads) */
    uint32_t wlanes[SC_WARPS];/* lanes of each warp that arrived in it */
    uint32_t wpc[SC_WARPS];   /* where each warp last arrived */
} sc_bar;

typedef struct {
    int used;
    uint32_t cta;
    uint32_t synced[SC_WARPS];  /* lanes that took part in a CTA barrier so far */
    uint32_t left[SC_WARPS];    /* ... and exited since (any later barrier is one they skip) */
    uint32_t leftpc[SC_WARPS];  /* where they exited */
    sc_bar bar[SC_NBAR];
} sc_cta;

typedef struct {
    chk_ctx *c;
    int handle;
    sc_cta *ctas;
    int n, cap;
    uint32_t nthreads;        /* threads per CTA of the current launch */
} sc_state;

static sc_cta *sc_get(sc_state *s, uint32_t cta, int make)
{
    for (int i = 0; i < s->n; i++)
        if (s->ctas[i].used && s->ctas[i].cta == cta)
            return &s->ctas[i];
    if (!make)
        return NULL;
    int k = 0;
    while (k < s->n && s->ctas[k].used)
        k++;
    if (k == s->n) {
        if (s->n == s->cap) {
            int nc = s->cap ? s->cap * 2 : 4;
            sc_cta *nv = realloc(s->ctas, sizeof *nv * (size_t)nc);
            if (!nv)
                return NULL;
            s->ctas = nv;
            s->cap = nc;
        }
        s->n++;
    }
    memset(&s->ctas[k], 0, sizeof s->ctas[k]);
    s->ctas[k].used = 1;
    s->ctas[k].cta = cta;
    return &s->ctas[k];
}

/* The lanes of warp `warp` that are threads of the CTA. */
static uint32_t sc_valid(const sc_state *s, uint32_t warp)
{
    if (!s->nthreads || s->nthreads >= (warp + 1) * 32)
        return 0xffffffffu;
    if (s->nthreads <= warp * 32)
        return 0;
    return (1u << (s->nthreads - warp * 32)) - 1;
}

/* "0-15,20,22-31" */
static void sc_lanes(uint32_t m, char *out, size_t n)
{
    size_t k = 0;
    out[0] = 0;
    for (int i = 0; i < 32 && k < n;) {
        if (!((m >> i) & 1)) {
            i++;
            continue;
        }
        int j = i;
        while (j + 1 < 32 && ((m >> (j + 1)) & 1))
            j++;
        int w = j > i ? snprintf(out + k, n - k, "%s%d-%d", k ? "," : "", i, j)
                      : snprintf(out + k, n - k, "%s%d", k ? "," : "", i);
        if (w < 0)
            break;
        k += (size_t)w;
        i = j + 1;
    }
    if (!out[0])
        snprintf(out, n, "none");
}

/* Append a line to the finding's detail. */
static void sc_line(chk_finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sc_line(chk_finding *f, const char *fmt, ...)
{
    size_t k = strlen(f->sync_detail);
    if (k + 2 >= sizeof f->sync_detail)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->sync_detail + k, sizeof f->sync_detail - k, fmt, ap);
    va_end(ap);
    k = strlen(f->sync_detail);
    if (k + 1 < sizeof f->sync_detail) {
        f->sync_detail[k] = '\n';
        f->sync_detail[k + 1] = 0;
    }
}

/* "barrier.cu:12 (pc 0x2a)": the user's line of pc, seen from lane `lane` of `warp`. */
static void sc_where(sc_state *s, exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane,
                     uint32_t pc, char *out, size_t n)
{
    chk_party p;
    chk_party_fill(s->c, m, &p, cta, warp, lane, pc, EXEC_ACC_READ);
    if (p.ufile[0])
        snprintf(out, n, "%s:%d (pc 0x%x)", p.ufile, p.uline, pc);
    else if (p.ptx_line)
        snprintf(out, n, "PTX line %d (pc 0x%x)", p.ptx_line, pc);
    else
        snprintf(out, n, "pc 0x%x", pc);
}

/* Where each warp of the phase arrived, one line each. */
static void sc_phase_lines(sc_state *s, exec_machine *m, uint32_t cta, const sc_bar *b, int id,
                           chk_finding *f)
{
    for (uint32_t w = 0; w < SC_WARPS; w++) {
        if (!b->wlanes[w])
            continue;
        char ln[160], at[400];
        sc_lanes(b->wlanes[w], ln, sizeof ln);
        sc_where(s, m, cta, w, (uint32_t)__builtin_ctz(b->wlanes[w]), b->wpc[w], at, sizeof at);
        sc_line(f, "warp %u lanes %s reached barrier %d at %s", w, ln, id, at);
    }
}

/* A repeat: counted; mirrors chk_repeat (a repeat in a later launch stops again). */
static void sc_repeat(sc_state *s, exec_machine *m, const exec_sync_ev *ev, chk_finding *f,
                      uint32_t fw, uint32_t fl, uint32_t fpc)
{
    chk_ctx *c = s->c;
    f->count++;
    if (!c->stop)
        return;
    const exec_launch_info *li = exec_current_launch(m);
    uint32_t id = li ? li->launch_id : 0;
    if (ev->kind == EXEC_SYNC_MISUSE || f->stop_m != m || f->stop_launch != id) {
        f->stop_m = m;
        f->stop_launch = id;
        exec_obs_stop_sync(m, ev, fw, fl, fpc, f->id, NULL);
    }
}

/* A new finding stops (focus on lane fl of warp fw at fpc) or is reported. */
static void sc_deliver(sc_state *s, exec_machine *m, const exec_sync_ev *ev, chk_finding *f,
                       uint32_t fw, uint32_t fl, uint32_t fpc)
{
    chk_ctx *c = s->c;
    if (c->stop) {
        char head[256];
        const exec_launch_info *li = exec_current_launch(m);
        chk_headline(f, head, sizeof head);
        f->stop_m = m;
        f->stop_launch = li ? li->launch_id : 0;
        if (exec_obs_stop_sync(m, ev, fw, fl, fpc, f->id, head) == 0)
            return;
    }
    if (c->hooks.report)
        c->hooks.report(c->hooks.ctx, f);
}

/* A new finding of `kind` with party 0 (and party 1 when two) filled. */
static chk_finding *sc_new(sc_state *s, exec_machine *m, chk_kind kind, uint32_t cta,
                           uint32_t w0, uint32_t l0, uint32_t pc0, int two, uint32_t w1,
                           uint32_t l1, uint32_t pc1)
{
    chk_finding *f = chk_add(s->c, CHK_SYNCCHECK, kind, exec_module(m));
    if (!f)
        return NULL;
    f->severity = CHK_SEV_ERROR;
    f->gpu_faults = -1;
    f->nparties = two ? 2 : 1;
    chk_party_fill(s->c, m, &f->party[0], cta, w0, l0, pc0, EXEC_ACC_READ);
    if (two)
        chk_party_fill(s->c, m, &f->party[1], cta, w1, l1, pc1, EXEC_ACC_READ);
    chk_launch_fill(s->c, m, f);
    return f;
}

static chk_finding *sc_lookup(sc_state *s, exec_machine *m, chk_kind kind, uint32_t pc,
                              uint32_t pc2, int two)
{
    chk_finding *f = chk_find(s->c, CHK_SYNCCHECK, kind, exec_module(m), pc, two ? pc2 : 0);
    if (f && f->nparties != (two ? 2 : 1))
        return NULL;
    return f;
}

/* ---- CTA barriers ----------------------------------------------------------------------------- */
static void sc_skipped(sc_state *s, exec_machine *m, const exec_sync_ev *ev, sc_bar *b, int id,
                       uint32_t lw, uint32_t div, uint32_t lpc);

static void sc_arrive(sc_state *s, exec_machine *m, const exec_sync_ev *ev)
{
    sc_cta *ct = sc_get(s, ev->cta, 1);
    if (!ct || ev->id < 0 || ev->id >= SC_NBAR || ev->warp >= SC_WARPS || !ev->lanes)
        return;
    sc_bar *b = &ct->bar[ev->id];
    uint32_t lane = (uint32_t)__builtin_ctz(ev->lanes);
    ct->synced[ev->warp] |= ev->lanes;
    if (!b->pending) {
        memset(b, 0, sizeof *b);
        b->pending = 1;
        b->pc = ev->pc;
        b->count = ev->count;
        b->wlanes[ev->warp] = ev->lanes;
        b->wpc[ev->warp] = ev->pc;
        /* a new phase for all threads: those that took part in earlier barriers and left
           will never reach it (the first warp that left stands for them) */
        for (uint32_t w = 0; !b->count && w < SC_WARPS; w++)
            if (ct->left[w]) {
                sc_skipped(s, m, ev, b, ev->id, w, ct->left[w], ct->leftpc[w]);
                break;
            }
        return;
    }
    chk_kind kind = 0;
    if (b->count != ev->count)
        kind = CHK_K_BAR_COUNT;
    else if (!b->count && b->pc != ev->pc)
        kind = CHK_K_BAR_DIVERGENT;
    if (kind) {
        /* the first arrival of the phase is party 0, this one party 1 */
        uint32_t w0 = 0;
        while (w0 < SC_WARPS && !b->wlanes[w0])
            w0++;
        if (w0 == SC_WARPS)
            w0 = ev->warp;
        uint32_t l0 = b->wlanes[w0] ? (uint32_t)__builtin_ctz(b->wlanes[w0]) : lane;
        chk_finding *f = sc_lookup(s, m, kind, b->wpc[w0], ev->pc, 1);
        if (f) {
            sc_repeat(s, m, ev, f, ev->warp, lane, ev->pc);
        } else if ((f = sc_new(s, m, kind, ev->cta, w0, l0, b->wpc[w0], 1, ev->warp, lane,
                               ev->pc))) {
            if (kind == CHK_K_BAR_COUNT) {
                char c0[32], c1[32];
                snprintf(c0, sizeof c0, b->count ? "%u threads" : "all threads", b->count);
                snprintf(c1, sizeof c1, ev->count ? "%u threads" : "all threads", ev->count);
                sc_line(f, "barrier %d: the phase began expecting %s, warp %u arrives "
                        "expecting %s", ev->id, c0, ev->warp, c1);
            } else {
                sc_line(f, "barrier %d: threads of one phase reached different barrier "
                        "instructions", ev->id);
            }
            b->wlanes[ev->warp] |= ev->lanes;
            b->wpc[ev->warp] = ev->pc;
            sc_phase_lines(s, m, ev->cta, b, ev->id, f);
            sc_deliver(s, m, ev, f, ev->warp, lane, ev->pc);
            return;
        }
    }
    b->wlanes[ev->warp] |= ev->lanes;
    b->wpc[ev->warp] = ev->pc;
}

/* Barrier `id`'s phase (without a count) goes on without lanes `div` of warp lw, which took
 * part in earlier barriers and exited at lpc: a divergent barrier. Party 0 is the phase's first
 * waiting lane, party 1 a lane that left. */
static void sc_skipped(sc_state *s, exec_machine *m, const exec_sync_ev *ev, sc_bar *b, int id,
                       uint32_t lw, uint32_t div, uint32_t lpc)
{
    uint32_t w0 = 0;
    while (w0 < SC_WARPS && !b->wlanes[w0])
        w0++;
    if (w0 == SC_WARPS)
        return;
    uint32_t l0 = (uint32_t)__builtin_ctz(b->wlanes[w0]), l1 = (uint32_t)__builtin_ctz(div);
    chk_finding *f = sc_lookup(s, m, CHK_K_BAR_DIVERGENT, b->wpc[w0], lpc, 1);
    if (f) {
        sc_repeat(s, m, ev, f, w0, l0, b->wpc[w0]);
        return;
    }
    if (!(f = sc_new(s, m, CHK_K_BAR_DIVERGENT, ev->cta, w0, l0, b->wpc[w0], 1, lw, l1, lpc)))
        return;
    char ln[160], at[400];
    sc_lanes(div, ln, sizeof ln);
    sc_where(s, m, ev->cta, lw, l1, lpc, at, sizeof at);
    sc_line(f, "barrier %d: threads that took part in earlier barriers exit without reaching it",
            id);
    sc_line(f, "warp %u lanes %s exited at %s", lw, ln, at);
    sc_phase_lines(s, m, ev->cta, b, id, f);
    sc_line(f, "ptxdbg completes the barrier without them (exited threads do not count, as on a "
            "GPU); a GPU may also hang or corrupt later barriers");
    sc_deliver(s, m, ev, f, w0, l0, b->wpc[w0]);
}

/* Lanes exit while a barrier phase (without a count) waits for them: lanes that took part in
 * earlier barriers skip this one. A phase that begins after they left is checked when it
 * begins (sc_arrive), so the order in which warps run does not matter. */
static void sc_exit(sc_state *s, exec_machine *m, const exec_sync_ev *ev)
{
    sc_cta *ct = sc_get(s, ev->cta, 0);
    if (!ct || ev->warp >= SC_WARPS)
        return;
    uint32_t div = ev->lanes & ct->synced[ev->warp];
    if (!div)
        return;
    ct->left[ev->warp] |= div;
    ct->leftpc[ev->warp] = ev->pc;
    for (int id = 0; id < SC_NBAR; id++) {
        sc_bar *b = &ct->bar[id];
        if (b->pending && !b->count)
            sc_skipped(s, m, ev, b, id, ev->warp, div, ev->pc);
    }
}

/* ---- warp-synchronous instructions ------------------------------------------------------------ */
static void sc_warp(sc_state *s, exec_machine *m, const exec_sync_ev *ev)
{
    chk_kind kind;
    uint32_t lanes = ev->lanes, named = 0;
    if (ev->kind == EXEC_SYNC_WARP) {
        return;   /* lanes that exited while it waited complete it (the ISA's non-exited
                     threads); reading their values is what is undefined (SRC_ABSENT) */
    } else if (ev->op == EXEC_WS_SRC_ABSENT) {
        /* reads of lanes past the CTA's threads are a partial warp's: not reported */
        named = ev->absent & sc_valid(s, ev->warp);
        if (!named)
            return;
        kind = CHK_K_SHFL_UNDEF;
    } else if (ev->op == EXEC_WS_NOT_MEMBER && ev->what && !strncmp(ev->what, "bar", 3)) {
        kind = CHK_K_WARP_NOT_MEMBER;
    } else {
        return;
    }
    if (!lanes)
        return;
    uint32_t lane = (uint32_t)__builtin_ctz(lanes);
    chk_finding *f = sc_lookup(s, m, kind, ev->pc, 0, 0);
    if (f) {
        sc_repeat(s, m, ev, f, ev->warp, lane, ev->pc);
        return;
    }
    if (!(f = sc_new(s, m, kind, ev->cta, ev->warp, lane, ev->pc, 0, 0, 0, 0)))
        return;
    char a[160], b[160];
    sc_lanes(ev->mask, a, sizeof a);
    switch (kind) {
    case CHK_K_WARP_NOT_MEMBER:
        sc_lanes(lanes, b, sizeof b);
        sc_line(f, "%s with membermask 0x%08x (lanes %s) executed by lanes %s, which it does "
                "not name", ev->what ? ev->what : "", ev->mask, a, b);
        break;
    default: {
        char r[160], src[160];
        sc_lanes(lanes, r, sizeof r);
        sc_lanes(named, src, sizeof src);
        int one = __builtin_popcount(lanes) == 1, sone = __builtin_popcount(named) == 1;
        sc_line(f, "%s with membermask 0x%08x: %s %s %s %s %s, which the mask names but which "
                "exited or %s not executing it", ev->what ? ev->what : "", ev->mask,
                one ? "lane" : "lanes", r, one ? "reads" : "read", sone ? "lane" : "lanes", src,
                sone ? "is" : "are");
        sc_line(f, "lane %u reads lane %d; the value is undefined on a GPU", lane, ev->id);
        break;
    }
    }
    sc_deliver(s, m, ev, f, ev->warp, lane, ev->pc);
}

/* ---- primitives misused: the warp faults, the finding explains it ------------------------------ */
static void sc_misuse(sc_state *s, exec_machine *m, const exec_sync_ev *ev)
{
    chk_kind kind = ev->op == EXEC_MISUSE_MBAR ? CHK_K_MBAR_MISUSE
                  : ev->op == EXEC_MISUSE_CLUSTER ? CHK_K_CLUSTER_BAR : CHK_K_BAR_INVALID;
    uint32_t lane = ev->lanes ? (uint32_t)__builtin_ctz(ev->lanes) : 0;
    chk_finding *f = sc_lookup(s, m, kind, ev->pc, 0, 0);
    if (f) {
        sc_repeat(s, m, ev, f, ev->warp, lane, ev->pc);
        return;
    }
    if (!(f = sc_new(s, m, kind, ev->cta, ev->warp, lane, ev->pc, 0, 0, 0, 0)))
        return;
    f->gpu_faults = 1;
    if (kind == CHK_K_MBAR_MISUSE) {
        f->space = PTX_SPACE_SHARED;
        f->addr = ev->addr;
        f->size = 8;
    }
    sc_line(f, "%s", ev->what ? ev->what : "");
    sc_deliver(s, m, ev, f, ev->warp, lane, ev->pc);
}

static void sc_sync(void *ctx, exec_machine *m, const exec_sync_ev *ev)
{
    sc_state *s = ctx;
    switch (ev->kind) {
    case EXEC_SYNC_LAUNCH: {
        s->n = 0;
        const exec_launch_info *li = exec_current_launch(m);
        s->nthreads = li ? (li->block.x ? li->block.x : 1) * (li->block.y ? li->block.y : 1) *
                           (li->block.z ? li->block.z : 1) : 0;
        break;
    }
    case EXEC_SYNC_CTA_BEGIN:
        sc_get(s, ev->cta, 1);
        break;
    case EXEC_SYNC_CTA_END: {
        sc_cta *ct = sc_get(s, ev->cta, 0);
        if (ct)
            ct->used = 0;
        break;
    }
    case EXEC_SYNC_BAR_ARRIVE:
        sc_arrive(s, m, ev);
        break;
    case EXEC_SYNC_BAR_DONE: {
        sc_cta *ct = sc_get(s, ev->cta, 0);
        if (ct && ev->id >= 0 && ev->id < SC_NBAR)
            ct->bar[ev->id].pending = 0;
        break;
    }
    case EXEC_SYNC_EXIT:
        sc_exit(s, m, ev);
        break;
    case EXEC_SYNC_WARP_UNDEFINED:
        sc_warp(s, m, ev);
        break;
    case EXEC_SYNC_MISUSE:
        sc_misuse(s, m, ev);
        break;
    default:
        break;
    }
}

void *chk_synccheck_attach(chk_ctx *c, exec_machine *m)
{
    sc_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->c = c;
    exec_observer o = { .name = "synccheck", .want = EXEC_OBS_SYNC, .sync = sc_sync, .ctx = s };
    s->handle = exec_observer_add(m, &o);
    if (s->handle < 0) {
        free(s);
        return NULL;
    }
    return s;
}

void chk_synccheck_detach(chk_ctx *c, exec_machine *m, void *state)
{
    (void)c;
    sc_state *s = state;
    exec_observer_del(m, s->handle);
    free(s->ctas);
    free(s);
}
