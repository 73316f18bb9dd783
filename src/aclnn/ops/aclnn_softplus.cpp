// aclnnop/aclnn_softplus.h: out = self * beta > threshold ? self
//                                                    : log(1 + exp(beta * self)) / beta.
#include "aclnnop/aclnn_softplus.h"

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/unary.h"
#include "core/error.h"

using openacl::aclnn::CheckScalarCastsTo;
using openacl::ops::UnaryOp;

namespace {

// CANN's list for self; out takes any floating type self's casts to. beta and threshold must
// cast to self's (floating) type.
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

}  // namespace

aclnnStatus aclnnSoftplusGetWorkspaceSize(const aclTensor* self, const aclScalar* beta,
                                          const aclScalar* threshold, aclTensor* out,
                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckScalarCastsTo(beta, "beta", ACL_FLOAT); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (aclnnStatus rc = CheckScalarCastsTo(threshold, "threshold", ACL_FLOAT);
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    const openacl::aclnn::UnarySpec spec = {.api = "aclnnSoftplus",
                                            .op = UnaryOp::kSoftplus,
                                            .dtypes = kTypes,
                                            .p0 = beta->ToDouble(),
                                            .p1 = threshold->ToDouble()};
    return openacl::aclnn::PlanUnary(spec, self, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Softplus)
