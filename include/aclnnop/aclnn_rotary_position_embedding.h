/*
 * openacl - independent implementation of the AscendCL C API.
 *
 * aclnnop/aclnn_rotary_position_embedding.h: out = x rotated by the angles whose cosines and sines
 * are cos and sin (rotary position embedding); mode selects how the rotated pairs are laid out
 * (half or interleaved). ggml-cann declares this function itself, with exactly this signature.
 */
#ifndef OPENACL_ACLNNOP_ACLNN_ROTARY_POSITION_EMBEDDING_H_
#define OPENACL_ACLNNOP_ACLNN_ROTARY_POSITION_EMBEDDING_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRotaryPositionEmbeddingGetWorkspaceSize(
    const aclTensor* x, const aclTensor* cos, const aclTensor* sin, int64_t mode, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnRotaryPositionEmbedding(void* workspace, uint64_t workspaceSize,
                                                   aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENACL_ACLNNOP_ACLNN_ROTARY_POSITION_EMBEDDING_H_ */
