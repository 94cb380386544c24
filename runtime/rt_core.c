/* rt_core.c - runtime start-up (address windows), the process lock, errors and their names. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "rt.h"

/* The runtime lock: a plain mutex made recursive by a per-thread depth, so that a condition
 * wait (rt_wait) can release it entirely whatever the depth. */
static pthread_mutex_t rt_mutex = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int rt_depth;
pthread_cond_t rt_cv = PTHREAD_COND_INITIALIZER;
static pthread_once_t rt_once = PTHREAD_ONCE_INIT;
static _Thread_local cudaError_t rt_last;
static cudaError_t rt_sticky_err;
static cudaError_t rt_pending_err;   /* a kernel fault the program has not synchronised with */

/* Reserve [base, base+size) so that no host mapping can ever land there. Under a sanitizer the
 * range may already be reserved (its shadow gap): that serves as well. */
static void rt_reserve(uint64_t base, uint64_t size)
{
#ifdef __SANITIZE_THREAD__
    (void)base, (void)size;
    return;   /* ThreadSanitizer owns these ranges (its shadow) and refuses mappings there */
#endif
    void *p = mmap((void *)(uintptr_t)base, size, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (p != MAP_FAILED && p != (void *)(uintptr_t)base) {
        munmap(p, size);   /* an old kernel ignored MAP_FIXED_NOREPLACE */
        p = MAP_FAILED;
    }
    if (p == MAP_FAILED && errno != EEXIST && getenv("PTXDBG_RT_VERBOSE"))
        rt_warn("cannot reserve the address range [0x%llx, 0x%llx)", (unsigned long long)base,
                (unsigned long long)(base + size));
}

static void rt_fork_prepare(void);
static void rt_fork_parent(void);
static void rt_fork_child(void);

static void rt_init_once(void)
{
    pthread_atfork(rt_fork_prepare, rt_fork_parent, rt_fork_child);
    /* module variables and device heaps (one window per module), the core's generic windows
     * (shared, local, const, param) and function addresses */
    rt_reserve(RT_MODULE_BASE, RT_MODULE_WINDOW * RT_MAX_MODULES);
    uint64_t base, size;
    for (int i = 0; dbg_addr_reserved(i, &base, &size) == 0; i++)
        rt_reserve(base, size);
}

void rt_init(void)
{
    pthread_once(&rt_once, rt_init_once);
}

__attribute__((constructor)) static void rt_ctor(void)
{
    rt_init();
}

void rt_lock(void)
{
    if (rt_depth++ == 0)
        pthread_mutex_lock(&rt_mutex);
}

void rt_unlock(void)
{
    if (rt_depth == 1)
        rt_unquiesce();   /* a quiesce lasts while the thread holds the lock */
    if (--rt_depth == 0)
        pthread_mutex_unlock(&rt_mutex);
}

void rt_wait(pthread_cond_t *cv)
{
    int d = rt_depth;
    rt_depth = 0;
    pthread_cond_wait(cv, &rt_mutex);
    rt_depth = d;
}

void rt_wait_until(pthread_cond_t *cv, double deadline)
{
    /* condition variables time out by CLOCK_REALTIME */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    double left = deadline - rt_now();
    deadline = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 + (left > 0 ? left : 0);
    double whole = (double)(long long)deadline;
    ts.tv_sec = (time_t)whole;
    ts.tv_nsec = (long)((deadline - whole) * 1e9);
    if (ts.tv_nsec >= 1000000000L)
        ts.tv_nsec = 999999999L;
    int d = rt_depth;
    rt_depth = 0;
    pthread_cond_timedwait(cv, &rt_mutex, &ts);
    rt_depth = d;
}

void rt_broadcast(void)
{
    pthread_cond_broadcast(&rt_cv);
}

double rt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int rt_suspend(void)
{
    int d = rt_depth;
    rt_unquiesce();
    rt_depth = 0;
    pthread_mutex_unlock(&rt_mutex);
    return d;
}

void rt_resume(int depth)
{
    pthread_mutex_lock(&rt_mutex);
    rt_depth = depth;
}

int rt_lock_depth(void)
{
    return rt_depth;
}

/* fork: the child has only the forking thread; the lock must be free there. */
static void rt_fork_prepare(void)
{
    if (rt_depth == 0)
        pthread_mutex_lock(&rt_mutex);
}

static void rt_fork_parent(void)
{
    if (rt_depth == 0)
        pthread_mutex_unlock(&rt_mutex);
}

static void rt_fork_child(void)
{
    pthread_mutex_init(&rt_mutex, NULL);
    pthread_cond_init(&rt_cv, NULL);
    if (rt_depth)
        pthread_mutex_lock(&rt_mutex);
    rt_queue_forked();
}

cudaError_t rt_error(cudaError_t e)
{
    if (e != cudaSuccess)
        rt_last = e;
    return e;
}

cudaError_t rt_sticky(void)
{
    return rt_sticky_err;
}

void rt_set_sticky(cudaError_t e)
{
    if (rt_sticky_err == cudaSuccess)
        rt_sticky_err = e;
    rt_last = e;
}

void rt_set_fault(cudaError_t e)
{
    if (rt_sticky_err == cudaSuccess && rt_pending_err == cudaSuccess)
        rt_pending_err = e;
}

int rt_faulted(void)
{
    return rt_pending_err != cudaSuccess || rt_sticky_err != cudaSuccess;
}

cudaError_t rt_fault_check(void)
{
    rt_flush_output();
    if (rt_pending_err != cudaSuccess) {
        rt_set_sticky(rt_pending_err);
        rt_pending_err = cudaSuccess;
    }
    return rt_sticky_err;
}

cudaError_t rt_sync(void)
{
    rt_wait_all();
    return rt_fault_check();
}

cudaError_t rt_last_error(int reset)
{
    cudaError_t e = rt_last;
    if (rt_sticky_err != cudaSuccess)
        return rt_sticky_err;      /* a sticky error cannot be cleared */
    if (reset)
        rt_last = cudaSuccess;
    return e;
}

void rt_errors_reset(void)
{
    rt_sticky_err = cudaSuccess;
    rt_pending_err = cudaSuccess;
    rt_last = cudaSuccess;
}

typedef struct { int code; const char *name, *text; } rt_err_row;
static const rt_err_row rt_err_rows[] = {
#define X(name, value, text) { value, #name, text },
#include "rt_errors.def"
#undef X
};

static const rt_err_row *rt_err_find(cudaError_t e)
{
    for (size_t i = 0; i < sizeof rt_err_rows / sizeof rt_err_rows[0]; i++)
        if (rt_err_rows[i].code == (int)e)
            return &rt_err_rows[i];
    return NULL;
}

const char *rt_error_name(cudaError_t e)
{
    const rt_err_row *r = rt_err_find(e);
    return r ? r->name : NULL;
}

const char *rt_error_string(cudaError_t e)
{
    const rt_err_row *r = rt_err_find(e);
    return r ? r->text : NULL;
}

void rt_warn(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(stderr, "ptxdbg: %s\n", buf);
    fflush(stderr);
}

int rt_unsupported(const char *name, int *said, int code)
{
    if (!__atomic_exchange_n(said, 1, __ATOMIC_RELAXED))
        rt_warn("%s is not supported by ptxdbg's CUDA runtime (returns %s)", name,
                name[0] == 'c' && name[1] == 'u' && name[2] != 'd' ? "CUDA_ERROR_NOT_SUPPORTED"
                                                                   : "cudaErrorNotSupported");
    if (code == cudaErrorNotSupported && !(name[0] == 'c' && name[1] == 'u' && name[2] != 'd'))
        rt_error(cudaErrorNotSupported);
    return code;
}

/* ---- the error API --------------------------------------------------------------------------- */
cudaError_t cudaGetLastError(void)
{
    rt_lock();
    cudaError_t e = rt_last_error(1);
    rt_unlock();
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    rt_lock();
    cudaError_t e = rt_last_error(0);
    rt_unlock();
    return e;
}

const char *cudaGetErrorName(cudaError_t e)
{
    const char *s = rt_error_name(e);
    return s ? s : "unrecognized error code";
}

const char *cudaGetErrorString(cudaError_t e)
{
    const char *s = rt_error_string(e);
    return s ? s : "unrecognized error code";
}

/* ---- profiler control and cache hints: no profiler is ever attached and no L2 lines persist,
 * so these have nothing to do; they succeed as CUDA's do without a profiler ------------------ */
cudaError_t cudaProfilerStart(void)
{
    return cudaSuccess;
}

cudaError_t cudaProfilerStop(void)
{
    return cudaSuccess;
}

cudaError_t cudaCtxResetPersistingL2Cache(void)
{
    return cudaSuccess;
}

/* ---- driver entry points: cuGetProcAddress (cu_proc.c) answers; the flag and status numbers
 * of the two APIs are the same (default / legacy stream / per-thread stream; success, symbol
 * not found, version not sufficient) ---------------------------------------------------------- */
int cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, unsigned long long flags,
                        int *status);

