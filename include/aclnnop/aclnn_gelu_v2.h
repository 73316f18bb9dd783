/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_gelu_v2.h: y = GELU(x), exact (approximate 0) or with the tanh approximation
 * (approximate 1).
 */
#ifndef OPENACL_ACLNNOP_ACLNN_GELU_V2_H_
#define OPENACL_ACLNNOP_ACLNN_GELU_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* x, int64_t approximate,
                                                  aclTensor* y, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGeluV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_GELU_V2_H_ */
