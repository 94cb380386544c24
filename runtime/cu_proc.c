/* cu_proc.c - cuGetProcAddress: the driver API's functions by name, in the version asked. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
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

/* When each versioned entry point of a name appeared (generated from cudaTypedefs.h). */
typedef struct { const char *name; int version[8]; } cu_versions;
static const cu_versions g_versions[] = {
#include "cu_versions.h"
};

static int versions_cmp(const void *key, const void *elem)
{
    return strcmp(key, ((const cu_versions *)elem)->name);
}

/* The entry point of `symbol` that a program built for CUDA `cudaVersion` calls: the newest
 * one that appeared at or before that version (cuCtxCreate asked with 3020 is cuCtxCreate_v2,
 * with 12050 cuCtxCreate_v4); with the per-thread flag its _ptsz / _ptds variant where one
 * exists. A name with no version history is looked up as it is. Sets *too_old when every
 * entry point of the name is newer than cudaVersion. */
static void *proc_lookup(const char *symbol, int cudaVersion, int per_thread, int *too_old)
{
    char name[256];
    *too_old = 0;
    if (strlen(symbol) > 200 || strncmp(symbol, "cu", 2)) return NULL;
    const cu_versions *v = bsearch(symbol, g_versions, sizeof g_versions / sizeof *g_versions,
                                   sizeof *g_versions, versions_cmp);
    int which = 1;                              /* 1: NAME, 2: NAME_v2 ... */
    if (v) {
        which = 0;
        for (int i = 0; i < 8 && v->version[i]; i++)
            if (v->version[i] <= cudaVersion) which = i + 1;
        if (!which) {
            *too_old = 1;
            return NULL;
        }
    }
    if (which > 1) snprintf(name, sizeof name, "%s_v%d", symbol, which);
    else snprintf(name, sizeof name, "%s", symbol);
    if (per_thread) {
        static const char *const suffix[2] = { "_ptsz", "_ptds" };
        size_t n = strlen(name);
        for (int k = 0; k < 2; k++) {
            snprintf(name + n, sizeof name - n, "%s", suffix[k]);
            void *f = own_symbol(name);
            if (f) return f;
        }
        name[n] = 0;
    }
    return own_symbol(name);
}

static CUresult proc_address(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *status)
{
    if (!symbol || !pfn || cudaVersion < 0 || flags > 3) return CUDA_ERROR_INVALID_VALUE;
    int too_old;
    void *f = proc_lookup(symbol, cudaVersion,
                          (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0, &too_old);
    *pfn = f;
    if (status)
        *status = f ? CU_GET_PROC_ADDRESS_SUCCESS
                  : too_old ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
                  : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
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
