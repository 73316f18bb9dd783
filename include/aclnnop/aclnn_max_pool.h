/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_max_pool.h: out = max pooling of self (CHW or NCHW) with kernelShape, strides,
 * pads and dilations; autoPad and ceilMode choose the padding and rounding rules.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_MAX_POOL_H_
#define OPENACL_ACLNNOP_ACLNN_MAX_POOL_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaxPoolGetWorkspaceSize(
    const aclTensor* self, const aclIntArray* kernelShape, const aclIntArray* strides,
    int64_t autoPad, const aclIntArray* pads, const aclIntArray* dilations, int64_t ceilMode,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMaxPool(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_MAX_POOL_H_ */
