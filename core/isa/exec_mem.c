/* exec_mem.c - memory instructions: ld ldu st prefetch isspacep cvta createpolicy discard applypriority. */
#include <inttypes.h>
#include <string.h>
#include "exec_core.h"

/* ---- modifiers ------------------------------------------------------------------------------- */
typedef struct {
    ptx_space space;
    int vec;
    ptx_type type;
    int cache_hint;   /* .L2::cache_hint: an extra cache-policy operand */
    int to;           /* cvta.to */
} exec_memmods;

static int exec_space_mod(const char *s, ptx_space *sp)
{
    static const struct { const char *n; ptx_space s; } t[] = {
        { "global", PTX_SPACE_GLOBAL }, { "shared", PTX_SPACE_SHARED },
        { "shared::cta", PTX_SPACE_SHARED }, { "shared::cluster", PTX_SPACE_SHARED },
        { "local", PTX_SPACE_LOCAL }, { "param", PTX_SPACE_PARAM },
        { "param::entry", PTX_SPACE_PARAM }, { "param::func", PTX_SPACE_PARAM },
        { "const", PTX_SPACE_CONST },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(s, t[i].n) == 0) {
            *sp = t[i].s;
            return 1;
        }
    return 0;
}

/* Qualifiers with no visible effect in a sequentially consistent, cacheless emulator. */
static int exec_ignorable_mod(const char *s)
{
    static const char *const t[] = {
        "weak", "volatile", "relaxed", "acquire", "release", "mmio", "cta", "cluster", "gpu",
        "sys", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc", "unified", "L1::evict_normal",
        "L1::evict_unchanged", "L1::evict_first", "L1::evict_last", "L1::no_allocate",
        "L2::evict_first", "L2::evict_last", "L2::evict_normal", "L2::64B", "L2::128B",
        "L2::256B", "L2", "L1", "aligned", "sem", "level::eviction_priority", "uni", "L2::evict_unchanged",
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(s, t[i]) == 0)
            return 1;
    return 0;
}

static int exec_mem_mods(exec_dec *d, const ptx_insn *pi, exec_memmods *mm, int need_type)
{
    memset(mm, 0, sizeof *mm);
    mm->space = PTX_SPACE_GENERIC;
    mm->vec = 1;
    for (int i = 0; i < pi->nmods; i++) {
        const char *s = pi->mods[i];
        ptx_type t;
        if (exec_space_mod(s, &mm->space))
            continue;
        if (strcmp(s, "v2") == 0 || strcmp(s, "v4") == 0 || strcmp(s, "v8") == 0) {
            mm->vec = s[1] - '0';
            continue;
        }
        if (strcmp(s, "L2::cache_hint") == 0) {
            mm->cache_hint = 1;
            continue;
        }
        if (strcmp(s, "to") == 0) {
            mm->to = 1;
            continue;
        }
        if ((t = ptx_type_from_name(s)) != PTX_T_NONE) {
            mm->type = t;
            continue;
        }
        if (exec_ignorable_mod(s))
            continue;
        return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
    }
    if (need_type && mm->type == PTX_T_NONE)
        return exec_dec_error(d, pi, "missing type");
    return 0;
}

/* ---- addresses ------------------------------------------------------------------------------- */
int exec_dec_address(exec_dec *d, const ptx_insn *pi, exec_insn *in, const ptx_operand *o,
                     ptx_space sp)
{
    const ptx_sym *base = o->sym;
    in->aux[0] = o->ival;
    in->aux[3] = (int64_t)sp;
    if (o->kind != PTX_OP_ADDR && o->kind != PTX_OP_SYM && o->kind != PTX_OP_REG &&
        o->kind != PTX_OP_IMM)
        return exec_dec_error(d, pi, "expected an address operand");
    if (o->kind == PTX_OP_IMM) {
        in->aux[2] = EXEC_AM_ABS;
        return 0;
    }
    if (!base) {
        in->aux[2] = EXEC_AM_ABS;
        return 0;
    }
    if (base->kind == PTX_SYM_REG) {
        int ri = exec_reg_lookup(d->fd, base);
        int bits = ptx_type_bits(base->type);
        if (ri < 0 || (bits != 32 && bits != 64) || d->fd->reg_off[ri] == UINT32_MAX)
            return exec_dec_error(d, pi, "bad address register %s", base->name);
        in->aux[1] = d->fd->reg_off[ri];
        in->aux[2] = bits == 64 ? EXEC_AM_REG64 : EXEC_AM_REG32;
        return 0;
    }
    if (base->kind == PTX_SYM_VAR) {
        ptx_space vs;
        uint64_t off;
        int pl;
        if (exec_dec_var(d, base, &vs, &off, &pl))
            return exec_dec_error(d, pi, "variable %s cannot be addressed here", base->name);
        in->aux[0] = (int64_t)(off + (uint64_t)o->ival);
        static const int modes[] = { EXEC_AM_ABS, EXEC_AM_LOCALVAR, EXEC_AM_PARAMVAR,
                                     EXEC_AM_KPARAM };
        in->aux[2] = modes[pl];
        if (sp != PTX_SPACE_GENERIC && vs != sp &&
            !(sp == PTX_SPACE_SHARED && vs == PTX_SPACE_SHARED_CLUSTER))
            return exec_dec_error(d, pi, "%s is in .%s space, not .%s", base->name,
                                  ptx_space_name(vs), ptx_space_name(sp));
        if (sp == PTX_SPACE_GENERIC) {
            if (pl == 2)
                return exec_dec_error(d, pi, "generic access to parameter %s", base->name);
            /* a variable named in a generic access: use its space directly */
            in->aux[3] = vs;
        }
        if (pl == 2 && (uint64_t)in->aux[0] > d->fd->param_size)
            return exec_dec_error(d, pi, "offset outside parameter %s", base->name);
        return 0;
    }
    if (base->kind == PTX_SYM_FUNC)
        return exec_dec_error(d, pi, "cannot access memory at function %s", base->name);
    return exec_dec_error(d, pi, "bad address operand %s", base->name);
}

void exec_addr_lanes(exec_warp *w, const exec_insn *in, uint32_t m, uint64_t *addr)
{
    uint64_t off = (uint64_t)in->aux[0];
    switch (in->aux[2]) {
    case EXEC_AM_REG64: {   /* every lane: register slots always hold 32 lanes */
        const uint64_t *b = (const uint64_t *)(const void *)(w->r.regs + in->aux[1]);
        (void)m;
        for (int i = 0; i < EXEC_LANES; i++)
            addr[i] = b[i] + off;
        break;
    }
    case EXEC_AM_REG32: {
        const uint32_t *b = (const uint32_t *)(const void *)(w->r.regs + in->aux[1]);
        for (int i = 0; i < EXEC_LANES; i++)
            addr[i] = (uint32_t)(b[i] + (uint32_t)off);
        break;
    }
    case EXEC_AM_LOCALVAR:
        EXEC_FOR_LANES(i, m)
            addr[i] = w->cur_frame->local_base[i] + off;
        break;
    default:
        EXEC_FOR_LANES(i, m)
            addr[i] = off;
        break;
    }
}

