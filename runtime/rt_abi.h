/* rt_abi.h - the CUDA runtime ABI (types, enums, flags) as programs built by nvcc pass them. */
#ifndef RT_ABI_H
#define RT_ABI_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------------------------------------
 * Our own declarations of the types the CUDA 13 runtime API passes across the library boundary,
 * with the same sizes, layouts and numeric values as the CUDA headers (driver_types.h,
 * vector_types.h, cuda_runtime_api.h), which are the specification. Nothing here includes a
 * CUDA header: the library builds where no CUDA toolkit is installed.
 * Device properties, textures, surfaces, arrays and graphs have their own headers (owned by the
 * files implementing them); this one holds what every part of the runtime shares.
 * ------------------------------------------------------------------------------------------- */

/* ---- errors ---------------------------------------------------------------------------------- */
typedef enum cudaError {
#define X(name, value, text) name = value,
#include "rt_errors.def"
#undef X
} cudaError_t;

/* CUresult (driver API) uses the same numbers for the codes both share; these are the ones the
 * runtime core needs (cu_*.c has the whole enum). */
#define RT_CUDA_SUCCESS 0
#define RT_CUDA_ERROR_NOT_SUPPORTED 801

/* ---- vectors and dimensions ------------------------------------------------------------------ */
typedef struct dim3 { unsigned int x, y, z; } dim3;  /* passed by value (12 bytes) */
typedef struct uint3 { unsigned int x, y, z; } uint3;

/* ---- opaque handles ------------------------------------------------------------------------- */
typedef struct CUstream_st *cudaStream_t;       /* defined in rt.h (rt_stream) */
typedef struct CUevent_st *cudaEvent_t;         /* defined in rt.h (rt_event) */
typedef struct CUkern_st *cudaKernel_t;         /* an rt_kernel (rt.h) */
typedef struct CUfunc_st *cudaFunction_t;       /* an rt_kernel (rt.h) */
typedef struct CUmemPoolHandle_st *cudaMemPool_t; /* an rt_mempool (rt.h) */
typedef struct cudaArray *cudaArray_t;           /* rt_tex.c */
typedef const struct cudaArray *cudaArray_const_t;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
typedef struct CUgraph_st *cudaGraph_t;          /* rt_graph.c */
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;

/* Special stream handles (cudaStreamLegacy / cudaStreamPerThread). A NULL stream is the default
 * stream: the legacy one, or the calling thread's own when the program was compiled with
 * --default-stream per-thread (the _ptsz / _ptds entry points). */
#define RT_STREAM_LEGACY     ((cudaStream_t)0x1)
#define RT_STREAM_PER_THREAD ((cudaStream_t)0x2)

typedef void (*cudaHostFn_t)(void *userData);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *userData);

/* ---- memory ---------------------------------------------------------------------------------- */
enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};

enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3,
};

struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
    long reserved[8];
};

struct cudaPitchedPtr { void *ptr; size_t pitch; size_t xsize; size_t ysize; };
struct cudaExtent { size_t width; size_t height; size_t depth; };
struct cudaPos { size_t x; size_t y; size_t z; };

struct cudaMemcpy3DParms {
    cudaArray_t srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    cudaArray_t dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    struct cudaExtent extent;
    enum cudaMemcpyKind kind;
};

struct cudaMemcpy3DPeerParms {
    cudaArray_t srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    int srcDevice;
    cudaArray_t dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    int dstDevice;
    struct cudaExtent extent;
};

enum cudaLimit {
    cudaLimitStackSize = 0x00,
    cudaLimitPrintfFifoSize = 0x01,
    cudaLimitMallocHeapSize = 0x02,
    cudaLimitDevRuntimeSyncDepth = 0x03,
    cudaLimitDevRuntimePendingLaunchCount = 0x04,
    cudaLimitMaxL2FetchGranularity = 0x05,
    cudaLimitPersistingL2CacheSize = 0x06,
};

/* Memory pools (cudaMallocAsync). */
enum cudaMemPoolAttr {
    cudaMemPoolReuseFollowEventDependencies = 0x1,
    cudaMemPoolReuseAllowOpportunistic = 0x2,
    cudaMemPoolReuseAllowInternalDependencies = 0x3,
    cudaMemPoolAttrReleaseThreshold = 0x4,
    cudaMemPoolAttrReservedMemCurrent = 0x5,
    cudaMemPoolAttrReservedMemHigh = 0x6,
    cudaMemPoolAttrUsedMemCurrent = 0x7,
    cudaMemPoolAttrUsedMemHigh = 0x8,
};
enum cudaMemLocationType {
    cudaMemLocationTypeInvalid = 0,
    cudaMemLocationTypeDevice = 1,
    cudaMemLocationTypeHost = 2,
    cudaMemLocationTypeHostNuma = 3,
    cudaMemLocationTypeHostNumaCurrent = 4,
};
struct cudaMemLocation { enum cudaMemLocationType type; int id; };
enum cudaMemAccessFlags {
    cudaMemAccessFlagsProtNone = 0,
    cudaMemAccessFlagsProtRead = 1,
    cudaMemAccessFlagsProtReadWrite = 3,
};
struct cudaMemAccessDesc { struct cudaMemLocation location; enum cudaMemAccessFlags flags; };
enum cudaMemAllocationType {
    cudaMemAllocationTypeInvalid = 0x0,
    cudaMemAllocationTypePinned = 0x1,
    cudaMemAllocationTypeManaged = 0x2,
    cudaMemAllocationTypeMax = 0x7FFFFFFF,
};
enum cudaMemAllocationHandleType {
    cudaMemHandleTypeNone = 0x0,
    cudaMemHandleTypePosixFileDescriptor = 0x1,
    cudaMemHandleTypeWin32 = 0x2,
    cudaMemHandleTypeWin32Kmt = 0x4,
    cudaMemHandleTypeFabric = 0x8,
};
struct cudaMemPoolProps {
    enum cudaMemAllocationType allocType;
    enum cudaMemAllocationHandleType handleTypes;
    struct cudaMemLocation location;
    void *win32SecurityAttributes;
    size_t maxSize;
    unsigned short usage;
    unsigned char reserved[54];
};

