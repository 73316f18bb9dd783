/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_index_fill_tensor.h: out = self with the slices at positions index along dim set
 * to value; the Inplace form writes into selfRef.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_INDEX_FILL_TENSOR_H_
#define OPENACL_ACLNNOP_ACLNN_INDEX_FILL_TENSOR_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnIndexFillTensorGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                           const aclIntArray* index,
                                                           const aclScalar* value, aclTensor* out,
                                                           uint64_t* workspaceSize,
                                                           aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIndexFillTensor(void* workspace, uint64_t workspaceSize,
                                           aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceIndexFillTensorGetWorkspaceSize(aclTensor* selfRef, int64_t dim,
                                                                  const aclIntArray* index,
                                                                  const aclScalar* value,
                                                                  uint64_t* workspaceSize,
                                                                  aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceIndexFillTensor(void* workspace, uint64_t workspaceSize,
                                                  aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_INDEX_FILL_TENSOR_H_ */
