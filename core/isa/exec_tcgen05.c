/* exec_tcgen05.c - Tensor Memory allocation: tcgen05.alloc/dealloc/relinquish_alloc_permit, fences and waits. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "exec_core.h"

/* ---- the Tensor Memory model -----------------------------------------------------------------
 * Each CTA owns 512 columns of Tensor Memory (x 128 lanes) allocated in units of 32 columns.
 * A Tensor Memory address is lane << 16 | column; an allocation of nCols (a power of two in
 * 32..512) takes the first free run of nCols columns starting at a multiple of nCols and
 * writes its address (lane 0, first column) to shared memory. The contents of Tensor Memory
 * are not modelled (tcgen05.mma/ld/st/cp/shift are rejected at load), only its ownership,
 * which is where misuse shows: double or partial frees, allocating after
 * relinquish_alloc_permit, the number of columns growing between allocations, memory still
 * allocated when the CTA exits. The state lives in exec_cta.tmem (zeroed at CTA start):
 *     tmem[0] bits  0-15  units in use (unit u = columns 32u .. 32u+31)
 *             bits 16-31  units where an allocation starts
 *             bit  32     the CTA relinquished its allocation permit
 *             bits 33-42  nCols of the CTA's last allocation (0: none yet)
 *     tmem[1] 4 bits per unit: log2 of the size in units of the allocation starting there.
 * Every tcgen05 instruction here is .sync.aligned: the whole warp (its existing threads)
 * executes it together with the same operands, no thread of the warp having exited.
 * tcgen05.alloc blocks while no run of nCols columns is free: it returns EXEC_YIELD (the warp
 * keeps its pc and its slice ends), so the other warps run (and may dealloc) before it
 * retries; when no other warp of the CTA can run, the wait could never end and is reported as
 * a deadlock right away; when the other warps only yield too, the scheduler reports it.
 * .cta_group::2 pairs two peer CTAs of a cluster; every CTA is a cluster of one here, so only
 * .cta_group::1 is accepted. */
#define TM_UNITS 16

enum { TC_ALLOC, TC_DEALLOC, TC_RELINQUISH, TC_NOP };

static uint32_t tm_used(const exec_cta *c) { return (uint32_t)(c->tmem[0] & 0xffff); }
static uint32_t tm_starts(const exec_cta *c) { return (uint32_t)((c->tmem[0] >> 16) & 0xffff); }
static int tm_relinquished(const exec_cta *c) { return (int)((c->tmem[0] >> 32) & 1); }
static uint32_t tm_last(const exec_cta *c) { return (uint32_t)((c->tmem[0] >> 33) & 0x3ff); }
static uint32_t tm_size_units(const exec_cta *c, int u)
{
    return 1u << ((c->tmem[1] >> (4 * u)) & 0xf);
}

/* "columns 0-31, 64-127" */
static void tm_describe(const exec_cta *c, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = 0;
    uint32_t st = tm_starts(c);
    for (int u = 0; u < TM_UNITS && k < n; u++)
        if ((st >> u) & 1) {
            uint32_t sz = tm_size_units(c, u) * 32;
            k += (size_t)snprintf(buf + k, n - k, "%s%u-%u", k ? ", " : "", (unsigned)u * 32,
                                  (unsigned)u * 32 + sz - 1);
        }
    if (!k)
        snprintf(buf, n, "none");
}

/* The whole warp, no exited thread, one value of operand k. Returns -1 after a fault. */
static int tm_collective(exec_warp *w, const exec_insn *in, uint32_t m, const char *what)
{
    if (w->exited & w->valid) {
        exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, exec_ctz(m), PTX_SPACE_NONE, 0, 0,
                   "%s is .sync.aligned, but lanes 0x%08x of the warp have exited", what,
                   w->exited & w->valid);
        return -1;
    }
    if (m != w->valid) {
        exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, exec_ctz(m), PTX_SPACE_NONE, 0, 0,
                   "%s is .sync.aligned: every lane of the warp (0x%08x) must execute it "
                   "together, only lanes 0x%08x did", what, w->valid, m);
        return -1;
    }
    return 0;
}

