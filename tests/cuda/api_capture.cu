// api_capture.cu - what stream capture forbids, as the CUDA runtime documents it: synchronising
// or querying a capturing stream, a captured event or the device; work on the legacy stream
// (synchronous copies included) while a blocking stream captures; cudaMalloc / cudaFree under
// the global and thread-local interaction modes (allowed in relaxed mode, and to a thread that
// exchanged its mode to relaxed); a wait on an event recorded outside the capture. Each fails,
// and invalidates the capture: cudaStreamEndCapture then returns
// cudaErrorStreamCaptureInvalidated and no graph. A capture that breaks no rule still gives a
// graph that runs.
// cuda-static-build
#include <pthread.h>
#include "cuda_check.h"

__global__ void add(int *p, int v) { p[threadIdx.x] += v; }

static int *g_buf;

// Begin a capture on s in `mode` with one kernel in it.
static void begin(cudaStream_t s, cudaStreamCaptureMode mode)
{
    CHECK(cudaStreamBeginCapture(s, mode));
    add<<<1, 32, 0, s>>>(g_buf, 1);
    CHECK(cudaGetLastError());
}

// End the capture on s: invalidated (no graph) or not (a graph, instantiated and launched).
static void end(cudaStream_t s, bool invalidated, const char *what)
{
    cudaGraph_t g = (cudaGraph_t)1;
    cudaError_t e = cudaStreamEndCapture(s, &g);
    if (invalidated) {
        EXPECT(e == cudaErrorStreamCaptureInvalidated && g == NULL,
               "%s: end capture returned %s, graph %p", what, cudaGetErrorName(e), (void *)g);
    } else {
        EXPECT(e == cudaSuccess && g != NULL, "%s: end capture returned %s", what,
               cudaGetErrorName(e));
        cudaGraphExec_t x;
        CHECK(cudaGraphInstantiate(&x, g, 0));
        CHECK(cudaGraphLaunch(x, s));
        CHECK(cudaStreamSynchronize(s));
        CHECK(cudaGraphExecDestroy(x));
        CHECK(cudaGraphDestroy(g));
    }
    cudaGetLastError();   // the failed calls set the last error
}

#define EXPECT_ERR(call, want, what)                                                        \
    do {                                                                                    \
        cudaError_t e_ = (call);                                                            \
        EXPECT(e_ == (want), "%s: %s returned %s, want %s", what, #call,                    \
               cudaGetErrorName(e_), cudaGetErrorName(want));                               \
    } while (0)

static cudaStream_t g_other;
static void *thread_malloc(void *arg)
{
    // another thread, default (global) mode, while the main thread captures in global mode
    void *p = NULL;
    *(cudaError_t *)arg = cudaMalloc(&p, 64);
    return NULL;
}

