/* cu_export.c - cuGetExportTable: the private driver tables a statically linked CUDA runtime uses. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cu_hash.h"
#include "cu_int.h"
#include "rt.h"

#define CU_EXPORT __attribute__((visibility("default")))

/* A program linked with libcudart_static.a (nvcc's default) carries NVIDIA's runtime inside
 * the executable. It loads libcuda.so.1, resolves the public driver API through
 * cuGetProcAddress, and asks cuGetExportTable for tables of functions identified by UUIDs.
 * Slot 0 of most tables holds the table's size in bytes. What each slot does was learnt from
 * what CUDA 13.0's static runtime asks for and from public write-ups of other implementations
 * (docs/ARCHITECTURE.md, "Statically linked programs"). A slot we do not provide is a function
 * that names its table and slot on stderr and returns CUDA_ERROR_NOT_SUPPORTED. */

enum {
    T_CUDART,           /* the runtime's interface: modules from fat binaries, primary context */
    T_TOOLS_TLS,        /* tools thread-local state: only its size is read */
    T_TOOLS_HOOKS,      /* tools callback hooks: two buffers the runtime reads */
    T_CLS,              /* context-local storage: the runtime's per-context state */
    T_CTX_CHECKS,       /* context checks */
    T_INTEGRITY,        /* the runtime's check that it talks to a genuine driver */
    T_CTX_BYPASS,       /* context creation */
    T_COUNT
};

/* Slots each table array has: beyond the slots a table declares (its size in slot 0), every
 * entry is a reporter too, so a runtime that reads further than the size still gets one. */
#define NSLOTS 16

typedef struct {
    unsigned char uuid[16];
    const char *name;
    int nslots;         /* slots the table has (slot 0 = size, except context-local storage) */
    int sized;          /* slot 0 holds the size */
} cu_table_info;

static const cu_table_info g_info[T_COUNT] = {
    [T_CUDART] = { { 0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a,
                     0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9 }, "cudart interface", 10, 1 },
    [T_TOOLS_TLS] = { { 0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47,
                        0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc }, "tools TLS", 4, 1 },
    [T_TOOLS_HOOKS] = { { 0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74,
                          0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66 },
                        "tools runtime callback hooks", 7, 1 },
    [T_CLS] = { { 0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11,
                  0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93 },
                "context-local storage", 4, 0 },
    [T_CTX_CHECKS] = { { 0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43,
                         0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e }, "context checks", 4, 1 },
    [T_INTEGRITY] = { { 0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b,
                        0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2 }, "driver check", 3, 1 },
    [T_CTX_BYPASS] = { { 0x0c, 0xa5, 0x0b, 0x8c, 0x10, 0x04, 0x92, 0x9a,
                         0x89, 0xa7, 0xd0, 0xdf, 0x10, 0xe7, 0x72, 0x86 },
                       "context creation", 2, 1 },
};

/* Tables the runtime asks for and copes without: refused quietly with CUDA_ERROR_NOT_FOUND. */
static const unsigned char g_declined[][16] = {
    /* asked for before cuInit; a runtime that gets it skips parts of its initialisation */
    { 0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e,
      0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9 },
};

static void uuid_text(const unsigned char *u, char *out, size_t n)
{
    snprintf(out, n, "{%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x}",
             u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
             u[13], u[14], u[15]);
}

/* ---- slots we do not provide ----------------------------------------------------------------- */
static CUresult missing_slot(int table, int slot)
{
    static int said[T_COUNT][NSLOTS];
    if (!__atomic_exchange_n(&said[table][slot], 1, __ATOMIC_RELAXED)) {
        char u[48];
        uuid_text(g_info[table].uuid, u, sizeof u);
        rt_warn("the CUDA runtime linked into this program called slot %d of the driver's "
                "private table %s %s, which ptxdbg does not provide (returns "
                "CUDA_ERROR_NOT_SUPPORTED)", slot, g_info[table].name, u);
    }
    return CUDA_ERROR_NOT_SUPPORTED;
}

#define MISS(t, s) static CUresult miss_##t##_##s(void) { return missing_slot(t, s); }
#define MISS_ALL(t) MISS(t, 0) MISS(t, 1) MISS(t, 2) MISS(t, 3) MISS(t, 4) MISS(t, 5) \
    MISS(t, 6) MISS(t, 7) MISS(t, 8) MISS(t, 9) MISS(t, 10) MISS(t, 11) MISS(t, 12) \
    MISS(t, 13) MISS(t, 14) MISS(t, 15)
