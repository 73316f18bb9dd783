/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_batch_matmul.h: out = self @ mat2 for batches of matrices (WeightNz: mat2 in the
 * FRACTAL_NZ layout); cubeMathType picks the precision policy.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_BATCH_MATMUL_H_
#define OPENACL_ACLNNOP_ACLNN_BATCH_MATMUL_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2,
                                                       aclTensor* out, int8_t cubeMathType,
                                                       uint64_t* workspaceSize,
                                                       aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBatchMatMul(void* workspace, uint64_t workspaceSize,
                                       aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnBatchMatMulWeightNzGetWorkspaceSize(const aclTensor* self,
                                                               const aclTensor* mat2,
                                                               aclTensor* out, int8_t cubeMathType,
                                                               uint64_t* workspaceSize,
                                                               aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBatchMatMulWeightNz(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_BATCH_MATMUL_H_ */
