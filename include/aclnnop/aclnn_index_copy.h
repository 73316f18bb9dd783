/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_index_copy.h: copies the slices of source into the positions index names along
 * dim: IndexCopy writes selfRef with those slices replaced into outRef, InplaceIndexCopy writes
 * them into selfRef.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_INDEX_COPY_H_
#define OPENACL_ACLNNOP_ACLNN_INDEX_COPY_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIndexCopyGetWorkspaceSize(aclTensor* selfRef, int64_t dim,
                                                     const aclTensor* index,
                                                     const aclTensor* source, aclTensor* outRef,
                                                     uint64_t* workspaceSize,
                                                     aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIndexCopy(void* workspace, uint64_t workspaceSize,
                                     aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceIndexCopyGetWorkspaceSize(aclTensor* selfRef, int64_t dim,
                                                            const aclTensor* index,
                                                            const aclTensor* source,
                                                            uint64_t* workspaceSize,
                                                            aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceIndexCopy(void* workspace, uint64_t workspaceSize,
                                            aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_INDEX_COPY_H_ */
