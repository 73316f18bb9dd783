// aclnnop/aclnn_sign.h: result = -1, 0 or 1 by the sign of self (NaN stays NaN).
#include "aclnnop/aclnn_sign.h"

#include "aclnn/ops/unary.h"
#include "core/error.h"

using openacl::aclnn::PlanUnary;
using openacl::aclnn::UnarySpec;
using openacl::ops::UnaryOp;

namespace {

// CANN's lists (complex types aside: openacl computes on real types only).
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE,
                         ACL_INT32, ACL_INT64,   ACL_BOOL};

UnarySpec Spec(const char* api, const char* self_name) {
    return {.api = api,
            .op = UnaryOp::kSign,
            .dtypes = kTypes,
            .same_dtype = true,
            .float_math = false,
            .self_name = self_name,
            .out_name = "result"};
}

}  // namespace

aclnnStatus aclnnSignGetWorkspaceSize(const aclTensor* self, aclTensor* result,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanUnary(Spec("aclnnSign", "self"), self, result, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Sign)
