/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_bitwise_and_tensor.h: out = self & other (logical AND for BOOL), with
 * broadcasting; the Inplace form writes into selfRef.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_BITWISE_AND_TENSOR_H_
#define OPENACL_ACLNNOP_ACLNN_BITWISE_AND_TENSOR_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBitwiseAndTensorGetWorkspaceSize(const aclTensor* self,
                                                            const aclTensor* other, aclTensor* out,
                                                            uint64_t* workspaceSize,
                                                            aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnBitwiseAndTensor(void* workspace, uint64_t workspaceSize,
                                            aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceBitwiseAndTensorGetWorkspaceSize(const aclTensor* selfRef,
                                                                   const aclTensor* other,
                                                                   uint64_t* workspaceSize,
                                                                   aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceBitwiseAndTensor(void* workspace, uint64_t workspaceSize,
                                                   aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_BITWISE_AND_TENSOR_H_ */
