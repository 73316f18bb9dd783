/* ABI checks for acl/acl_mdl.h: values and layouts fixed by the AscendCL API. */
#include <stddef.h>
#include "acl/acl_mdl.h"

_Static_assert(ACL_YUV420SP_U8 == 1, "ACL_YUV420SP_U8");
_Static_assert(ACL_XRGB8888_U8 == 2, "ACL_XRGB8888_U8");
_Static_assert(ACL_RGB888_U8 == 3, "ACL_RGB888_U8");
_Static_assert(ACL_YUV400_U8 == 4, "ACL_YUV400_U8");
_Static_assert(ACL_NC1HWC0DI_FP16 == 5, "ACL_NC1HWC0DI_FP16");
_Static_assert(ACL_NC1HWC0DI_S8 == 6, "ACL_NC1HWC0DI_S8");
_Static_assert(ACL_ARGB8888_U8 == 7, "ACL_ARGB8888_U8");
_Static_assert(ACL_YUYV_U8 == 8, "ACL_YUYV_U8");
_Static_assert(ACL_YUV422SP_U8 == 9, "ACL_YUV422SP_U8");
_Static_assert(ACL_AYUV444_U8 == 10, "ACL_AYUV444_U8");
_Static_assert(ACL_RAW10 == 11, "ACL_RAW10");
_Static_assert(ACL_RAW12 == 12, "ACL_RAW12");
_Static_assert(ACL_RAW16 == 13, "ACL_RAW16");
_Static_assert(ACL_RAW24 == 14, "ACL_RAW24");
_Static_assert(ACL_AIPP_RESERVED == 65535, "ACL_AIPP_RESERVED");
_Static_assert(ACL_MDL_PRIORITY_INT32 == 0, "ACL_MDL_PRIORITY_INT32");
_Static_assert(ACL_MDL_LOAD_TYPE_SIZET == 1, "ACL_MDL_LOAD_TYPE_SIZET");
_Static_assert(ACL_MDL_PATH_PTR == 2, "ACL_MDL_PATH_PTR");
_Static_assert(ACL_MDL_MEM_ADDR_PTR == 3, "ACL_MDL_MEM_ADDR_PTR");
_Static_assert(ACL_MDL_MEM_SIZET == 4, "ACL_MDL_MEM_SIZET");
_Static_assert(ACL_MDL_WEIGHT_ADDR_PTR == 5, "ACL_MDL_WEIGHT_ADDR_PTR");
_Static_assert(ACL_MDL_WEIGHT_SIZET == 6, "ACL_MDL_WEIGHT_SIZET");
_Static_assert(ACL_MDL_WORKSPACE_ADDR_PTR == 7, "ACL_MDL_WORKSPACE_ADDR_PTR");
_Static_assert(ACL_MDL_WORKSPACE_SIZET == 8, "ACL_MDL_WORKSPACE_SIZET");
_Static_assert(ACL_MDL_INPUTQ_NUM_SIZET == 9, "ACL_MDL_INPUTQ_NUM_SIZET");
_Static_assert(ACL_MDL_INPUTQ_ADDR_PTR == 10, "ACL_MDL_INPUTQ_ADDR_PTR");
_Static_assert(ACL_MDL_OUTPUTQ_NUM_SIZET == 11, "ACL_MDL_OUTPUTQ_NUM_SIZET");
_Static_assert(ACL_MDL_OUTPUTQ_ADDR_PTR == 12, "ACL_MDL_OUTPUTQ_ADDR_PTR");
_Static_assert(ACL_MDL_WORKSPACE_MEM_OPTIMIZE == 13, "ACL_MDL_WORKSPACE_MEM_OPTIMIZE");
_Static_assert(ACL_MDL_WEIGHT_PATH_PTR == 14, "ACL_MDL_WEIGHT_PATH_PTR");
_Static_assert(ACL_MDL_MODEL_DESC_PTR == 15, "ACL_MDL_MODEL_DESC_PTR");
_Static_assert(ACL_MDL_MODEL_DESC_SIZET == 16, "ACL_MDL_MODEL_DESC_SIZET");
_Static_assert(ACL_MDL_KERNEL_PTR == 17, "ACL_MDL_KERNEL_PTR");
_Static_assert(ACL_MDL_KERNEL_SIZET == 18, "ACL_MDL_KERNEL_SIZET");
_Static_assert(ACL_MDL_KERNEL_ARGS_PTR == 19, "ACL_MDL_KERNEL_ARGS_PTR");
_Static_assert(ACL_MDL_KERNEL_ARGS_SIZET == 20, "ACL_MDL_KERNEL_ARGS_SIZET");
_Static_assert(ACL_MDL_STATIC_TASK_PTR == 21, "ACL_MDL_STATIC_TASK_PTR");
_Static_assert(ACL_MDL_STATIC_TASK_SIZET == 22, "ACL_MDL_STATIC_TASK_SIZET");
_Static_assert(ACL_MDL_DYNAMIC_TASK_PTR == 23, "ACL_MDL_DYNAMIC_TASK_PTR");
_Static_assert(ACL_MDL_DYNAMIC_TASK_SIZET == 24, "ACL_MDL_DYNAMIC_TASK_SIZET");
_Static_assert(ACL_MDL_MEM_MALLOC_POLICY_SIZET == 25, "ACL_MDL_MEM_MALLOC_POLICY_SIZET");
_Static_assert(ACL_MDL_FIFO_PTR == 26, "ACL_MDL_FIFO_PTR");
_Static_assert(ACL_MDL_FIFO_SIZET == 27, "ACL_MDL_FIFO_SIZET");
_Static_assert(ACL_MDL_WITHOUT_GRAPH_INT32 == 28, "ACL_MDL_WITHOUT_GRAPH_INT32");
_Static_assert(ACL_NPU_PERF_MODE == 29, "ACL_NPU_PERF_MODE");
_Static_assert(ACL_MDL_RESERVED == 65535, "ACL_MDL_RESERVED");
_Static_assert(ACL_MDL_ATTR_PRIORITY_INT32 == 0, "ACL_MDL_ATTR_PRIORITY_INT32");
_Static_assert(ACL_MDL_STREAM_SYNC_TIMEOUT == 0, "ACL_MDL_STREAM_SYNC_TIMEOUT");
_Static_assert(ACL_MDL_EVENT_SYNC_TIMEOUT == 1, "ACL_MDL_EVENT_SYNC_TIMEOUT");
_Static_assert(ACL_MDL_WORK_ADDR_PTR == 2, "ACL_MDL_WORK_ADDR_PTR");
_Static_assert(ACL_MDL_WORK_SIZET == 3, "ACL_MDL_WORK_SIZET");
_Static_assert(ACL_MDL_MPAIMID_SIZET == 4, "ACL_MDL_MPAIMID_SIZET");
_Static_assert(ACL_MDL_AICQOS_SIZET == 5, "ACL_MDL_AICQOS_SIZET");
_Static_assert(ACL_MDL_AICOST_SIZET == 6, "ACL_MDL_AICOST_SIZET");
_Static_assert(ACL_MDL_MEC_TIMETHR_SIZET == 7, "ACL_MDL_MEC_TIMETHR_SIZET");
_Static_assert(ACL_MDL_EXEC_PRIORITY_INT32 == 8, "ACL_MDL_EXEC_PRIORITY_INT32");
_Static_assert(ACL_MDL_NPU_PERF_MODE == 9, "ACL_MDL_NPU_PERF_MODE");
_Static_assert(ACL_DATA_WITHOUT_AIPP == 0, "ACL_DATA_WITHOUT_AIPP");
_Static_assert(ACL_DATA_WITH_STATIC_AIPP == 1, "ACL_DATA_WITH_STATIC_AIPP");
_Static_assert(ACL_DATA_WITH_DYNAMIC_AIPP == 2, "ACL_DATA_WITH_DYNAMIC_AIPP");
_Static_assert(ACL_DYNAMIC_AIPP_NODE == 3, "ACL_DYNAMIC_AIPP_NODE");
_Static_assert(ACL_DIM_ENDPOINTS == 2, "ACL_DIM_ENDPOINTS");
_Static_assert(ACL_MAX_DIM_CNT == 128, "ACL_MAX_DIM_CNT");
_Static_assert(ACL_MAX_TENSOR_NAME_LEN == 128, "ACL_MAX_TENSOR_NAME_LEN");
_Static_assert(ACL_MAX_BATCH_NUM == 128, "ACL_MAX_BATCH_NUM");
_Static_assert(ACL_MAX_HW_NUM == 128, "ACL_MAX_HW_NUM");
_Static_assert(ACL_MAX_SHAPE_COUNT == 128, "ACL_MAX_SHAPE_COUNT");
_Static_assert(ACL_INVALID_NODE_INDEX == 0xFFFFFFFFU, "ACL_INVALID_NODE_INDEX");
_Static_assert(ACL_MDL_LOAD_FROM_FILE == 1, "ACL_MDL_LOAD_FROM_FILE");
_Static_assert(ACL_MDL_LOAD_FROM_FILE_WITH_MEM == 2, "ACL_MDL_LOAD_FROM_FILE_WITH_MEM");
_Static_assert(ACL_MDL_LOAD_FROM_MEM == 3, "ACL_MDL_LOAD_FROM_MEM");
_Static_assert(ACL_MDL_LOAD_FROM_MEM_WITH_MEM == 4, "ACL_MDL_LOAD_FROM_MEM_WITH_MEM");
_Static_assert(ACL_MDL_LOAD_FROM_FILE_WITH_Q == 5, "ACL_MDL_LOAD_FROM_FILE_WITH_Q");
_Static_assert(ACL_MDL_LOAD_FROM_MEM_WITH_Q == 6, "ACL_MDL_LOAD_FROM_MEM_WITH_Q");
_Static_assert(ACL_WORKSPACE_MEM_OPTIMIZE_DEFAULT == 0, "ACL_WORKSPACE_MEM_OPTIMIZE_DEFAULT");
_Static_assert(ACL_WORKSPACE_MEM_OPTIMIZE_INPUTOUTPUT == 1,
               "ACL_WORKSPACE_MEM_OPTIMIZE_INPUTOUTPUT");
