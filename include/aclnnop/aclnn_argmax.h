/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_argmax.h: out = index of the largest element of self along dim (keepdim keeps that
 * axis with size 1).
 */
#ifndef OPENACL_ACLNNOP_ACLNN_ARGMAX_H_
#define OPENACL_ACLNNOP_ACLNN_ARGMAX_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim,
                                                  aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnArgMax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_ARGMAX_H_ */
