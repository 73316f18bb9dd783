/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_hardswish.h: out = self * clamp(self + 3, 0, 6) / 6, element by element; the
 * Inplace form writes into self.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_HARDSWISH_H_
#define OPENACL_ACLNNOP_ACLNN_HARDSWISH_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHardswishGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                     uint64_t* workspaceSize,
                                                     aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnHardswish(void* workspace, uint64_t workspaceSize,
                                     aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceHardswishGetWorkspaceSize(const aclTensor* self,
                                                            uint64_t* workspaceSize,
                                                            aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceHardswish(void* workspace, uint64_t workspaceSize,
                                            aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_HARDSWISH_H_ */
