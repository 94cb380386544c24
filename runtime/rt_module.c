/* rt_module.c - modules, kernels and variables: registry, lazy load and decode, symbol access. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"
#include "rt_dev.h"

static rt_module *rt_mods, *rt_mods_tail;
static int rt_nmods;

/* Kernels by host stub: open addressing on the pointer (launches look kernels up each time). */
static rt_kernel **rt_ktab;
static size_t rt_kcap, rt_kcount;

static size_t rt_khash(const void *p, size_t cap)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x & (cap - 1);
}

static int rt_ktab_put(rt_kernel *k)
{
    if ((rt_kcount + 1) * 2 > rt_kcap) {
        size_t nc = rt_kcap ? rt_kcap * 2 : 64;
        rt_kernel **nt = calloc(nc, sizeof *nt);
        if (!nt)
            return -1;
        for (size_t i = 0; i < rt_kcap; i++)
            if (rt_ktab[i]) {
                size_t h = rt_khash(rt_ktab[i]->host_stub, nc);
                while (nt[h])
                    h = (h + 1) & (nc - 1);
                nt[h] = rt_ktab[i];
            }
        free(rt_ktab);
        rt_ktab = nt;
        rt_kcap = nc;
    }
    size_t h = rt_khash(k->host_stub, rt_kcap);
    while (rt_ktab[h]) {
        if (rt_ktab[h]->host_stub == k->host_stub) {  /* re-registered: the newest wins */
            rt_ktab[h] = k;
            return 0;
        }
        h = (h + 1) & (rt_kcap - 1);
    }
    rt_ktab[h] = k;
    rt_kcount++;
    return 0;
}

/* Remove k (keeping probe chains intact by reinserting the rest of the cluster). */
static void rt_ktab_del(const rt_kernel *k)
{
    if (!rt_kcap || !k->host_stub)
        return;
    size_t h = rt_khash(k->host_stub, rt_kcap);
    while (rt_ktab[h] && rt_ktab[h] != k)
        h = (h + 1) & (rt_kcap - 1);
    if (!rt_ktab[h])
        return;
    rt_ktab[h] = NULL;
    rt_kcount--;
    for (size_t i = (h + 1) & (rt_kcap - 1); rt_ktab[i]; i = (i + 1) & (rt_kcap - 1)) {
        rt_kernel *x = rt_ktab[i];
        rt_ktab[i] = NULL;
        rt_kcount--;
        rt_ktab_put(x);
    }
}

rt_kernel *rt_kernel_by_stub(const void *host_stub)
{
    if (!rt_kcap || !host_stub)
        return NULL;
    size_t h = rt_khash(host_stub, rt_kcap);
    while (rt_ktab[h]) {
        if (rt_ktab[h]->host_stub == host_stub)
            return rt_ktab[h];
        h = (h + 1) & (rt_kcap - 1);
    }
    return NULL;
}

rt_module *rt_modules(void)
{
    return rt_mods;
}

static rt_module *rt_module_alloc(void)
{
    if (rt_nmods >= RT_MAX_MODULES) {
        rt_warn("more than %d CUDA modules: the rest cannot be loaded", RT_MAX_MODULES);
        return NULL;
    }
    rt_module *mod = calloc(1, sizeof *mod);
    if (!mod)
        return NULL;
    /* the slot index picks the module's global window: reuse the lowest free one */
    int used[RT_MAX_MODULES] = {0};
    for (rt_module *o = rt_mods; o; o = o->next)
        used[o->index] = 1;
    while (used[mod->index])
        mod->index++;
    snprintf(mod->name, sizeof mod->name, "module#%d", mod->index);
    if (rt_mods_tail)
        rt_mods_tail->next = mod;
    else
        rt_mods = mod;
    rt_mods_tail = mod;
    rt_nmods++;
    return mod;
}

rt_module *rt_module_new_fatbin(const void *image, size_t maxlen)
{
    size_t n = rt_fatbin_size(image, maxlen);
    if (!n)
        return NULL;
    rt_module *mod = rt_module_alloc();
    if (mod) {
        mod->fatbin = image;
        mod->fatbin_len = n;
    }
    return mod;
}

rt_module *rt_module_new_ptx(const char *text, size_t len, const char *name)
{
    char *copy = malloc(len + 1);
    if (!copy)
        return NULL;
    memcpy(copy, text, len);
    copy[len] = 0;
    rt_module *mod = rt_module_alloc();
    if (!mod) {
        free(copy);
        return NULL;
    }
    mod->ptx = copy;
    mod->ptx_len = strlen(copy);
    if (name)
        snprintf(mod->name, sizeof mod->name, "%s", name);
    return mod;
}

