/* ABI checks for acl/acl_prof.h: values and layouts fixed by the AscendCL API. */
#include <stddef.h>
#include "acl/acl_prof.h"

_Static_assert(ACL_AICORE_ARITHMETIC_UTILIZATION == 0, "ACL_AICORE_ARITHMETIC_UTILIZATION");
_Static_assert(ACL_AICORE_PIPE_UTILIZATION == 1, "ACL_AICORE_PIPE_UTILIZATION");
_Static_assert(ACL_AICORE_MEMORY_BANDWIDTH == 2, "ACL_AICORE_MEMORY_BANDWIDTH");
_Static_assert(ACL_AICORE_L0B_AND_WIDTH == 3, "ACL_AICORE_L0B_AND_WIDTH");
_Static_assert(ACL_AICORE_RESOURCE_CONFLICT_RATIO == 4, "ACL_AICORE_RESOURCE_CONFLICT_RATIO");
_Static_assert(ACL_AICORE_MEMORY_UB == 5, "ACL_AICORE_MEMORY_UB");
_Static_assert(ACL_AICORE_L2_CACHE == 6, "ACL_AICORE_L2_CACHE");
_Static_assert(ACL_AICORE_PIPE_EXECUTE_UTILIZATION == 7, "ACL_AICORE_PIPE_EXECUTE_UTILIZATION");
_Static_assert(ACL_AICORE_MEMORY_ACCESS == 8, "ACL_AICORE_MEMORY_ACCESS");
_Static_assert(ACL_AICORE_NONE == 255, "ACL_AICORE_NONE");
_Static_assert(ACL_STEP_START == 0, "ACL_STEP_START");
_Static_assert(ACL_STEP_END == 1, "ACL_STEP_END");
_Static_assert(ACL_SUBSCRIBE_OP == 0, "ACL_SUBSCRIBE_OP");
_Static_assert(ACL_SUBSCRIBE_SUBGRAPH == 1, "ACL_SUBSCRIBE_SUBGRAPH");
_Static_assert(ACL_SUBSCRIBE_OP_THREAD == 2, "ACL_SUBSCRIBE_OP_THREAD");
_Static_assert(ACL_SUBSCRIBE_NONE == 255, "ACL_SUBSCRIBE_NONE");
_Static_assert(ACL_SUBSCRIBE_ATTRI_THREADID == 0, "ACL_SUBSCRIBE_ATTRI_THREADID");
_Static_assert(ACL_SUBSCRIBE_ATTRI_NONE == 1, "ACL_SUBSCRIBE_ATTRI_NONE");
_Static_assert(ACL_PROF_ARGS_MIN == 0, "ACL_PROF_ARGS_MIN");
_Static_assert(ACL_PROF_STORAGE_LIMIT == 1, "ACL_PROF_STORAGE_LIMIT");
_Static_assert(ACL_PROF_SYS_HARDWARE_MEM_FREQ == 3, "ACL_PROF_SYS_HARDWARE_MEM_FREQ");
_Static_assert(ACL_PROF_LLC_MODE == 4, "ACL_PROF_LLC_MODE");
_Static_assert(ACL_PROF_SYS_IO_FREQ == 5, "ACL_PROF_SYS_IO_FREQ");
_Static_assert(ACL_PROF_SYS_INTERCONNECTION_FREQ == 6, "ACL_PROF_SYS_INTERCONNECTION_FREQ");
_Static_assert(ACL_PROF_DVPP_FREQ == 7, "ACL_PROF_DVPP_FREQ");
_Static_assert(ACL_PROF_HOST_SYS == 8, "ACL_PROF_HOST_SYS");
_Static_assert(ACL_PROF_HOST_SYS_USAGE == 9, "ACL_PROF_HOST_SYS_USAGE");
_Static_assert(ACL_PROF_HOST_SYS_USAGE_FREQ == 10, "ACL_PROF_HOST_SYS_USAGE_FREQ");
_Static_assert(ACL_PROF_LOW_POWER_FREQ == 11, "ACL_PROF_LOW_POWER_FREQ");
_Static_assert(ACL_PROF_SYS_MEM_SERVICEFLOW == 12, "ACL_PROF_SYS_MEM_SERVICEFLOW");
_Static_assert(ACL_PROF_SYS_CPU_FREQ == 13, "ACL_PROF_SYS_CPU_FREQ");
_Static_assert(ACL_PROF_OPTYPE == 14, "ACL_PROF_OPTYPE");
_Static_assert(ACL_PROF_NTS_METRICS == 15, "ACL_PROF_NTS_METRICS");
_Static_assert(ACL_PROF_PATH == 16, "ACL_PROF_PATH");
_Static_assert(ACL_PROF_ARGS_MAX == 17, "ACL_PROF_ARGS_MAX");
_Static_assert(ACL_PROF_MESSAGE_TYPE_TENSOR_INFO == 0, "ACL_PROF_MESSAGE_TYPE_TENSOR_INFO");
_Static_assert(ACL_PROF_ACL_API == 0x0001ULL, "ACL_PROF_ACL_API");
_Static_assert(ACL_PROF_TASK_TIME == 0x0002ULL, "ACL_PROF_TASK_TIME");
_Static_assert(ACL_PROF_AICORE_METRICS == 0x0004ULL, "ACL_PROF_AICORE_METRICS");
_Static_assert(ACL_PROF_AICPU == 0x0008ULL, "ACL_PROF_AICPU");
_Static_assert(ACL_PROF_L2CACHE == 0x0010ULL, "ACL_PROF_L2CACHE");
_Static_assert(ACL_PROF_HCCL_TRACE == 0x0020ULL, "ACL_PROF_HCCL_TRACE");
_Static_assert(ACL_PROF_TRAINING_TRACE == 0x0040ULL, "ACL_PROF_TRAINING_TRACE");
_Static_assert(ACL_PROF_MSPROFTX == 0x0080ULL, "ACL_PROF_MSPROFTX");
_Static_assert(ACL_PROF_RUNTIME_API == 0x0100ULL, "ACL_PROF_RUNTIME_API");
_Static_assert(ACL_PROF_GE_API_L0 == 0x0200ULL, "ACL_PROF_GE_API_L0");
_Static_assert(ACL_PROF_TASK_TIME_L0 == 0x0800ULL, "ACL_PROF_TASK_TIME_L0");
_Static_assert(ACL_PROF_TASK_MEMORY == 0x1000ULL, "ACL_PROF_TASK_MEMORY");
_Static_assert(ACL_PROF_TASK_TIME_L2 == 0x2000ULL, "ACL_PROF_TASK_TIME_L2");
_Static_assert(ACL_PROF_OP_ATTR == 0x4000ULL, "ACL_PROF_OP_ATTR");
_Static_assert(ACL_PROF_TASK_TIME_L3 == 0x8000ULL, "ACL_PROF_TASK_TIME_L3");
_Static_assert(ACL_PROF_GE_API_L1 == 0x01000000ULL, "ACL_PROF_GE_API_L1");
_Static_assert(ACL_PROF_API_STATS == 0x400000000ULL, "ACL_PROF_API_STATS");
_Static_assert(ACL_PROF_AICORE_SHAPE == 0x800000000ULL, "ACL_PROF_AICORE_SHAPE");
_Static_assert(ACL_PROF_MAX_OP_NAME_LEN == 257, "ACL_PROF_MAX_OP_NAME_LEN");
_Static_assert(ACL_PROF_MAX_OP_TYPE_LEN == 65, "ACL_PROF_MAX_OP_TYPE_LEN");
_Static_assert(ACL_PROF_TENSOR_DATA_SHAPE_LEN == 8, "ACL_PROF_TENSOR_DATA_SHAPE_LEN");
_Static_assert(ACL_PROF_EVENT_ATTR_VERSION == 1, "ACL_PROF_EVENT_ATTR_VERSION");
_Static_assert(sizeof(aclprofTensor) == 48, "sizeof(aclprofTensor)");
_Static_assert(offsetof(aclprofTensor, type) == 0, "offsetof(aclprofTensor, type)");
_Static_assert(offsetof(aclprofTensor, format) == 4, "offsetof(aclprofTensor, format)");
_Static_assert(offsetof(aclprofTensor, dataType) == 8, "offsetof(aclprofTensor, dataType)");
_Static_assert(offsetof(aclprofTensor, shapeDim) == 12, "offsetof(aclprofTensor, shapeDim)");
_Static_assert(offsetof(aclprofTensor, shape) == 16, "offsetof(aclprofTensor, shape)");
_Static_assert(sizeof(aclprofTensorInfo) == 48, "sizeof(aclprofTensorInfo)");
_Static_assert(offsetof(aclprofTensorInfo, opNameId) == 0, "offsetof(aclprofTensorInfo, opNameId)");
_Static_assert(offsetof(aclprofTensorInfo, opTypeId) == 8, "offsetof(aclprofTensorInfo, opTypeId)");
_Static_assert(offsetof(aclprofTensorInfo, resv) == 16, "offsetof(aclprofTensorInfo, resv)");
_Static_assert(offsetof(aclprofTensorInfo, tensorNum) == 20,
               "offsetof(aclprofTensorInfo, tensorNum)");
