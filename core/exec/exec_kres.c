/* exec_kres.c - a kernel's resources as ptxas reports them, a register estimate, and the limits checked at load. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec_core.h"

/* ---------------------------------------------------------------------------------------------
 * Registers. PTX registers are virtual: ptxas allocates physical ones. Without the SASS (its
 * count is in the cubin, which the CUDA runtime reads), the count is estimated from the PTX so
 * that it errs high. L = the most 32-bit register units live at once (64-bit registers count
 * 2, 128-bit 4, vectors per element, predicates none: they have their own file), with each
 * register live from its first to its last occurrence, extended over the loops (backward
 * branches) it is live into or carried around; a kernel takes the largest L of the functions
 * it may run. ptxas spends registers to schedule (up to the 32 that keep full occupancy) and,
 * at -O0 (`.target ..., debug`), keeps far more than are live, so the estimate is
 * max(32, 1.5 L + 6) for optimised code and max(40, 2.5 L + 6) for debug code, rounded up to
 * an even count. Measured against ptxas 13.0 over the 374 kernels of tests/fixtures (-O3 and
 * -G builds): below ptxas for 1 of 187 optimised kernels and 10 of 187 debug ones. The
 * result is capped as ptxas caps it: 255, .maxnreg, and what __launch_bounds__
 * (.maxntid/.reqntid with .minnctapersm) leave per thread in the 64 K register file, in
 * steps of 8.
 * ------------------------------------------------------------------------------------------- */
#define EXEC_REGS_RESERVED 6
#define EXEC_REGS_MAX 255
#define EXEC_REGS_FLOOR 32           /* optimised code: the full-occupancy budget */
#define EXEC_REGS_FLOOR_DEBUG 40
#define EXEC_REGFILE 65536u

static int exec_regs_capped(const ptx_func *k, int regs);

/* Registers of a function, by symbol: an open-addressing table (pointer -> dense id). */
typedef struct {
    const ptx_sym **key;
    uint32_t *id;
    uint32_t cap;
} kres_map;

static uint32_t kres_hash(const ptx_sym *s, uint32_t cap)
{
    uint64_t v = (uint64_t)(uintptr_t)s;
    v ^= v >> 33;
    v *= 0xff51afd7ed558ccdull;
    v ^= v >> 33;
    return (uint32_t)v & (cap - 1);
}

static int kres_map_put(kres_map *m, const ptx_sym *s, uint32_t id)
{
    for (uint32_t h = kres_hash(s, m->cap);; h = (h + 1) & (m->cap - 1))
        if (!m->key[h]) {
            m->key[h] = s;
            m->id[h] = id;
            return 0;
        } else if (m->key[h] == s) {
            return 0;
        }
}

static int64_t kres_map_get(const kres_map *m, const ptx_sym *s)
{
    for (uint32_t h = kres_hash(s, m->cap);; h = (h + 1) & (m->cap - 1))
        if (!m->key[h])
            return -1;
        else if (m->key[h] == s)
            return m->id[h];
}

/* 32-bit units a register occupies. */
static uint32_t kres_units(const ptx_sym *s)
{
    int bits = ptx_type_bits(s->type);
    if (s->type == PTX_T_PRED || bits <= 0)
        return 0;
    uint32_t u = bits > 32 ? (uint32_t)bits / 32 : 1;
    return u * (uint32_t)(s->vec > 1 ? s->vec : 1);
}

/* Whether the registers of operand k of pi are written (a destination): the first operand of
 * nearly every instruction, the result list of a call; not of the opcodes whose first operand
 * is a source (the table's SRC0 flag). bar.red's destination and the first operands of wmma
 * and multimem (written by their load and mma forms) are counted as reads here, which keeps
 * them live longer: the estimate errs high. */
static int kres_is_def(const ptx_insn *pi, int k)
{
    if (pi->opc == PTX_OPC_call)
        return k == 0 && pi->call_has_ret;
    if (k != 0)
        return 0;
    const ptx_operand *o = &pi->ops[0];
    if (o->kind != PTX_OP_REG && o->kind != PTX_OP_VEC && o->kind != PTX_OP_PAIR)
        return 0;
    return !ptx_op_is(pi, PTX_OPF_SRC0) && pi->opc != PTX_OPC_wmma &&
           pi->opc != PTX_OPC_multimem;
}

typedef struct {
    int32_t *first, *last;
    uint8_t *first_def;       /* the first occurrence is an unguarded write only */
    kres_map map;
} kres_scan;