/* ---- loading --------------------------------------------------------------------------------- */
static int rt_map_alloc_cb(const rt_alloc *a, void *ctx)
{
    dbg_target *t = ctx;
    if (rt_alloc_map_into(t, a))
        rt_warn("cannot map %s into a module: %s", a->name, dbg_target_errmsg(t));
    return 0;
}

void (*rt_debug_module_loaded)(rt_module *mod);
void (*rt_debug_module_unloaded)(rt_module *mod);

static cudaError_t rt_module_fail(rt_module *mod, cudaError_t e, const char *why)
{
    mod->loaded = -1;
    mod->load_error = e;
    size_t n = strnlen(why, sizeof mod->load_msg - 1);   /* kept whole or cut */
    memcpy(mod->load_msg, why, n);
    mod->load_msg[n] = 0;
    rt_warn("cannot load CUDA %s: %s", mod->name, why);
    return e;
}

/* -rdc=true: extract every unit's PTX and link them. */
static int rt_module_link(rt_module *mod, char *err, size_t errlen)
{
    int n = 0;
    while (n < 4096 && mod->prelinked[n])
        n++;
    char **texts = calloc((size_t)n + 1, sizeof *texts);
    size_t *lens = calloc((size_t)n + 1, sizeof *lens);
    int rc = texts && lens ? 0 : -1;
    if (rc)
        snprintf(err, errlen, "out of memory");
    for (int i = 0; i < n && !rc; i++) {
        size_t sz = rt_fatbin_size(mod->prelinked[i], (size_t)1 << 40);
        if (!sz) {
            snprintf(err, errlen, "translation unit %d: not a fat binary", i);
            rc = -1;
        } else if (rt_fatbin_ptx(mod->prelinked[i], sz, &texts[i], &lens[i], err, errlen)) {
            rc = -1;
        }
    }
    if (!rc)
        rc = rt_ptx_link(texts, lens, n, &mod->ptx, &mod->ptx_len, err, errlen);
    for (int i = 0; i < n && texts; i++)
        free(texts[i]);
    free(texts);
    free(lens);
    return rc;
}

/* A variable's place once its module is loaded. __managed__ variables: their bytes (the
 * core's region) become managed memory at its host address, which the program's pointer slot
 * receives. */
static void rt_var_bind(rt_module *mod, rt_var *v)
{
    dbg_var_info vi;
    if (dbg_target_var(mod->tgt, v->name, &vi)) {
        v->dev_addr = 0;
        return;
    }
    v->space = vi.space;
    v->dev_addr = vi.addr;
    if (!v->managed || vi.space != PTX_SPACE_GLOBAL || !vi.size)
        return;
    void *data = vi.host;
    if (data && rt_alloc_alias(data, vi.size, RT_MEM_MANAGED, v->name) == cudaSuccess) {
        v->dev_addr = (uint64_t)(uintptr_t)data;
        if (v->managed_ptr)
            *v->managed_ptr = data;
    }
}

cudaError_t rt_module_load(rt_module *mod)
{
    if (mod->loaded)
        return mod->loaded > 0 ? cudaSuccess : mod->load_error;
    char err[1024];
    rt_quiesce();   /* a new machine gets every mapping, and its variables go into the others */
    if (!mod->ptx && mod->prelinked) {
        if (rt_module_link(mod, err, sizeof err))
            return rt_module_fail(mod, cudaErrorNoKernelImageForDevice, err);
    } else if (!mod->ptx) {
        if (rt_fatbin_ptx(mod->fatbin, mod->fatbin_len, &mod->ptx, &mod->ptx_len, err,
                          sizeof err))
            return rt_module_fail(mod, cudaErrorNoKernelImageForDevice, err);
    }
    uint64_t base = RT_MODULE_BASE + (uint64_t)mod->index * RT_MODULE_WINDOW;
    dbg_target_err why;
    mod->tgt = dbg_target_load(mod->ptx, mod->ptx_len, mod->name, base, base + RT_MODULE_WINDOW,
                               &why, err, sizeof err);
    if (!mod->tgt)
        return rt_module_fail(mod, why == DBG_TARGET_ERR_VERSION ? cudaErrorUnsupportedPtxVersion
                                   : why == DBG_TARGET_ERR_NOMEM ? cudaErrorMemoryAllocation
                                                                 : cudaErrorInvalidPtx, err);
    mod->pm = dbg_target_module(mod->tgt);
    mod->m = dbg_target_machine(mod->tgt);
    dbg_target_set_heap_limit(mod->tgt, rt_heap_limit);
    dbg_target_set_threads(mod->tgt, rt_threads);
    /* what the program released, for this module's fault messages (rt_mem.c) */
    dbg_target_set_freed_describer(mod->tgt, rt_freed_describer, NULL);
    rt_check_machine_added(mod->m);   /* PTXDBG_CHECK (rt_check.c) */
    rt_alloc_each(rt_map_alloc_cb, mod->tgt);
    for (rt_module *o = rt_mods; o; o = o->next)
        if (o != mod && o->loaded > 0) {
            dbg_target_share_vars(mod->tgt, o->tgt, 1);
            dbg_target_share_vars(o->tgt, mod->tgt, 1);
        }
    mod->loaded = 1;
    for (rt_var *v = mod->vars; v; v = v->next)
        rt_var_bind(mod, v);
    rt_tex_machine_added(mod->tgt);
    if (rt_debug_module_loaded)
        rt_debug_module_loaded(mod);
    return cudaSuccess;
}

