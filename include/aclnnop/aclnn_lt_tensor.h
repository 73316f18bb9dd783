/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_lt_tensor.h: out = (self < other) element by element, with broadcasting; the
 * Inplace form stores the result in selfRef.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_LT_TENSOR_H_
#define OPENACL_ACLNNOP_ACLNN_LT_TENSOR_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLtTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                                    aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLtTensor(void* workspace, uint64_t workspaceSize,
                                    aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceLtTensorGetWorkspaceSize(const aclTensor* selfRef,
                                                           const aclTensor* other,
                                                           uint64_t* workspaceSize,
                                                           aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceLtTensor(void* workspace, uint64_t workspaceSize,
                                           aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_LT_TENSOR_H_ */
