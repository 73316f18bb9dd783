/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_repeat.h: out = self tiled repeats[i] times along each dimension i.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_REPEAT_H_
#define OPENACL_ACLNNOP_ACLNN_REPEAT_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRepeatGetWorkspaceSize(const aclTensor* self, const aclIntArray* repeats,
                                                  aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRepeat(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_REPEAT_H_ */
