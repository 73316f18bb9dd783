// aclnnop/aclnn_embedding.h: out = the rows of weight that indices name (out's shape is
// indices' shape followed by weight's row length).
#include "aclnnop/aclnn_embedding.h"

#include "aclnn/objects.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/gather.h"
#include "core/error.h"

aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor* weight, const aclTensor* indices,
                                           const aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
    OPENACL_API();
    if (weight != nullptr && weight->magic == openacl::aclnn::kTensorMagic &&
        weight->shape.size() != 2) {
        return openacl::Fail(ACLNN_ERR_PARAM_INVALID,
                             "weight has %zu dimensions: an embedding table is 2-D",
                             weight->shape.size());
    }
    return openacl::aclnn::PlanGather("aclnnEmbedding", weight, "weight", 0, indices, "indices",
                                      out, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Embedding)
