/* rt.h - internal API of the CUDA runtime library: modules, kernels, memory, streams, launches. */
#ifndef RT_H
#define RT_H

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "rt_abi.h"
#include "dbg_target.h"

/* ---------------------------------------------------------------------------------------------
 * The runtime (libcudart.so.13, and libcuda.so.1 which shares it) runs a CUDA program's kernels
 * on ptxdbg's engine. Layers: runtime/ is a front end beside commands/ and dap/: it runs
 * kernels through the engine's execution API (dbg_target.h: modules, kernels, memory,
 * launches, texture objects), reports through the engine (dbg.h, dbg_value.h) and hands its
 * launches to the in-process front end that took the process (rt_dbg.c: the table a front end
 * registered with the engine, dbg_frontend.h; the runtime names no front end).
 *
 * Modules. Each fat binary the program registers (one per translation unit with device code)
 * is an rt_module; its PTX is decompressed, parsed and decoded once, at first use, into its own
 * engine target (dbg_target: the module and the machine that runs it). Kernels (rt_kernel)
 * and variables (rt_var) are registered by name and resolved in that module when it loads.
 *
 * Address model (docs/ARCHITECTURE.md "CUDA runtime"). Every device allocation is host memory
 * of this process: the device pointer IS the host address of the bytes. Allocations are mapped
 * into every module's machine as global regions at that address (dbg_target_map), so device,
 * managed, mapped and registered memory is dereferenceable by the host program and by kernels
 * with the same pointer, and every kernel access stays bounds-checked against the table (a
 * fault names the allocation: "cudaMalloc#3"). Module variables and the device heap live in
 * the core's own regions, in a window per module above RT_MODULE_BASE that the library reserves
 * (PROT_NONE) at load together with the core's other fixed windows, so no host mapping ever
 * lands there; each module's variables are also mapped into the other modules' machines.
 *
 * Execution (docs/ARCHITECTURE.md "CUDA runtime", Execution). Every piece of stream work is an
 * rt_op submitted with rt_submit: it is checked at once (configuration errors are returned),
 * then queued on its stream and run by that stream's worker thread in stream order, after the
 * operations it depends on (the legacy default stream's implicit synchronisation, event waits);
 * an operation that can run at once (its stream idle, nothing to wait for) and is not a kernel
 * or host function runs in the submitting thread (rt_queue.c). A kernel runs on its module's
 * machine, one kernel per machine at a time, outside the runtime lock; host threads that must
 * touch machines (allocations map into every machine, module loads, symbols, texture objects)
 * first quiesce the running kernels (rt_quiesce: they park at their next slice boundary) and
 * hold the lock meanwhile (rt_sched.c).
 *
 * Threads. rt_lock/rt_unlock is one process-wide lock (recursive per thread) around every entry
 * point and every change of runtime state; it is never held while a kernel or a host function
 * runs. Last errors are per host thread, sticky errors per process.
 * ------------------------------------------------------------------------------------------- */

/* Each module's machine keeps its variables and device heap in its own window of global
 * addresses: [RT_MODULE_BASE + i * RT_MODULE_WINDOW, + RT_MODULE_WINDOW) for module i, 4 TB
 * from 33 TB up, beside the engine's generic windows (dbg_addr_reserved), where neither Linux
 * nor valgrind (which keeps a program's stack near 128 GB) places anything of its own. */
#define RT_MODULE_BASE   0x0000210000000000ull
#define RT_MODULE_WINDOW (64ull << 30)
#define RT_MAX_MODULES   64

/* ---- entry, locking, errors (rt_core.c) ------------------------------------------------------ */
/* Initialise once (reserve the core's windows, read the environment); idempotent. */
void rt_init(void);
/* The runtime lock: recursive per thread. The outermost rt_unlock also ends a quiesce the
 * thread started (rt_quiesce). */
void rt_lock(void);
void rt_unlock(void);
/* Wait on cv with the runtime lock (held by the caller, at any depth) released meanwhile. All
 * the runtime's condition variables go with this lock. */
void rt_wait(pthread_cond_t *cv);
/* As rt_wait, at most until the CLOCK_MONOTONIC time `deadline` (seconds). */
void rt_wait_until(pthread_cond_t *cv, double deadline);
/* The runtime's one condition variable: broadcast at every change a waiter may wait for
 * (an operation completed, a kernel parked or finished, a stream or machine became free). */
extern pthread_cond_t rt_cv;
void rt_broadcast(void);
/* CLOCK_MONOTONIC now, in seconds. */
double rt_now(void);
/* Release the lock entirely (ending the thread's quiesce) for a long piece of work, and take
 * it back at the depth rt_suspend returned. */
int rt_suspend(void);
void rt_resume(int depth);
int rt_lock_depth(void);

/* ---- kernels on worker threads (rt_sched.c) ---------------------------------------------------
 * A kernel runs on its module's machine with the lock released. Before a thread holding the
 * lock touches any machine from outside its kernel (maps an allocation, loads a module, reads a
 * module variable's bytes, makes a texture object) it calls rt_quiesce: every running kernel
 * parks at its next slice boundary (a kernel stopped in the debugger: when the user resumes
 * it) and stays parked until this thread's outermost rt_unlock (or rt_unquiesce). Waiting for
 * device work ends the thread's quiesce first. */
void rt_quiesce(void);
void rt_unquiesce(void);
/* The in-process debugger stopped the program (all-stop): no stream starts new work. */
int rt_all_stopped(void);
/* A launch's hold on its module's machine (rt_launch_exec): rt_run_begin waits until the machine
 * (and, debugging, the session) is free and takes it (lock held; NULL: the context faulted
 * meanwhile, the launch is dropped); rt_run_started marks the machine as showing the launch;
 * rt_run_plain runs it to its end with the lock released, parking when asked: 0 (ctx->stop
 * is the final stop), RT_RUN_STEPS (past PTXDBG_MAX_STEPS), RT_RUN_TIMEOUT (past
 * PTXDBG_TIMEOUT), -1 (dbg_target_run failed); rt_run_end lets the machine go (lock held). */
