/* exec_async.c - mbarrier objects, cp.async copies (plain, bulk, reduce), cluster addressing, setmaxnreg, multimem. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "exec_core.h"
#include "exec_fp.h"

/* ---- common helpers ------------------------------------------------------------------------- */
static void exec_async_set(exec_warp *w, const exec_insn *in, int k, uint32_t lane, uint64_t v)
{
    const exec_opnd *o = &in->op[k];
    if (o->kind != EXEC_O_REG)
        return; /* `_` */
    void *p = EXEC_R(w)->regs + o->off;
    if (ptx_type_bits((ptx_type)o->type) == 32)
        ((uint32_t *)p)[lane] = (uint32_t)v;
    else
        ((uint64_t *)p)[lane] = v;
}

/* The slice of a warp whose mbarrier test_wait/try_wait found the phase incomplete ends after
 * this instruction, so the other warps of the CTA run before it tests again. The instruction
 * itself completes (it returns false to the program, which decides what to do), so this is
 * not EXEC_YIELD (which retries the same instruction): the rest of the budget is spent, the
 * time a spinning warp would have taken anyway. */
static void exec_async_yield(exec_warp *w)
{
    if (w->budget > 1)
        w->budget = 1;
}

/* A decoded address operand kept apart from in->aux (instructions with several addresses). */
typedef struct { int64_t aux[4]; } exec_aaddr;

static int exec_async_dec_addr(exec_dec *d, const ptx_insn *pi, const ptx_operand *o,
                               ptx_space sp, exec_aaddr *a)
{
    exec_insn tmp;
    memset(&tmp, 0, sizeof tmp);
    if (o->kind != PTX_OP_ADDR)
        return exec_dec_error(d, pi, "expected an address operand [a]");
    if (exec_dec_address(d, pi, &tmp, o, sp))
        return -1;
    if (tmp.aux[2] == EXEC_AM_PARAMVAR || tmp.aux[2] == EXEC_AM_KPARAM ||
        tmp.aux[2] == EXEC_AM_LOCALVAR)
        return exec_dec_error(d, pi, "address operand must be in .%s space", ptx_space_name(sp));
    memcpy(a->aux, tmp.aux, sizeof a->aux);
    return 0;
}

static void exec_async_lanes(exec_warp *w, const exec_aaddr *a, uint32_t m, uint64_t *addr)
{
    exec_insn tmp;
    memset(&tmp, 0, sizeof tmp);
    memcpy(tmp.aux, a->aux, sizeof tmp.aux);
    exec_addr_lanes(w, &tmp, m, addr);
}

/* A shared-memory address of an instruction whose operand is .shared{::cta,::cluster} or
 * generic: the shared offset, or -1 after a fault (generic addresses outside the window). */
static int exec_async_shared(exec_warp *w, const exec_insn *in, uint32_t lane, ptx_space sp,
                             uint64_t a, uint32_t size, const char *what, uint64_t *sa)
{
    *sa = a;
    if (sp == PTX_SPACE_GENERIC && mem_generic_decode(a, sa) != PTX_SPACE_SHARED) {
        exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, (int)lane, PTX_SPACE_GENERIC, a, size,
                   "%s at generic address 0x%" PRIx64 " is not in shared memory", what, a);
        return -1;
    }
    if (sp == PTX_SPACE_SHARED || sp == PTX_SPACE_SHARED_CLUSTER || sp == PTX_SPACE_GENERIC) {
        *sa &= 0xffffffffu;
        return 0;
    }
    exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, (int)lane, sp, a, size,
               "%s must be in shared memory, not .%s", what, ptx_space_name(sp));
    return -1;
}

static int exec_async_shared_mod(const char *s)
{
    return !strcmp(s, "shared") || !strcmp(s, "shared::cta") || !strcmp(s, "shared::cluster");
}

/* Memory-model qualifiers: accepted, no effect (every access completes in program order). */
static int exec_async_sem_mod(const char *s)
{
    static const char *const t[] = { "release", "acquire", "relaxed", "acq_rel", "cta",
                                     "cluster", "gpu", "sys", "sync", "aligned" };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(s, t[i]))
            return 1;
    return 0;
}

/* ---- mbarrier --------------------------------------------------------------------------------
 * An mbarrier is a 64-bit object in shared memory (8-byte aligned). The program sees it only
 * through the mbarrier instructions; its bits here are:
 *     bits  0-19  pending arrival count: arrivals still missing in the current phase
 *     bits 20-39  expected arrival count of every phase (set by init, lowered by arrive_drop)
 *     bits 40-60  tx-count, 21-bit two's complement in -(2^20-1) .. 2^20-1
 *     bits 61-62  current phase number modulo 4 (bit 61 is the phase parity)
 *     bit  63     valid: set by mbarrier.init, cleared by mbarrier.inval. Shared memory starts
 *                 zeroed, so an object never initialised is invalid and using it is an error.
 * A phase completes when pending arrivals and tx-count are both zero: the phase number
 * advances, pending arrivals reload from the expected count, tx-count restarts at zero.
 * The state returned by arrive (the "token") has the same layout: the object right after
 * this arrival was counted but before a completion it caused, so its phase field names the
 * phase arrived on and its pending field the arrivals still missing then (pending_count).
 * test_wait/try_wait with a token succeed once the object's phase differs from the token's;
 * the .parity forms once the current phase parity differs from the operand (that is, the
 * phase with that parity, current or immediately preceding, has completed).
 * Emulation: every operation is applied at once, lane by lane in lane order; .release,
 * .acquire, .relaxed, .cta, .cluster are accepted (memory is sequentially consistent here).
 * try_wait/test_wait that find the phase incomplete for every lane end the warp's slice so
 * the other warps run (try_wait "waited for a time limit"), and a spinning loop completes.
 * Misuse is an exception: operating on an invalid object, arriving more often than pending,
 * a count or tx-count outside its range, .noComplete completing the phase. */
#define MB_VALID   (1ull << 63)
#define MB_MAX     0xfffffu

enum { MB_INIT, MB_INVAL, MB_ARRIVE, MB_EXPECT_TX, MB_COMPLETE_TX, MB_TEST, MB_TRY,
       MB_PENDING, MB_CP_ARRIVE };
enum { MBF_DROP = 1, MBF_EXPECT = 2, MBF_NOCOMPLETE = 4, MBF_PARITY = 8, MBF_NOINC = 16 };

static uint32_t mb_pend(uint64_t s) { return (uint32_t)(s & MB_MAX); }
static uint32_t mb_exp(uint64_t s) { return (uint32_t)((s >> 20) & MB_MAX); }
static int32_t mb_tx(uint64_t s)
{
    uint32_t v = (uint32_t)((s >> 40) & 0x1fffffu);
    return (v & 0x100000u) ? (int32_t)v - 0x200000 : (int32_t)v;
}
static uint32_t mb_phase(uint64_t s) { return (uint32_t)((s >> 61) & 3); }
static uint64_t mb_make(uint32_t phase, int32_t tx, uint32_t exp, uint32_t pend)
{
    return MB_VALID | (uint64_t)(phase & 3) << 61 | ((uint64_t)(uint32_t)tx & 0x1fffffu) << 40 |
           (uint64_t)(exp & MB_MAX) << 20 | (pend & MB_MAX);
}

/* Complete the phase when nothing is pending. */
static uint64_t mb_settle(uint64_t s, int *completed)
{
    *completed = 0;
    if (mb_pend(s) == 0 && mb_tx(s) == 0) {
        *completed = 1;
        return mb_make(mb_phase(s) + 1, 0, mb_exp(s), mb_exp(s));
    }
    return s;
}

