// api_driver.cu - the driver API on its own: cuInit, devices, a context, a module loaded from
// PTX text embedded here, cuLaunchKernel with kernelParams and with the `extra` buffer,
// module globals, memsets, streams/events, attributes, occupancy, errors, cuGetProcAddress.
// nvcc-flags: -lcuda
#include <dlfcn.h>
#include "cu_check.h"

// y[i] = a * x[i] + bias, where bias is a module global set by the host.
static const char ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .global .align 4 .f32 bias;\n"
    ".visible .entry axpb(.param .u64 y, .param .u64 x, .param .f32 a, .param .u32 n)\n{\n"
    " .reg .pred %p<2>; .reg .b32 %r<6>; .reg .f32 %f<6>; .reg .b64 %rd<8>;\n"
    " ld.param.u64 %rd1, [y]; ld.param.u64 %rd2, [x]; ld.param.f32 %f1, [a];\n"
    " ld.param.u32 %r1, [n];\n"
    " mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x;\n"
    " mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    " setp.ge.u32 %p1, %r5, %r1;\n @%p1 bra DONE;\n"
    " cvta.to.global.u64 %rd3, %rd2; cvta.to.global.u64 %rd4, %rd1;\n"
    " mul.wide.u32 %rd5, %r5, 4; add.s64 %rd6, %rd3, %rd5; add.s64 %rd7, %rd4, %rd5;\n"
    " ld.global.f32 %f2, [%rd6]; ld.global.f32 %f3, [bias];\n"
    " fma.rn.f32 %f4, %f1, %f2, %f3;\n st.global.f32 [%rd7], %f4;\n"
    "DONE:\n ret;\n}\n"
    // out[y * ntid + x] = tex2D(t, x + 0.5, y + 0.5).x, one block per row
    ".visible .entry fetch(.param .u64 out, .param .u64 t)\n{\n"
    " .reg .b32 %r<5>; .reg .f32 %f<8>; .reg .b64 %rd<6>;\n"
    " ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [t];\n"
    " mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x;\n"
    " cvt.rn.f32.u32 %f1, %r1; add.f32 %f1, %f1, 0f3F000000;\n"
    " cvt.rn.f32.u32 %f2, %r2; add.f32 %f2, %f2, 0f3F000000;\n"
    " tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd2, {%f1, %f2}];\n"
    " mad.lo.s32 %r4, %r2, %r3, %r1;\n"
    " cvta.to.global.u64 %rd3, %rd1; mul.wide.u32 %rd4, %r4, 4; add.s64 %rd5, %rd3, %rd4;\n"
    " st.global.f32 [%rd5], %f3;\n ret;\n}\n";

