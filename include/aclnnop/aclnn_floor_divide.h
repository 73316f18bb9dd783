/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_floor_divide.h: out = floor(self / other) with broadcasting (Divides: scalar
 * other); the Inplace forms write into selfRef.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_FLOOR_DIVIDE_H_
#define OPENACL_ACLNNOP_ACLNN_FLOOR_DIVIDE_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFloorDivideGetWorkspaceSize(const aclTensor* self,
                                                       const aclTensor* other, aclTensor* out,
                                                       uint64_t* workspaceSize,
                                                       aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFloorDivide(void* workspace, uint64_t workspaceSize,
                                       aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnFloorDividesGetWorkspaceSize(const aclTensor* self,
                                                        const aclScalar* other, aclTensor* out,
                                                        uint64_t* workspaceSize,
                                                        aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFloorDivides(void* workspace, uint64_t workspaceSize,
                                        aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceFloorDivideGetWorkspaceSize(aclTensor* selfRef,
                                                              const aclTensor* other,
                                                              uint64_t* workspaceSize,
                                                              aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceFloorDivide(void* workspace, uint64_t workspaceSize,
                                              aclOpExecutor* executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceFloorDividesGetWorkspaceSize(aclTensor* selfRef,
                                                               const aclScalar* other,
                                                               uint64_t* workspaceSize,
                                                               aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceFloorDivides(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_FLOOR_DIVIDE_H_ */
