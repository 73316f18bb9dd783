/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_gather_v2.h: out = the slices of self along dim picked by index (index's shape
 * replaces that dimension).
 */
#ifndef OPENACL_ACLNNOP_ACLNN_GATHER_V2_H_
#define OPENACL_ACLNNOP_ACLNN_GATHER_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGatherV2GetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                    const aclTensor* index, aclTensor* out,
                                                    uint64_t* workspaceSize,
                                                    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGatherV2(void* workspace, uint64_t workspaceSize,
                                    aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_GATHER_V2_H_ */