static void kres_note(kres_scan *sc, const ptx_sym *s, int i, int def)
{
    if (!s || (s->kind != PTX_SYM_REG && s->space != PTX_SPACE_REG))
        return;
    int64_t id = kres_map_get(&sc->map, s);
    if (id < 0)
        return;
    if (sc->first[id] < 0) {
        sc->first[id] = i;
        sc->first_def[id] = (uint8_t)def;
    } else if (sc->first[id] == i) {
        sc->first_def[id] &= (uint8_t)def;   /* read and written by one instruction */
    }
    sc->last[id] = i;
}

static void kres_operand(kres_scan *sc, const ptx_operand *o, int i, int def)
{
    kres_note(sc, o->sym, i, def && o->kind != PTX_OP_ADDR);
    for (int e = 0; e < o->nelems; e++)
        kres_operand(sc, &o->elems[e], i, def);
}

/* L for one function's own body (callees not included): most register units live at once. */
static int kres_func_live(const ptx_func *f)
{
    uint32_t n = (uint32_t)(f->nregs + f->nparams + f->nrets);
    if (!f->has_body || !n)
        return 0;
    kres_scan sc;
    memset(&sc, 0, sizeof sc);
    sc.map.cap = 16;
    while (sc.map.cap < 2 * n)
        sc.map.cap *= 2;
    sc.map.key = calloc(sc.map.cap, sizeof *sc.map.key);
    sc.map.id = calloc(sc.map.cap, sizeof *sc.map.id);
    sc.first = malloc(sizeof *sc.first * n);
    sc.last = malloc(sizeof *sc.last * n);
    sc.first_def = calloc(n, 1);
    uint32_t *units = calloc(n, sizeof *units);
    int64_t *delta = calloc((size_t)f->ninsns + 2, sizeof *delta);
    int est = EXEC_REGS_MAX;   /* out of memory: the worst case */
    if (!sc.map.key || !sc.map.id || !sc.first || !sc.last || !sc.first_def || !units || !delta)
        goto out;
    for (uint32_t k = 0; k < n; k++) {
        const ptx_sym *s = k < (uint32_t)f->nregs ? f->regs[k]
                         : k < (uint32_t)(f->nregs + f->nparams) ? f->params[k - f->nregs]
                         : f->rets[k - f->nregs - f->nparams];
        kres_map_put(&sc.map, s, k);
        units[k] = s->kind == PTX_SYM_REG || s->space == PTX_SPACE_REG ? kres_units(s) : 0;
        sc.first[k] = sc.last[k] = -1;
    }
    for (int i = 0; i < f->ninsns; i++) {
        const ptx_insn *pi = &f->insns[i];
        if (pi->guard)
            kres_note(&sc, pi->guard, i, 0);
        for (int k = 0; k < pi->nops; k++)
            kres_operand(&sc, &pi->ops[k], i, kres_is_def(pi, k) && !pi->guard);
    }
    /* .reg parameters arrive live at entry; .reg results leave live at the end */
    for (uint32_t k = (uint32_t)f->nregs; k < n; k++)
        if (units[k]) {
            if (k < (uint32_t)(f->nregs + f->nparams) || sc.first[k] < 0)
                sc.first[k] = 0;
            sc.last[k] = f->ninsns - 1;
        }
    /* loops: a register live into a loop (defined before it, used in it) or carried around
       it (read in it before it is written there) is live over the whole loop; two passes
       settle nested loops */
    for (int pass = 0; pass < 2; pass++)
        for (int b = 0; b < f->ninsns; b++) {
            const ptx_insn *pi = &f->insns[b];
            if (!ptx_op_is(pi, PTX_OPF_BRANCH) || pi->nops < 1 || !pi->ops[0].sym ||
                pi->ops[0].sym->kind != PTX_SYM_LABEL)
                continue;
            int t = pi->ops[0].sym->index;
            if (t < 0 || t > b)
                continue;
            for (uint32_t k = 0; k < n; k++) {
                if (sc.first[k] < 0 || sc.last[k] < t || sc.first[k] > b)
                    continue;
                if (sc.first[k] < t || !sc.first_def[k]) {
                    if (sc.first[k] > t)
                        sc.first[k] = t;
                    if (sc.last[k] < b)
                        sc.last[k] = b;
                }
            }
        }
    for (uint32_t k = 0; k < n; k++)
        if (sc.first[k] >= 0 && units[k]) {
            delta[sc.first[k]] += units[k];
            delta[sc.last[k] + 1] -= units[k];
        }
    int64_t live = 0, most = 0;
    for (int i = 0; i <= f->ninsns; i++) {
        live += delta[i];
        if (live > most)
            most = live;
    }
    est = most > EXEC_REGS_MAX ? EXEC_REGS_MAX : (int)most;
out:
    free(sc.map.key);
    free(sc.map.id);
    free(sc.first);
    free(sc.last);
    free(sc.first_def);
    free(units);
    free(delta);
    return est;
}

