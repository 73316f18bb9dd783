// aclnnop/aclnn_sub.h: out = self - alpha * other (Sub, Subs, InplaceSub, InplaceSubs).
#include "aclnnop/aclnn_sub.h"

#include "aclnn/ops/binary.h"
#include "core/error.h"

using openacl::aclnn::PlanBinary;
using openacl::aclnn::PlanBinaryScalar;
using openacl::ops::BinaryOp;

namespace {

// CANN's list for Sub, as for Add (complex types aside: openacl computes on real types only).
constexpr auto kSubTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                            ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8,  ACL_BOOL};

}  // namespace

aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                     const aclScalar* alpha, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinary({.api = "aclnnSub", .op = BinaryOp::kSub, .dtypes = kSubTypes}, self, other,
                      alpha, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Sub)

aclnnStatus aclnnSubsGetWorkspaceSize(const aclTensor* self, const aclScalar* other,
                                      const aclScalar* alpha, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinaryScalar({.api = "aclnnSubs", .op = BinaryOp::kSub, .dtypes = kSubTypes}, self,
                            other, alpha, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Subs)

aclnnStatus aclnnInplaceSubGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                            const aclScalar* alpha, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinary({.api = "aclnnInplaceSub", .op = BinaryOp::kSub, .dtypes = kSubTypes},
                      selfRef, other, alpha, nullptr, true, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceSub)

aclnnStatus aclnnInplaceSubsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                             const aclScalar* alpha, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinaryScalar({.api = "aclnnInplaceSubs", .op = BinaryOp::kSub, .dtypes = kSubTypes},
                            selfRef, other, alpha, nullptr, true, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceSubs)