typedef struct rt_runner rt_runner;
struct rt_launch_ctx;
enum { RT_RUN_STEPS = 1, RT_RUN_TIMEOUT };
rt_runner *rt_run_begin(struct rt_launch_ctx *ctx);
void rt_run_started(rt_runner *r);
int rt_run_plain(rt_runner *r);
void rt_run_end(rt_runner *r);
uint64_t rt_run_max_steps(void);   /* PTXDBG_MAX_STEPS, 0: none */
double rt_run_timeout(void);       /* PTXDBG_TIMEOUT seconds, 0: none */
/* Set both (read from the environment at start-up) for the launches that start later. */
void rt_run_set_limits(uint64_t max_steps, double timeout);
/* The process exits (rt_queue.c's exit handler): running kernels stop at their next slice
 * boundary and park for good (a kernel stopped in the debugger: once the user resumes it);
 * returns when none runs. Lock held. */
void rt_sched_exit(void);
int rt_sched_exiting(void);
/* rt_queue.c's exit handler (queued work dropped, running kernels parked for good, output
 * written); idempotent, for other exit handlers that must see no kernel run (rt_check.c). */
void rt_end_work_at_exit(void);
/* A fork's child: no worker thread exists there (rt_queue.c, rt_sched.c forget theirs). */
void rt_queue_forked(void);
void rt_sched_forked(void);

/* Record `e` as the calling thread's last error when it is not cudaSuccess; returns e. */
cudaError_t rt_error(cudaError_t e);
/* The sticky error (a kernel fault poisons the context until cudaDeviceReset), or cudaSuccess. */
cudaError_t rt_sticky(void);
void rt_set_sticky(cudaError_t e);
/* A kernel fault happens "asynchronously": rt_set_fault records it as pending, invisible to
 * cudaGetLastError and to calls that do not synchronise, as on a GPU where the launch returns
 * before the kernel faults; stream work submitted meanwhile is dropped (a faulted context runs
 * nothing more). The next synchronising call (device/stream/event synchronize or query, a
 * synchronous copy or memset, cudaFree) makes it the sticky error and returns it. rt_sync
 * waits for all device work first (a device-wide synchronisation: cudaFree, cudaDeviceSynchronize)
 * and writes out device printf output. rt_faulted: pending or sticky. Callers hold the lock. */
void rt_set_fault(cudaError_t e);
cudaError_t rt_sync(void);
int rt_faulted(void);
/* rt_sync without waiting for device work: a fault already pending becomes sticky (and is
 * returned); device printf output that completed is written out. */
cudaError_t rt_fault_check(void);
/* cudaGetLastError's state (per thread): read and reset / read only. */
cudaError_t rt_last_error(int reset);
/* Clear the sticky and last errors (cudaDeviceReset). */
void rt_errors_reset(void);
const char *rt_error_name(cudaError_t e);    /* NULL for an unknown code */
const char *rt_error_string(cudaError_t e);  /* NULL for an unknown code */
/* A diagnostic line on stderr: "ptxdbg: <message>\n". */
void rt_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The body of a generated stub (functions the runtime does not implement): one line naming the
 * function the first time (*said is the stub's flag), then returns `code`. */
int rt_unsupported(const char *name, int *said, int code);

/* Entry-point helpers: RT_BEGIN takes the lock (and initialises); RT_END releases it and
 * records a non-success result as the thread's last error. RT_BEGIN_CTX also returns the
 * sticky error when the context is poisoned, for calls that use the device. */
#define RT_BEGIN() do { rt_init(); rt_lock(); } while (0)
#define RT_END(e) rt_end(e)
/* A function, so that the argument (often the whole operation) is evaluated under the lock. */
static inline cudaError_t rt_end(cudaError_t e)
{
    rt_unlock();
    return rt_error(e);
}
/* An entry point whose whole body is one operation: RT_ENTRY(declaration, expression). */
#define RT_ENTRY(decl, call) decl { RT_BEGIN(); return RT_END(call); }
#define RT_ENTRY_CTX(decl, call) decl { RT_BEGIN_CTX(); return RT_END(call); }
#define RT_BEGIN_CTX() do {                                                    \
        rt_init(); rt_lock();                                                  \
        cudaError_t rt_st_ = rt_sticky();                                      \
        if (rt_st_ != cudaSuccess) return RT_END(rt_st_);                      \
    } while (0)

/* ---- modules, kernels, variables (rt_module.c, rt_fatbin.c) ---------------------------------- */
typedef struct rt_module rt_module;

/* A kernel: registered by __cudaRegisterFunction (host stub -> device name) or found by name
 * (driver API). Fields below `func` are valid once rt_kernel_ready() succeeded. */
typedef struct rt_kernel {
    rt_module *mod;
    const void *host_stub;        /* the host function the program launches by (NULL: driver) */
    char *name;                   /* device (mangled) name */
    const ptx_func *func;         /* the PTX entry (an engine handle) */
    dbg_kernel_info info;         /* its directives and resources (dbg_kernel_info_get) */
    int nparams;
    uint64_t *param_off;          /* nparams offsets into the .param bytes */
    uint64_t *param_size;         /* nparams sizes */
    uint64_t param_bytes;         /* total .param size */
    uint64_t static_shmem;        /* bytes of static .shared the kernel uses */
    uint32_t maxntid[3];          /* .maxntid (0 = none) */
    uint32_t reqntid[3];          /* .reqntid (0 = none) */
    uint32_t minnctapersm;        /* .minnctapersm (0 = none) */
    uint32_t reqnctapercluster[3];/* .reqnctapercluster (0 = none) */
    int max_dyn_shmem;            /* cudaFuncAttributeMaxDynamicSharedMemorySize (rt_device.c) */
    int attr[16];                 /* other per-function settings rt_device.c keeps */
    int regs;                     /* registers per thread: ptxas's count from the fat binary's
                                     SASS for the device, else the core's estimate from the
                                     PTX, which errs high (rt_kernel_ready) */
    int regs_from_sass;
    struct rt_kernel *next;       /* in the module's list */
} rt_kernel;