static const char *const mb_names[] = { "mbarrier.init", "mbarrier.inval", "mbarrier.arrive",
                                        "mbarrier.expect_tx", "mbarrier.complete_tx",
                                        "mbarrier.test_wait", "mbarrier.try_wait",
                                        "mbarrier.pending_count", "cp.async.mbarrier.arrive" };

/* Host bytes of lane i's mbarrier object (NULL after a fault). */
static uint8_t *mb_obj(exec_warp *w, const exec_insn *in, uint32_t lane, uint64_t a, int write,
                       uint64_t *sa)
{
    ptx_space sp = (ptx_space)(in->aux[3] & 0xff);
    if (exec_async_shared(w, in, lane, sp, a, 8, "mbarrier object", sa))
        return NULL;
    /* init writes the object whole (initcheck: not a read of it); the others update it */
    return mem_xlate(w, in, (int)lane, PTX_SPACE_SHARED, *sa, 8,
                     write == 2 ? EXEC_ACC_WRITE : write ? EXEC_ACC_ATOMIC : EXEC_ACC_READ);
}

static int mb_err(exec_warp *w, const exec_insn *in, uint32_t lane, uint64_t sa,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int mb_err(exec_warp *w, const exec_insn *in, uint32_t lane, uint64_t sa,
                  const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, (int)lane, PTX_SPACE_SHARED, sa, 8,
               "mbarrier at shared 0x%" PRIx64 ": %s", sa, msg);
    exec_obs_misuse(w, in, (int)lane, EXEC_MISUSE_MBAR, -1, 0, sa);
    return -1;
}

/* Arrive `count` times (drop: also leave future phases) after adding `tx` to the tx-count.
 * *token receives the state for the arriving thread. Returns -1 after a fault. */
static int mb_arrive(exec_warp *w, const exec_insn *in, uint32_t lane, uint64_t sa, uint64_t *s,
                     uint32_t count, int64_t tx, int flags, uint64_t *token)
{
    uint64_t v = *s;
    if (count < 1 || count > MB_MAX)
        return mb_err(w, in, lane, sa, "arrival count %u outside 1..1048575", count);
    int64_t ntx = (int64_t)mb_tx(v) + tx;
    if (ntx > (int64_t)MB_MAX || ntx < -(int64_t)MB_MAX)
        return mb_err(w, in, lane, sa, "tx-count %" PRId64 " outside -(2^20-1)..2^20-1",
                      ntx);
    if (count > mb_pend(v))
        return mb_err(w, in, lane, sa, "%u arrivals but only %u pending in the current phase",
                      count, mb_pend(v));
    uint32_t exp = mb_exp(v);
    if (flags & MBF_DROP) {
        if (count > exp)
            return mb_err(w, in, lane, sa, "arrive_drop of %u exceeds the expected count %u",
                          count, exp);
        exp -= count;
    }
    v = mb_make(mb_phase(v), (int32_t)ntx, exp, mb_pend(v) - count);
    if (token)
        *token = v;
    int done;
    uint64_t nv = mb_settle(v, &done);
    if (done && (flags & MBF_NOCOMPLETE))
        return mb_err(w, in, lane, sa, "arrive.noComplete completed phase %u (undefined "
                      "behaviour)", mb_phase(v));
    *s = nv;
    return 0;
}

/* Observers learn mbarrier arrivals, completed phases and successful waits (exec_obs.h). */
static void mb_event(exec_warp *w, const exec_insn *in, exec_sync_kind k, uint32_t lanes,
                     uint64_t sa)
{
    if (EXEC_OBS_SYNC_ON(w->m))
        exec_obs_sync(w, in, k, lanes, -1, 0, sa);
}

static int exec_mbar_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint64_t addr[EXEC_LANES];
    int op = in->flags, fl = in->bop;
    uint32_t ok = 0;
    exec_addr_lanes(w, in, m, addr);
    int write = op == MB_INIT ? 2 : op != MB_TEST && op != MB_TRY;
    EXEC_FOR_LANES(i, m) {
        uint64_t sa, s;
        uint8_t *h = mb_obj(w, in, i, addr[i], write, &sa);
        if (!h)
            return EXEC_STOPPED;
        memcpy(&s, h, 8);
        uint32_t ph0 = mb_phase(s);
        if (op == MB_INIT) {
            uint64_t c = exec_lane_val(w, in, 1, i);
            if (c < 1 || c > MB_MAX) {
                mb_err(w, in, i, sa, "init count %" PRIu64 " outside 1..1048575", c);
                return EXEC_STOPPED;
            }
            s = mb_make(0, 0, (uint32_t)c, (uint32_t)c);
            memcpy(h, &s, 8);
            continue;
        }
        if (!(s & MB_VALID)) {
            exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, (int)i, PTX_SPACE_SHARED, sa, 8,
                       "%s on shared 0x%" PRIx64 ", which is not an initialised mbarrier (no "
                       "mbarrier.init, or mbarrier.inval since)", mb_names[op], sa);
            exec_obs_misuse(w, in, (int)i, EXEC_MISUSE_MBAR, -1, 0, sa);
            return EXEC_STOPPED;
        }
        switch (op) {
        case MB_INVAL:
            s = 0;
            break;
        case MB_ARRIVE: {
            uint32_t count = 1;
            int64_t tx = 0;
            if (fl & MBF_EXPECT)
                tx = (int64_t)(uint32_t)exec_lane_val(w, in, 1, i);
            else if (in->op[1].kind != EXEC_O_NONE)
                count = (uint32_t)exec_lane_val(w, in, 1, i);
            if ((fl & MBF_EXPECT) && tx > MB_MAX) {
                mb_err(w, in, i, sa, "txCount %" PRId64 " outside 0..1048575", tx);
                return EXEC_STOPPED;
            }
            uint64_t tok = 0;
            if (mb_arrive(w, in, i, sa, &s, count, tx, fl, &tok))
                return EXEC_STOPPED;
            exec_async_set(w, in, 0, i, tok);
            break;
        }
        case MB_CP_ARRIVE:
            /* the copies of this thread completed at issue: the asynchronous arrive happens
             * now; without .noinc the pending count was raised by one first (net zero) */
            if ((fl & MBF_NOINC) && mb_arrive(w, in, i, sa, &s, 1, 0, 0, NULL))
                return EXEC_STOPPED;
            break;
        case MB_EXPECT_TX:
        case MB_COMPLETE_TX: {
            uint64_t tx = (uint32_t)exec_lane_val(w, in, 1, i);
            if (tx > MB_MAX) {
                mb_err(w, in, i, sa, "txCount %" PRIu64 " outside 0..1048575", tx);
                return EXEC_STOPPED;
            }
            int64_t ntx = (int64_t)mb_tx(s) + (op == MB_EXPECT_TX ? (int64_t)tx : -(int64_t)tx);
            if (ntx > (int64_t)MB_MAX || ntx < -(int64_t)MB_MAX) {
                mb_err(w, in, i, sa, "tx-count %" PRId64 " outside -(2^20-1)..2^20-1",
                       ntx);
                return EXEC_STOPPED;
            }
            int done;
            s = mb_settle(mb_make(mb_phase(s), (int32_t)ntx, mb_exp(s), mb_pend(s)), &done);
            break;
        }
        case MB_TEST:
        case MB_TRY: {
            uint64_t v = exec_lane_val(w, in, 1, i);
            int complete;
            if (fl & MBF_PARITY) {
                complete = (mb_phase(s) & 1) != (v & 1);
            } else {
                if (!(v & MB_VALID)) {
                    mb_err(w, in, i, sa, "state operand 0x%" PRIx64 " is not a state returned "
                           "by mbarrier.arrive", v);
                    return EXEC_STOPPED;
                }
                complete = mb_phase(v) != mb_phase(s);
            }
            if (complete) {
                ok |= 1u << i;
                mb_event(w, in, EXEC_SYNC_MBAR_WAIT, 1u << i, sa);
            }
            continue;
        }
        default:
            break;
        }
        memcpy(h, &s, 8);
        if (op == MB_ARRIVE || op == MB_CP_ARRIVE)
            mb_event(w, in, EXEC_SYNC_MBAR_ARRIVE, 1u << i, sa);
        if (op != MB_INVAL && mb_phase(s) != ph0)
            mb_event(w, in, EXEC_SYNC_MBAR_PHASE, 1u << i, sa);
    }
    if (op == MB_TEST || op == MB_TRY) {
        exec_pred_set(w, &in->op[0], ok, m);
        if (!ok)
            exec_async_yield(w);
    }
    return EXEC_NEXT;
}

