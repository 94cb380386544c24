/* test_rtasync.c - the runtime's asynchronous execution: stream order and queries, the legacy
 * stream's implicit synchronisation, events, callbacks, machines quiesced while kernels run,
 * host threads on streams, the debugger's all-stop, step budget and timeout, exit. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rt.h"
#include "exec.h"   /* tests reach inside the core (rt.h no longer does) */
#include "test_util.h"

/* Kernels: tests/fixtures/rtasync/rt_async_kernels.cu (its -O3 PTX, made by
 * tests/gen-fixtures.sh); expected values come from that source, restated here. */
#define PTX "tests/fixtures/rtasync/rt_async_kernels.O3.ptx"

typedef int CUresult;
typedef struct rt_module *CUmodule;
typedef struct rt_kernel *CUfunction;
CUresult cuInit(unsigned int flags);
typedef struct CUctx_st *CUcontext;
CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, int dev);
CUresult cuCtxSetCurrent(CUcontext ctx);
CUresult cuModuleLoadData(CUmodule *module, const void *image);
CUresult cuModuleUnload(CUmodule mod);
CUresult cuModuleGetFunction(CUfunction *f, CUmodule mod, const char *name);
CUresult cuStreamQuery(cudaStream_t s);
CUresult cuEventQuery(cudaEvent_t e);
CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                        unsigned int bx, unsigned int by, unsigned int bz, unsigned int shmem,
                        cudaStream_t stream, void **params, void **extra);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaMallocHost(void **p, size_t n);
cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags);
CUresult cuMemsetD32_v2(unsigned long long dst, unsigned int v, size_t n);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaMemset(void *p, int v, size_t n);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind k);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind k,
                            cudaStream_t s);
cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamQuery(cudaStream_t s);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags);
cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *user);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaEventQuery(cudaEvent_t e);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);

static CUmodule mod;
static CUcontext ctx;
static CUfunction k_gate, k_add, k_forever, k_stamp;

static void setup(void)
{
    cudaDeviceReset();
    cudaGetLastError();
    ck_assert_int_eq(cuInit(0), 0);
    ck_assert_int_eq(cuDevicePrimaryCtxRetain(&ctx, 0), 0);
    ck_assert_int_eq(cuCtxSetCurrent(ctx), 0);
    size_t n;
    char *text = tu_read_file(PTX, &n);
    ck_assert_ptr_nonnull(text);
    ck_assert_int_eq(cuModuleLoadData(&mod, text), 0);
    free(text);
    ck_assert_int_eq(cuModuleGetFunction(&k_gate, mod, "gate_store"), 0);
    ck_assert_int_eq(cuModuleGetFunction(&k_add, mod, "add"), 0);
    ck_assert_int_eq(cuModuleGetFunction(&k_forever, mod, "forever"), 0);
    ck_assert_int_eq(cuModuleGetFunction(&k_stamp, mod, "stamp_then_work"), 0);
}

static void teardown(void)
{
    cudaDeviceSynchronize();
    cuModuleUnload(mod);
    cudaDeviceReset();
}

/* gate_store<<<1, threads, 0, s>>>(gate, want, out, v): out[t] = v once *gate == want */
static void launch_gate(cudaStream_t s, int *gate, int want, int *out, int v, unsigned threads)
{
    void *args[] = { &gate, &want, &out, &v };
    ck_assert_int_eq(cuLaunchKernel(k_gate, 1, 1, 1, threads, 1, 1, 0, s, args, NULL), 0);
}

/* add<<<(n + 63) / 64, 64, 0, s>>>(p, n, v): p[i] += v */
static void launch_add(cudaStream_t s, int *p, int n, int v)
{
    void *args[] = { &p, &n, &v };
    ck_assert_int_eq(cuLaunchKernel(k_add, (unsigned)(n + 63) / 64, 1, 1, 64, 1, 1, 0, s, args,
                                    NULL), 0);
}

/* The host opens a gate the kernel polls: a write the kernel races with by design (its own
 * function, so that tests/tsan.supp can name it). */
__attribute__((noinline)) static void tsan_gate_open(int *gate, int v)
{
    __atomic_store_n(gate, v, __ATOMIC_RELEASE);
}

static int *gate_new(void)
{
    int *g;
    ck_assert_int_eq(cudaMallocHost((void **)&g, sizeof(int)), cudaSuccess);
    tsan_gate_open(g, 0);
    return g;
}

