/* exec_sync.c - barriers, fences, atomics, warp votes/shuffles/matches/reductions, elect. */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "exec_core.h"
#include "exec_fp.h"

/* ---- operand helpers -------------------------------------------------------------------------*/
static void exec_opset(exec_warp *w, const exec_insn *in, int k, uint32_t lane, uint64_t v)
{
    const exec_opnd *o = &in->op[k];
    if (o->kind == EXEC_O_PRED) {
        exec_pred_set(w, o, v ? EXEC_FULL : 0, 1u << lane);
        return;
    }
    if (o->kind != EXEC_O_REG)
        return;
    void *p = EXEC_R(w)->regs + o->off;
    switch (ptx_type_bits((ptx_type)o->type)) {
    case 8:  ((uint8_t *)p)[lane] = (uint8_t)v; break;
    case 16: ((uint16_t *)p)[lane] = (uint16_t)v; break;
    case 32: ((uint32_t *)p)[lane] = (uint32_t)v; break;
    default: ((uint64_t *)p)[lane] = v; break;
    }
}

static int exec_has_mod(const ptx_insn *pi, const char *s) { return ptx_insn_has_mod(pi, s); }

/* ---- CTA barriers ----------------------------------------------------------------------------
 * bar{.cta}.sync / barrier{.cta}.sync{.aligned} a{, b}; bar.arrive a, b;
 * bar.red.popc.u32 d, a{, b}, {!}c; bar.red.{and,or}.pred p, a{, b}, {!}c.
 * op[0] = d, op[1] = a, op[2] = b (or NONE), op[3] = c; aux[1] = 0 sync, 1 arrive, 2 red;
 * aux[2] = 0 popc, 1 and, 2 or. Counts are in threads; without b every live thread of the
 * CTA; threads that exited do not count. */
static int exec_bar_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    exec_machine *mc = w->m;
    uint32_t l0 = (uint32_t)exec_ctz(m);
    uint64_t id = exec_lane_val(w, in, 1, l0);
    uint64_t cnt = in->op[2].kind != EXEC_O_NONE ? exec_lane_val(w, in, 2, l0) : 0;
    if (id >= EXEC_NBAR) {
        exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, (int)l0, PTX_SPACE_NONE, 0, 0,
                   "barrier number %" PRIu64 " out of range 0..15", id);
        exec_obs_misuse(w, in, (int)l0, EXEC_MISUSE_BAR, (int)(id > 0x7fffffff ? -1 : (int)id),
                        (uint32_t)cnt, 0);
        return EXEC_STOPPED;
    }
    if (in->op[2].kind != EXEC_O_NONE && (cnt == 0 || cnt % 32 != 0 || cnt > 1024)) {
        exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, (int)l0, PTX_SPACE_NONE, 0, 0,
                   "barrier thread count %" PRIu64 " is not a non-zero multiple of the warp "
                   "size (32) up to 1024", cnt);
        exec_obs_misuse(w, in, (int)l0, EXEC_MISUSE_BAR, (int)id,
                        cnt > UINT32_MAX ? UINT32_MAX : (uint32_t)cnt, 0);
        return EXEC_STOPPED;
    }
    exec_bar *br = &mc->cta.bar[id];
    if (!br->arrived) {
        memset(br->pend, 0, sizeof br->pend);
        br->warped = 0;
        br->expected = (uint32_t)cnt;
        br->red_popc = 0;
        br->red_and = 1;
        br->red_or = 0;
    }
    br->arrived += (uint32_t)exec_popc(m);
    br->pend[w->id % EXEC_CTA_WARPS] |= m;
    if (EXEC_OBS_SYNC_ON(mc)) {
        exec_sync_ev ev = { .kind = EXEC_SYNC_BAR_ARRIVE, .cta = w->cta->id, .warp = w->id,
                            .pc = in->pc, .lanes = m, .id = (int)id, .count = (uint32_t)cnt,
                            .op = (uint8_t)in->aux[1], .what = in->src ? in->src->opcode : "" };
        exec_obs_sync_ev(mc, &ev);
    }
    if (in->aux[1] == 2) {
        uint32_t c = exec_pred_get(w, &in->op[3]) & m;
        br->red_popc += (uint32_t)exec_popc(c);
        br->red_and &= c == m;
        br->red_or |= c != 0;
    }
    if (in->aux[1] == 1) { /* arrive: no wait */
        exec_bar_check(mc);
        return EXEC_NEXT;
    }
    EXEC_FOR_LANES(i, m) {
        w->lane_bar[i] = (int8_t)id;
        w->pc[i] = in->pc + 1;
    }
    w->bar_wait |= m;
    uint32_t rest = w->cur_mask & ~m;
    w->cur_mask = 0;
    exec_bar_check(mc); /* may release these lanes at once */
    EXEC_FOR_LANES(i, rest)
        w->pc[i] = in->pc + 1;
    w->resched = 1;
    w->npc = in->pc + 1;
    return EXEC_JUMPED;
}

static int exec_warpsync_fn(exec_warp *w, const exec_insn *in, uint32_t m);

