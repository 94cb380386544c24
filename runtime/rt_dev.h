/* rt_dev.h - the emulated device: profile, limits, kernel resources, function attributes and
 * occupancy (runtime/rt_device.c), shared by the runtime and the driver API. */
#ifndef RT_DEV_H
#define RT_DEV_H

#include <stddef.h>
#include <stdint.h>
#include "dbg_target.h"
#include "rt_abi.h"
#include "rt_abi_dev.h"

/* The device profile, chosen once from the environment variable PTXDBG_DEVICE:
 *   unset, "sm_80", "a100"      NVIDIA A100-SXM4-40GB (sm_80, 108 SMs)
 *   "a100-80gb"                 NVIDIA A100-SXM4-80GB
 *   "sm_90", "h100"             NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)
 * Any other value: one line on stderr naming the accepted values, then the A100 profile. */
const struct cudaDeviceProp *rt_dev_props(void);
/* The properties of a named profile (as PTXDBG_DEVICE names them; NULL = default); -1 if
 * the name is not a profile. */
int rt_dev_profile_props(const char *name, struct cudaDeviceProp *p);
/* Number of devices (always 1) and whether `dev` names one. */
int rt_dev_count(void);
int rt_dev_valid(int dev);
/* Clock rates in kHz (not in cudaDeviceProp since CUDA 13). */
int rt_dev_clock_khz(void);
int rt_dev_mem_clock_khz(void);
/* Every cudaDeviceAttr value (also CUdevice_attribute, whose numbers are the same for the
 * attributes both define). Returns cudaErrorInvalidValue for a number CUDA does not define. */
cudaError_t rt_dev_attribute(int attr, int *value);
/* The device's current limits (cudaLimit*): the malloc heap, printf FIFO and stack size the
 * launch code honours. Returns 0 for an unknown limit. */
size_t rt_dev_limit(int limit);
cudaError_t rt_dev_set_limit(int limit, size_t value);

/* Resources of one kernel (what cudaFuncGetAttributes reports): from its PTX
 * (dbg_kernel_info_get); rt_kernel_fattr adds its registers (rt_kernel.regs: from its SASS
 * when the fat binary has some for the device, else the core's estimate from the PTX, which
 * errs high) and the limits they and its launch bounds put on maxThreadsPerBlock. */
typedef struct {
    size_t shared_static;   /* .shared of the kernel and of module scope it reaches (not extern) */
    size_t const_bytes;     /* module .const it reaches */
    size_t local_bytes;     /* .local of the kernel (its depot) */
    int max_threads;        /* from .maxntid/.reqntid, the register file, and 1024 */
    int num_regs;
    int ptx_version;        /* the .target architecture: sm_80 -> 80 */
    int barriers;           /* named barriers used (ids 0..n-1); 0 when none */
    int req_cluster[3];     /* .reqnctapercluster, 0 when absent */
} rt_func_res;
void rt_func_resources(const dbg_kernel_info *ki, rt_func_res *r);
/* Set r's registers per thread and lower max_threads to what they allow. */
void rt_func_res_regs(rt_func_res *r, int regs);

/* Attributes set by cudaFuncSetAttribute / cudaFuncSetCacheConfig / cuFuncSetAttribute.
 * They live in the kernel (rt_kernel.max_dyn_shmem, which the launch checks honour, and the
 * slots RT_KA_* of rt_kernel.attr[]); rt_kernel_fattr gathers them. */
typedef struct {
    int max_dyn_smem;       /* cudaFuncAttributeMaxDynamicSharedMemorySize */
    int carveout;           /* percent, -1 default */
    int cache_config;       /* enum cudaFuncCache */
    int cluster_must_be_set, nonportable_cluster, cluster_sched;
    int req_cluster[3];     /* .reqnctapercluster or set by attribute; 0 unset */
} rt_fattr;
enum {
    RT_KA_CARVEOUT,         /* carveout + 1 (0: default) */
    RT_KA_CACHE,            /* enum cudaFuncCache */
    RT_KA_CLUSTER_X, RT_KA_CLUSTER_Y, RT_KA_CLUSTER_Z,
    RT_KA_NONPORTABLE, RT_KA_SCHED,
};
struct rt_kernel;
/* The kernel's attributes and resources; the kernel must be ready (rt_kernel_ready). */
void rt_kernel_fattr(const struct rt_kernel *k, rt_func_res *r, rt_fattr *a);
cudaError_t rt_kernel_set_attr(struct rt_kernel *k, int attr, int value);
cudaError_t rt_kernel_set_cache(struct rt_kernel *k, int cache_config);
/* cudaFuncGetAttributes for a ready kernel. */
void rt_kernel_get_attributes(const struct rt_kernel *k, struct cudaFuncAttributes *a);

/* Occupancy as CUDA's calculator computes it (cuda_occupancy.h rules for sm_80/sm_90): the
 * resident blocks per SM for `block` threads and `dyn` bytes of dynamic shared memory, the
 * minimum over the warp, block-slot, register, shared-memory and barrier limits. */
int rt_occ_blocks_per_sm(const struct cudaDeviceProp *p, const rt_func_res *r,
                         const rt_fattr *a, int block, size_t dyn);
/* Largest dynamic shared size that still lets `nblocks` blocks of `block` threads reside. */
size_t rt_occ_avail_dyn_smem(const struct cudaDeviceProp *p, const rt_func_res *r,
                             const rt_fattr *a, int nblocks, int block);
/* The two above for a ready kernel, with its resources and attributes. */
int rt_kernel_occupancy(const struct rt_kernel *k, int block, size_t dyn);
size_t rt_kernel_avail_dyn_smem(const struct rt_kernel *k, int nblocks, int block);
/* Whether a block of `block` threads of the kernel fits the SM's register file (the launch
 * fails with cudaErrorLaunchOutOfResources otherwise). */
int rt_kernel_block_fits(const struct rt_kernel *k, int block);

/* The CUDA API functions defined in rt_device.c and rt_occ.c. */
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceFlags(unsigned int *flags);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
cudaError_t cudaDriverGetVersion(int *driverVersion);
cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit);
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig);
cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device);
cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId);
cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);

#endif
