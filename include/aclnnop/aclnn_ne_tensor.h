/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_ne_tensor.h: out = (self != other) element by element, with broadcasting; the
 * Inplace form stores the result in selfRef.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_NE_TENSOR_H_
#define OPENACL_ACLNNOP_ACLNN_NE_TENSOR_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnNeTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                                    aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnNeTensor(void* workspace, uint64_t workspaceSize,
                                    aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceNeTensorGetWorkspaceSize(aclTensor* selfRef,
                                                           const aclTensor* other,
                                                           uint64_t* workspaceSize,
                                                           aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceNeTensor(void* workspace, uint64_t workspaceSize,
                                           aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_NE_TENSOR_H_ */
