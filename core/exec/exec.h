/* exec.h - the execution core's narrow public interface: load, launch, run/stop, inspect. */
#ifndef EXEC_H
#define EXEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "ptx.h"

/* ---------------------------------------------------------------------------------------------
 * The debugger (and anything else above core/) sees the machine only through this header.
 * Addresses: "pc" is a module-wide instruction index: the instructions of the functions that
 * have a body, taken in module->funcs order, numbered 0, 1, 2, ... (so dwarf/ can compute the
 * same numbering from the ptx_module alone); exec_pc_insn maps it back to function and insn.
 * Every function returns 0 on success and -1 on error, with the message in exec_errmsg(m).
 * ------------------------------------------------------------------------------------------- */


/* Load: decode every function of `mod` (which the machine borrows; keep it alive). On a decode
 * error (e.g. an unsupported instruction) returns NULL and writes
 * "FILE:LINE:COL: error: unsupported instruction 'xyz.foo'" style text into err. */
exec_machine *exec_new(const ptx_module *mod, char *err, size_t errlen);
/* The same, with the machine's own global regions (module variables, exec_global_alloc
 * buffers, device malloc) allocated upwards from global_base and never past global_limit
 * (0: unbounded). exec_new uses MEM_GLOBAL_BASE. Several machines of one process (the CUDA
 * runtime's modules) get disjoint windows so their addresses never collide. */
exec_machine *exec_new_at(const ptx_module *mod, uint64_t global_base, uint64_t global_limit,
                          char *err, size_t errlen);
void exec_free(exec_machine *m);
const char *exec_errmsg(const exec_machine *m);
/* Whether a function without a PTX body is one the core provides, as CUDA's runtime does
 * (vprintf, __assertfail, malloc, free): a call to any other one faults (exec_libc.c). */
int exec_libc_known(const char *name);
const ptx_module *exec_module(const exec_machine *m);
/* Where device printf output goes (NULL, the default: stdout as it is at each write). */
void exec_set_output(exec_machine *m, FILE *out);

/* ---- global memory and symbols -------------------------------------------------------------- */
/* Allocate `size` zeroed bytes of global memory (a host buffer); returns its device address. */
int exec_global_alloc(exec_machine *m, uint64_t size, uint64_t *addr);
/* Name the allocation at addr for messages ("buffer x", "x+4"); -1 if none starts there. */
int exec_global_name(exec_machine *m, uint64_t addr, const char *name);
int exec_global_free(exec_machine *m, uint64_t addr);
/* Map bytes the caller owns, [data, data+size), as global memory at address base (a region
 * like any other: accesses are bounds-checked, a fault outside names it `name`, which is
 * borrowed and must outlive the mapping). The caller keeps the bytes alive until
 * exec_global_unmap. Fails when the range overlaps a region. The CUDA runtime maps each
 * allocation at its own host address (base == (uintptr_t)data). */
int exec_global_map(exec_machine *m, uint64_t base, uint64_t size, void *data,
                    const char *name);
int exec_global_unmap(exec_machine *m, uint64_t base);
/* Mark the mapped range at base as memory the host may use while a kernel runs (pinned,
 * registered host memory): a parallel run's workers never write it ahead of one thread (the
 * first write or reduction there hands the run back to one thread), so the host never sees a
 * value that the run later takes back. -1 when base is not a mapped range. */
int exec_global_set_host(exec_machine *m, uint64_t base, int on);
/* Host bytes of the global range [addr, addr+n) when it lies inside one region, else NULL. */
void *exec_global_host(exec_machine *m, uint64_t addr, uint64_t n);
/* Host bytes of [off, off+n) of the module's constant bank (what .const variables hold), NULL
 * when out of range. Writing there changes what kernels read (cudaMemcpyToSymbol). */
void *exec_const_host(exec_machine *m, uint64_t off, uint64_t n);
/* Bytes device malloc may have in use at once (cudaLimitMallocHeapSize; default 8 MB). */
void exec_set_heap_limit(exec_machine *m, uint64_t bytes);
/* Fresh memory (shared memory at each CTA start, local frames, device malloc blocks) holds
 * `byte` instead of zeros (-1: zeros, the default), as glibc's MALLOC_PERTURB_ does: an
 * uninitialised read then changes results visibly. Module variables stay zero (PTX ISA 5.4.4:
 * variables without an initialiser in global and const space are zero-initialised). */
