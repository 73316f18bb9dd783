// aclnnop/aclnn_elu.h: out = self > 0 ? scale * self
//                                      : scale * alpha * (exp(self * inputScale) - 1)
// (Elu, InplaceElu).
#include "aclnnop/aclnn_elu.h"

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/unary.h"
#include "core/error.h"

using openacl::aclnn::CheckScalarCastsTo;
using openacl::aclnn::PlanUnary;
using openacl::aclnn::UnarySpec;
using openacl::ops::UnaryOp;

namespace {

// CANN's list for self; out takes any floating type self's casts to. The three scalars must
// cast to float.
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

aclnnStatus Plan(const char* api, const aclTensor* self, const aclScalar* alpha,
                 const aclScalar* scale, const aclScalar* inputScale, const aclTensor* out,
                 bool inplace, uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckScalarCastsTo(alpha, "alpha", ACL_FLOAT); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (aclnnStatus rc = CheckScalarCastsTo(scale, "scale", ACL_FLOAT); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (aclnnStatus rc = CheckScalarCastsTo(inputScale, "inputScale", ACL_FLOAT);
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    const UnarySpec spec = {.api = api,
                            .op = UnaryOp::kElu,
                            .dtypes = kTypes,
                            .p0 = alpha->ToDouble(),
                            .p1 = scale->ToDouble(),
                            .p2 = inputScale->ToDouble()};
    return PlanUnary(spec, self, out, inplace, workspaceSize, executor);
}

}  // namespace

aclnnStatus aclnnEluGetWorkspaceSize(const aclTensor* self, const aclScalar* alpha,
                                     const aclScalar* scale, const aclScalar* inputScale,
                                     aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
    OPENACL_API();
    return Plan("aclnnElu", self, alpha, scale, inputScale, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Elu)

aclnnStatus aclnnInplaceEluGetWorkspaceSize(aclTensor* selfRef, const aclScalar* alpha,
                                            const aclScalar* scale, const aclScalar* inputScale,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return Plan("aclnnInplaceElu", selfRef, alpha, scale, inputScale, selfRef, true, workspaceSize,
                executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceElu)
