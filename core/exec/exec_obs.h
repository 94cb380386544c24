/* exec_obs.h - observers of the execution core: one seam for memory accesses, one for sync events. */
#ifndef EXEC_OBS_H
#define EXEC_OBS_H

#include <stdint.h>
#include "ptx.h"

/* ---------------------------------------------------------------------------------------------
 * Everything that watches a kernel run from outside the instruction semantics (watchpoints, the
 * parallel workers' ownership claims, the checkers of checkers/) is an OBSERVER of one of two
 * seams (core/exec/exec_obs.c):
 *
 *  - the MEMORY seam: every access of every lane, whatever the instruction (ld/st/ldu, atom/red,
 *    textures and surfaces, cp.async and bulk copies, mbarrier objects, mma loads, printf
 *    arguments) and whatever the path (the per-lane checked path or the warp-wide fast path),
 *    with its space resolved (a generic address is reported in the space it falls in). Accesses
 *    that cannot be performed as asked (out of range, misaligned, read-only, outside the memory
 *    a GPU maps) are reported with a status before the fault, so memcheck sees exactly the faults;
 *    accesses outside an allocation that a GPU completes (EXEC_ACC_PAD) are performed on the
 *    allocation's padding and reported too.
 *  - the SYNC seam: launch and CTA begin/end, lanes exiting, CTA barriers (each warp's arrival,
 *    each completion), warp-synchronous instructions (with their membermask and the lanes that
 *    took part), mbarrier arrivals and phase completions, cp.async waits, fences, device heap
 *    malloc/free and host allocations appearing or going.
 *
 * An observer says which spaces it wants every access of (`spaces`, bits 1u << ptx_space; 0 for
 * none: observing costs nothing) and whether it wants the abnormal accesses (EXEC_OBS_BAD) and
 * the sync events (EXEC_OBS_SYNC). Observers run on the thread that runs the kernel, in the
 * order added, before the access is performed. With no observer the hot paths test one word.
 *
 * Parallel workers (exec_workers.c) never run observers other than their own claims: a launch with
 * an observer of every access runs on one thread, and any abnormal access in a worker hands the
 * run back to one thread, which reaches it again with every observer in place, so findings do not
 * depend on the number of threads.
 * ------------------------------------------------------------------------------------------- */

typedef struct exec_machine exec_machine;

/* What an access does. */
enum { EXEC_ACC_READ = 0, EXEC_ACC_WRITE = 1, EXEC_ACC_RED = 2, EXEC_ACC_ATOMIC = 3 };
/* How it ends (status). */
enum {
    EXEC_ACC_OK = 0,       /* inside its allocation or space: performed */
    EXEC_ACC_PAD,          /* global: outside every allocation but inside the memory a GPU maps
                              for the nearest one (docs/ARCHITECTURE.md, "Hardware granularity"):
                              performed on that allocation's padding */
    EXEC_ACC_OOB,          /* out of range: not performed, the warp faults */
    EXEC_ACC_MISALIGNED,   /* not aligned to its size: not performed, the warp faults */
    EXEC_ACC_READONLY,     /* a store to const or kernel parameter space: faults */
    EXEC_ACC_FREE_BAD,     /* device free() of something malloc did not return (addr1; size 0) */
    EXEC_ACC_FREE_TWICE,   /* device free() of a block already freed */
};
/* Flags of an access. */
#define EXEC_ACC_F_OBJ     0x01   /* a texture or surface object's whole range (size: its bytes) */
#define EXEC_ACC_F_ASYNC   0x02   /* an asynchronous or bulk copy (cp.async*, st.async) */
#define EXEC_ACC_F_GENERIC 0x04   /* addressed through a generic address */

