/* cu_link.c - driver API: the JIT linker (cuLink*) over the runtime's PTX linker (rt_link.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cu_int.h"
#include "rt.h"

#define CU_EXPORT __attribute__((visibility("default")))

/* A link state collects PTX texts (a fat binary contributes its PTX); cuLinkComplete joins
 * them with rt_ptx_link, checks that the result parses and that every called .extern function
 * is defined, and keeps the linked text (NUL-terminated) as the image, which cuModuleLoadData
 * accepts as PTX. The output options given to cuLinkCreate (log buffers and their sizes, wall
 * time) are written as the real driver does: the arrays must live as long as the state. */
typedef struct cu_link {
    char **texts;
    size_t *lens;
    int n, cap;
    char *image;
    size_t image_len;
    unsigned nopt;
    int *opts;
    void **vals;
    char *err, *info;              /* the caller's log buffers and their sizes */
    size_t errlen, infolen;
    size_t errused, infoused;
    double ms;                     /* time spent in the linker so far */
    struct cu_link *next;
} cu_link;

typedef struct CUlinkState_st *CUlinkState;

enum { JIT_WALL_TIME = 2, JIT_INFO_LOG = 3, JIT_INFO_LOG_SIZE = 4, JIT_ERROR_LOG = 5,
       JIT_ERROR_LOG_SIZE = 6 };
enum { JIT_INPUT_CUBIN, JIT_INPUT_PTX, JIT_INPUT_FATBINARY, JIT_INPUT_OBJECT,
       JIT_INPUT_LIBRARY, JIT_INPUT_NVVM };

static cu_link *links;   /* live states, under the runtime's lock */

