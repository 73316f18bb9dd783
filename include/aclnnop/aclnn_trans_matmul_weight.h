/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_trans_matmul_weight.h: prepares a matmul weight in place for the device's
 * preferred layout; the CalculateMatmulWeightSize helpers report how many elements such a weight
 * occupies.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_TRANS_MATMUL_WEIGHT_H_
#define OPENACL_ACLNNOP_ACLNN_TRANS_MATMUL_WEIGHT_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCalculateMatmulWeightSizeV2(const aclIntArray* tensorShape,
                                                       aclDataType dataType,
                                                       uint64_t* weightTensorSize);

ACLNN_API aclnnStatus aclnnCalculateMatmulWeightSize(const aclIntArray* tensorShape,
                                                     uint64_t* weightTensorSize);

ACLNN_API aclnnStatus aclnnTransMatmulWeightGetWorkspaceSize(aclTensor* mmWeightRef,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTransMatmulWeight(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_TRANS_MATMUL_WEIGHT_H_ */
