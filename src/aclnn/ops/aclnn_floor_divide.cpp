// aclnnop/aclnn_floor_divide.h: out = floor(self / other), Python's //: integers stay integer,
// two bool operands compute in float (FloorDivide, FloorDivides and their in-place forms).
#include "aclnnop/aclnn_floor_divide.h"

#include "aclnn/ops/binary.h"
#include "core/error.h"

using openacl::aclnn::BinarySpec;
using openacl::aclnn::PlanBinary;
using openacl::aclnn::PlanBinaryScalar;
using openacl::ops::BinaryOp;

namespace {

// CANN's list for FloorDivide.
constexpr auto kFloorDivideTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                                    ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8,  ACL_BOOL};

BinarySpec Spec(const char* api) {
    return {.api = api,
            .op = BinaryOp::kFloorDivide,
            .dtypes = kFloorDivideTypes,
            .bool_to_float = true};
}

}  // namespace

aclnnStatus aclnnFloorDivideGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                             aclTensor* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinary(Spec("aclnnFloorDivide"), self, other, nullptr, out, false, workspaceSize,
                      executor);
}
OPENACL_ACLNN_SECOND_PHASE(FloorDivide)

aclnnStatus aclnnFloorDividesGetWorkspaceSize(const aclTensor* self, const aclScalar* other,
                                              aclTensor* out, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinaryScalar(Spec("aclnnFloorDivides"), self, other, nullptr, out, false,
                            workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(FloorDivides)

aclnnStatus aclnnInplaceFloorDivideGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                                    uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinary(Spec("aclnnInplaceFloorDivide"), selfRef, other, nullptr, nullptr, true,
                      workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceFloorDivide)

aclnnStatus aclnnInplaceFloorDividesGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                                     uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinaryScalar(Spec("aclnnInplaceFloorDivides"), selfRef, other, nullptr, nullptr,
                            true, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceFloorDivides)