int main()
{
    cudaStream_t s, nb;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
    CHECK(cudaStreamCreate(&g_other));
    CHECK(cudaMalloc(&g_buf, 32 * sizeof(int)));
    CHECK(cudaMemset(g_buf, 0, 32 * sizeof(int)));
    cudaEvent_t ev, outside;
    CHECK(cudaEventCreate(&ev));
    CHECK(cudaEventCreate(&outside));
    CHECK(cudaEventRecord(outside, g_other));
    CHECK(cudaStreamSynchronize(g_other));
    void *p = NULL;

    begin(s, cudaStreamCaptureModeGlobal);            // a clean capture runs: buf += 1
    end(s, false, "clean");

    begin(s, cudaStreamCaptureModeGlobal);
    EXPECT_ERR(cudaStreamSynchronize(s), cudaErrorStreamCaptureUnsupported, "stream sync");
    end(s, true, "stream sync");

    begin(s, cudaStreamCaptureModeRelaxed);           // whatever the mode
    EXPECT_ERR(cudaStreamQuery(s), cudaErrorStreamCaptureUnsupported, "stream query");
    end(s, true, "stream query");

    begin(s, cudaStreamCaptureModeGlobal);
    CHECK(cudaEventRecord(ev, s));
    EXPECT_ERR(cudaEventQuery(ev), cudaErrorStreamCaptureUnsupported, "captured event query");
    end(s, true, "event query");

    begin(s, cudaStreamCaptureModeGlobal);
    CHECK(cudaEventRecord(ev, s));
    EXPECT_ERR(cudaEventSynchronize(ev), cudaErrorStreamCaptureUnsupported, "event sync");
    end(s, true, "event sync");

    begin(nb, cudaStreamCaptureModeRelaxed);
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorStreamCaptureUnsupported, "device sync");
    end(nb, true, "device sync");

    begin(s, cudaStreamCaptureModeGlobal);            // a blocking stream captures
    add<<<1, 32>>>(g_buf, 100);                       // the legacy stream
    EXPECT_ERR(cudaGetLastError(), cudaErrorStreamCaptureImplicit, "legacy launch");
    end(s, true, "legacy launch");

    begin(s, cudaStreamCaptureModeRelaxed);
    int h[32];
    EXPECT_ERR(cudaMemcpy(h, g_buf, sizeof h, cudaMemcpyDeviceToHost),
               cudaErrorStreamCaptureImplicit, "synchronous copy");
    end(s, true, "synchronous copy");

    begin(nb, cudaStreamCaptureModeGlobal);           // a non-blocking stream: legacy work is
    CHECK(cudaMemcpy(h, g_buf, sizeof h, cudaMemcpyDeviceToHost));   // allowed
    EXPECT(h[0] == 1, "buf[0] = %d after one graph launch", h[0]);
    end(nb, false, "legacy work beside a non-blocking capture");

    begin(s, cudaStreamCaptureModeGlobal);
    EXPECT_ERR(cudaMalloc(&p, 64), cudaErrorStreamCaptureUnsupported, "cudaMalloc, global");
    end(s, true, "cudaMalloc, global");

    begin(s, cudaStreamCaptureModeThreadLocal);
    EXPECT_ERR(cudaFree(g_buf), cudaErrorStreamCaptureUnsupported, "cudaFree, thread-local");
    end(s, true, "cudaFree, thread-local");

    begin(s, cudaStreamCaptureModeRelaxed);           // relaxed: allowed
    CHECK(cudaMalloc(&p, 64));
    CHECK(cudaFree(p));
    end(s, false, "cudaMalloc, relaxed");

    begin(s, cudaStreamCaptureModeGlobal);            // the thread exchanges its mode
    cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
    CHECK(cudaThreadExchangeStreamCaptureMode(&m));
    EXPECT(m == cudaStreamCaptureModeGlobal, "the thread's mode was %d", (int)m);
    CHECK(cudaMalloc(&p, 64));
    CHECK(cudaThreadExchangeStreamCaptureMode(&m));
    EXPECT(m == cudaStreamCaptureModeRelaxed, "the thread's mode was %d", (int)m);
    EXPECT_ERR(cudaFree(p), cudaErrorStreamCaptureUnsupported, "cudaFree back in global mode");
    end(s, true, "exchanged mode");
    CHECK(cudaFree(p));

    // another thread in global mode, while this one captures in global mode: forbidden; in
    // thread-local mode the other thread's calls are not concerned
    for (int k = 0; k < 2; k++) {
        begin(s, k ? cudaStreamCaptureModeThreadLocal : cudaStreamCaptureModeGlobal);
        cudaError_t te = cudaSuccess;
        pthread_t t;
        pthread_create(&t, NULL, thread_malloc, &te);
        pthread_join(t, NULL);
        EXPECT(te == (k ? cudaSuccess : cudaErrorStreamCaptureUnsupported),
               "cudaMalloc in another thread (capture mode %d): %s", k, cudaGetErrorName(te));
        end(s, !k, "another thread's cudaMalloc");
    }

    begin(s, cudaStreamCaptureModeGlobal);            // waiting on an outside event
    EXPECT_ERR(cudaStreamWaitEvent(s, outside, 0), cudaErrorStreamCaptureIsolation,
               "wait on an outside event");
    end(s, true, "wait on an outside event");
    begin(s, cudaStreamCaptureModeGlobal);
    CHECK(cudaStreamWaitEvent(s, outside, cudaEventWaitExternal));
    end(s, false, "external wait");

    // after every capture ended the stream works as before; 3 clean graphs ran
    add<<<1, 32, 0, s>>>(g_buf, 10);
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(h, g_buf, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)
        EXPECT(h[i] == 5 + 10, "buf[%d] = %d, want 15 (5 graph launches, one kernel)", i, h[i]);
    CHECK(cudaFree(g_buf));
    printf("api_capture: PASSED\n");
    return 0;
}