/* Host pointer of lane i's access: param-area variables directly, everything else checked. */
static uint8_t *exec_access(exec_warp *w, const exec_insn *in, int i, uint64_t a, uint32_t n,
                            int write)
{
    ptx_space sp = (ptx_space)(in->aux[3] & 0xff);
    if (in->aux[2] == EXEC_AM_PARAMVAR)
        return w->cur_frame->params + (size_t)i * w->cur_frame->fd->param_size + a;
    if (sp == PTX_SPACE_PARAM && in->aux[2] != EXEC_AM_KPARAM && !w->cur_frame->fd->f->is_entry) {
        uint32_t ps = w->cur_frame->fd->param_size;
        if (a > ps || ps - a < n)
            return mem_bad(w, in, i, sp, sp, a, n, write, EXEC_ACC_OOB,
                           "outside the function's parameters");
        return w->cur_frame->params + (size_t)i * ps + a;
    }
    return mem_xlate(w, in, i, sp, a, n, write);
}

/* ---- the fast path -------------------------------------------------------------------------
 * Most accesses of a warp hit one buffer: the addresses of the active lanes are reduced to
 * [lo, hi] and their OR (alignment), and when that whole span lies in one global region (the
 * last-hit cache first), in the CTA's shared block or in the const bank / kernel parameters,
 * the copy runs with no per-lane checks. Anything else (spans crossing buffers, faults, local
 * and frame-param spaces) takes the checked per-lane path, which reports exactly the same
 * faults in the same lane order. Observers of the space (watchpoints, a parallel worker's
 * claims, checkers: exec_obs.h) see the span as one event before the copy. */
typedef struct {
    uint8_t *data;
    uint64_t base;
    mem_region *reg;
    ptx_space sp;             /* the space (generic resolved) */
    uint64_t bias;            /* lane address - bias = address in sp */
} exec_span;

/* The observers of the span's space see the lanes' accesses; -1 (the warp stopped) when one
 * forbids it (a parallel worker's claim: exec_par.c). */
static inline int exec_span_observe(exec_warp *w, const exec_insn *in, const exec_span *s,
                                    uint32_t m, const uint64_t *addr, uint32_t n, int kind)
{
    if (__builtin_expect(!((w->m->obs_spaces >> s->sp) & 1), 1))
        return 0;
    return exec_obs_span(w, in, m, s->sp, addr, s->bias, n, kind,
                         s->bias ? EXEC_ACC_F_GENERIC : 0, s->reg, s->data, s->base);
}

static inline void exec_lanes_range(const uint64_t *a, uint32_t m, uint64_t *lo, uint64_t *hi,
                                    uint64_t *orv)
{
    uint64_t l = UINT64_MAX, h = 0, o = 0;
    if (m == EXEC_FULL) {
        for (int i = 0; i < EXEC_LANES; i++) {
            l = a[i] < l ? a[i] : l;
            h = a[i] > h ? a[i] : h;
            o |= a[i];
        }
    } else {
        EXEC_FOR_LANES(i, m) {
            l = a[i] < l ? a[i] : l;
            h = a[i] > h ? a[i] : h;
            o |= a[i];
        }
    }
    *lo = l;
    *hi = h;
    *orv = o;
}

/* Host base for [lo, hi + n) of space sp (generic decoded), or data NULL. */
static inline exec_span exec_span_of(exec_warp *w, ptx_space sp, uint64_t lo, uint64_t hi,
                                     uint32_t n, int write)
{
    exec_span r = { NULL, 0, NULL, sp, 0 };
    exec_machine *m = w->m;
    if (sp == PTX_SPACE_GENERIC) {
        if (hi < MEM_WIN_SHARED || lo >= MEM_WIN_PARAM + MEM_WIN_SIZE) {
            sp = PTX_SPACE_GLOBAL;   /* below or above the windows (host-address mappings) */
        } else if (lo >= MEM_WIN_SHARED && hi < MEM_WIN_SHARED + MEM_WIN_SIZE) {
            sp = PTX_SPACE_SHARED;
            lo -= MEM_WIN_SHARED;
            hi -= MEM_WIN_SHARED;
            r.base = MEM_WIN_SHARED;
            r.bias = MEM_WIN_SHARED;
        } else {
            return r;
        }
        r.sp = sp;
    }
    switch (sp) {
    case PTX_SPACE_GLOBAL: {
        mem_region *g = m->glob.last;
        if (!g || lo < g->base || hi - g->base + n > g->size) {
            g = mem_global_find(&m->glob, lo, n);
            if (!g || hi - g->base + n > g->size)
                return r;
        }
        r.data = g->data;
        r.base = g->base;
        r.reg = g;
        return r;
    }
    case PTX_SPACE_SHARED:
    case PTX_SPACE_SHARED_CLUSTER:
        if (hi >= w->cta->shared_size || w->cta->shared_size - hi < n ||
            (m->sh_nholes && mem_shared_hole(m, lo, hi - lo + n)))
            return r;
        r.data = w->cta->shared;
        return r;
    case PTX_SPACE_CONST:
        if (write || hi >= m->cbank_size || m->cbank_size - hi < n)
            return r;
        r.data = m->cbank;
        return r;
    case PTX_SPACE_PARAM:
        if (write || hi >= m->kparam_size || m->kparam_size - hi < n)
            return r;
        r.data = m->kparams;
        return r;
    default:
        return r;
    }
}

/* Whether the fast path may be tried for this instruction (decided per execution: cheap). */
static inline int exec_fast_ok(const exec_warp *w, const exec_insn *in)
{
    if (in->aux[2] == EXEC_AM_PARAMVAR)
        return 0;
    ptx_space sp = (ptx_space)(in->aux[3] & 0xff);
    if (sp == PTX_SPACE_LOCAL)
        return 0;
    if (sp == PTX_SPACE_PARAM && in->aux[2] != EXEC_AM_KPARAM && !w->cur_frame->fd->f->is_entry)
        return 0;
    return 1;
}

/* ---- ld / ldu -------------------------------------------------------------------------------
 * ld{.sem}{.ss}{.hints}{.vec}.type d, [a]{, policy}: each lane reads vec elements of the
 * type's size; sub-word values into wider registers are extended by the decoder's wrapper.
 * aux[3] = space | nelem << 8 | elem bytes << 16. */
static int exec_ld_slow(exec_warp *w, const exec_insn *in, uint32_t m, const uint64_t *addr)
{
    int ne = (int)((in->aux[3] >> 8) & 0xff), es = (int)((in->aux[3] >> 16) & 0xff);
    uint32_t total = (uint32_t)(ne * es);
    if (in->type == PTX_T_B128)
        total = 16 * (uint32_t)(ne / 2);
    uint8_t *dst[EXEC_MAXOPS];
    for (int k = 0; k < ne; k++)
        dst[k] = EXEC_DST(w, in, k);
    EXEC_FOR_LANES(i, m) {
        const uint8_t *h = exec_access(w, in, (int)i, addr[i], total, 0);
        if (!h)
            return EXEC_STOPPED;
        switch (es) {
        case 4:
            for (int k = 0; k < ne; k++)
                memcpy(dst[k] + i * 4, h + k * 4, 4);
            break;
        case 8:
            for (int k = 0; k < ne; k++)
                memcpy(dst[k] + i * 8, h + k * 8, 8);
            break;
        default:
            for (int k = 0; k < ne; k++)
                memcpy(dst[k] + i * (uint32_t)es, h + k * es, (size_t)es);
            break;
        }
    }
    return EXEC_NEXT;
}