typedef struct {
    uint32_t cta, warp, pc;   /* linear CTA index, warp in the CTA, the instruction */
    uint32_t lanes;           /* the lanes accessing (one bit on the checked path) */
    uint8_t kind;             /* EXEC_ACC_READ ... */
    uint8_t status;           /* EXEC_ACC_OK ... */
    uint8_t flags;            /* EXEC_ACC_F_* */
    ptx_space space;          /* the space accessed: global, shared, local, const, param */
    uint64_t size;            /* bytes each lane accesses */
    uint64_t addr1;           /* the address when addrs is NULL (in `space`) */
    const uint64_t *addrs;    /* per lane (indexed by lane), minus bias = address in `space` */
    uint64_t bias;
    const void *priv;         /* the core's own view of the access */
} exec_mem_ev;
static inline uint64_t exec_mem_ev_addr(const exec_mem_ev *e, uint32_t lane)
{
    return e->addrs ? e->addrs[lane] - e->bias : e->addr1;
}
/* The host bytes a lane's access reads or writes (their contents before it: observers run
 * first); NULL for an access that is not performed (a fault) or a texture's whole range. */
const uint8_t *exec_mem_ev_bytes(const exec_mem_ev *e, uint32_t lane);
/* The bytes a lane's plain store (`st`) is about to write (at most n, from the access's first
 * byte): their number, or -1 when the access is no plain store (atomics, copies) or is not
 * known before it is performed. */
int exec_mem_ev_stored(const exec_mem_ev *e, uint32_t lane, uint8_t *out, size_t n);

/* Shared addresses from here to 2 GB are the system's reserved shared memory (sm_80+), where
 * cooperative groups keep their tiles' state: the CUDA library's, not the program's. */
#define EXEC_OBS_SMEM_SYSTEM 0x7ffffc00u

/* Synchronisation events. */
typedef enum {
    EXEC_SYNC_LAUNCH = 1,     /* a launch was prepared (before its first CTA) */
    EXEC_SYNC_LAUNCH_END,     /* the launch completed, trapped, faulted or was killed */
    EXEC_SYNC_CTA_BEGIN,      /* CTA `cta` starts (its shared memory is fresh) */
    EXEC_SYNC_CTA_END,        /* CTA `cta` finished */
    EXEC_SYNC_EXIT,           /* `lanes` of a warp exited (exit, ret from the kernel) */
    EXEC_SYNC_BAR_ARRIVE,     /* `lanes` arrive at CTA barrier `id` (count: threads expected,
                                 0 = all; op: EXEC_BAR_SYNC, _ARRIVE or _RED) */
    EXEC_SYNC_BAR_DONE,       /* CTA barrier `id` completed (count: threads that had arrived) */
    EXEC_SYNC_WARP,           /* a warp-synchronous instruction completed for `lanes` (mask:
                                 the membermask, absent: lanes it names that exited, are not
                                 threads, or took no part) */
    EXEC_SYNC_WARP_UNDEFINED, /* `lanes` executed a warp-synchronous instruction with `mask` as
                                 the ISA leaves undefined and a GPU tolerates (op: EXEC_WS_ABSENT,
                                 _MASKS_DIFFER, _NOT_MEMBER or _SRC_ABSENT, exec.h;
                                 _SRC_ABSENT: `lanes` read `absent`, lanes of the mask that
                                 took no part,
                                 id the first reader's source lane) */
    EXEC_SYNC_MBAR_ARRIVE,    /* `lanes` arrived on the mbarrier at shared address `addr` */
    EXEC_SYNC_MBAR_PHASE,     /* the mbarrier at `addr` completed a phase */
    EXEC_SYNC_MBAR_WAIT,      /* `lanes` saw the current phase of the mbarrier at `addr` complete */
    EXEC_SYNC_CP_WAIT,        /* `lanes` waited for their cp.async groups (count: groups left) */
    EXEC_SYNC_FENCE,          /* fence / membar (scope: EXEC_SCOPE_*) */
    EXEC_SYNC_MALLOC,         /* device malloc returned addr (size bytes; addr 0: failed) */
    EXEC_SYNC_FREE,           /* device free of addr (size bytes) */
    EXEC_SYNC_ALLOC,          /* global memory [addr, addr + size) appeared (host side) */
    EXEC_SYNC_UNALLOC,        /* global memory at addr (size bytes) went away (host side) */
    EXEC_SYNC_CP_COMMIT,      /* `lanes` committed their pending cp.async copies as a group */
    /* initcheck's events */
    EXEC_SYNC_LOCAL_FRAME,    /* lane `lanes` pushed a local frame [addr, addr + size) (kernel
                                 entry, call, alloca): its bytes are fresh */
    EXEC_SYNC_HOST_WRITE,     /* the host wrote global memory [addr, addr + size) through the
                                 machine (exec_mem_write: the debugger's writes, buffers) */
    EXEC_SYNC_REG_UNDEF,      /* `lanes` read register `what` (index id in its function), which
                                 they never wrote in this activation (observers wanting
                                 EXEC_OBS_REGS; pc: the instruction) */
    /* synchronisation the ISA defines as wrong (synccheck) */
    EXEC_SYNC_MISUSE,         /* `lanes` misused a barrier and the warp faults (op: EXEC_MISUSE_*;
                                 what: the fault's message; id, count: a CTA barrier's number and
                                 count; addr: an mbarrier's shared address). Sent after the
                                 fault, so a stop asked for rides on it. */
} exec_sync_kind;
/* EXEC_SYNC_MISUSE's op: the family of the primitive misused. */
enum { EXEC_MISUSE_BAR = 1, EXEC_MISUSE_MBAR, EXEC_MISUSE_CLUSTER };
/* EXEC_SYNC_WARP's op: EXEC_WS_DONE_EXITED when the set waited for live lanes of its membermask
 * that then exited without executing it (it completed without them: exec_ws_exited). */
