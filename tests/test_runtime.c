/* test_runtime.c - the CUDA runtime's internals: fat binaries, registration and launch as nvcc's
 * host code does them, the address model and its faults, copies, sticky errors, error names. */
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "rt.h"
#include "exec.h"   /* tests reach inside the core (rt.h no longer does) */
#include "mem.h"
#include "test_util.h"

/* Kernels: tests/fixtures/runtime/rt_kernels.cu (fat binaries made by gen.sh there). Expected
 * values come from that source's arithmetic, restated here. */
#define DIR "tests/fixtures/runtime/"

/* The runtime API as programs call it (the library defines these; no CUDA header here). */
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size, int constant, int global);
unsigned __cudaPushCallConfiguration(dim3 g, dim3 b, size_t shmem, struct CUstream_st *s);
cudaError_t __cudaPopCallConfiguration(dim3 *g, dim3 *b, size_t *shmem, void *stream);
cudaError_t __cudaGetKernel(cudaKernel_t *k, const void *hostFun);
cudaError_t __cudaLaunchKernel(cudaKernel_t k, dim3 g, dim3 b, void **args, size_t shmem,
                               cudaStream_t s);
cudaError_t cudaLaunchKernel(const void *func, dim3 g, dim3 b, void **args, size_t shmem,
                             cudaStream_t s);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind k);
cudaError_t cudaMemcpy2D(void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h,
                         enum cudaMemcpyKind k);
cudaError_t cudaMemset(void *p, int v, size_t n);
cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t off,
                               enum cudaMemcpyKind k);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t off,
                                 enum cudaMemcpyKind k);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorName(cudaError_t e);
const char *cudaGetErrorString(cudaError_t e);
cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags);

/* ---- the fixture module ---------------------------------------------------------------------- */
typedef struct { int magic, version; const void *data; void *filename; } fatbinc;
static fatbinc wrapper;
static char *fatbin_bytes;
static size_t fatbin_len;
static void **handle;
/* host stubs and shadows: their addresses are all the runtime needs */
static void stub_vadd(void) {}
static void stub_store(void) {}
static void stub_misaligned(void) {}
static void stub_check(void) {}
static void stub_bounded(void) {}
static int host_hits;
static float host_gain[4];

