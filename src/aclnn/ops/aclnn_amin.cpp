// aclnnop/aclnn_amin.h: out = the minimum of self over dim (every dimension when dim is
// empty), in self's type; NaN propagates.
#include "aclnnop/aclnn_amin.h"

#include "aclnn/ops/reduction.h"
#include "core/error.h"

aclnnStatus aclnnAminGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                      aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanExtreme("aclnnAmin", openacl::ops::ReduceOp::kMin, self, dim,
                                       keepDim, out, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Amin)
