// The two-operand element-wise operators' first phase (aclnn/ops/binary.h).
#include "aclnn/ops/binary.h"

#include <cinttypes>
#include <cstring>
#include <memory>

#include "aclnn/opdev/op_errno.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {
namespace {

class BinaryOperator final : public Operator {
 public:
    BinaryOperator(const ops::BinaryArgs& args, TensorView a, TensorView b, TensorView out,
                   int slot_a, int slot_b, int slot_out)
        : args_(args),
          a_(a),
          b_(b),
          out_(out),
          slot_a_(slot_a),
          slot_b_(slot_b),
          slot_out_(slot_out) {}

    // The scalar operand lives in the operator itself (its value in the compute type).
    void SetScalar(double value, int64_t value_int) {
        if (ops::IsFloating(args_.compute)) {
            if (args_.compute == ACL_DOUBLE) {
                std::memcpy(scalar_, &value, sizeof value);
            } else {
                const auto narrow = static_cast<float>(value);
                std::memcpy(scalar_, &narrow, sizeof narrow);
            }
        } else if (args_.compute == ACL_INT32) {
            const auto narrow = static_cast<int32_t>(value_int);
            std::memcpy(scalar_, &narrow, sizeof narrow);
        } else {
            std::memcpy(scalar_, &value_int, sizeof value_int);
        }
    }

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        ops::BinaryArgs args = args_;
        args.a = slot_a_ >= 0 ? OperandOf(a_, args.shape, addresses[slot_a_]) : ScalarOperand();
        args.b = slot_b_ >= 0 ? OperandOf(b_, args.shape, addresses[slot_b_]) : ScalarOperand();
        args.out = OperandOf(out_, args.shape, addresses[slot_out_]);
        ops::RunBinary(args);
        return 0;
    }

 private:
    // The scalar operand: every stride 0, the one value repeated.
    ops::Operand ScalarOperand() const {
        ops::Operand operand;
        operand.dtype = args_.compute;
        operand.data = const_cast<char*>(scalar_);
        return operand;
    }

    ops::BinaryArgs args_;
    TensorView a_, b_, out_;
    int slot_a_, slot_b_, slot_out_;  // -1: the scalar
    alignas(8) char scalar_[8] = {};
};

// The shared checks of both forms. `b` is null for a scalar operand (`scalar`, of type b_type).
aclnnStatus CheckTypes(const BinarySpec& spec, const TensorView& a, const TensorView* b,
                       aclDataType b_type, const aclScalar* scalar, const char* b_name,
                       const aclScalar* alpha, const TensorView& out, aclDataType* compute) {
    if (aclnnStatus rc = CheckDtype(a, spec.dtypes); rc != ACLNN_SUCCESS) return rc;
    if (b != nullptr) {
        if (aclnnStatus rc = CheckDtype(*b, spec.dtypes); rc != ACLNN_SUCCESS) return rc;
    } else {
        bool listed = false;
        for (aclDataType type : spec.dtypes)
            listed = listed || type == b_type;
        if (!listed) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "%s is a scalar of type %s, which %s does not take", b_name,
                        ops::DtypeName(b_type), spec.api);
        }
    }
    if (spec.no_bool_pair && a.dtype == ACL_BOOL && b_type == ACL_BOOL) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "%s and %s are both ACL_BOOL, which %s refuses",
                    a.name, b_name, spec.api);
    }
    aclDataType promoted = ACL_DT_UNDEFINED;
    const bool ok = b != nullptr ? ops::PromoteTypes(a.dtype, b_type, &promoted)
                                 : ops::PromoteWithScalar(a.dtype, b_type, &promoted);
    if (!ok) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s (%s) and %s (%s) have no common type (uint16/32/64 combine only with "
                    "themselves and bool)",
                    a.name, ops::DtypeName(a.dtype), b_name, ops::DtypeName(b_type));
    }
    if (spec.true_division && !ops::IsFloating(promoted)) promoted = ACL_FLOAT;
    if (spec.bool_to_float && promoted == ACL_BOOL) promoted = ACL_FLOAT;
    const std::initializer_list<aclDataType> out_dtypes =
        spec.out_dtypes.size() != 0 ? spec.out_dtypes : spec.dtypes;
    if (!spec.comparison) {
        if (aclnnStatus rc = CheckDtype(out, out_dtypes); rc != ACLNN_SUCCESS) return rc;
        if (!ops::CanCast(promoted, out.dtype)) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "the result's type %s cannot be cast to %s's type %s (floating to "
                        "integer, or anything but bool to bool, is refused)",
                        ops::DtypeName(promoted), out.name, ops::DtypeName(out.dtype));
        }
    } else if (spec.out_dtypes.size() != 0) {
        if (aclnnStatus rc = CheckDtype(out, spec.out_dtypes); rc != ACLNN_SUCCESS) return rc;
    } else if (ops::DtypeSize(out.dtype) == 0 || ops::IsComplex(out.dtype)) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "%s is %s: a comparison writes bool or numbers",
                    out.name, ops::DtypeName(out.dtype));
    }
    if (alpha != nullptr && !ops::CanCast(alpha->dtype, promoted)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "alpha is %s, which cannot be cast to the computation's type %s",
                    ops::DtypeName(alpha->dtype), ops::DtypeName(promoted));
    }
    if (spec.non_negative_int_exponent && scalar != nullptr && !ops::IsFloating(promoted) &&
        !ops::IsFloating(scalar->dtype) && scalar->ToInt64() < 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s is %" PRId64 ": integers (%s) to negative integer powers are not allowed",
                    b_name, scalar->ToInt64(), ops::DtypeName(promoted));
    }
    *compute = ComputeType(promoted);
    return ACLNN_SUCCESS;
}