/* A __device__ / __constant__ / __managed__ variable. */
typedef struct rt_var {
    rt_module *mod;
    const void *host_var;         /* the host shadow (the symbol programs pass), NULL: driver */
    char *name;                   /* device name */
    size_t size;
    int constant;                 /* __constant__ (const space) */
    int managed;                  /* __managed__: lives in managed memory */
    void **managed_ptr;           /* __managed__: the host's pointer slot nvcc's code reads */
    ptx_space space;              /* GLOBAL or CONST once the module is loaded */
    uint64_t dev_addr;            /* once loaded: global address (managed: its host address),
                                     or offset in the module's const bank */
    struct rt_var *next;
} rt_var;

struct rt_module {
    int index;                    /* in rt_modules order */
    const void *fatbin;           /* the fat binary data (NULL: created from PTX text) */
    size_t fatbin_len;
    void *const *prelinked;       /* -rdc=true: the units' fat binaries (NULL-terminated), whose
                                     PTX is linked into this module (fatbin: the device-linked
                                     SASS, unused) */
    char *ptx;                    /* PTX text once extracted (NUL-terminated) */
    size_t ptx_len;
    char name[64];                /* "module#N" or the file name, for messages */
    dbg_target *tgt;              /* the engine's target: loaded module and machine; NULL
                                     until loaded */
    ptx_module *pm;               /* its engine handles (dbg_target_module, _machine), for */
    exec_machine *m;              /* the session and the checkers; NULL until loaded */
    int loaded;                   /* 1 loaded, -1 failed (error below) */
    cudaError_t load_error;
    char load_msg[512];           /* why it failed, as the JIT's error log says it */
    uint32_t nlaunch;             /* launches of this module so far */
    rt_kernel *kernels;
    rt_var *vars;
    struct rt_sass_fn *sass;      /* register counts from the SASS (rt_sass.c) */
    int nsass, sass_done;
    struct rt_module *next;
};

/* Create a module from a fat binary image (the .nv_fatbin data; the wrapper handled by the
 * caller) or from PTX text (the driver API, NVRTC output). Nothing is decoded yet. */
rt_module *rt_module_new_fatbin(const void *image, size_t maxlen);
rt_module *rt_module_new_ptx(const char *text, size_t len, const char *name);
/* Parse and decode the module if not yet done (maps every allocation into its machine).
 * cudaSuccess, or cudaErrorInvalidKernelImage / cudaErrorNoKernelImageForDevice /
 * cudaErrorInvalidPtx with the reason printed once on stderr. */
cudaError_t rt_module_load(rt_module *mod);
void rt_module_free(rt_module *mod);
/* Modules in registration order (for texture objects in every machine, and the like). */
rt_module *rt_modules(void);

rt_kernel *rt_kernel_add(rt_module *mod, const void *host_stub, const char *name);
/* The names of a loaded module's kernels (entries with a body), in PTX order: how many there
 * are, the first `max` of them in names (which may be NULL). */
int rt_module_entries(rt_module *mod, const char **names, int max);
/* The kernel the program launches with `host_stub`; NULL when none was registered. */
rt_kernel *rt_kernel_by_stub(const void *host_stub);
/* The kernel named `name` in mod (registering it when the module has such an entry). */
rt_kernel *rt_kernel_by_name(rt_module *mod, const char *name);
/* Load its module and fill the fields below `func`. cudaErrorInvalidDeviceFunction when the
 * module has no such entry. */
cudaError_t rt_kernel_ready(rt_kernel *k);

rt_var *rt_var_add(rt_module *mod, const void *host_var, const char *name, size_t size,
                   int constant, int managed);
/* The variable whose host shadow is `symbol` (what cudaMemcpyToSymbol etc. receive; for a
 * __managed__ variable its managed address); NULL. */
rt_var *rt_var_by_host(const void *symbol);
rt_var *rt_var_by_name(rt_module *mod, const char *name);
/* Device address and size of a variable (loads its module). The address is what kernels use:
 * generic for __device__ / __managed__, and for __constant__ the const-window generic address
 * (reads and writes through rt_var_rw, never host dereferences). */
cudaError_t rt_var_addr(rt_var *v, void **dev, size_t *size);
/* The same as the driver API hands it out: a __constant__ variable's address is tagged with
 * its module (but module#0's), which rt_const_host reads. */
cudaError_t rt_var_addr_tagged(rt_var *v, void **dev, size_t *size);
/* Host bytes of [addr, addr+n) in the const window: the tagged module's bank; for an untagged
 * address the one loaded module whose bank holds it, else module#0's; NULL otherwise. */
void *rt_const_host(uint64_t addr, uint64_t n);
/* Copy to (write = 1) or from a variable's bytes [off, off+n). */
cudaError_t rt_var_rw(rt_var *v, size_t off, void *buf, size_t n, int write);
/* Host bytes of [off, off+n) of a variable (loads its module); NULL when out of range. */
void *rt_var_host(rt_var *v, size_t off, size_t n);

/* ---- fat binaries (rt_fatbin.c) -------------------------------------------------------------- */
#define RT_FATBINC_MAGIC 0x466243B1u   /* __fatBinC_Wrapper_t.magic */
#define RT_FATBIN_MAGIC  DBG_FATBIN_MAGIC   /* .nv_fatbin container (dbg_target.h) */
/* Size in bytes of the fat binary containers starting at image (back to back, the last one
 * ending the data), or 0 when image is not a fat binary. maxlen bounds the walk. */
