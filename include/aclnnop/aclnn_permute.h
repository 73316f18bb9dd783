/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_permute.h: out = self with its dimensions reordered as dims lists them.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_PERMUTE_H_
#define OPENACL_ACLNNOP_ACLNN_PERMUTE_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims,
                                                   aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnPermute(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_PERMUTE_H_ */
