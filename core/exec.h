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

typedef struct exec_machine exec_machine;

typedef struct { uint32_t x, y, z; } exec_dim3;

/* Load: decode every function of `mod` (which the machine borrows; keep it alive). On a decode
 * error (e.g. an unsupported instruction) returns NULL and writes
 * "FILE:LINE:COL: error: unsupported instruction 'xyz.foo'" style text into err. */
exec_machine *exec_new(const ptx_module *mod, char *err, size_t errlen);
void exec_free(exec_machine *m);
const char *exec_errmsg(const exec_machine *m);
const ptx_module *exec_module(const exec_machine *m);
/* Where device printf output goes (default stdout). */
void exec_set_output(exec_machine *m, FILE *out);

/* ---- global memory and symbols -------------------------------------------------------------- */
/* Allocate `size` zeroed bytes of global memory (a host buffer); returns its device address. */
int exec_global_alloc(exec_machine *m, uint64_t size, uint64_t *addr);
int exec_global_free(exec_machine *m, uint64_t addr);
/* Address and space of a module-scope variable or a variable of the kernel being run. */
int exec_symbol_addr(exec_machine *m, const char *name, ptx_space *space, uint64_t *addr,
                     uint64_t *size);

/* ---- instruction addresses ------------------------------------------------------------------ */
uint32_t exec_ninsns(const exec_machine *m);
/* pc -> function and parsed instruction. */
int exec_pc_insn(const exec_machine *m, uint32_t pc, const ptx_func **f, const ptx_insn **pi);
/* First pc of a function with a body; -1 when it has none. */
int64_t exec_func_pc(const exec_machine *m, const ptx_func *f);

/* ---- launches ------------------------------------------------------------------------------- */
typedef struct {
    const ptx_func *kernel;
    exec_dim3 grid, block;
    uint32_t dyn_shmem;       /* dynamic shared bytes */
    uint32_t launch_id;       /* 0, 1, 2, ... per machine (cuda-gdb's kernel number) */
} exec_launch_info;

/* Prepare a launch: `params` are the kernel's .param bytes laid out per the ABI (each
 * parameter at its natural alignment, exec_param_layout tells offsets). Nothing runs yet. */
int exec_launch(exec_machine *m, const ptx_func *kernel, exec_dim3 grid, exec_dim3 block,
                uint32_t dyn_shmem, const void *params, size_t nparams_bytes);
/* Offsets and sizes of the kernel's parameters; returns total size or -1. */
int64_t exec_param_layout(const ptx_func *kernel, uint64_t *offsets, uint64_t *sizes, int max);
/* End the current launch (kill); memory of buffers stays. */
void exec_kill(exec_machine *m);
/* NULL when no launch is active. */
const exec_launch_info *exec_current_launch(const exec_machine *m);

/* ---- running -------------------------------------------------------------------------------- */
typedef enum {
    EXEC_STOP_NONE = 0,
    EXEC_STOP_DONE,        /* the kernel completed */
    EXEC_STOP_BREAKPOINT,  /* a group of a warp is about to execute a flagged instruction */
    EXEC_STOP_STEP,        /* the requested step completed */
    EXEC_STOP_BRKPT,       /* `brkpt` executed (lanes = those that executed it); resumable */
    EXEC_STOP_TRAP,        /* `trap` executed: the launch is over (postmortem only) */
    EXEC_STOP_ASSERT,      /* __assertfail: like a trap, msg holds the assertion text */
    EXEC_STOP_EXCEPTION,   /* a fault: see exc and the fault fields */
    EXEC_STOP_WATCH,       /* a watched location was accessed (after the instruction) */
    EXEC_STOP_INTERRUPT,   /* *opts->interrupt became non-zero */
    EXEC_STOP_LIMIT,       /* max_steps warp-instructions executed */
} exec_stop_kind;

typedef enum {
    EXEC_EXC_NONE = 0,
    EXEC_EXC_OUT_OF_RANGE,     /* CUDA_EXCEPTION_5 Warp Out-of-range Address */
    EXEC_EXC_MISALIGNED,       /* CUDA_EXCEPTION_6 Warp Misaligned Address */
    EXEC_EXC_ILLEGAL_INSN,     /* CUDA_EXCEPTION_4 Warp Illegal Instruction */
    EXEC_EXC_READONLY,         /* store to a read-only space (const, param of a kernel) */
    EXEC_EXC_STACK_OVERFLOW,   /* CUDA_EXCEPTION_8 Lane User Stack Overflow */
    EXEC_EXC_BARRIER_DEADLOCK, /* not every thread can reach a barrier */
    EXEC_EXC_WARP_SYNC,        /* membermask names exited or absent lanes */
    EXEC_EXC_ILLEGAL_ADDRESS,  /* CUDA_EXCEPTION_14 Warp Illegal Address (e.g. bad generic) */
    EXEC_EXC_INVALID_PC,       /* indirect branch/call to something that is not code */
    EXEC_EXC_MALLOC,           /* device heap misuse (bad free) */
} exec_exc;

