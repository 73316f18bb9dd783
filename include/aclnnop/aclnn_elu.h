/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_elu.h: out = scale * (x > 0 ? x : alpha * (exp(inputScale * x) - 1)), element by
 * element; the Inplace form writes into selfRef.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_ELU_H_
#define OPENACL_ACLNNOP_ACLNN_ELU_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEluGetWorkspaceSize(const aclTensor* self, const aclScalar* alpha,
                                               const aclScalar* scale, const aclScalar* inputScale,
                                               aclTensor* out, uint64_t* workspaceSize,
                                               aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnElu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                               aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceEluGetWorkspaceSize(aclTensor* selfRef, const aclScalar* alpha,
                                                      const aclScalar* scale,
                                                      const aclScalar* inputScale,
                                                      uint64_t* workspaceSize,
                                                      aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceElu(void* workspace, uint64_t workspaceSize,
                                      aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_ELU_H_ */
