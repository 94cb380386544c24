/* rt_launch.c - kernel launches: nvcc's launch sequence, configuration checks, running, faults. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"
#include "rt_dev.h"
#include "dbg.h"

int (*rt_debug_launch)(rt_launch_ctx *ctx);
uint64_t rt_heap_limit = 8u << 20;
int rt_threads;
static uint64_t rt_nlaunch;   /* launches run, process-wide (under the lock) */

/* Limits of the emulated device (rt_device.c defines the real ones from its profile). */
__attribute__((weak)) void rt_device_launch_limits(rt_launch_limits *l)
{
    l->max_threads = 1024;
    l->max_block[0] = 1024;
    l->max_block[1] = 1024;
    l->max_block[2] = 64;
    l->max_grid[0] = 0x7fffffff;
    l->max_grid[1] = 65535;
    l->max_grid[2] = 65535;
    l->shmem_default = 48u << 10;
    l->shmem_optin = 166912;     /* A100: 163 KB per block with the opt-in attribute */
}

static int rt_env_threads(void)
{
    const char *s = getenv("PTXDBG_THREADS");
    if (!s || !*s)
        return 0;
    char *end;
    long n = strtol(s, &end, 10);
    if (*end || n < 0 || n > 256) {
        rt_warn("PTXDBG_THREADS=%s is not a thread count from 0 to 256; using 0 (one per CPU)",
                s);
        return 0;
    }
    return (int)n;
}

__attribute__((constructor)) static void rt_launch_init(void)
{
    rt_threads = rt_env_threads();
}

/* The most blocks of this shape the device keeps resident at once: the occupancy calculator's
 * blocks per SM (rt_occ.c) times the SMs. Weak, so the device code may define its own. */
__attribute__((weak)) int rt_device_coop_max_blocks(rt_kernel *k, dim3 block, size_t dyn)
{
    const struct cudaDeviceProp *p = rt_dev_props();
    rt_func_res r;
    rt_fattr a;
    rt_kernel_fattr(k, &r, &a);
    int per_sm = rt_occ_blocks_per_sm(p, &r, &a, (int)(block.x * block.y * block.z), dyn);
    return per_sm > 0 ? per_sm * p->multiProcessorCount : 0;
}

/* ---- parameters ------------------------------------------------------------------------------ */
void rt_params_pack(const rt_kernel *k, void **args, uint8_t *buf)
{
    memset(buf, 0, (size_t)k->param_bytes);
    for (int i = 0; i < k->nparams; i++)
        if (args && args[i])
            memcpy(buf + k->param_off[i], args[i], (size_t)k->param_size[i]);
}

/* ---- configuration --------------------------------------------------------------------------- */
static cudaError_t rt_config_check(const rt_launch_ctx *c)
{
    const rt_kernel *k = c->k;
    rt_launch_limits l;
    rt_device_launch_limits(&l);
    uint64_t threads = (uint64_t)c->block.x * c->block.y * c->block.z;
    if (!c->grid.x || !c->grid.y || !c->grid.z || c->grid.x > l.max_grid[0] ||
        c->grid.y > l.max_grid[1] || c->grid.z > l.max_grid[2] || !threads ||
        c->block.x > l.max_block[0] || c->block.y > l.max_block[1] ||
        c->block.z > l.max_block[2] || threads > l.max_threads)
        return cudaErrorInvalidConfiguration;
    uint64_t maxnt = (uint64_t)(k->maxntid[0] ? k->maxntid[0] : 1) *
                     (k->maxntid[1] ? k->maxntid[1] : 1) * (k->maxntid[2] ? k->maxntid[2] : 1);
    if ((k->maxntid[0] && threads > maxnt) || !rt_kernel_block_fits(k, (int)threads))
        return cudaErrorLaunchOutOfResources;   /* .maxntid, or registers (rt_occ.c) */
    if (k->reqntid[0] && (c->block.x != k->reqntid[0] ||
                          c->block.y != (k->reqntid[1] ? k->reqntid[1] : 1) ||
                          c->block.z != (k->reqntid[2] ? k->reqntid[2] : 1)))
        return cudaErrorInvalidValue;
    uint64_t dyn_max = k->max_dyn_shmem >= 0 ? (uint64_t)k->max_dyn_shmem
                       : l.shmem_default > k->static_shmem ? l.shmem_default - k->static_shmem
                       : 0;
    if (c->shmem > dyn_max || k->static_shmem + c->shmem > l.shmem_optin)
        return cudaErrorInvalidValue;
    if (c->cooperative) {   /* every CTA of a cooperative grid must be resident at once */
        rt_func_res r;
        rt_fattr a;
        rt_kernel_fattr(k, &r, &a);
        const struct cudaDeviceProp *p = rt_dev_props();
        uint64_t resident = (uint64_t)rt_occ_blocks_per_sm(p, &r, &a, (int)threads, c->shmem) *
                            (uint64_t)p->multiProcessorCount;
        if ((uint64_t)c->grid.x * c->grid.y * c->grid.z > resident)
            return cudaErrorCooperativeLaunchTooLarge;
    }
    return cudaSuccess;
}

