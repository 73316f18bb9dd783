// aclnnop/aclnn_hardswish.h: out = self * clamp(self + 3, 0, 6) / 6.
#include "aclnnop/aclnn_hardswish.h"

#include "aclnn/ops/unary.h"
#include "core/error.h"

using openacl::aclnn::PlanUnary;
using openacl::aclnn::UnarySpec;
using openacl::ops::UnaryOp;

namespace {

// CANN's lists (complex types aside: openacl computes on real types only).
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr auto kOutTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

UnarySpec Spec(const char* api, const char* self_name) {
    return {.api = api,
            .op = UnaryOp::kHardswish,
            .dtypes = kTypes,
            .out_dtypes = kOutTypes,
            .inplace_dtypes = kOutTypes,
            .self_name = self_name};
}

}  // namespace

aclnnStatus aclnnHardswishGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanUnary(Spec("aclnnHardswish", "self"), self, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Hardswish)

aclnnStatus aclnnInplaceHardswishGetWorkspaceSize(const aclTensor* self, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
    OPENACL_API();
    return PlanUnary(Spec("aclnnInplaceHardswish", "self"), self, self, true, workspaceSize,
                     executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceHardswish)
