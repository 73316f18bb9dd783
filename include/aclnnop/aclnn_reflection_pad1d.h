/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_reflection_pad1d.h: out = self padded on its last dimension by mirroring the
 * values next to each edge; padding = (left, right).
 */
#ifndef OPENACL_ACLNNOP_ACLNN_REFLECTION_PAD1D_H_
#define OPENACL_ACLNNOP_ACLNN_REFLECTION_PAD1D_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReflectionPad1dGetWorkspaceSize(const aclTensor* self,
                                                           const aclIntArray* padding,
                                                           aclTensor* out, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnReflectionPad1d(void* workspace, uint64_t workspaceSize,
                                           aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_REFLECTION_PAD1D_H_ */
