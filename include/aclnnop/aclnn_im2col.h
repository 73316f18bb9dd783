/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_im2col.h: out = the sliding kernelSize windows of self (N, C, H, W), each unrolled
 * into a column.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_IM2COL_H_
#define OPENACL_ACLNNOP_ACLNN_IM2COL_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIm2colGetWorkspaceSize(
    const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* dilation,
    const aclIntArray* padding, const aclIntArray* stride, const aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIm2col(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_IM2COL_H_ */
