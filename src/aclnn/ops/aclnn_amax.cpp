// aclnnop/aclnn_amax.h: out = the maximum of self over dim (every dimension when dim is
// empty), in self's type; NaN propagates.
#include "aclnnop/aclnn_amax.h"

#include "aclnn/ops/reduction.h"
#include "core/error.h"

aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                      aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanExtreme("aclnnAmax", openacl::ops::ReduceOp::kMax, self, dim,
                                       keepDim, out, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Amax)