void exec_set_fill(exec_machine *m, int byte);
int exec_get_fill(const exec_machine *m);
/* Address and space of a module-scope variable or a variable of the kernel being run. */
int exec_symbol_addr(exec_machine *m, const char *name, ptx_space *space, uint64_t *addr,
                     uint64_t *size);

/* ---- kernel resources (exec_kres.c) ---------------------------------------------------------
 * What ptxas reports for a kernel (cudaFuncGetAttributes): static shared memory (its own
 * .shared and the module-scope .shared it reaches, not extern, at their alignments), the
 * module .const it reaches, its own .local frame, its parameter bytes, the named barriers it
 * uses. exec_kernel_regs: an estimate of its registers per thread that errs high (PTX
 * registers are virtual; exec_kres.c says how), capped as ptxas caps it (255, .maxnreg,
 * launch bounds); it scans the code the kernel may run, so callers keep the result. */
typedef struct {
    uint64_t shared_static, const_bytes, local_bytes, param_bytes;
    int barriers;             /* ids 0..n-1 used; 0 when none */
} exec_kres;
int exec_kernel_resources(const ptx_module *mod, const ptx_func *kernel, exec_kres *r);
int exec_kernel_regs(const ptx_module *mod, const ptx_func *kernel);
/* The limits ptxas and the driver check when loading a module (exec_new refuses a module
 * that exceeds one, with ptxas's message): a kernel's static .shared above 48 KB, its
 * parameters above 32764 bytes (4352 before PTX ISA 8.1 or below sm_70), a function's .local
 * frame above the 512 KB per thread. */
int exec_load_limits(const ptx_module *mod, char *err, size_t errlen);

/* ---- instruction addresses ------------------------------------------------------------------ */
uint32_t exec_ninsns(const exec_machine *m);
/* pc -> function and parsed instruction. */
int exec_pc_insn(const exec_machine *m, uint32_t pc, const ptx_func **f, const ptx_insn **pi);
/* First pc of a function with a body; -1 when it has none. */
int64_t exec_func_pc(const exec_machine *m, const ptx_func *f);

/* ---- launches ------------------------------------------------------------------------------- */

/* Prepare a launch: `params` are the kernel's .param bytes laid out per the ABI (each
 * parameter at its natural alignment, exec_param_layout tells offsets). Nothing runs yet. */
int exec_launch(exec_machine *m, const ptx_func *kernel, exec_dim3 grid, exec_dim3 block,
                uint32_t dyn_shmem, const void *params, size_t nparams_bytes);
/* Thread block clusters (sm_90): cluster dimensions for the following launches (the launch
 * attribute of cudaLaunchKernelEx); {0,0,0} (the default) = none: a kernel then runs in the
 * clusters its .reqnctapercluster declares, else every CTA is a cluster of one. exec_launch
 * fails when the grid is not a multiple of the cluster dimensions, a cluster would hold more
 * than 16 CTAs, the dimensions differ from .reqnctapercluster, or a .explicitcluster kernel
 * gets none. The CTAs of a cluster run together (exec_cluster.c). */
int exec_set_cluster_dims(exec_machine *m, exec_dim3 dims);
/* Offsets and sizes of the kernel's parameters; returns total size or -1. */
int64_t exec_param_layout(const ptx_func *kernel, uint64_t *offsets, uint64_t *sizes, int max);
/* End the current launch (kill); memory of buffers stays. */
void exec_kill(exec_machine *m);
/* NULL when no launch is active. */
const exec_launch_info *exec_current_launch(const exec_machine *m);
/* Renumber the current launch (a program's launches over several machines are numbered
 * process-wide); %gridid of CTAs not yet started follows. */
void exec_set_launch_id(exec_machine *m, uint32_t id);

/* ---- running -------------------------------------------------------------------------------- */