/* Per-lane host pointers of a local-space access (each lane has its own stack). */
static inline int exec_local_fast(exec_warp *w, uint32_t m, const uint64_t *addr, uint32_t n,
                                  uint8_t **h)
{
    EXEC_FOR_LANES(i, m) {
        uint64_t a = addr[i];
        if (!mem_local_ok(w, (int)i, a, n) || ((n & (n - 1)) == 0 && (a & (n - 1))))
            return 0;
        h[i] = mem_local_host(w, (int)i, a);
    }
    return 1;
}

/* Observers of local space see a fast local access lane by lane (each lane has its own stack). */
static int exec_local_observe(exec_warp *w, const exec_insn *in, uint32_t m,
                              const uint64_t *addr, uint32_t n, int kind, uint8_t **h)
{
    EXEC_FOR_LANES(i, m)
        if (exec_obs_lane(w, in, (int)i, PTX_SPACE_LOCAL, addr[i], n, kind, EXEC_ACC_OK, 0,
                          NULL, h[i]))
            return -1;
    return 0;
}

__attribute__((hot)) static int exec_ld(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint64_t addr[EXEC_LANES];
    int ne = (int)((in->aux[3] >> 8) & 0xff), es = (int)((in->aux[3] >> 16) & 0xff);
    uint32_t total = (uint32_t)(ne * es);
    if (in->type == PTX_T_B128)
        total = 16 * (uint32_t)(ne / 2);
    exec_addr_lanes(w, in, m, addr);
    if (in->aux[2] == EXEC_AM_PARAMVAR) {
        /* a variable of the frame's parameter area (call arguments, device-function
         * parameters): no checks, as exec_access */
        const exec_act *f = w->cur_frame;
        size_t ps = f->fd->param_size;
        const uint8_t *pb = f->params + (uint64_t)in->aux[0];
        for (int k = 0; k < ne; k++) {
            uint8_t *d = EXEC_DST(w, in, k);
            EXEC_FOR_LANES(i, m)
                memcpy(d + i * (uint32_t)es, pb + i * ps + (size_t)(k * es), (size_t)es);
        }
        return EXEC_NEXT;
    }
    ptx_space sp = (ptx_space)(in->aux[3] & 0xff);
    if (sp == PTX_SPACE_LOCAL) {
        uint8_t *h[EXEC_LANES];
        if (!exec_local_fast(w, m, addr, total, h))
            return exec_ld_slow(w, in, m, addr);
        if (__builtin_expect((w->m->obs_spaces >> PTX_SPACE_LOCAL) & 1, 0) &&
            exec_local_observe(w, in, m, addr, total, EXEC_ACC_READ, h))
            return EXEC_STOPPED;
        for (int k = 0; k < ne; k++) {
            uint8_t *d = EXEC_DST(w, in, k);
            EXEC_FOR_LANES(i, m)
                memcpy(d + i * (uint32_t)es, h[i] + k * es, (size_t)es);
        }
        return EXEC_NEXT;
    }
    if (!exec_fast_ok(w, in))
        return exec_ld_slow(w, in, m, addr);
    uint64_t lo, hi, orv;
    if (in->aux[2] == EXEC_AM_REG64 || in->aux[2] == EXEC_AM_REG32) {
        exec_lanes_range(addr, m, &lo, &hi, &orv);
    } else {
        lo = hi = orv = addr[exec_ctz(m)]; /* uniform address */
    }
    if ((total & (total - 1)) == 0 && (orv & (total - 1)))
        return exec_ld_slow(w, in, m, addr);
    exec_span sp_ = exec_span_of(w, sp, lo, hi, total, 0);
    if (!sp_.data)
        return exec_ld_slow(w, in, m, addr);
    if (exec_span_observe(w, in, &sp_, m, addr, total, EXEC_ACC_READ))
        return EXEC_STOPPED;
    const uint8_t *base = sp_.data;
    uint64_t b0 = sp_.base;
    if (lo == hi) { /* every lane reads the same bytes: broadcast */
        const uint8_t *h = base + (lo - b0);
        for (int k = 0; k < ne; k++) {
            uint8_t *d = EXEC_DST(w, in, k);
            if (es == 4) {
                uint32_t v;
                memcpy(&v, h + k * 4, 4);
                EXEC_FOR_LANES(i, m)
                    ((uint32_t *)(void *)d)[i] = v;
            } else if (es == 8) {
                uint64_t v;
                memcpy(&v, h + k * 8, 8);
                EXEC_FOR_LANES(i, m)
                    ((uint64_t *)(void *)d)[i] = v;
            } else {
                EXEC_FOR_LANES(i, m)
                    memcpy(d + i * (uint32_t)es, h + k * es, (size_t)es);
            }
        }
        return EXEC_NEXT;
    }
    for (int k = 0; k < ne; k++) {
        uint8_t *d = EXEC_DST(w, in, k);
        const uint8_t *bk = base + k * es;
        switch (es) {
        case 4:
            EXEC_FOR_LANES(i, m)
                memcpy(d + i * 4, bk + (addr[i] - b0), 4);
            break;
        case 8:
            EXEC_FOR_LANES(i, m)
                memcpy(d + i * 8, bk + (addr[i] - b0), 8);
            break;
        default:
            EXEC_FOR_LANES(i, m)
                memcpy(d + i * (uint32_t)es, bk + (addr[i] - b0), (size_t)es);
            break;
        }
    }
    return EXEC_NEXT;
}

/* Scalar 32-bit global load / store through a 64-bit register. */
__attribute__((hot)) static int exec_ld_g32(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const uint64_t *b = (const uint64_t *)(const void *)(w->r.regs + in->aux[1]);
    uint32_t *d = EXEC_DST(w, in, 0);
    uint64_t off = (uint64_t)in->aux[0];
    uint64_t addr[EXEC_LANES], lo, hi, orv;
    for (int i = 0; i < EXEC_LANES; i++)
        addr[i] = b[i] + off;
    exec_lanes_range(addr, m, &lo, &hi, &orv);
    exec_span s;
    if ((orv & 3) || !(s = exec_span_of(w, PTX_SPACE_GLOBAL, lo, hi, 4, 0)).data)
        return exec_ld_slow(w, in, m, addr);
    if (exec_span_observe(w, in, &s, m, addr, 4, EXEC_ACC_READ))
        return EXEC_STOPPED;
    const uint8_t *base = s.data;
    if (m == EXEC_FULL)
        for (int i = 0; i < EXEC_LANES; i++)
            memcpy(&d[i], base + (addr[i] - s.base), 4);
    else
        EXEC_FOR_LANES(i, m)
            memcpy(&d[i], base + (addr[i] - s.base), 4);
    return EXEC_NEXT;
}

