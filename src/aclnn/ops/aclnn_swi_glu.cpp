// aclnnop/aclnn_swi_glu.h: out = silu(first half of x) * second half, halves along dim.
#include "aclnnop/aclnn_swi_glu.h"

#include "aclnn/ops/glu.h"
#include "core/error.h"

aclnnStatus aclnnSwiGluGetWorkspaceSize(const aclTensor* x, int64_t dim, const aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanGlu({"aclnnSwiGlu", openacl::ops::UnaryOp::kSilu, true}, x, "x", dim,
                                   out, nullptr, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(SwiGlu)