/* ---- errors after a launch ------------------------------------------------------------------- */
cudaError_t rt_stop_error(const exec_stop *st)
{
    switch (st->kind) {
    case EXEC_STOP_DONE:
        return cudaSuccess;
    case EXEC_STOP_ASSERT:
        return cudaErrorAssert;
    case EXEC_STOP_TRAP:
    case EXEC_STOP_BRKPT:
        return cudaErrorLaunchFailure;
    case EXEC_STOP_LIMIT:
    case EXEC_STOP_INTERRUPT:
        return cudaErrorLaunchTimeout;
    case EXEC_STOP_EXCEPTION:
        switch (st->exc) {
#define EXC(id, num, name, cuda_error) case EXEC_EXC_##id: return cuda_error;
#include "ptxdbg_exc.def"
#undef EXC
        default:
            return cudaErrorLaunchFailure;
        }
    default:
        return cudaErrorLaunchFailure;
    }
}

/* ---- checks at submission ------------------------------------------------------------------ */
/* The cluster shape as the engine will check it at dbg_target_launch, so a launch that cannot
 * run fails at the call. */
static cudaError_t rt_cluster_check(const rt_launch_ctx *c)
{
    const dbg_kernel_info *f = &c->k->info;
    dim3 d = c->cluster;
    int given = d.x || d.y || d.z;
    if (given && (!d.x || !d.y || !d.z))
        return cudaErrorInvalidClusterSize;
    if (given && f->reqnctapercluster[0] &&
        (d.x != f->reqnctapercluster[0] ||
         d.y != (f->reqnctapercluster[1] ? f->reqnctapercluster[1] : 1) ||
         d.z != (f->reqnctapercluster[2] ? f->reqnctapercluster[2] : 1)))
        return cudaErrorInvalidClusterSize;
    if (!given && f->reqnctapercluster[0]) {
        d.x = f->reqnctapercluster[0];
        d.y = f->reqnctapercluster[1] ? f->reqnctapercluster[1] : 1;
        d.z = f->reqnctapercluster[2] ? f->reqnctapercluster[2] : 1;
    } else if (!given) {
        if (f->explicitcluster)
            return cudaErrorInvalidClusterSize;
        return cudaSuccess;
    }
    uint64_t size = (uint64_t)d.x * d.y * d.z;
    if (size > 16 || (f->maxclusterrank && size > f->maxclusterrank) || c->grid.x % d.x ||
        c->grid.y % d.y || c->grid.z % d.z)
        return cudaErrorInvalidClusterSize;
    return cudaSuccess;
}

