/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_silu.h: out = self * sigmoid(self), element by element.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_SILU_H_
#define OPENACL_ACLNNOP_ACLNN_SILU_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSiluGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSilu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_SILU_H_ */