/* Threads of a block __launch_bounds__ promise (.reqntid or .maxntid), 0 when none. */
static uint64_t kres_bound_threads(const ptx_func *f)
{
    const uint32_t *t = f->reqntid[0] ? f->reqntid : f->maxntid;
    if (!t[0])
        return 0;
    return (uint64_t)t[0] * (t[1] ? t[1] : 1) * (t[2] ? t[2] : 1);
}

static uint64_t kres_align(uint64_t v, const ptx_sym *s)
{
    uint64_t a = s->align > 0 ? (uint64_t)s->align : 1;
    return (v + a - 1) / a * a;
}

int exec_kernel_resources(const ptx_module *mod, const ptx_func *k, exec_kres *r)
{
    memset(r, 0, sizeof *r);
    if (!mod || !k)
        return -1;
    for (int i = 0; i < k->nvars; i++) {
        const ptx_sym *v = k->vars[i];
        if (v->space == PTX_SPACE_SHARED && v->size && !(v->flags & PTX_LINK_EXTERN))
            r->shared_static = kres_align(r->shared_static, v) + v->size;
        else if (v->space == PTX_SPACE_LOCAL)
            r->local_bytes = kres_align(r->local_bytes, v) + v->size;
    }
    int64_t pb = exec_param_layout(k, NULL, NULL, 0);
    r->param_bytes = pb > 0 ? (uint64_t)pb : 0;
    uint8_t *fseen = calloc((size_t)mod->nfuncs + 1, 1), *vseen = calloc((size_t)mod->nvars + 1, 1);
    if (!fseen || !vseen || exec_kernel_reach(mod, k, fseen, vseen)) {
        free(fseen);
        free(vseen);
        return -1;
    }
    for (int i = 0; i < mod->nvars; i++) {
        const ptx_sym *v = mod->vars[i];
        if (!vseen[i])
            continue;
        if (v->space == PTX_SPACE_SHARED && v->size && !(v->flags & PTX_LINK_EXTERN))
            r->shared_static = kres_align(r->shared_static, v) + v->size;
        else if (v->space == PTX_SPACE_CONST)
            r->const_bytes += v->size;
    }
    for (int i = 0; i < mod->nfuncs; i++) {
        const ptx_func *f = mod->funcs[i];
        if (!fseen[i] || !f->has_body)
            continue;
        for (int j = 0; j < f->ninsns; j++) {
            const ptx_insn *in = &f->insns[j];
            if (!ptx_op_is(in, PTX_OPF_BARRIER) ||
                ptx_insn_has_mod(in, "warp") || ptx_insn_has_mod(in, "cluster") || !in->nops)
                continue;
            int nb = in->ops[0].kind == PTX_OP_IMM ? (int)in->ops[0].ival + 1 : EXEC_NBAR;
            nb = nb > EXEC_NBAR ? EXEC_NBAR : nb;
            r->barriers = nb > r->barriers ? nb : r->barriers;
        }
    }
    free(fseen);
    free(vseen);
    return 0;
}

int exec_kernel_regs(const ptx_module *mod, const ptx_func *k)
{
    uint8_t *fseen = calloc((size_t)mod->nfuncs + 1, 1), *vseen = calloc((size_t)mod->nvars + 1, 1);
    if (!fseen || !vseen || exec_kernel_reach(mod, k, fseen, vseen)) {
        free(fseen);
        free(vseen);
        return EXEC_REGS_MAX;
    }
    int live = 0;
    for (int i = 0; i < mod->nfuncs; i++) {
        const ptx_func *f = mod->funcs[i];
        if (!fseen[i] || !f->has_body)
            continue;
        int fl = kres_func_live(f);
        live = fl > live ? fl : live;
    }
    free(fseen);
    free(vseen);
    int64_t est = mod->target_debug ? (5 * (int64_t)live + 1) / 2 + EXEC_REGS_RESERVED
                                    : (3 * (int64_t)live + 1) / 2 + EXEC_REGS_RESERVED;
    int floor = mod->target_debug ? EXEC_REGS_FLOOR_DEBUG : EXEC_REGS_FLOOR;
    est = est < floor ? floor : est > EXEC_REGS_MAX ? EXEC_REGS_MAX : (est + 1) & ~1;
    return exec_regs_capped(k, (int)est);
}