cudaError_t rt_launch_check(rt_launch_ctx *ctx)
{
    rt_kernel *k = ctx->k;
    if (!k)
        return cudaErrorInvalidDeviceFunction;
    cudaError_t e = rt_kernel_ready(k);
    if (e != cudaSuccess)
        return e;
    e = rt_config_check(ctx);
    if (e != cudaSuccess)
        return e;
    if (ctx->nparams < k->param_bytes)
        return cudaErrorInvalidValue;
    e = rt_cluster_check(ctx);
    if (e != cudaSuccess)
        return e;
    if (ctx->cooperative) {
        /* every CTA of a cooperative grid must be resident at once on the device */
        uint64_t nblocks = (uint64_t)ctx->grid.x * ctx->grid.y * ctx->grid.z;
        int max = rt_device_coop_max_blocks(k, ctx->block, ctx->shmem);
        if (max > 0 && nblocks > (uint64_t)max) {
            rt_warn("cooperative launch of %s: %llu blocks, at most %d fit on the device at "
                    "once", k->name, (unsigned long long)nblocks, max);
            return cudaErrorCooperativeLaunchTooLarge;
        }
    }
    return cudaSuccess;
}

/* ---- running on a stream's worker ------------------------------------------------------------ */
/* Prepare the launch on the machine (lock released, machine held). 0, or -1 with a message. */
static int rt_launch_prepare(rt_launch_ctx *ctx)
{
    rt_kernel *k = ctx->k;
    FILE *out = rt_out_file(ctx->mod);
    if (out)
        dbg_target_set_output(ctx->tgt, out);
    dbg_launch_cfg c = {
        .kernel = k->func,
        .grid = { ctx->grid.x, ctx->grid.y, ctx->grid.z },
        .block = { ctx->block.x, ctx->block.y, ctx->block.z },
        .shmem = ctx->shmem,
        .cluster = { ctx->cluster.x, ctx->cluster.y, ctx->cluster.z },
        .cooperative = ctx->cooperative,
        .params = ctx->params,
        .param_bytes = (size_t)k->param_bytes,
    };
    if (dbg_target_launch(ctx->tgt, &c)) {
        rt_warn("cannot launch %s: %s", k->name, dbg_target_errmsg(ctx->tgt));
        return -1;
    }
    return 0;
}

void rt_launch_exec(rt_launch_ctx *ctx)
{
    rt_kernel *k = ctx->k;
    ctx->mod = k->mod;
    ctx->tgt = k->mod->tgt;
    ctx->m = k->mod->m;
    ctx->func = k->func;
    memset(&ctx->stop, 0, sizeof ctx->stop);
    rt_runner *r = rt_run_begin(ctx);
    if (!r)
        return;                            /* abandoned: a fault, or the process exits */
    ctx->launch_no = rt_nlaunch++;
    k->mod->nlaunch++;
    int debug = rt_debug_launch != NULL;
    int depth = rt_suspend();
    int how = rt_launch_prepare(ctx) ? -1 : 0;
    if (how == 0) {
        rt_run_started(r);
        if (debug) {
            dbg_host_set_launch_stack(ctx->host_pcs, ctx->nhost_pcs);
            how = rt_debug_launch(ctx) < 0 ? -1 : 0;
            dbg_host_set_launch_stack(NULL, 0);
        }
        else
            how = rt_run_plain(r);
    }
    rt_resume(depth);
    if (how < 0) {
        rt_set_fault(cudaErrorLaunchFailure);
    } else if (how == RT_RUN_STEPS || how == RT_RUN_TIMEOUT) {
        char why[160];
        if (how == RT_RUN_STEPS)
            snprintf(why, sizeof why, "did not finish within PTXDBG_MAX_STEPS=%llu "
                     "warp-instructions", (unsigned long long)rt_run_max_steps());
        else
            snprintf(why, sizeof why, "did not finish within PTXDBG_TIMEOUT=%g seconds",
                     rt_run_timeout());
        rt_report_where(ctx, &ctx->stop, why);
        rt_set_fault(cudaErrorLaunchTimeout);
    } else if (how == 0) {
        cudaError_t e = rt_stop_error(&ctx->stop);
        if (e != cudaSuccess) {
            if (!ctx->reported)
                rt_report_fault(ctx);
            rt_set_fault(e);
        }
    }
    rt_out_collect(ctx->mod);
    rt_run_end(r);
}

