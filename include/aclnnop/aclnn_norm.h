/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_norm.h: out = p-norm of self (p given by pScalar) over the dimensions in dim.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_NORM_H_
#define OPENACL_ACLNNOP_ACLNN_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnNormGetWorkspaceSize(const aclTensor* self, const aclScalar* pScalar,
                                                const aclIntArray* dim, bool keepdim,
                                                aclTensor* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_NORM_H_ */
