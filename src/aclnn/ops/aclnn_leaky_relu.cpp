// aclnnop/aclnn_leaky_relu.h: out = self > 0 ? self : self * negativeSlope (LeakyRelu,
// InplaceLeakyRelu).
#include "aclnnop/aclnn_leaky_relu.h"

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/unary.h"
#include "core/error.h"

using openacl::aclnn::CheckScalarObject;
using openacl::aclnn::PlanUnary;
using openacl::aclnn::UnarySpec;
using openacl::ops::UnaryOp;

namespace {

// CANN's list for self; out takes any floating type self's casts to.
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

aclnnStatus Plan(const char* api, const aclTensor* self, const aclScalar* negativeSlope,
                 const aclTensor* out, bool inplace, uint64_t* workspaceSize,
                 aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckScalarObject(negativeSlope, "negativeSlope"); rc != ACLNN_SUCCESS) {
        return rc;
    }
    const UnarySpec spec = {
        .api = api, .op = UnaryOp::kLeakyRelu, .dtypes = kTypes, .p0 = negativeSlope->ToDouble()};
    return PlanUnary(spec, self, out, inplace, workspaceSize, executor);
}

}  // namespace

aclnnStatus aclnnLeakyReluGetWorkspaceSize(const aclTensor* self, const aclScalar* negativeSlope,
                                           aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
    OPENACL_API();
    return Plan("aclnnLeakyRelu", self, negativeSlope, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(LeakyRelu)

aclnnStatus aclnnInplaceLeakyReluGetWorkspaceSize(aclTensor* selfRef,
                                                  const aclScalar* negativeSlope,
                                                  uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
    OPENACL_API();
    return Plan("aclnnInplaceLeakyRelu", selfRef, negativeSlope, selfRef, true, workspaceSize,
                executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceLeakyRelu)