#define EXEC_WS_DONE_EXITED 1
enum { EXEC_SCOPE_NONE, EXEC_SCOPE_CTA, EXEC_SCOPE_CLUSTER, EXEC_SCOPE_GPU, EXEC_SCOPE_SYS };
enum { EXEC_BAR_SYNC, EXEC_BAR_ARRIVE, EXEC_BAR_RED };
/* Memory-order semantics of an access or fence (exec_pc_order). */
enum { EXEC_SEM_WEAK, EXEC_SEM_VOLATILE, EXEC_SEM_RELAXED, EXEC_SEM_ACQUIRE, EXEC_SEM_RELEASE,
       EXEC_SEM_ACQ_REL, EXEC_SEM_SC };

typedef struct {
    exec_sync_kind kind;
    uint32_t cta, warp, pc;
    uint32_t lanes;
    uint32_t mask, absent;    /* WARP */
    int id;                   /* barrier number */
    uint32_t count;
    uint64_t addr, size;
    uint8_t scope;
    uint8_t op;               /* BAR_ARRIVE: EXEC_BAR_*; WARP_UNDEFINED: exec_ws_event */
    const char *what;         /* the opcode or a short name of the event */
    const void *priv;         /* the core's (REG_UNDEF: the warp, for exec_obs_stop_sync) */
} exec_sync_ev;

/* The memory-order semantics and scope the instruction at pc states (PTX memory consistency
 * model: .relaxed/.acquire/.release/.acq_rel/.sc/.volatile and .cta/.cluster/.gpu/.sys; an
 * atomic without them is relaxed at gpu scope, a plain access weak, membar.cta/gl/sys are sc
 * fences of that scope). For racecheck's happens-before; -1 when pc is no instruction. */
int exec_pc_order(const exec_machine *m, uint32_t pc, uint8_t *sem, uint8_t *scope);

/* What an observer's access callback returns. */
enum {
    EXEC_OBS_GO = 0,          /* go on */
    EXEC_OBS_HALT = -1,       /* the access must not happen: the observer stopped the warp */
};
#define EXEC_OBS_BAD  0x1u    /* wants the abnormal accesses (status != EXEC_ACC_OK) */
#define EXEC_OBS_SYNC 0x2u    /* wants the sync events */
#define EXEC_OBS_REGS 0x4u    /* wants EXEC_SYNC_REG_UNDEF (with EXEC_OBS_SYNC): while one does,
                                 every instruction records which lanes wrote its destination
                                 registers and reports reads of registers a lane never wrote
                                 (exec_undef.c); otherwise nothing is tracked */

