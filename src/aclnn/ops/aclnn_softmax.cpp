// aclnnop/aclnn_softmax.h: out = exp(self - max) / sum(exp(self - max)) along dim (negative
// dims count from the end); self and out may differ in type.
#include "aclnnop/aclnn_softmax.h"

#include "aclnn/ops/reduction.h"
#include "core/error.h"

aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanSoftmax("aclnnSoftmax", false, self, dim, out, workspaceSize,
                                       executor);
}
OPENACL_ACLNN_SECOND_PHASE(Softmax)
