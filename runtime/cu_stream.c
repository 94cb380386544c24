/* cu_stream.c - driver API: stream capture, attributes and queries, stream memory operations. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cu_int.h"
#include "cu_rtapi.h"
#include "rt.h"
#include "rt_graph.h"

#define CU_EXPORT __attribute__((visibility("default")))
#define DPTR(d) ((void *)(uintptr_t)(d))
#define CU_CALL(expr) do { CUresult r_ = cu_ctx_current(); if (r_) return r_; \
                           return cu_result(expr); } while (0)

/* CUstreamCaptureMode, CUstreamCaptureStatus and CUstreamAttrID share the runtime's numbers;
 * CUstreamAttrValue is cudaLaunchAttributeValue. Each function with a stream has a _ptsz twin
 * (programs built with --default-stream per-thread) on which a NULL stream is the calling
 * thread's default stream. */

/* ---- capture --------------------------------------------------------------------------------- */
CU_EXPORT CUresult cuStreamBeginCapture_v2(CUstream h, int mode)
{
    CU_CALL(cudaStreamBeginCapture(h, (enum cudaStreamCaptureMode)mode));
}
CU_EXPORT CUresult cuStreamBeginCapture_v2_ptsz(CUstream h, int mode)
{
    CU_CALL(cudaStreamBeginCapture_ptsz(h, (enum cudaStreamCaptureMode)mode));
}
/* the first version, before capture modes: global */
CU_EXPORT CUresult cuStreamBeginCapture(CUstream h)
{
    return cuStreamBeginCapture_v2(h, cudaStreamCaptureModeGlobal);
}
CU_EXPORT CUresult cuStreamBeginCapture_ptsz(CUstream h)
{
    return cuStreamBeginCapture_v2_ptsz(h, cudaStreamCaptureModeGlobal);
}

CU_EXPORT CUresult cuStreamEndCapture(CUstream h, CUgraph *phGraph)
{
    CU_CALL(cudaStreamEndCapture(h, (cudaGraph_t *)phGraph));
}
CU_EXPORT CUresult cuStreamEndCapture_ptsz(CUstream h, CUgraph *phGraph)
{
    CU_CALL(cudaStreamEndCapture_ptsz(h, (cudaGraph_t *)phGraph));
}

CU_EXPORT CUresult cuStreamIsCapturing(CUstream h, int *status)
{
    CU_CALL(cudaStreamIsCapturing(h, (enum cudaStreamCaptureStatus *)status));
}
CU_EXPORT CUresult cuStreamIsCapturing_ptsz(CUstream h, int *status)
{
    CU_CALL(cudaStreamIsCapturing_ptsz(h, (enum cudaStreamCaptureStatus *)status));
}

CU_EXPORT CUresult cuStreamGetCaptureInfo_v3(CUstream h, int *status, cuuint64_t *id,
                                             CUgraph *graph, const cudaGraphNode_t **deps,
                                             const cudaGraphEdgeData **edges, size_t *ndeps)
{
    CU_CALL(cudaStreamGetCaptureInfo(h, (enum cudaStreamCaptureStatus *)status,
                                     (unsigned long long *)id, (cudaGraph_t *)graph, deps, edges,
                                     ndeps));
}
CU_EXPORT CUresult cuStreamGetCaptureInfo_v3_ptsz(CUstream h, int *status, cuuint64_t *id,
                                                  CUgraph *graph, const cudaGraphNode_t **deps,
                                                  const cudaGraphEdgeData **edges, size_t *ndeps)
{
    CU_CALL(cudaStreamGetCaptureInfo_ptsz(h, (enum cudaStreamCaptureStatus *)status,
                                          (unsigned long long *)id, (cudaGraph_t *)graph, deps,
                                          edges, ndeps));
}
CU_EXPORT CUresult cuStreamGetCaptureInfo_v2(CUstream h, int *status, cuuint64_t *id,
                                             CUgraph *graph, const cudaGraphNode_t **deps,
                                             size_t *ndeps)
{
    return cuStreamGetCaptureInfo_v3(h, status, id, graph, deps, NULL, ndeps);
}
CU_EXPORT CUresult cuStreamGetCaptureInfo_v2_ptsz(CUstream h, int *status, cuuint64_t *id,
                                                  CUgraph *graph, const cudaGraphNode_t **deps,
                                                  size_t *ndeps)
{
    return cuStreamGetCaptureInfo_v3_ptsz(h, status, id, graph, deps, NULL, ndeps);
}
CU_EXPORT CUresult cuStreamGetCaptureInfo(CUstream h, int *status, cuuint64_t *id)
{
    return cuStreamGetCaptureInfo_v3(h, status, id, NULL, NULL, NULL, NULL);
}
CU_EXPORT CUresult cuStreamGetCaptureInfo_ptsz(CUstream h, int *status, cuuint64_t *id)
{
    return cuStreamGetCaptureInfo_v3_ptsz(h, status, id, NULL, NULL, NULL, NULL);
}

