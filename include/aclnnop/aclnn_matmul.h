/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_matmul.h: out = self @ mat2 for tensors of 1 to 6 dimensions, broadcasting batch
 * dimensions (WeightNz: mat2 in the FRACTAL_NZ layout).
 */
#ifndef OPENACL_ACLNNOP_ACLNN_MATMUL_H_
#define OPENACL_ACLNNOP_ACLNN_MATMUL_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2,
                                                  aclTensor* out, int8_t cubeMathType,
                                                  uint64_t* workspaceSize,
                                                  aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMatmul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

ACLNN_API aclnnStatus aclnnMatmulWeightNzGetWorkspaceSize(const aclTensor* self,
                                                          const aclTensor* mat2, aclTensor* out,
                                                          int8_t cubeMathType,
                                                          uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMatmulWeightNz(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_MATMUL_H_ */
