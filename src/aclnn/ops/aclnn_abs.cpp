// aclnnop/aclnn_abs.h: out = |self|; uint8 and bool pass through unchanged.
#include "aclnnop/aclnn_abs.h"

#include "aclnn/ops/unary.h"
#include "core/error.h"

using openacl::aclnn::PlanUnary;
using openacl::aclnn::UnarySpec;
using openacl::ops::UnaryOp;

namespace {

// CANN's lists (complex types aside: openacl computes on real types only).
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT64,
                         ACL_INT32, ACL_INT16,   ACL_INT8, ACL_UINT8,  ACL_BOOL};

UnarySpec Spec(const char* api, const char* self_name) {
    return {.api = api,
            .op = UnaryOp::kAbs,
            .dtypes = kTypes,
            .same_dtype = true,
            .float_math = false,
            .self_name = self_name};
}

}  // namespace

aclnnStatus aclnnAbsGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
    OPENACL_API();
    return PlanUnary(Spec("aclnnAbs", "self"), self, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Abs)
