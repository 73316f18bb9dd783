/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_arange.h: out = start, start + step, ... up to (not including) end, as a 1-D
 * tensor.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_ARANGE_H_
#define OPENACL_ACLNNOP_ACLNN_ARANGE_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar* start, const aclScalar* end,
                                                  const aclScalar* step, aclTensor* out,
                                                  uint64_t* workspaceSize,
                                                  aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnArange(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_ARANGE_H_ */
