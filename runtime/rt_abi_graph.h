/* rt_abi_graph.h - CUDA 13 ABI types of stream capture and CUDA graphs (rt_graph.c). */
#ifndef RT_ABI_GRAPH_H
#define RT_ABI_GRAPH_H

#include "rt_abi.h"

/* Layouts and values follow CUDA 13.0's driver_types.h (tests/test_rtapi.c checks sizes). */
enum cudaGraphNodeType {
    cudaGraphNodeTypeKernel = 0x00, cudaGraphNodeTypeMemcpy = 0x01, cudaGraphNodeTypeMemset = 0x02,
    cudaGraphNodeTypeHost = 0x03, cudaGraphNodeTypeGraph = 0x04, cudaGraphNodeTypeEmpty = 0x05,
    cudaGraphNodeTypeWaitEvent = 0x06, cudaGraphNodeTypeEventRecord = 0x07,
    cudaGraphNodeTypeExtSemaphoreSignal = 0x08, cudaGraphNodeTypeExtSemaphoreWait = 0x09,
    cudaGraphNodeTypeMemAlloc = 0x0a, cudaGraphNodeTypeMemFree = 0x0b,
    cudaGraphNodeTypeConditional = 0x0d,
};

enum cudaStreamCaptureStatus {
    cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1,
    cudaStreamCaptureStatusInvalidated = 2,
};

enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal = 0, cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed = 2,
};

enum cudaGraphExecUpdateResult {
    cudaGraphExecUpdateSuccess = 0x0, cudaGraphExecUpdateError = 0x1,
    cudaGraphExecUpdateErrorTopologyChanged = 0x2, cudaGraphExecUpdateErrorNodeTypeChanged = 0x3,
    cudaGraphExecUpdateErrorFunctionChanged = 0x4, cudaGraphExecUpdateErrorParametersChanged = 0x5,
    cudaGraphExecUpdateErrorNotSupported = 0x6,
    cudaGraphExecUpdateErrorUnsupportedFunctionChange = 0x7,
    cudaGraphExecUpdateErrorAttributesChanged = 0x8,
};

typedef struct cudaGraphExecUpdateResultInfo_st {
    enum cudaGraphExecUpdateResult result;
    cudaGraphNode_t errorNode;
    cudaGraphNode_t errorFromNode;
} cudaGraphExecUpdateResultInfo;

typedef struct cudaGraphEdgeData_st {
    unsigned char from_port, to_port, type, reserved[5];
} cudaGraphEdgeData;

struct cudaKernelNodeParams {
    void *func;
    dim3 gridDim;
    dim3 blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
};

struct cudaMemsetParams {
    void *dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
};

struct cudaHostNodeParams {
    cudaHostFn_t fn;
    void *userData;
};

struct cudaMemAllocNodeParams {
    struct cudaMemPoolProps poolProps;
    const struct cudaMemAccessDesc *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    void *dptr;
};

enum cudaGraphMemAttributeType {
    cudaGraphMemAttrUsedMemCurrent = 0x0, cudaGraphMemAttrUsedMemHigh = 0x1,
    cudaGraphMemAttrReservedMemCurrent = 0x2, cudaGraphMemAttrReservedMemHigh = 0x3,
};

#define cudaGraphInstantiateFlagAutoFreeOnLaunch 1
#define cudaGraphInstantiateFlagUpload 2
#define cudaGraphInstantiateFlagDeviceLaunch 4
#define cudaGraphInstantiateFlagUseNodePriority 8

#endif
