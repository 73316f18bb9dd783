/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_sum.h: out = element-wise sum of all tensors in the list (broadcast to out).
 */
#ifndef OPENACL_ACLNNOP_ACLNN_SUM_H_
#define OPENACL_ACLNNOP_ACLNN_SUM_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSumGetWorkspaceSize(const aclTensorList* tensors, aclTensor* out,
                                               uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_SUM_H_ */