size_t rt_fatbin_size(const void *image, size_t maxlen);
/* Extract the PTX best matching the emulated device (highest PTX target <= sm_90, else the
 * highest) from the fat binary image [image, image+len): malloc'd NUL-terminated text in *ptx.
 * Returns 0, or -1 with the reason in err (no PTX: "carries only SASS for sm_80 ..."). */
int rt_fatbin_ptx(const void *image, size_t len, char **ptx, size_t *ptx_len, char *err,
                  size_t errlen);

/* The SASS (an ELF cubin) of the highest architecture the device runs, inflated: 0 and a
 * malloc'd *elf, 1 when there is none, -1 with the reason in err. */
int rt_fatbin_sass(const void *image, size_t len, uint8_t **elf, size_t *elf_len, char *err,
                   size_t errlen);
/* Registers per thread of kernel `kernel` of a module as its SASS says (rt_sass.c); -1 when
 * the module has no SASS for the device or it does not name the kernel. */
typedef struct rt_sass_fn { char *name; int regs; } rt_sass_fn;
int rt_sass_regs(rt_module *mod, const char *kernel);
void rt_sass_free(rt_module *mod);

/* Link the PTX of several translation units of relocatable device code (-rdc=true; each text
 * NUL-terminated at its length) into one module's text (rt_link.c: how). 0 and a malloc'd
 * *out, or -1 with the reason in err. */
int rt_ptx_link(char **texts, const size_t *lens, int n, char **out, size_t *outlen, char *err,
                size_t errlen);

/* ---- allocations (rt_mem.c) ------------------------------------------------------------------ */
typedef struct rt_op rt_op;
typedef enum {
    RT_MEM_DEVICE = 1,            /* cudaMalloc, cudaMallocPitch, cudaMalloc3D */
    RT_MEM_HOST,                  /* cudaMallocHost / cudaHostAlloc (pinned, always mapped) */
    RT_MEM_REGISTERED,            /* cudaHostRegister (the program owns the bytes) */
    RT_MEM_MANAGED,               /* cudaMallocManaged, __managed__ variables */
    RT_MEM_ASYNC,                 /* cudaMallocAsync / cudaMallocFromPoolAsync */
    RT_MEM_ARRAY,                 /* CUDA arrays (rt_tex.c) */
} rt_mem_kind;

typedef struct rt_alloc {
    uint64_t base;                /* device address == host address */
    uint64_t size;                /* bytes asked for */
    rt_mem_kind kind;
    unsigned flags;               /* cudaHostAlloc / cudaHostRegister / attach flags */
    uint32_t id;                  /* n in the name */
    char name[32];                /* "cudaMalloc#3": what faults and messages call it */
    void *owner;                  /* kind-specific: the pool of an async allocation, ... */
    void *mem;                    /* what to release (NULL for REGISTERED) */
    size_t mem_size;
    uint64_t pad;                 /* bytes after size that mem also holds: the padding a GPU
                                     maps with it (dbg_addr_padding) */
    uint64_t site[4];             /* the host stack of the call that made it, while something
                                     checks (rt_check.c: the leak check names it) */
    int nsite;
    struct rt_alloc *tl, *tr;     /* the index (rt_mem.c): a treap by base */
    uint32_t prio;
} rt_alloc;

/* Map allocation a (with its padding) into target t; -1 with the target's message. Pinned
 * host memory (cudaHostAlloc, cudaMallocHost, cudaHostRegister), which the host may poll while
 * a kernel runs, is mapped as host-shared: never written ahead of one thread by parallel
 * workers. */
int rt_alloc_map_into(dbg_target *t, const rt_alloc *a);
/* Allocate size bytes (zeroed) of the given kind, map it into every machine; *out = address.
 * `what` names it in messages ("cudaMalloc" -> "cudaMalloc#4"). */
cudaError_t rt_alloc_new(rt_mem_kind kind, uint64_t size, unsigned flags, const char *what,
                         void **out);
/* Register program-owned host memory [p, p+size) (cudaHostRegister). */
cudaError_t rt_alloc_register(void *p, uint64_t size, unsigned flags, const char *what);
/* Record bytes someone else owns (a __managed__ variable's region) as an allocation named
 * `name` (borrowed) at its host address, mapped into every machine; freed with rt_alloc_free
 * (which then releases nothing). */
cudaError_t rt_alloc_alias(void *p, uint64_t size, rt_mem_kind kind, const char *name);
/* Release the allocation starting at p whose kind is in kinds_mask (1 << kind); unmaps it from
 * every machine. cudaErrorInvalidValue (or InvalidDevicePointer) when p is not one. */
cudaError_t rt_alloc_free(void *p, unsigned kinds_mask);
/* The allocation containing [p, p+n) (n = 0: containing p); NULL. */
const rt_alloc *rt_alloc_find(const void *p, uint64_t n);
/* Call fn for every allocation (in address order); stops when fn returns non-zero. */
int rt_alloc_each(int (*fn)(const rt_alloc *a, void *ctx), void *ctx);
/* Where an address lives: device memory (an allocation or a module variable / heap block of a
 * machine) or host memory. Used to check memcpy directions. */
enum cudaMemoryType rt_mem_type(const void *p, uint64_t n);
/* Resolve a device address range to host bytes the runtime may read or write (allocations are
 * their own bytes; module variables and heap blocks are found in the machines). NULL when the
 * range is not device memory. */
void *rt_dev_host(uint64_t addr, uint64_t n);
/* Execute a COPY / SET op: checks each device side lies inside device memory (else
 * cudaErrorInvalidValue, naming the allocation it overruns on stderr) and that host sides do
 * not touch the reserved windows; copies may overlap (memmove). */