static cudaError_t rt_entry_point(const char *symbol, void **fn, unsigned version,
                                  unsigned long long flags, int *status)
{
    int st = 1;
    if (!symbol || !fn || flags > 3)
        return cudaErrorInvalidValue;
    int r = cuGetProcAddress_v2(symbol, fn, (int)version, flags, &st);
    if (status)
        *status = st;
    return r == RT_CUDA_SUCCESS || r == 500 /* CUDA_ERROR_NOT_FOUND */ ? cudaSuccess
                                                                       : cudaErrorInvalidValue;
}

cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags,
                                    int *driverStatus)
{
    return rt_error(rt_entry_point(symbol, funcPtr, 13000, flags, driverStatus));
}

cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
                                         unsigned long long flags, int *driverStatus)
{
    return rt_error(rt_entry_point(symbol, funcPtr, 13000, flags ? flags : 2, driverStatus));
}

cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr,
                                             unsigned int cudaVersion, unsigned long long flags,
                                             int *driverStatus)
{
    return rt_error(rt_entry_point(symbol, funcPtr, cudaVersion, flags, driverStatus));
}

cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **funcPtr,
                                                  unsigned int cudaVersion,
                                                  unsigned long long flags, int *driverStatus)
{
    return rt_error(rt_entry_point(symbol, funcPtr, cudaVersion, flags ? flags : 2,
                                   driverStatus));
}