static void module_up(void)
{
    cudaDeviceReset();
    cudaGetLastError();
    fatbin_bytes = tu_read_file(DIR "rt_kernels.fatbin", &fatbin_len);
    ck_assert_ptr_nonnull(fatbin_bytes);
    wrapper.magic = (int)RT_FATBINC_MAGIC;
    wrapper.version = 1;
    wrapper.data = fatbin_bytes;
    handle = __cudaRegisterFatBinary(&wrapper);
    ck_assert_ptr_nonnull(handle);
    static const struct { void (*stub)(void); const char *name; } k[] = {
        { stub_vadd, "vadd" }, { stub_store, "store" }, { stub_misaligned, "store_misaligned" },
        { stub_check, "check_positive" }, { stub_bounded, "bounded" },
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        __cudaRegisterFunction(handle, (const char *)k[i].stub, (char *)k[i].name, k[i].name,
                               -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterVar(handle, (char *)&host_hits, (char *)"hits", "hits", 0, sizeof host_hits, 0,
                      0);
    __cudaRegisterVar(handle, (char *)host_gain, (char *)"gain", "gain", 0, sizeof host_gain, 1,
                      0);
    __cudaRegisterFatBinaryEnd(handle);
}

static void module_down(void)
{
    __cudaUnregisterFatBinary(handle);
    handle = NULL;
    cudaDeviceReset();
    free(fatbin_bytes);
    fatbin_bytes = NULL;
}

/* kernel<<<g, b>>>(args) exactly as nvcc's stub does it */
static cudaError_t launch(void (*stub)(void), dim3 g, dim3 b, void **args)
{
    ck_assert_uint_eq(__cudaPushCallConfiguration(g, b, 0, NULL), 0);
    dim3 gg, bb;
    size_t shmem;
    cudaStream_t st;
    ck_assert_int_eq(__cudaPopCallConfiguration(&gg, &bb, &shmem, &st), cudaSuccess);
    cudaKernel_t k = NULL;
    ck_assert_int_eq(__cudaGetKernel(&k, (const void *)stub), cudaSuccess);
    return __cudaLaunchKernel(k, gg, bb, args, shmem, st);
}

static const dim3 one = { 1, 1, 1 };

/* ---- fat binaries ---------------------------------------------------------------------------- */
START_TEST(fatbin_ptx)
{
    size_t len;
    char *b = tu_read_file(DIR "rt_kernels.fatbin", &len);
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(rt_fatbin_size(b, len), len);   /* one container */
    char *ptx, err[512];
    size_t n;
    ck_assert_int_eq(rt_fatbin_ptx(b, len, &ptx, &n, err, sizeof err), 0);
    ck_assert_uint_eq(strlen(ptx), n);
    ck_assert_ptr_nonnull(strstr(ptx, ".target sm_80"));
    const char *entries[] = { ".entry vadd(", ".entry store(", ".entry store_misaligned(",
                              ".entry check_positive(", ".entry bounded(" };
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
        ck_assert_msg(strstr(ptx, entries[i]), "missing %s", entries[i]);
    ck_assert_ptr_nonnull(strstr(ptx, ".u32 hits;"));
    ck_assert_ptr_nonnull(strstr(ptx, ".const .align 4 .b8 gain[16];"));
    ptx_error pe;
    ptx_module *pm = ptx_parse(ptx, n, "rt_kernels", &pe);
    ck_assert_msg(pm != NULL, "%s", pe.msg);
    ptx_module_free(pm);
    free(ptx);
    free(b);
}
END_TEST

START_TEST(fatbin_sass_only)
{
    size_t len;
    char *b = tu_read_file(DIR "rt_kernels.sass.fatbin", &len);
    ck_assert_ptr_nonnull(b);
    char *ptx = (char *)1, err[512] = "";
    size_t n = 7;
    ck_assert_int_eq(rt_fatbin_ptx(b, len, &ptx, &n, err, sizeof err), -1);
    ck_assert_ptr_null(ptx);
    ck_assert_msg(strstr(err, "only SASS (sm_80)") && strstr(err, "-arch=sm_XX") &&
                  strstr(err, "code=compute_XX"), "message: %s", err);
    free(b);
}
END_TEST

/* Every truncation and a flipped byte in each header field: an error or a parse, never a read
 * outside the bytes (ASan checks that). */
START_TEST(fatbin_corrupt)
{
    size_t len;
    char *b = tu_read_file(DIR "rt_kernels.fatbin", &len);
    ck_assert_ptr_nonnull(b);
    for (size_t cut = 0; cut < len; cut += (cut < 256 ? 1 : 97)) {
        char *c = malloc(cut ? cut : 1);
        memcpy(c, b, cut);
        char *ptx = NULL, err[512];
        size_t n;
        ck_assert_uint_eq(rt_fatbin_size(c, cut), 0);
        if (rt_fatbin_ptx(c, cut, &ptx, &n, err, sizeof err) == 0)
            free(ptx);
        free(c);
    }
    for (size_t at = 0; at < 16 + 80 && at < len; at++) {
        char *c = malloc(len);
        memcpy(c, b, len);
        c[at] ^= 0x5a;
        char *ptx = NULL, err[512];
        size_t n;
        if (rt_fatbin_ptx(c, len, &ptx, &n, err, sizeof err) == 0)
            free(ptx);
        free(c);
    }
    ck_assert_uint_eq(rt_fatbin_size("not a fat binary", 16), 0);
    free(b);
}
END_TEST

/* Linking relocatable device code: each rule of rt_link.c on two small units. */
START_TEST(rdc_link)
{
    char *u[2];
    u[0] = strdup(".version 9.0\n.target sm_80\n.address_size 64\n"
                  ".file 1 \"a.cu\"\n"
                  ".extern .global .align 4 .u32 shared_v;\n"
                  ".extern .func (.param .b32 r) other (.param .b32 x);\n"
                  ".global .align 1 .b8 $str[3] = {104, 105, 0};\n"
                  ".weak .func w() { ret; }\n"
                  ".visible .entry k(.param .u64 p) { .reg .b64 %rd<2>; .loc 1 7 3\n"
                  " mov.u64 %rd1, $str; mov.u64 %rd1, shared_v; ret; }\n");
    u[1] = strdup(".version 9.0\n.target sm_80\n.address_size 64\n"
                  ".file 1 \"b.cu\"\n"
                  ".visible .global .align 4 .u32 shared_v;\n"
                  ".global .align 1 .b8 $str[3] = {104, 111, 0};\n"
                  ".weak .func w() { ret; }\n"
                  ".visible .func (.param .b32 r) other (.param .b32 x)\n"
                  "{ .reg .b64 %rd<10>; .loc 1 3 1\n"
                  " mov.u64 %rd9, $str; st.param.b32 [r], 1; ret; }\n");
    size_t lens[2] = { strlen(u[0]), strlen(u[1]) };
    char *out = NULL, err[256] = "";
    size_t n = 0;
    ck_assert_int_eq(rt_ptx_link(u, lens, 2, &out, &n, err, sizeof err), 0);
    ck_assert_uint_eq(strlen(out), n);
    /* one header, files renumbered, the second unit's $str renamed, one weak w, the extern
     * variable replaced by its definition at its place */
    ck_assert_ptr_null(strstr(strstr(out, ".version") + 1, ".version"));
    ck_assert_ptr_nonnull(strstr(out, ".file 2 \"b.cu\""));
    ck_assert_ptr_nonnull(strstr(out, ".loc 2 3 1"));
    ck_assert_ptr_nonnull(strstr(out, "$str_rdc1[3] = {104, 111, 0}"));
    ck_assert_ptr_nonnull(strstr(out, "mov.u64 %rd9, $str_rdc1;"));
    ck_assert_ptr_nonnull(strstr(out, "mov.u64 %rd1, $str;"));
    const char *w1 = strstr(out, ".weak .func w()");
    ck_assert_ptr_nonnull(w1);
    ck_assert_ptr_null(strstr(w1 + 1, ".weak .func w()"));
    ck_assert_ptr_null(strstr(out, ".extern .global"));
    ck_assert_ptr_nonnull(strstr(out, ".visible .global .align 4 .u32 shared_v;"));
    ck_assert(strstr(out, "shared_v;") < strstr(out, ".entry k"));
    ptx_error pe;
    ptx_module *pm = ptx_parse(out, n, "linked", &pe);
    ck_assert_msg(pm != NULL, "%s\n%s", pe.msg, out);
    ptx_module_free(pm);
    free(out);
    /* two strong definitions of one name */
    free(u[1]);
    u[1] = strdup(".version 9.0\n.target sm_80\n.address_size 64\n"
                  ".visible .entry k(.param .u64 p) { ret; }\n");
    lens[1] = strlen(u[1]);
    ck_assert_int_eq(rt_ptx_link(u, lens, 2, &out, &n, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "k is defined by two translation units"));
    free(u[0]);
    free(u[1]);
}
END_TEST

/* The linker on every truncation of a real module and on unbalanced text: a result or an
 * error, never a read outside the text (ASan checks that). */
START_TEST(rdc_link_robust)
{
    size_t len;
    char *b = tu_read_file(DIR "rt_kernels.fatbin", &len);
    ck_assert_ptr_nonnull(b);
    char *ptx, err[256];
    size_t n;
    ck_assert_int_eq(rt_fatbin_ptx(b, len, &ptx, &n, err, sizeof err), 0);
    static const char *odd[] = { "{ { (", "\"unterminated", "/* open", ".func (", "}}};;", "" };
    for (size_t cut = 0; cut <= n; cut += 37) {
        char *u[2];
        size_t l[2] = { cut, 0 };
        u[0] = malloc(cut + 1);
        memcpy(u[0], ptx, cut);
        u[0][cut] = 0;
        u[1] = strdup(odd[(cut / 37) % (sizeof odd / sizeof odd[0])]);
        l[1] = strlen(u[1]);
        char *out = NULL;
        size_t on;
        if (rt_ptx_link(u, l, 2, &out, &on, err, sizeof err) == 0)
            free(out);
        free(u[0]);
        free(u[1]);
    }
    free(ptx);
    free(b);
}
END_TEST

/* ---- registration and launch ----------------------------------------------------------------- */
START_TEST(register_and_launch)
{
    module_up();
    enum { N = 1000 };
    static float a[N], b[N], c[N];
    const float gain[4] = { 1.0f, 0.5f, 2.0f, -1.0f };
    for (int i = 0; i < N; i++) {
        a[i] = (float)i;
        b[i] = (float)(3 * i + 1);
    }
    float *da, *db, *dc;
    ck_assert_int_eq(cudaMalloc((void **)&da, sizeof a), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&db, sizeof b), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&dc, sizeof c), cudaSuccess);
    /* device pointers are host pointers: write one side directly */
    memcpy(da, a, sizeof a);
    ck_assert_int_eq(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice), cudaSuccess);
    ck_assert_int_eq(cudaMemcpyToSymbol(host_gain, gain, sizeof gain, 0, cudaMemcpyHostToDevice),
                     cudaSuccess);
    int n = N;
    void *args[] = { &da, &db, &dc, &n };
    dim3 g = { (N + 127) / 128, 1, 1 }, bl = { 128, 1, 1 };
    ck_assert_int_eq(launch(stub_vadd, g, bl, args), cudaSuccess);
    /* the legacy path: cudaLaunchKernel with the host stub */
    ck_assert_int_eq(cudaLaunchKernel((const void *)stub_vadd, g, bl, args, 0, NULL),
                     cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(c[i], (a[i] + b[i]) * gain[i % 4]);
    int hits = 0;
    ck_assert_int_eq(cudaMemcpyFromSymbol(&hits, &host_hits, sizeof hits, 0,
                                          cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_int_eq(hits, 2 * N);
    ck_assert_int_eq(cudaMemcpyFromSymbol(&hits, &host_hits, sizeof hits, 2,
                                          cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidValue);
    /* an unregistered stub */
    ck_assert_int_eq(cudaLaunchKernel((const void *)module_up, g, bl, args, 0, NULL),
                     cudaErrorInvalidDeviceFunction);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidDeviceFunction);
    /* no configuration pushed */
    dim3 x;
    size_t s;
    cudaStream_t st;
    ck_assert_int_eq(__cudaPopCallConfiguration(&x, &x, &s, &st), cudaErrorMissingConfiguration);
    cudaGetLastError();
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    module_down();
}
END_TEST

START_TEST(launch_configuration_errors)
{
    module_up();
    int *d;
    ck_assert_int_eq(cudaMalloc((void **)&d, 4096), cudaSuccess);
    long long i = 0;
    int v = 1;
    void *args[] = { &d, &i, &v };
    dim3 big = { 2048, 1, 1 }, zero = { 0, 1, 1 }, deep = { 1, 1, 65 };
    ck_assert_int_eq(launch(stub_store, one, big, args), cudaErrorInvalidConfiguration);
    ck_assert_int_eq(launch(stub_store, zero, one, args), cudaErrorInvalidConfiguration);
    ck_assert_int_eq(launch(stub_store, one, deep, args), cudaErrorInvalidConfiguration);
    /* .maxntid 64 (__launch_bounds__(64)) with 128 threads */
    dim3 b128 = { 128, 1, 1 };
    void *bargs[] = { &d };
    cudaError_t e = launch(stub_bounded, one, b128, bargs);
    ck_assert_msg(e == cudaErrorLaunchOutOfResources || e == cudaErrorInvalidConfiguration,
                  "bounded kernel with 128 threads: %s", cudaGetErrorName(e));
    /* configuration errors are not sticky */
    ck_assert_int_eq(cudaGetLastError(), e);
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);
    dim3 b64 = { 64, 1, 1 };
    ck_assert_int_eq(launch(stub_bounded, one, b64, bargs), cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    ck_assert_int_eq(d[63], 63);
    cudaFree(d);
    module_down();
}
END_TEST

/* ---- faults ---------------------------------------------------------------------------------- */
static exec_stop seen_stop;
static int seen_launches;
static char seen_kernel[64];
/* A debugger hook that runs the launch plainly and keeps its final stop. */
static int keep_stop(rt_launch_ctx *ctx)
{
    exec_run_opts o;
    memset(&o, 0, sizeof o);
    o.mode = EXEC_RUN_CONTINUE;
    if (exec_run(ctx->m, &o, &ctx->stop))
        return -1;
    seen_stop = ctx->stop;
    seen_launches++;
    snprintf(seen_kernel, sizeof seen_kernel, "%s", ctx->func->sym->name);
    ctx->reported = 1;
    return 0;
}

START_TEST(fault_names_allocation)
{
    module_up();
    rt_debug_launch = keep_stop;
    int *small, *d;
    ck_assert_int_eq(cudaMalloc((void **)&small, 64), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&d, 64), cudaSuccess);
    const rt_alloc *a = rt_alloc_find(d, 0);
    ck_assert_ptr_nonnull(a);
    char name[40];
    snprintf(name, sizeof name, "%s", a->name);
    ck_assert_ptr_nonnull(strstr(name, "cudaMalloc#"));
    long long i = 128;  /* d[128]: the first int past the 64 bytes and the 448 bytes of padding a
                           GPU maps after them (exec_alloc_padding) */
    int v = 5;
    void *args[] = { &d, &i, &v };
    int before = seen_launches;
    ck_assert_int_eq(launch(stub_store, one, one, args), cudaSuccess);   /* asynchronous fault */
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);
    /* work queued behind the fault does not run */
    long long i0 = 0;
    void *args0[] = { &d, &i0, &v };
    ck_assert_int_eq(launch(stub_store, one, one, args0), cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    ck_assert_int_eq(seen_launches, before + 1);
    ck_assert_int_eq(d[0], 0);
    ck_assert_str_eq(seen_kernel, "store");
    ck_assert_int_eq(seen_stop.kind, EXEC_STOP_EXCEPTION);
    ck_assert_int_eq(seen_stop.exc, EXEC_EXC_OUT_OF_RANGE);
    ck_assert_uint_eq(seen_stop.addr, (uint64_t)(uintptr_t)(d + 128));
    ck_assert_msg(strstr(seen_stop.msg, name) && strstr(seen_stop.msg, "64 bytes"),
                  "fault message: %s", seen_stop.msg);
    /* sticky */
    ck_assert_int_eq(cudaMalloc((void **)&d, 64), cudaErrorIllegalAddress);
    ck_assert_int_eq(cudaMemset(small, 0, 64), cudaErrorIllegalAddress);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorIllegalAddress);
    ck_assert_int_eq(cudaPeekAtLastError(), cudaErrorIllegalAddress);
    ck_assert_int_eq(cudaDeviceReset(), cudaSuccess);
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&d, 64), cudaSuccess);
    cudaFree(d);
    rt_debug_launch = NULL;
    module_down();
}
END_TEST