_Static_assert(ACL_MODEL_STREAM_FLAG_HEAD == 0x00000000U, "ACL_MODEL_STREAM_FLAG_HEAD");
_Static_assert(ACL_MODEL_STREAM_FLAG_DEFAULT == 0x7FFFFFFFU, "ACL_MODEL_STREAM_FLAG_DEFAULT");
_Static_assert(sizeof(ACL_DYNAMIC_TENSOR_NAME) == 25, "sizeof(ACL_DYNAMIC_TENSOR_NAME)");
_Static_assert(sizeof(ACL_DYNAMIC_AIPP_NAME) == 25, "sizeof(ACL_DYNAMIC_AIPP_NAME)");
_Static_assert(sizeof(ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES) == 28,
               "sizeof(ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES)");
_Static_assert(sizeof(aclmdlIODims) == 1160, "sizeof(aclmdlIODims)");
_Static_assert(offsetof(aclmdlIODims, name) == 0, "offsetof(aclmdlIODims, name)");
_Static_assert(offsetof(aclmdlIODims, dimCount) == 128, "offsetof(aclmdlIODims, dimCount)");
_Static_assert(offsetof(aclmdlIODims, dims) == 136, "offsetof(aclmdlIODims, dims)");
_Static_assert(sizeof(aclmdlIODimsRange) == 2056, "sizeof(aclmdlIODimsRange)");
_Static_assert(offsetof(aclmdlIODimsRange, rangeCount) == 0,
               "offsetof(aclmdlIODimsRange, rangeCount)");
