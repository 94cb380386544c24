/* dbg_target.h - the engine's execution API for a program's runtime: modules, kernels, memory, launches. */
#ifndef DBG_TARGET_H
#define DBG_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "ptxdbg_types.h"

/* ---------------------------------------------------------------------------------------------
 * What a program's runtime (the CUDA runtime library, runtime/) runs kernels with, as lldb's
 * SBTarget and SBProcess are what a front end runs a program with. A dbg_target is one loaded
 * module and the machine that runs it: its kernels and variables, the global memory the
 * program maps into it, its launches and their results, its texture and surface objects and
 * its settings. Several targets live in one process (one per CUDA module), each with its own
 * window of global addresses; they share nothing unless the caller maps the same bytes into
 * several (dbg_target_map, dbg_target_share_vars).
 * A target hands out the engine's opaque handles for the rest of the engine API: the module
 * (`ptx_module *`, for dbg_use_module), the machine (`exec_machine *`, for the session and the
 * checkers) and kernels (`const ptx_func *`).
 * Errors are values: every function returns 0 (or a handle) on success and -1 (or NULL) on
 * error, the message in dbg_target_errmsg() or in the caller's buffer when no target exists
 * yet. Nothing here prints. Prefix: dbg_target_ (a target), dbg_kernel_ (a kernel),
 * dbg_fatbin_ (nvcc fat binaries), dbg_addr_ (the address model).
 * ------------------------------------------------------------------------------------------- */

typedef struct dbg_target dbg_target;

/* ---- fat binaries: the PTX and SASS nvcc embeds ---------------------------------------------- */
#define DBG_FATBIN_MAGIC 0xBA55ED50u   /* the first word of an nvcc .nv_fatbin container */
/* The size of the .nv_fatbin container at image (header and payload), 0 when it is none. */
size_t dbg_fatbin_size(const void *image, size_t maxlen);
/* The PTX of the best entry for compute capability cc (major * 10 + minor: the highest target
 * <= cc, else the lowest), NUL-terminated and malloc'd: 0; -1 with the reason in err
 * (unreadable compression, corrupt); -2 when the image holds SASS only. */
int dbg_fatbin_ptx(const void *image, size_t len, unsigned cc, char **ptx, size_t *ptx_len,
                   char *err, size_t errlen);
/* The SASS (an ELF cubin) of the highest architecture <= cc, inflated and malloc'd: 0; 1 when
 * there is none; -1 with the reason in err. */
int dbg_fatbin_sass(const void *image, size_t len, unsigned cc, uint8_t **elf, size_t *elf_len,
                    char *err, size_t errlen);

/* ---- PTX text before loading ----------------------------------------------------------------- */
/* Check linked PTX text (the JIT linker's output): it parses, and every function it calls or
 * takes the address of has a body or is one the engine provides (vprintf, malloc, free,
 * __assertfail). 0; -1 with the parser's message in err; 1 with "unresolved extern function
 * 'f'" in err. */
int dbg_ptx_check_linked(const char *text, size_t len, const char *name, char *err,
                         size_t errlen);

/* ---- loading and freeing --------------------------------------------------------------------- */
typedef enum {
    DBG_TARGET_OK = 0,
    DBG_TARGET_ERR_PTX,        /* not valid PTX (the parser's three-line message) */
    DBG_TARGET_ERR_VERSION,    /* a .version newer than this release knows */
    DBG_TARGET_ERR_LOAD,       /* valid PTX the engine cannot load: an unsupported instruction,
                                  a limit ptxas or the driver enforces (48 KB static shared...) */
    DBG_TARGET_ERR_NOMEM,
} dbg_target_err;
/* Load PTX text (len bytes, need not be NUL-terminated; `name` is used in messages and as the
 * module's path): parse and decode it into a machine whose own global memory (module
 * variables, the device heap) lies in [global_base, global_limit) (0, 0: the default window).
 * NULL with *kind and the message in err on failure. */
dbg_target *dbg_target_load(const char *text, size_t len, const char *name,
                            uint64_t global_base, uint64_t global_limit, dbg_target_err *kind,
                            char *err, size_t errlen);
/* Free the machine and the module (NULL is ignored). Nothing may run on it. */
void dbg_target_free(dbg_target *t);
/* The last error on the target's machine. */
const char *dbg_target_errmsg(const dbg_target *t);
/* The engine handles of the target (for dbg_use_module, the checkers, the session). */
ptx_module *dbg_target_module(const dbg_target *t);
exec_machine *dbg_target_machine(const dbg_target *t);

