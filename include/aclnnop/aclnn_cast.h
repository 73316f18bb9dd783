/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_cast.h: out = self converted to dtype.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_CAST_H_
#define OPENACL_ACLNNOP_ACLNN_CAST_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor* self, aclDataType dtype,
                                                aclTensor* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCast(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_CAST_H_ */
