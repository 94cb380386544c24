/* ptxdbg_types.h - the vocabulary every layer shares: PTX types and state spaces, grid coordinates, stops, lanes, CUDA exceptions, texture descriptions, opaque handles. */
#ifndef PTXDBG_TYPES_H
#define PTXDBG_TYPES_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------------------------------------
 * The public include folder (debugger/include/) is all a front end (commands/, the runtime
 * library, the DAP server) compiles with. This header holds the plain values that cross the
 * layers unchanged, declared once for all of them: the core includes it for the same
 * definitions (and nothing else from this folder). It declares no function. The engine's API
 * is dbg.h (sessions, run control), dbg_rows.h (tables as rows), dbg_value.h (values) and
 * dbg_target.h (what the runtime library runs kernels with).
 * Handles are opaque here: a front end holds a `const ptx_func *` or an `exec_machine *` but
 * reads them only through engine functions.
 * ------------------------------------------------------------------------------------------- */
typedef struct ptx_module ptx_module;
typedef struct ptx_func ptx_func;
typedef struct exec_machine exec_machine;
typedef struct dw_info dw_info;
typedef struct dw_type dw_type;
typedef struct dw_var dw_var;
typedef struct chk_ctx chk_ctx;           /* the checkers (checkers/chk.h) */
typedef struct chk_finding chk_finding;
typedef struct exec_run_opts exec_run_opts; /* a run's options (core/exec/exec.h), for run hooks */

/* State spaces. */
typedef enum {
    PTX_SPACE_NONE = 0,
    PTX_SPACE_REG,
    PTX_SPACE_SREG,
    PTX_SPACE_CONST,
    PTX_SPACE_GLOBAL,
    PTX_SPACE_LOCAL,
    PTX_SPACE_PARAM,    /* kernel (.param::entry) or function (.param::func) parameter */
    PTX_SPACE_SHARED,   /* .shared and .shared::cta */
    PTX_SPACE_SHARED_CLUSTER, /* .shared::cluster */
    PTX_SPACE_TEX,
    PTX_SPACE_SURF,     /* not a declarable space; used by decoder */
    PTX_SPACE_GENERIC,
    PTX_SPACE__COUNT
} ptx_space;

/* Fundamental types. Keep the order: the decoder indexes tables with it. */
typedef enum {
    PTX_T_NONE = 0,
    PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64, PTX_T_B128,
    PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_U64,
    PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64,
    PTX_T_F16, PTX_T_F16X2, PTX_T_BF16, PTX_T_BF16X2, PTX_T_TF32,
    PTX_T_E4M3, PTX_T_E5M2, PTX_T_E4M3X2, PTX_T_E5M2X2,
    PTX_T_F32, PTX_T_F64,
    PTX_T_PRED,
    PTX_T_TEXREF, PTX_T_SAMPLERREF, PTX_T_SURFREF,
    PTX_T__COUNT
} ptx_type;

typedef struct { uint32_t x, y, z; } exec_dim3;

typedef struct {
    const ptx_func *kernel;
    exec_dim3 grid, block;
    uint32_t dyn_shmem;       /* dynamic shared bytes */
    uint32_t launch_id;       /* 0, 1, 2, ... per machine (cuda-gdb's kernel number) */
    exec_dim3 cluster;        /* CTAs per thread block cluster (1,1,1: no clusters) */
} exec_launch_info;

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
    EXEC_STOP_CHECK,       /* an observer's finding (exec_obs_stop), after the instruction;
                              resumable; tag says which */
} exec_stop_kind;

/* CUDA exceptions: one row each in ptxdbg_exc.def (name, cuda-gdb's number, cudaError). */
typedef enum {
    EXEC_EXC_NONE = 0,
#define EXC(id, num, name, cuda_error) EXEC_EXC_##id,
#include "ptxdbg_exc.def"
#undef EXC
    EXEC_EXC__COUNT
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
    int tag;               /* CHECK, or a fault an observer annotated: the observer's finding
                              (exec_obs_stop); 0 none */
    uint8_t old_bytes[16], new_bytes[16]; /* WATCH: value before and after (size bytes) */
    char msg[512];         /* human text: assert message, fault explanation */
} exec_stop;

typedef enum { EXEC_CTA_NOT_STARTED, EXEC_CTA_RUNNING, EXEC_CTA_DONE } exec_cta_state;

typedef struct {
    uint32_t valid;        /* lanes that are threads of the CTA (last warp may be partial) */
    uint32_t exited;       /* lanes that have exited */
    uint32_t active;       /* lanes of the group that runs next (same pc and frame) */
    uint32_t divergent;    /* live lanes not in that group */
    uint32_t at_barrier;   /* lanes waiting at a barrier */
    uint32_t pc;           /* pc of the active group; with none but lanes waiting at a
                              barrier, that barrier instruction (execution resumes after it) */
    int barrier;           /* barrier number waited at, or -1 */
    int stopped;           /* the warp holds a trap/exception state */
    uint32_t bp_pass;      /* lanes that reported the breakpoint at bp_pass_pc and pass it once
                              when they run next (exec_run) */
    uint32_t bp_pass_pc;
} exec_warp_info;

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
    uint32_t pc;           /* EXEC_LANE_BARRIER: the barrier instruction it waits at */
    int depth;             /* call depth: 0 = kernel */
    exec_dim3 tid;
    uint32_t waits_for;    /* lanes a warp-synchronous instruction it waits in still needs
                              (its membermask; 0 when not waiting there) */
} exec_lane_info;

/* Call stack of a lane, innermost first: frame 0 is where the lane is. */
typedef struct {
    const ptx_func *func;
    uint32_t pc;           /* frame 0: current pc; others: the call instruction */
} exec_frame;

typedef enum {
    EXEC_TEX_1D = 1, EXEC_TEX_2D, EXEC_TEX_3D, EXEC_TEX_A1D, EXEC_TEX_A2D, EXEC_TEX_CUBE,
    EXEC_TEX_ACUBE,
} exec_tex_geom;
typedef enum { EXEC_TEX_WRAP = 0, EXEC_TEX_MIRROR, EXEC_TEX_CLAMP, EXEC_TEX_BORDER } exec_tex_addr;
typedef struct {
    uint64_t addr;            /* device address of element 0 (global memory) */
    ptx_type chtype;          /* u8 s8 u16 s16 u32 s32 f16 f32 */
    int channels;             /* 1, 2 or 4 */
    exec_tex_geom geom;
    uint32_t width, height, depth; /* elements; unused dimensions 1 */
    uint32_t layers;          /* arrays: layers; cube: 6; cube arrays: 6 * cubes; else 1 */
    uint64_t pitch;           /* bytes between rows (pitched 2D memory); 0 = dense */
    int linear;               /* 1D linear-memory texture: integer fetches outside give 0 */
    /* sampler part (textures only) */
    exec_tex_addr addr_mode[3];
    int filter_linear;        /* 0 point, 1 linear */
    int normalized;           /* coordinates in [0, 1) */
    int read_normalized;      /* 8/16-bit integer channels read as floats in [0,1] / [-1,1] */
    float border[4];          /* border colour (BORDER mode) */
} exec_tex_desc;

#endif