typedef struct {
    const char *name;
    uint32_t spaces;          /* every access to these spaces (bits 1u << ptx_space) */
    uint32_t want;            /* EXEC_OBS_BAD | EXEC_OBS_SYNC */
    int (*access)(void *ctx, exec_machine *m, const exec_mem_ev *ev);
    void (*sync)(void *ctx, exec_machine *m, const exec_sync_ev *ev);
    void *ctx;
} exec_observer;

#define EXEC_MAX_OBSERVERS 8
/* Add an observer (copied); returns a handle >= 0, -1 when the table is full. */
int exec_observer_add(exec_machine *m, const exec_observer *o);
void exec_observer_del(exec_machine *m, int handle);

/* From an observer's callback: stop the kernel after the instruction in progress (a checker's
 * finding), at the accessing warp, as EXEC_STOP_CHECK with `tag` (the checker's finding) and
 * `lane` in focus; when the instruction faults instead, the fault's stop carries the tag. Later
 * calls before the stop is taken keep the first one. */
void exec_obs_stop(exec_machine *m, const exec_mem_ev *ev, uint32_t lane, int tag,
                   const char *msg);
/* The same from EXEC_SYNC_REG_UNDEF (initcheck's registers; ev->priv is the warp): the stop
 * names the instruction, its space is the register's (PTX_SPACE_REG). */
void exec_obs_stop_reg(exec_machine *m, const exec_sync_ev *ev, uint32_t lane, int tag,
                       const char *msg);
/* The same from a sync event of a running warp (ev->cta, ev->warp: its slice ends after the
 * instruction in progress), with the stop's focus on `lane` of warp `warp` of the same CTA at
 * `pc` (a waiting lane, or the event's own). An event without a running warp (BAR_DONE, host
 * events) cannot stop: -1. */
int exec_obs_stop_sync(exec_machine *m, const exec_sync_ev *ev, uint32_t warp, uint32_t lane,
                       uint32_t pc, int tag, const char *msg);
/* Sync events from outside the core (the host side: allocations appearing or going). */
void exec_obs_host_event(exec_machine *m, exec_sync_kind kind, uint64_t addr, uint64_t size);

/* ---- the hardware's granularity (docs/ARCHITECTURE.md) --------------------------------------
 * Bytes after an allocation of `size` bytes that a GPU maps with it (its padding): accesses there
 * complete on a GPU. Small allocations (< 2 MB): to the next 256-byte boundary and 256 bytes
 * more; large ones: to the end of their last 2 MB page and one more 2 MB page. */
uint64_t exec_alloc_padding(uint64_t size);
/* Give the mapped region at base its padding: `pad` host bytes after its end that the caller
 * owns (zeroed) and keeps with the mapping. */
int exec_global_set_pad(exec_machine *m, uint64_t base, uint64_t pad);
/* The live global region nearest to addr (with its padding), or the most recently freed one that
 * held addr (kind and name as it was); -1 when none. */
int exec_global_near(const exec_machine *m, uint64_t addr, exec_region_info *ri, uint64_t *pad);
int exec_global_freed_at(const exec_machine *m, uint64_t addr, exec_region_info *ri);
/* The region whose padding (or bytes) hold [addr, addr + n): what a GPU maps there. */
int exec_global_pad_owner(exec_machine *m, uint64_t addr, uint64_t n, exec_region_info *ri,
                          uint64_t *pad);
/* Accesses a launch made outside allocations that a GPU completes (EXEC_ACC_PAD), since the
 * machine was made: recorded whether or not anything observes them. */
uint64_t exec_pad_accesses(const exec_machine *m);

#endif
