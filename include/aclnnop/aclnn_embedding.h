/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_embedding.h: out = the rows of weight picked by indices (a lookup table).
 */
#ifndef OPENACL_ACLNNOP_ACLNN_EMBEDDING_H_
#define OPENACL_ACLNNOP_ACLNN_EMBEDDING_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor* weight,
                                                     const aclTensor* indices, const aclTensor* out,
                                                     uint64_t* workspaceSize,
                                                     aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnEmbedding(void* workspace, uint64_t workspaceSize,
                                     aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_EMBEDDING_H_ */