typedef enum {
    EXEC_RUN_CONTINUE,     /* run until something stops the kernel */
    EXEC_RUN_STEP_WARP,    /* execute one instruction of the focused warp's current group */
    EXEC_RUN_STEP_LANE,    /* execute one instruction of the focused lane only; a
                              warp-synchronous instruction (exec_insn_collective) or a call is
                              never run by one lane: the lanes of its warp that are behind run
                              up to it first (min-pc order, no further), then the group executes
                              it (so converged lanes keep one frame across calls);
                              lanes it still waits for (a membermask naming lanes elsewhere) run
                              until they complete it, and a CTA barrier completes as for a warp
                              step (others_run). Never a fabricated deadlock or exception. */
} exec_run_mode;

typedef struct exec_run_opts {
    exec_run_mode mode;
    uint32_t cta, warp, lane;   /* the focus, for steps */
    int others_run;             /* during a step, other warps also advance one instruction
                                   each (scheduler-locking off). Whatever this says, when the
                                   step leaves the stepped lanes waiting at a CTA barrier
                                   (bar.sync, barrier.sync...), the other warps of the CTA run,
                                   in warp order, until they arrive at that barrier or exit, no
                                   further: the barrier then completes and the step ends past
                                   it, with the other warps released but still right after
                                   it. If another warp stops first (breakpoint, fault,
                                   watchpoint, limit) that stop is reported instead, the stepped
                                   lanes still waiting. */
    int run_on;                 /* step modes: instead of one instruction, run the focused warp
                                   (or lane alone) in slices until something stops it: a
                                   breakpoint, a step mark reached by the focused lane, any other
                                   stop, max_steps or the interrupt; or the focused lane exits
                                   (EXEC_STOP_STEP). A lane run alone never executes a
                                   warp-synchronous instruction alone (see EXEC_RUN_STEP_LANE). */
    uint64_t max_steps;         /* stop with EXEC_STOP_LIMIT after this many warp-instructions;
                                   0 = no limit */
    volatile int *interrupt;    /* polled; non-zero stops with EXEC_STOP_INTERRUPT */
    int rejoin;                 /* EXEC_RUN_STEP_LANE: instead of a step of the lane, its
                                   warp-mates behind it run until they join it (the group chosen
                                   next holds the lane) or cannot; the lane does not move. The
                                   end of a line step of one lane that executed warp-synchronous
                                   instructions or calls with them: they finish the line with it
                                   (none stays inside an inlined __shfl_down_sync) */
} exec_run_opts;

/* Whether a lane stepped alone (EXEC_RUN_STEP_LANE) executes the instruction at pc only with
 * the warp-mates behind it, after they catch up: warp-synchronous instructions, calls, returns
 * of device functions and backward branches. */
int exec_lane_group_insn(const exec_machine *m, uint32_t pc);

/* Warp-synchronous instructions and calls that lane steps (EXEC_RUN_STEP_LANE) executed with
 * warp-mates of the lane, since the machine was made. */
uint64_t exec_lane_group_runs(const exec_machine *m);

/* Run the current launch. A BREAKPOINT stop gives the stopped group of that warp a pass:
 * when it next runs (in this or any later exec_run, whatever other warps stopped meanwhile) it
 * executes the flagged instruction once without stopping again, so every warp stopped at a
 * breakpoint passes it exactly once on resume. The pass ends if those lanes move on without
 * using it (e.g. stepped with the breakpoint removed). After DONE, TRAP, ASSERT or
 * EXCEPTION the launch is over but its state stays inspectable until exec_kill or the next
 * exec_launch. Returns -1 only for misuse (no launch, bad focus). */
int exec_run(exec_machine *m, const exec_run_opts *opts, exec_stop *stop);

/* Counters since exec_new: warp-instructions executed (one per group per instruction) and
 * thread-instructions (the lanes of those groups that were active, guard included). */
void exec_stats(const exec_machine *m, uint64_t *warp_insns, uint64_t *thread_insns);

