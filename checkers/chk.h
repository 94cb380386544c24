/* chk.h - the checkers: registry, per-session state, findings and how every front end shows them. */
#ifndef CHK_H
#define CHK_H

#include <stdint.h>
#include <stdio.h>
/* the shared vocabulary only (opaque machine, module and DWARF handles): front ends include
   this header with the engine's public folder */
#include "ptxdbg_types.h"

/* ---------------------------------------------------------------------------------------------
 * A checker is an observer of the core's memory and sync seams (core/exec/exec_obs.h) that turns
 * what it sees into FINDINGS. checkers/chk_registry.c holds one row per checker (its name and
 * the function that attaches its observers to a machine): adding a checker is adding its file
 * and its row. A chk_ctx is one session's (or one plain run's) checker state: which checkers are
 * on, whether a finding stops the kernel, and the findings so far, deduplicated per (kind,
 * module, pc pair) with a count.
 *
 * A finding that stops the kernel is delivered as the core's stop record (EXEC_STOP_CHECK after
 * the instruction, or the fault's own stop when the access faults) carrying the finding's id in
 * exec_stop.tag; the debugger engine turns it into a DBG_EV_CHECK event with the finding, and
 * the CLI, the runtime's plain-run reports and the JSON report all print it with chk_format /
 * chk_write_json, so no front end formats a finding itself. Findings that do not stop (`set
 * check stop off`, plain runs) are handed to the `report` hook as they are made.
 * ------------------------------------------------------------------------------------------- */

typedef enum { CHK_MEMCHECK, CHK_RACECHECK, CHK_INITCHECK, CHK_SYNCCHECK, CHK_N } chk_id;
#define CHK_ALL ((1u << CHK_N) - 1)

typedef enum {
    CHK_K_OOB = 1,        /* out of bounds of every allocation / of its space */
    CHK_K_MISALIGNED,     /* not aligned to the access size */
    CHK_K_READONLY,       /* a store to const or kernel parameter space */
    CHK_K_NULL,           /* through a null (or nearly null) pointer */
    CHK_K_FREED,          /* memory that was freed (cudaFree, device free) */
    CHK_K_HEAP_OVERFLOW,  /* outside a device malloc block */
    CHK_K_DOUBLE_FREE,    /* device free of a block already freed */
    CHK_K_BAD_FREE,       /* device free of something malloc did not return */
    CHK_K_LEAK,           /* an allocation never freed (leak check at exit) */
    /* racecheck (chk_racecheck.c): two accesses of different threads to the same bytes, at
       least one a write, with no happens-before between them; party[0] made the first */
    CHK_K_RACE_WW = 32,   /* write, then write of a different value */
    CHK_K_RACE_WR,        /* write, then read (read-after-write hazard) */
    CHK_K_RACE_RW,        /* read, then write (write-after-read hazard) */
    CHK_K_RACE_SAME,      /* write, then write of the same value (a warning) */
    /* initcheck */
    CHK_K_UNINIT = 20,    /* a read of memory bytes never written (global, shared, local) */
    CHK_K_UNINIT_REG,     /* a read of a register the thread never wrote in this call */
    /* synccheck (chk_synccheck.c) */
    CHK_K_BAR_DIVERGENT = 40, /* a CTA barrier reached by part of the CTA: threads at another
                                 barrier instruction, or exiting after earlier barriers */
    CHK_K_BAR_COUNT,      /* warps meeting at one barrier with different thread counts */
    CHK_K_BAR_INVALID,    /* a barrier number or thread count the ISA forbids (the warp faults) */
    CHK_K_WARP_NOT_MEMBER,/* bar.warp.sync (__syncwarp) by a lane its membermask does not name */
    CHK_K_SHFL_UNDEF,     /* a shuffle reading a lane that exited, is inactive or outside the
                             membermask: the value is undefined on a GPU */
    CHK_K_MBAR_MISUSE,    /* an mbarrier operation the ISA forbids (the warp faults) */
    CHK_K_CLUSTER_BAR,    /* barrier.cluster arrive/wait out of order (the warp faults) */
} chk_kind;
typedef enum { CHK_SEV_ERROR, CHK_SEV_WARNING, CHK_SEV_INFO } chk_sev;

