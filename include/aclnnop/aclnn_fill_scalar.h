/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_fill_scalar.h: every element of selfRef = value.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_FILL_SCALAR_H_
#define OPENACL_ACLNNOP_ACLNN_FILL_SCALAR_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor* selfRef,
                                                             const aclScalar* value,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceFillScalar(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_FILL_SCALAR_H_ */
