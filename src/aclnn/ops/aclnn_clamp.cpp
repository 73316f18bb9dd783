// aclnnop/aclnn_clamp.h: out = self limited to [min, max], with scalar bounds (Clamp, ClampMin,
// ClampMax, InplaceClampMax: self is converted to out's type, the bounds too) or tensor bounds
// broadcast with self (ClampTensor, ClampMinTensor, ClampMaxTensor and the in-place forms:
// self and the bounds promote to one type). A missing bound does not limit; min above max gives
// max; a NaN element stays NaN and a NaN bound gives NaN.
#include "aclnnop/aclnn_clamp.h"

#include <limits>
#include <memory>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/binary.h"
#include "aclnn/ops/ternary.h"
#include "aclnn/ops/unary.h"
#include "core/error.h"
#include "ops/dtype.h"

using openacl::Fail;
using openacl::aclnn::CheckDtype;
using openacl::aclnn::CheckScalarObject;
using openacl::aclnn::CheckTensorObject;
using openacl::aclnn::TensorView;
using openacl::ops::UnaryOp;

namespace {

// CANN's list: self, out and (for tensor bounds) the promoted type.
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                         ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8};
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr int64_t kLowest = std::numeric_limits<int64_t>::min();
constexpr int64_t kHighest = std::numeric_limits<int64_t>::max();

// Scalar bounds (either may be null, not both: that was checked).
aclnnStatus PlanScalars(const char* api, const aclTensor* self, const aclScalar* min,
                        const aclScalar* max, const aclTensor* out, bool inplace,
                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(self, inplace ? "selfRef" : "self");
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (min == nullptr && max == nullptr) {
        return Fail(ACLNN_ERR_PARAM_NULLPTR,
                    "clipValueMin and clipValueMax are both null: clamp needs a bound");
    }
    if (min != nullptr) {
        if (aclnnStatus rc = CheckScalarObject(min, "clipValueMin"); rc != ACLNN_SUCCESS) {
            return rc;
        }
    }
    if (max != nullptr) {
        if (aclnnStatus rc = CheckScalarObject(max, "clipValueMax"); rc != ACLNN_SUCCESS) {
            return rc;
        }
    }
    const openacl::aclnn::UnarySpec spec = {.api = api,
                                            .op = UnaryOp::kClamp,
                                            .dtypes = kTypes,
                                            .out_dtypes = kTypes,
                                            .result = openacl::aclnn::UnaryResult::kOut,
                                            .float_math = false,
                                            .p0 = min != nullptr ? min->ToDouble() : -kInfinity,
                                            .p1 = max != nullptr ? max->ToDouble() : kInfinity,
                                            .i0 = min != nullptr ? min->ToInt64() : kLowest,
                                            .i1 = max != nullptr ? max->ToInt64() : kHighest};
    return openacl::aclnn::PlanUnary(spec, self, out, inplace, workspaceSize, executor);
}

// Tensor bounds (either may be null, not both), named min_name and max_name.
aclnnStatus PlanTensors(const char* api, const aclTensor* self, const aclTensor* min,
                        const char* min_name, const aclTensor* max, const char* max_name,
                        const aclTensor* out, bool inplace, uint64_t* workspaceSize,
                        aclOpExecutor** executor) {
    using namespace openacl::aclnn;
    const char* self_name = inplace ? "selfRef" : "self";
    if (aclnnStatus rc = CheckTensorObject(self, self_name); rc != ACLNN_SUCCESS) return rc;
    if (min == nullptr && max == nullptr) {
        return Fail(ACLNN_ERR_PARAM_NULLPTR, "%s and %s are both null: clamp needs a bound",
                    min_name, max_name);
    }
    if (min != nullptr) {
        if (aclnnStatus rc = CheckTensorObject(min, min_name); rc != ACLNN_SUCCESS) return rc;
    }
    if (max != nullptr) {
        if (aclnnStatus rc = CheckTensorObject(max, max_name); rc != ACLNN_SUCCESS) return rc;
    }
    if (!inplace) {
        if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    }
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView s, lo, hi, o;
    if (aclnnStatus rc = ViewOf(self, self_name, &s); rc != ACLNN_SUCCESS) return rc;
    if (min != nullptr) {
        if (aclnnStatus rc = ViewOf(min, min_name, &lo); rc != ACLNN_SUCCESS) return rc;
    }
    if (max != nullptr) {
        if (aclnnStatus rc = ViewOf(max, max_name, &hi); rc != ACLNN_SUCCESS) return rc;
    }
    if (inplace) {
        o = s;
    } else if (aclnnStatus rc = ViewOf(out, "out", &o); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (aclnnStatus rc = CheckDtype(s, kTypes); rc != ACLNN_SUCCESS) return rc;
    aclDataType promoted = s.dtype;
    for (const TensorView* bound :
         {min != nullptr ? &lo : nullptr, max != nullptr ? &hi : nullptr}) {
        if (bound == nullptr) continue;
        aclDataType joined = ACL_DT_UNDEFINED;
        if (!openacl::ops::PromoteTypes(promoted, bound->dtype, &joined)) {
            return Fail(ACLNN_ERR_PARAM_INVALID, "%s (%s) and %s (%s) have no common type",
                        self_name, openacl::ops::DtypeName(s.dtype), bound->name,
                        openacl::ops::DtypeName(bound->dtype));
        }
        promoted = joined;
    }
    bool listed = false;
    for (aclDataType type : kTypes)
        listed = listed || type == promoted;
    if (!listed) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "self and the bounds compute in %s, which %s does not take",
                    openacl::ops::DtypeName(promoted), api);
    }
    if (aclnnStatus rc = CheckDtype(o, kTypes); rc != ACLNN_SUCCESS) return rc;
    if (!openacl::ops::CanCast(promoted, o.dtype)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "the result's type %s cannot be cast to %s's type %s (floating to integer "
                    "is refused)",
                    openacl::ops::DtypeName(promoted), o.name, openacl::ops::DtypeName(o.dtype));
    }
    openacl::ops::TernaryArgs args;
    args.op = openacl::ops::TernaryOp::kClamp;
    args.compute = ComputeType(promoted);
    if (aclnnStatus rc = Broadcast3(&s, min != nullptr ? &lo : nullptr,
                                    max != nullptr ? &hi : nullptr, &args.shape);
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (aclnnStatus rc = CheckShape(o, args.shape); rc != ACLNN_SUCCESS) return rc;

    ExecutorBuilder builder(api);
    const int slot_self = builder.Input(s, self);
    const int slot_min = min != nullptr ? builder.Input(lo, min) : -1;
    const int slot_max = max != nullptr ? builder.Input(hi, max) : -1;
    const int slot_out = inplace ? slot_self : builder.Output(o, out);
    const TensorView operands[3] = {s, lo, hi};
    const int slots[3] = {slot_self, slot_min, slot_max};
    auto op = std::make_unique<TernaryOperator>(args, operands, slots, o, slot_out);
    // A missing bound: the compute type's extreme.
    const bool narrow = args.compute == ACL_INT32;
    if (slot_min < 0) {
        op->SetScalar(1, -kInfinity, narrow ? std::numeric_limits<int32_t>::min() : kLowest);
    }
    if (slot_max < 0) {
        op->SetScalar(2, kInfinity, narrow ? std::numeric_limits<int32_t>::max() : kHighest);
    }
    return builder.Finish(std::move(op), 0, workspaceSize, executor);
}

}  // namespace