/* mbarrier.pending_count.b64 count, state */
static int exec_mbar_pending_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    EXEC_FOR_LANES(i, m) {
        uint64_t s = exec_lane_val(w, in, 1, i);
        if (!(s & MB_VALID)) {
            exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, (int)i, PTX_SPACE_NONE, 0, 0,
                       "mbarrier.pending_count: 0x%" PRIx64 " is not a state returned by "
                       "mbarrier.arrive", s);
            return EXEC_STOPPED;
        }
        exec_async_set(w, in, 0, i, mb_pend(s));
    }
    return EXEC_NEXT;
}

/* The address space of an mbarrier operand: .shared{::cta,::cluster} or generic. */
static int mb_space(exec_dec *d, const ptx_insn *pi, int first, ptx_space *sp, int *b64)
{
    *sp = PTX_SPACE_GENERIC;
    *b64 = 0;
    for (int i = first; i < pi->nmods; i++) {
        const char *s = pi->mods[i];
        if (exec_async_shared_mod(s))
            *sp = PTX_SPACE_SHARED;
        else if (!strcmp(s, "b64"))
            *b64 = 1;
        else if (!exec_async_sem_mod(s))
            return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
    }
    return 0;
}

int exec_dec_mbarrier(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    if (pi->nmods < 1)
        return exec_dec_error(d, pi, "missing operation");
    const char *o = pi->mods[0];
    int op = -1, fl = 0, first = 1;
    if (!strcmp(o, "init")) op = MB_INIT;
    else if (!strcmp(o, "inval")) op = MB_INVAL;
    else if (!strcmp(o, "arrive")) op = MB_ARRIVE;
    else if (!strcmp(o, "arrive_drop")) { op = MB_ARRIVE; fl = MBF_DROP; }
    else if (!strcmp(o, "expect_tx")) op = MB_EXPECT_TX;
    else if (!strcmp(o, "complete_tx")) op = MB_COMPLETE_TX;
    else if (!strcmp(o, "test_wait")) op = MB_TEST;
    else if (!strcmp(o, "try_wait")) op = MB_TRY;
    else if (!strcmp(o, "pending_count")) op = MB_PENDING;
    else
        return exec_dec_error(d, pi, "unknown mbarrier operation .%s", o);
    for (; first < pi->nmods; first++) {
        const char *s = pi->mods[first];
        if (op == MB_ARRIVE && !strcmp(s, "expect_tx")) fl |= MBF_EXPECT;
        else if (op == MB_ARRIVE && !strcmp(s, "noComplete")) fl |= MBF_NOCOMPLETE;
        else if ((op == MB_TEST || op == MB_TRY) && !strcmp(s, "parity")) fl |= MBF_PARITY;
        else break;
    }
    ptx_space sp;
    int b64;
    if (mb_space(d, pi, first, &sp, &b64))
        return -1;
    if (!b64)
        return exec_dec_error(d, pi, "missing .b64");
    in->flags = (uint8_t)op;
    in->bop = (uint8_t)fl;
    in->fn = exec_mbar_fn;
    switch (op) {
    case MB_PENDING:
        if (pi->nops != 2)
            return exec_dec_error(d, pi, "expected mbarrier.pending_count.b64 count, state");
        if (exec_dec_dst(d, in, 0, &pi->ops[0], PTX_T_B32) ||
            exec_dec_src(d, in, 1, &pi->ops[1], PTX_T_B64))
            return -1;
        in->fn = exec_mbar_pending_fn;
        return 0;
    case MB_INIT:
        if (pi->nops != 2)
            return exec_dec_error(d, pi, "expected mbarrier.init.b64 [addr], count");
        if (exec_dec_src(d, in, 1, &pi->ops[1], PTX_T_B32))
            return -1;
        break;
    case MB_INVAL:
        if (pi->nops != 1)
            return exec_dec_error(d, pi, "expected mbarrier.inval.b64 [addr]");
        break;
    case MB_EXPECT_TX:
    case MB_COMPLETE_TX:
        if (pi->nops != 2)
            return exec_dec_error(d, pi, "expected mbarrier.%s.b64 [addr], txCount", o);
        if (exec_dec_src(d, in, 1, &pi->ops[1], PTX_T_B32))
            return -1;
        break;
    case MB_ARRIVE: {
        int need_arg = (fl & (MBF_EXPECT | MBF_NOCOMPLETE)) != 0;
        if (pi->nops != 2 + need_arg && !(!need_arg && pi->nops == 3))
            return exec_dec_error(d, pi, "expected mbarrier.%s state, [addr]%s", o,
                                  need_arg ? ", count" : "{, count}");
        if (exec_dec_dst(d, in, 0, &pi->ops[0], PTX_T_B64))
            return -1;
        if (pi->nops == 3 && exec_dec_src(d, in, 1, &pi->ops[2], PTX_T_B32))
            return -1;
        if (exec_dec_address(d, pi, in, &pi->ops[1], sp))
            return -1;
        return 0;
    }
    default: /* test_wait / try_wait */
        if (pi->nops != 3 && !(op == MB_TRY && pi->nops == 4))
            return exec_dec_error(d, pi, "expected mbarrier.%s p, [addr], %s%s", o,
                                  (fl & MBF_PARITY) ? "phaseParity" : "state",
                                  op == MB_TRY ? "{, suspendTimeHint}" : "");
        if (exec_dec_pdst(d, in, 0, &pi->ops[0]) ||
            exec_dec_src(d, in, 1, &pi->ops[2], (fl & MBF_PARITY) ? PTX_T_B32 : PTX_T_B64))
            return -1;
        if (pi->nops == 4 && exec_dec_src(d, in, 2, &pi->ops[3], PTX_T_B32))
            return -1; /* suspend-time hint: read, ignored */
        if (exec_dec_address(d, pi, in, &pi->ops[1], sp))
            return -1;
        return 0;
    }
    return exec_dec_address(d, pi, in, &pi->ops[0], sp);
}

/* ---- cp.async (non-bulk) ---------------------------------------------------------------------
 * cp.async.ca.shared{::cta}.global{.hints} [dst], [src], cp-size{, src-size | ignore-src}
 * {, cache-policy}; .cg takes cp-size 16 only. The copy of cp-size (4, 8, 16) bytes from global
 * to shared memory is performed at issue: src-size bytes are read (0 when ignore-src is true),
 * the rest of the destination is zero-filled. Both addresses must be aligned to cp-size.
 * Completing at issue is one valid execution of the asynchronous copy, so
 * cp.async.commit_group / wait_group N / wait_all have nothing left to wait for, and
 * cp.async.mbarrier.arrive{.noinc} arrives on its mbarrier at once (the pending count is
 * raised first without .noinc, so the net effect is nil then).
 * ext = exec_cpx; op[0] = src-size or ignore-src predicate (NONE: cp-size). */
