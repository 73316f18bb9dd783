/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_grouped_matmul_v3.h: y[i] = x[i] @ weight[i] (+ bias, with optional
 * (anti)quantisation) for a group of matrix products; groupListOptional/splitItem/groupType
 * describe how one big tensor is split into groups.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_GROUPED_MATMUL_V3_H_
#define OPENACL_ACLNNOP_ACLNN_GROUPED_MATMUL_V3_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupedMatmulV3GetWorkspaceSize(
    const aclTensorList* x, const aclTensorList* weight, const aclTensorList* biasOptional,
    const aclTensorList* scaleOptional, const aclTensorList* offsetOptional,
    const aclTensorList* antiquantScaleOptional, const aclTensorList* antiquantOffsetOptional,
    const aclTensor* groupListOptional, int64_t splitItem, int64_t groupType,
    const aclTensorList* y, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGroupedMatmulV3(void* workspace, uint64_t workspaceSize,
                                           aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_GROUPED_MATMUL_V3_H_ */
