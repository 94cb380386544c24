// api_reload.cu - a module unloaded and another loaded in its place (cuModuleUnload, then
// cuModuleLoadData): the debugger must not keep what it read of the first one. Both modules
// name the same source file and kernel; the first maps its code to lines 10-12 and runs
// cleanly, the second maps its code to lines 40-42 and traps at line 42. Under ptxdbg the
// trap is reported at reload.cu:42 (the second module's line table), however the allocator
// places the second module. Exits 0 when both launches behave (the trap fails the second).
// nvcc-flags: -lcuda
// cuda-test: 0 ^api_reload:\sdone$ Warp\sIllegal\sInstruction
#include "cu_check.h"

static const char first[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".file 1 \"reload.cu\"\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .b32 %r<3>; .reg .b64 %rd<3>;\n"
    ".loc 1 10 0\n ld.param.u64 %rd1, [out];\n"
    ".loc 1 11 0\n mov.u32 %r1, 7;\n cvta.to.global.u64 %rd2, %rd1;\n"
    ".loc 1 12 0\n st.global.u32 [%rd2], %r1;\n ret;\n}\n";

static const char second[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".file 1 \"reload.cu\"\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    " .reg .b32 %r<3>; .reg .b64 %rd<3>;\n"
    ".loc 1 40 0\n ld.param.u64 %rd1, [out];\n"
    ".loc 1 41 0\n mov.u32 %r1, 9;\n cvta.to.global.u64 %rd2, %rd1;\n"
    " st.global.u32 [%rd2], %r1;\n"
    ".loc 1 42 0\n trap;\n ret;\n}\n";

static CUresult run(CUmodule *mod, const char *ptx, CUdeviceptr out)
{
    CUfunction f;
    CK(cuModuleLoadData(mod, ptx));
    CK(cuModuleGetFunction(&f, *mod, "k"));
    void *args[] = {&out};
    CUresult e = cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL);
    return e != CUDA_SUCCESS ? e : cuCtxSynchronize();
}

int main()
{
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUdeviceptr out;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuCtxCreate(&ctx, NULL, 0, dev));
    CK(cuMemAlloc(&out, 4));
    CK(run(&mod, first, out));
    unsigned v = 0;
    CK(cuMemcpyDtoH(&v, out, 4));
    EXPECT(v == 7, "first module wrote %u", v);
    CK(cuModuleUnload(mod));
    CUresult e = run(&mod, second, out);
    EXPECT(e == CUDA_ERROR_LAUNCH_FAILED || e == CUDA_ERROR_ILLEGAL_INSTRUCTION,
           "the second module's trap: %d", (int)e);
    printf("api_reload: done\n");
    return 0;
}