enum { CP_PLAIN, CP_NOP, CP_BULK_S, CP_BULK_G, CP_RED_S, CP_RED_G };

typedef struct {
    exec_aaddr dst, src, mbar;
    ptx_space dsp, ssp;
    uint32_t cpsize;      /* plain copies */
    int ignore_src;       /* op[0] is the ignore-src predicate */
    int has_mbar;
    int redop;            /* reductions: RD_* */
    ptx_type type;
    int multicast;        /* op[1] = ctaMask */
} exec_cpx;

static int exec_cp_plain_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const exec_cpx *x = in->ext;
    uint64_t da[EXEC_LANES], sa[EXEC_LANES];
    exec_async_lanes(w, &x->dst, m, da);
    exec_async_lanes(w, &x->src, m, sa);
    uint32_t cs = x->cpsize;
    EXEC_FOR_LANES(i, m) {
        uint32_t ss = cs;
        if (x->ignore_src)
            ss = exec_lane_val(w, in, 0, i) ? 0 : cs;
        else if (in->op[0].kind != EXEC_O_NONE)
            ss = (uint32_t)exec_lane_val(w, in, 0, i);
        if (ss > cs) {
            exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, (int)i, PTX_SPACE_NONE, 0, 0,
                       "cp.async: src-size %u exceeds cp-size %u", ss, cs);
            return EXEC_STOPPED;
        }
        if (sa[i] & (cs - 1)) {   /* the source is aligned to cp-size, whatever src-size says */
            mem_bad(w, in, (int)i, PTX_SPACE_GLOBAL, PTX_SPACE_GLOBAL, sa[i], cs,
                    EXEC_ACC_ASYNC_R, EXEC_ACC_MISALIGNED, NULL);
            return EXEC_STOPPED;
        }
        uint8_t *dh = mem_xlate(w, in, (int)i, PTX_SPACE_SHARED, da[i], cs, EXEC_ACC_ASYNC_W);
        if (!dh)
            return EXEC_STOPPED;
        const uint8_t *sh = NULL;
        if (ss && !(sh = mem_xlate(w, in, (int)i, PTX_SPACE_GLOBAL, sa[i], ss, EXEC_ACC_ASYNC_R)))
            return EXEC_STOPPED;
        if (ss)
            memmove(dh, sh, ss);
        memset(dh + ss, 0, cs - ss);
    }
    return EXEC_NEXT;
}

static int exec_cp_nop_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    /* commit_group / wait_group N / wait_all: the copies completed at issue; observers learn
       the waits (count: the N groups that may stay pending) */
    if (EXEC_OBS_SYNC_ON(w->m) && in->src && ptx_insn_has_mod(in->src, "wait_group"))
        exec_obs_sync(w, in, EXEC_SYNC_CP_WAIT, m, -1,
                      in->src->nops ? (uint32_t)in->src->ops[0].ival : 0, 0);
    else if (EXEC_OBS_SYNC_ON(w->m) && in->src && ptx_insn_has_mod(in->src, "wait_all"))
        exec_obs_sync(w, in, EXEC_SYNC_CP_WAIT, m, -1, 0, 0);
    else if (EXEC_OBS_SYNC_ON(w->m) && in->src && ptx_insn_has_mod(in->src, "commit_group"))
        exec_obs_sync(w, in, EXEC_SYNC_CP_COMMIT, m, -1, 0, 0);
    return EXEC_NEXT;
}

/* ---- bulk copies and reductions --------------------------------------------------------------
 * cp.async.bulk.shared::{cluster,cta}.global.mbarrier::complete_tx::bytes{.multicast::cluster}
 *     [dst], [src], size, [mbar]{, ctaMask}{, cache-policy}
 * cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]
 * cp.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint} [dst], [src], size{, policy}
 * cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.op.type
 *     [dst], [src], size, [mbar]
 * cp.reduce.async.bulk.global.shared::cta.bulk_group{.hint}.op{.noftz}.type [dst], [src], size
 * Each executing thread's copy (size a multiple of 16, addresses 16-byte aligned) happens at
 * issue, then complete-tx of size bytes is performed on the mbarrier (shared destinations).
 * The bulk async-group instructions (commit_group, wait_group{.read}) have nothing to wait
 * for; prefetch.L2 has no visible effect. Reductions combine element by element, in order:
 * .add .min .max .inc .dec .and .or .xor on integers, .add on f32/f64, .add/.min/.max on
 * f16/bf16 (rounded to nearest even, no flush to zero). Without clusters of several CTAs a
 * shared::cluster address is this CTA's shared memory and a multicast mask must be 0 or 1; in
 * a cluster, .multicast::cluster writes dst and completes on mbar at the same shared offsets
 * in every CTA whose rank is set in ctaMask (exec_cluster_map). */
enum { RD_ADD, RD_MIN, RD_MAX, RD_INC, RD_DEC, RD_AND, RD_OR, RD_XOR };

static uint64_t exec_red_apply(int op, ptx_type t, uint64_t a, uint64_t b)
{
    int bits = ptx_type_bits(t);
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    if (t == PTX_T_F32)
        return exec_f2u(exec_u2f((uint32_t)a) + exec_u2f((uint32_t)b));
    if (t == PTX_T_F64)
        return exec_d2u(exec_u2d(a) + exec_u2d(b));
    if (t == PTX_T_F16 || t == PTX_T_BF16) {
        const exec_fmt *f = t == PTX_T_F16 ? &exec_fmt_f16 : &exec_fmt_bf16;
        double x = exec_fp_to_double(f, (uint32_t)a), y = exec_fp_to_double(f, (uint32_t)b);
        if (op == RD_ADD)
            return exec_fp_from_double(f, x + y, EXEC_RN, 0);
        if (x != x)
            return b;
        if (y != y)
            return a;
        return op == RD_MIN ? (y < x ? b : a) : (y > x ? b : a);
    }
    int sgn = ptx_type_is_signed(t);
    int64_t sa = bits == 32 ? (int64_t)(int32_t)a : (int64_t)a;
    int64_t sb = bits == 32 ? (int64_t)(int32_t)b : (int64_t)b;
    switch (op) {
    case RD_ADD: return (a + b) & mask;
    case RD_MIN: return sgn ? (uint64_t)(sa < sb ? sa : sb) & mask : (a < b ? a : b);
    case RD_MAX: return sgn ? (uint64_t)(sa > sb ? sa : sb) & mask : (a > b ? a : b);
    case RD_INC: return a >= b ? 0 : (a + 1) & mask;
    case RD_DEC: return (a == 0 || a > b) ? b : a - 1;
    case RD_AND: return a & b;
    case RD_OR:  return a | b;
    default:     return a ^ b;
    }
}

