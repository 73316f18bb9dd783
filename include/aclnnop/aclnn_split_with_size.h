/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_split_with_size.h: out[i] = consecutive pieces of self along dim, piece i being
 * splitSize[i] long.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_SPLIT_WITH_SIZE_H_
#define OPENACL_ACLNNOP_ACLNN_SPLIT_WITH_SIZE_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSplitWithSizeGetWorkspaceSize(const aclTensor* self,
                                                         const aclIntArray* splitSize, int64_t dim,
                                                         aclTensorList* out,
                                                         uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSplitWithSize(void* workspace, uint64_t workspaceSize,
                                         aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_SPLIT_WITH_SIZE_H_ */