/* Worker threads for run-to-completion (default 1; 0 = one per online CPU). CTAs then run in
 * parallel, but only for a `continue` with no breakpoint or watchpoint active, no cluster,
 * cooperative launch or resident CTAs taking turns, and a kernel that (with the functions
 * it calls) has no libc externs other than printf, indirect calls, surface or bulk reductions,
 * brkpt or %clock/%globaltimer reads; otherwise one thread runs. printf output is buffered per CTA and
 * written in CTA order. Results, stops and step counts are always one thread's: workers claim
 * the global memory they touch (exec_par.c); CTAs that communicate through it, a stop, an
 * interrupt or the step limit halt them, the CTAs above the lowest unfinished one are undone
 * and one thread goes on from there. Returns the number in effect. */
int exec_set_threads(exec_machine *m, int n);
int exec_get_threads(const exec_machine *m);
/* A run to completion with workers first runs CTAs on one thread until `steps` warp-
 * instructions (2^17 by default) are spent, so that small grids never pay for starting
 * threads; 0 hands every CTA to the workers at once (tests of the parallel paths). */
void exec_set_par_warmup(exec_machine *m, uint64_t steps);
/* For tests: the next exec_run behaves as if its interrupt flag were raised once `steps`
 * warp-instructions (CTA setup included; all worker threads together) have run, so an
 * interrupt can land in the middle of a parallel run at a reproducible amount of work. */
void exec_set_interrupt_after(exec_machine *m, uint64_t steps);

/* What the hardware tolerates in warp-synchronous instructions (shfl, vote, match, redux,
 * bar.warp.sync, elect) where the ISA leaves the behaviour undefined; runs complete them as a
 * GPU does, and a sync checker may report them:
 *   EXEC_WS_ABSENT        the membermask names lanes past the end of a partial warp (threads
 *                         that do not exist); they count as exited.
 *   EXEC_WS_MASKS_DIFFER  lanes executing the instruction together passed different masks,
 *                         and `mask` names lanes of another mask's set; each lane got the
 *                         result over its own mask.
 *   EXEC_WS_NOT_MEMBER    lanes executed it with a mask that does not name them (HeCBench's
 *                         btree: __shfl_up_sync(0x0000ffff, v, 16) by the whole warp); they
 *                         got the result over the mask's lanes (for shfl, their source lane).
 * lanes: the lanes that passed `mask`. These are EXEC_SYNC_WARP_UNDEFINED events of the sync
 * seam (exec_obs.h; the hook hears the first three kinds, the seam's observers all four); the
 * hook is an observer of it: while it is set, kernels run on one
 * thread, so each event is reported once, in the order of a single-threaded run. NULL removes
 * it. */
/*   EXEC_WS_SRC_ABSENT    shuffle lanes read a source lane their membermask names that took
 *                         no part (exited, not a thread, or not executing it): the value is
 *                         undefined on a GPU; they got what that lane's register held. (A
 *                         source outside the mask is undefined too, but real programs read
 *                         such lanes: NVIDIA's reduction sample; it is not an event.) */
typedef enum { EXEC_WS_ABSENT = 1, EXEC_WS_MASKS_DIFFER, EXEC_WS_NOT_MEMBER,
               EXEC_WS_SRC_ABSENT } exec_ws_event;
typedef void (*exec_ws_hook_fn)(void *ctx, exec_ws_event ev, uint32_t cta, uint32_t warp,
                                uint32_t pc, uint32_t lanes, uint32_t mask);
void exec_set_ws_hook(exec_machine *m, exec_ws_hook_fn fn, void *ctx);

/* %envreg0..31 as later launches read them (0 unless set); -1 for another index. */
int exec_set_envreg(exec_machine *m, int idx, uint32_t value);
/* Later launches are cooperative (cudaLaunchCooperativeKernel): every CTA of the grid is
 * resident and they take turns (no CTA waits for another to finish before it starts), and
 * the grid barrier's workspace is provided: a zeroed block of global memory whose address is
 * in %envreg1 (high 32 bits) and %envreg2 (low 32 bits), where nvcc's
 * cooperative_groups::this_grid().sync() finds it. The caller checks that the grid fits on
 * the device (cudaOccupancyMaxActiveBlocksPerMultiprocessor x SMs). */
