// The one-operand element-wise operators' first phase, conversions and fills
// (aclnn/ops/unary.h).
#include "aclnn/ops/unary.h"

#include <memory>
#include <new>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/binary.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {
namespace {

class UnaryOperator final : public Operator {
 public:
    UnaryOperator(const ops::UnaryArgs& args, const TensorView& in, const TensorView& out,
                  int slot_in, int slot_out)
        : args_(args), in_(in), out_(out), slot_in_(slot_in), slot_out_(slot_out) {}

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        ops::UnaryArgs args = args_;
        args.in = OperandOf(in_, args.shape, addresses[slot_in_]);
        args.out = OperandOf(out_, args.shape, addresses[slot_out_]);
        ops::RunUnary(args);
        return 0;
    }

 private:
    ops::UnaryArgs args_;
    TensorView in_, out_;
    int slot_in_, slot_out_;
};

// Whether two operands over `shape` are the very same elements (same address, type, strides).
bool SameElements(const ops::Operand& a, const ops::Operand& b, const ops::LoopShape& shape) {
    if (a.data != b.data || a.dtype != b.dtype) return false;
    for (int d = 0; d < shape.rank; ++d) {
        if (shape.dims[d] > 1 && a.strides[d] != b.strides[d]) return false;
    }
    return true;
}

// The bytes a view reaches at `address`, as [first, last).
void ByteRange(const TensorView& view, void* address, const char** first, const char** last) {
    const auto size = static_cast<int64_t>(ops::DtypeSize(view.dtype));
    *first = static_cast<const char*>(address) + view.offset * size;
    *last = *first + view.extent * size;
}

class ConvertOperator final : public Operator {
 public:
    ConvertOperator(const TensorView& src, const TensorView& dst, int slot_src, int slot_dst)
        : src_(src), dst_(dst), slot_src_(slot_src), slot_dst_(slot_dst) {}

    int32_t Run(void* const* addresses, void*, std::string* error) const override {
        if (dst_.numel == 0) return 0;
        const ops::LoopShape& shape = dst_.shape;
        ops::Operand in = OperandOf(src_, shape, addresses[slot_src_]);
        const ops::Operand out = OperandOf(dst_, shape, addresses[slot_dst_]);
        // A source that shares memory with the destination, other than as the same elements
        // (a shifted or transposed view of it, a broadcast row of it), is copied aside first:
        // writing the destination would otherwise change elements still to be read.
        const char *src_first, *src_last, *dst_first, *dst_last;
        ByteRange(src_, addresses[slot_src_], &src_first, &src_last);
        ByteRange(dst_, addresses[slot_dst_], &dst_first, &dst_last);
        std::vector<char> staged;
        if (src_first < dst_last && dst_first < src_last && !SameElements(in, out, shape)) {
            TensorView packed = src_;
            packed.offset = 0;
            int64_t step = 1;
            for (int d = packed.shape.rank - 1; d >= 0; --d) {
                packed.strides[d] = step;
                step *= packed.shape.dims[d];
            }
            try {
                staged.resize(static_cast<size_t>(src_.numel) * ops::DtypeSize(src_.dtype));
            } catch (const std::bad_alloc&) {
                *error = "no host memory to stage an overlapping source";
                return ACL_ERROR_RT_MEMORY_ALLOCATION;
            }
            ops::CopyArgs stage;
            stage.shape = src_.shape;
            stage.in = OperandOf(src_, src_.shape, addresses[slot_src_]);
            stage.out = OperandOf(packed, src_.shape, staged.data());
            ops::RunCopy(stage);
            in = OperandOf(packed, shape, staged.data());
        }
        if (src_.dtype == dst_.dtype) {
            ops::CopyArgs args;
            args.shape = shape;
            args.in = in;
            args.out = out;
            ops::RunCopy(args);
        } else {
            ops::UnaryArgs args;
            args.op = ops::UnaryOp::kIdentity;
            args.shape = shape;
            args.in = in;
            args.out = out;
            args.compute = ConvertComputeType(src_.dtype, dst_.dtype);
            ops::RunUnary(args);
        }
        return 0;
    }

 private:
    TensorView src_, dst_;
    int slot_src_, slot_dst_;
};

class FillOperator final : public Operator {
 public:
    FillOperator(const ops::FillArgs& args, const TensorView& view, int slot)
        : args_(args), view_(view), slot_(slot) {}

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        ops::FillArgs args = args_;
        args.out = OperandOf(view_, args.shape, addresses[slot_]);
        ops::RunFill(args);
        return 0;
    }

 private:
    ops::FillArgs args_;
    TensorView view_;
    int slot_;
};

// The kernel's compute type for a result of type `result` from self of type `self`.
aclDataType UnaryComputeType(const UnarySpec& spec, aclDataType self, aclDataType result) {
    if (spec.float_math) {
        const bool wide = result == ACL_DOUBLE || result == ACL_INT64 || self == ACL_DOUBLE ||
                          self == ACL_INT64 || self == ACL_UINT32 || self == ACL_UINT64;
        return wide ? ACL_DOUBLE : ACL_FLOAT;
    }
    return ComputeType(spec.result == UnaryResult::kBool ? self : result);
}

}  // namespace

