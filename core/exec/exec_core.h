/* exec_core.h - private structures of the execution core: machine, CTA, warp, frame, decoder. */
#ifndef EXEC_CORE_H
#define EXEC_CORE_H

#include <stdio.h>
#include "exec_insn.h"
#include "mem.h"

/* ---------------------------------------------------------------------------------------------
 * SIMT scheme (min-pc reconvergence)
 * Every lane has its own pc and innermost frame (hence call depth). A warp runs one GROUP at
 * a time: the runnable lanes with the highest call depth, then the lowest pc, that share the
 * frame of the first such lane. The group keeps running while its pc stays below `limit_pc`,
 * the lowest pc of the other runnable lanes at the same depth, so converged code pays one
 * compare per instruction. Once it reaches or passes that pc the warp reschedules: lanes at
 * the same depth, pc and frame merge into one group. After an if/else (or a loop whose trip
 * count differs per lane) the lanes that got ahead wait at the join point, which has a
 * higher pc than every block before it, until the others catch up. Lanes of different
 * frames (divergent calls) never merge.
 * ------------------------------------------------------------------------------------------- */

#define EXEC_NSCRATCH   16           /* scratch slots per frame for operand wrappers */
#define EXEC_MAX_DEPTH  1024         /* call depth limit (then stack overflow) */
#define EXEC_NBAR       16
#define EXEC_SMEM_RESERVED 1024u     /* shared bytes the system reserves per CTA (sm_80+) */
#define EXEC_CTA_WARPS  32           /* warps of the largest CTA (1024 threads) */
#define EXEC_SLICE      65536        /* warp-instructions per scheduling slice / poll */
#define EXEC_SPIN_TURN  1024         /* divergent backward branches before another group runs */
#define EXEC_HEAP_DEFAULT (8u << 20) /* device malloc bytes (cudaLimitMallocHeapSize default) */

/* Special register slots of a warp's sreg block. */
enum {
    EXEC_SR_TID = 0,          /* 4 comps each */
    EXEC_SR_NTID = 4, EXEC_SR_CTAID = 8, EXEC_SR_NCTAID = 12, EXEC_SR_CLUSTERID = 16,
    EXEC_SR_NCLUSTERID = 20, EXEC_SR_CLUSTER_CTAID = 24, EXEC_SR_CLUSTER_NCTAID = 28,
    EXEC_SR_LANEID = 32, EXEC_SR_WARPID, EXEC_SR_NWARPID, EXEC_SR_SMID, EXEC_SR_NSMID,
    EXEC_SR_GRIDID, EXEC_SR_LM_EQ, EXEC_SR_LM_LE, EXEC_SR_LM_LT, EXEC_SR_LM_GE, EXEC_SR_LM_GT,
    EXEC_SR_CLOCK, EXEC_SR_CLOCK_HI, EXEC_SR_CLOCK64, EXEC_SR_GTIMER, EXEC_SR_GTIMER_LO,
    EXEC_SR_GTIMER_HI, EXEC_SR_TOTAL_SMEM, EXEC_SR_DYN_SMEM, EXEC_SR_AGGR_SMEM,
    EXEC_SR_CTARANK, EXEC_SR_NCTARANK, EXEC_SR_IS_EXPLICIT, EXEC_SR_ZERO,
    EXEC_SR_RES_BEGIN, EXEC_SR_RES_END, EXEC_SR_RES_CAP, EXEC_SR_RES_OFF1,
    EXEC_SR_ENVREG,           /* 32 slots: %envreg0..31 */
    EXEC_SR__COUNT = EXEC_SR_ENVREG + 32
};
#define EXEC_NSM 108   /* %nsmid (an A100) */

/* Decoded function. */
typedef struct exec_fdec {
    const ptx_func *f;
    uint32_t pc0, n;          /* first pc and number of instructions */
    uint32_t *reg_off;        /* per f->regs[i]: slot byte offset, or predicate index */
    uint32_t regbytes;        /* register block bytes (regs + scratch) */
    uint32_t scratch_off;     /* byte offset of the first scratch slot */
    uint32_t npreds;
    uint64_t local_size;      /* .local variables of one activation */
    uint32_t local_align;
    uint64_t *var_off;        /* per f->vars[i]: local: depot offset; param: param-area
                                 offset; shared: shared offset */
    uint64_t *prm_off;        /* per f->params[i]: kernel param offset / param-area offset */
    uint64_t *ret_off;        /* per f->rets[i]: param-area offset */
    uint32_t param_size;      /* per-lane bytes of the frame's param area */
} exec_fdec;

/* A call activation shared by the lanes that made the call together. */
typedef struct exec_act {
    const exec_fdec *fd;
    struct exec_act *parent;
    uint32_t depth;
    uint32_t members;         /* lanes in this frame or deeper */
    uint32_t call_pc;         /* pc of the call instruction in the parent */
    uint8_t *regs;
    uint32_t *preds;
    uint8_t *params;          /* 32 lanes * fd->param_size, lane-major */
    uint64_t local_base[EXEC_LANES]; /* each lane's frame base: lowest address of its depot
                                        (= its stack pointer right after entry; mem.h) */
    uint64_t entry_sp[EXEC_LANES];   /* each lane's stack pointer before the call (restored
                                        by ret) */
    size_t cap;               /* bytes of the regs/preds/params block */
    struct exec_act *next_free;
    struct exec_act *all_next; /* every frame of the warp, for freeing */
    int in_use;
    /* initcheck's registers (exec_undef.c): per register of fd (exec_reg_lookup's index), the
       lanes that wrote it in this activation; NULL unless registers were tracked when the
       frame was made */
    uint32_t *defd;
    uint32_t ndefd;
} exec_act;

