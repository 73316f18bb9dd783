/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_logsoftmax.h: out = log(softmax(self)) along dim.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_LOGSOFTMAX_H_
#define OPENACL_ACLNNOP_ACLNN_LOGSOFTMAX_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                      aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLogSoftmax(void* workspace, uint64_t workspaceSize,
                                      aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_LOGSOFTMAX_H_ */
