/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_copy.h: selfRef = src, converting dtype and broadcasting src to selfRef's shape.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_COPY_H_
#define OPENACL_ACLNNOP_ACLNN_COPY_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor* selfRef, const aclTensor* src,
                                                       uint64_t* workspaceSize,
                                                       aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceCopy(void* workspace, uint64_t workspaceSize,
                                       aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_COPY_H_ */
