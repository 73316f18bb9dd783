/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_mv.h: out = self @ vec for a 2-D matrix and a 1-D vector.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_MV_H_
#define OPENACL_ACLNNOP_ACLNN_MV_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMvGetWorkspaceSize(const aclTensor* self, const aclTensor* vec,
                                              aclTensor* out, int8_t cubeMathType,
                                              uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMv(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_MV_H_ */
