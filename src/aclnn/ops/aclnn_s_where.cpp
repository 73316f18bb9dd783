// aclnnop/aclnn_s_where.h: out = condition ? self : other, the three broadcast together; self
// and other promote to one type, which must cast to out's.
#include "aclnnop/aclnn_s_where.h"

#include <memory>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/binary.h"
#include "aclnn/ops/ternary.h"
#include "core/error.h"
#include "ops/dtype.h"

using openacl::Fail;

namespace {

// CANN's lists for self, other and out, and for condition.
constexpr auto kTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE, ACL_INT8,
                         ACL_UINT8, ACL_INT16,   ACL_UINT16, ACL_INT32,  ACL_UINT32,
                         ACL_INT64, ACL_UINT64,  ACL_BOOL};
constexpr auto kConditionTypes = {ACL_BOOL, ACL_UINT8};

}  // namespace

aclnnStatus aclnnSWhereGetWorkspaceSize(const aclTensor* condition, const aclTensor* self,
                                        const aclTensor* other, aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    using namespace openacl::aclnn;
    if (aclnnStatus rc = CheckTensorObject(condition, "condition"); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(other, "other"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView c, a, b, o;
    if (aclnnStatus rc = ViewOf(condition, "condition", &c); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(self, "self", &a); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(other, "other", &b); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(c, kConditionTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(a, kTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(b, kTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(o, kTypes); rc != ACLNN_SUCCESS) return rc;
    aclDataType promoted = ACL_DT_UNDEFINED;
    if (!openacl::ops::PromoteTypes(a.dtype, b.dtype, &promoted)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "self (%s) and other (%s) have no common type (uint16/32/64 combine only "
                    "with themselves and bool)",
                    openacl::ops::DtypeName(a.dtype), openacl::ops::DtypeName(b.dtype));
    }
    if (!openacl::ops::CanCast(promoted, o.dtype)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "the result's type %s cannot be cast to out's type %s (floating to integer, "
                    "or anything but bool to bool, is refused)",
                    openacl::ops::DtypeName(promoted), openacl::ops::DtypeName(o.dtype));
    }
    openacl::ops::TernaryArgs args;
    args.op = openacl::ops::TernaryOp::kWhere;
    args.compute = ComputeType(promoted);
    if (aclnnStatus rc = Broadcast3(&c, &a, &b, &args.shape); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckShape(o, args.shape); rc != ACLNN_SUCCESS) return rc;

    ExecutorBuilder builder("aclnnSWhere");
    const int slot_c = builder.Input(c, condition);
    const int slot_a = builder.Input(a, self);
    const int slot_b = builder.Input(b, other);
    const int slot_out = builder.Output(o, out);
    const TensorView operands[3] = {c, a, b};
    const int slots[3] = {slot_c, slot_a, slot_b};
    return builder.Finish(std::make_unique<TernaryOperator>(args, operands, slots, o, slot_out), 0,
                          workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(SWhere)