void exec_set_cooperative(exec_machine *m, int on);   /* at most 4224 CTAs (132 SMs x 32) */
/* The scheduler (core/exec/exec_sched.c): EXEC_SCHED_ROUND_ROBIN (the default: warps take slices
 * in turn, CTAs run in order and take turns only when one waits) or EXEC_SCHED_RANDOM: warps run
 * in slices of a random length (1 to 64 warp-instructions) in a random order, and CTAs take
 * turns of a random length in a random order, drawn from a generator seeded with `seed` at
 * each launch, so a seed always gives the same run. Random runs use one thread. */
enum { EXEC_SCHED_ROUND_ROBIN, EXEC_SCHED_RANDOM };
void exec_set_schedule(exec_machine *m, int mode, uint64_t seed);

/* Breakpoints: flag instruction `pc`; costs nothing while unset. */
int exec_set_break(exec_machine *m, uint32_t pc, int on);
/* Step marks: internal breakpoints of a debugger's step (step over a call, out of a frame, to
 * another line) that stop only the focused lane of the step (exec_run_opts cta/warp/lane, step
 * modes); other lanes and `continue` run through them. Independent of exec_set_break on the
 * same pc. Remove them after the step (a set mark keeps continues on one thread). */
int exec_set_step_mark(exec_machine *m, uint32_t pc, int on);
/* Whether the instruction at pc is warp-synchronous: CTA and warp barriers, shfl, vote, match,
 * redux, elect, activemask, matrix instructions (wmma, mma, ldmatrix, stmatrix, movmatrix,
 * wgmma), and any .aligned instruction. */
int exec_insn_collective(const exec_machine *m, uint32_t pc);

/* Breakpoint conditions evaluated inside the core (no stop, no exec_run round trip while they are
 * false). A condition is a small stack program over per-lane values, each a 64-bit integer or a
 * double (the program's compiler knows which). Integers are kept as a typed debugger value is:
 * fitted to their type (bits, signedness: sign-extended to 64 for signed types). The program
 * leaves one 0/1 integer; the breakpoint stops only when it is non-zero for some lane of the
 * group (EXEC_STOP_BREAKPOINT's lanes are then those lanes, and any lane where the program hit
 * an error such as a division by zero, so the caller can evaluate the condition itself there).
 * EXEC_C_LAND/LOR evaluate both operands (errors in an unneeded operand make the lane true).
 * Registers are named as exec_reg_get names them and resolved in the function that contains pc;
 * their value is converted as the debugger converts register bits: integer types fitted,
 * f16/f32/f64 to double, predicates 0/1. Clock and timer special registers are not allowed. */
typedef enum {
    EXEC_C_REG,        /* push register `name`, declared type `type` (checked) */
    EXEC_C_SREG,       /* push special register `id` component `comp` (32 bits, gridid 64) */
    EXEC_C_IMM,        /* push `imm` (integer bits or a double's bits) */
    EXEC_C_FIT,        /* integer: wrap to `bits` (8/16/32/64), sign-extended when `sgn` */
    EXEC_C_I2F,        /* integer -> double (as signed when `sgn`) */
    EXEC_C_F32,        /* double rounded to float (and back to double) */
    EXEC_C_ADD, EXEC_C_SUB, EXEC_C_MUL, EXEC_C_DIVS, EXEC_C_DIVU, EXEC_C_MODS, EXEC_C_MODU,
    EXEC_C_AND, EXEC_C_OR, EXEC_C_XOR, EXEC_C_SHL, EXEC_C_SHRS, EXEC_C_SHRU, /* 64-bit ints */
    EXEC_C_NEG, EXEC_C_BNOT,
    EXEC_C_FADD, EXEC_C_FSUB, EXEC_C_FMUL, EXEC_C_FDIV, EXEC_C_FNEG,
    EXEC_C_EQ, EXEC_C_NE, EXEC_C_LTS, EXEC_C_LES, EXEC_C_GTS, EXEC_C_GES, EXEC_C_LTU,
    EXEC_C_LEU, EXEC_C_GTU, EXEC_C_GEU,                     /* integer compares -> 0/1 */
    EXEC_C_FEQ, EXEC_C_FNE, EXEC_C_FLT, EXEC_C_FLE, EXEC_C_FGT, EXEC_C_FGE, /* double */
    EXEC_C_NOT, EXEC_C_FNOT,   /* integer == 0, double == 0 -> 0/1 */
    EXEC_C_BOOL, EXEC_C_FBOOL, /* integer != 0, double != 0 -> 0/1 */
    EXEC_C_LAND, EXEC_C_LOR,   /* integers: both non-zero / either non-zero -> 0/1 */
} exec_cond_op;
#define EXEC_COND_MAX   256    /* ops in one program */
#define EXEC_COND_DEPTH 16     /* stack depth */
typedef struct {
    uint8_t op;                /* exec_cond_op */
    uint8_t bits, sgn;         /* FIT, I2F */
    uint16_t type;             /* REG: the register's declared ptx_type */
    int32_t id, comp;          /* SREG */
    uint64_t imm;              /* IMM */
    char name[40];             /* REG */
} exec_cond;
/* Attach a condition to the breakpoint at pc (n = 0 or prog NULL: none, stop always). Returns
 * -1 (no condition attached) when the program is malformed, names a register the function does
 * not have or with another type, or a special register it cannot read. exec_set_break(pc, 0)
 * removes the condition too. */
