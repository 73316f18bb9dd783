// aclnnop/aclnn_threshold.h: out = self > threshold ? self : value (Threshold,
// InplaceThreshold). Integer tensors compare and fill in integers: the scalars are converted
// to self's type (floating values truncated toward zero).
#include "aclnnop/aclnn_threshold.h"

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/unary.h"
#include "core/error.h"

using openacl::aclnn::CheckScalarObject;
using openacl::aclnn::PlanUnary;
using openacl::aclnn::UnarySpec;
using openacl::ops::UnaryOp;

namespace {

// CANN's list for self; out takes any type self's casts to.
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32,
                         ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8};

aclnnStatus Plan(const char* api, const aclTensor* self, const aclScalar* threshold,
                 const aclScalar* value, const aclTensor* out, bool inplace,
                 uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckScalarObject(threshold, "threshold"); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (aclnnStatus rc = CheckScalarObject(value, "value"); rc != ACLNN_SUCCESS) return rc;
    const UnarySpec spec = {.api = api,
                            .op = UnaryOp::kThreshold,
                            .dtypes = kTypes,
                            .float_math = false,
                            .p0 = threshold->ToDouble(),
                            .p1 = value->ToDouble(),
                            .i0 = threshold->ToInt64(),
                            .i1 = value->ToInt64()};
    return PlanUnary(spec, self, out, inplace, workspaceSize, executor);
}

}  // namespace

aclnnStatus aclnnThresholdGetWorkspaceSize(const aclTensor* self, const aclScalar* threshold,
                                           const aclScalar* value, aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return Plan("aclnnThreshold", self, threshold, value, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Threshold)

aclnnStatus aclnnInplaceThresholdGetWorkspaceSize(aclTensor* selfRef, const aclScalar* threshold,
                                                  const aclScalar* value, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
    OPENACL_API();
    return Plan("aclnnInplaceThreshold", selfRef, threshold, value, selfRef, true, workspaceSize,
                executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceThreshold)