/* Copy or reduce `size` bytes from src to dst 16 bytes at a time (each chunk checked). */
static int exec_bulk_move(exec_warp *w, const exec_insn *in, uint32_t lane, const exec_cpx *x,
                          ptx_space dsp, uint64_t da, ptx_space ssp, uint64_t sa, uint32_t size,
                          int reduce)
{
    int es = reduce ? ptx_type_bits(x->type) / 8 : 16;
    for (uint32_t off = 0; off < size; off += 16) {
        uint8_t *dh = mem_xlate(w, in, (int)lane, dsp, da + off, 16, EXEC_ACC_ASYNC_W);
        if (!dh)
            return -1;
        const uint8_t *sh = mem_xlate(w, in, (int)lane, ssp, sa + off, 16, EXEC_ACC_ASYNC_R);
        if (!sh)
            return -1;
        if (!reduce) {
            memmove(dh, sh, 16);
            continue;
        }
        for (int k = 0; k < 16; k += es) {
            uint64_t a = 0, b = 0;
            memcpy(&a, dh + k, (size_t)es);
            memcpy(&b, sh + k, (size_t)es);
            uint64_t r = exec_red_apply(x->redop, x->type, a, b);
            memcpy(dh + k, &r, (size_t)es);
        }
    }
    return 0;
}

/* One copy (or reduction) into dst, then complete-tx of size bytes on the mbarrier at mba
 * (when the instruction has one). Returns -1 after a fault. */
/* Complete-tx of `size` bytes on the mbarrier at shared address mba (lane i's), as an
 * asynchronous operation that wrote those bytes does; -1 after a fault. */
static int exec_mb_complete_tx(exec_warp *w, const exec_insn *in, uint32_t i, uint64_t mba,
                               uint32_t size, const char *what)
{
    uint64_t mb, s;
    if (exec_async_shared(w, in, i, PTX_SPACE_SHARED, mba, 8, "mbarrier object", &mb))
        return -1;
    uint8_t *h = mem_xlate(w, in, (int)i, PTX_SPACE_SHARED, mb, 8, EXEC_ACC_ATOMIC);
    if (!h)
        return -1;
    memcpy(&s, h, 8);
    if (!(s & MB_VALID)) {
        exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, (int)i, PTX_SPACE_SHARED, mb, 8,
                   "%s completes on shared 0x%" PRIx64 ", which is not an initialised "
                   "mbarrier", what, mb);
        return -1;
    }
    int64_t ntx = (int64_t)mb_tx(s) - (int64_t)size;
    if (ntx < -(int64_t)MB_MAX) {
        mb_err(w, in, i, mb, "complete-tx of %u bytes takes the tx-count to "
               "%" PRId64 ", below -(2^20-1)", size, ntx);
        return -1;
    }
    int done;
    s = mb_settle(mb_make(mb_phase(s), (int32_t)ntx, mb_exp(s), mb_pend(s)), &done);
    memcpy(h, &s, 8);
    if (done)
        mb_event(w, in, EXEC_SYNC_MBAR_PHASE, 1u << i, mb);
    return 0;
}

static int exec_bulk_one(exec_warp *w, const exec_insn *in, uint32_t i, const exec_cpx *x,
                         uint64_t dst, uint64_t mba, uint64_t src, uint32_t size, int reduce)
{
    if (exec_bulk_move(w, in, i, x, x->dsp, dst, x->ssp, src, size, reduce))
        return -1;
    return x->has_mbar ? exec_mb_complete_tx(w, in, i, mba, size, "bulk copy") : 0;
}

static int exec_cp_bulk_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const exec_cpx *x = in->ext;
    uint64_t da[EXEC_LANES], sa[EXEC_LANES], ma[EXEC_LANES];
    exec_async_lanes(w, &x->dst, m, da);
    exec_async_lanes(w, &x->src, m, sa);
    if (x->has_mbar)
        exec_async_lanes(w, &x->mbar, m, ma);
    int reduce = in->flags == CP_RED_S || in->flags == CP_RED_G;
    EXEC_FOR_LANES(i, m) {
        uint32_t size = (uint32_t)exec_lane_val(w, in, 0, i);
        if (size % 16 || (da[i] | sa[i]) % 16) {
            exec_fault(w, in, size % 16 ? EXEC_EXC_ILLEGAL_INSN : EXEC_EXC_MISALIGNED, (int)i,
                       PTX_SPACE_NONE, 0, 0, "bulk copy: size %u and addresses (dst 0x%" PRIx64
                       ", src 0x%" PRIx64 ") must be multiples of 16", size, da[i], sa[i]);
            return EXEC_STOPPED;
        }
        int copy = 1;
        uint32_t ranks = 0;   /* multicast in a cluster of several CTAs: the CTAs to write */
        if (x->multicast) {
            uint64_t mask = exec_lane_val(w, in, 1, i) & 0xffff;
            uint32_t n = exec_cluster_size(w->m);
            if (mask >> n) {
                if (n == 1)
                    exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, (int)i, PTX_SPACE_NONE, 0, 0,
                               "cp.async.bulk.multicast::cluster: ctaMask 0x%" PRIx64 " names a "
                               "CTA that is not in the cluster (clusters hold one CTA here)",
                               mask);
                else
                    exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, (int)i, PTX_SPACE_NONE, 0, 0,
                               "cp.async.bulk.multicast::cluster: ctaMask 0x%" PRIx64 " names a "
                               "CTA that is not in the cluster (it has %u CTAs)", mask, n);
                return EXEC_STOPPED;
            }
            copy = mask != 0;
            if (n > 1)
                ranks = (uint32_t)mask;
        }
        if (!copy)
            continue;
        if (!ranks) {
            if (exec_bulk_one(w, in, i, x, da[i], x->has_mbar ? ma[i] : 0, sa[i], size, reduce))
                return EXEC_STOPPED;
            continue;
        }
        /* each destination CTA: the same offsets of dst and mbar in its shared memory */
        uint64_t sd, sm = 0;
        if (exec_async_shared(w, in, i, PTX_SPACE_SHARED, da[i], 16, "bulk copy destination",
                              &sd) ||
            (x->has_mbar &&
             exec_async_shared(w, in, i, PTX_SPACE_SHARED, ma[i], 8, "mbarrier object", &sm)))
            return EXEC_STOPPED;
        EXEC_FOR_LANES(rk, ranks) {
            uint64_t dst, mba = 0;
            if (exec_cluster_map(w, sd, rk, &dst) ||
                (x->has_mbar && exec_cluster_map(w, sm, rk, &mba))) {
                exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, (int)i, PTX_SPACE_SHARED, sd, size,
                           "cp.async.bulk.multicast::cluster: destination 0x%" PRIx64 " or "
                           "mbarrier 0x%" PRIx64 " is not shared memory of the cluster", sd, sm);
                return EXEC_STOPPED;
            }
            if (exec_bulk_one(w, in, i, x, dst, mba, sa[i], size, reduce))
                return EXEC_STOPPED;
        }
    }
    return EXEC_NEXT;
}

static int exec_cp_type_ok(int op, ptx_type t)
{
    int bits = ptx_type_bits(t);
    if (t == PTX_T_F32 || t == PTX_T_F64)
        return op == RD_ADD;
    if (t == PTX_T_F16 || t == PTX_T_BF16)
        return op == RD_ADD || op == RD_MIN || op == RD_MAX;
    if (bits != 32 && bits != 64)
        return 0;
    if (op == RD_INC || op == RD_DEC)
        return t == PTX_T_U32;
    if (op == RD_AND || op == RD_OR || op == RD_XOR)
        return t == PTX_T_B32 || t == PTX_T_B64;
    return t != PTX_T_B32 && t != PTX_T_B64;
}

/* Ignorable hints of the copy instructions. */
static int exec_cp_hint(const char *s)
{
    return !strcmp(s, "L2::cache_hint") || !strcmp(s, "L2::64B") || !strcmp(s, "L2::128B") ||
           !strcmp(s, "L2::256B") || !strcmp(s, "noftz") || !strcmp(s, "L2");
}

