/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_amax.h: out = largest value of self over the dimensions in dim.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_AMAX_H_
#define OPENACL_ACLNNOP_ACLNN_AMAX_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim,
                                                bool keepDim, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_AMAX_H_ */