typedef struct {
    exec_stop_kind kind;
    uint32_t cta;          /* linear CTA index (x + y*gx + z*gx*gy) */
    uint32_t warp;         /* warp within the CTA */
    uint32_t lanes;        /* lanes concerned: group at a breakpoint/step, lanes that trapped */
    uint32_t lane;         /* first lane concerned */
    uint32_t pc;           /* instruction concerned (for WATCH: the accessing instruction) */
    exec_exc exc;
    ptx_space space;       /* fault/watch: the space accessed */
    uint64_t addr;         /* fault/watch: the address accessed */
    uint32_t size;         /* fault/watch: access size in bytes */
    int watch_id;
    uint8_t old_bytes[16], new_bytes[16]; /* WATCH: value before and after (size bytes) */
    char msg[512];         /* human text: assert message, fault explanation */
} exec_stop;

typedef enum {
    EXEC_RUN_CONTINUE,     /* run until something stops the kernel */
    EXEC_RUN_STEP_WARP,    /* execute one instruction of the focused warp's current group */
    EXEC_RUN_STEP_LANE,    /* execute one instruction of the focused lane only */
} exec_run_mode;

typedef struct {
    exec_run_mode mode;
    uint32_t cta, warp, lane;   /* the focus, for steps */
    int others_run;             /* during a step, other warps also advance (scheduler-locking
                                   off); when the step reaches a barrier, the rest of the CTA
                                   runs until it arrives there too, whatever this says */
    uint64_t max_steps;         /* stop with EXEC_STOP_LIMIT after this many warp-instructions;
                                   0 = no limit */
    volatile int *interrupt;    /* polled; non-zero stops with EXEC_STOP_INTERRUPT */
} exec_run_opts;

/* Run the current launch. After a BREAKPOINT stop, the next exec_run first executes the
 * stopped group's flagged instruction without stopping again. After DONE, TRAP, ASSERT or
 * EXCEPTION the launch is over but its state stays inspectable until exec_kill or the next
 * exec_launch. Returns -1 only for misuse (no launch, bad focus). */
int exec_run(exec_machine *m, const exec_run_opts *opts, exec_stop *stop);

/* Counters since exec_new: warp-instructions executed (one per group per instruction) and
 * thread-instructions (the lanes of those groups that were active, guard included). */
void exec_stats(const exec_machine *m, uint64_t *warp_insns, uint64_t *thread_insns);

/* Breakpoints: flag instruction `pc`; costs nothing while unset. */
int exec_set_break(exec_machine *m, uint32_t pc, int on);

/* Watchpoints on global (cta ignored) or shared memory (of CTA `cta`, or every CTA when
 * cta == UINT32_MAX). kinds: 1 = write, 2 = read, 3 = both. Returns an id >= 0 or -1. */
int exec_watch_add(exec_machine *m, ptx_space space, uint64_t addr, uint32_t len, int kinds,
                   uint32_t cta);
int exec_watch_del(exec_machine *m, int id);

/* ---- inspection ----------------------------------------------------------------------------- */
typedef enum { EXEC_CTA_NOT_STARTED, EXEC_CTA_RUNNING, EXEC_CTA_DONE } exec_cta_state;
exec_cta_state exec_cta_get_state(const exec_machine *m, uint32_t cta);
uint32_t exec_ncta(const exec_machine *m);         /* grid size */
uint32_t exec_nwarps(const exec_machine *m);       /* warps per CTA */
exec_dim3 exec_cta_coord(const exec_machine *m, uint32_t cta);
int exec_cta_index(const exec_machine *m, exec_dim3 coord, uint32_t *cta);

typedef struct {
    uint32_t valid;        /* lanes that are threads of the CTA (last warp may be partial) */
    uint32_t exited;       /* lanes that have exited */
    uint32_t active;       /* lanes of the group that runs next (same pc and frame) */
    uint32_t divergent;    /* live lanes not in that group */
    uint32_t at_barrier;   /* lanes waiting at a barrier */
    uint32_t pc;           /* pc of the active group */
    int barrier;           /* barrier number waited at, or -1 */
    int stopped;           /* the warp holds a trap/exception state */
} exec_warp_info;
int exec_warp_get(const exec_machine *m, uint32_t cta, uint32_t warp, exec_warp_info *wi);

typedef enum {
    EXEC_LANE_INVALID,     /* no thread */
    EXEC_LANE_ACTIVE,      /* in the warp's active group */
    EXEC_LANE_DIVERGENT,   /* live, waiting at another pc */
    EXEC_LANE_BARRIER,     /* waiting at a barrier */
    EXEC_LANE_EXITED,
    EXEC_LANE_TRAPPED,     /* executed trap / faulted */
} exec_lane_state;

typedef struct {
    exec_lane_state state;
    uint32_t pc;
    int depth;             /* call depth: 0 = kernel */
    exec_dim3 tid;
} exec_lane_info;
int exec_lane_get(const exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane,
                  exec_lane_info *li);

/* Call stack of a lane, innermost first: frame 0 is where the lane is. */
typedef struct {
    const ptx_func *func;
    uint32_t pc;           /* frame 0: current pc; others: the call instruction */
} exec_frame;
int exec_backtrace(const exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane,
                   exec_frame *frames, int max);   /* returns the number of frames */

/* Registers by name ("%r1", "%p2", "%fd3", "%SP"), in frame `frame` of a lane (0 = innermost).
 * Values are the register's bits zero-extended to 64; predicates are 0/1. `type` receives
 * the declared type. Registers of not-yet-started or finished CTAs are an error. */
int exec_reg_get(const exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane, int frame,
                 const char *name, uint64_t *bits, ptx_type *type);
int exec_reg_set(exec_machine *m, uint32_t cta, uint32_t warp, uint32_t lane, int frame,
                 const char *name, uint64_t bits);
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

#endif
