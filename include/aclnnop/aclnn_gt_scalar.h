/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_gt_scalar.h: out = (self > other) for a scalar other, as BOOL; the Inplace form
 * stores the result in selfRef.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_GT_SCALAR_H_
#define OPENACL_ACLNNOP_ACLNN_GT_SCALAR_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGtScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* other,
                                                    aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGtScalar(void* workspace, uint64_t workspaceSize,
                                    aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceGtScalarGetWorkspaceSize(aclTensor* selfRef,
                                                           const aclScalar* other,
                                                           uint64_t* workspaceSize,
                                                           aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceGtScalar(void* workspace, uint64_t workspaceSize,
                                           aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_GT_SCALAR_H_ */