/* ---- nvcc's launch sequence: <<<...>>> pushes a configuration the stub pops ------------------ */
typedef struct { dim3 grid, block; size_t shmem; cudaStream_t stream; } rt_callcfg;
#define RT_CFG_DEPTH 16
static _Thread_local rt_callcfg rt_cfg[RT_CFG_DEPTH];
static _Thread_local int rt_ncfg;

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                     struct CUstream_st *stream)
{
    if (rt_ncfg >= RT_CFG_DEPTH)
        return 1;
    rt_callcfg *c = &rt_cfg[rt_ncfg++];
    c->grid = gridDim;
    c->block = blockDim;
    c->shmem = sharedMem;
    c->stream = stream;
    return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                       void *stream)
{
    if (!rt_ncfg)
        return rt_error(cudaErrorMissingConfiguration);
    rt_callcfg *c = &rt_cfg[--rt_ncfg];
    *gridDim = c->grid;
    *blockDim = c->block;
    *sharedMem = c->shmem;
    *(cudaStream_t *)stream = c->stream;
    return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    RT_BEGIN();
    rt_kernel *k = rt_kernel_by_stub(hostFun);
    if (kernel)
        *kernel = (cudaKernel_t)k;
    return RT_END(k ? cudaSuccess : cudaErrorInvalidDeviceFunction);
}

cudaError_t cudaGetKernel(cudaKernel_t *kernel, const void *entryFuncAddr)
{
    return __cudaGetKernel(kernel, entryFuncAddr);
}

cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr)
{
    RT_BEGIN();
    rt_kernel *k = rt_kernel_by_stub(symbolPtr);
    if (!functionPtr || !k)
        return RT_END(cudaErrorInvalidDeviceFunction);
    *functionPtr = (cudaFunction_t)k;
    return RT_END(cudaSuccess);
}

/* Launch kernel k (ready) with its .param bytes on stream h (rt.h). */
cudaError_t rt_launch_packed(rt_kernel *k, dim3 grid, dim3 block, const uint8_t *params,
                             size_t shmem, cudaStream_t h, int ptds, dim3 cluster, int coop,
                             int prio)
{
    if (shmem > UINT32_MAX)
        return cudaErrorInvalidValue;
    rt_op op;
    memset(&op, 0, sizeof op);
    op.kind = RT_OP_KERNEL;
    op.u.kernel.k = k;
    op.u.kernel.grid = grid;
    op.u.kernel.block = block;
    op.u.kernel.shmem = (uint32_t)shmem;
    op.u.kernel.cluster = cluster;
    op.u.kernel.cooperative = coop;
    op.u.kernel.priority = prio;
    op.u.kernel.params = params;
    op.u.kernel.nparams = k->param_bytes;
    return rt_submit(h, ptds, &op);
}

/* Launch kernel k with args (one pointer per parameter) on stream h. */
static cudaError_t rt_launch_args(rt_kernel *k, dim3 grid, dim3 block, void **args,
                                  size_t shmem, cudaStream_t h, int ptds, dim3 cluster,
                                  int coop, int prio)
{
    if (!k)
        return cudaErrorInvalidDeviceFunction;
    cudaError_t e = rt_kernel_ready(k);
    if (e != cudaSuccess)
        return e;
    uint8_t small[4096];
    uint8_t *buf = k->param_bytes <= sizeof small ? small : malloc((size_t)k->param_bytes);
    if (!buf)
        return cudaErrorMemoryAllocation;
    rt_params_pack(k, args, buf);
    e = rt_launch_packed(k, grid, block, buf, shmem, h, ptds, cluster, coop, prio);
    if (buf != small)
        free(buf);
    return e;
}

