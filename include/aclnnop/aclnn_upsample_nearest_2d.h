/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_upsample_nearest_2d.h: out = self (NCHW or NHWC) resized to outputSize (H, W) by
 * nearest-neighbour sampling.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_H_
#define OPENACL_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnUpsampleNearest2dGetWorkspaceSize(const aclTensor* self,
                                                             const aclIntArray* outputSize,
                                                             aclTensor* out,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnUpsampleNearest2d(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_2D_H_ */
