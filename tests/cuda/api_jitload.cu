// api_jitload.cu - what the driver and its JIT (ptxas) say about modules and allocations:
// cuMemAlloc of 0 bytes, empty and comment-only PTX, a .version newer than the driver knows
// (CUDA_ERROR_UNSUPPORTED_PTX_VERSION), static shared memory over 48 KB, kernel parameters over
// 32764 bytes, a .local frame over the 512 KB a thread may have (CUDA_ERROR_INVALID_PTX, the
// reason in the JIT's error log); and PTX ptxas accepts that must load and run: whole vector
// registers as call arguments and results (`call (w), f, (v)` with .reg .v2 .u32), predicates
// as call arguments and results.
// nvcc-flags: -lcuda
#include "cu_check.h"

#define HDR ".version 8.1\n.target sm_80\n.address_size 64\n"

static const char big_shared[] = HDR
    ".shared .align 4 .b8 big[49156];\n"
    ".visible .entry k(.param .u64 o)\n{\n .reg .b32 %r<2>;\n"
    " mov.u32 %r1, %tid.x;\n st.shared.u32 [big+49152], %r1;\n ret;\n}\n";
static const char big_params[] = HDR
    ".visible .entry k(.param .align 4 .b8 p[32768])\n{\n .reg .b32 %r<2>;\n"
    " ld.param.u32 %r1, [p+32764];\n ret;\n}\n";
static const char big_local[] = HDR
    ".visible .entry k(.param .u64 o)\n{\n .local .align 4 .b8 d[524292];\n"
    " .reg .b32 %r<2>;\n mov.u32 %r1, %tid.x;\n st.local.u32 [d+524288], %r1;\n ret;\n}\n";
static const char newer[] = ".version 9.9\n.target sm_80\n.address_size 64\n"
    ".visible .entry k()\n{\n ret;\n}\n";

// out[t] = {w.x, w.y, q} with w = swap2({t, t + 500}), q = !(t < 7) through a predicate call
static const char regcalls[] = HDR
    ".func (.reg .v2 .u32 r) swap2(.reg .v2 .u32 a)\n{\n"
    " mov.u32 r.x, a.y;\n mov.u32 r.y, a.x;\n ret;\n}\n"
    ".func (.reg .pred q) neg(.reg .pred p)\n{\n not.pred q, p;\n ret;\n}\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .v2 .u32 v; .reg .v2 .u32 w; .reg .pred %p<3>; .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out];\n mov.u32 %r1, %tid.x;\n"
    " mov.u32 v.x, %r1;\n add.u32 v.y, %r1, 500;\n"
    " call (w), swap2, (v);\n"
    " setp.lt.u32 %p1, %r1, 7;\n call (%p2), neg, (%p1);\n selp.u32 %r2, 1, 0, %p2;\n"
    " mul.wide.u32 %rd2, %r1, 12;\n add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], w.x;\n st.global.u32 [%rd3+4], w.y;\n"
    " st.global.u32 [%rd3+8], %r2;\n ret;\n}\n";

// Load `ptx` with an error log; the result, and the log in `log`.
static CUresult load(const char *ptx, CUmodule *m, char *log, size_t n)
{
    CUjit_option o[2] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
    void *v[2] = { log, (void *)n };
    log[0] = 0;
    return cuModuleLoadDataEx(m, ptx, 2, o, v);
}

static void expect_load_error(const char *ptx, CUresult want, const char *log_has,
                              const char *what)
{
    CUmodule m;
    char log[2048];
    CUresult r = load(ptx, &m, log, sizeof log);
    const char *name = "?";
    cuGetErrorName(r, &name);
    EXPECT(r == want, "%s: cuModuleLoadDataEx returned %s", what, name);
    EXPECT(!log_has || strstr(log, log_has), "%s: the error log does not say '%s': %s", what,
           log_has, log);
}

int main()
{
    CUdevice dev;
    CUcontext ctx;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuCtxCreate(&ctx, NULL, 0, dev));

    CUdeviceptr d = 0;
    EXPECT(cuMemAlloc(&d, 0) == CUDA_ERROR_INVALID_VALUE, "cuMemAlloc of 0 bytes");
    EXPECT(cuMemAllocManaged(&d, 0, CU_MEM_ATTACH_GLOBAL) == CUDA_ERROR_INVALID_VALUE,
           "cuMemAllocManaged of 0 bytes");
    size_t pitch;
    EXPECT(cuMemAllocPitch(&d, &pitch, 0, 4, 4) == CUDA_ERROR_INVALID_VALUE,
           "cuMemAllocPitch of width 0");

    expect_load_error("", CUDA_ERROR_INVALID_PTX, ".version", "empty PTX");
    expect_load_error("// nothing but a comment\n/* and another */\n", CUDA_ERROR_INVALID_PTX,
                      ".version", "comment-only PTX");
    expect_load_error(newer, CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "9.9", ".version 9.9");
    expect_load_error(big_shared, CUDA_ERROR_INVALID_PTX, "too much shared data", "48 KB + 4");
    expect_load_error(big_params, CUDA_ERROR_INVALID_PTX, "too much parameter space",
                      "32768 bytes of parameters");
    expect_load_error(big_local, CUDA_ERROR_INVALID_PTX, "too much local data",
                      "512 KB + 4 of local memory");

    CUmodule m;
    char log[2048];
    CUresult r = load(regcalls, &m, log, sizeof log);
    EXPECT(r == CUDA_SUCCESS, "vector and predicate call operands: %d: %s", (int)r, log);
    CUfunction f;
    CK(cuModuleGetFunction(&f, m, "k"));
    const int n = 40;
    CK(cuMemAlloc(&d, n * 12));
    void *args[] = { &d };
    CK(cuLaunchKernel(f, 1, 1, 1, n, 1, 1, 0, NULL, args, NULL));
    CK(cuCtxSynchronize());
    unsigned h[n * 3];
    CK(cuMemcpyDtoH(h, d, sizeof h));
    for (int t = 0; t < n; t++) {
        EXPECT(h[3 * t] == (unsigned)t + 500 && h[3 * t + 1] == (unsigned)t,
               "swap2 of thread %d: {%u, %u}", t, h[3 * t], h[3 * t + 1]);
        EXPECT(h[3 * t + 2] == (unsigned)(t >= 7), "neg of thread %d: %u", t, h[3 * t + 2]);
    }
    CK(cuMemFree(d));
    CK(cuModuleUnload(m));
    CK(cuCtxDestroy(ctx));
    printf("api_jitload: PASSED\n");
    return 0;
}
