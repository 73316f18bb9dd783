/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_threshold.h: out = self > threshold ? self : value, element by element; the
 * Inplace form writes into selfRef.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_THRESHOLD_H_
#define OPENACL_ACLNNOP_ACLNN_THRESHOLD_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnThresholdGetWorkspaceSize(const aclTensor* self,
                                                     const aclScalar* threshold,
                                                     const aclScalar* value, aclTensor* out,
                                                     uint64_t* workspaceSize,
                                                     aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnThreshold(void* workspace, uint64_t workspaceSize,
                                     aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceThresholdGetWorkspaceSize(aclTensor* selfRef,
                                                            const aclScalar* threshold,
                                                            const aclScalar* value,
                                                            uint64_t* workspaceSize,
                                                            aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceThreshold(void* workspace, uint64_t workspaceSize,
                                            aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_THRESHOLD_H_ */