typedef struct exec_cta exec_cta;

struct exec_warp {
    struct exec_warp_regs r;  /* must stay first */
    exec_machine *m;
    exec_cta *cta;
    uint32_t id;
    /* the running group */
    uint32_t cur_mask, cur_pc, limit_pc;
    exec_act *cur_frame;
    uint32_t npc;             /* next pc set by handlers returning JUMPED/STOPPED */
    int resched;              /* lane sets changed: pick a new group */
    int64_t budget;           /* instructions left in this slice */
    int64_t budget_left;      /* saved budget while a stop after the instruction is pending */
    int watch_hit;            /* a watchpoint or an observer stops the warp after the
                                 instruction in progress (exec_obs.c) */
    uint8_t *watch_host;      /* host bytes of the watched access (new value read after); NULL
                                 for an observer's stop */
    int solo;                 /* lane + 1 while a lane is stepped alone */
    int stopped;              /* holds a trap/exception state */
    int yielded;              /* the last slice ended with a handler's EXEC_YIELD */
    /* independent thread scheduling: a group that keeps branching backward while other lanes of
     * its warp wait elsewhere (a spin on a lock another lane holds) hands the warp to the next
     * group after EXEC_SPIN_TURN backward branches (exec_sched, exec_warp_run) */
    int diverged;             /* other runnable lanes exist beside the running group */
    int rotate;               /* the next exec_sched picks the group after the current one */
    uint32_t spin;            /* backward branches of the divergent group spin_mask */
    uint32_t spin_mask;
    uint32_t lead;            /* lanes of the group a rotation picked (first until they stop) */
    /* breakpoint pass: this warp reported the breakpoint at pc bp_pass - 1 (0: none) for the
     * group bp_pass_lanes; those lanes execute that instruction once without stopping again.
     * Dropped when the warp's next group to run is not at that pc (exec_slice), so a pass never
     * outlives the stop it belongs to. Only the breakpoint stub reads it (no cost otherwise). */
    uint32_t bp_pass, bp_pass_lanes;
    /* lane state */
    uint32_t valid, exited, trapped, bar_wait, ws_wait;
    uint32_t ws_need[EXEC_LANES]; /* membermask a warp-sync waiter waits for */
    int8_t lane_bar[EXEC_LANES];
    uint32_t pc[EXEC_LANES];
    exec_act *lframe[EXEC_LANES];
    /* local memory: per lane stack */
    uint8_t *ldata[EXEC_LANES];
    uint32_t lcap[EXEC_LANES];
    uint64_t lsp[EXEC_LANES];
    exec_act *kframe;       /* the kernel frame */
    exec_act *free_frames;
    exec_act *all_frames;
    int nframes;
};

typedef struct {
    uint32_t arrived;         /* threads arrived in this phase */
    uint32_t expected;        /* thread count given by the instruction, 0 = all live */
    /* With a count the ISA counts warps: a warp arrives once all its non-exited lanes have
     * executed the instruction, and then stands for 32 threads (its exited and absent lanes
     * too). pend[w] holds the lanes of warp w seen since its last whole arrival; `warped` the
     * threads of whole arrivals in this phase (exec_bar_check folds complete warps in, so a
     * lane that arrives, then exits, is never counted twice). */
    uint32_t pend[EXEC_CTA_WARPS];
    uint32_t warped;
    uint32_t red_popc;
    int red_and, red_or;
} exec_bar;

struct exec_cta {
    uint32_t id;
    exec_dim3 coord;
    uint8_t *shared;
    uint64_t shared_size;
    uint64_t shared_cap;      /* bytes of the shared block (>= shared_size when reused) */
    uint32_t nthreads, nexited;
    exec_bar bar[EXEC_NBAR];
    uint32_t rr;              /* round-robin cursor */
    uint64_t tmem[2];         /* Tensor Memory allocator state (exec_tcgen05.c; zeroed with the
                                 rest of the CTA at its start, so it needs no freeing) */
    uint8_t res[EXEC_SMEM_RESERVED]; /* the system's reserved shared memory (zeroed too) */
};

typedef struct exec_watch {
    int id, used;
    ptx_space space;
    uint64_t addr;
    uint32_t len, cta;
    int kinds;
} exec_watch;

typedef struct exec_arena_blk { struct exec_arena_blk *next; } exec_arena_blk;

/* Per-launch memory kept for the next launch (exec_frame.c): n warps with their frames and
 * local stacks, their special-register block, and a shared block. */
typedef struct {
    exec_warp *warps;
    uint8_t *sregs;
    uint32_t n;
    uint8_t *sh;
    uint64_t sh_cap;
} exec_wset;
#define EXEC_WPOOL 64             /* worker threads whose warps are kept between runs */
#define EXEC_PAR_WARMUP (UINT64_C(1) << 17) /* warp-instructions on one thread before workers */

