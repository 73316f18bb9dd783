// aclnnop/aclnn_neg.h: out = -self (integers wrap around).
#include "aclnnop/aclnn_neg.h"

#include "aclnn/ops/unary.h"
#include "core/error.h"

using openacl::aclnn::PlanUnary;
using openacl::aclnn::UnarySpec;
using openacl::ops::UnaryOp;

namespace {

// CANN's lists (complex types aside: openacl computes on real types only).
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE,
                         ACL_INT8,  ACL_INT32,   ACL_INT64};

UnarySpec Spec(const char* api, const char* self_name) {
    return {.api = api,
            .op = UnaryOp::kNeg,
            .dtypes = kTypes,
            .float_math = false,
            .self_name = self_name};
}

}  // namespace

aclnnStatus aclnnNegGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
    OPENACL_API();
    return PlanUnary(Spec("aclnnNeg", "self"), self, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Neg)

aclnnStatus aclnnInplaceNegGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
    OPENACL_API();
    return PlanUnary(Spec("aclnnInplaceNeg", "selfRef"), selfRef, selfRef, true, workspaceSize,
                     executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceNeg)
