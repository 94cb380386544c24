// rt_async.cu - launches return at once: host/kernel handshakes through mapped pinned memory, a
// persistent kernel the host polls, queries that say cudaErrorNotReady, callbacks, events and
// cross-stream waits, the legacy stream's implicit synchronisation, graphs and stream-ordered
// allocation behind a kernel that waits for the host. Every check is an ordering the CUDA
// documentation guarantees; nothing depends on how long anything takes (a kernel that could
// not run asynchronously would wait forever for the host, and the test harness's time limit
// would end it).
// cuda-G-build
#include "cuda_check.h"
#include <string.h>

// Wait until *flag holds at least v (the host writes it after the launch returned).
__device__ void wait_for(volatile int *flag, int v)
{
    while (*flag < v)
        ;
}

__global__ void gated_store(volatile int *gate, int *out, int v)
{
    wait_for(gate, 1);
    *out = v;   // the gated store
}

// A persistent kernel: answers `rounds` requests of the host, one at a time, through a mailbox
// in mapped memory: request r (1-based) in req, the answer r*r in ans, then ack = r. Block b of
// the grid serves mailbox b.
struct mailbox {
    int req, ans, ack, pad;
};

__global__ void server(volatile mailbox *mb, int rounds)
{
    volatile mailbox *m = &mb[blockIdx.x];
    if (threadIdx.x != 0)
        return;
    for (int r = 1; r <= rounds; r++) {
        wait_for(&m->req, r);
        m->ans = r * r + (int)blockIdx.x;
        __threadfence_system();
        m->ack = r;
    }
}

// A doorbell per block in mapped memory: the host rings (bell = 1), the block does one job
// (jobs += 1) and answers by clearing the bell; `rounds` times. A job done twice, or a bell
// answered and then found ringing again, would show in jobs.
__global__ void doorbells(volatile int *bell, volatile int *jobs, int rounds)
{
    if (threadIdx.x != 0)
        return;
    for (int r = 0; r < rounds; r++) {
        while (bell[blockIdx.x] == 0)
            ;
        jobs[blockIdx.x] = jobs[blockIdx.x] + 1;
        __threadfence_system();
        bell[blockIdx.x] = 0;
    }
}

__global__ void add_one(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1;
}

static volatile int host_fn_calls;
static void CUDART_CB host_fn(void *user)
{
    host_fn_calls += *(int *)user;
}

static cudaStream_t cb_stream;
static cudaError_t cb_status = cudaErrorUnknown;
static void CUDART_CB callback(cudaStream_t s, cudaError_t status, void *user)
{
    cb_stream = s;
    cb_status = status;
    *(int *)user = 7;
}

static volatile int *mapped_int(int **dev)
{
    int *h;
    CHECK(cudaHostAlloc(&h, sizeof(int), cudaHostAllocMapped));
    *h = 0;
    CHECK(cudaHostGetDevicePointer((void **)dev, h, 0));
    return h;
}

