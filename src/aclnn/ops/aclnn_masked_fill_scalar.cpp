// aclnnop/aclnn_masked_fill_scalar.h: selfRef = value where mask is true, mask broadcast to
// selfRef's shape; value is converted to selfRef's type (floating values truncate toward zero
// for integers; bool is "not zero").
#include "aclnnop/aclnn_masked_fill_scalar.h"

#include <memory>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/binary.h"
#include "aclnn/ops/ternary.h"
#include "core/error.h"

namespace {

// CANN's lists for selfRef and mask.
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32,
                         ACL_INT64, ACL_INT8,    ACL_BOOL};
constexpr auto kMaskTypes = {ACL_BOOL};

}  // namespace

aclnnStatus aclnnInplaceMaskedFillScalarGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask,
                                                         const aclScalar* value,
                                                         uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
    OPENACL_API();
    using namespace openacl::aclnn;
    if (aclnnStatus rc = CheckTensorObject(selfRef, "selfRef"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(mask, "mask"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckScalarObject(value, "value"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView self, m;
    if (aclnnStatus rc = ViewOf(selfRef, "selfRef", &self); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(mask, "mask", &m); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(self, kTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(m, kMaskTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckBroadcastsTo(m, self.shape); rc != ACLNN_SUCCESS) return rc;

    // selfRef = mask ? value : selfRef.
    openacl::ops::TernaryArgs args;
    args.op = openacl::ops::TernaryOp::kWhere;
    args.shape = self.shape;
    args.compute = ComputeType(self.dtype);
    ExecutorBuilder builder("aclnnInplaceMaskedFillScalar");
    const int slot_self = builder.Input(self, selfRef);
    const int slot_mask = builder.Input(m, mask);
    const TensorView operands[3] = {m, TensorView{}, self};
    const int slots[3] = {slot_mask, -1, slot_self};
    auto op = std::make_unique<TernaryOperator>(args, operands, slots, self, slot_self);
    const double fill = value->ToDouble();
    const int64_t fill_int = value->ToInt64();
    op->SetScalar(1, fill, self.dtype == ACL_BOOL ? (fill != 0.0 || fill_int != 0) : fill_int);
    return builder.Finish(std::move(op), 0, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceMaskedFillScalar)