int exec_dec_bar(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    int red = exec_has_mod(pi, "red"), arrive = exec_has_mod(pi, "arrive");
    if (exec_has_mod(pi, "cluster"))
        return exec_dec_barrier_cluster(d, pi, in);   /* barrier.cluster (exec_cluster.c) */
    if (exec_has_mod(pi, "warp")) {
        if (pi->nops != 1 || exec_dec_src(d, in, 5, &pi->ops[0], PTX_T_B32))
            return pi->nops != 1 ? exec_dec_error(d, pi, "expected bar.warp.sync membermask") : -1;
        in->aux[0] = 0;
        in->fn = exec_warpsync_fn;
        return 0;
    }
    int k = 0;
    in->aux[1] = red ? 2 : arrive ? 1 : 0;
    if (red) {
        if (exec_has_mod(pi, "popc")) {
            in->aux[2] = 0;
            if (exec_dec_dst(d, in, 0, &pi->ops[k++], PTX_T_U32))
                return -1;
        } else {
            in->aux[2] = exec_has_mod(pi, "and") ? 1 : 2;
            if (!exec_has_mod(pi, "and") && !exec_has_mod(pi, "or"))
                return exec_dec_error(d, pi, "expected .popc, .and or .or");
            if (exec_dec_pdst(d, in, 0, &pi->ops[k++]))
                return -1;
        }
    }
    int rest = pi->nops - k - (red ? 1 : 0);
    if (rest < 1 || rest > 2 || (arrive && rest != 2))
        return exec_dec_error(d, pi, "bad operands");
    /* PTX ISA: the barrier number is 0..15; a thread count b must be a non-zero multiple of the
     * warp size (at most a CTA's 1024 threads). Immediates are checked here; registers when the
     * barrier runs. */
    const ptx_operand *ida = &pi->ops[k], *cnta = rest == 2 ? &pi->ops[k + 1] : NULL;
    if (ida->kind == PTX_OP_IMM && (ida->ival < 0 || ida->ival >= EXEC_NBAR))
        return exec_dec_error(d, pi, "barrier number %lld is out of range 0..15",
                              (long long)ida->ival);
    if (cnta && cnta->kind == PTX_OP_IMM &&
        (cnta->ival <= 0 || cnta->ival % 32 != 0 || cnta->ival > 1024))
        return exec_dec_error(d, pi, "barrier thread count %lld must be a non-zero multiple of "
                              "the warp size (32), at most 1024", (long long)cnta->ival);
    if (exec_dec_src(d, in, 1, &pi->ops[k++], PTX_T_U32))
        return -1;
    if (rest == 2 && exec_dec_src(d, in, 2, &pi->ops[k++], PTX_T_U32))
        return -1;
    if (red && exec_dec_psrc(d, in, 3, &pi->ops[k++]))
        return -1;
    if (in->nops < 4)
        in->nops = 4;
    in->fn = exec_bar_fn;
    return 0;
}

/* membar / fence: the emulator runs one thread group at a time and every access completes
 * before the next, so memory is sequentially consistent: fences only order, no effect. */
static int exec_fence_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    if (EXEC_OBS_SYNC_ON(w->m)) {   /* observers learn the scope (racecheck orders by it) */
        static const char *const names[] = { "cta", "cluster", "gpu", "sys", "gl" };
        static const uint8_t scopes[] = { EXEC_SCOPE_CTA, EXEC_SCOPE_CLUSTER, EXEC_SCOPE_GPU,
                                          EXEC_SCOPE_SYS, EXEC_SCOPE_GPU };
        exec_sync_ev ev = { .kind = EXEC_SYNC_FENCE, .cta = w->cta->id, .warp = w->id,
                            .pc = in->pc, .lanes = m, .scope = EXEC_SCOPE_GPU,
                            .what = in->src ? in->src->opcode : "fence" };
        for (int i = 0; in->src && i < in->src->nmods; i++)
            for (int k = 0; k < 5; k++)
                if (!strcmp(in->src->mods[i], names[k]))
                    ev.scope = scopes[k];
        exec_obs_sync_ev(w->m, &ev);
    }
    return EXEC_NEXT;
}

static int exec_is_scope(const char *s)
{
    return !strcmp(s, "cta") || !strcmp(s, "cluster") || !strcmp(s, "gpu") || !strcmp(s, "sys");
}

/* The forms of fence (qualifiers in `m`, n of them); NULL when valid, else what is wrong.
 *   fence{.sem}{.sync_restrict::shared::{cta,cluster}}.scope   .sem = .sc .acq_rel .acquire .release
 *   fence.op_restrict.release.cluster      fence.mbarrier_init.release.cluster
 *   fence.proxy.alias   fence.proxy.async{.global, .shared::cta, .shared::cluster}
 *   fence.proxy.tensormap::generic.release.scope
 *   fence.proxy.tensormap::generic.acquire.scope [addr], 128
 *   fence.proxy.async::generic.{acquire,release}.sync_restrict::shared::{cta,cluster}.cluster */
static const char *exec_fence_form(const char *const *m, int n, int nops)
{
    int k = 0;
    if (n == 0)
        return "missing scope";
    if (!strcmp(m[0], "op_restrict") || !strcmp(m[0], "mbarrier_init"))
        return n == 3 && !strcmp(m[1], "release") && !strcmp(m[2], "cluster") && !nops
               ? NULL : "expected .release.cluster";
    if (!strcmp(m[0], "proxy")) {
        if (n == 2 && !strcmp(m[1], "alias"))
            return nops ? "takes no operands" : NULL;
        if (n >= 2 && !strcmp(m[1], "async") && !nops)
            return n == 2 || (n == 3 && (!strcmp(m[2], "global") || !strcmp(m[2], "shared::cta") ||
                                         !strcmp(m[2], "shared::cluster")))
                   ? NULL : "expected .async{.global,.shared::cta,.shared::cluster}";
        if (n == 4 && !strcmp(m[1], "tensormap::generic") && exec_is_scope(m[3])) {
            if (!strcmp(m[2], "release"))
                return nops ? "the release form takes no operands" : NULL;
            if (!strcmp(m[2], "acquire"))
                return nops == 2 ? NULL : "expected [addr], 128";
        }
        if (n == 4 && !strcmp(m[1], "async::generic") &&
            (!strcmp(m[2], "acquire") || !strcmp(m[2], "release")) &&
            (!strcmp(m[3], "sync_restrict::shared::cluster") ||
             !strcmp(m[3], "sync_restrict::shared::cta")))
            return "missing .cluster scope";
        if (n == 5 && !strcmp(m[1], "async::generic") &&
            (!strcmp(m[2], "acquire") || !strcmp(m[2], "release")) &&
            (!strcmp(m[3], "sync_restrict::shared::cluster") ||
             !strcmp(m[3], "sync_restrict::shared::cta")) && !strcmp(m[4], "cluster"))
            return nops ? "takes no operands" : NULL;
        return "unknown proxy fence";
    }
    int sem = !strcmp(m[k], "sc") || !strcmp(m[k], "acq_rel") || !strcmp(m[k], "acquire") ||
              !strcmp(m[k], "release");
    int ar = sem && (!strcmp(m[k], "acquire") || !strcmp(m[k], "release"));
    k += sem;
    if (k < n && (!strcmp(m[k], "sync_restrict::shared::cta") ||
                  !strcmp(m[k], "sync_restrict::shared::cluster"))) {
        if (!ar)
            return ".sync_restrict needs .acquire or .release";
        k++;
    }
    if (k != n - 1 || !exec_is_scope(m[k]))
        return k < n && !exec_is_scope(m[k]) && k == n - 1 ? "unknown scope"
                                                           : "expected one scope";
    return nops ? "takes no operands" : NULL;
}

