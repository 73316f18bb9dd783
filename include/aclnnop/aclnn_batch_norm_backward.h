/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_batch_norm_backward.h: gradients of BatchNorm with respect to input, weight and
 * bias (outputMask says which to compute), from gradOut and the statistics of the forward pass.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_BATCH_NORM_BACKWARD_H_
#define OPENACL_ACLNNOP_ACLNN_BATCH_NORM_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchNormBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclTensor* weight,
    const aclTensor* runningMean, const aclTensor* runningVar, const aclTensor* saveMean,
    const aclTensor* saveInvstd, bool training, double eps, const aclBoolArray* outputMask,
    aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBatchNormBackward(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_BATCH_NORM_BACKWARD_H_ */