/* ---- kernels ----------------------------------------------------------------------------------- */
/* The kernel (an .entry with a body) named `name` (mangled), or NULL. */
const ptx_func *dbg_target_kernel(const dbg_target *t, const char *name);
/* The names of the target's kernels in module order (at most max into names, which may be
 * NULL); returns how many there are. Names live as long as the target. */
int dbg_target_kernels(const dbg_target *t, const char **names, int max);
/* What a launch and cudaFuncGetAttributes need to know of a kernel: its declaration's
 * directives, its parameters' size, what ptxas reports of its resources. */
typedef struct {
    const char *name;                   /* mangled; lives as long as the target */
    int nparams;
    uint64_t param_bytes;               /* the .param block (each at its natural alignment) */
    uint32_t maxntid[3], reqntid[3];    /* .maxntid / .reqntid, 0 = none */
    uint32_t minnctapersm;              /* 0 = none */
    uint32_t reqnctapercluster[3];      /* 0 = none */
    uint32_t maxclusterrank;            /* 0 = none */
    int explicitcluster;                /* .explicitcluster: needs cluster dimensions */
    int target_sm;                      /* the module's .target: sm_80 -> 80; 0 otherwise */
    uint64_t shared_static;             /* its own and reached module .shared (not extern) */
    uint64_t const_bytes;               /* module .const it reaches */
    uint64_t local_bytes;               /* its .local frame */
    int barriers;                       /* named barriers used (ids 0..n-1); 0 when none */
} dbg_kernel_info;
int dbg_kernel_info_get(const dbg_target *t, const ptx_func *k, dbg_kernel_info *ki);
/* Offsets and sizes of the kernel's parameters in its .param block (at most max of each);
 * returns the block's size, or -1. */
int64_t dbg_kernel_param_layout(const ptx_func *k, uint64_t *offsets, uint64_t *sizes,
                                int max);
/* An estimate of the kernel's registers per thread that errs high, capped as ptxas caps it
 * (255, .maxnreg, launch bounds). It scans the code the kernel may run: keep the result. */
int dbg_kernel_regs(const dbg_target *t, const ptx_func *k);

/* ---- variables and memory ------------------------------------------------------------------- */
/* A module-scope variable: its space (PTX_SPACE_GLOBAL: addr is a global address;
 * PTX_SPACE_CONST: addr is the offset in the target's constant bank), size, whether it is
 * declared .attribute(.managed), and the host bytes that hold it. -1 when none. */
typedef struct {
    ptx_space space;
    uint64_t addr, size;
    int managed;
    void *host;                         /* NULL for a variable of no bytes */
} dbg_var_info;
int dbg_target_var(dbg_target *t, const char *name, dbg_var_info *vi);
/* Map bytes the caller owns, [data, data + size), as global memory at address base (bounds-
 * checked like any region; a fault names it `name`, borrowed until unmapped), followed by `pad`
 * bytes the caller also owns (zeroed) where accesses complete as a GPU completes accesses to an
 * allocation's padding (dbg_addr_padding). host_shared: the host may use the bytes while a
 * kernel runs (pinned or registered memory): parallel workers never write them ahead of one
 * thread. Fails when the range overlaps a region. */
int dbg_target_map(dbg_target *t, uint64_t base, uint64_t size, void *data, const char *name,
                   uint64_t pad, int host_shared);
int dbg_target_unmap(dbg_target *t, uint64_t base);
/* Map (on = 1) or unmap (on = 0) the module variables of `from` into `to`, at their addresses,
 * so a pointer to one works in the other's kernels. */
void dbg_target_share_vars(dbg_target *to, const dbg_target *from, int on);
/* Host bytes of the global range [addr, addr + n) when it lies inside one region of the target
 * (its variables, its heap, what was mapped), else NULL. */
void *dbg_target_global_host(dbg_target *t, uint64_t addr, uint64_t n);
/* Host bytes of [off, off + n) of the target's constant bank, NULL when out of range. Writing
 * there changes what kernels read. */
void *dbg_target_const_host(dbg_target *t, uint64_t off, uint64_t n);

/* ---- the address model ----------------------------------------------------------------------- */
/* Bytes after an allocation of `size` bytes that a GPU maps with it (its padding). */
uint64_t dbg_addr_padding(uint64_t size);
/* The engine's own fixed address ranges (generic windows, function addresses), which a
 * process running kernels keeps free of host mappings: the i-th (i = 0, 1, ...) into *base
 * and *size; -1 past the last. */
