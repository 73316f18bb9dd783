/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_maximum.h: out = the larger of self and other, element by element, with
 * broadcasting.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_MAXIMUM_H_
#define OPENACL_ACLNNOP_ACLNN_MAXIMUM_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaximumGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                                   aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaximum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_MAXIMUM_H_ */