static int exec_st_slow(exec_warp *w, const exec_insn *in, uint32_t m, const uint64_t *addr)
{
    int ne = (int)((in->aux[3] >> 8) & 0xff), es = (int)((in->aux[3] >> 16) & 0xff);
    uint32_t total = (uint32_t)(ne * es);
    if (in->type == PTX_T_B128)
        total = 16 * (uint32_t)(ne / 2);
    const uint8_t *src[EXEC_MAXOPS];
    for (int k = 0; k < ne; k++)
        src[k] = EXEC_SRC(w, in, k);
    EXEC_FOR_LANES(i, m) {
        uint8_t *h = exec_access(w, in, (int)i, addr[i], total, 1);
        if (!h)
            return EXEC_STOPPED;
        for (int k = 0; k < ne; k++)
            if (in->op[k].kind != EXEC_O_SINK)
                memcpy(h + k * es, src[k] + i * (uint32_t)es, (size_t)es);
    }
    return EXEC_NEXT;
}

__attribute__((hot)) static int exec_st(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint64_t addr[EXEC_LANES];
    int ne = (int)((in->aux[3] >> 8) & 0xff), es = (int)((in->aux[3] >> 16) & 0xff);
    uint32_t total = (uint32_t)(ne * es);
    if (in->type == PTX_T_B128)
        total = 16 * (uint32_t)(ne / 2);
    exec_addr_lanes(w, in, m, addr);
    if (in->aux[2] == EXEC_AM_PARAMVAR) {   /* see exec_ld */
        const exec_act *f = w->cur_frame;
        size_t ps = f->fd->param_size;
        uint8_t *pb = f->params + (uint64_t)in->aux[0];
        for (int k = 0; k < ne; k++) {
            if (in->op[k].kind == EXEC_O_SINK)
                continue;
            const uint8_t *src = EXEC_SRC(w, in, k);
            EXEC_FOR_LANES(i, m)
                memcpy(pb + i * ps + (size_t)(k * es), src + i * (uint32_t)es, (size_t)es);
        }
        return EXEC_NEXT;
    }
    ptx_space sp = (ptx_space)(in->aux[3] & 0xff);
    if (sp == PTX_SPACE_LOCAL) {
        uint8_t *h[EXEC_LANES];
        if (!exec_local_fast(w, m, addr, total, h))
            return exec_st_slow(w, in, m, addr);
        if (__builtin_expect((w->m->obs_spaces >> PTX_SPACE_LOCAL) & 1, 0) &&
            exec_local_observe(w, in, m, addr, total, EXEC_ACC_WRITE, h))
            return EXEC_STOPPED;
        for (int k = 0; k < ne; k++) {
            if (in->op[k].kind == EXEC_O_SINK)
                continue;
            const uint8_t *s = EXEC_SRC(w, in, k);
            EXEC_FOR_LANES(i, m)
                memcpy(h[i] + k * es, s + i * (uint32_t)es, (size_t)es);
        }
        return EXEC_NEXT;
    }
    if (!exec_fast_ok(w, in))
        return exec_st_slow(w, in, m, addr);
    uint64_t lo, hi, orv;
    exec_lanes_range(addr, m, &lo, &hi, &orv);
    if ((total & (total - 1)) == 0 && (orv & (total - 1)))
        return exec_st_slow(w, in, m, addr);
    exec_span s = exec_span_of(w, sp, lo, hi, total, 1);
    if (!s.data)
        return exec_st_slow(w, in, m, addr);
    if (exec_span_observe(w, in, &s, m, addr, total, EXEC_ACC_WRITE))
        return EXEC_STOPPED;
    /* lane order matters when lanes store to the same address: the last lane wins */
    for (int k = 0; k < ne; k++) {
        if (in->op[k].kind == EXEC_O_SINK)
            continue;
        const uint8_t *src = EXEC_SRC(w, in, k);
        uint8_t *bk = s.data + k * es;
        switch (es) {
        case 4:
            EXEC_FOR_LANES(i, m)
                memcpy(bk + (addr[i] - s.base), src + i * 4, 4);
            break;
        case 8:
            EXEC_FOR_LANES(i, m)
                memcpy(bk + (addr[i] - s.base), src + i * 8, 8);
            break;
        default:
            EXEC_FOR_LANES(i, m)
                memcpy(bk + (addr[i] - s.base), src + i * (uint32_t)es, (size_t)es);
            break;
        }
    }
    return EXEC_NEXT;
}

__attribute__((hot)) static int exec_st_g32(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const uint64_t *b = (const uint64_t *)(const void *)(w->r.regs + in->aux[1]);
    const uint32_t *src = EXEC_SRC(w, in, 0);
    uint64_t off = (uint64_t)in->aux[0];
    uint64_t addr[EXEC_LANES], lo, hi, orv;
    for (int i = 0; i < EXEC_LANES; i++)
        addr[i] = b[i] + off;
    exec_lanes_range(addr, m, &lo, &hi, &orv);
    exec_span s;
    if ((orv & 3) || !(s = exec_span_of(w, PTX_SPACE_GLOBAL, lo, hi, 4, 1)).data)
        return exec_st_slow(w, in, m, addr);
    if (exec_span_observe(w, in, &s, m, addr, 4, EXEC_ACC_WRITE))
        return EXEC_STOPPED;
    uint8_t *base = s.data;
    EXEC_FOR_LANES(i, m)
        memcpy(base + (addr[i] - s.base), &src[i], 4);
    return EXEC_NEXT;
}

/* ---- ld / ldu / st qualifiers -----------------------------------------------------------------
 * The qualifiers of ld and st (PTX ISA 9.x st page, and ld's sibling rules) come in groups, at
 * most one of each: semantics (.weak .volatile .relaxed .release/.acquire), .mmio, scope, state
 * space, cache operator, L1 and L2 eviction priority, L2 prefetch size (ld), .L2::cache_hint,
 * .nc (ld.global.nc), vector, type. Checked combinations (a generic address counts as global:
 * where it really points is only known at run time):
 *   .mmio: with .relaxed.sys, .global only, no vector, no cache qualifiers;
 *   .relaxed/.release/.acquire need a scope and a scope needs them; not in .local (nor
 *   .const/.param); no cache operator with .relaxed/.release/.acquire/.volatile; .volatile takes
 *   no eviction priority or cache hint; no cache operator with an eviction priority;
 *   .v8 only of 32-bit types in .global; .v4 of 64-bit types only in .global; no vector of
 *   .b128; .L2::evict_* and sink `_` elements only with .v8 of 32-bit or .v4 of 64-bit types;
 *   .L2::cache_hint only in .global; .nc only as ld.global.nc, without semantics. (ld keeps
 *   accepting `_` destinations in any vector, as earlier PTX and existing code use them.)
 * ldu takes only .global, .v2/.v4 and the type. */
enum { LQ_SEM, LQ_SCOPE, LQ_SPACE, LQ_COP, LQ_L1, LQ_L2, LQ_PSIZE, LQ_N };
enum { LDST_LD, LDST_LDU, LDST_ST };
typedef struct {
    const char *q[LQ_N];      /* the qualifier of each group, NULL when absent */
    ptx_space space;
    int vec, mmio, cache_hint, nc;
    ptx_type type;
} exec_ldst_q;