CU_EXPORT CUresult cuThreadExchangeStreamCaptureMode(int *mode)
{
    CU_CALL(cudaThreadExchangeStreamCaptureMode((enum cudaStreamCaptureMode *)mode));
}

/* ---- attributes and queries ------------------------------------------------------------------- */
CU_EXPORT CUresult cuStreamGetAttribute(CUstream h, int attr, cudaLaunchAttributeValue *value)
{
    CU_CALL(cudaStreamGetAttribute(h, (cudaLaunchAttributeID)attr, value));
}
CU_EXPORT CUresult cuStreamGetAttribute_ptsz(CUstream h, int attr,
                                             cudaLaunchAttributeValue *value)
{
    CU_CALL(cudaStreamGetAttribute_ptsz(h, (cudaLaunchAttributeID)attr, value));
}
CU_EXPORT CUresult cuStreamSetAttribute(CUstream h, int attr,
                                        const cudaLaunchAttributeValue *value)
{
    CU_CALL(cudaStreamSetAttribute(h, (cudaLaunchAttributeID)attr, value));
}
CU_EXPORT CUresult cuStreamSetAttribute_ptsz(CUstream h, int attr,
                                             const cudaLaunchAttributeValue *value)
{
    CU_CALL(cudaStreamSetAttribute_ptsz(h, (cudaLaunchAttributeID)attr, value));
}
CU_EXPORT CUresult cuStreamCopyAttributes(CUstream dst, CUstream src)
{
    CU_CALL(cudaStreamCopyAttributes(dst, src));
}
CU_EXPORT CUresult cuStreamCopyAttributes_ptsz(CUstream dst, CUstream src)
{
    CU_CALL(cudaStreamCopyAttributes_ptsz(dst, src));
}

CU_EXPORT CUresult cuStreamGetId(CUstream h, unsigned long long *id)
{
    CU_CALL(cudaStreamGetId(h, id));
}
CU_EXPORT CUresult cuStreamGetId_ptsz(CUstream h, unsigned long long *id)
{
    CU_CALL(cudaStreamGetId_ptsz(h, id));
}
CU_EXPORT CUresult cuStreamGetDevice(CUstream h, CUdevice *dev)
{
    CU_CALL(cudaStreamGetDevice(h, dev));
}
CU_EXPORT CUresult cuStreamGetDevice_ptsz(CUstream h, CUdevice *dev)
{
    CU_CALL(cudaStreamGetDevice_ptsz(h, dev));
}

/* A stream's context: every stream belongs to the primary context (contexts share one device
 * and its streams); green contexts do not exist here. */
static CUresult stream_ctx(CUstream h, int ptds, CUcontext *pctx, void **green)
{
    CUresult r = cu_ctx_current();
    if (r) return r;
    if (!pctx) return CUDA_ERROR_INVALID_VALUE;
    RT_BEGIN();
    int ok = rt_stream_get(h, ptds) != NULL;
    rt_unlock();
    if (!ok) return CUDA_ERROR_INVALID_HANDLE;
    if (!h || h == (CUstream)RT_STREAM_LEGACY || h == (CUstream)RT_STREAM_PER_THREAD)
        cuCtxGetCurrent(pctx);
    else
        *pctx = cu_primary_ctx();
    if (green) *green = NULL;
    return CUDA_SUCCESS;
}
CU_EXPORT CUresult cuStreamGetCtx(CUstream h, CUcontext *pctx) { return stream_ctx(h, 0, pctx, NULL); }
CU_EXPORT CUresult cuStreamGetCtx_ptsz(CUstream h, CUcontext *pctx)
{
    return stream_ctx(h, 1, pctx, NULL);
}
CU_EXPORT CUresult cuStreamGetCtx_v2(CUstream h, CUcontext *pctx, void **pGreenCtx)
{
    return stream_ctx(h, 0, pctx, pGreenCtx);
}
CU_EXPORT CUresult cuStreamGetCtx_v2_ptsz(CUstream h, CUcontext *pctx, void **pGreenCtx)
{
    return stream_ctx(h, 1, pctx, pGreenCtx);
}

