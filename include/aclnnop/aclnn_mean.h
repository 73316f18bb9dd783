/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_mean.h: out = mean of self over the dimensions in dim (Mean: computed as dtype;
 * MeanV2: noopWithEmptyAxes decides what an empty dim means).
 */
#ifndef OPENACL_ACLNNOP_ACLNN_MEAN_H_
#define OPENACL_ACLNNOP_ACLNN_MEAN_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim,
                                                bool keepDim, aclDataType dtype, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMean(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                aclrtStream stream);

ACLNN_API aclnnStatus aclnnMeanV2GetWorkspaceSize(const aclTensor* self, const aclIntArray* dim,
                                                  bool keepDim, bool noopWithEmptyAxes,
                                                  aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnMeanV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_MEAN_H_ */
