/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_tril.h: out = self with every element above the diagonal-th diagonal set to 0
 * (lower triangle kept); the Inplace form writes into selfRef.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_TRIL_H_
#define OPENACL_ACLNNOP_ACLNN_TRIL_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTrilGetWorkspaceSize(const aclTensor* self, int64_t diagonal,
                                                aclTensor* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTril(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceTrilGetWorkspaceSize(const aclTensor* selfRef, int64_t diagonal,
                                                       uint64_t* workspaceSize,
                                                       aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceTril(void* workspace, uint64_t workspaceSize,
                                       aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_TRIL_H_ */