static int exec_dec_bulk(exec_dec *d, const ptx_insn *pi, exec_insn *in, int reduce)
{
    static const char *const rops[] = { "add", "min", "max", "inc", "dec", "and", "or", "xor" };
    exec_cpx *x = exec_dec_alloc(d, sizeof *x);
    if (!x)
        return exec_dec_error(d, pi, "out of memory");
    memset(x, 0, sizeof *x);
    x->redop = -1;
    ptx_space sp[2] = { PTX_SPACE_NONE, PTX_SPACE_NONE };
    int nsp = 0, mbar = 0, group = 0, hint = 0;
    for (int i = reduce ? 3 : 2; i < pi->nmods; i++) {
        const char *s = pi->mods[i];
        ptx_type t;
        int k;
        for (k = 0; k < 8; k++)
            if (!strcmp(s, rops[k]))
                break;
        if (!strcmp(s, "global") || exec_async_shared_mod(s)) {
            if (nsp == 2)
                return exec_dec_error(d, pi, "too many state spaces");
            sp[nsp++] = !strcmp(s, "global") ? PTX_SPACE_GLOBAL
                        : !strcmp(s, "shared::cluster") ? PTX_SPACE_SHARED_CLUSTER
                        : PTX_SPACE_SHARED;
        } else if (!strcmp(s, "mbarrier::complete_tx::bytes")) {
            mbar = 1;
        } else if (!strcmp(s, "bulk_group")) {
            group = 1;
        } else if (!strcmp(s, "multicast::cluster")) {
            x->multicast = 1;
        } else if (reduce && k < 8) {
            x->redop = k;
        } else if (reduce && (t = ptx_type_from_name(s)) != PTX_T_NONE) {
            x->type = t;
        } else if (!strcmp(s, "L2::cache_hint")) {
            hint = 1;
        } else if (!exec_cp_hint(s)) {
            return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
        }
    }
    if (nsp != 2)
        return exec_dec_error(d, pi, "expected .dst.src state spaces");
    x->dsp = sp[0];
    x->ssp = sp[1];
    int to_shared = x->dsp != PTX_SPACE_GLOBAL;
    if (to_shared && !(x->dsp == PTX_SPACE_SHARED_CLUSTER ||
                       (x->dsp == PTX_SPACE_SHARED && x->ssp == PTX_SPACE_GLOBAL)))
        return exec_dec_error(d, pi, "unsupported state spaces .%s.%s",
                              ptx_space_name(x->dsp), ptx_space_name(x->ssp));
    if (!to_shared && x->ssp != PTX_SPACE_SHARED)
        return exec_dec_error(d, pi, "a bulk copy to .global reads .shared::cta");
    if (reduce && x->ssp != PTX_SPACE_SHARED)
        return exec_dec_error(d, pi, "bulk reductions read .shared::cta");
    if (to_shared ? (!mbar || group) : (mbar || !group))
        return exec_dec_error(d, pi, to_shared ? "a bulk copy into shared memory completes "
                              "through .mbarrier::complete_tx::bytes"
                              : "a bulk copy to global memory completes through .bulk_group");
    if (x->multicast && (reduce || !to_shared || x->ssp != PTX_SPACE_GLOBAL))
        return exec_dec_error(d, pi, ".multicast::cluster applies to global->shared copies");
    if (reduce && (x->redop < 0 || x->type == PTX_T_NONE || !exec_cp_type_ok(x->redop, x->type)))
        return exec_dec_error(d, pi, "unsupported reduction operation/type");
    int want = 3 + mbar + x->multicast + hint;
    if (pi->nops != want)
        return exec_dec_error(d, pi, "expected %d operands", want);
    if (exec_async_dec_addr(d, pi, &pi->ops[0], x->dsp == PTX_SPACE_SHARED_CLUSTER ?
                            PTX_SPACE_SHARED : x->dsp, &x->dst) ||
        exec_async_dec_addr(d, pi, &pi->ops[1], x->ssp, &x->src) ||
        exec_dec_src(d, in, 0, &pi->ops[2], PTX_T_U32))
        return -1;
    if (x->dsp == PTX_SPACE_SHARED_CLUSTER)
        x->dsp = PTX_SPACE_SHARED;
    if (mbar && exec_async_dec_addr(d, pi, &pi->ops[3], PTX_SPACE_SHARED, &x->mbar))
        return -1;
    x->has_mbar = mbar;
    if (x->multicast && exec_dec_src(d, in, 1, &pi->ops[4], PTX_T_B16))
        return -1;
    in->flags = (uint8_t)(reduce ? (to_shared ? CP_RED_S : CP_RED_G)
                                 : (to_shared ? CP_BULK_S : CP_BULK_G));
    in->ext = x;
    in->fn = exec_cp_bulk_fn;
    return 0;
}

/* ---- st.async / red.async (sm_90) ----------------------------------------------------------
 * st.async{.weak}{.shared::cluster}{.mbarrier::complete_tx::bytes}{.v2,.v4}.type [a], b, [mbar]
 *   .type = .b32 .b64 .u32 .s32 .u64 .s64 .f32 .f64 (.v4 of 32-bit types only)
 * red.async.relaxed.cluster{.shared::cluster}{.mbarrier::complete_tx::bytes}.op.type [a], b,
 *   [mbar]: .inc .dec (.u32), .min .max (.u32 .s32), .add (.u32 .s32 .u64), .and .or .xor (.b32)
 * Each lane, in lane order, stores (or reduces into) the shared::cluster address a at issue,
 * then performs complete-tx of the bytes written on the mbarrier at mbar (an object of the
 * CTA that owns a). aux of in: unused; the addresses live in the extension. */
typedef struct {
    exec_aaddr dst, mbar;
    int n, redop;
    ptx_type type;
} exec_sta;

static int exec_st_async_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const exec_sta *x = in->ext;
    uint64_t da[EXEC_LANES], ma[EXEC_LANES];
    uint32_t es = (uint32_t)ptx_type_bits(x->type) / 8, size = es * (uint32_t)x->n;
    exec_async_lanes(w, &x->dst, m, da);
    exec_async_lanes(w, &x->mbar, m, ma);
    EXEC_FOR_LANES(i, m) {
        uint64_t sa;
        if (exec_async_shared(w, in, i, PTX_SPACE_SHARED, da[i], size, "st.async/red.async "
                              "destination", &sa))
            return EXEC_STOPPED;
        if (sa % size) {
            exec_fault(w, in, EXEC_EXC_MISALIGNED, (int)i, PTX_SPACE_SHARED, da[i], size,
                       "misaligned %u-byte access at shared 0x%" PRIx64, size, sa);
            return EXEC_STOPPED;
        }
        uint8_t *h = mem_xlate(w, in, (int)i, PTX_SPACE_SHARED, sa, size, EXEC_ACC_ASYNC_W);
        if (!h)
            return EXEC_STOPPED;
        for (int k = 0; k < x->n; k++) {
            uint64_t v = 0, old = 0;
            memcpy(&v, (const uint8_t *)exec_opnd_ptr(EXEC_R(w), &in->op[k]) + i * es, es);
            if (x->redop >= 0) {
                memcpy(&old, h + (uint32_t)k * es, es);
                v = exec_red_apply(x->redop, x->type, old, v);
            }
            memcpy(h + (uint32_t)k * es, &v, es);
        }
        if (exec_mb_complete_tx(w, in, i, ma[i], size, x->redop >= 0 ? "red.async" : "st.async"))
            return EXEC_STOPPED;
    }
    return EXEC_NEXT;
}