_Static_assert(offsetof(aclmdlIODimsRange, range) == 8, "offsetof(aclmdlIODimsRange, range)");
_Static_assert(sizeof(aclAippDims) == 2336, "sizeof(aclAippDims)");
_Static_assert(offsetof(aclAippDims, srcDims) == 0, "offsetof(aclAippDims, srcDims)");
_Static_assert(offsetof(aclAippDims, srcSize) == 1160, "offsetof(aclAippDims, srcSize)");
_Static_assert(offsetof(aclAippDims, aippOutdims) == 1168, "offsetof(aclAippDims, aippOutdims)");
_Static_assert(offsetof(aclAippDims, aippOutSize) == 2328, "offsetof(aclAippDims, aippOutSize)");
_Static_assert(sizeof(aclmdlBatch) == 1032, "sizeof(aclmdlBatch)");
_Static_assert(offsetof(aclmdlBatch, batchCount) == 0, "offsetof(aclmdlBatch, batchCount)");
_Static_assert(offsetof(aclmdlBatch, batch) == 8, "offsetof(aclmdlBatch, batch)");
_Static_assert(sizeof(aclmdlHW) == 2056, "sizeof(aclmdlHW)");
_Static_assert(offsetof(aclmdlHW, hwCount) == 0, "offsetof(aclmdlHW, hwCount)");
_Static_assert(offsetof(aclmdlHW, hw) == 8, "offsetof(aclmdlHW, hw)");
_Static_assert(sizeof(aclAippInfo) == 299216, "sizeof(aclAippInfo)");
_Static_assert(offsetof(aclAippInfo, inputFormat) == 0, "offsetof(aclAippInfo, inputFormat)");
_Static_assert(offsetof(aclAippInfo, srcImageSizeW) == 4, "offsetof(aclAippInfo, srcImageSizeW)");
_Static_assert(offsetof(aclAippInfo, srcImageSizeH) == 8, "offsetof(aclAippInfo, srcImageSizeH)");
_Static_assert(offsetof(aclAippInfo, cropSwitch) == 12, "offsetof(aclAippInfo, cropSwitch)");
_Static_assert(offsetof(aclAippInfo, loadStartPosW) == 16, "offsetof(aclAippInfo, loadStartPosW)");
_Static_assert(offsetof(aclAippInfo, loadStartPosH) == 20, "offsetof(aclAippInfo, loadStartPosH)");
_Static_assert(offsetof(aclAippInfo, cropSizeW) == 24, "offsetof(aclAippInfo, cropSizeW)");
_Static_assert(offsetof(aclAippInfo, cropSizeH) == 28, "offsetof(aclAippInfo, cropSizeH)");
_Static_assert(offsetof(aclAippInfo, resizeSwitch) == 32, "offsetof(aclAippInfo, resizeSwitch)");
_Static_assert(offsetof(aclAippInfo, resizeOutputW) == 36, "offsetof(aclAippInfo, resizeOutputW)");
_Static_assert(offsetof(aclAippInfo, resizeOutputH) == 40, "offsetof(aclAippInfo, resizeOutputH)");
_Static_assert(offsetof(aclAippInfo, paddingSwitch) == 44, "offsetof(aclAippInfo, paddingSwitch)");
_Static_assert(offsetof(aclAippInfo, leftPaddingSize) == 48,
               "offsetof(aclAippInfo, leftPaddingSize)");
