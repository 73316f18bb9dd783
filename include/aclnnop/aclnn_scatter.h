/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_scatter.h: out = self with the elements of src (Scatter) or the scalar value
 * (ScatterValue) written at the positions index gives along dim; reduce 0 replaces, 1 adds, 2
 * multiplies. The Inplace forms write into selfRef.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_SCATTER_H_
#define OPENACL_ACLNNOP_ACLNN_SCATTER_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnScatterGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                   const aclTensor* index, const aclTensor* src,
                                                   int64_t reduce, aclTensor* out,
                                                   uint64_t* workspaceSize,
                                                   aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnScatter(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream);

ACLNN_API aclnnStatus aclnnScatterValueGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                        const aclTensor* index,
                                                        const aclScalar* value, int64_t reduce,
                                                        aclTensor* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnScatterValue(void* workspace, uint64_t workspaceSize,
                                        aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceScatterGetWorkspaceSize(aclTensor* selfRef, int64_t dim,
                                                          const aclTensor* index,
                                                          const aclTensor* src, int64_t reduce,
                                                          uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceScatter(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceScatterValueGetWorkspaceSize(
    aclTensor* selfRef, int64_t dim, const aclTensor* index, const aclScalar* value, int64_t reduce,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceScatterValue(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_SCATTER_H_ */
