/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_ge_scalar.h: out = (self >= other) for a scalar other, as BOOL; the Inplace form
 * stores the result in selfRef.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_GE_SCALAR_H_
#define OPENACL_ACLNNOP_ACLNN_GE_SCALAR_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGeScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* other,
                                                    aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGeScalar(void* workspace, uint64_t workspaceSize,
                                    aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceGeScalarGetWorkspaceSize(aclTensor* selfRef,
                                                           const aclScalar* other,
                                                           uint64_t* workspaceSize,
                                                           aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceGeScalar(void* workspace, uint64_t workspaceSize,
                                           aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_GE_SCALAR_H_ */