START_TEST(fault_kinds)
{
    module_up();
    rt_debug_launch = keep_stop;
    char *c;
    ck_assert_int_eq(cudaMalloc((void **)&c, 64), cudaSuccess);
    void *margs[] = { &c };
    ck_assert_int_eq(launch(stub_misaligned, one, one, margs), cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaErrorMisalignedAddress);
    ck_assert_int_eq(seen_stop.exc, EXEC_EXC_MISALIGNED);
    ck_assert_int_eq(cudaDeviceReset(), cudaSuccess);
    int *p;
    ck_assert_int_eq(cudaMalloc((void **)&p, 8 * sizeof(int)), cudaSuccess);
    for (int i = 0; i < 8; i++)
        p[i] = i == 5 ? 0 : 1;   /* thread 5 fails its assertion */
    void *aargs[] = { &p };
    dim3 b8 = { 8, 1, 1 };
    ck_assert_int_eq(launch(stub_check, one, b8, aargs), cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaErrorAssert);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaErrorAssert);
    ck_assert_int_eq(seen_stop.kind, EXEC_STOP_ASSERT);
    ck_assert_ptr_nonnull(strstr(seen_stop.msg, "thread: [5,0,0]"));
    rt_debug_launch = NULL;
    module_down();
}
END_TEST

