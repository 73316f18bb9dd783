// aclnnop/aclnn_index_select.h: out = self's slices along dim picked by a 1-D index.
#include "aclnnop/aclnn_index_select.h"

#include "aclnn/objects.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/gather.h"
#include "core/error.h"

aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                             const aclTensor* index, aclTensor* out,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    if (index != nullptr && index->magic == openacl::aclnn::kTensorMagic &&
        index->shape.size() > 1) {
        return openacl::Fail(ACLNN_ERR_PARAM_INVALID,
                             "index has %zu dimensions: IndexSelect takes a 1-D (or 0-D) index",
                             index->shape.size());
    }
    return openacl::aclnn::PlanGather("aclnnIndexSelect", self, "self", dim, index, "index", out,
                                      workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(IndexSelect)