aclnnStatus PlanUnary(const UnarySpec& spec, const aclTensor* self, const aclTensor* out,
                      bool inplace, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* self_name =
        spec.self_name != nullptr ? spec.self_name : (inplace ? "selfRef" : "self");
    const char* out_name = spec.out_name != nullptr ? spec.out_name : "out";
    if (aclnnStatus rc = CheckTensorObject(self, self_name); rc != ACLNN_SUCCESS) return rc;
    if (!inplace) {
        if (aclnnStatus rc = CheckTensorObject(out, out_name); rc != ACLNN_SUCCESS) return rc;
    }
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView in, o;
    if (aclnnStatus rc = ViewOf(self, self_name, &in); rc != ACLNN_SUCCESS) return rc;
    if (inplace) {
        o = in;
        const std::initializer_list<aclDataType> allowed =
            spec.inplace_dtypes.size() != 0 ? spec.inplace_dtypes : spec.dtypes;
        if (aclnnStatus rc = CheckDtype(in, allowed); rc != ACLNN_SUCCESS) return rc;
    } else if (aclnnStatus rc = ViewOf(out, out_name, &o); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (aclnnStatus rc = CheckDtype(in, spec.dtypes); rc != ACLNN_SUCCESS) return rc;
    if (spec.out_dtypes.size() != 0) {
        if (aclnnStatus rc = CheckDtype(o, spec.out_dtypes); rc != ACLNN_SUCCESS) return rc;
    }
    if (spec.same_dtype && o.dtype != in.dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "%s is %s but %s is %s: %s writes %s's type", o.name,
                    ops::DtypeName(o.dtype), in.name, ops::DtypeName(in.dtype), spec.api, in.name);
    }
    aclDataType result = in.dtype;
    switch (spec.result) {
        case UnaryResult::kSame:
            break;
        case UnaryResult::kFloating:
            if (!ops::IsFloating(in.dtype)) result = ACL_FLOAT;
            break;
        case UnaryResult::kBool:
            result = ACL_BOOL;
            break;
        case UnaryResult::kOut:
            result = o.dtype;
            break;
    }
    // Clamp converts self to out's type first: that conversion is the one to check.
    const aclDataType cast_from = spec.result == UnaryResult::kOut ? in.dtype : result;
    if (!ops::CanCast(cast_from, o.dtype)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s's result (%s) cannot be cast to %s's type %s (floating to integer, or "
                    "anything but bool to bool, is refused)",
                    spec.api, ops::DtypeName(cast_from), o.name, ops::DtypeName(o.dtype));
    }
    if (aclnnStatus rc = CheckShape(o, in.shape); rc != ACLNN_SUCCESS) return rc;

    ops::UnaryArgs args;
    args.op = spec.op;
    args.shape = in.shape;
    args.compute = UnaryComputeType(spec, in.dtype, result);
    args.p0 = spec.p0;
    args.p1 = spec.p1;
    args.p2 = spec.p2;
    args.i0 = spec.i0;
    args.i1 = spec.i1;
    ExecutorBuilder builder(spec.api);
    const int slot_in = builder.Input(in, self);
    const int slot_out = inplace ? slot_in : builder.Output(o, out);
    return builder.Finish(std::make_unique<UnaryOperator>(args, in, o, slot_in, slot_out), 0,
                          workspaceSize, executor);
}

aclnnStatus PlanConvert(const char* api, const TensorView& src, const aclTensor* src_tensor,
                        const TensorView& dst, const aclTensor* dst_tensor, bool inplace,
                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    ExecutorBuilder builder(api);
    int slot_src = 0, slot_dst = 0;
    if (inplace) {  // the parameters' order: selfRef, then src
        slot_dst = builder.Input(dst, dst_tensor);
        slot_src = builder.Input(src, src_tensor);
    } else {
        slot_src = builder.Input(src, src_tensor);
        slot_dst = builder.Output(dst, dst_tensor);
    }
    return builder.Finish(std::make_unique<ConvertOperator>(src, dst, slot_src, slot_dst), 0,
                          workspaceSize, executor);
}

aclnnStatus PlanFill(const char* api, const TensorView& self, const aclTensor* self_tensor,
                     double value, int64_t value_int, uint64_t* workspaceSize,
                     aclOpExecutor** executor) {
    ops::FillArgs args;
    args.shape = self.shape;
    args.value = value;
    args.value_int = self.dtype == ACL_BOOL ? (value != 0.0 || value_int != 0) : value_int;
    ExecutorBuilder builder(api);
    const int slot = builder.Input(self, self_tensor);
    return builder.Finish(std::make_unique<FillOperator>(args, self, slot), 0, workspaceSize,
                          executor);
}

aclnnStatus CheckScalarCastsTo(const aclScalar* scalar, const char* name, aclDataType to) {
    if (aclnnStatus rc = CheckScalarObject(scalar, name); rc != ACLNN_SUCCESS) return rc;
    if (!ops::CanCast(scalar->dtype, to)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s is a scalar of type %s, which cannot be cast to %s", name,
                    ops::DtypeName(scalar->dtype), ops::DtypeName(to));
    }
    return ACLNN_SUCCESS;
}

aclDataType ConvertComputeType(aclDataType from, aclDataType to) {
    if (from == ACL_DOUBLE || to == ACL_DOUBLE) return ACL_DOUBLE;
    if (ops::IsFloating(from) || ops::IsFloating(to)) return ACL_FLOAT;
    return ACL_INT64;
}

}  // namespace openacl::aclnn
