/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_batch_norm.h: output = batch normalisation of input over every dimension but the
 * channel one (scaled by weight, shifted by bias); in training it uses batch statistics, updates
 * runningMean/runningVar with momentum and returns saveMean/saveInvstd, otherwise it uses the
 * running statistics.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_BATCH_NORM_H_
#define OPENACL_ACLNNOP_ACLNN_BATCH_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchNormGetWorkspaceSize(
    const aclTensor* input, const aclTensor* weight, const aclTensor* bias, aclTensor* runningMean,
    aclTensor* runningVar, bool training, double momentum, double eps, aclTensor* output,
    aclTensor* saveMean, aclTensor* saveInvstd, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBatchNorm(void* workspace, uint64_t workspaceSize,
                                     aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_BATCH_NORM_H_ */