cudaError_t rt_copy_run(const rt_op *op);
cudaError_t rt_set_run(const rt_op *op);
/* The two halves of each: resolve (and check) under the lock, then move the bytes, which
 * may be done with the lock released. A NULL destination means nothing to move. */
cudaError_t rt_copy_prep(const rt_op *op, uint8_t **d, uint8_t **s);
void rt_copy_move(const rt_op *op, uint8_t *d, uint8_t *s);
cudaError_t rt_set_prep(const rt_op *op, uint8_t **d);
void rt_set_move(const rt_op *op, uint8_t *d);
/* Whether [p, p+n) touches an address window reserved for the core. */
int rt_addr_reserved(uint64_t p, uint64_t n);
/* Bytes of device memory in use (cudaMemGetInfo) and the emulated total. */
void rt_mem_usage(uint64_t *used, uint64_t *total);
/* An address inside one of the last allocations the program released: "inside cudaMalloc#2
 * [0x..., N bytes) at offset K, which was freed by cudaFree, called from release at app.cu:69,
 * called from main at app.cu:110" (the host stack of the release, named from the program's
 * debug info) and 1; 0 when addr is in none. The one description of freed memory: the core's
 * fault messages, the debugger's reports and memcheck use it (each module's target gets it:
 * rt_freed_describer, for dbg_target_set_freed_describer). */
int rt_mem_freed_describe(uint64_t addr, char *out, size_t n);
int rt_freed_describer(void *ctx, uint64_t addr, char *out, size_t n);

/* ---- machines -------------------------------------------------------------------------------- */
/* Call fn on the target of every loaded module (texture objects, mappings); stops when fn
 * returns non-zero and returns that. */
int rt_machines_each(int (*fn)(dbg_target *t, rt_module *mod, void *ctx), void *ctx);

/* Texture and surface objects (rt_texobj.c) exist in every machine with the same handle: a
 * machine created after some were made gets them all. */
void rt_tex_machine_added(dbg_target *t);

/* ---- streams and events (rt_stream.c; their execution: rt_queue.c) -------------------------- */
#define RT_STREAM_NATTR 17            /* cudaLaunchAttributeID values a stream keeps */
typedef struct rt_qop rt_qop;         /* a submitted operation (rt_queue.c) */
enum { RT_SK_LEGACY, RT_SK_PTDS, RT_SK_CREATED };
typedef struct CUstream_st {
    uint32_t magic;               /* RT_STREAM_MAGIC while alive */
    unsigned flags;               /* cudaStreamNonBlocking */
    int priority;
    uint64_t id;                  /* cudaStreamGetId */
    void *capture;                /* non-NULL while capturing (rt_graph.c owns it) */
    int capture_mode;
    cudaLaunchAttributeValue attr[RT_STREAM_NATTR]; /* cudaStreamSetAttribute values by id */
    struct CUstream_st *next;     /* created streams, as the API finds them */
    /* execution (rt_queue.c; under the runtime lock) */
    int kind;                     /* RT_SK_* */
    rt_qop *head, *tail;          /* submitted operations not completed, in stream order */
    rt_qop *last;                 /* the last operation submitted (a reference) or NULL */
    int worker;                   /* a worker thread serves the stream */
    int dying;                    /* destroyed (or its host thread ended): freed once drained */
    struct CUstream_st *all_next; /* every stream that exists, dying ones included */
} rt_stream;
#define RT_STREAM_MAGIC 0x5354524du

typedef struct CUevent_st {
    uint32_t magic;               /* RT_EVENT_MAGIC while alive */
    unsigned flags;               /* cudaEventDisableTiming, ... */
    rt_qop *last;                 /* the last record submitted (a reference), NULL: never */
    int refs;                     /* 1 while alive, + 1 per queued operation naming it */
    struct CUevent_st *next;
} rt_event;
#define RT_EVENT_MAGIC 0x45564e54u

/* The stream a handle designates: NULL -> the legacy default stream, or the calling thread's
 * per-thread stream when `ptds` (the _ptsz / _ptds entry points, or cudaStreamPerThread);
 * RT_STREAM_LEGACY / RT_STREAM_PER_THREAD; else a created stream. NULL when the handle is not a
 * live stream (cudaErrorInvalidResourceHandle). */
rt_stream *rt_stream_get(cudaStream_t h, int ptds);
rt_event *rt_event_get(cudaEvent_t h);
/* Call fn for the legacy stream, the calling thread's per-thread stream and every created
 * stream; stops when fn returns non-zero and returns that. */
int rt_streams_each(int (*fn)(rt_stream *s, void *ctx), void *ctx);

/* ---- stream operations: the one submission seam ----------------------------------------------
 * Every piece of stream work is an rt_op submitted with rt_submit. Stream capture (rt_graph.c)
 * records ops instead of running them, and graphs replay them through rt_submit, so an rt_op
 * is self-contained: addresses are resolved (symbols, pitched pointers) before submission and a
 * kernel's parameters are already laid out as .param bytes. While submitted, `params` may point
 * at the caller's memory; rt_op_clone copies it (and nothing else needs copying) for keeping. */
typedef enum {
    RT_OP_KERNEL = 1,
    RT_OP_COPY,                   /* 1D/2D/3D copy between host and/or device memory */
    RT_OP_SET,                    /* 1D/2D/3D memset of 1-, 2- or 4-byte elements */
    RT_OP_HOST_FN,                /* cudaLaunchHostFunc / cudaStreamAddCallback */
    RT_OP_EVENT_RECORD,
    RT_OP_EVENT_WAIT,
    RT_OP_MEM_ALLOC,              /* stream-ordered allocation (graphs: mem alloc node) */
    RT_OP_MEM_FREE,
} rt_op_kind;

