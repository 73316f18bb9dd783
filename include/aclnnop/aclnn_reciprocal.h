/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_reciprocal.h: out = 1 / self, element by element; the Inplace form writes into
 * selfRef.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_RECIPROCAL_H_
#define OPENACL_ACLNNOP_ACLNN_RECIPROCAL_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReciprocalGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                      uint64_t* workspaceSize,
                                                      aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnReciprocal(void* workspace, uint64_t workspaceSize,
                                      aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceReciprocalGetWorkspaceSize(const aclTensor* selfRef,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceReciprocal(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_RECIPROCAL_H_ */
