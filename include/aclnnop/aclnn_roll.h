/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_roll.h: out = x with its elements shifted circularly by shifts[i] along dims[i]
 * (flattened when dims is empty).
 */
#ifndef OPENACL_ACLNNOP_ACLNN_ROLL_H_
#define OPENACL_ACLNNOP_ACLNN_ROLL_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRollGetWorkspaceSize(const aclTensor* x, const aclIntArray* shifts,
                                                const aclIntArray* dims, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRoll(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_ROLL_H_ */