void rt_module_free(rt_module *mod)
{
    if (!mod)
        return;
    rt_wait_all();   /* its kernels complete first (at exit: they were abandoned) */
    rt_quiesce();
    for (rt_var *v = mod->vars, *n; v; v = n) {
        n = v->next;
        if (v->managed && mod->loaded > 0 && v->space == PTX_SPACE_GLOBAL && v->dev_addr &&
            rt_alloc_find((void *)(uintptr_t)v->dev_addr, 0))
            rt_alloc_free((void *)(uintptr_t)v->dev_addr, 1u << RT_MEM_MANAGED);
        free(v->name);
        free(v);
    }
    for (rt_kernel *k = mod->kernels, *n; k; k = n) {
        n = k->next;
        rt_ktab_del(k);
        free(k->name);
        free(k->param_off);
        free(k->param_size);
        free(k);
    }
    if (mod->loaded > 0)
        for (rt_module *o = rt_mods; o; o = o->next)
            if (o != mod && o->loaded > 0)
                dbg_target_share_vars(o->tgt, mod->tgt, 0);
    rt_module **pp = &rt_mods;
    rt_module *prev = NULL;
    while (*pp && *pp != mod) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    if (*pp) {
        *pp = mod->next;
        if (rt_mods_tail == mod)
            rt_mods_tail = prev;
        rt_nmods--;
    }
    if (mod->pm && rt_debug_module_unloaded)
        rt_debug_module_unloaded(mod);
    if (mod->m)
        rt_check_machine_gone(mod->m);
    dbg_target_free(mod->tgt);
    rt_sass_free(mod);
    free(mod->ptx);
    free(mod);
}

int rt_machines_each(int (*fn)(dbg_target *t, rt_module *mod, void *ctx), void *ctx)
{
    rt_quiesce();   /* no kernel runs on a machine while fn touches it */
    for (rt_module *o = rt_mods; o; o = o->next)
        if (o->loaded > 0) {
            int r = fn(o->tgt, o, ctx);
            if (r)
                return r;
        }
    return 0;
}

/* ---- kernels --------------------------------------------------------------------------------- */
rt_kernel *rt_kernel_add(rt_module *mod, const void *host_stub, const char *name)
{
    rt_kernel *k = calloc(1, sizeof *k);
    if (!k || !(k->name = strdup(name))) {
        free(k);
        return NULL;
    }
    k->mod = mod;
    k->host_stub = host_stub;
    k->max_dyn_shmem = -1;
    k->next = mod->kernels;
    mod->kernels = k;
    if (host_stub && rt_ktab_put(k)) {
        mod->kernels = k->next;
        free(k->name);
        free(k);
        return NULL;
    }
    return k;
}

rt_kernel *rt_kernel_by_name(rt_module *mod, const char *name)
{
    for (rt_kernel *k = mod->kernels; k; k = k->next)
        if (!strcmp(k->name, name))
            return k;
    if (rt_module_load(mod) != cudaSuccess)
        return NULL;
    return dbg_target_kernel(mod->tgt, name) ? rt_kernel_add(mod, NULL, name) : NULL;
}

int rt_module_entries(rt_module *mod, const char **names, int max)
{
    return mod->tgt ? dbg_target_kernels(mod->tgt, names, max) : 0;
}