_Static_assert(offsetof(aclAippInfo, rightPaddingSize) == 52,
               "offsetof(aclAippInfo, rightPaddingSize)");
_Static_assert(offsetof(aclAippInfo, topPaddingSize) == 56,
               "offsetof(aclAippInfo, topPaddingSize)");
_Static_assert(offsetof(aclAippInfo, bottomPaddingSize) == 60,
               "offsetof(aclAippInfo, bottomPaddingSize)");
_Static_assert(offsetof(aclAippInfo, cscSwitch) == 64, "offsetof(aclAippInfo, cscSwitch)");
_Static_assert(offsetof(aclAippInfo, rbuvSwapSwitch) == 65,
               "offsetof(aclAippInfo, rbuvSwapSwitch)");
_Static_assert(offsetof(aclAippInfo, axSwapSwitch) == 66, "offsetof(aclAippInfo, axSwapSwitch)");
_Static_assert(offsetof(aclAippInfo, singleLineMode) == 67,
               "offsetof(aclAippInfo, singleLineMode)");
_Static_assert(offsetof(aclAippInfo, matrixR0C0) == 68, "offsetof(aclAippInfo, matrixR0C0)");
_Static_assert(offsetof(aclAippInfo, matrixR0C1) == 72, "offsetof(aclAippInfo, matrixR0C1)");
_Static_assert(offsetof(aclAippInfo, matrixR0C2) == 76, "offsetof(aclAippInfo, matrixR0C2)");
_Static_assert(offsetof(aclAippInfo, matrixR1C0) == 80, "offsetof(aclAippInfo, matrixR1C0)");
_Static_assert(offsetof(aclAippInfo, matrixR1C1) == 84, "offsetof(aclAippInfo, matrixR1C1)");
_Static_assert(offsetof(aclAippInfo, matrixR1C2) == 88, "offsetof(aclAippInfo, matrixR1C2)");
_Static_assert(offsetof(aclAippInfo, matrixR2C0) == 92, "offsetof(aclAippInfo, matrixR2C0)");
_Static_assert(offsetof(aclAippInfo, matrixR2C1) == 96, "offsetof(aclAippInfo, matrixR2C1)");
_Static_assert(offsetof(aclAippInfo, matrixR2C2) == 100, "offsetof(aclAippInfo, matrixR2C2)");
_Static_assert(offsetof(aclAippInfo, outputBias0) == 104, "offsetof(aclAippInfo, outputBias0)");
_Static_assert(offsetof(aclAippInfo, outputBias1) == 108, "offsetof(aclAippInfo, outputBias1)");
_Static_assert(offsetof(aclAippInfo, outputBias2) == 112, "offsetof(aclAippInfo, outputBias2)");
_Static_assert(offsetof(aclAippInfo, inputBias0) == 116, "offsetof(aclAippInfo, inputBias0)");
_Static_assert(offsetof(aclAippInfo, inputBias1) == 120, "offsetof(aclAippInfo, inputBias1)");
_Static_assert(offsetof(aclAippInfo, inputBias2) == 124, "offsetof(aclAippInfo, inputBias2)");
_Static_assert(offsetof(aclAippInfo, meanChn0) == 128, "offsetof(aclAippInfo, meanChn0)");
_Static_assert(offsetof(aclAippInfo, meanChn1) == 132, "offsetof(aclAippInfo, meanChn1)");
_Static_assert(offsetof(aclAippInfo, meanChn2) == 136, "offsetof(aclAippInfo, meanChn2)");
_Static_assert(offsetof(aclAippInfo, meanChn3) == 140, "offsetof(aclAippInfo, meanChn3)");
_Static_assert(offsetof(aclAippInfo, minChn0) == 144, "offsetof(aclAippInfo, minChn0)");
_Static_assert(offsetof(aclAippInfo, minChn1) == 148, "offsetof(aclAippInfo, minChn1)");
_Static_assert(offsetof(aclAippInfo, minChn2) == 152, "offsetof(aclAippInfo, minChn2)");
_Static_assert(offsetof(aclAippInfo, minChn3) == 156, "offsetof(aclAippInfo, minChn3)");
_Static_assert(offsetof(aclAippInfo, varReciChn0) == 160, "offsetof(aclAippInfo, varReciChn0)");
_Static_assert(offsetof(aclAippInfo, varReciChn1) == 164, "offsetof(aclAippInfo, varReciChn1)");
_Static_assert(offsetof(aclAippInfo, varReciChn2) == 168, "offsetof(aclAippInfo, varReciChn2)");
_Static_assert(offsetof(aclAippInfo, varReciChn3) == 172, "offsetof(aclAippInfo, varReciChn3)");
_Static_assert(offsetof(aclAippInfo, srcFormat) == 176, "offsetof(aclAippInfo, srcFormat)");
_Static_assert(offsetof(aclAippInfo, srcDatatype) == 180, "offsetof(aclAippInfo, srcDatatype)");
_Static_assert(offsetof(aclAippInfo, srcDimNum) == 184, "offsetof(aclAippInfo, srcDimNum)");
_Static_assert(offsetof(aclAippInfo, shapeCount) == 192, "offsetof(aclAippInfo, shapeCount)");
_Static_assert(offsetof(aclAippInfo, outDims) == 200, "offsetof(aclAippInfo, outDims)");
_Static_assert(offsetof(aclAippInfo, aippExtend) == 299208, "offsetof(aclAippInfo, aippExtend)");
_Static_assert(sizeof(aclmdlExeOMDesc) == 128, "sizeof(aclmdlExeOMDesc)");
_Static_assert(offsetof(aclmdlExeOMDesc, workSize) == 0, "offsetof(aclmdlExeOMDesc, workSize)");
_Static_assert(offsetof(aclmdlExeOMDesc, weightSize) == 8, "offsetof(aclmdlExeOMDesc, weightSize)");
_Static_assert(offsetof(aclmdlExeOMDesc, modelDescSize) == 16,
               "offsetof(aclmdlExeOMDesc, modelDescSize)");
