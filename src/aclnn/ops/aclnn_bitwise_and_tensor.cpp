// aclnnop/aclnn_bitwise_and_tensor.h: out = self & other over integers and bool (bool operands
// give their logical and), with broadcasting and type promotion.
#include "aclnnop/aclnn_bitwise_and_tensor.h"

#include "aclnn/ops/binary.h"
#include "core/error.h"

using openacl::aclnn::PlanBinary;
using openacl::ops::BinaryOp;

namespace {

// CANN's list for BitwiseAndTensor.
constexpr auto kAndTypes = {ACL_INT8,   ACL_INT16,  ACL_INT32,  ACL_INT64, ACL_UINT8,
                            ACL_UINT16, ACL_UINT32, ACL_UINT64, ACL_BOOL};

}  // namespace

aclnnStatus aclnnBitwiseAndTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                                  aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinary(
        {.api = "aclnnBitwiseAndTensor", .op = BinaryOp::kBitwiseAnd, .dtypes = kAndTypes}, self,
        other, nullptr, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(BitwiseAndTensor)

aclnnStatus aclnnInplaceBitwiseAndTensorGetWorkspaceSize(const aclTensor* selfRef,
                                                         const aclTensor* other,
                                                         uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinary(
        {.api = "aclnnInplaceBitwiseAndTensor", .op = BinaryOp::kBitwiseAnd, .dtypes = kAndTypes},
        selfRef, other, nullptr, nullptr, true, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceBitwiseAndTensor)