int main()
{
    CUdevice dev;
    int count = 0;
    EXPECT(cuDeviceGetCount(&count) == CUDA_ERROR_NOT_INITIALIZED, "calls before cuInit");
    CK(cuInit(0));
    CK(cuDeviceGetCount(&count));
    EXPECT(count == 1, "%d devices", count);
    CK(cuDeviceGet(&dev, 0));
    char name[256];
    CK(cuDeviceGetName(name, sizeof name, dev));
    int major = 0, minor = 0, sms = 0, drv = 0;
    CK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    CK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    CK(cuDriverGetVersion(&drv));
    EXPECT(major >= 8 && sms > 0 && drv >= 13000, "cc %d.%d, %d SMs, driver %d", major, minor,
           sms, drv);
    size_t total = 0;
    CK(cuDeviceTotalMem(&total, dev));
    EXPECT(total > (1ull << 30), "total memory %zu", total);

    CUcontext ctx, cur;
    CUmodule mod;
    EXPECT(cuModuleLoadData(&mod, ptx) == CUDA_ERROR_INVALID_CONTEXT, "module without context");
    CK(cuCtxCreate(&ctx, NULL, 0, dev));
    CK(cuCtxGetCurrent(&cur));
    EXPECT(cur == ctx, "current context");
    CK(cuModuleLoadData(&mod, ptx));
    CUfunction f;
    CK(cuModuleGetFunction(&f, mod, "axpb"));
    EXPECT(cuModuleGetFunction(&f, mod, "nope") == CUDA_ERROR_NOT_FOUND, "missing function");
    CK(cuModuleGetFunction(&f, mod, "axpb"));
    CUdeviceptr bias;
    size_t bias_size = 0;
    CK(cuModuleGetGlobal(&bias, &bias_size, mod, "bias"));
    EXPECT(bias_size == 4, "bias is %zu bytes", bias_size);
    float b = 0.25f;
    CK(cuMemcpyHtoD(bias, &b, sizeof b));

    const unsigned n = 1000;
    float *hx = (float *)malloc(n * 4), *hy = (float *)malloc(n * 4);
    for (unsigned i = 0; i < n; i++) hx[i] = (float)i * 0.5f - 100.0f;
    CUdeviceptr x, y;
    CK(cuMemAlloc(&x, n * 4));
    CK(cuMemAlloc(&y, n * 4));
    CK(cuMemcpyHtoD(x, hx, n * 4));
    CK(cuMemsetD32(y, 0x7fc00000u, n));   // NaN everywhere, every element overwritten below
    int minGrid = 0, block = 0;
    CK(cuOccupancyMaxPotentialBlockSize(&minGrid, &block, f, NULL, 0, 0));
    EXPECT(block > 0 && block % 32 == 0 && minGrid >= sms, "block %d grid %d", block, minGrid);
    int maxt = 0, regs = 0;
    CK(cuFuncGetAttribute(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
    CK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    EXPECT(maxt >= block && regs > 0, "max threads %d, regs %d", maxt, regs);

    float a = 3.0f;
    void *args[] = {&y, &x, &a, (void *)&n};
    unsigned grid = (n + 255) / 256;
    CK(cuLaunchKernel(f, grid, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
    CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH(hy, y, n * 4));
    for (unsigned i = 0; i < n; i++)
        EXPECT(hy[i] == 3.0f * hx[i] + 0.25f, "y[%u] = %g", i, hy[i]);

    // the same launch through the extra buffer form, on a stream with events
    struct { CUdeviceptr y, x; float a; unsigned n; } pk = {y, x, -1.0f, n};
    size_t pks = sizeof pk;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &pk, CU_LAUNCH_PARAM_BUFFER_SIZE, &pks,
                     CU_LAUNCH_PARAM_END};
    CUstream s;
    CUevent e0, e1;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
    CK(cuEventCreate(&e1, CU_EVENT_DEFAULT));
    CK(cuEventRecord(e0, s));
    CK(cuLaunchKernel(f, grid, 1, 1, 256, 1, 1, 0, s, NULL, extra));
    CK(cuEventRecord(e1, s));
    CK(cuMemcpyDtoHAsync(hy, y, n * 4, s));
    CK(cuStreamSynchronize(s));
    float ms = -1;
    CK(cuEventElapsedTime(&ms, e0, e1));
    EXPECT(ms >= 0, "elapsed %g", ms);
    for (unsigned i = 0; i < n; i++)
        EXPECT(hy[i] == -hx[i] + 0.25f, "extra launch: y[%u] = %g", i, hy[i]);

    // launch errors and pointers
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, NULL, args, NULL) != CUDA_SUCCESS,
           "oversized block accepted");
    unsigned mt = 0;
    CK(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, x + 40));
    EXPECT(mt == CU_MEMORYTYPE_DEVICE, "memory type %u", mt);
    CUdeviceptr base;
    size_t size;
    CK(cuMemGetAddressRange(&base, &size, x + 40));
    EXPECT(base == x && size == n * 4, "address range");

    // a CUDA array filled by cuMemcpy2D, read by a texture object and copied back
    const int TW = 16, TH = 8;
    float img[TH][TW], back[TH][TW];
    for (int yy = 0; yy < TH; yy++)
        for (int xx = 0; xx < TW; xx++) img[yy][xx] = (float)(yy * 100 + xx);
    CUDA_ARRAY_DESCRIPTOR ad;
    memset(&ad, 0, sizeof ad);
    ad.Width = TW;
    ad.Height = TH;
    ad.Format = CU_AD_FORMAT_FLOAT;
    ad.NumChannels = 1;
    CUarray arr;
    CK(cuArrayCreate(&arr, &ad));
    CUDA_MEMCPY2D m;
    memset(&m, 0, sizeof m);
    m.srcMemoryType = CU_MEMORYTYPE_HOST;
    m.srcHost = img;
    m.srcPitch = TW * sizeof(float);
    m.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    m.dstArray = arr;
    m.WidthInBytes = TW * sizeof(float);
    m.Height = TH;
    CK(cuMemcpy2D(&m));
    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = arr;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
    td.filterMode = CU_TR_FILTER_MODE_POINT;
    CUtexObject tex;
    CK(cuTexObjectCreate(&tex, &rd, &td, NULL));
    CUfunction fetch;
    CK(cuModuleGetFunction(&fetch, mod, "fetch"));
    void *targs[] = {&y, &tex};
    CK(cuLaunchKernel(fetch, TH, 1, 1, TW, 1, 1, 0, NULL, targs, NULL));
    CK(cuMemcpyDtoH(back, y, sizeof back));
    EXPECT(!memcmp(back, img, sizeof img), "texture fetch differs from the array");
    memset(back, 0, sizeof back);
    m.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    m.srcArray = arr;
    m.srcHost = NULL;
    m.srcPitch = 0;
    m.dstMemoryType = CU_MEMORYTYPE_HOST;
    m.dstHost = back;
    m.dstPitch = TW * sizeof(float);
    CK(cuMemcpy2D(&m));
    EXPECT(!memcmp(back, img, sizeof img), "array round trip differs");
    CUDA_ARRAY_DESCRIPTOR got;
    CK(cuArrayGetDescriptor(&got, arr));
    EXPECT(got.Width == TW && got.Height == TH && got.Format == CU_AD_FORMAT_FLOAT, "descriptor");
    CK(cuTexObjectDestroy(tex));
    CK(cuArrayDestroy(arr));

    // a cubin is refused with a clear error
    static const unsigned char elf[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    CUmodule bad;
    EXPECT(cuModuleLoadData(&bad, elf) == CUDA_ERROR_INVALID_IMAGE, "cubin accepted");
    // broken PTX
    EXPECT(cuModuleLoadData(&bad, ".version 8.0\n.target sm_80\nbogus;\n") ==
               CUDA_ERROR_INVALID_PTX, "bad PTX accepted");

    const char *en = NULL, *es = NULL;
    CK(cuGetErrorName(CUDA_ERROR_ILLEGAL_ADDRESS, &en));
    CK(cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &es));
    EXPECT(!strcmp(en, "CUDA_ERROR_ILLEGAL_ADDRESS") && !strcmp(es, "invalid argument"),
           "error texts %s / %s", en, es);
    EXPECT(cuGetErrorName((CUresult)12345, &en) == CUDA_ERROR_INVALID_VALUE, "unknown code");

    void *fn = NULL;
    CUdriverProcAddressQueryResult qr;
    CK(cuGetProcAddress("cuMemAlloc", &fn, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &qr));
    EXPECT(fn && qr == CU_GET_PROC_ADDRESS_SUCCESS, "cuGetProcAddress(cuMemAlloc)");
    CUdeviceptr z;
    CK(((CUresult(*)(CUdeviceptr *, size_t))fn)(&z, 64));
    CK(cuMemFree(z));
    // the same PTX as a library (no context needed to load it): its one kernel and global
    CUlibrary lib;
    CK(cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0));
    unsigned nk = 0;
    CK(cuLibraryGetKernelCount(&nk, lib));
    EXPECT(nk == 2, "library has %u kernels", nk);
    CUkernel kern;
    CK(cuLibraryGetKernel(&kern, lib, "axpb"));
    const char *kname = NULL;
    CK(cuKernelGetName(&kname, kern));
    EXPECT(!strcmp(kname, "axpb"), "kernel name %s", kname);
    CUfunction kf;
    CK(cuKernelGetFunction(&kf, kern));
    CUdeviceptr lbias;
    size_t lbias_size = 0;
    CK(cuLibraryGetGlobal(&lbias, &lbias_size, lib, "bias"));
    float lb = -1.0f;
    CK(cuMemcpyHtoD(lbias, &lb, sizeof lb));
    CUdeviceptr lx, ly;
    CK(cuMemAlloc(&lx, 64 * 4));
    CK(cuMemAlloc(&ly, 64 * 4));
    float h64[64];
    for (int i = 0; i < 64; i++) h64[i] = (float)i;
    CK(cuMemcpyHtoD(lx, h64, sizeof h64));
    float la = 3.0f;
    unsigned ln = 64;
    void *largs[] = { &ly, &lx, &la, &ln };
    CK(cuLaunchKernel(kf, 1, 1, 1, 64, 1, 1, 0, NULL, largs, NULL));
    CK(cuMemcpyDtoH(h64, ly, sizeof h64));
    for (int i = 0; i < 64; i++)
        EXPECT(h64[i] == 3.0f * i - 1.0f, "library kernel y[%d] = %g", i, h64[i]);
    CK(cuMemFree(lx));
    CK(cuMemFree(ly));
    CK(cuLibraryUnload(lib));
    CUlibrary badlib;
    EXPECT(cuLibraryLoadData(&badlib, ".version 8.0\n.target sm_80\n.address_size 64\nbogus;\n",
                             NULL, NULL, 0, NULL, NULL, 0) == CUDA_ERROR_INVALID_PTX,
           "bad PTX loaded as a library");

    // the entry point of the version asked for (cudaTypedefs.h: cuCtxCreate 2000, 3020 (_v2),
    // 11040 (_v3), 12050 (_v4)); the per-thread variant with its flag; too old a version
    const struct { const char *name; int version; unsigned long long flags; const char *sym; }
        gpa[] = {
            { "cuCtxCreate", 2000, 0, "cuCtxCreate" },
            { "cuCtxCreate", 3020, 0, "cuCtxCreate_v2" },
            { "cuCtxCreate", 11040, 0, "cuCtxCreate_v3" },
            { "cuCtxCreate", 12049, 0, "cuCtxCreate_v3" },
            { "cuCtxCreate", 13000, 0, "cuCtxCreate_v4" },
            { "cuMemcpyHtoD", 7000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
              "cuMemcpyHtoD_v2_ptds" },
            { "cuMemcpyHtoDAsync", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
              "cuMemcpyHtoDAsync_v2_ptsz" },
            { "cuStreamSynchronize", 13000, CU_GET_PROC_ADDRESS_DEFAULT, "cuStreamSynchronize" },
        };
    for (size_t i = 0; i < sizeof gpa / sizeof gpa[0]; i++) {
        CK(cuGetProcAddress(gpa[i].name, &fn, gpa[i].version, gpa[i].flags, &qr));
        void *want = dlsym(RTLD_DEFAULT, gpa[i].sym);
        EXPECT(want && fn == want && qr == CU_GET_PROC_ADDRESS_SUCCESS,
               "cuGetProcAddress(%s, %d) is not %s", gpa[i].name, gpa[i].version, gpa[i].sym);
    }
    EXPECT(cuGetProcAddress("cuCtxCreate", &fn, 1000, 0, &qr) == CUDA_ERROR_NOT_FOUND && !fn &&
               qr == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT, "cuCtxCreate before CUDA 2.0");
    EXPECT(cuGetProcAddress("cuNoSuchThing", &fn, 13000, 0, &qr) == CUDA_ERROR_NOT_FOUND &&
               qr == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND, "unknown name found");

    CK(cuStreamDestroy(s));
    CK(cuEventDestroy(e0));
    CK(cuEventDestroy(e1));
    CK(cuMemFree(x));
    CK(cuMemFree(y));
    CK(cuModuleUnload(mod));
    CK(cuCtxDestroy(ctx));
    printf("api_driver: PASSED\n");
    return 0;
}
// cuda-static-build