cudaError_t rt_kernel_ready(rt_kernel *k)
{
    if (k->func)
        return cudaSuccess;
    cudaError_t e = rt_module_load(k->mod);
    if (e != cudaSuccess)
        return e;
    dbg_target *t = k->mod->tgt;
    const ptx_func *f = dbg_target_kernel(t, k->name);
    if (!f || dbg_kernel_info_get(t, f, &k->info)) {
        rt_warn("kernel %s is not in the PTX of %s", k->name, k->mod->name);
        return cudaErrorInvalidDeviceFunction;
    }
    int np = k->info.nparams;
    free(k->param_off);
    free(k->param_size);
    k->param_off = calloc((size_t)np + 1, sizeof *k->param_off);
    k->param_size = calloc((size_t)np + 1, sizeof *k->param_size);
    if (!k->param_off || !k->param_size)
        return cudaErrorMemoryAllocation;
    int64_t total = dbg_kernel_param_layout(f, k->param_off, k->param_size, np);
    if (total < 0)
        return cudaErrorInvalidDeviceFunction;
    k->nparams = np;
    k->param_bytes = (uint64_t)total;
    /* static shared memory: its own and the module-scope .shared it reaches, as
       cudaFuncGetAttributes reports */
    k->static_shmem = k->info.shared_static;
    memcpy(k->maxntid, k->info.maxntid, sizeof k->maxntid);
    memcpy(k->reqntid, k->info.reqntid, sizeof k->reqntid);
    memcpy(k->reqnctapercluster, k->info.reqnctapercluster, sizeof k->reqnctapercluster);
    k->minnctapersm = k->info.minnctapersm;
    k->regs = rt_sass_regs(k->mod, k->name);
    k->regs_from_sass = k->regs > 0;
    if (!k->regs_from_sass)
        k->regs = dbg_kernel_regs(t, f);
    k->func = f;
    return cudaSuccess;
}

/* ---- variables ------------------------------------------------------------------------------- */
rt_var *rt_var_add(rt_module *mod, const void *host_var, const char *name, size_t size,
                   int constant, int managed)
{
    rt_var *v = calloc(1, sizeof *v);
    if (!v || !(v->name = strdup(name))) {
        free(v);
        return NULL;
    }
    v->mod = mod;
    v->host_var = host_var;
    v->size = size;
    v->constant = constant;
    v->managed = managed;
    v->next = mod->vars;
    mod->vars = v;
    return v;
}

rt_var *rt_var_by_host(const void *symbol)
{
    for (rt_module *o = rt_mods; o; o = o->next)
        for (rt_var *v = o->vars; v; v = v->next)
            if (v->host_var == symbol ||
                (v->managed && v->dev_addr && v->dev_addr == (uint64_t)(uintptr_t)symbol))
                return v;
    return NULL;
}

rt_var *rt_var_by_name(rt_module *mod, const char *name)
{
    for (rt_var *v = mod->vars; v; v = v->next)
        if (!strcmp(v->name, name))
            return v;
    if (rt_module_load(mod) != cudaSuccess)
        return NULL;
    dbg_var_info vi;
    if (dbg_target_var(mod->tgt, name, &vi) ||
        (vi.space != PTX_SPACE_GLOBAL && vi.space != PTX_SPACE_CONST))
        return NULL;
    /* found by name (the driver API): a .attribute(.managed) variable is managed memory */
    rt_var *v = rt_var_add(mod, NULL, name, (size_t)vi.size, vi.space == PTX_SPACE_CONST,
                           vi.managed);
    if (v)
        rt_var_bind(mod, v);
    return v;
}

static cudaError_t rt_var_loaded(rt_var *v)
{
    cudaError_t e = rt_module_load(v->mod);
    if (e != cudaSuccess)
        return e;
    if (!v->dev_addr && v->space == PTX_SPACE_NONE) {
        rt_warn("variable %s is not in the PTX of %s", v->name, v->mod->name);
        return cudaErrorInvalidSymbol;
    }
    return cudaSuccess;
}

void *rt_var_host(rt_var *v, size_t off, size_t n)
{
    if (rt_var_loaded(v) != cudaSuccess || off > v->size || n > v->size - off)
        return NULL;
    if (v->space == PTX_SPACE_CONST)
        return dbg_target_const_host(v->mod->tgt, v->dev_addr + off, n);
    return rt_dev_host(v->dev_addr + off, n);
}

cudaError_t rt_var_addr(rt_var *v, void **dev, size_t *size)
{
    cudaError_t e = rt_var_loaded(v);
    if (e != cudaSuccess)
        return e;
    uint64_t a = v->space == PTX_SPACE_CONST ? dbg_addr_const(0, v->dev_addr) : v->dev_addr;
    if (dev)
        *dev = (void *)(uintptr_t)a;
    if (size)
        *size = v->size;
    return cudaSuccess;
}