int exec_dec_st_async(exec_dec *d, const ptx_insn *pi, exec_insn *in, int red)
{
    static const char *const rops[] = { "add", "min", "max", "inc", "dec", "and", "or", "xor" };
    exec_sta *x = exec_dec_alloc(d, sizeof *x);
    if (!x)
        return exec_dec_error(d, pi, "out of memory");
    memset(x, 0, sizeof *x);
    x->n = 1;
    x->redop = -1;
    x->type = PTX_T_NONE;
    int mbar = 0;
    for (int i = 0; i < pi->nmods; i++) {
        const char *s = pi->mods[i];
        ptx_type t = ptx_type_from_name(s);
        int k = 0;
        while (k < 8 && strcmp(s, rops[k]))
            k++;
        if (t != PTX_T_NONE) x->type = t;
        else if (!strcmp(s, "v2") || !strcmp(s, "v4")) x->n = s[1] - '0';
        else if (!strcmp(s, "mbarrier::complete_tx::bytes")) mbar = 1;
        else if (red && k < 8) x->redop = k;
        else if (strcmp(s, "async") && strcmp(s, "weak") && strcmp(s, "relaxed") &&
                 strcmp(s, "cluster") && strcmp(s, "shared::cluster"))
            return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
    }
    ptx_type t = x->type;
    int bits = t == PTX_T_NONE ? 0 : ptx_type_bits(t);
    if (!mbar)
        return exec_dec_error(d, pi, "needs .mbarrier::complete_tx::bytes");
    if (red) {
        int op = x->redop;
        int ok = (op == RD_INC || op == RD_DEC) ? t == PTX_T_U32
               : (op == RD_MIN || op == RD_MAX) ? (t == PTX_T_U32 || t == PTX_T_S32)
               : op == RD_ADD ? (t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_U64)
               : op >= RD_AND ? t == PTX_T_B32 : 0;
        if (!ok || x->n != 1)
            return exec_dec_error(d, pi, "unsupported red.async operation/type");
    } else if ((bits != 32 && bits != 64) || t == PTX_T_PRED || (x->n == 4 && bits != 32) ||
               ptx_type_is_float(t) != (t == PTX_T_F32 || t == PTX_T_F64)) {
        return exec_dec_error(d, pi, "st.async takes .b32/.b64/.u32/.s32/.u64/.s64/.f32/.f64 "
                              "(.v4 of 32-bit types)");
    }
    if (pi->nops != 3)
        return exec_dec_error(d, pi, "expected [a], b, [mbar]");
    const ptx_operand *b = &pi->ops[1];
    if (x->n > 1 && (b->kind != PTX_OP_VEC || b->nelems != x->n))
        return exec_dec_error(d, pi, "expected a vector of %d elements", x->n);
    for (int k = 0; k < x->n; k++)
        if (exec_dec_src(d, in, k, x->n > 1 ? &b->elems[k] : b, t))
            return -1;
    if (exec_async_dec_addr(d, pi, &pi->ops[0], PTX_SPACE_SHARED, &x->dst) ||
        exec_async_dec_addr(d, pi, &pi->ops[2], PTX_SPACE_SHARED, &x->mbar))
        return -1;
    in->type = (uint8_t)t;
    in->ext = x;
    in->fn = exec_st_async_fn;
    return 0;
}

/* cp.async.commit_group / wait_group N / wait_all; cp.async.bulk.commit_group /
 * wait_group{.read} N: nothing is ever outstanding. */
static int exec_dec_cp_group(exec_dec *d, const ptx_insn *pi, exec_insn *in, int first, int want)
{
    for (int i = first; i < pi->nmods; i++)
        if (strcmp(pi->mods[i], "read"))
            return exec_dec_error(d, pi, "unsupported qualifier .%s", pi->mods[i]);
    if (pi->nops != want || (want && pi->ops[0].kind != PTX_OP_IMM))
        return exec_dec_error(d, pi, want ? "expected an integer constant N" : "no operands");
    in->flags = CP_NOP;
    in->fn = exec_cp_nop_fn;
    return 0;
}

static int exec_dec_cp_async(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    const char *k = pi->nmods > 1 ? pi->mods[1] : "";
    if (!strcmp(k, "commit_group") || !strcmp(k, "wait_all"))
        return exec_dec_cp_group(d, pi, in, 2, 0);
    if (!strcmp(k, "wait_group"))
        return exec_dec_cp_group(d, pi, in, 2, 1);
    if (!strcmp(k, "mbarrier")) {
        /* cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr] */
        int fl = 0, i = 2;
        if (pi->nmods < 3 || strcmp(pi->mods[2], "arrive"))
            return exec_dec_error(d, pi, "expected cp.async.mbarrier.arrive");
        for (i = 3; i < pi->nmods && !strcmp(pi->mods[i], "noinc"); i++)
            fl |= MBF_NOINC;
        ptx_space sp;
        int b64;
        if (mb_space(d, pi, i, &sp, &b64))
            return -1;
        if (!b64 || pi->nops != 1)
            return exec_dec_error(d, pi, "expected cp.async.mbarrier.arrive{.noinc}.b64 [addr]");
        in->flags = MB_CP_ARRIVE;
        in->bop = (uint8_t)fl;
        in->fn = exec_mbar_fn;
        return exec_dec_address(d, pi, in, &pi->ops[0], sp);
    }
    if (!strcmp(k, "bulk")) {
        const char *b = pi->nmods > 2 ? pi->mods[2] : "";
        if (!strcmp(b, "commit_group"))
            return exec_dec_cp_group(d, pi, in, 3, 0);
        if (!strcmp(b, "wait_group"))
            return exec_dec_cp_group(d, pi, in, 3, 1);
        if (!strcmp(b, "prefetch")) {
            in->flags = CP_NOP;
            in->fn = exec_cp_nop_fn;
            return 0;
        }
        if (!strcmp(b, "tensor"))
            return exec_dec_error(d, pi, "cp.async.bulk.tensor needs a tensor map (CUtensorMap),"
                                  " which ptxdbg does not model");
        return exec_dec_bulk(d, pi, in, 0);
    }
    if (strcmp(k, "ca") && strcmp(k, "cg"))
        return exec_dec_error(d, pi, "unsupported cp.async form .%s", k);
    /* cp.async.ca/.cg */
    exec_cpx *x = exec_dec_alloc(d, sizeof *x);
    if (!x)
        return exec_dec_error(d, pi, "out of memory");
    memset(x, 0, sizeof *x);
    int sh = 0, gl = 0, hint = 0;
    for (int i = 2; i < pi->nmods; i++) {
        const char *s = pi->mods[i];
        if (!strcmp(s, "shared") || !strcmp(s, "shared::cta"))
            sh = 1;
        else if (!strcmp(s, "global"))
            gl = 1;
        else if (!strcmp(s, "L2::cache_hint"))
            hint = 1;
        else if (!exec_cp_hint(s))
            return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
    }
    if (!sh || !gl)
        return exec_dec_error(d, pi, "expected cp.async.%s.shared.global", k);
    if (pi->nops < 3 || pi->nops > 4 + hint || pi->ops[2].kind != PTX_OP_IMM)
        return exec_dec_error(d, pi, "expected [dst], [src], cp-size{, src-size}%s",
                              hint ? ", cache-policy" : "");
    int64_t cs = pi->ops[2].ival;
    if (!strcmp(k, "cg") ? cs != 16 : (cs != 4 && cs != 8 && cs != 16))
        return exec_dec_error(d, pi, "cp-size must be %s", !strcmp(k, "cg") ? "16 for .cg"
                              : "4, 8 or 16");
    x->cpsize = (uint32_t)cs;
    if (exec_async_dec_addr(d, pi, &pi->ops[0], PTX_SPACE_SHARED, &x->dst) ||
        exec_async_dec_addr(d, pi, &pi->ops[1], PTX_SPACE_GLOBAL, &x->src))
        return -1;
    int nargs = pi->nops - 3 - hint;
    if (nargs == 1) {
        const ptx_operand *o = &pi->ops[3];
        if (o->kind == PTX_OP_REG && o->sym && o->sym->type == PTX_T_PRED) {
            x->ignore_src = 1;
            if (exec_dec_psrc(d, in, 0, o))
                return -1;
        } else if (exec_dec_src(d, in, 0, o, PTX_T_U32)) {
            return -1;
        } else if (o->kind == PTX_OP_IMM && (o->ival < 0 || o->ival > cs)) {
            return exec_dec_error(d, pi, "src-size %" PRId64 " exceeds cp-size %" PRId64,
                                  o->ival, cs);
        }
    } else if (nargs < 0) {
        return exec_dec_error(d, pi, "missing operands");
    }
    in->flags = CP_PLAIN;
    in->ext = x;
    in->fn = exec_cp_plain_fn;
    return 0;
}

