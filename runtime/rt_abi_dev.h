/* rt_abi_dev.h - CUDA 13 ABI types of the device, function-attribute and occupancy API. */
#ifndef RT_ABI_DEV_H
#define RT_ABI_DEV_H

#include <stddef.h>
#include "rt_abi.h"

/* (enum cudaLimit and the cudaDevice* flags are in rt_abi.h.) Layouts follow CUDA 13.0's driver_types.h field for field (tests/test_rtapi.c asserts every
 * offset and the sizes); the CUDA headers themselves are never included. */

typedef struct CUuuid_st { char bytes[16]; } cudaUUID_t;

struct cudaDeviceProp {
    char         name[256];
    cudaUUID_t   uuid;
    char         luid[8];
    unsigned int luidDeviceNodeMask;
    size_t       totalGlobalMem;
    size_t       sharedMemPerBlock;
    int          regsPerBlock;
    int          warpSize;
    size_t       memPitch;
    int          maxThreadsPerBlock;
    int          maxThreadsDim[3];
    int          maxGridSize[3];
    size_t       totalConstMem;
    int          major;
    int          minor;
    size_t       textureAlignment;
    size_t       texturePitchAlignment;
    int          multiProcessorCount;
    int          integrated;
    int          canMapHostMemory;
    int          maxTexture1D;
    int          maxTexture1DMipmap;
    int          maxTexture2D[2];
    int          maxTexture2DMipmap[2];
    int          maxTexture2DLinear[3];
    int          maxTexture2DGather[2];
    int          maxTexture3D[3];
    int          maxTexture3DAlt[3];
    int          maxTextureCubemap;
    int          maxTexture1DLayered[2];
    int          maxTexture2DLayered[3];
    int          maxTextureCubemapLayered[2];
    int          maxSurface1D;
    int          maxSurface2D[2];
    int          maxSurface3D[3];
    int          maxSurface1DLayered[2];
    int          maxSurface2DLayered[3];
    int          maxSurfaceCubemap;
    int          maxSurfaceCubemapLayered[2];
    size_t       surfaceAlignment;
    int          concurrentKernels;
    int          ECCEnabled;
    int          pciBusID;
    int          pciDeviceID;
    int          pciDomainID;
    int          tccDriver;
    int          asyncEngineCount;
    int          unifiedAddressing;
    int          memoryBusWidth;
    int          l2CacheSize;
    int          persistingL2CacheMaxSize;
    int          maxThreadsPerMultiProcessor;
    int          streamPrioritiesSupported;
    int          globalL1CacheSupported;
    int          localL1CacheSupported;
    size_t       sharedMemPerMultiprocessor;
    int          regsPerMultiprocessor;
    int          managedMemory;
    int          isMultiGpuBoard;
    int          multiGpuBoardGroupID;
    int          hostNativeAtomicSupported;
    int          pageableMemoryAccess;
    int          concurrentManagedAccess;
    int          computePreemptionSupported;
    int          canUseHostPointerForRegisteredMem;
    int          cooperativeLaunch;
    size_t       sharedMemPerBlockOptin;
    int          pageableMemoryAccessUsesHostPageTables;
    int          directManagedMemAccessFromHost;
    int          maxBlocksPerMultiProcessor;
    int          accessPolicyMaxWindowSize;
    size_t       reservedSharedMemPerBlock;
    int          hostRegisterSupported;
    int          sparseCudaArraySupported;
    int          hostRegisterReadOnlySupported;
    int          timelineSemaphoreInteropSupported;
    int          memoryPoolsSupported;
    int          gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int          gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int          deferredMappingCudaArraySupported;
    int          ipcEventSupported;
    int          clusterLaunch;
    int          unifiedFunctionPointers;
    int          deviceNumaConfig;
    int          deviceNumaId;
    int          mpsEnabled;
    int          hostNumaId;
    unsigned int gpuPciDeviceID;
    unsigned int gpuPciSubsystemID;
    int          hostNumaMultinodeIpcSupported;
    int          reserved[56];
};

struct cudaFuncAttributes {
    size_t sharedSizeBytes;
    size_t constSizeBytes;
    size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
    int clusterDimMustBeSet;
    int requiredClusterWidth;
    int requiredClusterHeight;
    int requiredClusterDepth;
    int clusterSchedulingPolicyPreference;
    int nonPortableClusterSizeAllowed;
    int reserved[16];
};

