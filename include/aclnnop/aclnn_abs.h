/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_abs.h: out = |self|, element by element.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_ABS_H_
#define OPENACL_ACLNNOP_ACLNN_ABS_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAbsGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                               uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAbs(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_ABS_H_ */
