// aclnnop/aclnn_div.h: out = self / other. Div, Divs and their in-place forms divide truly
// (integer operands give a floating result); the DivMod forms take a rounding mode: 0 true
// division, 1 the quotient rounded toward zero, 2 rounded toward negative infinity (those two
// keep integer types integer).
#include "aclnnop/aclnn_div.h"

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/binary.h"
#include "core/error.h"

using openacl::Fail;
using openacl::aclnn::BinarySpec;
using openacl::aclnn::CheckPhaseOutputs;
using openacl::aclnn::CheckScalarObject;
using openacl::aclnn::CheckTensorObject;
using openacl::aclnn::PlanBinary;
using openacl::aclnn::PlanBinaryScalar;
using openacl::ops::BinaryOp;

namespace {

// CANN's list for Div and DivMod (complex types aside: openacl computes on real types only).
constexpr auto kDivTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                            ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8,  ACL_BOOL};

BinarySpec DivSpec(const char* api) {
    return {.api = api, .op = BinaryOp::kDiv, .dtypes = kDivTypes, .true_division = true};
}

// The DivMod forms' spec for `mode`; mode was checked.
BinarySpec ModeSpec(const char* api, int mode) {
    if (mode == 1) return {.api = api, .op = BinaryOp::kTruncDivide, .dtypes = kDivTypes};
    if (mode == 2) return {.api = api, .op = BinaryOp::kFloorDivide, .dtypes = kDivTypes};
    return DivSpec(api);
}

// The DivMod forms' checks before the division's own: the parameters in order (161001 for a
// null one), then the mode (161002 unless 0, 1 or 2). other is a tensor, or (DivMods) `scalar`.
aclnnStatus CheckMode(const aclTensor* self, const char* self_name, const aclTensor* other,
                      const aclScalar* scalar, bool scalar_form, int mode, const aclTensor* out,
                      bool inplace, const uint64_t* workspaceSize, aclOpExecutor* const* executor) {
    if (aclnnStatus rc = CheckTensorObject(self, self_name); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc =
            scalar_form ? CheckScalarObject(scalar, "other") : CheckTensorObject(other, "other");
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (!inplace) {
        if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    }
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (mode < 0 || mode > 2) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "mode is %d: 0 (true division), 1 (truncate) or 2 (floor) are valid", mode);
    }
    return ACLNN_SUCCESS;
}

}  // namespace

aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinary(DivSpec("aclnnDiv"), self, other, nullptr, out, false, workspaceSize,
                      executor);
}
OPENACL_ACLNN_SECOND_PHASE(Div)

aclnnStatus aclnnDivsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinaryScalar(DivSpec("aclnnDivs"), self, other, nullptr, out, false, workspaceSize,
                            executor);
}
OPENACL_ACLNN_SECOND_PHASE(Divs)

aclnnStatus aclnnDivModGetWorkspaceSize(const aclTensor* self, const aclTensor* other, int mode,
                                        aclTensor* out, uint64_t* workspaceSize,
                                        aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckMode(self, "self", other, nullptr, false, mode, out, false,
                                   workspaceSize, executor);
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    return PlanBinary(ModeSpec("aclnnDivMod", mode), self, other, nullptr, out, false,
                      workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(DivMod)

aclnnStatus aclnnDivModsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, int mode,
                                         aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckMode(self, "self", nullptr, other, true, mode, out, false,
                                   workspaceSize, executor);
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    return PlanBinaryScalar(ModeSpec("aclnnDivMods", mode), self, other, nullptr, out, false,
                            workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(DivMods)

aclnnStatus aclnnInplaceDivGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinary(DivSpec("aclnnInplaceDiv"), selfRef, other, nullptr, nullptr, true,
                      workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceDiv)

aclnnStatus aclnnInplaceDivsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanBinaryScalar(DivSpec("aclnnInplaceDivs"), selfRef, other, nullptr, nullptr, true,
                            workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceDivs)

aclnnStatus aclnnInplaceDivModGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, int mode,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckMode(selfRef, "selfRef", other, nullptr, false, mode, nullptr, true,
                                   workspaceSize, executor);
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    return PlanBinary(ModeSpec("aclnnInplaceDivMod", mode), selfRef, other, nullptr, nullptr, true,
                      workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceDivMod)

aclnnStatus aclnnInplaceDivModsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                                int mode, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckMode(selfRef, "selfRef", nullptr, other, true, mode, nullptr, true,
                                   workspaceSize, executor);
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    return PlanBinaryScalar(ModeSpec("aclnnInplaceDivMods", mode), selfRef, other, nullptr, nullptr,
                            true, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceDivMods)
