/* mem.h - state spaces and the address model: global regions, const bank, shared, local, param. */
#ifndef MEM_H
#define MEM_H

#include <stddef.h>
#include <stdint.h>
#include "ptx.h"

/* ---------------------------------------------------------------------------------------------
 * Address model
 *
 * Every state space has its own address range; each access is translated to a host pointer
 * and bounds-checked, so a kernel can never touch host memory it does not own.
 *
 *  .global  Addresses are generic addresses. Module .global variables and buffers from
 *           exec_global_alloc / device malloc are REGIONS in one table sorted by address,
 *           starting at MEM_GLOBAL_BASE, each 256-byte aligned and followed by a gap of at
 *           least MEM_GLOBAL_GAP bytes, so a small overrun never lands in a neighbour. A
 *           last-hit cache makes repeated accesses to one buffer a single compare.
 *  .const   Offsets 0.. into the module's constant bank (module .const initialisers), read-only.
 *  .shared  Offsets 0.. into the running CTA's shared block: the module's static .shared
 *           variables (module scope and function scope, laid out once per module in
 *           declaration order with their alignment), then the launch's dynamic part (every
 *           `extern .shared x[]` names its base, aligned to 16).
 *  .local   A thread's own stack, which grows DOWN (PTX ISA "Stack Manipulation"): local
 *           addresses are 0 .. MEM_LOCAL_TOP, the stack starts empty with its stack pointer
 *           (exec_warp.lsp) at MEM_LOCAL_TOP, and only [stack pointer, MEM_LOCAL_TOP) is
 *           accessible: addresses below the stack pointer are free (never allocated, or freed
 *           by stackrestore or a return), addresses at or above MEM_LOCAL_TOP are beyond the
 *           stack. Each call activation pushes one block, its frame: the function's .local
 *           variables (the __local_depotN frame) followed by copies of parameters whose address
 *           is taken; the frame's base (exec_act.local_base) is its lowest address, so depot
 *           offsets count up from there, and the stack pointer is the base right after the
 *           call. alloca moves the stack pointer down by the size, rounded down to the
 *           alignment, and returns the new stack pointer (so stacksave right after `alloca p`
 *           gives p and successive allocas go down); stackrestore moves it back up within the
 *           current frame; returning restores the caller's stack pointer (exec_act.entry_sp).
 *           Needing more than MEM_LOCAL_MAX bytes is a stack overflow. The host copy of a
 *           lane's stack (exec_warp.ldata, lcap bytes) holds [MEM_LOCAL_TOP - lcap,
 *           MEM_LOCAL_TOP) and grows at its low end (mem_local_host translates).
 *  .param   Kernel parameters: offsets 0.. into the launch's parameter bytes (read-only).
 *           A function's parameters / return values and the .param variables of call
 *           sequences live in a per-lane area of the function's frame; instructions naming
 *           them are resolved at decode time.
 *
 *  Generic addresses: windows at fixed bases, each 2^32 bytes wide:
 *       MEM_WIN_SHARED  + shared offset
 *       MEM_WIN_LOCAL   + local offset
 *       MEM_WIN_CONST   + const offset
 *       MEM_WIN_PARAM   + kernel param offset
 *  anything else is a global address. cvta.global and cvta.to.global are the identity.
 *  Thread block clusters (exec_cluster.c): in a cluster of several CTAs the shared memory of
 *  the CTA of rank r is also at shared address MEM_SHCL_BASE + r * MEM_SHCL_STRIDE + offset
 *  (its shared::cluster window; a CTA's own shared::cta addresses remain valid too). mapa
 *  returns such addresses; accesses to a window reach that CTA's block, bounds-checked.
 *  Function addresses (mov of a function name, indirect calls) are MEM_CODE_BASE + 16 * the
 *  function's index in the module.
 *  The windows and function addresses lie at 32 TB, where Linux never places a mapping of its
 *  own (executables near 0x5555..., mmap from just below the stack at 0x7f.. downwards) and
 *  outside every sanitizer's shadow, so the CUDA runtime can reserve them at start-up before
 *  any host allocation could land there (the CUDA runtime's device pointers are host
 *  addresses).
 * ------------------------------------------------------------------------------------------- */
#define MEM_GLOBAL_BASE 0x0000000700000000ull
#define MEM_GLOBAL_GAP  0x100ull
#define MEM_WIN_SHARED  0x0000200000000000ull
#define MEM_WIN_LOCAL   0x0000200100000000ull
#define MEM_WIN_CONST   0x0000200200000000ull
#define MEM_WIN_PARAM   0x0000200300000000ull
#define MEM_WIN_SIZE    0x0000000100000000ull
/* A const window address may carry a module's index in bits 24..31 of its offset (the CUDA
 * runtime tags the addresses it hands out for modules other than its first); the offset in the
 * module's bank is the low 24 bits. A global load from the const window reads the bank of the
 * machine's own module (mem_xlate), as a GPU lets kernels read __constant__ variables through
 * plain pointers. */
#define MEM_CONST_TAG_SHIFT 24
#define MEM_CONST_OFF_MASK  ((1ull << MEM_CONST_TAG_SHIFT) - 1)
#define MEM_CODE_BASE   0x0000201000000000ull
#define MEM_LOCAL_MAX   (1u << 20)   /* bytes of local stack per thread */
#define MEM_LOCAL_TOP   ((uint64_t)MEM_LOCAL_MAX) /* local address just above the stack */
#define MEM_SHCL_BASE   0x80000000ull  /* shared::cluster window of rank 0 (shared space) */
#define MEM_SHCL_STRIDE 0x01000000ull  /* bytes between ranks' windows (16 ranks max) */

/* MEM_R_MAPPED: memory the machine does not own, mapped at a fixed address (exec_global_map:
 * the CUDA runtime's allocations, which live at their host address). */