#define MISS_ROW(t) { (void *)miss_##t##_0, (void *)miss_##t##_1, (void *)miss_##t##_2, \
    (void *)miss_##t##_3, (void *)miss_##t##_4, (void *)miss_##t##_5, (void *)miss_##t##_6, \
    (void *)miss_##t##_7, (void *)miss_##t##_8, (void *)miss_##t##_9, (void *)miss_##t##_10, \
    (void *)miss_##t##_11, (void *)miss_##t##_12, (void *)miss_##t##_13, (void *)miss_##t##_14, \
    (void *)miss_##t##_15 }
MISS_ALL(0) MISS_ALL(1) MISS_ALL(2) MISS_ALL(3) MISS_ALL(4) MISS_ALL(5) MISS_ALL(6)
static void *const g_missing[T_COUNT][NSLOTS] = {
    MISS_ROW(0), MISS_ROW(1), MISS_ROW(2), MISS_ROW(3), MISS_ROW(4), MISS_ROW(5), MISS_ROW(6),
};

/* ---- the runtime's interface ------------------------------------------------------------------
 * Slot 1 and 6 load a module from a fat binary wrapper (__fatBinC_Wrapper_t), slot 8 from the
 * fat binary itself; slot 2 gives a device's primary context; slot 7 is a notification. */
static CUresult cudart_module(CUmodule *module, const void *image, const void *a3, const void *a4,
                              unsigned a5)
{
    (void)a3, (void)a4, (void)a5;       /* host-variable bookkeeping of the runtime's own */
    return cu_module_from_fatbin(module, image);
}

static void cudart_module_v1(CUmodule *module, const void *wrapper)
{
    (void)cu_module_from_fatbin(module, wrapper);
}

static CUresult cudart_module_ext(CUmodule *module, const void *wrapper, void *a3, void *a4,
                                  unsigned a5)
{
    return cudart_module(module, wrapper, a3, a4, a5);
}

static CUresult cudart_module_hdr(const void *fatbin, CUmodule *module, void *a3, void *a4,
                                  unsigned a5)
{
    return cudart_module(module, fatbin, a3, a4, a5);
}

static CUresult cudart_primary_ctx(CUcontext *pctx, CUdevice dev)
{
    if (!pctx) return CUDA_ERROR_INVALID_VALUE;
    if (!rt_dev_valid(dev)) return CUDA_ERROR_INVALID_DEVICE;
    *pctx = cu_primary_ctx();
    return CUDA_SUCCESS;
}

static void cudart_note(uintptr_t arg)
{
    (void)arg;
}

/* ---- tools hooks: buffers the runtime reads (all zero: no tool is attached) ------------------ */
static uint64_t g_hooks_buf1[512];
static uint64_t g_hooks_buf2[8];

static void hooks_buf1(void **ptr, size_t *size)
{
    if (ptr) *ptr = g_hooks_buf1;
    if (size) *size = sizeof g_hooks_buf1;
}

static void hooks_buf2(void **ptr, size_t *size)
{
    if (ptr) *ptr = g_hooks_buf2;
    if (size) *size = sizeof g_hooks_buf2;
}

/* ---- context-local storage ------------------------------------------------------------------
 * The runtime keeps its state per context under a key: put (ctx, key, value, destructor),
 * delete, get. A NULL context is the calling thread's current one. The destructors run when
 * the context is destroyed or the primary context reset (cu_cls_destroy). */
typedef void (*cls_dtor)(CUcontext ctx, void *key, void *value);
typedef struct { CUcontext ctx; void *key, *value; cls_dtor dtor; } cls_entry;
static cls_entry *g_cls;
static size_t g_ncls, g_cls_cap;
static pthread_mutex_t g_cls_lock = PTHREAD_MUTEX_INITIALIZER;

static CUcontext cls_ctx(CUcontext ctx)
{
    if (ctx) return ctx;
    CUcontext cur = NULL;
    cuCtxGetCurrent(&cur);
    return cur;
}

