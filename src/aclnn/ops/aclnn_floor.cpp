// aclnnop/aclnn_floor.h: out = floor(self); integers (signed and unsigned) copy through.
#include "aclnnop/aclnn_floor.h"

#include "aclnn/ops/unary.h"
#include "core/error.h"

using openacl::aclnn::PlanUnary;
using openacl::aclnn::UnarySpec;
using openacl::ops::UnaryOp;

namespace {

// CANN's lists (complex types aside: openacl computes on real types only).
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE, ACL_INT64,  ACL_INT32,
                         ACL_INT16, ACL_INT8,    ACL_UINT64, ACL_UINT32, ACL_UINT16, ACL_UINT8};

UnarySpec Spec(const char* api, const char* self_name) {
    return {.api = api,
            .op = UnaryOp::kFloor,
            .dtypes = kTypes,
            .same_dtype = true,
            .float_math = false,
            .self_name = self_name};
}

}  // namespace

aclnnStatus aclnnFloorGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanUnary(Spec("aclnnFloor", "self"), self, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Floor)

aclnnStatus aclnnInplaceFloorGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
    OPENACL_API();
    return PlanUnary(Spec("aclnnInplaceFloor", "selfRef"), selfRef, selfRef, true, workspaceSize,
                     executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceFloor)
