// aclnnop/aclnn_pow.h: out = self ^ exponent with a scalar exponent (PowTensorScalar,
// InplacePowTensorScalar) or a scalar base (PowScalarTensor).
#include "aclnnop/aclnn_pow.h"

#include "aclnn/ops/binary.h"
#include "core/error.h"

using openacl::aclnn::BinarySpec;
using openacl::aclnn::PlanBinaryScalar;
using openacl::ops::BinaryOp;

namespace {

// CANN's list for Pow (complex types aside: openacl computes on real types only).
constexpr auto kPowTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                            ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8,  ACL_BOOL};

// Two bool operands are refused; integers to negative integer powers too.
BinarySpec TensorScalarSpec(const char* api, const char* self_name) {
    return {.api = api,
            .op = BinaryOp::kPow,
            .dtypes = kPowTypes,
            .no_bool_pair = true,
            .non_negative_int_exponent = true,
            .self_name = self_name,
            .other_name = "exponent"};
}

}  // namespace

aclnnStatus aclnnPowTensorScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* exponent,
                                                 const aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinaryScalar(TensorScalarSpec("aclnnPowTensorScalar", "self"), self, exponent,
                            nullptr, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(PowTensorScalar)

aclnnStatus aclnnInplacePowTensorScalarGetWorkspaceSize(const aclTensor* self,
                                                        const aclScalar* exponent,
                                                        uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinaryScalar(TensorScalarSpec("aclnnInplacePowTensorScalar", "self"), self, exponent,
                            nullptr, nullptr, true, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplacePowTensorScalar)

aclnnStatus aclnnPowScalarTensorGetWorkspaceSize(const aclScalar* self, const aclTensor* exponent,
                                                 const aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
    OPENACL_API();
    // The tensor operand is the exponent: it sets the result's type with the scalar base
    // (a floating exponent keeps its type, an integer one takes a floating base's float).
    const BinarySpec spec = {.api = "aclnnPowScalarTensor",
                             .op = BinaryOp::kPow,
                             .dtypes = kPowTypes,
                             .no_bool_pair = true,
                             .scalar_first = true,
                             .self_name = "exponent",
                             .other_name = "self"};
    return PlanBinaryScalar(spec, exponent, self, nullptr, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(PowScalarTensor)