/* One thread taking part in a finding. */
typedef struct {
    uint32_t cta, warp, lane, pc;
    exec_dim3 block, thread;
    char func[160];           /* the function of pc (demangled base name) */
    char file[256];           /* pc's source position ("" none), maybe a CUDA header's */
    int line;
    char ufile[256];          /* the user's: the innermost frame (inlined or called) whose file
                                 is not a CUDA header; equal to file/line when pc's is */
    int uline;
    char ufunc[160];
    int ptx_line;
    uint8_t access;           /* EXEC_ACC_READ ... */
} chk_party;

typedef struct chk_finding {
    int id;                   /* 1, 2, ...: exec_stop.tag of the stop that reports it */
    chk_id checker;
    chk_kind kind;
    chk_sev severity;
    ptx_space space;          /* the space accessed (generic resolved) */
    uint64_t addr, size;      /* leaks: the allocation */
    uint8_t access;           /* EXEC_ACC_* */
    int nparties;             /* threads in party[] (0 for leaks) */
    chk_party party[2];
    /* the nearest allocation (global), or the space's bounds */
    char alloc_name[64];      /* "cudaMalloc#1", "buf", a variable; "" none */
    uint64_t alloc_base, alloc_size;
    int rel;                  /* where addr lies: 0 inside, 1 after the end, -1 before, 2 far
                                 from everything (no allocation named) */
    uint64_t dist;            /* bytes after the end / before the start */
    int freed;                /* the allocation was freed (where: the runtime's description of
                                 it, when the runtime freed it: exec_freed_describe) */
    char where[640];          /* the address described in words (shared, local, param, freed) */
    int gpu_faults;           /* 1: a GPU faults at this access; 0: it completes it */
    uint64_t pad;             /* gpu_faults 0: the bytes a GPU maps after pad_owner, which hold
                                 the address */
    char pad_owner[64];
    uint64_t count;           /* occurrences (per lane access) */
    uint32_t launch;          /* kernel number of the first occurrence */
    char kernel[160];
    const void *module;       /* with the pcs: the key findings are deduplicated by */
    const void *stop_m;       /* the launch it last stopped (machine, launch id): a repeat in a
                                 later launch stops again, repeats in the same launch count */
    uint32_t stop_launch;
    char site[512];           /* leaks: where the allocation was made */
    /* racecheck: the value each party read or wrote at the second access's bytes (the first
       party's as memory held it then), when known (race_nval[k] bytes, little-endian) */
    uint64_t race_val[2];
    uint8_t race_nval[2];
    /* initcheck */
    char reg[64];             /* CHK_K_UNINIT_REG: the register ("%r5") */
    char var[128];            /* the source variable it holds there ("" unknown) */
    uint64_t undef;           /* CHK_K_UNINIT: bytes of the access never written */
    /* synccheck: the lanes involved, one per line (which lanes exited, which are absent, at
       which line each warp reached which barrier); "" none */
    char sync_detail[1536];
} chk_finding;

typedef struct chk_ctx chk_ctx;

/* Hooks a front end gives (all optional). */
typedef struct {
    void *ctx;
    /* line tables and DWARF of a machine's module (NULL: PTX lines only) */
    dw_info *(*dwarf)(void *ctx, const exec_machine *m);
    /* a new finding that does not stop the kernel (stop off, or plain runs) */
    void (*report)(void *ctx, const chk_finding *f);
    /* the launch number of the machine's current launch as the front end counts them */
    int (*launch_no)(void *ctx, const exec_machine *m, uint32_t *no);
} chk_hooks;

chk_ctx *chk_new(void);
void chk_free(chk_ctx *c);
void chk_set_hooks(chk_ctx *c, const chk_hooks *h);

/* ---- the registry ----------------------------------------------------------------------------- */
int chk_lookup(const char *name);          /* chk_id, or -1 for an unknown name */
const char *chk_name(chk_id id);
const char *chk_summary(chk_id id);
int chk_implemented(chk_id id);
/* Turn checker `name` ("all" too) on or off; -1 with a message for an unknown name or a checker
 * not implemented yet (turning such a one off is accepted). */