/* Flags. */
#define cudaHostAllocDefault       0x00
#define cudaHostAllocPortable      0x01
#define cudaHostAllocMapped        0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault    0x00
#define cudaHostRegisterPortable   0x01
#define cudaHostRegisterMapped     0x02
#define cudaHostRegisterIoMemory   0x04
#define cudaHostRegisterReadOnly   0x08
#define cudaMemAttachGlobal        0x01
#define cudaMemAttachHost          0x02
#define cudaMemAttachSingle        0x04
#define cudaStreamDefault          0x00
#define cudaStreamNonBlocking      0x01
#define cudaEventDefault           0x00
#define cudaEventBlockingSync      0x01
#define cudaEventDisableTiming     0x02
#define cudaEventInterprocess      0x04
#define cudaEventRecordDefault     0x00
#define cudaEventRecordExternal    0x01
#define cudaEventWaitDefault       0x00
#define cudaEventWaitExternal      0x01
#define cudaDeviceScheduleAuto     0x00
#define cudaDeviceScheduleSpin     0x01
#define cudaDeviceScheduleYield    0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceMapHost          0x08
#define cudaDeviceLmemResizeToMax  0x10
#define cudaDeviceSyncMemops       0x80
#define cudaDeviceMask             0xff

/* ---- launches -------------------------------------------------------------------------------- */
typedef enum cudaLaunchAttributeID {
    cudaLaunchAttributeIgnore = 0,
    cudaLaunchAttributeAccessPolicyWindow = 1,
    cudaLaunchAttributeCooperative = 2,
    cudaLaunchAttributeSynchronizationPolicy = 3,
    cudaLaunchAttributeClusterDimension = 4,
    cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
    cudaLaunchAttributeProgrammaticStreamSerialization = 6,
    cudaLaunchAttributeProgrammaticEvent = 7,
    cudaLaunchAttributePriority = 8,
    cudaLaunchAttributeMemSyncDomainMap = 9,
    cudaLaunchAttributeMemSyncDomain = 10,
    cudaLaunchAttributePreferredClusterDimension = 11,
    cudaLaunchAttributeLaunchCompletionEvent = 12,
    cudaLaunchAttributeDeviceUpdatableKernelNode = 13,
    cudaLaunchAttributePreferredSharedMemoryCarveout = 14,
    cudaLaunchAttributeNvlinkUtilCentricScheduling = 16,
} cudaLaunchAttributeID;

/* 64 bytes, 8-byte aligned (the real union also holds pointers and size_t). */
typedef union cudaLaunchAttributeValue {
    char pad[64];
    void *align_;
    int cooperative;
    struct { unsigned int x, y, z; } clusterDim;
    int programmaticStreamSerializationAllowed;
    struct { cudaEvent_t event; int flags; int triggerAtBlockStart; } programmaticEvent;
    int priority;
    struct { unsigned int x, y, z; } preferredClusterDim;
    struct { cudaEvent_t event; int flags; } launchCompletionEvent;
    unsigned int sharedMemCarveout;
} cudaLaunchAttributeValue;

typedef struct cudaLaunchAttribute_st {
    cudaLaunchAttributeID id;
    char pad[8 - sizeof(cudaLaunchAttributeID)];
    cudaLaunchAttributeValue val;
} cudaLaunchAttribute;

typedef struct cudaLaunchConfig_st {
    dim3 gridDim;
    dim3 blockDim;
    size_t dynamicSmemBytes;
    cudaStream_t stream;
    cudaLaunchAttribute *attrs;
    unsigned int numAttrs;
} cudaLaunchConfig_t;

/* Sanity of the layouts the ABI fixes. */
_Static_assert(sizeof(dim3) == 12, "dim3");
_Static_assert(sizeof(cudaLaunchAttributeValue) == 64, "cudaLaunchAttributeValue");
_Static_assert(sizeof(cudaLaunchAttribute) == 72, "cudaLaunchAttribute");
_Static_assert(sizeof(struct cudaPointerAttributes) == 88, "cudaPointerAttributes");
_Static_assert(sizeof(struct cudaMemPoolProps) == 88, "cudaMemPoolProps");
_Static_assert(sizeof(struct cudaMemcpy3DParms) == 160, "cudaMemcpy3DParms");
_Static_assert(sizeof(cudaLaunchConfig_t) == 56 && offsetof(cudaLaunchConfig_t, attrs) == 40,
               "cudaLaunchConfig_t");

#endif