struct exec_machine {
    const ptx_module *mod;
    char err[1024];
    FILE *out;
    exec_arena_blk *arena;
    /* code */
    exec_insn *code;
    uint32_t ncode;
    exec_fdec **fdec;         /* per module func index (NULL: no body) */
    exec_fn *bp_orig;         /* per pc: original fn while a breakpoint is set */
    /* memory */
    mem_global glob;
    uint64_t *gvar_addr;      /* per module var: address in its space */
    uint8_t *cbank;
    uint64_t cbank_size;
    uint64_t shared_static;   /* bytes of static shared */
    exec_shared_var *svars;
    int nsvars;
    /* the launched kernel's view of static shared memory: the byte ranges [lo, hi) of other
       kernels' shared variables, which it may not touch (none: the check is skipped) */
    uint64_t (*sh_holes)[2];
    int sh_nholes;
    /* launch */
    int launched, over;
    exec_launch_info li;
    uint32_t nlaunch;
    uint8_t *kparams;
    uint64_t kparam_size;
    const exec_fdec *kfd;
    uint32_t ncta, nwarps, nthreads;
    exec_cta cta;             /* the running CTA */
    uint32_t cur_cta;         /* index of the running CTA; ncta when all done */
    int cta_live;             /* cta holds allocated state */
    exec_warp *warps;
    uint8_t *sregs;           /* nwarps * EXEC_SR__COUNT slots */
    /* stops */
    exec_stop stop;
    int stop_set;
    exec_stop final;          /* the stop that ended the launch */
    int bar_hold;             /* barrier + 1 a step holds: it completes only when the step says
                                 (exec_run_until_released); 0 outside steps */
    uint8_t *bpk;             /* per pc, NULL until the first flag: 1 = breakpoint, 2 = step mark
                                 (exec_set_step_mark); the stub is in place while either is set */
    uint32_t sf_cta, sf_warp, sf_lanes; /* the focus of the running step: step marks stop only
                                 groups with lanes of sf_lanes (0 outside steps) */
    uint64_t lane_groups;     /* group instructions lane steps executed with warp-mates */
    int sf_lane;              /* the running step moves one lane (EXEC_RUN_STEP_LANE): in its
                                 warp, breakpoints stop only that lane (its warp-mates catch up
                                 through them) */
    uint64_t clock;           /* warp-instructions executed by this machine (for %clock) */
    int64_t slice_given;      /* budget given to the running warp */
    /* watchpoints (an observer of the memory seam while any is set: exec_obs.c) */
    exec_watch *watches;
    int nwatches;
    int watch_obs;            /* the watchpoint observer's handle, -1 when none */
    /* observers of the memory and sync seams (exec_obs.h); the gates the hot paths test */
    exec_observer obs[EXEC_MAX_OBSERVERS];
    uint8_t obs_used[EXEC_MAX_OBSERVERS];
    int nobs;
    uint32_t obs_spaces;      /* spaces some observer wants every access of (1u << ptx_space) */
    uint32_t obs_want;        /* union of the observers' EXEC_OBS_BAD / EXEC_OBS_SYNC */
    uint64_t pad_hits;        /* accesses outside allocations a GPU completes (EXEC_ACC_PAD) */
    uint64_t heap_used;       /* bytes of device malloc in use */
    uint64_t heap_limit;      /* at most this many (exec_set_heap_limit; 8 MB by default) */
    void *tex;                /* texture/surface objects and bindings (exec_tex.c; arena memory) */
    /* statistics and parallel runs (exec_dispatch.c, exec_workers.c) */
    uint64_t tinsn;           /* thread-instructions executed (exec_stats) */
    int nthreads_run;         /* worker threads for run-to-completion (exec_set_threads) */
    int par_ok;               /* 0 unknown; 1 when par_ok_kernel's CTAs may run on workers, -1 not */
    const ptx_func *par_ok_kernel;
    int is_worker;            /* this is a worker's private copy of a machine */
    int cta_fresh;            /* the live CTA is a fresh launch's CTA 0, untouched */
    struct exec_bpcond **bp_cond; /* per pc: the breakpoint's core condition (exec_cond.c) */
    struct exec_cluster *cl;  /* thread block clusters of several CTAs (exec_cluster.c); NULL:
                                 every CTA is a cluster of one, the one-CTA path */
    exec_dim3 cl_attr;        /* cluster dims given for launches (exec_set_cluster_dims), 0: none */
    /* a parallel worker's claims on global memory (exec_par.c); NULL on the main machine */
    struct exec_par *par;
    struct exec_par *par_cache; /* the main machine's claims kept for the next run */
    int par_conflict;         /* the worker stopped at an access another CTA's claim forbids */
    uint32_t par_spin_cta;    /* the CTA whose accesses par_quiet counts */
    uint64_t par_quiet;       /* its accesses in a row that claimed nothing new */
    const mem_region *par_obj_reg; /* texture/surface range claimed last (exec_par_claim_obj) */
    uint64_t par_obj_off, par_obj_size;
    uint32_t par_obj_cta;
    int par_obj_mode;
    uint64_t intr_after;      /* exec_set_interrupt_after: steps of the next run, 0 none */
    /* resident CTAs taking turns (exec_sched.c); NULL: one CTA at a time */
    struct exec_res *res;
    int turn_yield;           /* a warp backed off (nanosleep): the CTA's turn ends */
    int coop;                 /* launches are cooperative (exec_set_cooperative) */
    int sched_random;         /* EXEC_SCHED_RANDOM (exec_set_schedule) */
    uint64_t sched_seed, sched_rng;   /* its seed; the generator's state (reset per launch) */
    uint32_t envreg[32];      /* %envreg0..31 of later launches (exec_set_envreg) */
    uint64_t coop_ws;         /* the grid barrier's workspace of cooperative launches */
    exec_ws_hook_fn ws_hook;  /* warp-sync events (exec_set_ws_hook; exec_sync.c) */
    /* per-launch memory kept for the next launch (exec_frame.c), so that programs of many
       small launches do not grow and shrink the host heap at each: the warps of the last
       launch, each parallel worker's, and shared blocks */
    exec_wset pool, *wpool;
    uint64_t par_warmup;      /* exec_set_par_warmup (EXEC_PAR_WARMUP by default) */
    void *ws_hook_ctx;
    int ws_hook_obs;          /* the hook's observer of the sync seam (exec_api.c), -1 none */
    uint64_t glob_base;       /* the first address of the machine's global window (exec_new_at;
                                 core files record it so a reopened core has the same addresses) */
    /* initcheck's companions (exec_undef.c): fresh memory's byte (exec_set_fill; 0 none, else
       byte + 1) and register tracking while an observer wants EXEC_OBS_REGS (each
       instruction's fn is exec_undef_stub, the real one in reg_orig; reg_rw: the registers
       each instruction reads and writes) */
    int fill;
    int reg_track;
    exec_fn *reg_orig;
    struct exec_rw **reg_rw;
};