int exec_set_break_cond(exec_machine *m, uint32_t pc, const exec_cond *prog, int n);
/* Declared type of register `name` (as exec_reg_get names it) of function f; -1 if none. */
int exec_func_reg_type(const exec_machine *m, const ptx_func *f, const char *name,
                       ptx_type *type);

/* Watchpoints on global (cta ignored) or shared memory (of CTA `cta`, or every CTA when
 * cta == UINT32_MAX). kinds: 1 = write, 2 = read, 3 = both. Returns an id >= 0 or -1. */
int exec_watch_add(exec_machine *m, ptx_space space, uint64_t addr, uint32_t len, int kinds,
                   uint32_t cta);
int exec_watch_del(exec_machine *m, int id);

/* ---- inspection ----------------------------------------------------------------------------- */
exec_cta_state exec_cta_get_state(const exec_machine *m, uint32_t cta);
/* The first running CTA at or after `from` (ncta when none): the tables of a stop visit the
 * running CTAs only, at a cost that does not grow with the grid (2^31 CTAs are fine). */
uint32_t exec_cta_next_running(const exec_machine *m, uint32_t from);
/* The last CTA j >= cta such that every CTA of [cta, j] is in state *st (cta's state). */
uint32_t exec_cta_state_span(const exec_machine *m, uint32_t cta, exec_cta_state *st);
uint32_t exec_ncta(const exec_machine *m);         /* grid size */
uint32_t exec_nwarps(const exec_machine *m);       /* warps per CTA */
exec_dim3 exec_cta_coord(const exec_machine *m, uint32_t cta);
int exec_cta_index(const exec_machine *m, exec_dim3 coord, uint32_t *cta);

int exec_warp_get(const exec_machine *m, uint32_t cta, uint32_t warp, exec_warp_info *wi);


int exec_lane_get(const exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane,
                  exec_lane_info *li);

int exec_backtrace(const exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane,
                   exec_frame *frames, int max);   /* returns the number of frames */

/* Registers by name ("%r1", "%p2", "%fd3", "%SP"), in frame `frame` of a lane (0 = innermost).
 * Values are the register's bits zero-extended to 64; predicates are 0/1. `type` receives
 * the declared type. Registers of not-yet-started or finished CTAs are an error. */
int exec_reg_get(const exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane, int frame,
                 const char *name, uint64_t *bits, ptx_type *type);
int exec_reg_set(exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane, int frame,
                 const char *name, uint64_t bits);
/* What kernel k can reach: fseen[i] = 1 for the functions it may run (itself, direct calls,
 * .calltargets, functions whose address it takes, transitively) and vseen[i] = 1 for the
 * module-scope variables those name (arrays of mod->nfuncs and mod->nvars bytes). -1 when out
 * of memory or k is not a function of mod. */