/* membar.{cta,gl,sys} / membar.proxy.alias and the fence forms above. */
int exec_dec_membar(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    const char *why = NULL;
    if (pi->opc == PTX_OPC_membar) {
        if (pi->nmods == 1 && (!strcmp(pi->mods[0], "cta") || !strcmp(pi->mods[0], "gl") ||
                               !strcmp(pi->mods[0], "sys")))
            why = pi->nops ? "takes no operands" : NULL;
        else if (pi->nmods == 2 && !strcmp(pi->mods[0], "proxy") && !strcmp(pi->mods[1], "alias"))
            why = pi->nops ? "takes no operands" : NULL;
        else
            why = "expected membar.cta, .gl, .sys or .proxy.alias";
    } else {
        why = exec_fence_form(pi->mods, pi->nmods, pi->nops);
    }
    if (why)
        return exec_dec_error(d, pi, "%s", why);
    in->fn = exec_fence_fn;
    return 0;
}

/* griddepcontrol.launch_dependents / griddepcontrol.wait: one grid at a time runs here, so
 * there is nothing to wait for and no dependent grid to launch early. */
int exec_dec_griddepcontrol(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    if (pi->nmods != 1 || pi->nops ||
        (strcmp(pi->mods[0], "launch_dependents") && strcmp(pi->mods[0], "wait")))
        return exec_dec_error(d, pi, "expected griddepcontrol.launch_dependents or "
                              "griddepcontrol.wait");
    in->fn = exec_fence_fn;
    return 0;
}

/* ---- atomics -------------------------------------------------------------------------------
 * atom{.sem}{.scope}{.space}.op.type d, [a], b{, c}; red{...}.op.type [a], b.
 * Lanes are applied one after the other in lane order. aux[0] = op, in->type = type;
 * op[0] = d (SINK for red), op[1] = b, op[2] = c; address as in exec_mem.c. */
enum { AT_ADD, AT_MIN, AT_MAX, AT_INC, AT_DEC, AT_AND, AT_OR, AT_XOR, AT_EXCH, AT_CAS };

static uint16_t exec_h_add(uint16_t a, uint16_t b, const exec_fmt *f)
{
    double x = exec_fp_to_double(f, a) + exec_fp_to_double(f, b);
    return (uint16_t)exec_fp_from_double(f, x, EXEC_RN, 0);
}

static float exec_ftz_f(float f)
{
    return fabsf(f) < 1.17549435e-38f ? copysignf(0.0f, f) : f;
}

static uint64_t exec_atom_apply(int op, ptx_type t, uint64_t old, uint64_t b, uint64_t c,
                                int ftz)
{
    int bits = ptx_type_bits(t);
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    int sgn = ptx_type_is_signed(t);
    int64_t so = sgn ? (bits == 32 ? (int64_t)(int32_t)old : (int64_t)old) : 0;
    int64_t sb = sgn ? (bits == 32 ? (int64_t)(int32_t)b : (int64_t)b) : 0;
    switch (op) {
    case AT_ADD:
        if (t == PTX_T_F32) {
            float x = exec_u2f((uint32_t)old), y = exec_u2f((uint32_t)b);
            if (ftz) {
                x = exec_ftz_f(x);
                y = exec_ftz_f(y);
            }
            float r = x + y;
            return exec_f2u(ftz ? exec_ftz_f(r) : r);
        }
        if (t == PTX_T_F64)
            return exec_d2u(exec_u2d(old) + exec_u2d(b));
        if (t == PTX_T_F16)
            return exec_h_add((uint16_t)old, (uint16_t)b, &exec_fmt_f16);
        if (t == PTX_T_BF16)
            return exec_h_add((uint16_t)old, (uint16_t)b, &exec_fmt_bf16);
        if (t == PTX_T_F16X2 || t == PTX_T_BF16X2) {
            const exec_fmt *f = t == PTX_T_F16X2 ? &exec_fmt_f16 : &exec_fmt_bf16;
            return exec_h_add((uint16_t)old, (uint16_t)b, f) |
                   (uint64_t)exec_h_add((uint16_t)(old >> 16), (uint16_t)(b >> 16), f) << 16;
        }
        return (old + b) & mask;
    case AT_MIN:
        if (t == PTX_T_F32 || t == PTX_T_F64)
            return b; /* not reached: rejected at decode */
        return sgn ? (uint64_t)(so < sb ? so : sb) & mask : (old < b ? old : b);
    case AT_MAX:
        return sgn ? (uint64_t)(so > sb ? so : sb) & mask : (old > b ? old : b);
    case AT_INC: return old >= b ? 0 : (old + 1) & mask;
    case AT_DEC: return (old == 0 || old > b) ? b : old - 1;
    case AT_AND: return old & b;
    case AT_OR:  return old | b;
    case AT_XOR: return old ^ b;
    case AT_EXCH: return b;
    default:     return old == b ? c : old; /* CAS */
    }
}

/* Whether an atom/red's effect on memory is the same in any order and its old value is not
 * used: integer add/min/max/and/or/xor (32/64-bit) into `_` (red, or atom with a sink). exch,
 * cas, inc and dec give different final values in different orders. */
static int exec_atom_fn(exec_warp *w, const exec_insn *in, uint32_t m);
int exec_atom_par_ok(const exec_insn *in)
{
    ptx_type t = (ptx_type)in->type;
    int op = (int)in->flags;
    int bits = ptx_type_bits(t);
    return (in->fn == exec_atom_fn || in->real == exec_atom_fn) && in->op[0].kind == EXEC_O_SINK && !ptx_type_is_float(t) &&
           (bits == 32 || bits == 64) &&
           (op == AT_ADD || op == AT_MIN || op == AT_MAX || op == AT_AND || op == AT_OR ||
            op == AT_XOR);
}