/* enum cudaDeviceAttr (numbers of CUDA 13.0; gaps are values CUDA does not define). */
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4, cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7, cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9, cudaDevAttrWarpSize = 10, cudaDevAttrMaxPitch = 11,
    cudaDevAttrMaxRegistersPerBlock = 12, cudaDevAttrClockRate = 13,
    cudaDevAttrTextureAlignment = 14, cudaDevAttrGpuOverlap = 15,
    cudaDevAttrMultiProcessorCount = 16, cudaDevAttrKernelExecTimeout = 17,
    cudaDevAttrIntegrated = 18, cudaDevAttrCanMapHostMemory = 19, cudaDevAttrComputeMode = 20,
    cudaDevAttrMaxTexture1DWidth = 21, cudaDevAttrMaxTexture2DWidth = 22,
    cudaDevAttrMaxTexture2DHeight = 23, cudaDevAttrMaxTexture3DWidth = 24,
    cudaDevAttrMaxTexture3DHeight = 25, cudaDevAttrMaxTexture3DDepth = 26,
    cudaDevAttrMaxTexture2DLayeredWidth = 27, cudaDevAttrMaxTexture2DLayeredHeight = 28,
    cudaDevAttrMaxTexture2DLayeredLayers = 29, cudaDevAttrSurfaceAlignment = 30,
    cudaDevAttrConcurrentKernels = 31, cudaDevAttrEccEnabled = 32, cudaDevAttrPciBusId = 33,
    cudaDevAttrPciDeviceId = 34, cudaDevAttrTccDriver = 35, cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37, cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39, cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrUnifiedAddressing = 41, cudaDevAttrMaxTexture1DLayeredWidth = 42,
    cudaDevAttrMaxTexture1DLayeredLayers = 43, cudaDevAttrMaxTexture2DGatherWidth = 45,
    cudaDevAttrMaxTexture2DGatherHeight = 46, cudaDevAttrMaxTexture3DWidthAlt = 47,
    cudaDevAttrMaxTexture3DHeightAlt = 48, cudaDevAttrMaxTexture3DDepthAlt = 49,
    cudaDevAttrPciDomainId = 50, cudaDevAttrTexturePitchAlignment = 51,
    cudaDevAttrMaxTextureCubemapWidth = 52, cudaDevAttrMaxTextureCubemapLayeredWidth = 53,
    cudaDevAttrMaxTextureCubemapLayeredLayers = 54, cudaDevAttrMaxSurface1DWidth = 55,
    cudaDevAttrMaxSurface2DWidth = 56, cudaDevAttrMaxSurface2DHeight = 57,
    cudaDevAttrMaxSurface3DWidth = 58, cudaDevAttrMaxSurface3DHeight = 59,
    cudaDevAttrMaxSurface3DDepth = 60, cudaDevAttrMaxSurface1DLayeredWidth = 61,
    cudaDevAttrMaxSurface1DLayeredLayers = 62, cudaDevAttrMaxSurface2DLayeredWidth = 63,
    cudaDevAttrMaxSurface2DLayeredHeight = 64, cudaDevAttrMaxSurface2DLayeredLayers = 65,
    cudaDevAttrMaxSurfaceCubemapWidth = 66, cudaDevAttrMaxSurfaceCubemapLayeredWidth = 67,
    cudaDevAttrMaxSurfaceCubemapLayeredLayers = 68, cudaDevAttrMaxTexture1DLinearWidth = 69,
    cudaDevAttrMaxTexture2DLinearWidth = 70, cudaDevAttrMaxTexture2DLinearHeight = 71,
    cudaDevAttrMaxTexture2DLinearPitch = 72, cudaDevAttrMaxTexture2DMipmappedWidth = 73,
    cudaDevAttrMaxTexture2DMipmappedHeight = 74, cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76, cudaDevAttrMaxTexture1DMipmappedWidth = 77,
    cudaDevAttrStreamPrioritiesSupported = 78, cudaDevAttrGlobalL1CacheSupported = 79,
    cudaDevAttrLocalL1CacheSupported = 80, cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82, cudaDevAttrManagedMemory = 83,
    cudaDevAttrIsMultiGpuBoard = 84, cudaDevAttrMultiGpuBoardGroupID = 85,
    cudaDevAttrHostNativeAtomicSupported = 86, cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
    cudaDevAttrPageableMemoryAccess = 88, cudaDevAttrConcurrentManagedAccess = 89,
    cudaDevAttrComputePreemptionSupported = 90, cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
    cudaDevAttrReserved92 = 92, cudaDevAttrReserved93 = 93, cudaDevAttrReserved94 = 94,
    cudaDevAttrCooperativeLaunch = 95, cudaDevAttrReserved96 = 96,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97, cudaDevAttrCanFlushRemoteWrites = 98,
    cudaDevAttrHostRegisterSupported = 99, cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
    cudaDevAttrDirectManagedMemAccessFromHost = 101, cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrMaxPersistingL2CacheSize = 108, cudaDevAttrMaxAccessPolicyWindowSize = 109,
    cudaDevAttrReservedSharedMemoryPerBlock = 111, cudaDevAttrSparseCudaArraySupported = 112,
    cudaDevAttrHostRegisterReadOnlySupported = 113,
    cudaDevAttrTimelineSemaphoreInteropSupported = 114, cudaDevAttrMemoryPoolsSupported = 115,
    cudaDevAttrGPUDirectRDMASupported = 116, cudaDevAttrGPUDirectRDMAFlushWritesOptions = 117,
    cudaDevAttrGPUDirectRDMAWritesOrdering = 118, cudaDevAttrMemoryPoolSupportedHandleTypes = 119,
    cudaDevAttrClusterLaunch = 120, cudaDevAttrDeferredMappingCudaArraySupported = 121,
    cudaDevAttrReserved122 = 122, cudaDevAttrReserved123 = 123, cudaDevAttrReserved124 = 124,
    cudaDevAttrIpcEventSupport = 125, cudaDevAttrMemSyncDomainCount = 126,
    cudaDevAttrReserved127 = 127, cudaDevAttrReserved128 = 128, cudaDevAttrReserved129 = 129,
    cudaDevAttrNumaConfig = 130, cudaDevAttrNumaId = 131, cudaDevAttrReserved132 = 132,
    cudaDevAttrMpsEnabled = 133, cudaDevAttrHostNumaId = 134, cudaDevAttrD3D12CigSupported = 135,
    cudaDevAttrVulkanCigSupported = 138, cudaDevAttrGpuPciDeviceId = 139,
    cudaDevAttrGpuPciSubsystemId = 140, cudaDevAttrReserved141 = 141,
    cudaDevAttrHostNumaMemoryPoolsSupported = 142, cudaDevAttrHostNumaMultinodeIpcSupported = 143,
    cudaDevAttrHostMemoryPoolsSupported = 144, cudaDevAttrReserved145 = 145,
    cudaDevAttrOnlyPartialHostNativeAtomicSupported = 147,
    cudaDevAttrMax
};


enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
    cudaFuncAttributeClusterDimMustBeSet = 10, cudaFuncAttributeRequiredClusterWidth = 11,
    cudaFuncAttributeRequiredClusterHeight = 12, cudaFuncAttributeRequiredClusterDepth = 13,
    cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
    cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
    cudaFuncAttributeMax
};

enum cudaFuncCache {
    cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2,
    cudaFuncCachePreferEqual = 3,
};

enum cudaSharedMemConfig {
    cudaSharedMemBankSizeDefault = 0, cudaSharedMemBankSizeFourByte = 1,
    cudaSharedMemBankSizeEightByte = 2,
};

enum cudaComputeMode {
    cudaComputeModeDefault = 0, cudaComputeModeExclusive = 1, cudaComputeModeProhibited = 2,
    cudaComputeModeExclusiveProcess = 3,
};

/* Shared-memory carveout in percent (cudaFuncAttributePreferredSharedMemoryCarveout). */
enum cudaSharedCarveout {
    cudaSharedmemCarveoutDefault = -1, cudaSharedmemCarveoutMaxShared = 100,
    cudaSharedmemCarveoutMaxL1 = 0,
};

#define cudaDeviceScheduleMask          0x07
#define cudaOccupancyDefault            0x00
#define cudaOccupancyDisableCachingOverride 0x01
#define cudaCpuDeviceId                 (-1)
#define cudaInvalidDeviceId             (-2)
#define cudaInitDeviceFlagsAreValid     0x01

#endif
