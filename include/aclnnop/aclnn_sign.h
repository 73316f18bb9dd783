/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_sign.h: result = -1, 0 or 1 according to the sign of each element of self.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_SIGN_H_
#define OPENACL_ACLNNOP_ACLNN_SIGN_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSignGetWorkspaceSize(const aclTensor* self, aclTensor* result,
                                                uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSign(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_SIGN_H_ */