static int exec_atom_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint64_t addr[EXEC_LANES];
    ptx_type t = (ptx_type)in->type;
    uint32_t n = (uint32_t)ptx_type_bits(t) / 8;
    int op = (int)in->flags;
    exec_addr_lanes(w, in, m, addr);
    EXEC_FOR_LANES(i, m) {
        ptx_space sp = (ptx_space)(in->aux[3] & 0xff);
        uint64_t a = addr[i], sa = a;
        if (sp == PTX_SPACE_GENERIC)
            sp = mem_generic_decode(a, &sa);
        if (sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_SHARED) {
            exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, (int)i, sp, a, n,
                       "atomic on %s address 0x%" PRIx64 " (only global and shared)",
                       ptx_space_name(sp), a);
            return EXEC_STOPPED;
        }
        /* parallel workers claim order-independent reductions as such (exec_par.c) */
        int par_red = w->m->is_worker && sp == PTX_SPACE_GLOBAL && exec_atom_par_ok(in);
        uint8_t *h = mem_xlate(w, in, (int)i, sp, sa, n,
                                par_red ? EXEC_ACC_RED : EXEC_ACC_ATOMIC);
        if (!h)
            return EXEC_STOPPED;
        uint64_t old = 0;
        uint64_t b = exec_lane_val(w, in, 1, i), c = op == AT_CAS ? exec_lane_val(w, in, 2, i) : 0;
        if (par_red) {
            /* CTAs run in parallel (exec_workers.c): an order-independent integer update whose
             * old value nobody reads, applied with a host atomic */
            if (n == 4) {
                uint32_t o32 = __atomic_load_n((uint32_t *)(void *)h, __ATOMIC_RELAXED), n32;
                do
                    n32 = (uint32_t)exec_atom_apply(op, t, o32, b, c, 1);
                while (!__atomic_compare_exchange_n((uint32_t *)(void *)h, &o32, n32, 1,
                                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED));
            } else {
                uint64_t o64 = __atomic_load_n((uint64_t *)(void *)h, __ATOMIC_RELAXED), n64;
                do
                    n64 = exec_atom_apply(op, t, o64, b, c, 1);
                while (!__atomic_compare_exchange_n((uint64_t *)(void *)h, &o64, n64, 1,
                                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED));
            }
            continue;
        }
        memcpy(&old, h, n);
        uint64_t nv = exec_atom_apply(op, t, old, b, c, sp == PTX_SPACE_GLOBAL);
        memcpy(h, &nv, n);
        exec_opset(w, in, 0, i, old);
    }
    return EXEC_NEXT;
}

static int exec_dec_atomic(exec_dec *d, const ptx_insn *pi, exec_insn *in, int red)
{
    static const char *const ops[] = { "add", "min", "max", "inc", "dec", "and", "or", "xor",
                                       "exch", "cas" };
    int op = -1;
    ptx_space sp = PTX_SPACE_GENERIC;
    ptx_type t = PTX_T_NONE;
    int hint = 0;
    for (int i = 0; i < pi->nmods; i++) {
        const char *s = pi->mods[i];
        int k;
        for (k = 0; k < 10; k++)
            if (strcmp(s, ops[k]) == 0)
                break;
        if (k < 10) {
            op = k;
            continue;
        }
        ptx_type tt = ptx_type_from_name(s);
        if (tt != PTX_T_NONE) {
            t = tt;
            continue;
        }
        if (!strcmp(s, "global")) sp = PTX_SPACE_GLOBAL;
        else if (!strcmp(s, "shared") || !strcmp(s, "shared::cta") || !strcmp(s, "shared::cluster"))
            sp = PTX_SPACE_SHARED;
        else if (!strcmp(s, "L2::cache_hint")) hint = 1;
        else if (strcmp(s, "relaxed") && strcmp(s, "acquire") && strcmp(s, "release") &&
                 strcmp(s, "acq_rel") && strcmp(s, "cta") && strcmp(s, "gpu") &&
                 strcmp(s, "sys") && strcmp(s, "cluster") && strcmp(s, "noftz"))
            return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
    }
    if (op < 0 || t == PTX_T_NONE)
        return exec_dec_error(d, pi, "missing operation or type");
    int bits = ptx_type_bits(t), fl = ptx_type_is_float(t);
    if ((bits != 16 && bits != 32 && bits != 64) || (fl && op != AT_ADD) ||
        (bits == 16 && op != AT_CAS && !(fl && op == AT_ADD)) ||
        ((op == AT_INC || op == AT_DEC) && t != PTX_T_U32))
        return exec_dec_error(d, pi, "unsupported operation/type combination");
    int want = (red ? 2 : 3) + (op == AT_CAS ? 1 : 0) + hint;
    if (pi->nops != want)
        return exec_dec_error(d, pi, "expected %d operands", want);
    in->type = (uint8_t)t;
    in->flags = (uint8_t)op;
    int k = 0;
    if (red) {
        in->op[0].kind = EXEC_O_SINK;
    } else if (exec_dec_dst(d, in, 0, &pi->ops[k++], t)) {
        return -1;
    }
    if (exec_dec_address(d, pi, in, &pi->ops[k++], sp))
        return -1;
    if (exec_dec_src(d, in, 1, &pi->ops[k++], t))
        return -1;
    if (op == AT_CAS && exec_dec_src(d, in, 2, &pi->ops[k++], t))
        return -1;
    ptx_space vs = (ptx_space)(in->aux[3] & 0xff);
    if (vs != PTX_SPACE_GLOBAL && vs != PTX_SPACE_SHARED && vs != PTX_SPACE_GENERIC)
        return exec_dec_error(d, pi, "atomics need global, shared or generic addresses");
    in->fn = exec_atom_fn;
    return 0;
}

int exec_dec_atom(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_atomic(d, pi, in, 0); }
int exec_dec_red(exec_dec *d, const ptx_insn *pi, exec_insn *in) { return exec_dec_atomic(d, pi, in, 1); }

