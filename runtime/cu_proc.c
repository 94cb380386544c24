/* cu_proc.c - cuGetProcAddress: the driver API's functions by name, in the version asked. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "cu_int.h"

#define CU_EXPORT __attribute__((visibility("default")))

/* This library's own exported symbol `name`, or NULL. */
static void *own_symbol(const char *name)
{
    static void *self;
    if (!self) {
        Dl_info info;
        if (!dladdr((void *)own_symbol, &info) || !info.dli_fname) return NULL;
        self = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
        if (!self) return NULL;
    }
    return dlsym(self, name);
}

/* A base name ("cuMemAlloc") resolves to its newest versioned entry point (cuMemAlloc_v2,
 * cuCtxCreate_v4 ...); with CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, to the _ptsz /
 * _ptds variant where one exists. cudaVersion below the driver API's own (13000) is
 * accepted: the versioned entry points keep their old behaviour. */
static CUresult proc_address(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *status)
{
    if (!symbol || !pfn || cudaVersion < 0 || flags > 3) return CUDA_ERROR_INVALID_VALUE;
    char name[256];
    void *f = NULL;
    if (strlen(symbol) > 200 || strncmp(symbol, "cu", 2)) {
        f = NULL;
    } else {
        for (int v = 4; v >= 1 && !f; v--) {
            const char *suffix[3] = { "_ptsz", "_ptds", "" };
            for (int k = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) ? 0 : 2;
                 k < 3 && !f; k++) {
                if (v > 1) snprintf(name, sizeof name, "%s_v%d%s", symbol, v, suffix[k]);
                else snprintf(name, sizeof name, "%s%s", symbol, suffix[k]);
                f = own_symbol(name);
            }
        }
    }
    *pfn = f;
    if (status)
        *status = f ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return f ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

CU_EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
                                       cuuint64_t flags, CUdriverProcAddressQueryResult *status)
{
    return proc_address(symbol, pfn, cudaVersion, flags, status);
}

CU_EXPORT CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion,
                                    cuuint64_t flags)
{
    return proc_address(symbol, pfn, cudaVersion, flags, NULL);
}