/* The decoder's state (exec_decode.c). */
typedef struct {
    uint8_t dir;              /* 0 = source (before), 1 = destination (after), 2 = refresh,
                                 3 = source `reg + imm` (before: narrow = wide + imm) */
    uint8_t from_sreg;        /* source read from the sreg block */
    uint8_t wide_bits, narrow_bits, sign;
    uint32_t wide_off, narrow_off;
    int sreg;                 /* refresh: EXEC_SR_* slot */
    uint64_t imm;             /* dir 3: the constant added */
} exec_fix;

typedef struct {
    exec_fn inner;
    int n;
    exec_fix f[];
} exec_wrap;

struct exec_dec {
    exec_machine *m;
    const ptx_module *mod;
    const ptx_func *f;
    exec_fdec *fd;
    exec_fix fix[EXEC_MAXOPS * 2 + 2];
    int nfix, nscratch;
    char *err;
    size_t errlen;
    int wide_ok;              /* the instruction may take registers wider than its type (ld,
                                 st, cvt families: PTX ISA 9.4.1; set by exec_decode.c) */
    int nregadd;              /* `reg + imm` operands decoded (exec_decode.c checks that the
                                 instruction's decoder consumed every one) */
};

/* ---- shared helpers ---------------------------------------------------------------------- */
/* exec_par.c: global memory claims of parallel workers. mode 0 read, 1 write, 2 an
 * order-independent integer reduction; -1 (after stopping the warp, par_conflict set) when
 * another CTA's claim forbids the access. */
typedef struct exec_par exec_par;
exec_par *exec_par_new(const exec_machine *m, uint32_t first);
exec_par *exec_par_get(exec_machine *m, uint32_t first);
void exec_par_put(exec_machine *m, exec_par *p);
#define EXEC_PAR_CACHE (UINT64_C(1) << 30) /* bytes of claims kept between parallel runs */
void exec_par_free(exec_par *p);
uint32_t exec_par_max_ctas(void);
int exec_par_claim(exec_warp *w, const exec_insn *in, const mem_region *r, uint64_t off,
                   uint64_t size, int mode);
int exec_par_claim_obj(exec_warp *w, const exec_insn *in, const mem_region *r, uint64_t off,
                       uint64_t size, int mode);
int exec_par_claim_lanes(exec_warp *w, const exec_insn *in, const mem_region *r, uint32_t m,
                         const uint64_t *addr, uint32_t n, int mode);
int exec_par_reduced(const exec_par *p);
/* A worker met something one thread must do (an abnormal access): stop, as a conflict does,
 * so the run goes on on one thread from this CTA's start. Returns -1. */
int exec_par_defer(exec_warp *w, const exec_insn *in, const char *why);
/* The claims as an observer of the memory seam (a worker's machine has it). */
void exec_par_observe(exec_machine *wm);
int exec_par_spinning(const exec_par *p);
#define EXEC_PAR_SPIN (UINT64_C(1) << 20) /* lane accesses of held memory only: a wait */
/* Free region r's claims and take it off g's list (the region is going). */
void exec_par_drop(mem_global *g, mem_region *r);
/* Put back the granules written by CTAs >= from_cta (all: every written or reduced one). */
void exec_par_undo(exec_par *p, uint32_t from_cta, int all);

/* exec_sched.c: resident CTAs taking turns (fairness rule there). */
typedef struct exec_res exec_res;
#define EXEC_RESIDENT_MAX 128     /* resident CTAs of a launch that is not cooperative */
#define EXEC_TURN (UINT64_C(1) << 17) /* warp-instructions of a CTA's turn */
/* The random scheduler (exec_sched.c): the next number of the launch's generator. */
uint64_t exec_sched_rand(exec_machine *m);
void exec_sched_launch(exec_machine *m);
#define EXEC_COOP_WS 16           /* bytes of a cooperative launch's grid barrier workspace */
#define EXEC_COOP_MAX_CTAS 4224   /* 132 SMs x 32 CTAs: the most any device keeps resident */
uint32_t exec_res_limit(const exec_machine *m);
uint32_t exec_res_next(const exec_machine *m);
uint32_t exec_res_parked(const exec_machine *m);
int exec_res_turn_over(exec_machine *m);
int exec_res_finish(exec_machine *m);
void exec_res_free(exec_machine *m);
exec_cta_state exec_res_cta_state(const exec_machine *m, uint32_t cta);
const exec_warp *exec_res_warp(const exec_machine *m, uint32_t cta, uint32_t warp);
void exec_res_focus(exec_machine *m, uint32_t cta);
/* Core files: parked CTA i (0 .. exec_res_parked - 1) in CTA order; restoring: an empty resident
 * set whose first CTA not yet started is `next`, then parked CTAs added in CTA order (the set
 * owns the arrays). -1 when out of memory or out of order. */
