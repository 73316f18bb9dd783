/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_constant_pad_nd.h: out = self padded with value; pad holds (before, after) pairs
 * starting from the last dimension.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H_
#define OPENACL_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor* self,
                                                         const aclIntArray* pad,
                                                         const aclScalar* value, aclTensor* out,
                                                         uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnConstantPadNd(void* workspace, uint64_t workspaceSize,
                                         aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H_ */