_Static_assert(offsetof(aclmdlExeOMDesc, kernelSize) == 24,
               "offsetof(aclmdlExeOMDesc, kernelSize)");
_Static_assert(offsetof(aclmdlExeOMDesc, kernelArgsSize) == 32,
               "offsetof(aclmdlExeOMDesc, kernelArgsSize)");
_Static_assert(offsetof(aclmdlExeOMDesc, staticTaskSize) == 40,
               "offsetof(aclmdlExeOMDesc, staticTaskSize)");
_Static_assert(offsetof(aclmdlExeOMDesc, dynamicTaskSize) == 48,
               "offsetof(aclmdlExeOMDesc, dynamicTaskSize)");
_Static_assert(offsetof(aclmdlExeOMDesc, fifoTaskSize) == 56,
               "offsetof(aclmdlExeOMDesc, fifoTaskSize)");
_Static_assert(offsetof(aclmdlExeOMDesc, reserved) == 64, "offsetof(aclmdlExeOMDesc, reserved)");
_Static_assert(sizeof(aclmdlAttrValue_t) == 32, "sizeof(aclmdlAttrValue_t)");
_Static_assert(offsetof(aclmdlAttrValue_t, mdlPriority) == 0,
               "offsetof(aclmdlAttrValue_t, mdlPriority)");
_Static_assert(offsetof(aclmdlAttrValue_t, reserved) == 0, "offsetof(aclmdlAttrValue_t, reserved)");
_Static_assert(sizeof(aclmdlModel) == sizeof(void*), "sizeof(aclmdlModel)");
_Static_assert(sizeof(aclAippInputFormat) == 4, "sizeof(aclAippInputFormat)");
_Static_assert(sizeof(aclmdlConfigAttr) == 4, "sizeof(aclmdlConfigAttr)");

int acl_mdl_abi_checks(void) {
    return 169;
}