static const dim3 rt_nocluster = { 0, 0, 0 };

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                               size_t sharedMem, cudaStream_t stream)
{
    RT_BEGIN_CTX();
    return RT_END(rt_launch_args((rt_kernel *)kernel, gridDim, blockDim, args, sharedMem, stream,
                                 0, rt_nocluster, 0, 0));
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                    void **args, size_t sharedMem, cudaStream_t stream)
{
    RT_BEGIN_CTX();
    return RT_END(rt_launch_args((rt_kernel *)kernel, gridDim, blockDim, args, sharedMem, stream,
                                 1, rt_nocluster, 0, 0));
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, cudaStream_t stream)
{
    RT_BEGIN_CTX();
    return RT_END(rt_launch_args(rt_kernel_by_stub(func), gridDim, blockDim, args, sharedMem,
                                 stream, 0, rt_nocluster, 0, 0));
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                  size_t sharedMem, cudaStream_t stream)
{
    RT_BEGIN_CTX();
    return RT_END(rt_launch_args(rt_kernel_by_stub(func), gridDim, blockDim, args, sharedMem,
                                 stream, 1, rt_nocluster, 0, 0));
}

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                        void **args, size_t sharedMem, cudaStream_t stream)
{
    RT_BEGIN_CTX();
    return RT_END(rt_launch_args(rt_kernel_by_stub(func), gridDim, blockDim, args, sharedMem,
                                 stream, 0, rt_nocluster, 1, 0));
}

cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                             void **args, size_t sharedMem, cudaStream_t stream)
{
    RT_BEGIN_CTX();
    return RT_END(rt_launch_args(rt_kernel_by_stub(func), gridDim, blockDim, args, sharedMem,
                                 stream, 1, rt_nocluster, 1, 0));
}

static cudaError_t rt_launch_ex(const cudaLaunchConfig_t *cfg, const void *func, void **args,
                                int ptds)
{
    if (!cfg || (cfg->numAttrs && !cfg->attrs))
        return cudaErrorInvalidValue;
    dim3 cluster = rt_nocluster;
    int coop = 0, prio = 0;
    for (unsigned i = 0; i < cfg->numAttrs; i++) {
        const cudaLaunchAttribute *a = &cfg->attrs[i];
        switch (a->id) {
        case cudaLaunchAttributeCooperative:
            coop = a->val.cooperative != 0;
            break;
        case cudaLaunchAttributeClusterDimension:
            cluster.x = a->val.clusterDim.x;
            cluster.y = a->val.clusterDim.y;
            cluster.z = a->val.clusterDim.z;
            break;
        case cudaLaunchAttributePriority:
            prio = a->val.priority;
            break;
        default:
            break;   /* scheduling and cache hints: nothing to do in an emulator */
        }
    }
    return rt_launch_args(rt_kernel_by_stub(func), cfg->gridDim, cfg->blockDim, args,
                          cfg->dynamicSmemBytes, cfg->stream, ptds, cluster, coop, prio);
}

RT_ENTRY_CTX(cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
                                             void **args), rt_launch_ex(config, func, args, 0))

RT_ENTRY_CTX(cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config,
                                                  const void *func, void **args),
             rt_launch_ex(config, func, args, 1))

/* ---- limits ---------------------------------------------------------------------------------- */
static int rt_set_heap(dbg_target *t, rt_module *mod, void *ctx)
{
    (void)mod;
    dbg_target_set_heap_limit(t, *(uint64_t *)ctx);
    return 0;
}

void rt_set_heap_limit(uint64_t bytes)
{
    rt_lock();
    rt_heap_limit = bytes;
    rt_machines_each(rt_set_heap, &rt_heap_limit);
    rt_unlock();
}
