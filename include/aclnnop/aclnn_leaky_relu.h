/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_leaky_relu.h: out = self > 0 ? self : negativeSlope * self, element by element;
 * the Inplace form writes into selfRef.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_LEAKY_RELU_H_
#define OPENACL_ACLNNOP_ACLNN_LEAKY_RELU_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLeakyReluGetWorkspaceSize(const aclTensor* self,
                                                     const aclScalar* negativeSlope, aclTensor* out,
                                                     uint64_t* workspaceSize,
                                                     aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnLeakyRelu(void* workspace, uint64_t workspaceSize,
                                     aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceLeakyReluGetWorkspaceSize(aclTensor* selfRef,
                                                            const aclScalar* negativeSlope,
                                                            uint64_t* workspaceSize,
                                                            aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceLeakyRelu(void* workspace, uint64_t workspaceSize,
                                            aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_LEAKY_RELU_H_ */
