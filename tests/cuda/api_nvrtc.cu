// api_nvrtc.cu - PTX produced at run time by NVRTC (the toolkit's libnvrtc), loaded with
// cuModuleLoadDataEx and launched with cuLaunchKernel; results against a C reference.
// Needs libnvrtc.so.13 when it runs (tests/cuda.sh skips it where the toolkit is absent).
// nvcc-flags: -lcuda -lnvrtc
// cuda-test: 0 ^api_nvrtc:\s[0-9]+\sbytes\sof\sPTX\sPASSED$ -
// cuda-needs: libnvrtc.so.13
#include "cu_check.h"
#include <nvrtc.h>

#define NV(call)                                                                          \
    do {                                                                                  \
        nvrtcResult r_ = (call);                                                          \
        if (r_ != NVRTC_SUCCESS) {                                                        \
            printf("FAILED: %s:%d: %s: %s\n", __FILE__, __LINE__, #call,                  \
                   nvrtcGetErrorString(r_));                                              \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

static const char src[] =
    "template <typename T> __device__ T sq(T v) { return v * v; }\n"
    "extern \"C\" __global__ void poly(int *out, const int *in, int n, int c)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    __shared__ int tile[128];\n"
    "    tile[threadIdx.x] = i < n ? in[i] : 0;\n"
    "    __syncthreads();\n"
    "    int left = threadIdx.x ? tile[threadIdx.x - 1] : 0;\n"
    "    if (i < n) out[i] = sq(tile[threadIdx.x]) - left + c;\n"
    "}\n";

int main()
{
    nvrtcProgram prog;
    NV(nvrtcCreateProgram(&prog, src, "poly.cu", 0, NULL, NULL));
    const char *opts[] = {"--gpu-architecture=compute_80"};
    nvrtcResult cr = nvrtcCompileProgram(prog, 1, opts);
    if (cr != NVRTC_SUCCESS) {
        size_t ls;
        nvrtcGetProgramLogSize(prog, &ls);
        char *log = (char *)malloc(ls + 1);
        nvrtcGetProgramLog(prog, log);
        printf("FAILED: NVRTC: %s\n%s\n", nvrtcGetErrorString(cr), log);
        return 1;
    }
    size_t ptx_size;
    NV(nvrtcGetPTXSize(prog, &ptx_size));
    char *ptx = (char *)malloc(ptx_size);
    NV(nvrtcGetPTX(prog, ptx));
    NV(nvrtcDestroyProgram(&prog));

    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction f;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    char elog[1024] = "";
    CUjit_option o[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *ov[] = {elog, (void *)(size_t)sizeof elog};
    CK(cuModuleLoadDataEx(&mod, ptx, 2, o, ov));
    CK(cuModuleGetFunction(&f, mod, "poly"));

    const int n = 1000, c = 7;
    int *hin = (int *)malloc(n * 4), *hout = (int *)malloc(n * 4);
    for (int i = 0; i < n; i++) hin[i] = (i * 37) % 101 - 50;
    CUdeviceptr in, out;
    CK(cuMemAlloc(&in, n * 4));
    CK(cuMemAlloc(&out, n * 4));
    CK(cuMemcpyHtoD(in, hin, n * 4));
    int nn = n, cc = c;
    void *args[] = {&out, &in, &nn, &cc};
    CK(cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH(hout, out, n * 4));
    for (int i = 0; i < n; i++) {
        int left = i % 128 ? hin[i - 1] : 0;
        int want = hin[i] * hin[i] - left + c;
        if (hout[i] != want) {
            printf("FAILED: out[%d] = %d, want %d\n", i, hout[i], want);
            return 1;
        }
    }
    CK(cuModuleUnload(mod));
    CK(cuDevicePrimaryCtxRelease(dev));
    printf("api_nvrtc: %zu bytes of PTX PASSED\n", ptx_size);
    return 0;
}
