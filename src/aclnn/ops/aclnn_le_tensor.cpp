// aclnnop/aclnn_le_tensor.h: out = self <= other, element by element with broadcasting, the result
// (true or false) written as bool or as 1 or 0 of out's type; the in-place form writes it into
// selfRef.
#include "aclnnop/aclnn_le_tensor.h"

#include "aclnn/ops/binary.h"
#include "core/error.h"

using openacl::aclnn::BinarySpec;
using openacl::aclnn::PlanBinary;
using openacl::ops::BinaryOp;

namespace {

// CANN's list for LeTensor (self, other and out; complex types aside).
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT32,  ACL_INT64,
                         ACL_INT16, ACL_INT8,    ACL_UINT8, ACL_UINT16, ACL_UINT64, ACL_BOOL};

BinarySpec Spec(const char* api) {
    return {.api = api,
            .op = BinaryOp::kLe,
            .dtypes = kTypes,
            .comparison = true,
            .out_dtypes = kTypes};
}

}  // namespace

aclnnStatus aclnnLeTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                          aclTensor* out, uint64_t* workspaceSize,
                                          aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinary(Spec("aclnnLeTensor"), self, other, nullptr, out, false, workspaceSize,
                      executor);
}
OPENACL_ACLNN_SECOND_PHASE(LeTensor)

aclnnStatus aclnnInplaceLeTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                                 uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinary(Spec("aclnnInplaceLeTensor"), selfRef, other, nullptr, nullptr, true,
                      workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceLeTensor)
