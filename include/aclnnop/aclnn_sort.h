/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_sort.h: valuesOut/indicesOut = self sorted along dim, with the source index of
 * each value.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_SORT_H_
#define OPENACL_ACLNNOP_ACLNN_SORT_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSortGetWorkspaceSize(const aclTensor* self, bool stable, int64_t dim,
                                                bool descending, aclTensor* valuesOut,
                                                aclTensor* indicesOut, uint64_t* workspaceSize,
                                                aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSort(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_SORT_H_ */