int exec_kernel_reach(const ptx_module *mod, const ptx_func *k, uint8_t *fseen, uint8_t *vseen);
/* The carry flag (CC.CF) of a lane of the running CTA: read into *cf (set 0) or write it. */
int exec_lane_cc(exec_machine *m, uint32_t warp, uint32_t lane, int set, int *cf);
/* The registers a function declares (in declaration order). */
int exec_func_regs(const exec_machine *m, const ptx_func *f, const ptx_sym ***regs);
/* Special registers; comp is 0..2 for .x/.y/.z (ignored for scalar ones). */
int exec_sreg_get(const exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane,
                  ptx_sreg_id id, int comp, uint64_t *val);

/* Memory of any space as the given lane sees it (shared: its CTA; local: its stack; param:
 * kernel params; generic: decoded by window). Errors for addresses outside the space. */
int exec_mem_read(exec_machine *m, ptx_space space, uint64_t addr, void *buf, size_t n,
                  uint32_t cta, uint32_t warp, uint32_t lane);
int exec_mem_write(exec_machine *m, ptx_space space, uint64_t addr, const void *buf, size_t n,
                   uint32_t cta, uint32_t warp, uint32_t lane);
/* Shared memory layout of the current launch: static variables and the dynamic part. */
typedef struct { const ptx_sym *sym; uint64_t addr, size; } exec_shared_var;
int exec_shared_layout(const exec_machine *m, exec_shared_var *vars, int max,
                       uint64_t *static_size, uint64_t *dyn_base, uint64_t *dyn_size);
/* Describe an address: nearest buffer or symbol and the offset ("buf+12", "_Z..._param_0"). */
int exec_addr_describe(const exec_machine *m, ptx_space space, uint64_t addr, char *out,
                       size_t n);
/* Freed memory: a describer of global addresses inside no mapped region that a front end
 * installs on a machine (the CUDA runtime's record of allocations it released, rt_mem.c,
 * through dbg_target_set_freed_describer), so fault messages and address descriptions say
 * "inside cudaMalloc#2 [...], freed by cudaFree ..." instead of naming a neighbour. Each
 * machine's own (its parallel workers use it too, from their threads); fn NULL removes it. */
typedef int (*exec_freed_fn)(void *ctx, uint64_t addr, char *out, size_t n);
void exec_set_freed_describer(exec_machine *m, exec_freed_fn fn, void *ctx);
/* 1 with the description when m's describer knows addr, else 0. */
int exec_freed_describe(const exec_machine *m, uint64_t addr, char *out, size_t n);

/* ---- postmortem: core files (exec_corefile.c; the format is described there) ----------------- */
/* Little-endian encoding helpers shared with the debugger's own core sections. */
typedef struct { uint8_t *p; size_t n, cap; int oom; } exec_cbuf;
void exec_cbuf_put(exec_cbuf *b, const void *p, size_t n);
void exec_cbuf_u32(exec_cbuf *b, uint32_t v);
void exec_cbuf_u64(exec_cbuf *b, uint64_t v);
void exec_cbuf_str(exec_cbuf *b, const char *s);               /* u32 length + bytes */
void exec_cbuf_bytes(exec_cbuf *b, const void *p, uint64_t n); /* u64 length + bytes */
void exec_cbuf_free(exec_cbuf *b);
typedef struct { const uint8_t *p; size_t n, off; int bad; } exec_crd; /* bad: ran out */
uint32_t exec_crd_u32(exec_crd *r);
uint64_t exec_crd_u64(exec_crd *r);
char *exec_crd_str(exec_crd *r);                               /* malloc'd; NULL when bad */
const void *exec_crd_bytes(exec_crd *r, uint64_t *n);
uint32_t exec_crc32(uint32_t crc, const void *data, size_t n);

/* Sections the debugger adds to a core (tags >= EXEC_CORE_TAG_USER). */
#define EXEC_CORE_TAG_USER 0x100u
typedef struct { uint32_t tag; const void *data; uint64_t len; } exec_core_sect;
/* Write the machine's whole state (PTX text, memory of every space, launch, CTA, warps, lanes,
 * frames, stop) and the extra sections to path. Global memory is stored sparsely (runs of zero
 * bytes cost nothing). A non-zero *interrupt (when given) abandons the write: -1, no file. */
int exec_core_write(exec_machine *m, const char *path, const exec_core_sect *extra, int nextra,
                    volatile int *interrupt);