struct rt_op {
    rt_op_kind kind;
    union {
        struct {
            rt_kernel *k;
            dim3 grid, block;
            uint32_t shmem;               /* dynamic shared memory bytes */
            dim3 cluster;                 /* {0,0,0}: none given */
            int cooperative;
            int priority;
            const uint8_t *params;        /* k->param_bytes bytes of .param data */
            uint64_t nparams;             /* bytes at params */
            int params_owned;             /* params was malloc'd by rt_op_clone */
            const uint64_t *host_pcs;     /* the launching thread's host stack (rt_submit), */
            int nhost_pcs;                /* for the launch site; a queued op keeps a copy */
        } kernel;
        struct {
            uint64_t dst, src;            /* addresses (device == host) */
            uint64_t width, height, depth;/* bytes per row, rows, slices (1D: w, 1, 1) */
            uint64_t dpitch, spitch;      /* bytes between rows */
            uint64_t dslice, sslice;      /* bytes between slices */
            enum cudaMemcpyKind dir;      /* as the program gave it (checked at execution) */
            uint8_t dst_raw, src_raw;     /* that side is already host bytes the runtime
                                             resolved (a variable's storage): not checked */
        } copy;
        struct {
            uint64_t dst;
            uint32_t value;               /* element value (low elem_size bytes) */
            uint32_t elem_size;           /* 1, 2 or 4 */
            uint64_t width, height, depth;/* elements per row, rows, slices */
            uint64_t pitch, slice;        /* bytes between rows / slices */
        } set;
        struct {
            cudaHostFn_t fn;              /* cudaLaunchHostFunc */
            cudaStreamCallback_t cb;      /* cudaStreamAddCallback (fn NULL) */
            void *user;
        } host;
        struct {
            rt_event *ev;
            unsigned flags;
        } event;
        struct {
            uint64_t addr;                /* ALLOC: filled when run; FREE: what to free */
            uint64_t size;
            cudaMemPool_t pool;
            void **out;                   /* ALLOC: where the program wants the pointer */
            struct rt_gmem *graph;        /* a graph memory node's allocation (rt_graphmem.c) */
        } mem;
    } u;
};

/* Submit op on stream h (ptds: see rt_stream_get), or record it when the stream captures.
 * The op is checked now: launch configuration errors, copies and memsets outside device
 * memory, frees of what is not an allocation are returned (nothing is queued, the sticky state
 * is untouched); then it is queued (rt_queue.c) and the call returns: a kernel fault later
 * becomes the pending fault. Stream-ordered allocations (and graph memory nodes' bookkeeping)
 * happen at submission. After a fault, or once the process exits, work is dropped. Callers
 * hold the lock. */
cudaError_t rt_submit(cudaStream_t h, int ptds, const rt_op *op);
/* rt_submit for the API's variants with and without "Async": with sync, a pending fault is
 * returned first (the op does not run), and the call waits for the op as CUDA documents for
 * synchronous calls (copies other than device to device; memsets of pinned host memory),
 * returning its error (or the fault that dropped it); device output is flushed after. */
cudaError_t rt_submit_sync(cudaStream_t h, int ptds, const rt_op *op, int sync);
/* Execute op in the calling thread, now (a stream's worker, or the submitting thread when the
 * stream is idle); the lock is held on entry and exit, released while a kernel, a host
 * function or a large copy runs. */
cudaError_t rt_op_run(rt_stream *s, const rt_op *op);
/* The check rt_submit makes before queueing op (rt_queue.c calls it). */
cudaError_t rt_op_check(rt_stream *s, const rt_op *op);

/* ---- waiting (rt_queue.c) ---------------------------------------------------------------------
 * Callers hold the lock; waiting releases it (and the caller's quiesce, rt_quiesce). */
/* Every operation submitted so far on every stream has completed. */
void rt_wait_all(void);
/* Stream s's operations submitted so far (for the legacy stream, also those of the blocking
 * streams it waits for) have completed. */
void rt_wait_stream(rt_stream *s);
/* 1 when rt_wait_stream(s) would not wait, else 0. */
int rt_stream_idle(rt_stream *s);
/* The event's last record (none: at once). 1 when it completed, 0 not yet (wait = 0 only
 * asks). *ms: when the record executed (CLOCK_MONOTONIC, milliseconds). */
int rt_event_done(rt_event *e, int wait, double *ms);
/* Stream and event lifetimes: destroy (work already submitted still runs; freed after). */
rt_stream *rt_stream_make(unsigned flags, int priority, int kind);
void rt_stream_destroy(rt_stream *s);
void rt_event_destroy(rt_event *e);
/* The legacy default stream; the calling thread's per-thread default stream (made at its first
 * use, NULL when out of memory) and whether it exists yet (rt_ptds_current: NULL). */
rt_stream *rt_legacy_stream(void);
rt_stream *rt_ptds_stream(void);
rt_stream *rt_ptds_current(void);
/* Queue a checked op on s (the operation runs at once, here, when it is not a kernel or host
 * function and nothing is to be waited for); with out, *out is a reference to wait on with
 * rt_qop_wait (which returns the op's own error and drops the reference). */
cudaError_t rt_queue_op(rt_stream *s, const rt_op *op, rt_qop **out);
cudaError_t rt_qop_wait(rt_qop *q);
/* A copy or memset of `bytes` on an idle stream with nothing to wait for runs here and now,
 * without a queue entry: 1 with its error in *err; else 0. */
int rt_queue_direct(rt_stream *s, const rt_op *op, uint64_t bytes, cudaError_t *err);
/* Deep copy for keeping an op (kernel params); rt_op_release frees what rt_op_clone made. */
int rt_op_clone(rt_op *dst, const rt_op *src);
void rt_op_release(rt_op *op);
/* Stream capture (rt_graph.c): record op in s->capture. Until rt_graph.c exists a weak
 * default refuses with cudaErrorStreamCaptureUnsupported. */
cudaError_t rt_capture_op(rt_stream *s, const rt_op *op);