static int exec_in_list(const char *s, const char *const *t)
{
    for (; *t; t++)
        if (strcmp(s, *t) == 0)
            return 1;
    return 0;
}

static int exec_ldst_mods(exec_dec *d, const ptx_insn *pi, int kind, exec_ldst_q *q)
{
    static const char *const sem_st[] = { "weak", "volatile", "relaxed", "release", NULL };
    static const char *const sem_ld[] = { "weak", "volatile", "relaxed", "acquire", NULL };
    static const char *const scope[] = { "cta", "cluster", "gpu", "sys", NULL };
    static const char *const sp_st[] = { "global", "local", "param", "param::func", "shared",
                                         "shared::cta", "shared::cluster", NULL };
    static const char *const sp_ld[] = { "const", "global", "local", "param", "param::entry",
                                         "param::func", "shared", "shared::cta",
                                         "shared::cluster", NULL };
    static const char *const sp_ldu[] = { "global", NULL };
    static const char *const cop_st[] = { "wb", "cg", "cs", "wt", NULL };
    static const char *const cop_ld[] = { "ca", "cg", "cs", "lu", "cv", NULL };
    static const char *const l1[] = { "L1::evict_normal", "L1::evict_unchanged", "L1::evict_first",
                                      "L1::evict_last", "L1::no_allocate", NULL };
    static const char *const l2[] = { "L2::evict_normal", "L2::evict_first", "L2::evict_last",
                                      NULL };
    static const char *const psize[] = { "L2::64B", "L2::128B", "L2::256B", NULL };
    static const char *const none[] = { NULL };
    const char *const *groups[LQ_N] = {
        kind == LDST_ST ? sem_st : kind == LDST_LD ? sem_ld : none,
        kind == LDST_LDU ? none : scope,
        kind == LDST_ST ? sp_st : kind == LDST_LD ? sp_ld : sp_ldu,
        kind == LDST_ST ? cop_st : kind == LDST_LD ? cop_ld : none,
        kind == LDST_LDU ? none : l1,
        kind == LDST_LDU ? none : l2,
        kind == LDST_LD ? psize : none,
    };
    static const char *const gname[LQ_N] = { "memory-order", "scope", "state-space",
                                             "cache-operator", "L1 eviction-priority",
                                             "L2 eviction-priority", "prefetch-size" };
    const char *op = pi->opcode;
    memset(q, 0, sizeof *q);
    q->space = PTX_SPACE_GENERIC;
    q->vec = 1;
    for (int i = 0; i < pi->nmods; i++) {
        const char *s = pi->mods[i];
        ptx_type t;
        int g = 0;
        while (g < LQ_N && !exec_in_list(s, groups[g]))
            g++;
        if (g < LQ_N) {
            if (q->q[g])
                return exec_dec_error(d, pi, "only one %s qualifier may be given (.%s and .%s)",
                                      gname[g], q->q[g], s);
            q->q[g] = s;
            if (g == LQ_SPACE)
                exec_space_mod(s, &q->space);
            continue;
        }
        if (!strcmp(s, "v2") || !strcmp(s, "v4") || (kind != LDST_LDU && !strcmp(s, "v8"))) {
            if (q->vec > 1)
                return exec_dec_error(d, pi, "only one vector qualifier may be given");
            q->vec = s[1] - '0';
            continue;
        }
        if ((t = ptx_type_from_name(s)) != PTX_T_NONE) {
            if (q->type != PTX_T_NONE)
                return exec_dec_error(d, pi, "only one type may be given");
            q->type = t;
            continue;
        }
        int *flag = NULL;
        if (kind != LDST_LDU && !strcmp(s, "mmio"))
            flag = &q->mmio;
        else if (kind != LDST_LDU && !strcmp(s, "L2::cache_hint"))
            flag = &q->cache_hint;
        else if (kind == LDST_LD && !strcmp(s, "nc"))
            flag = &q->nc;
        else if (kind == LDST_LD && !strcmp(s, "unified"))
            continue;
        if (flag) {
            if (*flag)
                return exec_dec_error(d, pi, "qualifier .%s given twice", s);
            *flag = 1;
            continue;
        }
        if (kind == LDST_ST && !strcmp(s, "const"))
            return exec_dec_error(d, pi, "stores to .const memory are illegal");
        if (kind == LDST_ST && !strcmp(s, "param::entry"))
            return exec_dec_error(d, pi, "st cannot write kernel parameters (.param::entry)");
        if (kind == LDST_LDU && exec_space_mod(s, &(ptx_space){ 0 }))
            return exec_dec_error(d, pi, "ldu loads from .global memory only (or a generic "
                                  "address of it), not .%s", s);
        return exec_dec_error(d, pi, "unsupported qualifier .%s for %s", s, op);
    }
    if (q->type == PTX_T_NONE)
        return exec_dec_error(d, pi, "missing type");
    const char *sem = q->q[LQ_SEM], *rel = kind == LDST_ST ? ".release" : ".acquire";
    int ordered = sem && (!strcmp(sem, "relaxed") || !strcmp(sem, "release") ||
                          !strcmp(sem, "acquire"));
    int volat = sem && !strcmp(sem, "volatile");
    int glob = q->space == PTX_SPACE_GLOBAL || q->space == PTX_SPACE_GENERIC;
    int bits = ptx_type_bits(q->type);
    int hints = q->q[LQ_COP] || q->q[LQ_L1] || q->q[LQ_L2] || q->q[LQ_PSIZE] || q->cache_hint;
    if (q->mmio) {
        if (!sem || strcmp(sem, "relaxed") || !q->q[LQ_SCOPE] || strcmp(q->q[LQ_SCOPE], "sys"))
            return exec_dec_error(d, pi, ".mmio must be used as %s.mmio.relaxed.sys", op);
        if (!glob || q->vec > 1 || hints)
            return exec_dec_error(d, pi, "%s.mmio: .global only, no vector, no cache "
                                  "qualifiers", op);
    }
    if (ordered && !q->q[LQ_SCOPE])
        return exec_dec_error(d, pi, ".%s needs a scope (.cta, .cluster, .gpu or .sys)", sem);
    if (q->q[LQ_SCOPE] && !ordered)
        return exec_dec_error(d, pi, "scope .%s needs .relaxed or %s", q->q[LQ_SCOPE], rel);
    if (ordered && q->space != PTX_SPACE_GLOBAL && q->space != PTX_SPACE_SHARED &&
        q->space != PTX_SPACE_GENERIC)
        return exec_dec_error(d, pi, ".%s: .global or .shared memory only, not .%s", sem,
                              q->q[LQ_SPACE]);
    if ((ordered || volat) && q->q[LQ_COP])
        return exec_dec_error(d, pi, "cache operators are not allowed with .%s", sem);
    if (volat && (q->q[LQ_L1] || q->q[LQ_L2] || q->cache_hint))
        return exec_dec_error(d, pi, "%s.volatile takes no eviction priority or cache hint", op);
    if (q->q[LQ_COP] && (q->q[LQ_L1] || q->q[LQ_L2]))
        return exec_dec_error(d, pi, "a cache operator (.%s) and an eviction priority do not "
                              "go together", q->q[LQ_COP]);
    if (q->nc && (q->space != PTX_SPACE_GLOBAL || sem))
        return exec_dec_error(d, pi, ".nc: only as ld.global.nc, without memory-order "
                              "qualifiers");
    if (q->vec > 1 && q->type == PTX_T_B128)
        return exec_dec_error(d, pi, "vectors of .b128 are not supported");
    if (q->vec == 8 && (bits != 32 || !glob))
        return exec_dec_error(d, pi, ".v8 needs a 32-bit type and .global memory");
    if (q->vec == 4 && bits == 64 && !glob)
        return exec_dec_error(d, pi, ".v4 of a 64-bit type needs .global memory");
    if (q->q[LQ_L2] && !((q->vec == 8 && bits == 32) || (q->vec == 4 && bits == 64)))
        return exec_dec_error(d, pi, ".%s needs .v8 of a 32-bit type or .v4 of a 64-bit type",
                              q->q[LQ_L2]);
    if (q->cache_hint && !glob)
        return exec_dec_error(d, pi, ".L2::cache_hint is for .global memory only");
    return 0;
}