static int tm_uniform(exec_warp *w, const exec_insn *in, uint32_t m, int k, const char *what,
                      const char *name, uint32_t *val)
{
    const uint32_t *v = EXEC_SRC(w, in, k);
    uint32_t l0 = (uint32_t)exec_ctz(m);
    EXEC_FOR_LANES(i, m)
        if (v[i] != v[l0]) {
            exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, (int)i, PTX_SPACE_NONE, 0, 0,
                       "%s: lanes disagree on %s (lane %u: %u, lane %u: %u)", what, name, l0,
                       v[l0], i, v[i]);
            return -1;
        }
    *val = v[l0];
    return 0;
}

static int tm_ncols_ok(exec_warp *w, const exec_insn *in, uint32_t m, const char *what,
                       uint32_t n)
{
    if (n < 32 || n > 512 || (n & (n - 1))) {
        exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, exec_ctz(m), PTX_SPACE_NONE, 0, 0,
                   "%s: nCols %u must be a power of 2 in 32..512", what, n);
        return -1;
    }
    return 0;
}

/* Whether a lane of another warp of the CTA can still run (and so free Tensor Memory). */
static int tm_others_can_run(const exec_warp *w)
{
    const exec_machine *m = w->m;
    for (uint32_t k = 0; k < m->nwarps; k++) {
        const exec_warp *x = &m->warps[k];
        if (x != w && (x->valid & ~x->exited & ~x->trapped & ~x->bar_wait & ~x->ws_wait))
            return 1;
    }
    return 0;
}

static int exec_tc_alloc_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const char *what = "tcgen05.alloc";
    exec_cta *c = w->cta;
    uint32_t n;
    if (tm_collective(w, in, m, what) || tm_uniform(w, in, m, 0, what, "nCols", &n) ||
        tm_ncols_ok(w, in, m, what, n))
        return EXEC_STOPPED;
    uint32_t l0 = (uint32_t)exec_ctz(m);
    if (tm_relinquished(c)) {
        exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, (int)l0, PTX_SPACE_NONE, 0, 0,
                   "%s after tcgen05.relinquish_alloc_permit: CTA %u gave up the right to "
                   "allocate Tensor Memory", what, c->id);
        return EXEC_STOPPED;
    }
    if (tm_last(c) && n > tm_last(c)) {
        exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, (int)l0, PTX_SPACE_NONE, 0, 0,
                   "%s of %u columns after an allocation of %u: the number of columns must "
                   "not increase between allocations of a CTA", what, n, tm_last(c));
        return EXEC_STOPPED;
    }
    uint32_t units = n / 32, mask = units == 16 ? 0xffffu : ((1u << units) - 1);
    int at = -1;
    for (uint32_t u = 0; u < TM_UNITS; u += units)
        if (!(tm_used(c) & (mask << u))) {
            at = (int)u;
            break;
        }
    if (at < 0) {
        if (!tm_others_can_run(w)) {
            char d[200];
            tm_describe(c, d, sizeof d);
            exec_fault(w, in, EXEC_EXC_BARRIER_DEADLOCK, (int)l0, PTX_SPACE_NONE, 0, 0,
                       "%s of %u columns blocks forever: Tensor Memory of CTA %u has no free "
                       "run of %u columns (allocated: %s) and no other warp can run to "
                       "free any", what, n, c->id, n, d);
            return EXEC_STOPPED;
        }
        /* block: retry this instruction after the other warps ran */
        return EXEC_YIELD;
    }
    /* the destination before the state changes, so a bad address leaves nothing allocated */
    uint64_t addr[EXEC_LANES], sa;
    exec_addr_lanes(w, in, m, addr);
    ptx_space sp = (ptx_space)(in->aux[3] & 0xff);
    sa = addr[l0];
    if (sp == PTX_SPACE_GENERIC && mem_generic_decode(addr[l0], &sa) != PTX_SPACE_SHARED) {
        exec_fault(w, in, EXEC_EXC_ILLEGAL_ADDRESS, (int)l0, PTX_SPACE_GENERIC, addr[l0], 4,
                   "%s: destination 0x%" PRIx64 " is not in shared memory", what, addr[l0]);
        return EXEC_STOPPED;
    }
    uint8_t *h = mem_xlate(w, in, (int)l0, PTX_SPACE_SHARED, sa & 0xffffffffu, 4,
                           EXEC_ACC_ATOMIC);
    if (!h)
        return EXEC_STOPPED;
    int lg = __builtin_ctz(units);
    c->tmem[0] |= (uint64_t)(mask << at) | (uint64_t)1 << (16 + at);
    c->tmem[0] = (c->tmem[0] & ~(0x3ffull << 33)) | (uint64_t)n << 33;
    c->tmem[1] = (c->tmem[1] & ~(0xfull << (4 * at))) | (uint64_t)lg << (4 * at);
    uint32_t taddr = (uint32_t)at * 32; /* lane 0, first column */
    memcpy(h, &taddr, 4);
    return EXEC_NEXT;
}

