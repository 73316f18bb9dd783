// aclnnop/aclnn_silu.h: out = self * sigmoid(self).
#include "aclnnop/aclnn_silu.h"

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
            .op = UnaryOp::kSilu,
            .dtypes = kTypes,
            .out_dtypes = kOutTypes,
            .inplace_dtypes = kOutTypes,
            .same_dtype = true,
            .self_name = self_name};
}

}  // namespace

aclnnStatus aclnnSiluGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanUnary(Spec("aclnnSilu", "self"), self, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Silu)