/* What the .param state space forbids of a device function's own parameters (PTX ISA 5.1.6.4):
 * writing an input parameter, reading a return parameter; and (st page) a predicated st.param
 * of a call argument (a locally-scoped .param variable). */
static int exec_param_misuse(exec_dec *d, const ptx_insn *pi, const ptx_sym *v, int store)
{
    const ptx_func *f = d->f;
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i] == v && store)
            return exec_dec_error(d, pi, "%s is an input parameter of %s: writing it is illegal",
                                  v->name, f->sym->name);
    for (int i = 0; i < f->nrets; i++)
        if (f->rets[i] == v && !store)
            return exec_dec_error(d, pi, "%s is a return parameter of %s: reading it is "
                                  "illegal", v->name, f->sym->name);
    if (store && pi->guard)
        for (int i = 0; i < f->nvars; i++)
            if (f->vars[i] == v)
                return exec_dec_error(d, pi, "st.param of call argument %s cannot be "
                                      "predicated", v->name);
    return 0;
}

/* Shared decode of ld/ldu/st. */
static int exec_dec_ldst(exec_dec *d, const ptx_insn *pi, exec_insn *in, int kind)
{
    int store = kind == LDST_ST;
    exec_ldst_q lq;
    if (exec_ldst_mods(d, pi, kind, &lq))
        return -1;
    exec_memmods mm = { .space = lq.space, .vec = lq.vec, .type = lq.type,
                        .cache_hint = lq.cache_hint };
    if (kind == LDST_LDU && pi->nops != 2)
        return exec_dec_error(d, pi, "expected ldu d, [a] (ldu takes no cache-policy operand)");
    if (!mm.cache_hint && pi->nops == 3)
        return exec_dec_error(d, pi, "a cache-policy operand needs .L2::cache_hint");
    int nops = 2 + mm.cache_hint;
    if (pi->nops != nops && !(mm.cache_hint && pi->nops == 2))
        return exec_dec_error(d, pi, "expected %d operands", nops);
    const ptx_operand *data = &pi->ops[store ? 1 : 0], *ad = &pi->ops[store ? 0 : 1];
    ptx_type t = mm.type;
    int bits = ptx_type_bits(t);
    if (t == PTX_T_PRED || bits < 8)
        return exec_dec_error(d, pi, "bad type .%s", ptx_type_name(t));
    in->type = (uint8_t)t;
    int ne = mm.vec, es = bits / 8;
    if (t == PTX_T_B128) {
        if (ne != 1)
            return exec_dec_error(d, pi, "vectors of .b128 are not supported");
        es = 8;
    }
    const ptx_operand *el = data;
    int nel = 1;
    if (data->kind == PTX_OP_VEC) {
        el = data->elems;
        nel = data->nelems;
    }
    if (nel != ne)
        return exec_dec_error(d, pi, "expected %d data operands, got %d", ne, nel);
    for (int k = 0; store && k < nel; k++)
        if (el[k].kind == PTX_OP_SINK &&
            !((ne == 8 && bits == 32) || (ne == 4 && bits == 64)))
            return exec_dec_error(d, pi, "sink `_` elements need .v8 of a 32-bit type or .v4 of "
                                  "a 64-bit type");
    if (t == PTX_T_B128) {
        /* one .b128 register = two 64-bit slots: elements lo, hi */
        if (el->kind == PTX_OP_SINK) {
            in->op[0].kind = in->op[1].kind = EXEC_O_SINK;
        } else {
            if (el->kind != PTX_OP_REG || el->sym->type != PTX_T_B128)
                return exec_dec_error(d, pi, ".b128 data must be a .b128 register");
            int ri = exec_reg_lookup(d->fd, el->sym);
            if (ri < 0)
                return exec_dec_error(d, pi, "undeclared register %s", el->sym->name);
            in->op[0].kind = in->op[1].kind = EXEC_O_REG;
            in->op[0].off = d->fd->reg_off[ri];
            in->op[1].off = d->fd->reg_off[ri] + EXEC_SLOT;
            in->op[0].type = in->op[1].type = PTX_T_B64;
        }
        ne = 2;
        in->nops = 2;
    } else {
        for (int k = 0; k < ne; k++) {
            int rc;
            if (store)
                rc = el[k].kind == PTX_OP_SINK ? (in->op[k].kind = EXEC_O_SINK, 0)
                                               : exec_dec_src(d, in, k, &el[k], t);
            else
                rc = exec_dec_dst(d, in, k, &el[k], t);
            if (rc)
                return -1;
        }
    }
    if (exec_dec_address(d, pi, in, ad, mm.space))
        return -1;
    in->aux[3] = (in->aux[3] & 0xff) | ((int64_t)ne << 8) | ((int64_t)es << 16);
    ptx_space sp = (ptx_space)(in->aux[3] & 0xff);
    if (store && (sp == PTX_SPACE_CONST || (sp == PTX_SPACE_PARAM && in->aux[2] == EXEC_AM_KPARAM)))
        return exec_dec_error(d, pi, "store to a read-only state space");
    if (store && sp == PTX_SPACE_PARAM && d->f->is_entry && in->aux[2] != EXEC_AM_PARAMVAR)
        return exec_dec_error(d, pi, "store to a kernel parameter");
    if (in->aux[2] == EXEC_AM_PARAMVAR &&
        (uint64_t)in->aux[0] + (uint64_t)(ne * es) > d->fd->param_size)
        return exec_dec_error(d, pi, "access beyond the parameter");
    if (in->aux[2] == EXEC_AM_PARAMVAR && exec_param_misuse(d, pi, ad->sym, store))
        return -1;
    int fast = sp == PTX_SPACE_GLOBAL && ne == 1 && es == 4 && in->aux[2] == EXEC_AM_REG64 &&
               in->op[0].kind == EXEC_O_REG;
    if (store)
        in->fn = fast ? exec_st_g32 : exec_st;
    else
        in->fn = fast ? exec_ld_g32 : exec_ld;
    return 0;
}

