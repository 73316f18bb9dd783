/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_index_select.h: out = the slices of self along dim picked by the 1-D index.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_INDEX_SELECT_H_
#define OPENACL_ACLNNOP_ACLNN_INDEX_SELECT_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                       const aclTensor* index, aclTensor* out,
                                                       uint64_t* workspaceSize,
                                                       aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIndexSelect(void* workspace, uint64_t workspaceSize,
                                       aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_INDEX_SELECT_H_ */