/* The COPY op a cudaMemcpy3DParms describes (pitched pointers and CUDA arrays), for
 * cudaMemcpy3D* and graph memcpy nodes. */
cudaError_t rt_copy3d_op(const struct cudaMemcpy3DParms *p, rt_op *op);
/* The COPY op of cudaMemcpyToSymbol (to = 1) / FromSymbol: kind 0 (no op) when count is 0. */
cudaError_t rt_symcopy_op(const void *symbol, void *mem, size_t count, size_t offset,
                          enum cudaMemcpyKind kind, int to, rt_op *op);
/* Stream capture joins: an EVENT_WAIT on a stream that is not capturing, for an event last
 * recorded in a capture, makes the stream join that capture (rt_graph.c); returns 1 then, and
 * rt_submit records the op. */
int rt_capture_joins(rt_stream *s, const rt_op *op);
/* What stream capture forbids (rt_capture.c says which calls and errors): each returns
 * cudaSuccess, or the error after invalidating the captures the call conflicts with.
 * unsafe: allocation and freeing by the calling thread (its capture interaction mode);
 * legacy: work on stream s when it is the legacy default stream; sync_stream: synchronising
 * or querying stream s; sync_event: an event; sync_device: the device. */
cudaError_t rt_capture_unsafe(void);
cudaError_t rt_capture_legacy(const rt_stream *s);
cudaError_t rt_capture_sync_stream(const rt_stream *s);
cudaError_t rt_capture_sync_event(const rt_event *ev);
cudaError_t rt_capture_sync_device(void);

/* Submit a launch of kernel k (ready) whose .param bytes are `params` (rt_launch.c). */
cudaError_t rt_launch_packed(rt_kernel *k, dim3 grid, dim3 block, const uint8_t *params,
                             size_t shmem, cudaStream_t h, int ptds, dim3 cluster, int coop,
                             int prio);
/* Fill a COPY op: width bytes per row, height rows, depth slices (rt_memapi.c). */
void rt_copy_fill(rt_op *op, uint64_t dst, uint64_t dpitch, uint64_t dslice, uint64_t src,
                  uint64_t spitch, uint64_t sslice, uint64_t width, uint64_t height,
                  uint64_t depth, enum cudaMemcpyKind kind);

/* Lay out a kernel's arguments (args[i] points at parameter i, as cudaLaunchKernel receives
 * them) into .param bytes: buf must hold k->param_bytes. */
void rt_params_pack(const rt_kernel *k, void **args, uint8_t *buf);

/* ---- launches (rt_launch.c) ------------------------------------------------------------------ */
/* What the launch of one kernel is, for the plain runner and the in-process debugger. */
typedef struct rt_launch_ctx {
    rt_module *mod;
    dbg_target *tgt;              /* mod->tgt */
    exec_machine *m;              /* mod->m */
    rt_kernel *k;
    const ptx_func *func;         /* k->func */
    dim3 grid, block;
    uint32_t shmem;
    dim3 cluster;
    int cooperative;
    rt_stream *stream;
    const uint8_t *params;        /* .param bytes (k->param_bytes) */
    uint64_t nparams;
    uint64_t launch_no;           /* process-wide launch number, 0, 1, 2, ... */
    const uint64_t *host_pcs;     /* the host stack of the call that launched it (the launch */
    int nhost_pcs;                /* site: the kernel runs on a stream's thread), or none */
    /* outcome, filled by whoever ran it */
    exec_stop stop;               /* the final stop (EXEC_STOP_DONE when it completed) */
    int reported;                 /* the fault was already shown to the user */
} rt_launch_ctx;

/* At submission: check a launch (kernel ready, its module loaded; grid, block, shared memory,
 * .maxntid/.reqntid, parameters, cluster shape, cooperative residency). Returns the
 * configuration error (cudaErrorInvalidConfiguration, cudaErrorLaunchOutOfResources,
 * cudaErrorInvalidValue, cudaErrorInvalidClusterSize, cudaErrorCooperativeLaunchTooLarge, ...)
 * or cudaSuccess. Lock held. */
cudaError_t rt_launch_check(rt_launch_ctx *ctx);
/* On a stream's worker (lock held on entry and exit, released while the kernel runs): take the
 * module's machine (one kernel at a time; under the debugger one kernel in the whole process),
 * prepare and run the checked launch to completion, plainly or under the in-process debugger.
 * A fault is reported on stderr (rt_report_fault, unless the debugger showed it) and recorded
 * with rt_set_fault (cudaErrorIllegalAddress, cudaErrorMisalignedAddress, cudaErrorAssert,
 * cudaErrorLaunchFailure, ...); a plain run past PTXDBG_MAX_STEPS warp-instructions or
 * PTXDBG_TIMEOUT seconds fails with cudaErrorLaunchTimeout and a report of where every warp
 * is. ctx->stop says what happened. */
void rt_launch_exec(rt_launch_ctx *ctx);
/* The in-process debugger's hook. When non-NULL, rt_launch_exec hands every checked, prepared
 * launch (dbg_target_launch done) to it instead of running the kernel plainly; it runs the
 * kernel to completion (stopping for the user as it likes), fills ctx->stop with the final
 * stop and ctx->reported when it showed a fault itself, and returns 0 (or -1 when it could not
 * run: the launch then fails with cudaErrorLaunchFailure). Its run control calls
 * rt_debug_run_hook around every run of the kernel, and the runtime raises its interrupt flag
 * with rt_debug_interrupt (the session's Ctrl-C flag) when it needs the kernel to park. */
extern int (*rt_debug_launch)(rt_launch_ctx *ctx);
extern void (*rt_debug_interrupt)(void);
/* Before (o set) and after (st set) each run of the debugged kernel: parks it while
 * another thread quiesces kernels; returns 1 when the runtime had raised the interrupt flag
 * (run control clears it, and resumes after an EXEC_STOP_INTERRUPT), else 0. */
