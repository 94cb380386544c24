// api_ptxjit.cu - the driver API's JIT linker, as the ptxjit sample uses it: two PTX units
// embedded here (the kernel calls an .extern function the second unit defines) joined with
// cuLinkCreate / cuLinkAddData / cuLinkComplete, the image loaded with cuModuleLoadData and
// launched; log buffers and wall time options; an unresolved function and unusable inputs.
// nvcc-flags: -lcuda
#include "cu_check.h"

// out[i] = combine(in[i], i) for i < n
static const char ptx_kernel[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".extern .func (.param .b32 r) combine(.param .b32 a, .param .b32 b);\n"
    ".visible .entry apply(.param .u64 out, .param .u64 in, .param .u32 n)\n{\n"
    " .reg .pred %p<2>; .reg .b32 %r<10>; .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [in]; ld.param.u32 %r1, [n];\n"
    " mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x;\n"
    " mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    " setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra DONE;\n"
    " cvta.to.global.u64 %rd3, %rd2; cvta.to.global.u64 %rd4, %rd1;\n"
    " mul.wide.u32 %rd5, %r5, 4; add.s64 %rd6, %rd3, %rd5; add.s64 %rd7, %rd4, %rd5;\n"
    " ld.global.u32 %r6, [%rd6];\n"
    " {\n .param .b32 a0; .param .b32 a1; .param .b32 rv;\n"
    "  st.param.b32 [a0], %r6; st.param.b32 [a1], %r5;\n"
    "  call (rv), combine, (a0, a1);\n"
    "  ld.param.b32 %r7, [rv];\n }\n"
    " st.global.u32 [%rd7], %r7;\n"
    "DONE:\n ret;\n}\n";

// combine(a, b) = 3 * a - b
static const char ptx_func[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .func (.param .b32 r) combine(.param .b32 a, .param .b32 b)\n{\n"
    " .reg .b32 %r<5>;\n"
    " ld.param.b32 %r1, [a]; ld.param.b32 %r2, [b];\n"
    " mul.lo.s32 %r3, %r1, 3; sub.s32 %r4, %r3, %r2;\n"
    " st.param.b32 [r], %r4;\n ret;\n}\n";

static int combine(int a, int b) { return 3 * a - b; }

int main()
{
    CUdevice dev;
    CUcontext ctx;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuCtxCreate(&ctx, NULL, 0, dev));

    char info[1024], err[1024];
    CUjit_option opts[6] = { CU_JIT_WALL_TIME, CU_JIT_INFO_LOG_BUFFER,
                             CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                             CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_OPTIMIZATION_LEVEL };
    void *vals[6] = { 0, info, (void *)(size_t)sizeof info, err, (void *)(size_t)sizeof err,
                      (void *)(size_t)4 };
    CUlinkState ls;
    CK(cuLinkCreate(6, opts, vals, &ls));
    CK(cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void *)ptx_kernel, sizeof ptx_kernel, "kernel.ptx",
                     0, NULL, NULL));
    CK(cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void *)ptx_func, sizeof ptx_func, "func.ptx", 0,
                     NULL, NULL));
    void *image = NULL;
    size_t image_size = 0;
    CK(cuLinkComplete(ls, &image, &image_size));
    float ms;
    memcpy(&ms, &vals[0], sizeof ms);
    EXPECT(image && image_size > 0 && ms >= 0.0f, "image %p, %zu bytes, %f ms", image,
           image_size, (double)ms);
    EXPECT(err[0] == 0, "error log after a good link: %s", err);
    CUmodule mod;
    CK(cuModuleLoadData(&mod, image));
    CK(cuLinkDestroy(ls));   // the module keeps what it needs

    CUfunction f;
    CK(cuModuleGetFunction(&f, mod, "apply"));
    const unsigned n = 777;
    int *hin = (int *)malloc(n * 4), *hout = (int *)malloc(n * 4);
    for (unsigned i = 0; i < n; i++) hin[i] = (int)(i * 7919u % 1000u) - 500;
    CUdeviceptr din, dout;
    CK(cuMemAlloc(&din, n * 4));
    CK(cuMemAlloc(&dout, n * 4));
    CK(cuMemcpyHtoD(din, hin, n * 4));
    unsigned nn = n;
    void *args[] = { &dout, &din, &nn };
    CK(cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH(hout, dout, n * 4));
    for (unsigned i = 0; i < n; i++)
        EXPECT(hout[i] == combine(hin[i], (int)i), "out[%u] = %d, expected %d", i, hout[i],
               combine(hin[i], (int)i));

    // the kernel alone: combine is unresolved, reported in the error log
    CUjit_option eopts[2] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
    void *evals[2] = { err, (void *)(size_t)sizeof err };
    CK(cuLinkCreate(2, eopts, evals, &ls));
    CK(cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void *)ptx_kernel, sizeof ptx_kernel, "kernel.ptx",
                     0, NULL, NULL));
    EXPECT(cuLinkComplete(ls, &image, &image_size) != CUDA_SUCCESS, "unresolved link completed");
    EXPECT(strstr(err, "combine") != NULL, "error log: %s", err);
    // a cubin (ELF) cannot be used; a host object is refused
    static const char elf[64] = "\177ELF\002\001\001";
    EXPECT(cuLinkAddData(ls, CU_JIT_INPUT_CUBIN, (void *)elf, sizeof elf, "a.cubin", 0, NULL,
                         NULL) == CUDA_ERROR_INVALID_IMAGE, "cubin input accepted");
    EXPECT(cuLinkAddData(ls, CU_JIT_INPUT_OBJECT, (void *)elf, sizeof elf, "a.o", 0, NULL,
                         NULL) == CUDA_ERROR_NOT_SUPPORTED, "object input accepted");
    CK(cuLinkDestroy(ls));

    CK(cuMemFree(din));
    CK(cuMemFree(dout));
    CK(cuModuleUnload(mod));
    CK(cuCtxDestroy(ctx));
    free(hin);
    free(hout);
    printf("api_ptxjit: PASSED\n");
    return 0;
}
