/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_cat.h: out = the tensors of the list joined along dim.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_CAT_H_
#define OPENACL_ACLNNOP_ACLNN_CAT_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList* tensors, int64_t dim,
                                               aclTensor* out, uint64_t* workspaceSize,
                                               aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnCat(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_CAT_H_ */