static int exec_tc_dealloc_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    const char *what = "tcgen05.dealloc";
    exec_cta *c = w->cta;
    uint32_t taddr, n;
    if (tm_collective(w, in, m, what) || tm_uniform(w, in, m, 0, what, "taddr", &taddr) ||
        tm_uniform(w, in, m, 1, what, "nCols", &n) || tm_ncols_ok(w, in, m, what, n))
        return EXEC_STOPPED;
    uint32_t col = taddr & 0xffff, lane = taddr >> 16;
    int u = (int)(col / 32);
    if (lane != 0 || col % 32 || col >= 512 || !((tm_starts(c) >> u) & 1) ||
        tm_size_units(c, u) * 32 != n) {
        char d[200];
        tm_describe(c, d, sizeof d);
        exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, exec_ctz(m), PTX_SPACE_NONE, 0, 0,
                   "%s of %u columns at Tensor Memory address 0x%08x (lane %u, column %u): "
                   "not an allocation of that size (allocated columns: %s)", what, n, taddr,
                   lane, col, d);
        return EXEC_STOPPED;
    }
    uint32_t units = n / 32, mask = units == 16 ? 0xffffu : ((1u << units) - 1);
    c->tmem[0] &= ~((uint64_t)(mask << u) | (uint64_t)1 << (16 + u));
    c->tmem[1] &= ~(0xfull << (4 * u));
    return EXEC_NEXT;
}

static int exec_tc_relinquish_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    if (tm_collective(w, in, m, "tcgen05.relinquish_alloc_permit"))
        return EXEC_STOPPED;
    w->cta->tmem[0] |= 1ull << 32;
    return EXEC_NEXT;
}

static int exec_tc_nop_fn(exec_warp *w, const exec_insn *in, uint32_t m)
{
    (void)w; (void)in; (void)m;
    return EXEC_NEXT;
}

/* When the last thread of a CTA exits: Tensor Memory still allocated is an error (the spec
 * requires every allocation to be freed before the kernel exits). Returns -1 after raising
 * the exception on warp w at instruction in (the exit), 0 when nothing is left allocated.
 * exec_lanes_retire (exec_launch.c) calls it when the CTA's last thread exits. */
int exec_tcgen05_cta_exit(exec_warp *w, const exec_insn *in)
{
    exec_cta *c = w->cta;
    if (!tm_used(c))
        return 0;
    char d[200];
    tm_describe(c, d, sizeof d);
    exec_fault(w, in, EXEC_EXC_ILLEGAL_INSN, -1, PTX_SPACE_NONE, 0, 0,
               "CTA %u exited with Tensor Memory still allocated (columns %s): every "
               "tcgen05.alloc needs a tcgen05.dealloc before the kernel exits", c->id, d);
    return -1;
}

