/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_argsort.h: out = indices that sort self along dim (ascending, or descending when
 * asked).
 */
#ifndef OPENACL_ACLNNOP_ACLNN_ARGSORT_H_
#define OPENACL_ACLNNOP_ACLNN_ARGSORT_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnArgsortGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                   bool descending, aclTensor* out,
                                                   uint64_t* workspaceSize,
                                                   aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnArgsort(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_ARGSORT_H_ */