int exec_dec_ld(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    return exec_dec_ldst(d, pi, in, LDST_LD);
}
int exec_dec_ldu(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    return exec_dec_ldst(d, pi, in, LDST_LDU);
}
int exec_dec_st(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    if (pi->nmods && !strcmp(pi->mods[0], "async"))
        return exec_dec_st_async(d, pi, in, 0);   /* exec_async.c */
    return exec_dec_ldst(d, pi, in, LDST_ST);
}

/* ---- no-visible-effect instructions ------------------------------------------------------- */
static int exec_nop(exec_warp *w, const exec_insn *in, uint32_t m)
{
    (void)w; (void)in; (void)m;
    return EXEC_NEXT;
}

/* The address operand [a] of a hint instruction in space sp: decoded (so a bad register or
 * variable is reported) but never accessed. */
static int exec_hint_addr(exec_dec *d, const ptx_insn *pi, exec_insn *in, const ptx_operand *o,
                          ptx_space sp)
{
    if (o->kind != PTX_OP_ADDR)
        return exec_dec_error(d, pi, "expected an address operand [a]");
    return exec_dec_address(d, pi, in, o, sp);
}

/* prefetch{.global,.local}.{L1,L2} [a]; prefetch{.global}.L2::evict_{last,normal} [a];
 * prefetchu.L1 [a]; prefetch{.const,.param}.tensormap [a]: no visible effect. */
int exec_dec_prefetch(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    int u = pi->opc == PTX_OPC_prefetchu;
    const char *space = NULL, *level = NULL;
    for (int i = 0; i < pi->nmods; i++) {
        const char *s = pi->mods[i];
        int is_space = !strcmp(s, "global") || !strcmp(s, "local") || !strcmp(s, "const") ||
                       !strcmp(s, "param");
        int is_level = !strcmp(s, "L1") || !strcmp(s, "L2") || !strcmp(s, "L2::evict_last") ||
                       !strcmp(s, "L2::evict_normal") || !strcmp(s, "tensormap");
        if ((is_space && space) || (is_level && level) || (!is_space && !is_level))
            return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
        if (is_space)
            space = s;
        else
            level = s;
    }
    if (u && (space || !level || strcmp(level, "L1")))
        return exec_dec_error(d, pi, "expected prefetchu.L1 [a]");
    if (!level)
        return exec_dec_error(d, pi, "a cache level is required (.L1, .L2, "
                              ".L2::evict_last, .L2::evict_normal or .tensormap)");
    ptx_space sp = PTX_SPACE_GENERIC;
    if (space)
        exec_space_mod(space, &sp);
    if (!strcmp(level, "tensormap")) {
        if (sp != PTX_SPACE_GENERIC && sp != PTX_SPACE_CONST && sp != PTX_SPACE_PARAM)
            return exec_dec_error(d, pi, "prefetch.tensormap: .const, .param or generic "
                                  "addresses only");
    } else if (!strncmp(level, "L2::", 4)) {
        if (sp != PTX_SPACE_GENERIC && sp != PTX_SPACE_GLOBAL)
            return exec_dec_error(d, pi, "an eviction priority needs .global memory");
    } else if (sp != PTX_SPACE_GENERIC && sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_LOCAL) {
        return exec_dec_error(d, pi, "%s: .global, .local or generic addresses only",
                              pi->opcode);
    }
    if (pi->nops != 1 || exec_hint_addr(d, pi, in, &pi->ops[0], sp))
        return pi->nops != 1 ? exec_dec_error(d, pi, "expected one address operand [a]") : -1;
    in->fn = exec_nop;
    return 0;
}

/* The size operand of discard / applypriority: the immediate 128. */
static int exec_line_size(exec_dec *d, const ptx_insn *pi)
{
    if (pi->nops != 2 || pi->ops[1].kind != PTX_OP_IMM || pi->ops[1].ival != 128)
        return exec_dec_error(d, pi, "expected %s [a], 128 (the size is 128 bytes)",
                              pi->opcode);
    return 0;
}

/* discard / applypriority: {.global}, the cache level `level` (required), then [a], 128;
 * `syntax` is the whole form, quoted in the errors. */
static int exec_dec_line_op(exec_dec *d, const ptx_insn *pi, exec_insn *in, const char *level_q,
                            const char *syntax)
{
    int level = 0;
    ptx_space sp = PTX_SPACE_GENERIC;
    for (int i = 0; i < pi->nmods; i++) {
        const char *s = pi->mods[i];
        if (!strcmp(s, "global") && sp == PTX_SPACE_GENERIC)
            sp = PTX_SPACE_GLOBAL;
        else if (!strcmp(s, level_q) && !level)
            level = 1;
        else
            return exec_dec_error(d, pi, "unsupported qualifier .%s (expected %s)", s, syntax);
    }
    if (!level)
        return exec_dec_error(d, pi, "expected %s", syntax);
    if (exec_line_size(d, pi) || exec_hint_addr(d, pi, in, &pi->ops[0], sp))
        return -1;
    in->fn = exec_nop;
    return 0;
}

/* discard{.global}.L2 [a], 128: the line's contents become undefined; kept unchanged here. */
int exec_dec_discard(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    return exec_dec_line_op(d, pi, in, "L2", "discard{.global}.L2 [a], 128");
}

/* applypriority{.global}.L2::evict_normal [a], 128: no visible effect. */
int exec_dec_applypriority(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    return exec_dec_line_op(d, pi, in, "L2::evict_normal",
                            "applypriority{.global}.L2::evict_normal [a], 128");
}

/* createpolicy...b64 d, ...: d = an opaque policy value (ignored by loads and stores). */
static int exec_createpolicy(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint64_t *d = EXEC_DST(w, in, 0);
    EXEC_FOR_LANES(i, m)
        d[i] = 0x1000000000000000ull;
    return EXEC_NEXT;
}

/* createpolicy.fractional.L2::primary{.L2::secondary}.b64 d{, fraction};
 * createpolicy.range{.global}.L2::primary{.L2::secondary}.b64 d, [a], primary-size, total-size;
 * createpolicy.cvt.L2.b64 d, access-property.
 * primary: evict_last/normal/first/unchanged; secondary: evict_first/unchanged; the fraction an
 * immediate in (0, 1] (default 1.0). */