int dbg_addr_reserved(int i, uint64_t *base, uint64_t *size);
/* The generic address of offset `off` of a constant bank, tagged with `tag` (0: untagged; a
 * runtime names one of several targets' banks with it, 1..255). */
uint64_t dbg_addr_const(unsigned tag, uint64_t off);
/* A generic address in the constant window: 0 with its tag and bank offset (either may be
 * NULL); -1 when addr is not in that window. */
int dbg_addr_const_decode(uint64_t addr, unsigned *tag, uint64_t *off);

/* ---- settings ---------------------------------------------------------------------------------- */
/* Bytes device malloc may have in use at once (cudaLimitMallocHeapSize). */
void dbg_target_set_heap_limit(dbg_target *t, uint64_t bytes);
/* Worker threads for runs to completion (0: one per CPU); returns the number in effect. */
int dbg_target_set_threads(dbg_target *t, int n);
/* Where device printf output goes (NULL: stdout at each write). */
void dbg_target_set_output(dbg_target *t, FILE *out);
/* Freed memory: the caller's describer of global addresses inside no region of this target
 * (the runtime's record of what the program released), so fault messages, address
 * descriptions and memcheck say "inside cudaMalloc#2 [...], which was freed by cudaFree ...".
 * It belongs to this target only; called from worker threads too. fn NULL removes it. */
typedef int (*dbg_freed_fn)(void *ctx, uint64_t addr, char *out, size_t n);
void dbg_target_set_freed_describer(dbg_target *t, dbg_freed_fn fn, void *ctx);

/* ---- launches and runs ------------------------------------------------------------------------- */
typedef struct {
    const ptx_func *kernel;
    exec_dim3 grid, block;
    uint32_t shmem;               /* dynamic shared bytes */
    exec_dim3 cluster;            /* {0,0,0}: the kernel's .reqnctapercluster, or none */
    int cooperative;              /* every CTA resident; the grid barrier's workspace */
    const void *params;           /* the .param block, dbg_kernel_param_layout */
    size_t param_bytes;
} dbg_launch_cfg;
/* Prepare a launch (nothing runs yet): -1 with the reason in dbg_target_errmsg (a cluster shape
 * the kernel refuses, parameters of the wrong size, ...). */
int dbg_target_launch(dbg_target *t, const dbg_launch_cfg *c);
/* Run the current launch until it ends or stops: after at most max_steps warp-instructions
 * (0: no limit; EXEC_STOP_LIMIT) or when *interrupt becomes non-zero (EXEC_STOP_INTERRUPT), on
 * a fault, trap or failed assertion. *st is the stop. -1 only for misuse (no launch). */
int dbg_target_run(dbg_target *t, uint64_t max_steps, volatile int *interrupt, exec_stop *st);
/* Warp-instructions executed on the target since it was loaded. */
uint64_t dbg_target_steps(const dbg_target *t);
/* Whether a run the session's run hook sees (dbg_run_hook) runs on until something stops it
 * (a continue, or a step that runs a warp on), so an interrupt may land in it. */
int dbg_run_opts_runs_on(const exec_run_opts *o);

/* ---- a launch's state (for reports) ----------------------------------------------------------- */
/* Grid size in CTAs and warps per CTA of the current launch. */
void dbg_target_grid(const dbg_target *t, uint32_t *ncta, uint32_t *nwarps);
exec_dim3 dbg_target_cta_coord(const dbg_target *t, uint32_t cta);
exec_cta_state dbg_target_cta_state(const dbg_target *t, uint32_t cta);
int dbg_target_lane(const dbg_target *t, uint32_t cta, uint32_t warp, uint32_t lane,
                    exec_lane_info *li);
/* Where pc is: its function (and that function's mangled name), its PTX line, and
 * "file.cu:42" (base name) of the .loc in force ("" without line information). */
typedef struct {
    const ptx_func *func;
    const char *func_name;
    int ptx_line;                 /* 0 when pc is no instruction */
    char src[256];
} dbg_pc_place;
int dbg_target_pc_place(const dbg_target *t, uint32_t pc, dbg_pc_place *p);

/* ---- texture and surface objects ------------------------------------------------------------- */
/* Create a texture (surface = 0) or surface object described by d (memory inside one global
 * region). *handle: 0 to take the next free handle, or the handle to (re)create; the handle is
 * what kernels receive. */
int dbg_target_tex_create(dbg_target *t, int surface, const exec_tex_desc *d,
                          uint64_t *handle);
int dbg_target_tex_destroy(dbg_target *t, uint64_t handle);

#endif
