// aclnnop/aclnn_gelu.h: out = GELU(self) with the tanh approximation, as CANN documents it:
// 0.5 * self * (1 + tanh(sqrt(2 / pi) * (self + 0.044715 * self^3))).
#include "aclnnop/aclnn_gelu.h"

#include "aclnn/ops/unary.h"
#include "core/error.h"

using openacl::aclnn::PlanUnary;
using openacl::aclnn::UnarySpec;
using openacl::ops::UnaryOp;

namespace {

// CANN's lists (complex types aside: openacl computes on real types only).
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

UnarySpec Spec(const char* api, const char* self_name) {
    return {.api = api,
            .op = UnaryOp::kGeluTanh,
            .dtypes = kTypes,
            .same_dtype = true,
            .self_name = self_name};
}

}  // namespace

aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanUnary(Spec("aclnnGelu", "self"), self, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Gelu)
