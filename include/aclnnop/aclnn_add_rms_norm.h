/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_add_rms_norm.h: xOut = x1 + x2; yOut = xOut / sqrt(mean(xOut^2) + epsilon) * gamma
 * over gamma's trailing dimensions; rstdOut = the reciprocal root.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_ADD_RMS_NORM_H_
#define OPENACL_ACLNNOP_ACLNN_ADD_RMS_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAddRmsNormGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma, double epsilon,
    const aclTensor* yOut, const aclTensor* rstdOut, const aclTensor* xOut, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAddRmsNorm(void* workspace, uint64_t workspaceSize,
                                      aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_ADD_RMS_NORM_H_ */