enum { MEM_R_MODULE = 1, MEM_R_ALLOC, MEM_R_HEAP, MEM_R_MAPPED };

typedef struct mem_region {
    uint64_t base, size;
    uint64_t pad;             /* bytes after size that data also holds: the padding a GPU maps
                                 with the allocation (exec_alloc_padding); accesses there are
                                 EXEC_ACC_PAD */
    uint8_t *data;
    int kind;                 /* MEM_R_* */
    const ptx_sym *sym;       /* MODULE: the variable */
    uint32_t id;              /* allocation number, for messages ("buf#3") */
    char name[64];            /* ALLOC: the name the debugger gave it ("" none); MAPPED: the
                                 owner's name ("cudaMalloc#3"); for messages */
    uint8_t host;             /* MAPPED: the host may read it while a kernel runs (pinned host
                                 memory): parallel workers never write it speculatively */
    /* the index (mem.c): a treap ordered by base (heap-ordered by prio), count = regions in
       the subtree, so finding, adding and removing cost O(log n) whatever the number of
       live allocations; a region stays at its address until removed */
    struct mem_region *left, *right;
    uint32_t prio, count;
    /* parallel runs (exec_par.c): this region's claims, NULL until a worker first claims it;
       the regions holding claims are a list from mem_global.claimed */
    void *claims;
    struct mem_region *cprev, *cnext;
} mem_region;

/* A region that was freed or unmapped (kept for messages: "inside cudaMalloc#2, freed"). */
typedef struct mem_freed {
    uint64_t base, size;
    int kind;
    uint32_t id;
    char name[64];
} mem_freed;
#define MEM_FREED_MAX 256     /* the most recent ones are kept */

typedef struct mem_global {
    mem_region *root;         /* the treap of regions */
    int n;
    mem_freed *freed;         /* ring of the last MEM_FREED_MAX freed regions */
    uint32_t nfreed;          /* freed so far (the ring holds the last MEM_FREED_MAX) */
    mem_region *last;         /* last-hit cache (reset when a region is removed) */
    uint64_t next;            /* next free address */
    uint64_t limit;           /* end of the window regions are allocated in (0: unbounded) */
    uint32_t nalloc;
    uint32_t seed;            /* treap priorities (deterministic) */
    mem_region *claimed;      /* regions holding claims of parallel runs (exec_par.c) */
    /* the front end's describer of freed memory (exec_set_freed_describer) and its context */
    int (*freed_fn)(void *ctx, uint64_t addr, char *out, size_t n);
    void *freed_ctx;
} mem_global;

/* Region containing [addr, addr+n) or NULL. */
mem_region *mem_global_find(mem_global *g, uint64_t addr, uint64_t n);
/* The most recently freed region that held addr (NULL: none kept). */
const mem_freed *mem_global_freed(const mem_global *g, uint64_t addr);
/* Regions in address order: the first, the one after r (NULL at the end), the i-th. */
mem_region *mem_global_first(const mem_global *g);
mem_region *mem_global_next(const mem_global *g, const mem_region *r);
mem_region *mem_global_at(const mem_global *g, int i);
/* Add a region the caller filled (base, size, data, kind, sym, name; the index fields are
 * set here); -1 when it overlaps a region. The region then belongs to g. */
int mem_global_insert(mem_global *g, mem_region *r);
/* Nearest region to addr (for messages); NULL when there are none. */
const mem_region *mem_global_nearest(const mem_global *g, uint64_t addr);
/* Add a zeroed region of `size` bytes; returns its base or 0 on failure. */
uint64_t mem_global_add(mem_global *g, uint64_t size, int kind, const ptx_sym *sym);
int mem_global_remove(mem_global *g, uint64_t base, int kind);
/* Map externally owned bytes [data, data+size) at global address base (kind MEM_R_MAPPED);
 * -1 when the range overlaps a region or wraps. Removing it never frees data. */
int mem_global_map(mem_global *g, uint64_t base, uint64_t size, uint8_t *data,
                   const char *name);
void mem_global_free(mem_global *g);

/* Generic address -> space and space address; returns the space (GLOBAL for non-window). */
static inline ptx_space mem_generic_decode(uint64_t a, uint64_t *sa)
{
    if (a >= MEM_WIN_SHARED && a < MEM_WIN_PARAM + MEM_WIN_SIZE) {
        *sa = (a - MEM_WIN_SHARED) & (MEM_WIN_SIZE - 1);
        switch ((a - MEM_WIN_SHARED) >> 32) {
        case 0: return PTX_SPACE_SHARED;
        case 1: return PTX_SPACE_LOCAL;
        case 2: return PTX_SPACE_CONST;
        default: return PTX_SPACE_PARAM;
        }
    }
    *sa = a;
    return PTX_SPACE_GLOBAL;
}
/* Space address -> generic address (global: identity). */
static inline uint64_t mem_generic_encode(ptx_space s, uint64_t a)
{
    switch (s) {
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CLUSTER: return MEM_WIN_SHARED + (a & 0xffffffffu);
    case PTX_SPACE_LOCAL:  return MEM_WIN_LOCAL + (a & 0xffffffffu);
    case PTX_SPACE_CONST:  return MEM_WIN_CONST + (a & 0xffffffffu);
    case PTX_SPACE_PARAM:  return MEM_WIN_PARAM + (a & 0xffffffffu);
    default:               return a;
    }
}

/* The launched kernel's view of static shared memory (holes where other kernels' variables
 * lie), and the variable a range touches in a hole (NULL: none). */
int mem_shared_view(exec_machine *m, const ptx_func *k);
const ptx_sym *mem_shared_hole(const exec_machine *m, uint64_t addr, uint64_t n);

#endif
