// aclnnop/aclnn_hardsigmoid.h: out = clamp(self / 6 + 1/2, 0, 1); int32 computes in float and
// truncates back.
#include "aclnnop/aclnn_hardsigmoid.h"

#include "aclnn/ops/unary.h"
#include "core/error.h"

using openacl::aclnn::PlanUnary;
using openacl::aclnn::UnarySpec;
using openacl::ops::UnaryOp;

namespace {

// CANN's lists (complex types aside: openacl computes on real types only).
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32};

UnarySpec Spec(const char* api, const char* self_name) {
    return {.api = api,
            .op = UnaryOp::kHardsigmoid,
            .dtypes = kTypes,
            .same_dtype = true,
            .self_name = self_name};
}

}  // namespace

aclnnStatus aclnnHardsigmoidGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanUnary(Spec("aclnnHardsigmoid", "self"), self, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Hardsigmoid)

aclnnStatus aclnnInplaceHardsigmoidGetWorkspaceSize(const aclTensor* self, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
    OPENACL_API();
    return PlanUnary(Spec("aclnnInplaceHardsigmoid", "self"), self, self, true, workspaceSize,
                     executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceHardsigmoid)
