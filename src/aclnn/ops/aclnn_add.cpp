// aclnnop/aclnn_add.h: out = self + alpha * other (Add, Adds, InplaceAdd, InplaceAdds).
#include "aclnnop/aclnn_add.h"

#include "aclnn/ops/binary.h"
#include "core/error.h"

using openacl::aclnn::BinarySpec;
using openacl::ops::BinaryOp;

namespace {

// CANN's list for Add (complex types aside: openacl computes on real types only).
constexpr auto kAddTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT64,
                            ACL_INT16, ACL_INT8,  ACL_UINT8, ACL_BOOL};

}  // namespace

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                     const aclScalar* alpha, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanBinary({"aclnnAdd", BinaryOp::kAdd, kAddTypes}, self, other, alpha,
                                      out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Add)

aclnnStatus aclnnAddsGetWorkspaceSize(const aclTensor* self, const aclScalar* other,
                                      const aclScalar* alpha, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanBinaryScalar({"aclnnAdds", BinaryOp::kAdd, kAddTypes}, self, other,
                                            alpha, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Adds)

aclnnStatus aclnnInplaceAddGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* other,
                                            const aclScalar* alpha, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanBinary({"aclnnInplaceAdd", BinaryOp::kAdd, kAddTypes}, selfRef,
                                      other, alpha, nullptr, true, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceAdd)

aclnnStatus aclnnInplaceAddsGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* other,
                                             const aclScalar* alpha, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanBinaryScalar({"aclnnInplaceAdds", BinaryOp::kAdd, kAddTypes},
                                            selfRef, other, alpha, nullptr, true, workspaceSize,
                                            executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceAdds)
