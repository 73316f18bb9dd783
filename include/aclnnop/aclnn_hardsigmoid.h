/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_hardsigmoid.h: out = clamp(self / 6 + 1/2, 0, 1), element by element; the Inplace
 * form writes into self.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_HARDSIGMOID_H_
#define OPENACL_ACLNNOP_ACLNN_HARDSIGMOID_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHardsigmoidGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                       uint64_t* workspaceSize,
                                                       aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnHardsigmoid(void* workspace, uint64_t workspaceSize,
                                       aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceHardsigmoidGetWorkspaceSize(const aclTensor* self,
                                                              uint64_t* workspaceSize,
                                                              aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceHardsigmoid(void* workspace, uint64_t workspaceSize,
                                              aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_HARDSIGMOID_H_ */
