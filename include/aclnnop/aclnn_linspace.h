/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_linspace.h: out = steps values evenly spaced from start to end, both included.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_LINSPACE_H_
#define OPENACL_ACLNNOP_ACLNN_LINSPACE_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLinspaceGetWorkspaceSize(const aclScalar* start, const aclScalar* end,
                                                    int64_t steps, aclTensor* out,
                                                    uint64_t* workspaceSize,
                                                    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLinspace(void* workspace, uint64_t workspaceSize,
                                    aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_LINSPACE_H_ */