int exec_dec_cp(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    if (pi->nmods >= 1 && !strcmp(pi->mods[0], "async"))
        return exec_dec_cp_async(d, pi, in);
    if (pi->nmods >= 3 && !strcmp(pi->mods[0], "reduce") && !strcmp(pi->mods[1], "async") &&
        !strcmp(pi->mods[2], "bulk")) {
        if (pi->nmods > 3 && !strcmp(pi->mods[3], "tensor"))
            return exec_dec_error(d, pi, "cp.reduce.async.bulk.tensor needs a tensor map "
                                  "(CUtensorMap), which ptxdbg does not model");
        return exec_dec_bulk(d, pi, in, 1);
    }
    return exec_dec_error(d, pi, "unsupported cp form (expected cp.async... or "
                          "cp.reduce.async.bulk...)");
}

/* ---- cluster addressing ----------------------------------------------------------------------
 * Launches with clusters of several CTAs: exec_cluster.c (shared::cluster windows). Otherwise
 * every CTA is a cluster of one (%cluster_nctarank = 1, rank 0), and a shared::cluster address
 * of the CTA is its shared::cta address:
 * mapa{.shared::cluster}.type d, a, rank: rank 0 maps a to itself; other ranks name no CTA.
 * getctarank{.shared::cluster}.type d, a: 0 for this CTA's shared memory (generic addresses
 * must lie in the shared window). type = .u32 / .u64; aux[0] = 1 for .shared::cluster. */
static int exec_cluster_addr(exec_warp *w, const exec_insn *in, uint32_t lane, uint64_t a,
                             const char *what)
{
    uint64_t sa = a;
    if (!in->aux[0] && mem_generic_decode(a, &sa) != PTX_SPACE_SHARED) {
        exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, (int)lane, PTX_SPACE_GENERIC, a, 0,
                   "%s: generic address 0x%" PRIx64 " is not in shared memory", what, a);
        return -1;
    }
    if (sa >= w->cta->shared_size) {
        exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, (int)lane, PTX_SPACE_SHARED_CLUSTER, sa, 0,
                   "%s: shared::cluster address 0x%" PRIx64 " belongs to no CTA of the cluster "
                   "(this CTA has %" PRIu64 " bytes of shared memory)", what, sa,
                   w->cta->shared_size);
        return -1;
    }
    return 0;
}

static int exec_mapa_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    if (w->m->cl)   /* clusters of several CTAs */
        return exec_cluster_addr_fn(w, in, m, 1);
    EXEC_FOR_LANES(i, m) {
        uint64_t a = exec_lane_val(w, in, 1, i), r = exec_lane_val(w, in, 2, i);
        if (r != 0) {
            exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, (int)i, PTX_SPACE_SHARED_CLUSTER, a, 0,
                       "mapa: no such CTA in cluster: rank %" PRIu64 " (every CTA runs as a "
                       "cluster of one here, %%cluster_nctarank = 1)", r);
            return EXEC_STOPPED;
        }
        if (exec_cluster_addr(w, in, i, a, "mapa"))
            return EXEC_STOPPED;
        exec_async_set(w, in, 0, i, a);
    }
    return EXEC_NEXT;
}

static int exec_getctarank_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    if (w->m->cl)
        return exec_cluster_addr_fn(w, in, m, 0);
    EXEC_FOR_LANES(i, m) {
        if (exec_cluster_addr(w, in, i, exec_lane_val(w, in, 1, i), "getctarank"))
            return EXEC_STOPPED;
        exec_async_set(w, in, 0, i, 0);
    }
    return EXEC_NEXT;
}

static int exec_dec_cluster(exec_dec *d, const ptx_insn *pi, exec_insn *in, int mapa)
{
    ptx_type t = PTX_T_NONE;
    for (int i = 0; i < pi->nmods; i++) {
        const char *s = pi->mods[i];
        if (!strcmp(s, "shared::cluster"))
            in->aux[0] = 1;
        else if (!strcmp(s, "u32") || !strcmp(s, "u64"))
            t = ptx_type_from_name(s);
        else
            return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
    }
    if (t == PTX_T_NONE || pi->nops != 2 + mapa)
        return exec_dec_error(d, pi, mapa ? "expected mapa{.shared::cluster}.{u32,u64} d, a, rank"
                              : "expected getctarank{.shared::cluster}.{u32,u64} d, a");
    if (exec_dec_dst(d, in, 0, &pi->ops[0], mapa ? t : PTX_T_U32) ||
        exec_dec_src(d, in, 1, &pi->ops[1], t) ||
        (mapa && exec_dec_src(d, in, 2, &pi->ops[2], PTX_T_U32)))
        return -1;
    in->fn = mapa ? exec_mapa_fn : exec_getctarank_fn;
    return 0;
}

int exec_dec_mapa(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_cluster(d, pi, in, 1); }
int exec_dec_getctarank(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_cluster(d, pi, in, 0); }

/* ---- setmaxnreg / multimem -------------------------------------------------------------------
 * setmaxnreg.{inc,dec}.sync.aligned.u32 N: a register-budget hint for the warpgroup; N must be
 * a constant in 24..256 and a multiple of 8 (checked at load). Registers are not a limited
 * resource here, so it has no effect.
 * multimem.*: needs multicast memory objects (several GPUs' memory behind one address),
 * which are not modelled: rejected at load. */
int exec_dec_setmaxnreg(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    int act = 0;
    for (int i = 0; i < pi->nmods; i++) {
        const char *s = pi->mods[i];
        if (!strcmp(s, "inc") || !strcmp(s, "dec"))
            act = 1;
        else if (strcmp(s, "sync") && strcmp(s, "aligned") && strcmp(s, "u32"))
            return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
    }
    if (!act || pi->nops != 1 || pi->ops[0].kind != PTX_OP_IMM)
        return exec_dec_error(d, pi, "expected setmaxnreg.{inc,dec}.sync.aligned.u32 N "
                              "(N a constant)");
    int64_t n = pi->ops[0].ival;
    if (n < 24 || n > 256 || n % 8)
        return exec_dec_error(d, pi, "register count %" PRId64 " must be in 24..256 and a "
                              "multiple of 8", n);
    in->fn = exec_cp_nop_fn;
    return 0;
}

int exec_dec_multimem(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    (void)in;
    return exec_dec_error(d, pi, "multimem requires multicast memory objects, which ptxdbg "
                          "does not model");
}
