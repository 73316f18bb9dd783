// aclnnop/aclnn_mul.h: out = self * other (Mul, Muls, InplaceMul, InplaceMuls).
#include "aclnnop/aclnn_mul.h"

#include "aclnn/ops/binary.h"
#include "core/error.h"

using openacl::aclnn::PlanBinary;
using openacl::aclnn::PlanBinaryScalar;
using openacl::ops::BinaryOp;

namespace {

// CANN's list for Mul (complex types aside: openacl computes on real types only).
constexpr auto kMulTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                            ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8,  ACL_BOOL};

}  // namespace

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinary({.api = "aclnnMul", .op = BinaryOp::kMul, .dtypes = kMulTypes}, self, other,
                      nullptr, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Mul)

aclnnStatus aclnnMulsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinaryScalar({.api = "aclnnMuls", .op = BinaryOp::kMul, .dtypes = kMulTypes}, self,
                            other, nullptr, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Muls)

aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinary({.api = "aclnnInplaceMul", .op = BinaryOp::kMul, .dtypes = kMulTypes},
                      selfRef, other, nullptr, nullptr, true, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceMul)

aclnnStatus aclnnInplaceMulsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinaryScalar({.api = "aclnnInplaceMuls", .op = BinaryOp::kMul, .dtypes = kMulTypes},
                            selfRef, other, nullptr, nullptr, true, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceMuls)