int chk_set(chk_ctx *c, const char *name, int on, char *err, size_t n);
/* A comma-separated list ("memcheck,racecheck", "all", "none"): exactly those are on. */
int chk_set_list(chk_ctx *c, const char *list, char *err, size_t n);
unsigned chk_enabled(const chk_ctx *c);    /* bits 1u << chk_id */
void chk_set_stop(chk_ctx *c, int on);     /* findings stop the kernel (default on) */
int chk_stops(const chk_ctx *c);

/* The enabled checkers observe machine m (called again after the set changes: machines already
 * attached are updated). chk_detach: m is about to be freed or no longer checked. */
int chk_attach(chk_ctx *c, exec_machine *m);
void chk_detach(chk_ctx *c, exec_machine *m);
void chk_detach_module(chk_ctx *c, const ptx_module *mod);   /* the machine running mod */

/* ---- findings --------------------------------------------------------------------------------- */
int chk_count(const chk_ctx *c);           /* distinct findings */
const chk_finding *chk_at(const chk_ctx *c, int i);
const chk_finding *chk_by_id(const chk_ctx *c, int id);
uint64_t chk_occurrences(const chk_ctx *c); /* every occurrence of every finding */
/* Occurrences of findings of severity error (warnings, as compute-sanitizer's, do not count in
 * the ERROR SUMMARY nor make a run's exit status non-zero). */
uint64_t chk_errors(const chk_ctx *c);
void chk_clear(chk_ctx *c);

/* The finding in compute-sanitizer's words, every line starting with `prefix` ("" or
 * "========= "), ending with a newline; returns the length it needs (as snprintf). */
int chk_format(const chk_finding *f, const char *prefix, char *out, size_t n);
/* Its first line ("Invalid __global__ write of size 4 bytes"). */
int chk_headline(const chk_finding *f, char *out, size_t n);
const char *chk_kind_name(chk_kind k);     /* "out-of-bounds", ... (JSON "kind") */
/* One JSON object (no newline). */
void chk_write_json(const chk_finding *f, FILE *fp);
/* Every finding as JSON lines to path ("-": stdout). */
int chk_write_report(const chk_ctx *c, const char *path, char *err, size_t n);
/* "ERROR SUMMARY: N errors" (compute-sanitizer's closing line) with the prefix. */
void chk_summary_line(const chk_ctx *c, const char *prefix, FILE *fp);

/* ---- initcheck: the host side and the fill pattern ------------------------------------------
 * Host writes into device memory (cudaMemcpy*, cudaMemset*, cuMemcpy*, cudaMemcpyToSymbol,
 * their async and graph forms: the runtime's one place where they land; buffers the debugger
 * fills) make bytes initialised; fresh device allocations (cudaMalloc and friends) start
 * uninitialised. Both cost nothing while initcheck is off. */
void chk_host_write(chk_ctx *c, uint64_t addr, uint64_t n);
/* [addr, addr + n) is a fresh allocation: unwritten (uninit 1: device memory) or written
 * (uninit 0: managed or host memory, or memory freed) */
void chk_host_alloc(chk_ctx *c, uint64_t addr, uint64_t n, int uninit);
/* The fill pattern of fresh memory (`set fill`, PTXDBG_FILL): byte, or -1 (zeros). Every
 * attached machine gets it (exec_set_fill); the runtime fills its fresh allocations with it. */
void chk_set_fill(chk_ctx *c, int byte);
int chk_fill(const chk_ctx *c);
/* Parse a fill setting ("0xA5", "165", "off"); -1 with a message when it is not one. */
int chk_parse_fill(const char *s, int *byte, char *err, size_t n);

/* ---- leak check ------------------------------------------------------------------------------- */
/* An allocation as the host side knows it (live at exit, or freed). */
typedef struct chk_alloc {
    uint64_t base, size;
    const char *name;         /* "cudaMalloc#3" */
    const char *site;         /* where it was made (leaks) or freed ("" unknown) */
} chk_alloc;
/* Record allocation a, still live at exit, as a CHK_K_LEAK finding (the host side lists them:
 * the runtime's leak check at program exit). Returns the finding's id. */
int chk_leak_add(chk_ctx *c, const chk_alloc *a);
/* "LEAK SUMMARY: N bytes leaked in K allocations" with the prefix (nothing when none). */
void chk_leak_summary(const chk_ctx *c, const char *prefix, FILE *fp);

#endif