static CUresult cls_put(CUcontext ctx, void *key, void *value, cls_dtor dtor)
{
    ctx = cls_ctx(ctx);
    if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
    CUresult r = CUDA_SUCCESS;
    pthread_mutex_lock(&g_cls_lock);
    size_t i = 0;
    while (i < g_ncls && !(g_cls[i].ctx == ctx && g_cls[i].key == key)) i++;
    if (i == g_ncls) {
        if (g_ncls == g_cls_cap) {
            size_t nc = g_cls_cap ? 2 * g_cls_cap : 8;
            cls_entry *n = realloc(g_cls, nc * sizeof *n);
            if (!n) r = CUDA_ERROR_OUT_OF_MEMORY;
            else g_cls = n, g_cls_cap = nc;
        }
        if (!r) g_ncls++;
    }
    if (!r) g_cls[i] = (cls_entry){ ctx, key, value, dtor };
    pthread_mutex_unlock(&g_cls_lock);
    return r;
}

static CUresult cls_delete(CUcontext ctx, void *key)
{
    ctx = cls_ctx(ctx);
    pthread_mutex_lock(&g_cls_lock);
    size_t k = 0;
    for (size_t i = 0; i < g_ncls; i++)
        if (!(g_cls[i].ctx == ctx && g_cls[i].key == key)) g_cls[k++] = g_cls[i];
    CUresult r = k < g_ncls ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
    g_ncls = k;
    pthread_mutex_unlock(&g_cls_lock);
    return r;
}

static CUresult cls_get(void **value, CUcontext ctx, void *key)
{
    if (!value) return CUDA_ERROR_INVALID_VALUE;
    ctx = cls_ctx(ctx);
    if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
    CUresult r = CUDA_ERROR_INVALID_HANDLE;
    pthread_mutex_lock(&g_cls_lock);
    for (size_t i = 0; i < g_ncls; i++)
        if (g_cls[i].ctx == ctx && g_cls[i].key == key) {
            *value = g_cls[i].value;
            r = CUDA_SUCCESS;
            break;
        }
    pthread_mutex_unlock(&g_cls_lock);
    return r;
}

void cu_cls_destroy(CUcontext ctx)
{
    for (;;) {
        cls_entry e = { 0 };
        pthread_mutex_lock(&g_cls_lock);
        for (size_t i = 0; i < g_ncls; i++)
            if (g_cls[i].ctx == ctx) {
                e = g_cls[i];
                g_cls[i] = g_cls[--g_ncls];
                break;
            }
        pthread_mutex_unlock(&g_cls_lock);
        if (!e.ctx) return;
        if (e.dtor) e.dtor(ctx, e.key, e.value);   /* may call back into the driver */
    }
}

/* ---- context checks -------------------------------------------------------------------------- */
static CUresult check_ctx(CUcontext ctx, unsigned *flag, const void **extra)
{
    (void)ctx, (void)extra;
    if (flag) *flag = 0;
    return CUDA_SUCCESS;
}

static unsigned check_none(void)
{
    return 0;
}

/* ---- the driver check -------------------------------------------------------------------------
 * check(version, unix time, out[2]): for versions ending in 0 and 1 two fixed values; else an
 * HMAC-MD2 under a fixed key of what both sides know: the driver's version, the runtime's,
 * the process and thread, where this table and the runtime's interface table lie, this
 * function's address and the time, followed by each device's UUID and PCI location. */
static void *g_tables[T_COUNT][NSLOTS];

static CUresult integrity_check(unsigned version, uint64_t unix_seconds, uint64_t out[2]);

static const unsigned char g_check_key[16] = {
    0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52, 0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f
};

static CUresult integrity_check(unsigned version, uint64_t unix_seconds, uint64_t out[2])
{
    if (!out) return CUDA_ERROR_INVALID_VALUE;
    if (version % 10 == 0) {
        out[0] = 0x3341181c03cb675cull, out[1] = 0x8ed383aa1f4cd1e8ull;
        return CUDA_SUCCESS;
    }
    if (version % 10 == 1) {
        out[0] = 0x1841181c03cb675cull, out[1] = 0x8ed383aa1f4cd1e8ull;
        return CUDA_SUCCESS;
    }
    struct {
        uint32_t driver_version, version, pid, thread;
        const void *cudart_table, *check_table, *check_fn;
        uint64_t unix_seconds;
    } in;
    memset(&in, 0, sizeof in);
    int dv = 0;
    cuDriverGetVersion(&dv);
    in.driver_version = (uint32_t)dv;
    in.version = version;
    in.pid = (uint32_t)getpid();
    in.thread = (uint32_t)(uintptr_t)pthread_self();
    in.cudart_table = g_tables[T_CUDART];
    in.check_table = g_tables[T_INTEGRITY];
    in.check_fn = g_tables[T_INTEGRITY][1];
    in.unix_seconds = unix_seconds;
    cu_md2 h;
    cu_hmac_md2_begin(&h, g_check_key);
    cu_md2_update(&h, &in, sizeof in);
    int n = 0;
    if (cuDeviceGetCount(&n)) n = 0;
    for (int d = 0; d < n; d++) {
        struct { CUuuid uuid; int32_t pci_domain, pci_bus, pci_device; } dev;
        memset(&dev, 0, sizeof dev);
        cuDeviceGetUuid(&dev.uuid, d);
        cuDeviceGetAttribute(&dev.pci_domain, 50, d);      /* CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID */
        cuDeviceGetAttribute(&dev.pci_bus, 33, d);         /* PCI_BUS_ID */
        cuDeviceGetAttribute(&dev.pci_device, 34, d);      /* PCI_DEVICE_ID */
        cu_md2_update(&h, &dev, sizeof dev);
    }
    unsigned char mac[16];
    cu_hmac_md2_end(&h, g_check_key, mac);
    memcpy(out, mac, 16);
    return CUDA_SUCCESS;
}