int exec_res_slot(const exec_machine *m, uint32_t i, const exec_cta **cta,
                  const exec_warp **warps, const uint8_t **sregs);
int exec_res_restore(exec_machine *m, uint32_t next);
int exec_res_restore_add(exec_machine *m, const exec_cta *cta, exec_warp *warps, uint8_t *sregs);
int exec_coop_prepare(exec_machine *m);

/* exec_decode.c */
int exec_decode_module(exec_machine *m, char *err, size_t errlen);
void *exec_arena_alloc(exec_machine *m, size_t n);
int exec_dec_var(exec_dec *d, const ptx_sym *s, ptx_space *sp, uint64_t *off, int *perlane);
const exec_fdec *exec_fdec_of_pc(const exec_machine *m, uint32_t pc);
int exec_reg_lookup(const exec_fdec *fd, const ptx_sym *s);   /* index in f->regs or -1 */
/* exec_api.c: register `name` ("%r1", "%v.x") of a decoded function: index into reg_off. */
int exec_fdec_find_reg(const exec_fdec *fd, const char *name, int *comp, const ptx_sym **sym);

/* exec_cond.c: breakpoint conditions. exec_bp_cond_lanes returns the lanes of `lanes` where
 * the condition at pc holds (or errs); exec_bp_cond_free drops every condition. */
uint32_t exec_bp_cond_lanes(exec_warp *w, const struct exec_bpcond *c, uint32_t lanes);
void exec_bp_cond_free(exec_machine *m);
int exec_wrap_fn(exec_warp *w, const exec_insn *in, uint32_t m);

/* ---- the engine's run, file by file (docs/ARCHITECTURE.md "Execution core") ---------------- */
/* exec_stop.c: stops and faults. exec_stop_fill records a stop of kind k on w's lanes (at in,
 * or the warp's pc); exec_stop_raise adds a message and, for traps, asserts and exceptions,
 * marks the lanes trapped; a fault is an exception with an address. */
void exec_stop_fill(exec_warp *w, const exec_insn *in, exec_stop_kind k, exec_exc e,
                    uint32_t lanes);
