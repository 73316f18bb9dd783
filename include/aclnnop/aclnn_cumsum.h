/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_cumsum.h: out = running sum of self along dim (Cumsum: cast to dtype first;
 * CumsumV2: optionally exclusive and/or from the end).
 */
#ifndef OPENACL_ACLNNOP_ACLNN_CUMSUM_H_
#define OPENACL_ACLNNOP_ACLNN_CUMSUM_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                  aclDataType dtype, aclTensor* out,
                                                  uint64_t* workspaceSize,
                                                  aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCumsum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

ACLNN_API aclnnStatus aclnnCumsumV2GetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                    bool exclusive, bool reverse, aclTensor* out,
                                                    uint64_t* workspaceSize,
                                                    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCumsumV2(void* workspace, uint64_t workspaceSize,
                                    aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_CUMSUM_H_ */