/* ---- warp-synchronous operations -------------------------------------------------------------
 * Common layout: op[0] = d (value or predicate), op[1] = optional predicate output, op[2..4] =
 * sources a, b, c, op[5] = membermask (NONE: the executing lanes, deprecated non-.sync forms).
 * aux[0] = kind, aux[1] = mode. The membermask is per lane: the lanes of a group that name the
 * same mask form one synchronisation set (exec_ws_run). A set whose membermask names lanes that
 * are live elsewhere waits (ws_wait) until they arrive at a warp-synchronous instruction of the
 * same kind with the same mask; the waiting lanes then execute jointly: each lane's operands
 * come from its own frame and instruction. Lanes of the mask that exited take no part (PTX
 * ISA: the instruction waits for the non-exited threads of membermask); lanes that do not exist
 * (past the end of a partial warp) count as exited, as on the hardware. */
enum { WS_SYNC, WS_VOTE, WS_SHFL, WS_MATCH, WS_REDUX, WS_ELECT };

typedef struct {
    uint64_t a[EXEC_LANES], b[EXEC_LANES], c[EXEC_LANES], d[EXEC_LANES];
    uint32_t q1;              /* predicate output of op[1] */
    uint32_t mask;            /* the membermask of the set exec_ws_core computes */
    uint32_t undef;           /* shfl: lanes whose source lane the mask names took no part */
    uint32_t undef_src;       /* ... and those source lanes */
    int first_src;            /* the first such reader's source lane */
} exec_wsbuf;

static void exec_ws_load(exec_warp *w, const exec_insn *in, uint32_t lanes, exec_wsbuf *b,
                         int all_a)
{
    uint32_t la = all_a ? EXEC_FULL : lanes;
    if (in->op[2].kind != EXEC_O_NONE)
        EXEC_FOR_LANES(i, la)
            b->a[i] = exec_lane_val(w, in, 2, i);
    if (in->op[3].kind != EXEC_O_NONE)
        EXEC_FOR_LANES(i, lanes)
            b->b[i] = exec_lane_val(w, in, 3, i);
    if (in->op[4].kind != EXEC_O_NONE)
        EXEC_FOR_LANES(i, lanes)
            b->c[i] = exec_lane_val(w, in, 4, i);
}

static void exec_ws_store(exec_warp *w, const exec_insn *in, uint32_t lanes, const exec_wsbuf *b)
{
    if (in->op[0].kind == EXEC_O_PRED || in->op[0].kind == EXEC_O_REG)
        EXEC_FOR_LANES(i, lanes)
            exec_opset(w, in, 0, i, b->d[i]);
    if (in->op[1].kind == EXEC_O_PRED)
        exec_pred_set(w, &in->op[1], b->q1, lanes);
}

/* Compute the operation (spec pseudo code) over the participating lanes `part` (the live lanes
 * of the membermask that execute it) for the lanes `out` that executed it: each lane of `out`
 * gets the result its own mask gives, also when it is not in its mask (undefined in the ISA;
 * the hardware computes it over the mask's lanes). */
static void exec_ws_core(const exec_insn *in, uint32_t part, uint32_t out, exec_wsbuf *b)
{
    int mode = (int)in->aux[1];
    switch (in->aux[0]) {
    case WS_VOTE: {
        uint32_t p = 0;
        EXEC_FOR_LANES(i, part)
            p |= (uint32_t)(b->a[i] & 1) << i;
        uint64_t r;
        switch (mode) {
        case 0: r = p == part; break;               /* .all */
        case 1: r = p != 0; break;                  /* .any */
        case 2: r = p == part || p == 0; break;     /* .uni */
        default: r = p; break;                      /* .ballot */
        }
        EXEC_FOR_LANES(i, out)
            b->d[i] = r;
        break;
    }
    case WS_SHFL: {
        uint64_t src[EXEC_LANES];
        memcpy(src, b->a, sizeof src);
        EXEC_FOR_LANES(lane, out) {
            uint32_t bval = (uint32_t)b->b[lane] & 31, cval = (uint32_t)b->c[lane] & 31;
            uint32_t seg = ((uint32_t)b->c[lane] >> 8) & 31;
            int32_t maxl = (int32_t)((lane & seg) | (cval & ~seg)), minl = (int32_t)(lane & seg);
            int32_t j;
            int pval;
            switch (mode) {
            case 0: j = (int32_t)lane - (int32_t)bval; pval = j >= maxl; break;     /* up */
            case 1: j = (int32_t)lane + (int32_t)bval; pval = j <= maxl; break;     /* down */
            case 2: j = (int32_t)(lane ^ bval); pval = j <= maxl; break;            /* bfly */
            default: j = minl | (int32_t)(bval & ~seg); pval = j <= maxl; break;    /* idx */
            }
            if (!pval)
                j = (int32_t)lane;
            else if (!((part >> (j & 31)) & 1) && ((b->mask >> (j & 31)) & 1)) {
                /* a source lane the mask names that exited, is no thread, or takes no part:
                   undefined (sources outside the mask are undefined too, but NVIDIA's own
                   reduction sample reads them: not reported) */
                if (!b->undef)
                    b->first_src = j & 31;
                b->undef |= 1u << lane;
                b->undef_src |= 1u << (j & 31);
            }
            b->d[lane] = src[j & 31];
            b->q1 = (b->q1 & ~(1u << lane)) | ((uint32_t)pval << lane);
        }
        break;
    }
    case WS_MATCH:
        if (mode == 0) { /* any */
            EXEC_FOR_LANES(i, out) {
                uint32_t r = 0;
                EXEC_FOR_LANES(j, part)
                    if (b->a[j] == b->a[i])
                        r |= 1u << j;
                b->d[i] = r;
            }
        } else {
            int same = 1;
            uint64_t v0 = part ? b->a[exec_ctz(part)] : 0;
            EXEC_FOR_LANES(i, part)
                same &= b->a[i] == v0;
            EXEC_FOR_LANES(i, out)
                b->d[i] = same ? part : 0;
            b->q1 = (b->q1 & ~out) | (same && part ? out : 0);
        }
        break;
    case WS_REDUX: {
        ptx_type t = (ptx_type)in->type;
        int sgn = ptx_type_is_signed(t);
        uint32_t acc = mode == 0 ? 0 : mode == 1 ? (sgn ? 0x7fffffffu : EXEC_FULL)
                     : mode == 2 ? (sgn ? 0x80000000u : 0) : mode == 3 ? EXEC_FULL : 0;
        EXEC_FOR_LANES(i, part) {
            uint32_t v = (uint32_t)b->a[i];
            switch (mode) {
            case 0: acc += v; break;
            case 1: acc = sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
            case 2: acc = sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
            case 3: acc &= v; break;
            case 4: acc |= v; break;
            default: acc ^= v; break;
            }
        }
        EXEC_FOR_LANES(i, out)
            b->d[i] = acc;
        break;
    }
    case WS_ELECT: {
        uint32_t leader = (uint32_t)exec_ctz(part ? part : out);
        EXEC_FOR_LANES(i, out)
            b->d[i] = leader;
        b->q1 = (b->q1 & ~out) | (1u << leader & out);
        break;
    }
    default:
        break;
    }
}

