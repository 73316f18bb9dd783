// aclnnop/aclnn_addcdiv.h: out = self + value * tensor1 / tensor2, the three broadcast
// together and promoted to one type (Addcdiv, InplaceAddcdiv). The division is true division:
// int64 operands compute in double and the result truncates back toward zero.
#include "aclnnop/aclnn_addcdiv.h"

#include <memory>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/binary.h"
#include "aclnn/ops/ternary.h"
#include "core/error.h"
#include "ops/dtype.h"

using openacl::Fail;

namespace {

// CANN's list for self, tensor1, tensor2, value, out and the promoted type.
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT64};

bool Listed(aclDataType type) {
    for (aclDataType listed : kTypes) {
        if (listed == type) return true;
    }
    return false;
}

aclnnStatus Plan(const char* api, const aclTensor* self, const aclTensor* tensor1,
                 const aclTensor* tensor2, const aclScalar* value, const aclTensor* out,
                 bool inplace, uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace openacl::aclnn;
    const char* self_name = inplace ? "selfRef" : "self";
    if (aclnnStatus rc = CheckTensorObject(self, self_name); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(tensor1, "tensor1"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(tensor2, "tensor2"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckScalarObject(value, "value"); rc != ACLNN_SUCCESS) return rc;
    if (!inplace) {
        if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    }
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView a, b, c, o;
    if (aclnnStatus rc = ViewOf(self, self_name, &a); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(tensor1, "tensor1", &b); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(tensor2, "tensor2", &c); rc != ACLNN_SUCCESS) return rc;
    if (inplace) {
        o = a;
    } else if (aclnnStatus rc = ViewOf(out, "out", &o); rc != ACLNN_SUCCESS) {
        return rc;
    }
    for (const TensorView* view : {&a, &b, &c, &o}) {
        if (aclnnStatus rc = CheckDtype(*view, kTypes); rc != ACLNN_SUCCESS) return rc;
    }
    aclDataType promoted = ACL_DT_UNDEFINED;
    if (!openacl::ops::PromoteTypes(a.dtype, b.dtype, &promoted) ||
        !openacl::ops::PromoteTypes(promoted, c.dtype, &promoted) || !Listed(promoted)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s (%s), tensor1 (%s) and tensor2 (%s) have no common type %s takes",
                    self_name, openacl::ops::DtypeName(a.dtype), openacl::ops::DtypeName(b.dtype),
                    openacl::ops::DtypeName(c.dtype), api);
    }
    if (!Listed(value->dtype) || !openacl::ops::CanCast(value->dtype, promoted)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "value is a scalar of type %s, which cannot be cast to the computation's "
                    "type %s",
                    openacl::ops::DtypeName(value->dtype), openacl::ops::DtypeName(promoted));
    }
    if (!openacl::ops::CanCast(promoted, o.dtype)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "the result's type %s cannot be cast to %s's type %s (floating to integer is "
                    "refused)",
                    openacl::ops::DtypeName(promoted), o.name, openacl::ops::DtypeName(o.dtype));
    }
    openacl::ops::TernaryArgs args;
    args.op = openacl::ops::TernaryOp::kAddcdiv;
    // True division: int64 computes in double.
    args.compute = openacl::ops::IsFloating(promoted) ? ComputeType(promoted) : ACL_DOUBLE;
    args.p0 = value->ToDouble();
    args.p0_int = value->ToInt64();
    if (aclnnStatus rc = Broadcast3(&a, &b, &c, &args.shape); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckShape(o, args.shape); rc != ACLNN_SUCCESS) return rc;

    ExecutorBuilder builder(api);
    const int slot_a = builder.Input(a, self);
    const int slot_b = builder.Input(b, tensor1);
    const int slot_c = builder.Input(c, tensor2);
    const int slot_out = inplace ? slot_a : builder.Output(o, out);
    const TensorView operands[3] = {a, b, c};
    const int slots[3] = {slot_a, slot_b, slot_c};
    return builder.Finish(std::make_unique<TernaryOperator>(args, operands, slots, o, slot_out), 0,
                          workspaceSize, executor);
}

}  // namespace

aclnnStatus aclnnAddcdivGetWorkspaceSize(const aclTensor* self, const aclTensor* tensor1,
                                         const aclTensor* tensor2, const aclScalar* value,
                                         const aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
    OPENACL_API();
    return Plan("aclnnAddcdiv", self, tensor1, tensor2, value, out, false, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Addcdiv)

aclnnStatus aclnnInplaceAddcdivGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* tensor1,
                                                const aclTensor* tensor2, const aclScalar* value,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return Plan("aclnnInplaceAddcdiv", selfRef, tensor1, tensor2, value, selfRef, true,
                workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceAddcdiv)
