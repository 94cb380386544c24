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
    exec_machine *m = ctx;
    if (rt_alloc_map_into(m, a))
        rt_warn("cannot map %s into a module: %s", a->name, exec_errmsg(m));
    else
        rt_map_host(m, a);
    return 0;
}

/* Map the module variables of `from` into machine `to` (pointers to them work anywhere). */
static void rt_map_vars(exec_machine *to, exec_machine *from)
{
    exec_region_info ri;
    for (int i = 0; exec_global_region(from, i, &ri) == 0; i++)
        if (ri.kind == 1 && ri.size) {
            void *data = exec_global_host(from, ri.base, ri.size);
            if (data)
                exec_global_map(to, ri.base, ri.size, data, ri.name);
        }
}

static void rt_unmap_vars(exec_machine *to, exec_machine *from)
{
    exec_region_info ri;
    for (int i = 0; exec_global_region(from, i, &ri) == 0; i++)
        if (ri.kind == 1 && ri.size)
            exec_global_unmap(to, ri.base);
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
    ptx_space sp;
    uint64_t addr, size;
    if (exec_symbol_addr(mod->m, v->name, &sp, &addr, &size)) {
        v->dev_addr = 0;
        return;
    }
    v->space = sp;
    v->dev_addr = addr;
    if (!v->managed || sp != PTX_SPACE_GLOBAL || !size)
        return;
    void *data = exec_global_host(mod->m, addr, size);
    if (data && rt_alloc_alias(data, size, RT_MEM_MANAGED, v->name) == cudaSuccess) {
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
    ptx_error pe;
    mod->pm = ptx_parse(mod->ptx, mod->ptx_len, mod->name, &pe);
    if (!mod->pm)
        return rt_module_fail(mod, pe.kind == PTX_ERR_VERSION ? cudaErrorUnsupportedPtxVersion
                                                              : cudaErrorInvalidPtx, pe.msg);
    uint64_t base = RT_MODULE_BASE + (uint64_t)mod->index * RT_MODULE_WINDOW;
    mod->m = exec_new_at(mod->pm, base, base + RT_MODULE_WINDOW, err, sizeof err);
    if (!mod->m) {
        ptx_module_free(mod->pm);
        mod->pm = NULL;
        return rt_module_fail(mod, cudaErrorInvalidPtx, err);
    }
    exec_set_heap_limit(mod->m, rt_heap_limit);
    exec_set_threads(mod->m, rt_threads);
    rt_check_machine_added(mod->m);   /* PTXDBG_CHECK (rt_check.c) */
    rt_alloc_each(rt_map_alloc_cb, mod->m);
    for (rt_module *o = rt_mods; o; o = o->next)
        if (o != mod && o->loaded > 0) {
            rt_map_vars(mod->m, o->m);
            rt_map_vars(o->m, mod->m);
        }
    mod->loaded = 1;
    for (rt_var *v = mod->vars; v; v = v->next)
        rt_var_bind(mod, v);
    rt_tex_machine_added(mod->m);
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
                rt_unmap_vars(o->m, mod->m);
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
    exec_free(mod->m);
    ptx_module_free(mod->pm);
    rt_sass_free(mod);
    free(mod->ptx);
    free(mod);
}

int rt_machines_each(int (*fn)(exec_machine *m, rt_module *mod, void *ctx), void *ctx)
{
    rt_quiesce();   /* no kernel runs on a machine while fn touches it */
    for (rt_module *o = rt_mods; o; o = o->next)
        if (o->loaded > 0) {
            int r = fn(o->m, o, ctx);
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
    for (int i = 0; i < mod->pm->nfuncs; i++) {
        const ptx_func *f = mod->pm->funcs[i];
        if (f->is_entry && f->has_body && !strcmp(f->sym->name, name))
            return rt_kernel_add(mod, NULL, name);
    }
    return NULL;
}

int rt_module_entries(rt_module *mod, const char **names, int max)
{
    int n = 0;
    for (int i = 0; mod->pm && i < mod->pm->nfuncs; i++) {
        const ptx_func *f = mod->pm->funcs[i];
        if (f->is_entry && f->has_body) {
            if (names && n < max)
                names[n] = f->sym->name;
            n++;
        }
    }
    return n;
}

/* Static shared memory the kernel uses: its own and the module-scope .shared it reaches, as
 * cudaFuncGetAttributes reports (rt_occ.c). */
static uint64_t rt_kernel_static_shared(const ptx_module *pm, const ptx_func *f)
{
    rt_func_res r;
    rt_func_resources(pm, f, &r);
    return r.shared_static;
}

cudaError_t rt_kernel_ready(rt_kernel *k)
{
    if (k->func)
        return cudaSuccess;
    cudaError_t e = rt_module_load(k->mod);
    if (e != cudaSuccess)
        return e;
    const ptx_module *pm = k->mod->pm;
    const ptx_func *f = NULL;
    for (int i = 0; i < pm->nfuncs && !f; i++)
        if (pm->funcs[i]->is_entry && pm->funcs[i]->has_body &&
            !strcmp(pm->funcs[i]->sym->name, k->name))
            f = pm->funcs[i];
    if (!f) {
        rt_warn("kernel %s is not in the PTX of %s", k->name, k->mod->name);
        return cudaErrorInvalidDeviceFunction;
    }
    int np = f->nparams;
    k->param_off = calloc((size_t)np + 1, sizeof *k->param_off);
    k->param_size = calloc((size_t)np + 1, sizeof *k->param_size);
    if (!k->param_off || !k->param_size)
        return cudaErrorMemoryAllocation;
    int64_t total = exec_param_layout(f, k->param_off, k->param_size, np);
    if (total < 0)
        return cudaErrorInvalidDeviceFunction;
    k->nparams = np;
    k->param_bytes = (uint64_t)total;
    k->static_shmem = rt_kernel_static_shared(pm, f);
    memcpy(k->maxntid, f->maxntid, sizeof k->maxntid);
    memcpy(k->reqntid, f->reqntid, sizeof k->reqntid);
    memcpy(k->reqnctapercluster, f->reqnctapercluster, sizeof k->reqnctapercluster);
    k->minnctapersm = f->minnctapersm;
    k->regs = rt_sass_regs(k->mod, k->name);
    k->regs_from_sass = k->regs > 0;
    if (!k->regs_from_sass)
        k->regs = exec_kernel_regs(pm, f);
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
    ptx_space sp;
    uint64_t addr, size;
    if (exec_symbol_addr(mod->m, name, &sp, &addr, &size) ||
        (sp != PTX_SPACE_GLOBAL && sp != PTX_SPACE_CONST))
        return NULL;
    /* found by name (the driver API): a .attribute(.managed) variable is managed memory */
    const ptx_sym *ps = ptx_find_var(mod->pm, name);
    int managed = ps && (ps->flags & PTX_ATTR_MANAGED) && sp == PTX_SPACE_GLOBAL;
    rt_var *v = rt_var_add(mod, NULL, name, (size_t)size, sp == PTX_SPACE_CONST, managed);
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
        return exec_const_host(v->mod->m, v->dev_addr + off, n);
    return rt_dev_host(v->dev_addr + off, n);
}

cudaError_t rt_var_addr(rt_var *v, void **dev, size_t *size)
{
    cudaError_t e = rt_var_loaded(v);
    if (e != cudaSuccess)
        return e;
    uint64_t a = v->dev_addr;
    if (v->space == PTX_SPACE_CONST)
        a += MEM_WIN_CONST;
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
#define RT_CONST_TAG_SHIFT MEM_CONST_TAG_SHIFT

cudaError_t rt_var_addr_tagged(rt_var *v, void **dev, size_t *size)
{
    cudaError_t e = rt_var_addr(v, dev, size);
    if (e == cudaSuccess && dev && v->space == PTX_SPACE_CONST)
        *dev = (uint8_t *)*dev + ((uint64_t)v->mod->index << RT_CONST_TAG_SHIFT);
    return e;
}

void *rt_const_host(uint64_t addr, uint64_t n)
{
    if (addr < MEM_WIN_CONST || addr - MEM_WIN_CONST >= MEM_WIN_SIZE)
        return NULL;
    uint64_t rel = addr - MEM_WIN_CONST;
    int tag = (int)(rel >> RT_CONST_TAG_SHIFT);
    uint64_t off = rel & MEM_CONST_OFF_MASK;
    void *found = NULL, *first = NULL;
    int count = 0;
    for (rt_module *m = rt_mods; m; m = m->next) {
        if (m->loaded <= 0 || (tag && m->index != tag))
            continue;
        void *h = exec_const_host(m->m, off, n);
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