typedef struct exec_core exec_core;
/* Read and check a core file (magic, version, length, checksum, sections); NULL with a message
 * naming the problem ("not a ptxdbg core file", "truncated", "corrupted", "version"). */
exec_core *exec_core_open(const char *path, char *err, size_t n, volatile int *interrupt);
void exec_core_close(exec_core *c);
/* The nth section with `tag` (data lives until exec_core_close); -1 when absent. */
int exec_core_find(const exec_core *c, uint32_t tag, int nth, const void **data, uint64_t *len);
int exec_core_module(const exec_core *c, const char **text, uint64_t *len, const char **path);
/* The global window of the machine that wrote the core (exec_new_at's base and limit): the
 * machine to restore into is made with them, so module variables keep their addresses. */
void exec_core_window(const exec_core *c, uint64_t *base, uint64_t *limit);
/* Put the core's state into a machine fresh from exec_new_at (exec_core_window) on the core's
 * module. The launch is over afterwards (exec_run returns the saved stop and never executes). */
int exec_core_restore(exec_machine *m, const exec_core *c);

/* Global memory regions in address order (for "nearest buffer" reports). kind: 1 module
 * variable (name set), 2 host buffer, 3 device heap, 4 mapped by exec_global_map (name set). */
typedef struct { uint64_t base, size; int kind; uint32_t id; const char *name; } exec_region_info;
int exec_global_region(const exec_machine *m, int i, exec_region_info *ri);
/* A lane's local stack, which grows down: the allocated local addresses are [*sp, *top)
 * (*sp is the stack pointer; top - sp bytes are in use). */
int exec_local_stack(const exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane,
                     uint64_t *sp, uint64_t *top);
/* The local address of the .local variable `depot_symbol` (e.g. "__local_depot3") of the
 * function running in frame `frame` of a lane (0 = innermost, as exec_backtrace counts):
 * that activation's own copy, so a debugger reads -G locals of any frame without %SPL.
 * Errors when the frame does not exist or its function declares no such variable. */
int exec_frame_local_base(const exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane,
                          int frame, const char *depot_symbol, uint64_t *addr);
/* Bytes of shared memory of a CTA of the current launch. */
uint64_t exec_shared_size(const exec_machine *m);
/* The last stop of the current launch (the final one once it is over; over set then). */
int exec_last_stop(const exec_machine *m, exec_stop *st, int *over);
/* Generic address -> state space and address within it. */
ptx_space exec_addr_decode(uint64_t generic, uint64_t *space_addr);

/* ---- textures and surfaces (exec_tex.c) ----------------------------------------------------
 * Texture and surface objects describe a range of global memory (a buffer) as an image of
 * width x height x depth elements (times layers for arrays and cubemaps), each element
 * `channels` values of channel type `chtype`, in rows `pitch` bytes apart (0: densely, width *
 * element_bytes): element (x, y, z, layer) is at
 * addr + ((layer * depth + z) * height + y) * pitch + x * element_bytes. A handle (the
 * cudaTextureObject_t / cudaSurfaceObject_t value, a small non-zero integer) is what kernels
 * receive; module-scope .texref/.samplerref/.surfref variables (and .tex variables) are bound
 * to objects by name. Handles that name nothing fault at run time. */
/* Create a texture (surface = 0) or surface object. *handle: 0 to take the next free handle,
 * or the handle to (re)create. The memory must lie inside one global allocation. */
int exec_tex_create(exec_machine *m, int surface, const exec_tex_desc *d, uint64_t *handle);
int exec_tex_destroy(exec_machine *m, uint64_t handle);
/* What a handle names: 0 and *surface / *d filled, -1 if it names nothing. */
int exec_tex_query(const exec_machine *m, uint64_t handle, int *surface, exec_tex_desc *d);
/* Bind a module .texref/.samplerref/.surfref (or .tex) variable to an object; handle 0
 * unbinds. exec_tex_binding reads a binding back (0 when unbound). */
int exec_tex_bind(exec_machine *m, const char *var, uint64_t handle);
int exec_tex_binding(const exec_machine *m, const char *var, uint64_t *handle);

#include "exec_obs.h"

#endif