static cu_link *link_of(CUlinkState h)
{
    for (cu_link *l = links; l; l = l->next)
        if ((void *)l == (void *)h) return l;
    return NULL;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Append a line to a log buffer (cut at its size, always NUL-terminated). */
static void log_add(char *buf, size_t len, size_t *used, const char *msg)
{
    if (!buf || !len || *used >= len - 1) return;
    int k = snprintf(buf + *used, len - *used, "%s%s", *used ? "\n" : "", msg);
    if (k > 0) *used += (size_t)k < len - *used ? (size_t)k : len - 1 - *used;
}

static void link_error(cu_link *l, const char *fmt, const char *a, const char *b)
{
    char msg[640];
    snprintf(msg, sizeof msg, fmt, a, b);
    rt_warn("%s", msg);
    log_add(l->err, l->errlen, &l->errused, msg);
    if (l->err && l->errlen) l->err[l->errused] = 0;
}

/* The output options: the sizes filled and the wall time, into the caller's values array. */
static void link_write_options(cu_link *l)
{
    for (unsigned i = 0; i < l->nopt; i++) {
        if (l->opts[i] == JIT_WALL_TIME) {
            float f = (float)l->ms;
            void *v = NULL;
            memcpy(&v, &f, sizeof f);
            l->vals[i] = v;
        } else if (l->opts[i] == JIT_INFO_LOG_SIZE && l->info) {
            l->vals[i] = (void *)(uintptr_t)(l->infoused + (l->infolen ? 1 : 0));
        } else if (l->opts[i] == JIT_ERROR_LOG_SIZE && l->err) {
            l->vals[i] = (void *)(uintptr_t)(l->errused + (l->errlen ? 1 : 0));
        }
    }
}

CU_EXPORT CUresult cuLinkCreate_v2(unsigned int numOptions, int *options, void **optionValues,
                                   CUlinkState *stateOut)
{
    if (!stateOut || (numOptions && (!options || !optionValues))) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = cu_ctx_current();
    if (r) return r;
    cu_link *l = calloc(1, sizeof *l);
    if (!l) return CUDA_ERROR_OUT_OF_MEMORY;
    l->nopt = numOptions;
    l->opts = options;
    l->vals = optionValues;
    for (unsigned i = 0; i < numOptions; i++) {
        switch (options[i]) {
        case JIT_INFO_LOG: l->info = optionValues[i]; break;
        case JIT_INFO_LOG_SIZE: l->infolen = (size_t)(uintptr_t)optionValues[i]; break;
        case JIT_ERROR_LOG: l->err = optionValues[i]; break;
        case JIT_ERROR_LOG_SIZE: l->errlen = (size_t)(uintptr_t)optionValues[i]; break;
        default: break;   /* optimisation levels, register limits, targets: no meaning here */
        }
    }
    if (l->err && l->errlen) l->err[0] = 0;
    if (l->info && l->infolen) l->info[0] = 0;
    RT_BEGIN();
    l->next = links;
    links = l;
    rt_unlock();
    *stateOut = (CUlinkState)(void *)l;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuLinkCreate(unsigned int numOptions, int *options, void **optionValues,
                                CUlinkState *stateOut)
{
    return cuLinkCreate_v2(numOptions, options, optionValues, stateOut);
}

/* Add one input (the caller holds the lock). */
static CUresult link_add(cu_link *l, int type, const void *data, size_t size, const char *name)
{
    if (!name || !*name) name = "input";
    char *ptx = NULL;
    size_t len = 0;
    const unsigned char *p = data;
    if (type == JIT_INPUT_PTX) {
        if (!size) return CUDA_ERROR_INVALID_VALUE;
        len = strnlen(data, size);
        if (!(ptx = malloc(len + 1))) return CUDA_ERROR_OUT_OF_MEMORY;
        memcpy(ptx, data, len);
        ptx[len] = 0;
    } else if (type == JIT_INPUT_FATBINARY) {
        uint32_t magic = 0;
        if (size >= 16) memcpy(&magic, p, 4);
        if (magic == RT_FATBINC_MAGIC) {
            const void *inner;
            memcpy(&inner, p + 8, sizeof inner);
            p = inner;
            size = (size_t)1 << 30;
            memcpy(&magic, p, 4);
        }
        size_t n = magic == RT_FATBIN_MAGIC ? rt_fatbin_size(p, size) : 0;
        char why[256];
        if (!n) {
            link_error(l, "%s is not a fat binary%s", name, "");
            return CUDA_ERROR_INVALID_IMAGE;
        }
        if (rt_fatbin_ptx(p, n, &ptx, &len, why, sizeof why)) {
            link_error(l, "%s: %s (ptxdbg links PTX only)", name, why);
            return CUDA_ERROR_INVALID_IMAGE;
        }
    } else if (type == JIT_INPUT_CUBIN) {
        link_error(l, "%s is a cubin (SASS only): ptxdbg links PTX; add the PTX text (nvcc "
                   "-ptx, NVRTC) or a fat binary that carries PTX%s", name, "");
        return CUDA_ERROR_INVALID_IMAGE;
    } else if (type == JIT_INPUT_OBJECT || type == JIT_INPUT_LIBRARY || type == JIT_INPUT_NVVM) {
        link_error(l, "%s: %s inputs are not supported by ptxdbg's linker; add PTX or a fat "
                   "binary that carries PTX", name,
                   type == JIT_INPUT_OBJECT ? "object" : type == JIT_INPUT_LIBRARY ? "library"
                                                                                   : "NVVM");
        return CUDA_ERROR_NOT_SUPPORTED;
    } else {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (l->n == l->cap) {
        int nc = l->cap ? l->cap * 2 : 8;
        char **nt = realloc(l->texts, sizeof *nt * (size_t)nc);
        if (nt) l->texts = nt;
        size_t *nl = nt ? realloc(l->lens, sizeof *nl * (size_t)nc) : NULL;
        if (!nl) {
            free(ptx);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        l->lens = nl;
        l->cap = nc;
    }
    l->texts[l->n] = ptx;
    l->lens[l->n++] = len;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuLinkAddData_v2(CUlinkState state, int type, void *data, size_t size,
                                    const char *name, unsigned int numOptions, int *options,
                                    void **optionValues)
{
    (void)optionValues;
    if (numOptions && !options) return CUDA_ERROR_INVALID_VALUE;
    RT_BEGIN();
    cu_link *l = link_of(state);
    CUresult r = !l ? CUDA_ERROR_INVALID_HANDLE
                 : !data ? CUDA_ERROR_INVALID_VALUE
                 : l->image ? CUDA_ERROR_INVALID_HANDLE
                 : CUDA_SUCCESS;
    if (!r) {
        double t0 = now_ms();
        r = link_add(l, type, data, size, name);
        l->ms += now_ms() - t0;
        link_write_options(l);
    }
    rt_unlock();
    return r;
}

CU_EXPORT CUresult cuLinkAddData(CUlinkState state, int type, void *data, size_t size,
                                 const char *name, unsigned int numOptions, int *options,
                                 void **optionValues)
{
    return cuLinkAddData_v2(state, type, data, size, name, numOptions, options, optionValues);
}

CU_EXPORT CUresult cuLinkAddFile_v2(CUlinkState state, int type, const char *path,
                                    unsigned int numOptions, int *options, void **optionValues)
{
    if (!path) return CUDA_ERROR_INVALID_VALUE;
    RT_BEGIN();
    cu_link *l = link_of(state);
    rt_unlock();
    if (!l) return CUDA_ERROR_INVALID_HANDLE;
    char *buf;
    size_t n;
    CUresult r = cu_read_file(path, &buf, &n);
    if (r) return r;
    r = n ? cuLinkAddData_v2(state, type, buf, n + 1, path, numOptions, options, optionValues)
          : CUDA_ERROR_INVALID_IMAGE;
    free(buf);
    return r;
}

CU_EXPORT CUresult cuLinkAddFile(CUlinkState state, int type, const char *path,
                                 unsigned int numOptions, int *options, void **optionValues)
{
    return cuLinkAddFile_v2(state, type, path, numOptions, options, optionValues);
}

/* Join the inputs and check the result: parses, and every called function is defined. */
static CUresult link_complete(cu_link *l)
{
    char err[512] = "";
    if (!l->n) {
        link_error(l, "nothing to link: no input was added%s%s", "", "");
        return CUDA_ERROR_INVALID_VALUE;
    }
    char *out;
    size_t outlen;
    if (rt_ptx_link(l->texts, l->lens, l->n, &out, &outlen, err, sizeof err)) {
        link_error(l, "link error: %s%s", err, "");
        return CUDA_ERROR_INVALID_PTX;
    }
    /* it parses, and every function called is defined or one the engine provides (vprintf,
       malloc ...) */
    char why[1024];
    if (dbg_ptx_check_linked(out, outlen, "linked PTX", why, sizeof why)) {
        link_error(l, "%s%s", why, "");
        free(out);
        return CUDA_ERROR_INVALID_PTX;
    }
    l->image = out;
    l->image_len = outlen + 1;
    char msg[128];
    snprintf(msg, sizeof msg, "ptxdbg: linked %d PTX input%s into %zu bytes of PTX", l->n,
             l->n == 1 ? "" : "s", outlen);
    log_add(l->info, l->infolen, &l->infoused, msg);
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
    if (!cubinOut || !sizeOut) return CUDA_ERROR_INVALID_VALUE;
    RT_BEGIN();
    cu_link *l = link_of(state);
    CUresult r = !l ? CUDA_ERROR_INVALID_HANDLE : CUDA_SUCCESS;
    if (!r && !l->image) {
        double t0 = now_ms();
        r = link_complete(l);
        l->ms += now_ms() - t0;
        link_write_options(l);
    }
    if (!r) {
        *cubinOut = l->image;
        *sizeOut = l->image_len;
    }
    rt_unlock();
    return r;
}

CU_EXPORT CUresult cuLinkDestroy(CUlinkState state)
{
    RT_BEGIN();
    cu_link **pp = &links;
    while (*pp && (void *)*pp != (void *)state) pp = &(*pp)->next;
    cu_link *l = *pp;
    if (l) *pp = l->next;
    rt_unlock();
    if (!l) return CUDA_ERROR_INVALID_HANDLE;
    for (int i = 0; i < l->n; i++) free(l->texts[i]);
    free(l->texts);
    free(l->lens);
    free(l->image);
    free(l);
    return CUDA_SUCCESS;
}
