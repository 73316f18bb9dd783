/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_pow.h: out = self ^ exponent: PowTensorScalar (tensor base, scalar exponent;
 * Inplace form writes into self) and PowScalarTensor (scalar base, tensor exponent).
 */
#ifndef OPENACL_ACLNNOP_ACLNN_POW_H_
#define OPENACL_ACLNNOP_ACLNN_POW_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnPowTensorScalarGetWorkspaceSize(const aclTensor* self,
                                                           const aclScalar* exponent,
                                                           const aclTensor* out,
                                                           uint64_t* workspaceSize,
                                                           aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnPowTensorScalar(void* workspace, uint64_t workspaceSize,
                                           aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplacePowTensorScalarGetWorkspaceSize(const aclTensor* self,
                                                                  const aclScalar* exponent,
                                                                  uint64_t* workspaceSize,
                                                                  aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplacePowTensorScalar(void* workspace, uint64_t workspaceSize,
                                                  aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnPowScalarTensorGetWorkspaceSize(const aclScalar* self,
                                                           const aclTensor* exponent,
                                                           const aclTensor* out,
                                                           uint64_t* workspaceSize,
                                                           aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnPowScalarTensor(void* workspace, uint64_t workspaceSize,
                                           aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_POW_H_ */
