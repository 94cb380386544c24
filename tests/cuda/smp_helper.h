// smp_helper.h - the helper patterns sample-style CUDA programs carry: device selection from the
// SM table, checked calls, last-error checks and event-based stop watches.
#ifndef SMP_HELPER_H
#define SMP_HELPER_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

static const char *smp_err_name(cudaError_t e) { return cudaGetErrorName(e); }

template <typename T>
static void smp_check(T result, const char *what, const char *file, int line)
{
    if (result) {
        fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line, (int)result,
                smp_err_name((cudaError_t)result), what);
        exit(EXIT_FAILURE);
    }
}
#define checkCudaErrors(val) smp_check((val), #val, __FILE__, __LINE__)

#define getLastCudaError(msg) smp_last_error(msg, __FILE__, __LINE__)
static inline void smp_last_error(const char *msg, const char *file, int line)
{
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        fprintf(stderr, "%s(%d) : getLastCudaError() CUDA error : %s : (%d) %s.\n", file, line,
                msg, (int)e, cudaGetErrorString(e));
        exit(EXIT_FAILURE);
    }
}

// cores per SM by compute capability, the way sample helpers size their throughput estimates
static inline int smp_cores_per_sm(int major, int minor)
{
    static const struct { int sm, cores; } table[] = {
        {0x30, 192}, {0x50, 128}, {0x60, 64}, {0x61, 128}, {0x70, 64}, {0x72, 64},
        {0x75, 64},  {0x80, 64},  {0x86, 128}, {0x87, 128}, {0x89, 128}, {0x90, 128},
        {-1, -1}};
    int i = 0;
    while (table[i].sm != -1) {
        if (table[i].sm == ((major << 4) + minor))
            return table[i].cores;
        i++;
    }
    return table[i - 1].cores;
}

// choose the device with the highest cores x clock, as the samples' gpuGetMaxGflopsDeviceId
static inline int findCudaDevice(int argc, const char **argv)
{
    (void)argc;
    (void)argv;
    int count = 0;
    checkCudaErrors(cudaGetDeviceCount(&count));
    if (count == 0) {
        fprintf(stderr, "no CUDA device\n");
        exit(EXIT_FAILURE);
    }
    int best = 0;
    unsigned long long best_perf = 0;
    for (int d = 0; d < count; d++) {
        int mode, major, minor, sms, clock;
        checkCudaErrors(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, d));
        checkCudaErrors(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d));
        checkCudaErrors(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d));
        checkCudaErrors(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d));
        if (cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, d) != cudaSuccess)
            clock = 1;
        if (mode == cudaComputeModeProhibited)
            continue;
        unsigned long long perf =
            (unsigned long long)sms * smp_cores_per_sm(major, minor) * (unsigned)clock;
        if (perf >= best_perf) {
            best_perf = perf;
            best = d;
        }
    }
    checkCudaErrors(cudaSetDevice(best));
    cudaDeviceProp p;
    checkCudaErrors(cudaGetDeviceProperties(&p, best));
    printf("GPU Device %d: \"%s\" with compute capability %d.%d\n\n", best, p.name, p.major,
           p.minor);
    return best;
}

// event stop watch (the samples' StopWatchInterface over cudaEvent)
struct SmpTimer {
    cudaEvent_t a, b;
    SmpTimer()
    {
        checkCudaErrors(cudaEventCreate(&a));
        checkCudaErrors(cudaEventCreate(&b));
    }
    ~SmpTimer()
    {
        cudaEventDestroy(a);
        cudaEventDestroy(b);
    }
    void start(cudaStream_t s = 0) { checkCudaErrors(cudaEventRecord(a, s)); }
    float stop(cudaStream_t s = 0)
    {
        float ms = -1.0f;
        checkCudaErrors(cudaEventRecord(b, s));
        checkCudaErrors(cudaEventSynchronize(b));
        checkCudaErrors(cudaEventElapsedTime(&ms, a, b));
        if (!(ms >= 0.0f)) {
            fprintf(stderr, "negative elapsed time %f\n", ms);
            exit(EXIT_FAILURE);
        }
        return ms;
    }
};

#define SMP_RESULT(name, ok)                                                                 \
    do {                                                                                     \
        printf("%s: %s\n", name, (ok) ? "PASSED" : "FAILED");                                \
        exit((ok) ? EXIT_SUCCESS : EXIT_FAILURE);                                            \
    } while (0)

#endif