int main()
{
    CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    int *dgate, *out;
    volatile int *gate = mapped_int(&dgate);
    CHECK(cudaMallocManaged(&out, 4 * sizeof(int)));
    for (int i = 0; i < 4; i++)
        out[i] = 0;

    // 1. a kernel waiting for the host: the launch returns, queries say NotReady, host work on
    // the same stream waits behind it, an event recorded after it is not reached, another
    // stream waiting for that event waits, and other streams go on meanwhile.
    cudaEvent_t after;
    CHECK(cudaEventCreate(&after));
    gated_store<<<1, 1, 0, s1>>>(gate, out, 41);
    CHECK(cudaGetLastError());
    int one = 1, seven = 0;
    CHECK(cudaLaunchHostFunc(s1, host_fn, &one));
    CHECK(cudaStreamAddCallback(s1, callback, &seven, 0));
    CHECK(cudaEventRecord(after, s1));
    CHECK(cudaStreamWaitEvent(s2, after, 0));
    add_one<<<1, 4, 0, s2>>>(out, 4);   // after the event: sees out[0] == 41
    EXPECT(cudaStreamQuery(s1) == cudaErrorNotReady, "s1 is idle while its kernel waits");
    EXPECT(cudaEventQuery(after) == cudaErrorNotReady, "the event completed before the kernel");
    EXPECT(cudaStreamQuery(s2) == cudaErrorNotReady, "s2 does not wait for the event");
    EXPECT(cudaGetLastError() == cudaSuccess, "cudaErrorNotReady was recorded as an error");
    float ms;
    cudaEvent_t before;
    CHECK(cudaEventCreate(&before));
    EXPECT(cudaEventElapsedTime(&ms, before, after) == cudaErrorInvalidResourceHandle,
           "elapsed time of an event never recorded");
    EXPECT(cudaGetLastError() == cudaErrorInvalidResourceHandle, "the last error");
    // a third stream is not held up: a copy and a memset there complete now
    cudaStream_t s3;
    CHECK(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking));
    int *dbuf, hbuf[64];
    CHECK(cudaMalloc(&dbuf, sizeof hbuf));
    for (int i = 0; i < 64; i++)
        hbuf[i] = i;
    CHECK(cudaMemcpyAsync(dbuf, hbuf, sizeof hbuf, cudaMemcpyHostToDevice, s3));
    CHECK(cudaMemsetAsync(dbuf, 0, 4 * sizeof(int), s3));
    CHECK(cudaMemcpyAsync(hbuf, dbuf, sizeof hbuf, cudaMemcpyDeviceToHost, s3));
    CHECK(cudaStreamSynchronize(s3));
    EXPECT(hbuf[0] == 0 && hbuf[3] == 0 && hbuf[4] == 4 && hbuf[63] == 63, "s3 copies");
    EXPECT(host_fn_calls == 0 && seven == 0, "host work ran before the kernel finished");
    EXPECT(cudaStreamQuery(s1) == cudaErrorNotReady, "s1 finished without the host's flag");
    *gate = 1;   // now the kernel can finish
    CHECK(cudaStreamSynchronize(s2));
    EXPECT(out[0] == 42 && out[1] == 1 && out[3] == 1, "s2 ran before the event: %d %d", out[0],
           out[1]);
    CHECK(cudaEventSynchronize(after));
    CHECK(cudaStreamSynchronize(s1));
    EXPECT(host_fn_calls == 1, "host function calls %d", host_fn_calls);
    EXPECT(seven == 7 && cb_stream == s1 && cb_status == cudaSuccess, "stream callback");
    CHECK(cudaEventRecord(before, s1));
    CHECK(cudaEventSynchronize(before));
    CHECK(cudaEventElapsedTime(&ms, after, before));
    EXPECT(ms >= 0, "elapsed %f", ms);
    CHECK(cudaStreamQuery(s1));
    CHECK(cudaEventQuery(after));

    // 2. a persistent kernel of four blocks polled by the host, one request at a time
    const int rounds = 20, nb = 4;
    mailbox *mb, *dmb;
    CHECK(cudaHostAlloc(&mb, nb * sizeof(mailbox), cudaHostAllocMapped));
    memset(mb, 0, nb * sizeof(mailbox));
    CHECK(cudaHostGetDevicePointer((void **)&dmb, mb, 0));
    server<<<nb, 32, 0, s1>>>(dmb, rounds);
    CHECK(cudaGetLastError());
    volatile mailbox *vmb = mb;
    for (int r = 1; r <= rounds; r++)
        for (int b = 0; b < nb; b++) {
            vmb[b].req = r;
            while (vmb[b].ack < r)
                ;
            EXPECT(vmb[b].ans == r * r + b, "round %d block %d: answer %d", r, b, vmb[b].ans);
        }
    CHECK(cudaStreamSynchronize(s1));

    // the same with doorbells that the kernel answers by clearing them, eight blocks
    const int nbell = 8, nring = 10;
    int *bell, *dbell, *jobs, *djobs;
    CHECK(cudaHostAlloc(&bell, nbell * sizeof(int), cudaHostAllocMapped));
    CHECK(cudaHostAlloc(&jobs, nbell * sizeof(int), cudaHostAllocMapped));
    memset(bell, 0, nbell * sizeof(int));
    memset(jobs, 0, nbell * sizeof(int));
    CHECK(cudaHostGetDevicePointer((void **)&dbell, bell, 0));
    CHECK(cudaHostGetDevicePointer((void **)&djobs, jobs, 0));
    doorbells<<<nbell, 32, 0, s1>>>(dbell, djobs, nring);
    volatile int *vbell = bell, *vjobs = jobs;
    for (int r = 1; r <= nring; r++)
        for (int b = 0; b < nbell; b++) {
            vbell[b] = 1;
            while (vbell[b] != 0)
                ;
            EXPECT(vjobs[b] == r, "round %d block %d: %d jobs done", r, b, vjobs[b]);
        }
    CHECK(cudaStreamSynchronize(s1));
    for (int b = 0; b < nbell; b++)
        EXPECT(jobs[b] == nring, "block %d: %d jobs done", b, jobs[b]);
    CHECK(cudaFreeHost(bell));
    CHECK(cudaFreeHost(jobs));

    // 3. the legacy default stream waits for blocking streams and they wait for it; a
    // non-blocking stream waits for neither
    cudaStream_t blocking;
    CHECK(cudaStreamCreate(&blocking));
    *gate = 0;
    out[0] = 0;
    gated_store<<<1, 1, 0, blocking>>>(gate, out, 5);
    add_one<<<1, 1>>>(out, 1);                           // legacy: after the gated kernel
    EXPECT(cudaStreamQuery(0) == cudaErrorNotReady, "the legacy stream did not wait");
    CHECK(cudaMemcpyAsync(dbuf, hbuf, sizeof hbuf, cudaMemcpyHostToDevice, s3));
    CHECK(cudaStreamSynchronize(s3));                    // non-blocking: not held up
    *gate = 1;
    CHECK(cudaStreamSynchronize(0));
    EXPECT(out[0] == 6, "legacy stream order: %d", out[0]);

    // 4. a graph launch and stream-ordered allocation queued behind a waiting kernel
    *gate = 0;
    out[0] = 0;
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CHECK(cudaStreamBeginCapture(s2, cudaStreamCaptureModeGlobal));
    gated_store<<<1, 1, 0, s2>>>(gate, out, 100);
    add_one<<<1, 1, 0, s2>>>(out, 1);
    CHECK(cudaStreamEndCapture(s2, &g));
    CHECK(cudaGraphInstantiate(&ge, g, 0));
    CHECK(cudaGraphLaunch(ge, s2));
    int *tmp;
    CHECK(cudaMallocAsync(&tmp, 16 * sizeof(int), s2));
    CHECK(cudaMemsetAsync(tmp, 0, 16 * sizeof(int), s2));
    add_one<<<1, 16, 0, s2>>>(tmp, 16);
    CHECK(cudaMemcpyAsync(out + 1, tmp + 15, sizeof(int), cudaMemcpyDeviceToDevice, s2));
    CHECK(cudaFreeAsync(tmp, s2));
    EXPECT(cudaStreamQuery(s2) == cudaErrorNotReady, "the graph did not wait for the host");
    *gate = 1;
    CHECK(cudaStreamSynchronize(s2));
    EXPECT(out[0] == 101 && out[1] == 1, "graph and allocation: %d %d", out[0], out[1]);

    CHECK(cudaGraphExecDestroy(ge));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaEventDestroy(before));
    CHECK(cudaEventDestroy(after));
    CHECK(cudaFree(dbuf));
    CHECK(cudaFree(out));
    CHECK(cudaFreeHost(mb));
    CHECK(cudaFreeHost((void *)gate));
    cudaStream_t all[] = { s1, s2, s3, blocking };
    for (int i = 0; i < 4; i++)
        CHECK(cudaStreamDestroy(all[i]));
    CHECK(cudaDeviceSynchronize());
    printf("rt_async: PASSED\n");
    return 0;
}
