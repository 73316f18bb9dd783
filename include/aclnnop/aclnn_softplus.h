/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_softplus.h: out = log(1 + exp(beta * self)) / beta, or self itself where beta *
 * self > threshold.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_SOFTPLUS_H_
#define OPENACL_ACLNNOP_ACLNN_SOFTPLUS_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSoftplusGetWorkspaceSize(const aclTensor* self, const aclScalar* beta,
                                                    const aclScalar* threshold, aclTensor* out,
                                                    uint64_t* workspaceSize,
                                                    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSoftplus(void* workspace, uint64_t workspaceSize,
                                    aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_SOFTPLUS_H_ */
