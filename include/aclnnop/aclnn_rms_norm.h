/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_rms_norm.h: yOut = x / sqrt(mean(x^2) + epsilon) * gamma over gamma's trailing
 * dimensions; rstdOut = the reciprocal root.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_RMS_NORM_H_
#define OPENACL_ACLNNOP_ACLNN_RMS_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma,
                                                   double epsilon, const aclTensor* yOut,
                                                   const aclTensor* rstdOut,
                                                   uint64_t* workspaceSize,
                                                   aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRmsNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_RMS_NORM_H_ */