/* Load the sources of the waiting lanes `joiners` from their own frames and instructions
 * (lanes grouped by pc and frame), or store their results there (store = 1). */
static void exec_ws_joiners(exec_warp *w, uint32_t joiners, exec_wsbuf *b, int store)
{
    struct exec_warp_regs save = *EXEC_R(w);
    for (uint32_t left = joiners; left;) {
        uint32_t l = (uint32_t)exec_ctz(left), g = 0;
        EXEC_FOR_LANES(i, left)
            if (w->pc[i] == w->pc[l] && w->lframe[i] == w->lframe[l])
                g |= 1u << i;
        left &= ~g;
        w->r.regs = w->lframe[l]->regs;
        w->r.preds = w->lframe[l]->preds;
        if (store)
            exec_ws_store(w, &w->m->code[w->pc[l]], g, b);
        else
            exec_ws_load(w, &w->m->code[w->pc[l]], g, b, 0);
    }
    w->r.regs = save.regs;
    w->r.preds = save.preds;
}

/* The lanes of membermask `mask` that take part: threads that have not exited. */
static uint32_t exec_ws_live(const exec_warp *w, uint32_t mask)
{
    return mask & w->valid & ~w->exited;
}

/* Observers learn a completed warp-synchronous set: the lanes that took part, the membermask,
 * and the lanes it names that did not (exited, not threads of the CTA). */
static void exec_ws_done(exec_warp *w, const exec_insn *in, uint32_t lanes, uint32_t mask,
                         int op)
{
    exec_sync_ev ev = { .kind = EXEC_SYNC_WARP, .cta = w->cta->id, .warp = w->id,
                        .pc = in->pc, .lanes = lanes, .mask = mask, .absent = mask & ~lanes,
                        .op = (uint8_t)op, .what = in->src ? in->src->opcode : "" };
    exec_obs_sync_ev(w->m, &ev);
}

/* Shuffle lanes of the set with `mask` read lanes that took no part (b->undef, exec_ws_core):
 * observers hear it as EXEC_WS_SRC_ABSENT; the marks are cleared for the next set. */
static void exec_ws_src_note(exec_warp *w, const exec_insn *in, exec_wsbuf *b, uint32_t mask)
{
    if (b->undef && EXEC_OBS_SYNC_ON(w->m)) {
        exec_sync_ev e = { .kind = EXEC_SYNC_WARP_UNDEFINED, .cta = w->cta->id, .warp = w->id,
                           .pc = in->pc, .lanes = b->undef, .mask = mask,
                           .absent = b->undef_src, .id = b->first_src,
                           .op = (uint8_t)EXEC_WS_SRC_ABSENT,
                           .what = in->src ? in->src->opcode : "" };
        exec_obs_sync_ev(w->m, &e);
    }
    b->undef = b->undef_src = 0;
}

/* Lanes of warp w exited: a set of lanes waiting in a warp-synchronous instruction whose
 * membermask's remaining live lanes are now all waiting (same kind of instruction, same mask)
 * completes without them, as exec_ws_run would have completed it had they exited earlier. */
void exec_ws_exited(exec_warp *w)
{
    uint32_t left = w->ws_wait;
    while (left) {
        uint32_t l = (uint32_t)exec_ctz(left), need = w->ws_need[l], g = 0;
        const exec_insn *in = &w->m->code[w->pc[l]];
        EXEC_FOR_LANES(i, left)
            if (w->ws_need[i] == need && w->m->code[w->pc[i]].opc == in->opc &&
                w->m->code[w->pc[i]].aux[0] == in->aux[0])
                g |= 1u << i;
        left &= ~g;
        uint32_t live = exec_ws_live(w, need);
        if (live & ~g)
            continue;                /* still waits for live lanes */
        if (in->aux[0] != WS_SYNC) {
            exec_wsbuf b;
            memset(&b, 0, sizeof b);
            exec_ws_joiners(w, g, &b, 0);
            b.mask = need;
            exec_ws_core(in, live & g, g, &b);
            exec_ws_joiners(w, g, &b, 1);
            exec_ws_src_note(w, in, &b, need);
        }
        if (EXEC_OBS_SYNC_ON(w->m))
            exec_ws_done(w, in, g, need, EXEC_WS_DONE_EXITED);
        EXEC_FOR_LANES(i, g)
            w->pc[i]++;
        w->ws_wait &= ~g;
        w->resched = 1;
    }
}

/* Tell the sync seam's observers (a sync checker; exec_set_ws_hook) what the hardware
 * tolerates here. */
static void exec_ws_note(exec_warp *w, const exec_insn *in, exec_ws_event ev, uint32_t lanes,
                         uint32_t mask)
{
    if (!EXEC_OBS_SYNC_ON(w->m))
        return;
    exec_sync_ev e = { .kind = EXEC_SYNC_WARP_UNDEFINED, .cta = w->cta->id, .warp = w->id,
                       .pc = in->pc, .lanes = lanes, .mask = mask, .op = (uint8_t)ev,
                       .what = in->src ? in->src->opcode : "" };
    exec_obs_sync_ev(w->m, &e);
}