_Static_assert(offsetof(aclprofTensorInfo, kernelType) == 24,
               "offsetof(aclprofTensorInfo, kernelType)");
_Static_assert(offsetof(aclprofTensorInfo, blockNums) == 28,
               "offsetof(aclprofTensorInfo, blockNums)");
_Static_assert(offsetof(aclprofTensorInfo, stream) == 32, "offsetof(aclprofTensorInfo, stream)");
_Static_assert(offsetof(aclprofTensorInfo, tensors) == 40, "offsetof(aclprofTensorInfo, tensors)");
_Static_assert(sizeof(aclprofEventAttributes) == 16, "sizeof(aclprofEventAttributes)");
_Static_assert(offsetof(aclprofEventAttributes, version) == 0,
               "offsetof(aclprofEventAttributes, version)");
_Static_assert(offsetof(aclprofEventAttributes, size) == 2,
               "offsetof(aclprofEventAttributes, size)");
_Static_assert(offsetof(aclprofEventAttributes, messageType) == 4,
               "offsetof(aclprofEventAttributes, messageType)");
_Static_assert(offsetof(aclprofEventAttributes, message) == 8,
               "offsetof(aclprofEventAttributes, message)");
_Static_assert(sizeof(aclprofAicoreMetrics) == 4, "sizeof(aclprofAicoreMetrics)");
_Static_assert(sizeof(aclprofConfigType) == 4, "sizeof(aclprofConfigType)");

int acl_prof_abi_checks(void) {
    return 80;
}
