/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_avgpool2d.h: out = 2-D average pooling of self (NCHW or CHW) with the given
 * window, strides and paddings.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_AVGPOOL2D_H_
#define OPENACL_ACLNNOP_ACLNN_AVGPOOL2D_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAvgPool2dGetWorkspaceSize(
    const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* strides,
    const aclIntArray* paddings, bool ceilMode, bool countIncludePad, int64_t divisorOverride,
    int8_t cubeMathType, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAvgPool2d(void* workspace, uint64_t workspaceSize,
                                     aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_AVGPOOL2D_H_ */