aclnnStatus aclnnClampGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMin,
                                       const aclScalar* clipValueMax, aclTensor* out,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanScalars("aclnnClamp", self, clipValueMin, clipValueMax, out, false, workspaceSize,
                       executor);
}
OPENACL_ACLNN_SECOND_PHASE(Clamp)

aclnnStatus aclnnClampMinGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMin,
                                          aclTensor* out, uint64_t* workspaceSize,
                                          aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckScalarObject(clipValueMin, "clipValueMin"); rc != ACLNN_SUCCESS) {
        return rc;
    }
    return PlanScalars("aclnnClampMin", self, clipValueMin, nullptr, out, false, workspaceSize,
                       executor);
}
OPENACL_ACLNN_SECOND_PHASE(ClampMin)

aclnnStatus aclnnClampMaxGetWorkspaceSize(const aclTensor* self, const aclScalar* clipValueMax,
                                          aclTensor* out, uint64_t* workspaceSize,
                                          aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckScalarObject(clipValueMax, "clipValueMax"); rc != ACLNN_SUCCESS) {
        return rc;
    }
    return PlanScalars("aclnnClampMax", self, nullptr, clipValueMax, out, false, workspaceSize,
                       executor);
}
OPENACL_ACLNN_SECOND_PHASE(ClampMax)

aclnnStatus aclnnInplaceClampMaxGetWorkspaceSize(const aclTensor* selfRef,
                                                 const aclScalar* clipValueMax,
                                                 uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckScalarObject(clipValueMax, "clipValueMax"); rc != ACLNN_SUCCESS) {
        return rc;
    }
    return PlanScalars("aclnnInplaceClampMax", selfRef, nullptr, clipValueMax, selfRef, true,
                       workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceClampMax)

aclnnStatus aclnnClampTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* clipValueMin,
                                             const aclTensor* clipValueMax, aclTensor* out,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return PlanTensors("aclnnClampTensor", self, clipValueMin, "clipValueMin", clipValueMax,
                       "clipValueMax", out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(ClampTensor)

aclnnStatus aclnnClampMinTensorGetWorkspaceSize(const aclTensor* self,
                                                const aclTensor* clipValueMin, aclTensor* out,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(clipValueMin, "clipValueMin"); rc != ACLNN_SUCCESS) {
        return rc;
    }
    return PlanTensors("aclnnClampMinTensor", self, clipValueMin, "clipValueMin", nullptr, "max",
                       out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(ClampMinTensor)

aclnnStatus aclnnInplaceClampMinTensorGetWorkspaceSize(aclTensor* selfRef,
                                                       const aclTensor* clipValueMin,
                                                       uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(clipValueMin, "clipValueMin"); rc != ACLNN_SUCCESS) {
        return rc;
    }
    return PlanTensors("aclnnInplaceClampMinTensor", selfRef, clipValueMin, "clipValueMin", nullptr,
                       "max", selfRef, true, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceClampMinTensor)

aclnnStatus aclnnClampMaxTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* max,
                                                aclTensor* out, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(max, "max"); rc != ACLNN_SUCCESS) return rc;
    return PlanTensors("aclnnClampMaxTensor", self, nullptr, "clipValueMin", max, "max", out, false,
                       workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(ClampMaxTensor)

aclnnStatus aclnnInplaceClampMaxTensorGetWorkspaceSize(aclTensor* selfRef, const aclTensor* max,
                                                       uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(max, "max"); rc != ACLNN_SUCCESS) return rc;
    return PlanTensors("aclnnInplaceClampMaxTensor", selfRef, nullptr, "clipValueMin", max, "max",
                       selfRef, true, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceClampMaxTensor)