/* __constant__ variables live in each module's own bank, all at the same const window
 * addresses; the addresses the driver API hands out for modules other than module#0 carry the
 * module in bits 24..31 (its index) so that copies reach the right bank (rt_const_host).
 * module#0's stay plain, so its kernels can also read them through a generic pointer. */
cudaError_t rt_var_addr_tagged(rt_var *v, void **dev, size_t *size)
{
    cudaError_t e = rt_var_addr(v, dev, size);
    if (e == cudaSuccess && dev && v->space == PTX_SPACE_CONST)
        *dev = (void *)(uintptr_t)dbg_addr_const((unsigned)v->mod->index, v->dev_addr);
    return e;
}

void *rt_const_host(uint64_t addr, uint64_t n)
{
    unsigned utag;
    uint64_t off;
    if (dbg_addr_const_decode(addr, &utag, &off))
        return NULL;
    int tag = (int)utag;
    void *found = NULL, *first = NULL;
    int count = 0;
    for (rt_module *m = rt_mods; m; m = m->next) {
        if (m->loaded <= 0 || (tag && m->index != tag))
            continue;
        void *h = dbg_target_const_host(m->tgt, off, n);
        if (h) {
            found = h;
            count++;
            if (m->index == 0)
                first = h;
        }
    }
    /* an untagged address: the one module whose bank holds it, else module#0's (the driver
     * API's plain addresses are module#0's) */
    return count == 1 ? found : first;
}

cudaError_t rt_var_rw(rt_var *v, size_t off, void *buf, size_t n, int write)
{
    cudaError_t e = rt_var_loaded(v);
    if (e != cudaSuccess)
        return e;
    if (off > v->size || n > v->size - off)
        return cudaErrorInvalidValue;
    uint8_t *p = rt_var_host(v, off, n);
    if (!p)
        return cudaErrorInvalidSymbol;
    if (write)
        memcpy(p, buf, n);
    else
        memcpy(buf, p, n);
    return cudaSuccess;
}

/* ---- registration as nvcc's host code does it ------------------------------------------------ */
typedef struct {
    int magic;
    int version;
    const void *data;
    void *filename_or_fatbins;
} rt_fatbinc_wrapper;

void **__cudaRegisterFatBinary(void *fatCubin)
{
    RT_BEGIN();
    const rt_fatbinc_wrapper *w = fatCubin;
    rt_module *mod = NULL;
    if (!w || (uint32_t)w->magic != RT_FATBINC_MAGIC)
        rt_warn("__cudaRegisterFatBinary: not a fat binary wrapper");
    else if (!(mod = rt_module_new_fatbin(w->data, (size_t)1 << 40)))
        rt_warn("__cudaRegisterFatBinary: unreadable fat binary");
    else if (w->version == 2 && w->filename_or_fatbins)
        mod->prelinked = (void *const *)w->filename_or_fatbins;   /* -rdc=true */
    RT_END(cudaSuccess);
    return (void **)mod;
}

void __cudaRegisterFatBinaryEnd(void **handle)
{
    (void)handle;
}

void __cudaUnregisterFatBinary(void **handle)
{
    RT_BEGIN();
    rt_flush_output();
    rt_module_free((rt_module *)handle);
    RT_END(cudaSuccess);
}

void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize)
{
    (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim;
    (void)wSize;
    if (!handle || !deviceName)
        return;
    RT_BEGIN();
    rt_kernel_add((rt_module *)handle, hostFun, deviceName);
    RT_END(cudaSuccess);
}

void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName,
                       int ext, size_t size, int constant, int global)
{
    (void)deviceAddress, (void)ext, (void)global;
    if (!handle || !deviceName)
        return;
    RT_BEGIN();
    rt_var_add((rt_module *)handle, hostVar, deviceName, size, constant, 0);
    RT_END(cudaSuccess);
}

void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant,
                              int global)
{
    (void)deviceAddress, (void)ext, (void)global;
    if (!handle || !deviceName)
        return;
    RT_BEGIN();
    rt_var *v = rt_var_add((rt_module *)handle, hostVarPtrAddress, deviceName, size, constant, 1);
    if (v)
        v->managed_ptr = hostVarPtrAddress;
    RT_END(cudaSuccess);
}

/* Called before the host first touches a __managed__ variable: load the module so that the
 * variable's pointer slot holds its managed address. */
char __cudaInitModule(void **handle)
{
    if (!handle)
        return 0;
    RT_BEGIN();
    cudaError_t e = rt_module_load((rt_module *)handle);
    RT_END(e);
    return e == cudaSuccess;
}
