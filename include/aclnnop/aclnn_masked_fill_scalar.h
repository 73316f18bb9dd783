/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_masked_fill_scalar.h: selfRef = value wherever mask (broadcast to selfRef) is
 * true.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_MASKED_FILL_SCALAR_H_
#define OPENACL_ACLNNOP_ACLNN_MASKED_FILL_SCALAR_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceMaskedFillScalarGetWorkspaceSize(aclTensor* selfRef,
                                                                   const aclTensor* mask,
                                                                   const aclScalar* value,
                                                                   uint64_t* workspaceSize,
                                                                   aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceMaskedFillScalar(void* workspace, uint64_t workspaceSize,
                                                   aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_MASKED_FILL_SCALAR_H_ */