int exec_dec_tcgen05(exec_dec *d, const ptx_insn *pi, exec_insn *in)
{
    const char *o = pi->nmods ? pi->mods[0] : "";
    int op, group = 0, sync = 0, aligned = 0, b32 = 0;
    ptx_space sp = PTX_SPACE_GENERIC;
    if (!strcmp(o, "alloc")) op = TC_ALLOC;
    else if (!strcmp(o, "dealloc")) op = TC_DEALLOC;
    else if (!strcmp(o, "relinquish_alloc_permit")) op = TC_RELINQUISH;
    else if (!strcmp(o, "fence::before_thread_sync") || !strcmp(o, "fence::after_thread_sync") ||
             !strcmp(o, "wait::ld") || !strcmp(o, "wait::st")) {
        /* ordering of Tensor Memory accesses: nothing is asynchronous here */
        if (pi->nmods != 1 || pi->nops)
            return exec_dec_error(d, pi, "expected tcgen05.%s;", o);
        in->flags = TC_NOP;
        in->fn = exec_tc_nop_fn;
        return 0;
    } else
        return exec_dec_error(d, pi, "tcgen05.%s is not supported: ptxdbg models Tensor Memory "
                              "allocation (alloc/dealloc/relinquish_alloc_permit), not its "
                              "contents or the 5th-generation tensor core", o);
    for (int i = 1; i < pi->nmods; i++) {
        const char *s = pi->mods[i];
        if (!strcmp(s, "cta_group::1")) group = 1;
        else if (!strcmp(s, "cta_group::2")) group = 2;
        else if (!strcmp(s, "sync")) sync = 1;
        else if (!strcmp(s, "aligned")) aligned = 1;
        else if (!strcmp(s, "b32")) b32 = 1;
        else if (op == TC_ALLOC && !strcmp(s, "shared::cta")) sp = PTX_SPACE_SHARED;
        else return exec_dec_error(d, pi, "unsupported qualifier .%s", s);
    }
    if (group == 2)
        return exec_dec_error(d, pi, ".cta_group::2 allocates jointly with the peer CTA of a "
                              "cluster pair, but ptxdbg runs every CTA as a cluster of one: only "
                              ".cta_group::1 is supported");
    if (!group || !sync || !aligned)
        return exec_dec_error(d, pi, "tcgen05.%s needs .cta_group::1.sync.aligned", o);
    if (op == TC_RELINQUISH) {
        if (b32 || pi->nops)
            return exec_dec_error(d, pi, "expected tcgen05.relinquish_alloc_permit"
                                  ".cta_group::1.sync.aligned;");
        in->flags = TC_RELINQUISH;
        in->fn = exec_tc_relinquish_fn;
        return 0;
    }
    if (!b32 || pi->nops != 2)
        return exec_dec_error(d, pi, op == TC_ALLOC ? "expected tcgen05.alloc.cta_group::1.sync"
                              ".aligned{.shared::cta}.b32 [dst], nCols"
                              : "expected tcgen05.dealloc.cta_group::1.sync.aligned.b32 taddr, "
                              "nCols");
    in->flags = (uint8_t)op;
    if (op == TC_ALLOC) {
        if (pi->ops[0].kind != PTX_OP_ADDR)
            return exec_dec_error(d, pi, "expected an address operand [dst]");
        if (exec_dec_src(d, in, 0, &pi->ops[1], PTX_T_B32) ||
            exec_dec_address(d, pi, in, &pi->ops[0], sp))
            return -1;
        ptx_space vs = (ptx_space)(in->aux[3] & 0xff);
        if (vs != PTX_SPACE_SHARED && vs != PTX_SPACE_GENERIC)
            return exec_dec_error(d, pi, "dst must be a .shared::cta address");
        in->fn = exec_tc_alloc_fn;
        return 0;
    }
    if (exec_dec_src(d, in, 0, &pi->ops[0], PTX_T_B32) ||
        exec_dec_src(d, in, 1, &pi->ops[1], PTX_T_B32))
        return -1;
    in->fn = exec_tc_dealloc_fn;
    return 0;
}
