// aclnnop/aclnn_gt_scalar.h: out = self > other for a scalar other, the result (true or false)
// written as bool or as 1 or 0 of out's type; the in-place form writes it into selfRef. The
// scalar joins self's type as in the other scalar operators (a floating tensor keeps its type,
// an integer one compares in float with a floating scalar).
#include "aclnnop/aclnn_gt_scalar.h"

#include "aclnn/ops/binary.h"
#include "core/error.h"

using openacl::aclnn::BinarySpec;
using openacl::aclnn::PlanBinaryScalar;
using openacl::ops::BinaryOp;

namespace {

// CANN's list for GtScalar (self, other and out; complex types aside).
constexpr auto kTypes = {ACL_FLOAT,  ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                         ACL_INT64,  ACL_INT16,   ACL_INT8, ACL_UINT8,  ACL_UINT16,
                         ACL_UINT32, ACL_UINT64,  ACL_BOOL};

BinarySpec Spec(const char* api) {
    return {.api = api,
            .op = BinaryOp::kGt,
            .dtypes = kTypes,
            .comparison = true,
            .out_dtypes = kTypes};
}

}  // namespace

aclnnStatus aclnnGtScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* other,
                                          aclTensor* out, uint64_t* workspaceSize,
                                          aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinaryScalar(Spec("aclnnGtScalar"), self, other, nullptr, out, false, workspaceSize,
                            executor);
}
OPENACL_ACLNN_SECOND_PHASE(GtScalar)

aclnnStatus aclnnInplaceGtScalarGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                                 uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinaryScalar(Spec("aclnnInplaceGtScalar"), selfRef, other, nullptr, nullptr, true,
                            workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceGtScalar)
