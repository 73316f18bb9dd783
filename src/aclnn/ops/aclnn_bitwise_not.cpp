// aclnnop/aclnn_bitwise_not.h: out = ~self for integers, !self for bool.
#include "aclnnop/aclnn_bitwise_not.h"

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/unary.h"
#include "core/error.h"

using openacl::ops::UnaryOp;

namespace {

// CANN's list: self and out share one of these types.
constexpr auto kTypes = {ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL};

}  // namespace

aclnnStatus aclnnBitwiseNotGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    const bool boolean =
        openacl::aclnn::CheckTensorObject(self, "self") == ACLNN_SUCCESS && self->dtype == ACL_BOOL;
    const openacl::aclnn::UnarySpec spec = {
        .api = "aclnnBitwiseNot",
        .op = boolean ? UnaryOp::kLogicalNot : UnaryOp::kBitwiseNot,
        .dtypes = kTypes,
        .same_dtype = true,
        .float_math = false};
    return openacl::aclnn::PlanUnary(spec, self, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(BitwiseNot)
