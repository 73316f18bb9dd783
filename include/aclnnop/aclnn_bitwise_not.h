/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_bitwise_not.h: out = ~self for integers, !self for BOOL.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_BITWISE_NOT_H_
#define OPENACL_ACLNNOP_ACLNN_BITWISE_NOT_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBitwiseNotGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                      uint64_t* workspaceSize,
                                                      aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBitwiseNot(void* workspace, uint64_t workspaceSize,
                                      aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_BITWISE_NOT_H_ */
