// aclnnop/aclnn_pow_tensor_tensor.h: out = self ^ exponent, both tensors (PowTensorTensor,
// InplacePowTensorTensor).
#include "aclnnop/aclnn_pow_tensor_tensor.h"

#include "aclnn/ops/binary.h"
#include "core/error.h"

using openacl::aclnn::BinarySpec;
using openacl::aclnn::PlanBinary;
using openacl::ops::BinaryOp;

namespace {

// CANN's list for PowTensorTensor (complex types aside). Two bool operands are refused.
constexpr auto kPowTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                            ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8,  ACL_BOOL};

BinarySpec Spec(const char* api, const char* self_name) {
    return {.api = api,
            .op = BinaryOp::kPow,
            .dtypes = kPowTypes,
            .no_bool_pair = true,
            .self_name = self_name,
            .other_name = "exponent"};
}

}  // namespace

aclnnStatus aclnnPowTensorTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* exponent,
                                                 aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinary(Spec("aclnnPowTensorTensor", "self"), self, exponent, nullptr, out, false,
                      workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(PowTensorTensor)

aclnnStatus aclnnInplacePowTensorTensorGetWorkspaceSize(const aclTensor* self,
                                                        const aclTensor* exponent,
                                                        uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinary(Spec("aclnnInplacePowTensorTensor", "self"), self, exponent, nullptr, nullptr,
                      true, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplacePowTensorTensor)
