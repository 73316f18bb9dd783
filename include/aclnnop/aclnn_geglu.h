/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_geglu.h: splits self in two halves along dim and returns one half times GELU of
 * the other (approximate: 0 tanh, 1 exact); outGelu keeps the GELU half. V3 adds activateLeft to
 * choose which half is activated.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_GEGLU_H_
#define OPENACL_ACLNNOP_ACLNN_GEGLU_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGeGluGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                 int64_t approximate, aclTensor* out,
                                                 aclTensor* outGelu, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGeGlu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                 aclrtStream stream);

ACLNN_API aclnnStatus aclnnGeGluV3GetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                   int64_t approximate, bool activateLeft,
                                                   aclTensor* out, aclTensor* outGelu,
                                                   uint64_t* workspaceSize,
                                                   aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnGeGluV3(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_GEGLU_H_ */
