/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_group_norm.h: out = group normalisation of self (n batches, c channels, hxw
 * positions, group groups) scaled by gamma and shifted by beta; meanOut/rstdOut = per-group
 * statistics.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_GROUP_NORM_H_
#define OPENACL_ACLNNOP_ACLNN_GROUP_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupNormGetWorkspaceSize(
    const aclTensor* self, const aclTensor* gammaOptional, const aclTensor* betaOptional, int64_t n,
    int64_t c, int64_t hxw, int64_t group, double eps, aclTensor* out, aclTensor* meanOut,
    aclTensor* rstdOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGroupNorm(void* workspace, uint64_t workspaceSize,
                                     aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_GROUP_NORM_H_ */
