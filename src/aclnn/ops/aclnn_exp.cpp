// aclnnop/aclnn_exp.h: out = e^self; bool and int64 compute in float.
#include "aclnnop/aclnn_exp.h"

#include "aclnn/ops/unary.h"
#include "core/error.h"

using openacl::aclnn::PlanUnary;
using openacl::aclnn::UnaryResult;
using openacl::aclnn::UnarySpec;
using openacl::ops::UnaryOp;

namespace {

// CANN's lists (complex types aside: openacl computes on real types only).
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_BOOL, ACL_INT64};
constexpr auto kInplaceTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

UnarySpec Spec(const char* api, const char* self_name) {
    return {.api = api,
            .op = UnaryOp::kExp,
            .dtypes = kTypes,
            .inplace_dtypes = kInplaceTypes,
            .result = UnaryResult::kFloating,
            .self_name = self_name};
}

}  // namespace

aclnnStatus aclnnExpGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
    OPENACL_API();
    return PlanUnary(Spec("aclnnExp", "self"), self, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Exp)

aclnnStatus aclnnInplaceExpGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
    OPENACL_API();
    return PlanUnary(Spec("aclnnInplaceExp", "selfRef"), selfRef, selfRef, true, workspaceSize,
                     executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceExp)