void exec_stop_raise(exec_warp *w, const exec_insn *in, exec_stop_kind k, exec_exc e,
                     uint32_t lanes, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void exec_fault(exec_warp *w, const exec_insn *in, exec_exc e, int lane, ptx_space sp,
                uint64_t addr, uint32_t size, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
/* An EXEC_STOP_INTERRUPT at warp w (live), or at the CTA's first live warp (w NULL). */
void exec_interrupt_stop(exec_machine *m, exec_warp *w);
/* No thread of the CTA can proceed: a barrier-deadlock exception naming who waits where. */
void exec_deadlock(exec_machine *m);

/* exec_launch.c: lanes leave (exit, ret at depth 0) at instruction in; when the last thread of
 * the CTA leaves, the CTA-exit checks run (exec_tcgen05_cta_exit). */
void exec_lanes_retire(exec_warp *w, const exec_insn *in, uint32_t lanes);
/* exec_sync.c: lanes exited; complete the warp-sync sets that waited only for them. */
void exec_ws_exited(exec_warp *w);
/* exec_frame.c: activation frames (a warp's free list; NULL when out of memory or too deep). */
exec_act *exec_act_new(exec_warp *w, const exec_fdec *fd);
void exec_act_release(exec_warp *w, exec_act *f, uint32_t lanes);
/* exec_group.c: make f the running group's frame; pick the next group (see the SIMT scheme
 * above; 0 when no lane can run). */
void exec_set_group(exec_warp *w, exec_act *f);
int exec_sched(exec_warp *w);
/* Lanes that may run now (a lane stepped alone: only it), and lanes not exited or trapped. */
static inline uint32_t exec_runnable(const exec_warp *w)
{
    uint32_t r = w->valid & ~w->exited & ~w->trapped & ~w->bar_wait & ~w->ws_wait;
    if (w->solo)
        r &= 1u << (w->solo - 1);
    return r;
}
static inline uint32_t exec_live(const exec_warp *w)
{
    return w->valid & ~w->exited & ~w->trapped;
}
/* exec_dispatch.c: deterministic time, warp-instructions executed by the machine so far. */
uint64_t exec_now(const exec_warp *w);
/* exec_bar.c: complete every CTA barrier whose expected threads arrived (1 if any did);
 * whether barrier b would complete now (folding whole warps in). */
int exec_bar_check(exec_machine *m);
int exec_bar_full(exec_machine *m, int b);

/* A run in progress (exec_run and the loops it drives: exec_run.c, exec_step.c,
 * exec_workers.c; exec_dispatch.c accounts each slice's steps here). */
typedef struct exec_pool exec_pool;
typedef struct {
    const exec_run_opts *o;
    uint64_t steps;
    uint64_t polled;
    exec_pool *pool;          /* a parallel worker's pool (exec_run_par); NULL on one thread */
    uint64_t turn_end;        /* steps at which the CTA's turn ends (exec_sched.c); 0: none */
    _Atomic int *cancel;      /* a parallel worker: abandon the CTA at the next round */
} exec_runctx;
/* How a warp's slice ended (exec_slice). */
enum { WR_SLICE, WR_BLOCKED, WR_DONE, WR_STOP, WR_YIELD };
/* exec_dispatch.c: run warp w for at most `budget` instructions through the dispatch loop;
 * account steps; returns WR_*. */
int exec_slice(exec_machine *m, exec_warp *w, int64_t budget, exec_runctx *rc);
/* want, cut to the run's step budget left. */
static inline int64_t exec_budget(const exec_runctx *rc, int64_t want)
{
    if (rc->o->max_steps) {
        uint64_t left = rc->o->max_steps > rc->steps ? rc->o->max_steps - rc->steps : 0;
        if ((uint64_t)want > left)
            want = (int64_t)left;
    }
    return want;
}
/* The run's interrupt flag is raised (Ctrl-C, or another thread's request: any thread may raise
 * it, so it is read atomically). */
static inline int exec_intr_flag(const exec_runctx *rc)
{
    return rc->o->interrupt && __atomic_load_n(rc->o->interrupt, __ATOMIC_RELAXED);
}
/* Whether the run is to stop with EXEC_STOP_INTERRUPT now (the flag, or the test hook
 * exec_set_interrupt_after reached). */
static inline int exec_interrupted(const exec_machine *m, const exec_runctx *rc)
{
    return exec_intr_flag(rc) ||
           (m->intr_after && rc->steps >= m->intr_after);
}
/* exec_launch.c: start CTA id (-1 when out of memory), end the running one (keep: another CTA
 * of the run follows), and the steps a CTA's start costs the budget. */
int exec_cta_start(exec_machine *m, uint32_t id);
void exec_cta_end(exec_machine *m, int keep);
uint64_t exec_cta_cost(const exec_machine *m);
/* exec_run.c: run the live CTA (1 finished, 0 a stop, 2 abandoned by a worker, 3/4 clusters,
 * 5 its turn is over); run the grid on this thread. */
int exec_cta_run(exec_machine *m, exec_runctx *rc);
int exec_run_grid(exec_machine *m, exec_runctx *rc);
/* Start CTA m->cur_cta and count its setup; ran: CTAs ran before it in this run, so an
 * interrupt stops in the new one. 0 run it; 1 stopped (the interrupt stop is set); -1 out of
 * memory (m->err). One thread's grid run and the parallel run's warm-up share it. */
int exec_cta_enter(exec_machine *m, exec_runctx *rc, int ran);
/* exec_step.c: a step of exec_run (opts->mode other than EXEC_RUN_CONTINUE). */
int exec_run_step(exec_machine *m, const exec_run_opts *o, exec_runctx *rc);
/* exec_workers.c: whether this continue runs on worker threads; that run; a worker's pool
 * counts steps (halting at the budget or the interrupt hook) and says when to leave a CTA. */
int exec_par_wanted(exec_machine *m, const exec_run_opts *o);
int exec_run_par(exec_machine *m, exec_runctx *rc);
void exec_pool_count(exec_pool *p, uint64_t n);
int exec_pool_halted(const exec_runctx *rc);
/* exec_frame.c: per-launch memory slots (exec_wset): take n zeroed warps (-1 out of memory),
 * keep warps and a shared block for later, free warps. */
int exec_wset_get(exec_wset *slot, uint32_t n, exec_warp **warps, uint8_t **sregs);
void exec_wset_put(exec_wset *slot, exec_warp *warps, uint8_t *sregs, uint32_t n,
                   uint8_t *sh, uint64_t sh_cap);
void exec_wset_free(exec_warp *warps, uint8_t *sregs, uint32_t n);

void exec_sreg_init_launch(exec_machine *m);
void exec_sreg_init_cta(exec_machine *m);
void exec_sreg_refresh(exec_warp *w, int slot);
int exec_sreg_slot(ptx_sreg_id id, int comp, int *bits);

/* A CTA's shared memory: the kernel's static variables, then the dynamic part from the next
 * 16-byte boundary (exec_smem_user bytes at shared addresses 0..). Besides, sm_80 and later
 * reserve 1 KB per CTA for the system (cudaDevAttrReservedSharedMemoryPerBlock), where
 * cooperative groups keep the state of tiles larger than a warp: here it is exec_cta.res, at
 * shared addresses [EXEC_SMEM_RES_BASE, + EXEC_SMEM_RESERVED) (%reserved_smem_offset_begin,
 * _end, _cap, _0, _1 name it), far from the kernel's bytes so that running off the end of
 * them still faults. */
#define EXEC_SMEM_RES_BASE (MEM_SHCL_BASE - EXEC_SMEM_RESERVED)
static inline uint64_t exec_smem_user(uint64_t shared_static, uint64_t dyn)
{
    return (shared_static + 15) / 16 * 16 + dyn;
}
/* Host bytes of the reserved shared range [addr, addr + n) of CTA c, NULL when outside it. */
static inline uint8_t *exec_smem_res(exec_cta *c, uint64_t addr, uint64_t n)
{
    if (addr < EXEC_SMEM_RES_BASE || n > EXEC_SMEM_RESERVED ||
        addr - EXEC_SMEM_RES_BASE > EXEC_SMEM_RESERVED - n)
        return NULL;
    return c->res + (addr - EXEC_SMEM_RES_BASE);
}

/* Host byte of local address addr of a lane; addr must lie in [lsp, MEM_LOCAL_TOP). */
static inline uint8_t *mem_local_host(const exec_warp *w, int lane, uint64_t addr)
{
    return w->ldata[lane] + (addr - (MEM_LOCAL_TOP - w->lcap[lane]));
}
/* Whether [addr, addr + n) of a lane's local space is allocated stack. */
static inline int mem_local_ok(const exec_warp *w, int lane, uint64_t addr, uint64_t n)
{
    return addr >= w->lsp[lane] && addr <= MEM_LOCAL_TOP && MEM_LOCAL_TOP - addr >= n;
}

/* mem.c: translate an access; NULL after raising a fault. `kind` is EXEC_ACC_READ, _WRITE,
 * _RED (an order-independent reduction parallel workers apply with host atomics) or _ATOMIC. */
uint8_t *mem_xlate(exec_warp *w, const exec_insn *in, int lane, ptx_space sp, uint64_t addr,
                   uint32_t size, int kind);
/* An access that cannot be performed as asked (status EXEC_ACC_OOB, _MISALIGNED, _READONLY;
 * osp: the space the instruction named, sp the one resolved): a global access inside the
 * padding a GPU maps after an allocation is performed there (returns its host bytes); anything
 * else faults (NULL). The observers of abnormal accesses see it either way. */
uint8_t *mem_bad(exec_warp *w, const exec_insn *in, int lane, ptx_space osp, ptx_space sp,
                 uint64_t addr, uint32_t size, int kind, int status, const char *why);
/* The region whose bytes and padding hold [addr, addr + n), or NULL. */
mem_region *mem_global_find_pad(mem_global *g, uint64_t addr, uint64_t n);

/* exec_obs.c: the seams. The hot paths test m->obs_spaces (and m->obs_want) before calling. */
typedef struct exec_obs_acc {
    exec_warp *w;
    const exec_insn *in;
    mem_region *reg;          /* global: the region accessed */
    uint8_t *host1;           /* one lane: its host bytes */
    uint8_t *data;            /* several lanes: host bytes of address `base` ... */
    uint64_t base;
} exec_obs_acc;
int exec_obs_dispatch(exec_machine *m, exec_mem_ev *ev);
int exec_obs_lane(exec_warp *w, const exec_insn *in, int lane, ptx_space sp, uint64_t addr,
                  uint64_t size, int kind, int status, int flags, mem_region *reg,
                  uint8_t *host);
int exec_obs_span(exec_warp *w, const exec_insn *in, uint32_t lanes, ptx_space sp,
                  const uint64_t *addrs, uint64_t bias, uint64_t size, int kind, int flags,
                  mem_region *reg, uint8_t *data, uint64_t base);
uint8_t *exec_obs_host(const exec_mem_ev *ev, uint32_t lane);
void exec_obs_sync(exec_warp *w, const exec_insn *in, exec_sync_kind kind, uint32_t lanes,
                   int id, uint32_t count, uint64_t addr);
void exec_obs_sync_ev(exec_machine *m, exec_sync_ev *ev);
void exec_obs_misuse(exec_warp *w, const exec_insn *in, int lane, int family, int id,
                     uint32_t count, uint64_t addr);
void exec_obs_watch_sync(exec_machine *m);
/* exec_undef.c: register tracking on or off as the observers want (called by obs_gates); a
 * new frame's register masks (exec_act_new); the frames' masks freed. */
void exec_undef_sync(exec_machine *m);
void exec_undef_frame(exec_warp *w, exec_act *f);
void exec_undef_free(exec_machine *m);
/* exec_break.c: the breakpoint stub (exec_undef.c puts its own beside it) */
int exec_bp_stub(exec_warp *w, const exec_insn *in, uint32_t m);
/* memset of fresh memory: the fill byte, or zero */
static inline int exec_fill_byte(const exec_machine *m) { return m->fill ? m->fill - 1 : 0; }
void exec_obs_clear(exec_machine *m);
#define EXEC_OBS_SYNC_ON(m) __builtin_expect((m)->obs_want & EXEC_OBS_SYNC, 0)
int mem_local_push(exec_warp *w, const exec_insn *in, int lane, uint64_t size, uint32_t align,
                   uint64_t *base);
int mem_describe(const exec_machine *m, ptx_space sp, uint64_t addr, char *out, size_t n);
uint8_t *mem_host(exec_machine *m, ptx_space sp, uint64_t addr, uint64_t n, exec_warp *w,
                  int lane, int write);
int mem_module_init(exec_machine *m, char *err, size_t errlen);

/* mem_xlate's kind with flags (EXEC_ACC_F_* << 8). */
#define EXEC_ACC_ASYNC_R (EXEC_ACC_READ | EXEC_ACC_F_ASYNC << 8)
#define EXEC_ACC_ASYNC_W (EXEC_ACC_WRITE | EXEC_ACC_F_ASYNC << 8)

/* Address operand modes (in->aux[2]) of memory instructions (exec_mem.c). */
enum { EXEC_AM_REG64 = 1, EXEC_AM_REG32, EXEC_AM_ABS, EXEC_AM_LOCALVAR, EXEC_AM_PARAMVAR,
       EXEC_AM_KPARAM };
int exec_dec_address(exec_dec *d, const ptx_insn *pi, exec_insn *in, const ptx_operand *o,
                     ptx_space sp);
void exec_addr_lanes(exec_warp *w, const exec_insn *in, uint32_t m, uint64_t *addr);
/* exec_async.c: st.async / red.async (red = 1), reached from exec_dec_st and exec_dec_red_any. */
int exec_dec_st_async(exec_dec *d, const ptx_insn *pi, exec_insn *in, int red);

/* exec_ctrl.c: arguments and return value of the call instruction `in` (caller's frame). */
int exec_call_arg(exec_warp *w, const exec_insn *in, int k, uint32_t lane, void *out,
                  uint32_t size);
void exec_call_ret(exec_warp *w, const exec_insn *in, uint32_t lane, const void *val,
                   uint32_t size);

/* exec_tcgen05.c: the last thread of the CTA exited at instruction in: Tensor Memory still
 * allocated is an exception (raised on w). Returns -1 after raising it, else 0. */
int exec_tcgen05_cta_exit(exec_warp *w, const exec_insn *in);

/* exec_ctrl.c: parameters of a device function whose address is taken (mov d, param) get a
 * copy in the local frame; offs[k] = offset of parameter k's copy (UINT64_MAX: none), *size and
 * *align the whole block (depot + copies). Returns the number of such parameters. */
int exec_param_copies(const exec_fdec *fd, uint64_t *offs, uint64_t *size, uint32_t *align);

/* exec_sync.c: an atom/red that parallel CTAs may apply with host atomics (see there). */
int exec_atom_par_ok(const exec_insn *in);

/* exec_libc.c: functions without a body that CUDA's runtime provides (vprintf, malloc...;
 * exec_libc_known in exec.h). */
int exec_libc_call(exec_warp *w, const exec_insn *in, uint32_t m, const ptx_func *callee);

static inline int exec_popc(uint32_t x) { return __builtin_popcount(x); }
static inline int exec_ctz(uint32_t x) { return __builtin_ctz(x); }
#define EXEC_FOR_LANES(i, mask) \
    for (uint32_t _mm = (mask), i; _mm && ((i = (uint32_t)__builtin_ctz(_mm)), 1); _mm &= _mm - 1)

/* exec_cluster.c: thread block clusters (see there). Hooks are called only when m->cl is set,
 * except exec_cluster_launch (every launch) and exec_cluster_free (every kill). */
#define EXEC_CLUSTER_MAX 16          /* CTAs per cluster (8 portable, 16 non-portable) */
#define EXEC_CLUSTER_BAR EXEC_NBAR   /* lane_bar of a lane waiting in barrier.cluster.wait */
typedef struct exec_cluster exec_cluster;
int exec_cluster_launch(exec_machine *m);
void exec_cluster_free(exec_machine *m);
int exec_cluster_dims(const exec_machine *m, exec_dim3 *d);
void exec_cluster_cta_ids(const exec_machine *m, exec_dim3 c, exec_dim3 *cid, exec_dim3 *cct,
                          uint32_t *rank);
int exec_cluster_run_grid(exec_machine *m, void *rc);
int exec_cluster_cta_over(exec_machine *m);
int exec_cluster_others(exec_machine *m, void *rc);
void exec_cluster_focus(exec_machine *m, uint32_t cta);
exec_cta_state exec_cluster_cta_state(const exec_machine *m, uint32_t cta);
uint32_t exec_cluster_next_running(const exec_machine *m, uint32_t from);
exec_cta *exec_cluster_parked_cta(exec_machine *m, uint32_t cta);
/* The state of a CTA parked beside the swapped-in one (resident CTAs, a cluster's CTAs); NULL
 * for the swapped-in CTA or one that is not running. Its warps' cta pointers name the machine's
 * CTA (the one swapped in): inspection reads its shared memory through this. */
exec_cta *exec_parked_cta(exec_machine *m, uint32_t cta);
/* Core files: the live cluster's state (st: size, cluster index, live, rank swapped in, next
 * rank's turn, barrier phase, arrivals; arr: barrier.cluster arrivals) and its slots (the
 * swapped-in rank's CTA is the machine's); restoring into a machine with the launch restored
 * (li.cluster set) and no cluster, then every slot (the swapped-in one without arrays; the set
 * owns the others' arrays). -1 on a mismatch. */
int exec_cluster_core_state(const exec_machine *m, uint32_t st[7], const uint32_t **arr,
                            size_t *narr);
int exec_cluster_core_slot(const exec_machine *m, uint32_t r, uint32_t *id, int *done,
                           const exec_cta **cta, const exec_warp **warps, const uint8_t **sregs);
int exec_cluster_core_restore(exec_machine *m, const uint32_t st[7], const uint32_t *arr,
                              size_t narr);
int exec_cluster_core_set_slot(exec_machine *m, uint32_t r, uint32_t id, int done,
                               const exec_cta *cta, exec_warp *warps, uint8_t *sregs);
const exec_warp *exec_cluster_warp(const exec_machine *m, uint32_t cta, uint32_t warp);
uint32_t exec_cluster_size(const exec_machine *m);
uint8_t *exec_cluster_shared(exec_warp *w, const exec_insn *in, int lane, uint64_t addr,
                             uint32_t size);
uint8_t *exec_cluster_shared_host(exec_machine *m, uint64_t addr, uint64_t n);
int exec_cluster_map(exec_warp *w, uint64_t a, uint32_t r, uint64_t *out);
int exec_cluster_addr_fn(exec_warp *w, const exec_insn *in, uint32_t m, int mapa);
int exec_dec_barrier_cluster(exec_dec *d, const ptx_insn *pi, exec_insn *in);
/* Entry points for exec_cluster.c (exec_run.c: the pass; exec_launch.c: the rest).
 * exec_run_cta_pass runs the machine's CTA: 0 a stop, 1 finished; with m->cl set one pass
 * over its warps, 3 something ran, 4 all blocked. */
int exec_run_cta_pass(exec_machine *m, void *rc);
int exec_run_cta_start(exec_machine *m, uint32_t id);
void exec_run_cta_end(exec_machine *m, int keep);
void exec_run_cta_free_parked(exec_machine *m, exec_cta *c, exec_warp *warps, uint8_t *sregs);
/* Free what a per-launch memory slot holds (exec_free). */
void exec_wset_release(exec_wset *slot);

#endif