/* Execute a warp-synchronous instruction for the lanes `m`. Each lane names its own
 * membermask; lanes of `m` with the same mask value form one synchronisation set (e.g. the
 * tiles of a tiled_partition, the groups of a labeled_partition), run independently of the
 * other sets. A set whose mask names lanes that are neither executing the instruction now
 * (in any set) nor waiting at a warp-synchronous instruction of the same kind with the same
 * mask waits (ws_wait) for them; lanes of the mask that exited are left out, and when the last
 * live lane a set waits for exits, the set completes (exec_ws_exited). As on the hardware:
 * - lanes past the end of a partial warp do not exist and count as exited (EXEC_WS_ABSENT);
 * - lanes that execute the instruction together with different masks (HeCBench's bscan:
 *   __ballot_sync(lanemask_lt, p)) complete it together, each lane getting the result over
 *   its own mask's lanes (EXEC_WS_MASKS_DIFFER when a mask names lanes of another set);
 * - lanes outside their own mask get the result over the mask's lanes, for a shuffle the
 *   value of their source lane (EXEC_WS_NOT_MEMBER; HeCBench's btree moves half a node with
 *   __shfl_up_sync(0x0000ffff, v, 16) executed by the whole warp).
 * The ISA leaves these undefined; the hook (a sync checker) may report them. */
static int exec_ws_run(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint32_t l0 = (uint32_t)exec_ctz(m);
    uint32_t smask[EXEC_LANES], slanes[EXEC_LANES];
    int nset = 1;
    smask[0] = m;
    slanes[0] = m;
    if (in->op[5].kind != EXEC_O_NONE) {
        /* the decoder gives the b32 membermask as 32 contiguous lanes (immediates broadcast) */
        const uint32_t *mk = EXEC_SRC(w, in, 5);
        uint32_t diff = 0;
        smask[0] = mk[l0];
        if (in->op[5].kind != EXEC_O_IMM)
            EXEC_FOR_LANES(i, m)
                diff |= mk[i] ^ smask[0];
        if (diff) {
            nset = 0;
            for (uint32_t left = m; left;) {
                uint32_t l = (uint32_t)exec_ctz(left), v = mk[l], g = 0;
                EXEC_FOR_LANES(i, left)
                    g |= (uint32_t)(mk[i] == v) << i;
                left &= ~g;
                smask[nset] = v;
                slanes[nset++] = g;
            }
        }
    }
    for (int k = 0; k < nset && EXEC_OBS_SYNC_ON(w->m); k++) {
        if (smask[k] & ~w->valid)
            exec_ws_note(w, in, EXEC_WS_ABSENT, slanes[k], smask[k]);
        if (slanes[k] & ~smask[k] && in->op[5].kind != EXEC_O_NONE)
            exec_ws_note(w, in, EXEC_WS_NOT_MEMBER, slanes[k] & ~smask[k], smask[k]);
    }
    uint32_t part[EXEC_LANES], out[EXEC_LANES];
    uint32_t wait = 0, done = 0, joiners = 0;
    for (int k = 0; k < nset; k++) {
        /* only the non-exited threads of the mask take part (PTX ISA: "wait until all
           non-exited threads corresponding to membermask have executed ...") */
        uint32_t member = exec_ws_live(w, smask[k]), lanes = slanes[k], join = 0;
        /* waiting lanes that can join: same kind of instruction, naming the same mask */
        EXEC_FOR_LANES(i, w->ws_wait & member) {
            const exec_insn *wi = &w->m->code[w->pc[i]];
            if (wi->aux[0] == in->aux[0] && wi->opc == in->opc && w->ws_need[i] == smask[k])
                join |= 1u << i;
        }
        if (member & ~m & ~join) {
            /* wait for the others */
            EXEC_FOR_LANES(i, lanes)
                w->ws_need[i] = smask[k];
            wait |= lanes;
            part[k] = out[k] = 0;
            continue;
        }
        if (member & ~lanes & ~join)
            exec_ws_note(w, in, EXEC_WS_MASKS_DIFFER, lanes, smask[k]);
        part[k] = member;
        out[k] = lanes | join;
        done |= lanes;
        joiners |= join;
    }
    if (done && in->aux[0] != WS_SYNC) {
        exec_wsbuf b;
        memset(&b, 0, sizeof b);
        exec_ws_load(w, in, m, &b, 1);
        if (joiners)
            exec_ws_joiners(w, joiners, &b, 0);
        for (int k = 0; k < nset; k++)
            if (out[k]) {
                b.mask = smask[k];
                exec_ws_core(in, part[k], out[k], &b);
                exec_ws_src_note(w, in, &b, smask[k]);
            }
        exec_ws_store(w, in, done, &b);
        if (joiners)
            exec_ws_joiners(w, joiners, &b, 1);
    }
    if (EXEC_OBS_SYNC_ON(w->m))
        for (int k = 0; k < nset; k++)
            if (part[k])
                exec_ws_done(w, in, part[k] | (slanes[k] & done), smask[k], 0);
    if (!wait && !joiners)
        return EXEC_NEXT;
    EXEC_FOR_LANES(i, joiners)
        w->pc[i]++;
    w->ws_wait = (w->ws_wait & ~joiners) | wait;
    uint32_t rest = w->cur_mask & ~wait;
    EXEC_FOR_LANES(i, rest)
        w->pc[i] = in->pc + 1;
    EXEC_FOR_LANES(i, wait)
        w->pc[i] = in->pc;
    w->cur_mask = 0;
    w->resched = 1;
    w->npc = in->pc + 1;
    return EXEC_JUMPED;
}

static int exec_warpsync_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    return exec_ws_run(w, in, m);
}

static int exec_dec_mask(exec_dec *d, const ptx_insn *pi, exec_insn *in, int sync, int k)
{
    if (!sync)
        return 0;
    if (k >= pi->nops)
        return exec_dec_error(d, pi, "missing membermask");
    return exec_dec_src(d, in, 5, &pi->ops[k], PTX_T_B32);
}

/* The destination d[|p] of shfl and match: d (.b32) into op 0, the optional predicate p into
 * op 1 (a sink when absent). */
