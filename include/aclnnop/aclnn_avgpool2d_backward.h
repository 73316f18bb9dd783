/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_avgpool2d_backward.h: gradInput = gradient of AvgPool2d with respect to its input
 * self, given gradOutput and the same pooling parameters.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_AVGPOOL2D_BACKWARD_H_
#define OPENACL_ACLNNOP_ACLNN_AVGPOOL2D_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAvgPool2dBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclIntArray* kernelSize,
    const aclIntArray* stride, const aclIntArray* padding, bool ceilMode, bool countIncludePad,
    int64_t divisorOverride, int8_t cubeMathType, aclTensor* gradInput, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAvgPool2dBackward(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_AVGPOOL2D_BACKWARD_H_ */