/* ---- context creation ------------------------------------------------------------------------- */
static CUresult bypass_ctx_create(CUcontext *pctx, unsigned flags, CUdevice dev)
{
    return cuCtxCreate_v2(pctx, flags, dev);
}

/* ---- the tables ------------------------------------------------------------------------------- */
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void tables_init(void)
{
    for (int t = 0; t < T_COUNT; t++) {
        for (int s = 0; s < NSLOTS; s++)
            g_tables[t][s] = g_missing[t][s];
        if (g_info[t].sized)
            g_tables[t][0] = (void *)(uintptr_t)(g_info[t].nslots * sizeof(void *));
    }
    g_tables[T_CUDART][1] = (void *)cudart_module_v1;
    g_tables[T_CUDART][2] = (void *)cudart_primary_ctx;
    g_tables[T_CUDART][6] = (void *)cudart_module_ext;
    g_tables[T_CUDART][7] = (void *)cudart_note;
    g_tables[T_CUDART][8] = (void *)cudart_module_hdr;
    g_tables[T_TOOLS_HOOKS][2] = (void *)hooks_buf1;
    g_tables[T_TOOLS_HOOKS][6] = (void *)hooks_buf2;
    g_tables[T_CLS][0] = (void *)cls_put;
    g_tables[T_CLS][1] = (void *)cls_delete;
    g_tables[T_CLS][2] = (void *)cls_get;
    g_tables[T_CTX_CHECKS][2] = (void *)check_ctx;
    g_tables[T_CTX_CHECKS][3] = (void *)check_none;
    g_tables[T_INTEGRITY][1] = (void *)integrity_check;
    g_tables[T_CTX_BYPASS][1] = (void *)bypass_ctx_create;
}

CU_EXPORT CUresult cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
{
    if (!ppExportTable || !pExportTableId) return CUDA_ERROR_INVALID_VALUE;
    pthread_once(&g_once, tables_init);
    const unsigned char *u = (const unsigned char *)pExportTableId->bytes;
    for (int t = 0; t < T_COUNT; t++)
        if (!memcmp(u, g_info[t].uuid, 16)) {
            *ppExportTable = g_tables[t];
            return CUDA_SUCCESS;
        }
    *ppExportTable = NULL;
    for (size_t i = 0; i < sizeof g_declined / sizeof *g_declined; i++)
        if (!memcmp(u, g_declined[i], 16)) return CUDA_ERROR_NOT_FOUND;
    /* named once per table (a runtime may ask again) */
    static unsigned char said[16][16];
    static int nsaid;
    static pthread_mutex_t said_lock = PTHREAD_MUTEX_INITIALIZER;
    int seen = 0;
    pthread_mutex_lock(&said_lock);
    for (int i = 0; i < nsaid && !seen; i++) seen = !memcmp(said[i], u, 16);
    if (!seen && nsaid < 16) memcpy(said[nsaid++], u, 16);
    pthread_mutex_unlock(&said_lock);
    if (!seen) {
        char text[48];
        uuid_text(u, text, sizeof text);
        rt_warn("cuGetExportTable: the driver's private table %s is unknown to ptxdbg "
                "(returns CUDA_ERROR_NOT_SUPPORTED)", text);
    }
    return CUDA_ERROR_NOT_SUPPORTED;
}