int exec_dec_createpolicy(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    static const char *const prim[] = { "L2::evict_last", "L2::evict_normal", "L2::evict_first",
                                        "L2::evict_unchanged", NULL };
    static const char *const sec[] = { "L2::evict_first", "L2::evict_unchanged", NULL };
    const char *kind = NULL, *p1 = NULL, *p2 = NULL;
    int b64 = 0, glob = 0, l2 = 0;
    for (int i = 0; i < pi->nmods; i++) {
        const char *s = pi->mods[i];
        if (!kind && (!strcmp(s, "fractional") || !strcmp(s, "range") || !strcmp(s, "cvt")))
            kind = s;
        else if (!strcmp(s, "b64") && !b64)
            b64 = 1;
        else if (!strcmp(s, "global") && !glob && kind && !strcmp(kind, "range"))
            glob = 1;
        else if (!strcmp(s, "L2") && !l2 && kind && !strcmp(kind, "cvt"))
            l2 = 1;
        else if (!p1 && exec_in_list(s, prim))
            p1 = s;
        else if (p1 && !p2 && exec_in_list(s, sec))
            p2 = s;
        else
            return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
    }
    if (!kind)
        return exec_dec_error(d, pi, "expected createpolicy.fractional, .range or .cvt");
    if (!b64)
        return exec_dec_error(d, pi, "the policy is .b64");
    if (pi->nops < 1 || exec_dec_dst(d, in, 0, &pi->ops[0], PTX_T_B64))
        return pi->nops < 1 ? exec_dec_error(d, pi, "missing destination") : -1;
    if (!strcmp(kind, "cvt")) {
        if (!l2 || p1 || pi->nops != 2 || exec_dec_src(d, in, 1, &pi->ops[1], PTX_T_B64))
            return exec_dec_error(d, pi, "expected createpolicy.cvt.L2.b64 d, access-property");
    } else if (!p1) {
        return exec_dec_error(d, pi, "a primary priority is required (.L2::evict_last, "
                              ".L2::evict_normal, .L2::evict_first or .L2::evict_unchanged)");
    } else if (!strcmp(kind, "fractional")) {
        if (pi->nops > 2)
            return exec_dec_error(d, pi, "expected createpolicy.fractional...b64 d{, fraction}");
        if (pi->nops == 2) {
            const ptx_operand *f = &pi->ops[1];
            double v = f->kind == PTX_OP_FIMM ? f->fval : (double)f->ival;
            if (f->kind == PTX_OP_FIMM && f->fsize == 32) {
                float fv;
                uint32_t b = (uint32_t)f->fbits;
                memcpy(&fv, &b, 4);
                v = fv;
            } else if (f->kind == PTX_OP_FIMM && f->fsize == 64) {
                memcpy(&v, &f->fbits, 8);
            }
            if (f->kind != PTX_OP_FIMM && f->kind != PTX_OP_IMM)
                return exec_dec_error(d, pi, "the fraction must be an immediate");
            if (!(v > 0.0 && v <= 1.0))
                return exec_dec_error(d, pi, "fraction %g outside (0, 1]", v);
        }
    } else {
        if (pi->nops != 4 || exec_hint_addr(d, pi, in, &pi->ops[1],
                                            glob ? PTX_SPACE_GLOBAL : PTX_SPACE_GENERIC) ||
            exec_dec_src(d, in, 2, &pi->ops[2], PTX_T_B32) ||
            exec_dec_src(d, in, 3, &pi->ops[3], PTX_T_B32))
            return pi->nops != 4 ? exec_dec_error(d, pi, "expected createpolicy.range...b64 d, "
                                                  "[a], primary-size, total-size") : -1;
        if (pi->ops[2].kind == PTX_OP_IMM && pi->ops[3].kind == PTX_OP_IMM &&
            pi->ops[2].ival > pi->ops[3].ival)
            return exec_dec_error(d, pi, "primary-size exceeds total-size");
    }
    in->fn = exec_createpolicy;
    return 0;
}

/* ---- isspacep / cvta --------------------------------------------------------------------------
 * isspacep.space p, a: p = generic address a lies in space's window (global: in no window).
 * cvta.space.size d, a: space address -> generic; cvta.to.space.size d, a: the reverse. */
static int exec_isspacep(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const uint64_t *a = EXEC_SRC(w, in, 1);
    ptx_space want = (ptx_space)in->aux[0];
    uint32_t r = 0;
    EXEC_FOR_LANES(i, m) {
        uint64_t sa;
        if (mem_generic_decode(a[i], &sa) == want)
            r |= 1u << i;
    }
    exec_pred_set(w, &in->op[0], r, m);
    return EXEC_NEXT;
}

int exec_dec_isspacep(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_memmods mm;
    if (exec_mem_mods(d, pi, &mm, 0))
        return -1;
    if (mm.space == PTX_SPACE_GENERIC || pi->nops != 2)
        return exec_dec_error(d, pi, "expected isspacep.space p, a");
    if (exec_dec_pdst(d, in, 0, &pi->ops[0]) || exec_dec_src(d, in, 1, &pi->ops[1], PTX_T_U64))
        return -1;
    in->aux[0] = mm.space;
    in->fn = exec_isspacep;
    return 0;
}

static int exec_cvta(exec_warp *w, const exec_insn *in, uint32_t m)
{
    uint64_t a[EXEC_LANES];
    ptx_space sp = (ptx_space)in->aux[3];
    exec_addr_lanes(w, in, m, a);
    int to = (int)(in->flags & 1), w32 = in->type == PTX_T_U32;
    void *dp = EXEC_DST(w, in, 0);
    EXEC_FOR_LANES(i, m) {
        uint64_t v;
        if (to) {
            uint64_t sa;
            if (mem_generic_decode(a[i], &sa) == sp || sp == PTX_SPACE_GLOBAL)
                v = sp == PTX_SPACE_GLOBAL ? a[i] : sa;
            else
                v = a[i] & (MEM_WIN_SIZE - 1); /* not in that window: undefined */
        } else {
            v = mem_generic_encode(sp, a[i]);
        }
        if (w32)
            ((uint32_t *)dp)[i] = (uint32_t)v;
        else
            ((uint64_t *)dp)[i] = v;
    }
    return EXEC_NEXT;
}

int exec_dec_cvta(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    exec_memmods mm;
    if (exec_mem_mods(d, pi, &mm, 1))
        return -1;
    if (mm.space == PTX_SPACE_GENERIC || pi->nops != 2)
        return exec_dec_error(d, pi, "expected cvta{.to}.space.size d, a");
    if (mm.type != PTX_T_U32 && mm.type != PTX_T_U64)
        return exec_dec_error(d, pi, "size must be .u32 or .u64");
    in->type = (uint8_t)mm.type;
    in->flags = (uint8_t)mm.to;
    if (exec_dec_dst(d, in, 0, &pi->ops[0], mm.type))
        return -1;
    const ptx_operand *a = &pi->ops[1];
    if (a->kind == PTX_OP_REG) {
        if (a->sym->kind != PTX_SYM_REG)
            return exec_dec_error(d, pi, "bad source operand");
        ptx_operand ad = *a;
        ad.kind = PTX_OP_ADDR;
        ad.ival = 0;
        if (exec_dec_address(d, pi, in, &ad, PTX_SPACE_GENERIC))
            return -1;
    } else if (a->kind == PTX_OP_SYM) {
        ptx_operand ad = *a;
        ad.kind = PTX_OP_ADDR;
        if (exec_dec_address(d, pi, in, &ad, PTX_SPACE_GENERIC))
            return -1;
        if (in->aux[2] == EXEC_AM_PARAMVAR)
            return exec_dec_error(d, pi, "cvta of a function parameter is not supported");
    } else if (a->kind == PTX_OP_IMM) {
        in->aux[0] = a->ival;
        in->aux[2] = EXEC_AM_ABS;
    } else {
        return exec_dec_error(d, pi, "bad source operand");
    }
    in->aux[3] = mm.space;
    in->fn = exec_cvta;
    return 0;
}