static atomic_int host_fn_calls;
static void host_fn(void *user)
{
    atomic_fetch_add(&host_fn_calls, *(int *)user);
}

/* ---- order, queries, events, callbacks -------------------------------------------------------- */
START_TEST(launch_returns_at_once)
{
    setup();
    cudaStream_t s1, s2;
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), cudaSuccess);
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), cudaSuccess);
    int *gate = gate_new(), *out;
    ck_assert_int_eq(cudaMalloc((void **)&out, 64 * sizeof(int)), cudaSuccess);
    ck_assert_int_eq(cudaMemset(out, 0, 64 * sizeof(int)), cudaSuccess);
    cudaEvent_t ev, start;
    ck_assert_int_eq(cudaEventCreate(&ev), cudaSuccess);
    ck_assert_int_eq(cudaEventCreate(&start), cudaSuccess);
    ck_assert_int_eq(cudaEventRecord(start, s1), cudaSuccess);
    launch_gate(s1, gate, 7, out, 5, 32);
    int one = 1;
    atomic_store(&host_fn_calls, 0);
    ck_assert_int_eq(cudaLaunchHostFunc(s1, host_fn, &one), cudaSuccess);
    ck_assert_int_eq(cudaEventRecord(ev, s1), cudaSuccess);
    ck_assert_int_eq(cudaStreamWaitEvent(s2, ev, 0), cudaSuccess);
    launch_add(s2, out, 32, 100);
    /* nothing after the kernel can have run: it waits for the gate */
    ck_assert_int_eq(cudaStreamQuery(s1), cudaErrorNotReady);
    ck_assert_int_eq(cudaStreamQuery(s2), cudaErrorNotReady);
    ck_assert_int_eq(cudaEventQuery(ev), cudaErrorNotReady);
    float ms;
    ck_assert_int_eq(cudaEventElapsedTime(&ms, start, ev), cudaErrorNotReady);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorNotReady);   /* ElapsedTime's is an error */
    ck_assert_int_eq(cudaStreamQuery(s1), cudaErrorNotReady);
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);         /* a query's NotReady is not */
    ck_assert_int_eq(atomic_load(&host_fn_calls), 0);
    /* an idle stream is not held up: a copy there completes */
    int h[4] = { 1, 2, 3, 4 }, back[4] = { 0 };
    cudaStream_t s3;
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking), cudaSuccess);
    ck_assert_int_eq(cudaMemcpyAsync(out + 40, h, sizeof h, cudaMemcpyHostToDevice, s3),
                     cudaSuccess);
    ck_assert_int_eq(cudaMemcpyAsync(back, out + 40, sizeof back, cudaMemcpyDeviceToHost, s3),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(s3), cudaSuccess);
    ck_assert_int_eq(back[3], 4);
    ck_assert_int_eq(cudaStreamQuery(s1), cudaErrorNotReady);
    tsan_gate_open(gate, 7);
    ck_assert_int_eq(cudaStreamSynchronize(s2), cudaSuccess);
    ck_assert_int_eq(cudaEventQuery(ev), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(s1), cudaSuccess);
    ck_assert_int_eq(atomic_load(&host_fn_calls), 1);
    ck_assert_int_eq(cudaEventElapsedTime(&ms, start, ev), cudaSuccess);
    ck_assert(ms >= 0);
    int res[33];
    ck_assert_int_eq(cudaMemcpy(res, out, sizeof res, cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_int_eq(res[0], 105);    /* gate_store's 5, then add's 100 */
    ck_assert_int_eq(res[31], 105);
    ck_assert_int_eq(res[32], 0);
    cudaEventDestroy(ev);
    cudaEventDestroy(start);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaStreamDestroy(s3);
    cudaFree(out);
    cudaFreeHost(gate);
    teardown();
}
END_TEST

/* Work on the legacy stream waits for every blocking stream and they wait for it; streams
 * created non-blocking wait for neither. A stream and an event destroyed with work pending go
 * once the work is done. */
START_TEST(legacy_stream_order)
{
    setup();
    cudaStream_t blocking, nonblocking;
    ck_assert_int_eq(cudaStreamCreate(&blocking), cudaSuccess);
    ck_assert_int_eq(cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking), cudaSuccess);
    int *gate = gate_new(), *out;
    ck_assert_int_eq(cudaMalloc((void **)&out, 64 * sizeof(int)), cudaSuccess);
    ck_assert_int_eq(cudaMemset(out, 0, 64 * sizeof(int)), cudaSuccess);
    launch_gate(blocking, gate, 1, out, 10, 1);
    launch_add(NULL, out, 1, 1);                  /* legacy: after the gated kernel */
    launch_add(blocking, out, 1, 1000);           /* blocking: after the legacy add */
    cudaEvent_t ev;
    ck_assert_int_eq(cudaEventCreate(&ev), cudaSuccess);
    ck_assert_int_eq(cudaEventRecord(ev, blocking), cudaSuccess);
    ck_assert_int_eq(cudaStreamQuery(NULL), cudaErrorNotReady);
    int three = 3;   /* (a kernel there would wait for the module's machine) */
    ck_assert_int_eq(cudaMemcpyAsync(out + 8, &three, sizeof three, cudaMemcpyHostToDevice,
                                     nonblocking), cudaSuccess);
    ck_assert_int_eq(cudaStreamSynchronize(nonblocking), cudaSuccess);
    ck_assert_int_eq(cudaStreamQuery(blocking), cudaErrorNotReady);
    ck_assert_int_eq(cudaStreamDestroy(blocking), cudaSuccess);
    ck_assert_int_eq(cudaEventDestroy(ev), cudaSuccess);
    tsan_gate_open(gate, 1);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    int res[9];
    ck_assert_int_eq(cudaMemcpy(res, out, sizeof res, cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_int_eq(res[0], 1011);
    ck_assert_int_eq(res[8], 3);
    cudaStreamDestroy(nonblocking);
    cudaFree(out);
    cudaFreeHost(gate);
    teardown();
}
END_TEST

/* Per-thread default streams are blocking streams of their own: another thread's does not wait
 * for this thread's, the legacy stream waits for both (and work a blocking stream gets after
 * legacy work waits for that); the driver API's queries say CUDA_ERROR_NOT_READY (600). */
static int *ptds_out;
static cudaError_t ptds_other;

static void *ptds_thread(void *v)
{
    (void)v;
    int three = 3;
    cuCtxSetCurrent(ctx);
    ptds_other = cudaMemcpyAsync(ptds_out + 4, &three, sizeof three, cudaMemcpyHostToDevice,
                                 RT_STREAM_PER_THREAD);
    if (ptds_other == cudaSuccess)
        ptds_other = cudaStreamSynchronize(RT_STREAM_PER_THREAD);
    return NULL;
}

START_TEST(per_thread_streams)
{
    setup();
    int *gate = gate_new();
    ck_assert_int_eq(cudaMalloc((void **)&ptds_out, 8 * sizeof(int)), cudaSuccess);
    ck_assert_int_eq(cudaMemset(ptds_out, 0, 8 * sizeof(int)), cudaSuccess);
    launch_gate(RT_STREAM_PER_THREAD, gate, 1, ptds_out, 7, 1);
    cudaEvent_t ev;
    ck_assert_int_eq(cudaEventCreate(&ev), cudaSuccess);
    ck_assert_int_eq(cudaEventRecord(ev, RT_STREAM_PER_THREAD), cudaSuccess);
    ck_assert_int_eq(cuStreamQuery(RT_STREAM_PER_THREAD), 600);
    ck_assert_int_eq(cuEventQuery(ev), 600);
    pthread_t t;                                 /* another thread's per-thread stream */
    ck_assert_int_eq(pthread_create(&t, NULL, ptds_thread, NULL), 0);
    pthread_join(t, NULL);
    ck_assert_int_eq(ptds_other, cudaSuccess);
    launch_add(NULL, ptds_out, 1, 1);            /* legacy: after this thread's gated kernel */
    ck_assert_int_eq(cudaStreamQuery(NULL), cudaErrorNotReady);
    ck_assert_int_eq(cuStreamQuery(RT_STREAM_PER_THREAD), 600);
    tsan_gate_open(gate, 1);
    ck_assert_int_eq(cudaStreamSynchronize(NULL), cudaSuccess);
    ck_assert_int_eq(cuEventQuery(ev), 0);
    int res[5];
    ck_assert_int_eq(cudaMemcpy(res, ptds_out, sizeof res, cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_int_eq(res[0], 8);
    ck_assert_int_eq(res[4], 3);
    cudaEventDestroy(ev);
    cudaFree(ptds_out);
    cudaFreeHost(gate);
    teardown();
}
END_TEST

/* Synchronous calls as CUDA's "API synchronization behavior" documents them, with the legacy
 * stream holding a kernel that waits for the host: a memset of device memory and a device to
 * device copy return at once (their work queued behind the kernel); a memset of managed or
 * pinned host memory and a copy into managed memory return only once done, after the kernel
 * (another thread opens its gate: however late, the stream is idle when the call returns). */
static int *opener_gate;
static int opener_value;

static void *gate_opener(void *v)
{
    (void)v;
    sched_yield();
    tsan_gate_open(opener_gate, opener_value);
    return NULL;
}

static void open_gate_from_another_thread(pthread_t *t, int *gate, int v)
{
    opener_gate = gate;
    opener_value = v;
    ck_assert_int_eq(pthread_create(t, NULL, gate_opener, NULL), 0);
}

START_TEST(sync_calls)
{
    setup();
    int *gate = gate_new(), *dev, *man, *pinned;
    ck_assert_int_eq(cudaMalloc((void **)&dev, 64 * sizeof(int)), cudaSuccess);
    ck_assert_int_eq(cudaMallocManaged((void **)&man, 64 * sizeof(int), 1), cudaSuccess);
    ck_assert_int_eq(cudaMallocHost((void **)&pinned, 64 * sizeof(int)), cudaSuccess);
    ck_assert_int_eq(cudaMemset(dev, 0, 64 * sizeof(int)), cudaSuccess);   /* idle: done */
    /* device memory: queued, the call returns while the kernel waits */
    launch_gate(NULL, gate, 1, dev, 5, 1);                        /* dev[0] = 5 */
    ck_assert_int_eq(cudaMemset(dev + 8, 1, sizeof(int)), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(dev + 16, dev + 8, sizeof(int), cudaMemcpyDeviceToDevice),
                     cudaSuccess);
    ck_assert_int_eq(cuMemsetD32_v2((unsigned long long)(uintptr_t)(dev + 24), 7, 1), 0);
    ck_assert_int_eq(cudaStreamQuery(NULL), cudaErrorNotReady);
    /* managed memory: the memset returns once the kernel and it are done */
    pthread_t t;
    open_gate_from_another_thread(&t, gate, 1);
    ck_assert_int_eq(cudaMemset(man, 2, 64 * sizeof(int)), cudaSuccess);
    ck_assert_int_eq(cudaStreamQuery(NULL), cudaSuccess);
    pthread_join(t, NULL);
    ck_assert_int_eq(man[63], 0x02020202);
    int res[25];
    ck_assert_int_eq(cudaMemcpy(res, dev, sizeof res, cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_int_eq(res[0], 5);
    ck_assert_int_eq(res[8], 0x01010101);
    ck_assert_int_eq(res[16], 0x01010101);
    ck_assert_int_eq(res[24], 7);
    /* pinned host memory through the driver API: the same */
    tsan_gate_open(gate, 0);
    launch_gate(NULL, gate, 2, dev, 6, 1);
    open_gate_from_another_thread(&t, gate, 2);
    ck_assert_int_eq(cuMemsetD32_v2((unsigned long long)(uintptr_t)pinned, 9, 64), 0);
    ck_assert_int_eq(cudaStreamQuery(NULL), cudaSuccess);
    pthread_join(t, NULL);
    ck_assert_int_eq(pinned[63], 9);
    /* a device to device copy into managed memory: the same */
    tsan_gate_open(gate, 0);
    launch_gate(NULL, gate, 3, dev, 11, 1);
    open_gate_from_another_thread(&t, gate, 3);
    ck_assert_int_eq(cudaMemcpy(man, dev, sizeof(int), cudaMemcpyDeviceToDevice), cudaSuccess);
    ck_assert_int_eq(cudaStreamQuery(NULL), cudaSuccess);
    pthread_join(t, NULL);
    ck_assert_int_eq(man[0], 11);
    cudaFree(dev);
    cudaFree(man);
    cudaFreeHost(pinned);
    cudaFreeHost(gate);
    teardown();
}
END_TEST

/* Allocations map into every machine: while a kernel runs, other threads' allocations and frees
 * park it at a slice boundary and it goes on. */
START_TEST(machines_quiesced)
{
    setup();
    cudaStream_t s;
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    int *gate = gate_new(), *out;
    ck_assert_int_eq(cudaMalloc((void **)&out, 64 * sizeof(int)), cudaSuccess);
    launch_gate(s, gate, 3, out, 9, 64);
    void *p[64];   /* (frees synchronise with the device: they come after) */
    for (int i = 0; i < 64; i++) {
        ck_assert_int_eq(i & 1 ? cudaMalloc(&p[i], 4096 * (size_t)(i + 1))
                               : cudaMallocHost(&p[i], 512), cudaSuccess);
        if (i % 16 == 0)
            ck_assert_int_eq(cudaStreamQuery(s), cudaErrorNotReady);
    }
    /* a buffer made while the kernel waits works in the next kernel */
    int *fresh;
    ck_assert_int_eq(cudaMalloc((void **)&fresh, 100 * sizeof(int)), cudaSuccess);
    ck_assert_int_eq(cudaMemset(fresh, 0, 100 * sizeof(int)), cudaSuccess);
    launch_add(s, fresh, 100, 4);
    tsan_gate_open(gate, 3);
    ck_assert_int_eq(cudaStreamSynchronize(s), cudaSuccess);
    int a[64], b[100];
    ck_assert_int_eq(cudaMemcpy(a, out, sizeof a, cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(b, fresh, sizeof b, cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_int_eq(a[63], 9);
    ck_assert_int_eq(b[99], 4);
    for (int i = 0; i < 64; i++)
        ck_assert_int_eq(i & 1 ? cudaFree(p[i]) : cudaFreeHost(p[i]), cudaSuccess);
    cudaFree(fresh);
    cudaFree(out);
    cudaFreeHost(gate);
    cudaStreamDestroy(s);
    teardown();
}
END_TEST

#ifndef __SANITIZE_THREAD__   /* its watcher races with the kernel by design, on every element */
/* Pinned host memory, which the host may read while a kernel runs, is never written ahead of one
 * thread by parallel workers: when their run halts (here: another thread's allocations park the
 * kernel), an undo would take back what CTAs ahead of the lowest unfinished one wrote, and a
 * host thread watching the memory would see a value go back. Each launch of stamp_then_work
 * increments every element, so values only grow. */
static atomic_int watch_done, watch_bad;
static int watch_last[4096];

__attribute__((noinline)) static int tsan_watch_read(const int *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void *watcher(void *v)
{
    const int *p = v;
    while (!atomic_load(&watch_done))
        for (int i = 0; i < 4096; i++) {
            int x = tsan_watch_read(&p[i]);
            if (x < watch_last[i])
                atomic_store(&watch_bad, i + 1);   /* a value taken back */
            watch_last[i] = x;
        }
    return NULL;
}

/* Another thread that keeps touching every machine (cudaDeviceSetLimit of the heap size goes to
 * each machine) while the launches run: each call parks the running kernel. */
static void *quiescer(void *v)
{
    const int *p = v;
    while (!atomic_load(&watch_done) && tsan_watch_read(&p[0]) == 0)
        sched_yield();
    for (int i = 0; i < 20000 && !atomic_load(&watch_done); i++)
        if (cudaDeviceSetLimit(cudaLimitMallocHeapSize, 8u << 20) != cudaSuccess)
            break;
    return NULL;
}

START_TEST(pinned_never_taken_back)
{
    setup();
    int *p;
    ck_assert_int_eq(cudaMallocHost((void **)&p, 4096 * sizeof(int)), cudaSuccess);
    memset(p, 0, 4096 * sizeof(int));
    memset(watch_last, 0, sizeof watch_last);
    exec_set_threads(mod->m, 2);
    atomic_store(&watch_done, 0);
    atomic_store(&watch_bad, 0);
    pthread_t t, u;
    ck_assert_int_eq(pthread_create(&t, NULL, watcher, p), 0);
    ck_assert_int_eq(pthread_create(&u, NULL, quiescer, p), 0);
    /* stamp_then_work<<<64, 64>>>(p, 4096, 100000, sink): each element gets 1, then each warp
     * works on for several slices */
    int n = 4096, rounds = 100000, *sink;
    ck_assert_int_eq(cudaMalloc((void **)&sink, sizeof(int)), cudaSuccess);
    void *args[] = { &p, &n, &rounds, &sink };
    for (int r = 0; r < 2; r++)
        ck_assert_int_eq(cuLaunchKernel(k_stamp, 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL), 0);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    cudaFree(sink);
    atomic_store(&watch_done, 1);
    pthread_join(t, NULL);
    pthread_join(u, NULL);
    exec_set_threads(mod->m, rt_threads);
    ck_assert_int_eq(p[4095], 2);
    ck_assert_msg(atomic_load(&watch_bad) == 0, "element %d went back", atomic_load(&watch_bad) - 1);
    cudaFreeHost(p);
    teardown();
}
END_TEST
#endif

/* ---- host threads, each with its stream ------------------------------------------------------ */
typedef struct {
    int id, ok;
} thr_arg;

static void *thr_main(void *v)
{
    thr_arg *a = v;
    const int n = 1000;
    cudaStream_t s;
    int *d, h[1000];
    if (cuCtxSetCurrent(ctx) || cudaStreamCreate(&s) || cudaMalloc((void **)&d, n * sizeof(int)))
        return NULL;
    for (int i = 0; i < n; i++)
        h[i] = i;
    cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, s);
    for (int r = 0; r < 20; r++) {
        int v = a->id + 1;
        int nn = n;
        void *args[] = { &d, &nn, &v };
        if (cuLaunchKernel(k_add, (n + 63) / 64, 1, 1, 64, 1, 1, 0, s, args, NULL))
            return NULL;
    }
    cudaEvent_t ev;
    cudaEventCreate(&ev);
    cudaEventRecord(ev, s);
    cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s);
    if (cudaStreamSynchronize(s) || cudaEventSynchronize(ev))
        return NULL;
    a->ok = 1;
    for (int i = 0; i < n; i++)
        if (h[i] != i + 20 * (a->id + 1))
            a->ok = 0;
    cudaEventDestroy(ev);
    cudaFree(d);
    cudaStreamDestroy(s);
    return NULL;
}

START_TEST(host_threads)
{
    setup();
    pthread_t t[4];
    thr_arg a[4];
    for (int i = 0; i < 4; i++) {
        a[i].id = i;
        a[i].ok = 0;
        ck_assert_int_eq(pthread_create(&t[i], NULL, thr_main, &a[i]), 0);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 4; i++)
        ck_assert_msg(a[i].ok, "thread %d", i);
    teardown();
}
END_TEST

/* ---- the debugger's all-stop ------------------------------------------------------------------
 * A stand-in for the in-process debugger: it reports a stop before running the kernel, waits at
 * it while the test thread submits work to other streams (which must not start) and calls
 * cudaMalloc (which must wait, as every thread of a stopped program would), then resumes. */
static atomic_int stopped, submitted, resumed;
static int fn_during_stop, copy_during_stop;
static int *copy_dst;

static int fake_debugger(rt_launch_ctx *ctx)
{
    exec_stop st;
    memset(&st, 0, sizeof st);
    st.kind = EXEC_STOP_BREAKPOINT;
    rt_debug_run_hook(NULL, NULL, &st);
    atomic_store(&stopped, 1);
    while (!atomic_load(&submitted))
        sched_yield();
    usleep(100000);   /* time for work that should not run to run (it must not) */
    fn_during_stop = atomic_load(&host_fn_calls);
    copy_during_stop = __atomic_load_n(copy_dst, __ATOMIC_ACQUIRE);
    atomic_store(&resumed, 1);
    exec_run_opts o;
    memset(&o, 0, sizeof o);
    o.mode = EXEC_RUN_CONTINUE;
    rt_debug_run_hook(NULL, &o, NULL);
    int r = exec_run(ctx->m, &o, &ctx->stop);
    rt_debug_run_hook(NULL, NULL, &ctx->stop);
    return r;
}

START_TEST(debugger_all_stop)
{
    setup();
    cudaStream_t s1, s2, s3;
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), cudaSuccess);
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), cudaSuccess);
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking), cudaSuccess);
    int *out, *pinned;
    ck_assert_int_eq(cudaMalloc((void **)&out, 64 * sizeof(int)), cudaSuccess);
    ck_assert_int_eq(cudaMemset(out, 0, 64 * sizeof(int)), cudaSuccess);
    ck_assert_int_eq(cudaMallocHost((void **)&pinned, 2 * sizeof(int)), cudaSuccess);
    pinned[0] = 77;
    pinned[1] = 0;
    copy_dst = pinned + 1;
    atomic_store(&stopped, 0);
    atomic_store(&submitted, 0);
    atomic_store(&resumed, 0);
    atomic_store(&host_fn_calls, 0);
    rt_debug_launch = fake_debugger;
    launch_add(s1, out, 64, 2);
    while (!atomic_load(&stopped))
        sched_yield();
    int one = 1;
    ck_assert_int_eq(cudaLaunchHostFunc(s2, host_fn, &one), cudaSuccess);
    ck_assert_int_eq(cudaMemcpyAsync(pinned + 1, pinned, sizeof(int), cudaMemcpyHostToHost, s3),
                     cudaSuccess);
    atomic_store(&submitted, 1);
    void *p;
    ck_assert_int_eq(cudaMalloc(&p, 1024), cudaSuccess);   /* waits for the user */
    ck_assert_int_eq(atomic_load(&resumed), 1);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    rt_debug_launch = NULL;
    ck_assert_int_eq(fn_during_stop, 0);
    ck_assert_int_eq(copy_during_stop, 0);
    ck_assert_int_eq(atomic_load(&host_fn_calls), 1);
    ck_assert_int_eq(pinned[1], 77);
    int res[64];
    ck_assert_int_eq(cudaMemcpy(res, out, sizeof res, cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_int_eq(res[63], 2);
    cudaFree(p);
    cudaFree(out);
    cudaFreeHost(pinned);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaStreamDestroy(s3);
    teardown();
}
END_TEST

/* ---- runaway kernels --------------------------------------------------------------------------- */
START_TEST(step_budget_and_timeout)
{
    setup();
    int *flag;
    ck_assert_int_eq(cudaMalloc((void **)&flag, sizeof(int)), cudaSuccess);
    ck_assert_int_eq(cudaMemset(flag, 0, sizeof(int)), cudaSuccess);
    void *args[] = { &flag };
    /* PTXDBG_MAX_STEPS: the launch succeeds, the next synchronisation says it timed out */
    rt_run_set_limits(50000, 0);
    ck_assert_int_eq(cuLaunchKernel(k_forever, 2, 1, 1, 64, 1, 1, 0, NULL, args, NULL), 0);
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaErrorLaunchTimeout);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorLaunchTimeout);   /* sticky */
    ck_assert_int_eq(cudaDeviceReset(), cudaSuccess);
    /* PTXDBG_TIMEOUT: the same after a fraction of a second */
    setup();
    ck_assert_int_eq(cudaMalloc((void **)&flag, sizeof(int)), cudaSuccess);
    ck_assert_int_eq(cudaMemset(flag, 0, sizeof(int)), cudaSuccess);
    rt_run_set_limits(0, 0.2);
    ck_assert_int_eq(cuLaunchKernel(k_forever, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL), 0);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaErrorLaunchTimeout);
    rt_run_set_limits(0, 0);
    teardown();
}
END_TEST

/* ---- exit with work in flight ------------------------------------------------------------------ */
#ifndef __SANITIZE_THREAD__
START_TEST(exit_in_flight)
{
    setup();
    pid_t pid = fork();
    ck_assert_int_ne(pid, -1);
    if (pid == 0) {
        alarm(60);   /* a hang ends by SIGALRM, which the parent reports */
        int *flag;
        cudaStream_t s;
        if (cudaMalloc((void **)&flag, sizeof(int)) || cudaMemset(flag, 0, sizeof(int)) ||
            cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking))
            _exit(2);
        void *args[] = { &flag };
        cuLaunchKernel(k_forever, 1, 1, 1, 32, 1, 1, 0, s, args, NULL);
        cuLaunchKernel(k_forever, 1, 1, 1, 32, 1, 1, 0, s, args, NULL);
        exit(cudaStreamQuery(s) == cudaErrorNotReady ? 7 : 3);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 7, "status 0x%x", status);
    teardown();
}
END_TEST
#endif

int main(void)
{
    Suite *s = suite_create("rtasync");
    TCase *t = tcase_create("async");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, launch_returns_at_once);
    tcase_add_test(t, legacy_stream_order);
    tcase_add_test(t, per_thread_streams);
    tcase_add_test(t, sync_calls);
    tcase_add_test(t, machines_quiesced);
#ifndef __SANITIZE_THREAD__
    tcase_add_test(t, pinned_never_taken_back);
#endif
    tcase_add_test(t, host_threads);
    tcase_add_test(t, debugger_all_stop);
    tcase_add_test(t, step_budget_and_timeout);
#ifndef __SANITIZE_THREAD__
    tcase_add_test(t, exit_in_flight);
#endif
    suite_add_tcase(s, t);
    return tu_run_suite(s);
}
