/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_topk.h: valuesOut/indicesOut = the k largest (or smallest) elements of self along
 * dim and their indices, optionally sorted.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_TOPK_H_
#define OPENACL_ACLNNOP_ACLNN_TOPK_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTopkGetWorkspaceSize(const aclTensor* self, int64_t k, int64_t dim,
                                                bool largest, bool sorted, aclTensor* valuesOut,
                                                aclTensor* indicesOut, uint64_t* workspaceSize,
                                                aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnTopk(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_TOPK_H_ */