static int exec_dec_dst_pred(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    const ptx_operand *dst = &pi->ops[0];
    if (dst->kind == PTX_OP_PAIR) {
        if (exec_dec_dst(d, in, 0, &dst->elems[0], PTX_T_B32) ||
            exec_dec_pdst(d, in, 1, &dst->elems[1]))
            return -1;
        return 0;
    }
    if (exec_dec_dst(d, in, 0, dst, PTX_T_B32))
        return -1;
    in->op[1].kind = EXEC_O_SINK;
    return 0;
}

/* vote{.sync}.mode.pred d, {!}a{, membermask}; vote{.sync}.ballot.b32 d, {!}a{, membermask}. */
int exec_dec_vote(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    int sync = exec_has_mod(pi, "sync");
    int mode = exec_has_mod(pi, "all") ? 0 : exec_has_mod(pi, "any") ? 1
             : exec_has_mod(pi, "uni") ? 2 : exec_has_mod(pi, "ballot") ? 3 : -1;
    if (mode < 0 || pi->nops != 2 + sync)
        return exec_dec_error(d, pi, "expected vote.mode d, a%s", sync ? ", membermask" : "");
    in->aux[0] = WS_VOTE;
    in->aux[1] = mode;
    in->op[1].kind = EXEC_O_SINK;
    if ((mode == 3 ? exec_dec_dst(d, in, 0, &pi->ops[0], PTX_T_B32)
                   : exec_dec_pdst(d, in, 0, &pi->ops[0])) ||
        exec_dec_psrc(d, in, 2, &pi->ops[1]) || exec_dec_mask(d, pi, in, sync, 2))
        return -1;
    in->nops = 6;
    in->fn = exec_warpsync_fn;
    return 0;
}

/* shfl{.sync}.mode.b32 d[|p], a, b, c{, membermask} */
int exec_dec_shfl(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    int sync = exec_has_mod(pi, "sync");
    int mode = exec_has_mod(pi, "up") ? 0 : exec_has_mod(pi, "down") ? 1
             : exec_has_mod(pi, "bfly") ? 2 : exec_has_mod(pi, "idx") ? 3 : -1;
    if (mode < 0 || pi->nops != 4 + sync)
        return exec_dec_error(d, pi, "expected shfl.mode.b32 d[|p], a, b, c%s",
                              sync ? ", membermask" : "");
    in->aux[0] = WS_SHFL;
    in->aux[1] = mode;
    if (exec_dec_dst_pred(d, pi, in) || exec_dec_src(d, in, 2, &pi->ops[1], PTX_T_B32) ||
        exec_dec_src(d, in, 3, &pi->ops[2], PTX_T_B32) ||
        exec_dec_src(d, in, 4, &pi->ops[3], PTX_T_B32) || exec_dec_mask(d, pi, in, sync, 4))
        return -1;
    in->nops = 6;
    in->fn = exec_warpsync_fn;
    return 0;
}

/* match.any.sync.type d, a, membermask; match.all.sync.type d[|p], a, membermask */
int exec_dec_match(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    int mode = exec_has_mod(pi, "any") ? 0 : exec_has_mod(pi, "all") ? 1 : -1;
    ptx_type t = exec_dec_type(pi, 0);
    if (mode < 0 || pi->nops != 3 || (t != PTX_T_B32 && t != PTX_T_B64))
        return exec_dec_error(d, pi, "expected match.{any,all}.sync.{b32,b64} d, a, membermask");
    in->aux[0] = WS_MATCH;
    in->aux[1] = mode;
    if (exec_dec_dst_pred(d, pi, in) || exec_dec_src(d, in, 2, &pi->ops[1], t) ||
        exec_dec_mask(d, pi, in, 1, 2))
        return -1;
    in->nops = 6;
    in->fn = exec_warpsync_fn;
    return 0;
}

/* redux.sync.op.type d, a, membermask (.add/.min/.max on .u32/.s32; .and/.or/.xor on .b32) */
int exec_dec_redux(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    static const char *const ops[] = { "add", "min", "max", "and", "or", "xor" };
    int mode = -1;
    for (int k = 0; k < 6; k++)
        if (exec_has_mod(pi, ops[k]))
            mode = k;
    ptx_type t = exec_dec_type(pi, 0);
    if (mode < 0 || pi->nops != 3 || ptx_type_bits(t) != 32 || ptx_type_is_float(t))
        return exec_dec_error(d, pi, "expected redux.sync.op.type d, a, membermask");
    in->type = (uint8_t)t;
    in->aux[0] = WS_REDUX;
    in->aux[1] = mode;
    in->op[1].kind = EXEC_O_SINK;
    if (exec_dec_dst(d, in, 0, &pi->ops[0], t) || exec_dec_src(d, in, 2, &pi->ops[1], t) ||
        exec_dec_mask(d, pi, in, 1, 2))
        return -1;
    in->nops = 6;
    in->fn = exec_warpsync_fn;
    return 0;
}

/* elect.sync d|p, membermask */
int exec_dec_elect(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    if (pi->nops != 2 || pi->nmods != 1 || strcmp(pi->mods[0], "sync"))
        return exec_dec_error(d, pi, "expected elect.sync d|p, membermask");
    in->aux[0] = WS_ELECT;
    const ptx_operand *dst = &pi->ops[0];
    if (dst->kind == PTX_OP_PAIR) {
        if (exec_dec_dst(d, in, 0, &dst->elems[0], PTX_T_B32) ||
            exec_dec_pdst(d, in, 1, &dst->elems[1]))
            return -1;
    } else if (exec_dec_pdst(d, in, 1, dst)) {
        return -1;
    }
    if (exec_dec_mask(d, pi, in, 1, 1))
        return -1;
    in->nops = 6;
    in->fn = exec_warpsync_fn;
    return 0;
}

/* activemask.b32 d: the lanes of the running group. */
static int exec_activemask_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint32_t *d = EXEC_DST(w, in, 0);
    uint32_t v = w->cur_mask;
    EXEC_FOR_LANES(i, m)
        d[i] = v;
    return EXEC_NEXT;
}

int exec_dec_activemask(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    if (pi->nops != 1 || exec_dec_dst(d, in, 0, &pi->ops[0], PTX_T_B32))
        return pi->nops != 1 ? exec_dec_error(d, pi, "expected activemask.b32 d") : -1;
    in->fn = exec_activemask_fn;
    return 0;
}