/* A plain launch that faults reports on stderr and, with PTXDBG_AUTO_CORE=1, writes a core
 * file the core reader accepts. */
START_TEST(auto_core_file)
{
    module_up();
    char path[256];
    snprintf(path, sizeof path, "core.store.%d.", (int)getpid());
    setenv("PTXDBG_AUTO_CORE", "1", 1);
    int *d;
    ck_assert_int_eq(cudaMalloc((void **)&d, 64), cudaSuccess);
    long long i = 1 << 20;
    int v = 1;
    void *args[] = { &d, &i, &v };
    ck_assert_int_eq(launch(stub_store, one, one, args), cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    unsetenv("PTXDBG_AUTO_CORE");
    /* the launch number is process-wide: find the file by its prefix */
    char found[300] = "";
    for (int n = 0; n < 64 && !found[0]; n++) {
        char f[300];
        snprintf(f, sizeof f, "%s%d", path, n);
        if (access(f, R_OK) == 0)
            snprintf(found, sizeof found, "%s", f);
    }
    ck_assert_msg(found[0], "no core file %s*", path);
    char err[256];
    exec_core *c = exec_core_open(found, err, sizeof err, NULL);
    ck_assert_msg(c != NULL, "%s", err);
    exec_core_close(c);
    unlink(found);
    module_down();
}
END_TEST

/* ---- copies ---------------------------------------------------------------------------------- */
START_TEST(copy_kinds)
{
    cudaDeviceReset();
    char *d1, *d2, h[256], back[256];
    for (int i = 0; i < 256; i++)
        h[i] = (char)(i * 7);
    ck_assert_int_eq(cudaMalloc((void **)&d1, 256), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&d2, 256), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(d1, h, 256, cudaMemcpyHostToDevice), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(d2, d1, 256, cudaMemcpyDeviceToDevice), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(back, d2, 256, cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_mem_eq(back, h, 256);
    memset(back, 0, sizeof back);
    ck_assert_int_eq(cudaMemcpy(back, d1, 256, cudaMemcpyDefault), cudaSuccess);
    ck_assert_mem_eq(back, h, 256);
    ck_assert_int_eq(cudaMemcpy(back + 1, h, 100, cudaMemcpyHostToHost), cudaSuccess);
    ck_assert_mem_eq(back + 1, h, 100);
    /* overlapping device copy behaves as memmove */
    ck_assert_int_eq(cudaMemcpy(d1 + 1, d1, 200, cudaMemcpyDeviceToDevice), cudaSuccess);
    ck_assert_mem_eq(d1 + 1, h, 200);
    /* errors */
    ck_assert_int_eq(cudaMemcpy(back, d1, 257, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaMemcpy(d1 + 200, h, 57, cudaMemcpyHostToDevice),
                     cudaErrorInvalidValue);
    ck_assert_int_eq(cudaMemcpy(h, back, 16, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaMemcpy(back, (void *)(uintptr_t)MEM_WIN_SHARED, 16,
                                cudaMemcpyHostToHost), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaMemcpy(back, d1, 16, (enum cudaMemcpyKind)7),
                     cudaErrorInvalidMemcpyDirection);
    ck_assert_int_eq(cudaMemcpy2D(d1, 8, h, 16, 16, 4, cudaMemcpyHostToDevice),
                     cudaErrorInvalidPitchValue);
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidPitchValue);
    /* 2D: 4 rows of 10 bytes into a pitch of 64 */
    ck_assert_int_eq(cudaMemset(d2, 0, 256), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy2D(d2, 64, h, 10, 10, 4, cudaMemcpyHostToDevice), cudaSuccess);
    for (int r = 0; r < 4; r++) {
        ck_assert_mem_eq(d2 + 64 * r, h + 10 * r, 10);
        ck_assert_int_eq(d2[64 * r + 10], 0);
    }
    ck_assert_int_eq(cudaFree(d1), cudaSuccess);
    ck_assert_int_eq(cudaFree(d1), cudaErrorInvalidValue);
    ck_assert_int_eq(cudaFree(h), cudaErrorInvalidValue);
    cudaGetLastError();
    ck_assert_int_eq(cudaFree(d2), cudaSuccess);
    ck_assert_int_eq(cudaFree(NULL), cudaSuccess);
}
END_TEST

/* Allocations made before a module loads are mapped into it; managed memory is shared. */
START_TEST(address_model)
{
    module_up();   /* registers; loads nothing yet */
    int *early;
    ck_assert_int_eq(cudaMallocManaged((void **)&early, 64, 1), cudaSuccess);
    ck_assert_int_eq(rt_mem_type(early, 64), cudaMemoryTypeManaged);
    ck_assert_int_eq(rt_mem_type(early + 15, 8), cudaMemoryTypeUnregistered);
    ck_assert_int_eq(rt_addr_reserved(RT_MODULE_BASE, 1), 1);
    ck_assert_int_eq(rt_addr_reserved(MEM_CODE_BASE, 1), 1);
    /* where the windows once lay, among the host's own mappings: host memory may be there */
    ck_assert_int_eq(rt_addr_reserved(0x00007e0000000000ull, 4096), 0);
    ck_assert_int_eq(rt_addr_reserved(0x00007f0000000000ull, 4096), 0);
    ck_assert_int_eq(rt_addr_reserved(0x0000001ffeff0000ull, 4096), 0);   /* valgrind's stack */
    ck_assert_int_eq(rt_addr_reserved(MEM_WIN_PARAM + MEM_WIN_SIZE - 1, 1), 1);
    ck_assert_int_eq(rt_addr_reserved((uint64_t)(uintptr_t)early, 64), 0);
    long long i = 3;
    int v = 41;
    void *args[] = { &early, &i, &v };
    ck_assert_int_eq(launch(stub_store, one, one, args), cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
    ck_assert_int_eq(early[3], 41);   /* the host reads what the kernel wrote, same pointer */
    /* freed memory is unmapped: a kernel touching it faults */
    rt_debug_launch = keep_stop;
    int *gone;
    ck_assert_int_eq(cudaMalloc((void **)&gone, 64), cudaSuccess);
    ck_assert_int_eq(cudaFree(gone), cudaSuccess);
    void *gargs[] = { &gone, &i, &v };
    ck_assert_int_eq(launch(stub_store, one, one, gargs), cudaSuccess);
    ck_assert_int_eq(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    ck_assert_int_eq(seen_stop.exc, EXEC_EXC_OUT_OF_RANGE);
    ck_assert_uint_eq(seen_stop.addr, (uint64_t)(uintptr_t)(gone + 3));
    rt_debug_launch = NULL;
    module_down();
}
END_TEST

/* ---- error names ----------------------------------------------------------------------------- */
START_TEST(error_names)
{
    static const struct { int code; const char *name; } rows[] = {
#define X(name, value, text) { value, #name },
#include "rt_errors.def"
#undef X
    };
    ck_assert_uint_eq(sizeof rows / sizeof rows[0], 133);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        ck_assert_str_eq(cudaGetErrorName((cudaError_t)rows[i].code), rows[i].name);
        ck_assert_uint_gt(strlen(cudaGetErrorString((cudaError_t)rows[i].code)), 4);
    }
    ck_assert_int_eq(cudaErrorIllegalAddress, 700);
    ck_assert_int_eq(cudaErrorAssert, 710);
    ck_assert_int_eq(cudaErrorMisalignedAddress, 716);
    ck_assert_int_eq(cudaErrorLaunchFailure, 719);
    ck_assert_int_eq(cudaErrorNotSupported, 801);
    ck_assert_str_eq(cudaGetErrorString(cudaErrorIllegalAddress),
                     "an illegal memory access was encountered");
    ck_assert_str_eq(cudaGetErrorName((cudaError_t)12345), "unrecognized error code");
    ck_assert_str_eq(cudaGetErrorString((cudaError_t)-1), "unrecognized error code");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("runtime");
    TCase *f = tcase_create("fatbin");
    tcase_add_test(f, fatbin_ptx);
    tcase_add_test(f, fatbin_sass_only);
    tcase_add_test(f, fatbin_corrupt);
    tcase_add_test(f, rdc_link);
    tcase_add_test(f, rdc_link_robust);
    suite_add_tcase(s, f);
    TCase *l = tcase_create("launch");
    tcase_set_timeout(l, 60);
    tcase_add_test(l, register_and_launch);
    tcase_add_test(l, launch_configuration_errors);
    tcase_add_test(l, fault_names_allocation);
    tcase_add_test(l, fault_kinds);
    tcase_add_test(l, auto_core_file);
    suite_add_tcase(s, l);
    TCase *m = tcase_create("memory");
    tcase_set_timeout(m, 60);
    tcase_add_test(m, copy_kinds);
    tcase_add_test(m, address_model);
    tcase_add_test(m, error_names);
    suite_add_tcase(s, m);
    return tu_run_suite(s);
}