/* ---- the _ptsz twins of cu_mem.c's stream functions ------------------------------------------- */
CU_EXPORT CUresult cuStreamSynchronize_ptsz(CUstream h) { CU_CALL(cudaStreamSynchronize_ptsz(h)); }
CU_EXPORT CUresult cuStreamQuery_ptsz(CUstream h) { CU_CALL(cudaStreamQuery_ptsz(h)); }
CU_EXPORT CUresult cuStreamWaitEvent_ptsz(CUstream h, CUevent ev, unsigned int flags)
{
    CU_CALL(cudaStreamWaitEvent_ptsz(h, ev, flags));
}
CU_EXPORT CUresult cuStreamGetFlags_ptsz(CUstream h, unsigned int *flags)
{
    CU_CALL(cudaStreamGetFlags_ptsz(h, flags));
}
CU_EXPORT CUresult cuStreamGetPriority_ptsz(CUstream h, int *priority)
{
    CU_CALL(cudaStreamGetPriority_ptsz(h, priority));
}
CU_EXPORT CUresult cuStreamAddCallback_ptsz(CUstream h, cudaStreamCallback_t cb, void *data,
                                            unsigned int flags)
{
    CU_CALL(cudaStreamAddCallback_ptsz(h, cb, data, flags));
}
CU_EXPORT CUresult cuLaunchHostFunc_ptsz(CUstream h, cudaHostFn_t fn, void *data)
{
    CU_CALL(cudaLaunchHostFunc_ptsz(h, fn, data));
}
CU_EXPORT CUresult cuEventRecord_ptsz(CUevent ev, CUstream h)
{
    CU_CALL(cudaEventRecord_ptsz(ev, h));
}
CU_EXPORT CUresult cuEventRecordWithFlags_ptsz(CUevent ev, CUstream h, unsigned int flags)
{
    CU_CALL(cudaEventRecordWithFlags_ptsz(ev, h, flags));
}
CU_EXPORT CUresult cuStreamAttachMemAsync(CUstream h, CUdeviceptr dptr, size_t length,
                                          unsigned int flags)
{
    CU_CALL(cudaStreamAttachMemAsync(h, DPTR(dptr), length, flags));
}
CU_EXPORT CUresult cuStreamAttachMemAsync_ptsz(CUstream h, CUdeviceptr dptr, size_t length,
                                               unsigned int flags)
{
    CU_CALL(cudaStreamAttachMemAsync_ptsz(h, DPTR(dptr), length, flags));
}

/* ---- stream memory operations: write a value, wait for a value --------------------------------
 * Both are stream work, run in order as host functions: a write stores the 32- or 64-bit value;
 * a wait polls the location until the condition holds (another host thread, or work of
 * another stream, writes it), as the device would. */
typedef struct { CUdeviceptr addr; uint64_t value; int wide; unsigned flags; int wait; } memop;

enum { WAIT_GEQ = 0, WAIT_EQ = 1, WAIT_AND = 2, WAIT_NOR = 3 };

static uint64_t memop_read(const memop *m, const volatile void *p)
{
    if (m->wide) return __atomic_load_n((const volatile uint64_t *)p, __ATOMIC_ACQUIRE);
    return __atomic_load_n((const volatile uint32_t *)p, __ATOMIC_ACQUIRE);
}

static int memop_done(const memop *m, uint64_t v)
{
    uint64_t want = m->value;
    switch (m->flags & 3) {
    case WAIT_GEQ: return m->wide ? (int64_t)(v - want) >= 0 : (int32_t)(uint32_t)(v - want) >= 0;
    case WAIT_EQ: return v == want;
    case WAIT_AND: return (v & want) != 0;
    default: return (m->wide ? ~(v | want) : (uint32_t)~(v | want)) != 0;
    }
}