int rt_debug_run_hook(void *ctx, const exec_run_opts *o, const exec_stop *st);

/* rt_check.c: checkers in plain runs (PTXDBG_CHECK), the leak check. */
typedef struct chk_ctx chk_ctx;
void rt_check_machine_added(exec_machine *m);
void rt_check_machine_gone(exec_machine *m);
int rt_check_plain(void);   /* a plain run's checkers are on (its kernels run one at a time) */
int rt_check_alloc_site(uint64_t *pcs, int max);   /* the host stack, or 0 frames */
void rt_check_leaks(chk_ctx *k);
struct dbg_frontend;
void rt_check_session(const struct dbg_frontend *fe);
/* rt_dbg.c: the checkers of the in-process front end's session (NULL: none, or a plain run). */
chk_ctx *rt_debug_checks(void);
/* initcheck: the host wrote [addr, addr + n) of device memory (copies, memsets: rt_mem.c's
 * rt_copy_run / rt_set_run, where every host write into device memory lands); a fresh
 * allocation (device: its bytes start uninitialised; device and managed memory get the fill
 * byte, if any); an allocation gone. */
void rt_check_host_write(uint64_t addr, uint64_t n);
void rt_check_fresh(int device, void *mem, uint64_t size);   /* device -1: host memory */
void rt_check_gone(uint64_t addr, uint64_t size);   /* an allocation freed */
/* Called (when non-NULL, the in-process front end's through rt_dbg.c) after each module loads and
 * before each module is freed (cuModuleUnload, cuLibraryUnload, a failed load), so the session
 * drops what it read of a module that goes (its debug info, the module it shows): a module
 * loaded later, even at the same address, is read afresh. */
extern void (*rt_debug_module_loaded)(rt_module *mod);
extern void (*rt_debug_module_unloaded)(rt_module *mod);
/* The error a final stop means (EXEC_STOP_DONE: cudaSuccess). */
cudaError_t rt_stop_error(const exec_stop *st);
/* Print the fault report of a launch that ended in a fault, trap or failed assertion to stderr
 * (the exception, the kernel, block and thread, the PTX and source line, the core's
 * explanation naming the allocation), and write a core file when PTXDBG_AUTO_CORE=1. */
void rt_report_fault(rt_launch_ctx *ctx);
/* The report of a plain launch that did not finish (rt_report.c): why ("did not finish within
 * PTXDBG_MAX_STEPS=N warp-instructions", "interrupted (SIGINT)"), the kernel, the warp the stop
 * found running (block, warp, lanes, source and PTX line), then where every warp of every block
 * started and not finished is. `st` is the run's last stop (EXEC_STOP_LIMIT or INTERRUPT). */
void rt_report_where(rt_launch_ctx *ctx, const exec_stop *st, const char *why);
/* The core file of a launch's final stop (PTXDBG_AUTO_CORE), as `generate-core-file` writes it
 * at that stop in the debugger (rt_dbg.c): the machine, the module's sources found beside the
 * program, the focus on the lane the stop names, the process-wide kernel number. 0, or -1 with
 * the reason in err. */
int rt_dbg_write_core(rt_launch_ctx *ctx, const char *path, char *err, size_t n);

/* The emulated device as the rest of the runtime needs it. Weak defaults (an A100: compute
 * capability 80, 40 GB) live beside their users; rt_device.c defines the real ones from its
 * profile: the compute capability the fat binary's PTX is chosen for (major * 10 + minor),
 * the memory size cudaMalloc and cudaMemGetInfo count against. */
int rt_device_cc(void);
uint64_t rt_device_total_mem(void);
/* A CUDA array as a pitched pointer to its bytes and its element size (rt_tex.c; the weak
 * default refuses with cudaErrorInvalidResourceHandle), for cudaMemcpy3D with arrays. */
cudaError_t rt_array_pitched(cudaArray_const_t a, struct cudaPitchedPtr *p, size_t *elem);
/* Launch limits of the emulated device (rt_device.c; a weak A100 default otherwise). */
typedef struct {
    uint32_t max_threads;         /* per block */
    uint32_t max_block[3];
    uint32_t max_grid[3];
    uint64_t shmem_default;       /* dynamic + static shared bytes without the opt-in */
    uint64_t shmem_optin;         /* with cudaFuncAttributeMaxDynamicSharedMemorySize */
} rt_launch_limits;
void rt_device_launch_limits(rt_launch_limits *l);
/* The most blocks of shape `block` with `dyn` bytes of dynamic shared memory the device keeps
 * resident at once (occupancy x SMs), which a cooperative launch may not exceed
 * (cudaErrorCooperativeLaunchTooLarge); 0 = unknown (weak default). rt_occ.c defines it. */
int rt_device_coop_max_blocks(rt_kernel *k, dim3 block, size_t dyn);

/* Device malloc heap size for every machine (cudaLimitMallocHeapSize), bytes: rt_device.c's
 * cudaDeviceSetLimit calls rt_set_heap_limit, which applies it to every machine, now and for
 * modules loaded later. */
extern uint64_t rt_heap_limit;
void rt_set_heap_limit(uint64_t bytes);
/* Worker threads each machine runs kernels with (dbg_target_set_threads; PTXDBG_THREADS, default 0:
 * one per CPU). */
extern int rt_threads;
/* Device printf output: each machine writes into its own buffer while its kernel runs
 * (rt_out_file), which goes to the device's output FIFO when the kernel completes
 * (rt_out_collect); synchronisation points write the FIFO to stdout (rt_flush_output), as a
 * GPU's printf buffer is flushed at synchronisation. Lock held for the last two. */
FILE *rt_out_file(rt_module *mod);
void rt_out_collect(rt_module *mod);
void rt_flush_output(void);

#endif