static int exec_regs_capped(const ptx_func *k, int regs)
{
    if (regs > EXEC_REGS_MAX)
        regs = EXEC_REGS_MAX;
    if (k->maxnreg && (int)k->maxnreg < regs)
        regs = (int)k->maxnreg;
    uint64_t nt = kres_bound_threads(k);
    if (nt) {
        uint64_t per = (nt + 31) / 32 * 32 * (k->minnctapersm ? k->minnctapersm : 1);
        int cap = (int)(EXEC_REGFILE / per) & ~7;
        if (cap >= 8 && cap < regs)
            regs = cap;
    }
    return regs;
}

/* ---------------------------------------------------------------------------------------------
 * Limits the JIT (ptxas) and the driver check when a module is loaded, so that a module a GPU
 * refuses is refused here too, with ptxas's words:
 *   static .shared of a kernel (its own and what it reaches): 0xc000 bytes (48 KB; dynamic
 *     shared memory goes beyond it at launch, with the opt-in);
 *   parameters of a kernel: 0x7ffc bytes (32764) with PTX ISA 8.1 or later on sm_70 and
 *     later, else 0x1100 (4352);
 *   .local of one function (its per-thread frame): 512 KB, the per-thread maximum of local
 *     memory (the driver refuses to launch more).
 * ------------------------------------------------------------------------------------------- */
#define EXEC_STATIC_SHMEM_MAX 0xc000u
#define EXEC_LOCAL_MAX (512u * 1024u)

static uint64_t kres_param_max(const ptx_module *mod)
{
    int sm = 0;
    if (mod->target && (!strncmp(mod->target, "sm_", 3) || !strncmp(mod->target, "compute_", 8)))
        sm = atoi(strchr(mod->target, '_') + 1);
    int ver = mod->version_major * 10 + mod->version_minor;
    return ver >= 81 && sm >= 70 ? 0x7ffc : 0x1100;
}

int exec_load_limits(const ptx_module *mod, char *err, size_t errlen)
{
    const char *path = mod->path ? mod->path : "<string>";
    for (int i = 0; i < mod->nfuncs; i++) {
        const ptx_func *f = mod->funcs[i];
        if (!f->has_body)
            continue;
        const char *what = f->is_entry ? "entry function" : "function";
        exec_kres r;
        if (f->is_entry) {
            if (exec_kernel_resources(mod, f, &r)) {
                snprintf(err, errlen, "%s: error: out of memory", path);
                return -1;
            }
        } else {
            memset(&r, 0, sizeof r);
            for (int v = 0; v < f->nvars; v++)
                if (f->vars[v]->space == PTX_SPACE_LOCAL)
                    r.local_bytes = kres_align(r.local_bytes, f->vars[v]) + f->vars[v]->size;
        }
        uint64_t pmax = kres_param_max(mod);
        if (f->is_entry && r.param_bytes > pmax) {
            snprintf(err, errlen, "%s:%d: error: %s '%s' uses too much parameter space (0x%"
                     PRIx64 " bytes, 0x%" PRIx64 " max%s)", path, f->line, what, f->sym->name,
                     r.param_bytes, pmax, pmax < 0x7ffc ? "; 0x7ffc with .version 8.1 or later "
                     "on sm_70 and later" : "");
            return -1;
        }
        if (f->is_entry && r.shared_static > EXEC_STATIC_SHMEM_MAX) {
            snprintf(err, errlen, "%s:%d: error: %s '%s' uses too much shared data (0x%" PRIx64
                     " bytes, 0x%x max; larger blocks are dynamic shared memory)", path, f->line,
                     what, f->sym->name, r.shared_static, EXEC_STATIC_SHMEM_MAX);
            return -1;
        }
        if (r.local_bytes > EXEC_LOCAL_MAX) {
            snprintf(err, errlen, "%s:%d: error: %s '%s' uses too much local data (0x%" PRIx64
                     " bytes per thread, 0x%x max)", path, f->line, what, f->sym->name,
                     r.local_bytes, EXEC_LOCAL_MAX);
            return -1;
        }
    }
    return 0;
}