static void memop_run(void *arg)
{
    memop *m = arg;
    void *p = rt_dev_host(m->addr, m->wide ? 8 : 4);
    if (!p) {
        rt_warn("stream memory operation on 0x%llx, which is not device memory (skipped)",
                (unsigned long long)m->addr);
    } else if (!m->wait) {
        if (m->wide) __atomic_store_n((uint64_t *)p, m->value, __ATOMIC_RELEASE);
        else __atomic_store_n((uint32_t *)p, (uint32_t)m->value, __ATOMIC_RELEASE);
    } else {
        struct timespec ts = { 0, 1000 };
        while (!memop_done(m, memop_read(m, p))) {
            nanosleep(&ts, NULL);
            if (ts.tv_nsec < 1000000) ts.tv_nsec *= 2;
        }
    }
    free(m);
}

static CUresult memop_submit(CUstream h, int ptsz, CUdeviceptr addr, uint64_t value, int wide,
                             unsigned flags, int wait)
{
    /* wait flags: the condition and CU_STREAM_WAIT_VALUE_FLUSH; write: NO_MEMORY_BARRIER */
    if ((wait && (flags & ~(3u | 0x40000000u))) || (!wait && (flags & ~1u)))
        return CUDA_ERROR_INVALID_VALUE;
    if (addr % (wide ? 8 : 4)) return CUDA_ERROR_INVALID_VALUE;
    memop *m = malloc(sizeof *m);
    if (!m) return CUDA_ERROR_OUT_OF_MEMORY;
    *m = (memop){ addr, value, wide, flags, wait };
    CUresult r = ptsz ? cuLaunchHostFunc_ptsz(h, memop_run, m) : cuLaunchHostFunc(h, memop_run, m);
    if (r) free(m);
    return r;
}

#define MEMOP(name, type, wide, wait) \
    CU_EXPORT CUresult name(CUstream h, CUdeviceptr addr, type v, unsigned int flags) \
    { return memop_submit(h, 0, addr, v, wide, flags, wait); } \
    CU_EXPORT CUresult name##_ptsz(CUstream h, CUdeviceptr addr, type v, unsigned int flags) \
    { return memop_submit(h, 1, addr, v, wide, flags, wait); }
MEMOP(cuStreamWriteValue32_v2, cuuint32_t, 0, 0)
MEMOP(cuStreamWriteValue64_v2, cuuint64_t, 1, 0)
MEMOP(cuStreamWaitValue32_v2, cuuint32_t, 0, 1)
MEMOP(cuStreamWaitValue64_v2, cuuint64_t, 1, 1)
MEMOP(cuStreamWriteValue32, cuuint32_t, 0, 0)
MEMOP(cuStreamWriteValue64, cuuint64_t, 1, 0)
MEMOP(cuStreamWaitValue32, cuuint32_t, 0, 1)
MEMOP(cuStreamWaitValue64, cuuint64_t, 1, 1)

/* ---- launches on the per-thread default stream ---------------------------------------------- */
#define PTSZ(s) ((s) ? (s) : (CUstream)RT_STREAM_PER_THREAD)

CU_EXPORT CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gx, unsigned int gy,
                                       unsigned int gz, unsigned int bx, unsigned int by,
                                       unsigned int bz, unsigned int shmem, CUstream s,
                                       void **params, void **extra)
{
    return cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, PTSZ(s), params, extra);
}

CU_EXPORT CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gx, unsigned int gy,
                                                  unsigned int gz, unsigned int bx,
                                                  unsigned int by, unsigned int bz,
                                                  unsigned int shmem, CUstream s, void **params)
{
    return cuLaunchCooperativeKernel(f, gx, gy, gz, bx, by, bz, shmem, PTSZ(s), params);
}

CU_EXPORT CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f,
                                         void **params, void **extra)
{
    if (!config) return CUDA_ERROR_INVALID_VALUE;
    CUlaunchConfig c = *config;
    c.hStream = PTSZ(c.hStream);
    return cuLaunchKernelEx(&c, f, params, extra);
}