aclnnStatus Plan(const BinarySpec& spec, const aclTensor* self, const aclTensor* other,
                 const aclScalar* scalar, const aclScalar* alpha, bool has_alpha,
                 const aclTensor* out, bool inplace, uint64_t* workspaceSize,
                 aclOpExecutor** executor) {
    const char* self_name =
        spec.self_name != nullptr ? spec.self_name : (inplace ? "selfRef" : "self");
    const char* other_name = spec.other_name != nullptr ? spec.other_name : "other";
    // Null checks in the parameters' order (PowScalarTensor's scalar comes first).
    if (spec.scalar_first && scalar != nullptr) {
        if (aclnnStatus rc = CheckScalarObject(scalar, other_name); rc != ACLNN_SUCCESS) {
            return rc;
        }
    }
    if (aclnnStatus rc = CheckTensorObject(self, self_name); rc != ACLNN_SUCCESS) return rc;
    if (other == nullptr && scalar == nullptr) {
        return Fail(ACLNN_ERR_PARAM_NULLPTR, "%s is null", other_name);
    }
    if (scalar != nullptr) {
        if (aclnnStatus rc = CheckScalarObject(scalar, other_name); rc != ACLNN_SUCCESS) {
            return rc;
        }
    }
    if (has_alpha) {
        if (aclnnStatus rc = CheckScalarObject(alpha, "alpha"); rc != ACLNN_SUCCESS) return rc;
    }
    if (!inplace) {
        if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    }
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView a, b, o;
    if (aclnnStatus rc = ViewOf(self, self_name, &a); rc != ACLNN_SUCCESS) return rc;
    if (other != nullptr) {
        if (aclnnStatus rc = ViewOf(other, other_name, &b); rc != ACLNN_SUCCESS) return rc;
    }
    if (aclnnStatus rc = ViewOf(inplace ? self : out, inplace ? self_name : "out", &o);
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    aclDataType compute = ACL_FLOAT;
    if (aclnnStatus rc = CheckTypes(spec, a, other != nullptr ? &b : nullptr,
                                    other != nullptr ? b.dtype : scalar->dtype, scalar, other_name,
                                    has_alpha ? alpha : nullptr, o, &compute);
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    ops::BinaryArgs args;
    args.op = spec.op;
    args.compute = compute;
    if (other != nullptr) {
        if (aclnnStatus rc = Broadcast(a, b, &args.shape); rc != ACLNN_SUCCESS) return rc;
    } else {
        args.shape = a.shape;
    }
    if (aclnnStatus rc = CheckShape(o, args.shape); rc != ACLNN_SUCCESS) return rc;
    if (has_alpha) {
        args.alpha = alpha->ToDouble();
        args.alpha_int = alpha->ToInt64();
    }
    ExecutorBuilder builder(spec.api);
    const int slot_self = builder.Input(a, self);
    const int slot_b = other != nullptr ? builder.Input(b, other) : -1;
    const int slot_out = inplace ? slot_self : builder.Output(o, out);
    std::unique_ptr<BinaryOperator> op;
    if (spec.scalar_first) {  // scalar (op) tensor
        op = std::make_unique<BinaryOperator>(args, b, a, o, -1, slot_self, slot_out);
    } else {
        op = std::make_unique<BinaryOperator>(args, a, b, o, slot_self, slot_b, slot_out);
    }
    if (scalar != nullptr) op->SetScalar(scalar->ToDouble(), scalar->ToInt64());
    return builder.Finish(std::move(op), 0, workspaceSize, executor);
}

}  // namespace

aclDataType ComputeType(aclDataType promoted) {
    switch (promoted) {
        case ACL_DOUBLE:
            return ACL_DOUBLE;
        case ACL_FLOAT:
        case ACL_FLOAT16:
        case ACL_BF16:
            return ACL_FLOAT;
        case ACL_INT64:
        case ACL_UINT32:
        case ACL_UINT64:
            return ACL_INT64;
        default:
            return ACL_INT32;
    }
}

aclnnStatus PlanBinary(const BinarySpec& spec, const aclTensor* self, const aclTensor* other,
                       const aclScalar* alpha, const aclTensor* out, bool inplace,
                       uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (other == nullptr) {
        return Fail(ACLNN_ERR_PARAM_NULLPTR, "%s is null",
                    spec.other_name != nullptr ? spec.other_name : "other");
    }
    const bool has_alpha = spec.op == ops::BinaryOp::kAdd || spec.op == ops::BinaryOp::kSub;
    return Plan(spec, self, other, nullptr, alpha, has_alpha, out, inplace, workspaceSize,
                executor);
}

aclnnStatus PlanBinaryScalar(const BinarySpec& spec, const aclTensor* self, const aclScalar* other,
                             const aclScalar* alpha, const aclTensor* out, bool inplace,
                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (other == nullptr) {
        return Fail(ACLNN_ERR_PARAM_NULLPTR, "%s is null",
                    spec.other_name != nullptr ? spec.other_name : "other");
    }
    const bool has_alpha = spec.op == ops::BinaryOp::kAdd || spec.op == ops::BinaryOp::kSub;
    return Plan(spec, self, nullptr, other, alpha, has_alpha, out, inplace, workspaceSize,
                executor);
}

}  // namespace openacl::aclnn
