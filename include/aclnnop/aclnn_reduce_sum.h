/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_reduce_sum.h: out = sum of self over the dimensions in dims, computed as dtype.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_REDUCE_SUM_H_
#define OPENACL_ACLNNOP_ACLNN_REDUCE_SUM_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims,
                                                     bool keepDims, aclDataType dtype,
                                                     aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnReduceSum(void* workspace, uint64_t workspaceSize,
                                     aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_REDUCE_SUM_H_ */
