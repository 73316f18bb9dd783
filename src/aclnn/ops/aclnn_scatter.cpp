// aclnnop/aclnn_scatter.h: for every position p of index, the element of self at p with
// dimension dim replaced by index[p] becomes src[p] (or value): replaced (reduce 0), added to
// (1) or multiplied by (2). Scatter and ScatterValue write the result to out (self copied
// first); the in-place forms write selfRef. Indices are read when the task runs; one outside
// the dimension fails the stream, naming it.
#include "aclnnop/aclnn_scatter.h"

#include <cinttypes>
#include <memory>
#include <string>
#include <type_traits>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement.h"
#include "aclnn/ops/movement_plan.h"
#include "core/error.h"
#include "ops/dtype.h"
#include "ops/element.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;
namespace ops = openacl::ops;

namespace {

struct ScatterSlots {
    int from = -1;  // self, copied into the target first (the out-of-place forms)
    int target = -1;
    int index = -1;
    int src = -1;  // -1: the scalar value
};

// old + update or old * update; integers wrap around as the device's arithmetic does.
template <typename C>
C Combine(C old, C update, bool add) {
    if constexpr (std::is_floating_point_v<C>) {
        return add ? old + update : old * update;
    } else {
        const auto a = static_cast<uint64_t>(old), b = static_cast<uint64_t>(update);
        return static_cast<C>(add ? a + b : a * b);
    }
}

class ScatterOperator final : public Operator {
 public:
    ScatterOperator(TensorView from, TensorView target, TensorView index, TensorView src, int dim,
                    int64_t reduce, double value, int64_t value_int, ScatterSlots slots)
        : from_(from),
          target_(target),
          index_(index),
          src_(src),
          dim_(dim),
          reduce_(reduce),
          value_(value),
          value_int_(value_int),
          slots_(slots) {}

    int32_t Run(void* const* addresses, void*, std::string* error) const override {
        if (slots_.from >= 0) {
            Piece whole;
            whole.shape = target_.shape;
            whole.src = RegionOf(from_, slots_.from);
            whole.dst = RegionOf(target_, slots_.target);
            MovementOperator::RunPiece(whole, addresses);
        }
        return ops::IsFloating(target_.dtype) ? Scatter<double>(addresses, value_, error)
                                              : Scatter<int64_t>(addresses, value_int_, error);
    }

 private:
    template <typename C>
    int32_t Scatter(void* const* addresses, C scalar, std::string* error) const {
        const auto t_size = static_cast<int64_t>(ops::DtypeSize(target_.dtype));
        const auto i_size = static_cast<int64_t>(ops::DtypeSize(index_.dtype));
        const auto s_size = static_cast<int64_t>(ops::DtypeSize(src_.dtype));
        char* target = static_cast<char*>(addresses[slots_.target]);
        const char* indices = static_cast<const char*>(addresses[slots_.index]);
        const char* source =
            slots_.src >= 0 ? static_cast<const char*>(addresses[slots_.src]) : nullptr;
        const int rank = index_.shape.rank;
        const int64_t size = target_.shape.rank == 0 ? 1 : target_.shape.dims[dim_];
        int64_t position[ops::kMaxDims] = {};
        for (int64_t p = 0; p < index_.numel; ++p) {
            int64_t at_index = index_.offset, at_src = src_.offset, at_target = target_.offset;
            for (int d = 0; d < rank; ++d) {
                at_index += position[d] * index_.strides[d];
                at_src += position[d] * src_.strides[d];
                if (d != dim_) at_target += position[d] * target_.strides[d];
            }
            int64_t where = 0;
            ops::Load<int64_t>(indices + at_index * i_size, 0, index_.dtype, 1, &where);
            if (where < 0 || where >= size) {
                *error = "index " + std::to_string(where) + " at position " + std::to_string(p) +
                         " of index is outside [0, " + std::to_string(size) + ") (dimension " +
                         std::to_string(dim_) + " of " + target_.name + ")";
                return ACL_ERROR_RT_AICORE_EXCEPTION;
            }
            if (rank > 0) at_target += where * target_.strides[dim_];
            C update = scalar;
            if (source != nullptr)
                ops::Load<C>(source + at_src * s_size, 0, src_.dtype, 1, &update);
            char* cell = target + at_target * t_size;
            if (reduce_ != 0) {
                C old = 0;
                ops::Load<C>(cell, 0, target_.dtype, 1, &old);
                update = reduce_ == 1 ? Combine(old, update, true) : Combine(old, update, false);
            }
            ops::Store<C>(&update, 1, cell, 0, target_.dtype);
            for (int d = rank - 1; d >= 0; --d) {
                if (++position[d] < index_.shape.dims[d]) break;
                position[d] = 0;
            }
        }
        return 0;
    }

    TensorView from_, target_, index_, src_;
    int dim_;
    int64_t reduce_;
    double value_;
    int64_t value_int_;
    ScatterSlots slots_;
};

aclnnStatus Plan(const char* api, const aclTensor* self, const char* self_name, int64_t dim,
                 const aclTensor* index, const aclTensor* src, const aclScalar* value,
                 int64_t reduce, const aclTensor* out, uint64_t* workspaceSize,
                 aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(self, self_name); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(index, "index"); rc != 0) return rc;
    if (value == nullptr) {
        if (aclnnStatus rc = CheckTensorObject(src, "src"); rc != 0) return rc;
    } else if (aclnnStatus rc = CheckScalarObject(value, "value"); rc != 0) {
        return rc;
    }
    if (out != nullptr) {
        if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    }
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView in, idx, s, o;
    if (aclnnStatus rc = ViewOf(self, self_name, &in); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(index, "index", &idx); rc != 0) return rc;
    if (value == nullptr) {
        if (aclnnStatus rc = ViewOf(src, "src", &s); rc != 0) return rc;
        if (aclnnStatus rc = CheckSameDtype(in, s); rc != 0) return rc;
    }
    if (out != nullptr) {
        if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
        if (aclnnStatus rc = CheckSameDtype(in, o); rc != 0) return rc;
        if (aclnnStatus rc = CheckShape(o, in.shape); rc != 0) return rc;
    }
    if (aclnnStatus rc = CheckDtype(in, kMovableTypes); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(idx, {ACL_INT32, ACL_INT64}); rc != 0) return rc;
    if (reduce < 0 || reduce > 2) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "reduce is %" PRId64 ": 0 (replace), 1 (add) or 2 (multiply)", reduce);
    }
    if (in.dtype == ACL_BOOL && reduce != 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "reduce %" PRId64 " on a bool tensor", reduce);
    }
    int d = 0;
    if (aclnnStatus rc = NormalizeDim(dim, in.shape.rank, "dim", &d); rc != 0) return rc;
    const int rank = in.shape.rank;
    if (idx.shape.rank != rank || (value == nullptr && s.shape.rank != rank)) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "index (%d dimensions)%s must have %s's %d dimensions",
                    idx.shape.rank, value == nullptr ? " and src" : "", self_name, rank);
    }
    for (int k = 0; k < rank; ++k) {
        const int64_t n = idx.shape.dims[k];
        if ((value == nullptr && n > s.shape.dims[k]) || (k != d && n > in.shape.dims[k])) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "index's dimension %d (%" PRId64 ") is larger than src's or than %s's", k,
                        n, self_name);
        }
    }
    ExecutorBuilder builder(api);
    ScatterSlots slots;
    if (out != nullptr) {
        slots.from = builder.Input(in, self);
    } else {
        slots.target = builder.Input(in, self);
    }
    slots.index = builder.Input(idx, index);
    if (value == nullptr) slots.src = builder.Input(s, src);
    if (out != nullptr) slots.target = builder.Output(o, out);
    const TensorView& target = out != nullptr ? o : in;
    return builder.Finish(
        std::make_unique<ScatterOperator>(in, target, idx, s, d, reduce,
                                          value != nullptr ? value->ToDouble() : 0.0,
                                          value != nullptr ? value->ToInt64() : 0, slots),
        0, workspaceSize, executor);
}

}  // namespace

aclnnStatus aclnnScatterGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                         const aclTensor* src, int64_t reduce, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    if (out == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "out is null");
    return Plan("aclnnScatter", self, "self", dim, index, src, nullptr, reduce, out, workspaceSize,
                executor);
}
OPENACL_ACLNN_SECOND_PHASE(Scatter)

aclnnStatus aclnnScatterValueGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                              const aclTensor* index, const aclScalar* value,
                                              int64_t reduce, aclTensor* out,
                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    if (out == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "out is null");
    if (value == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "value is null");
    return Plan("aclnnScatterValue", self, "self", dim, index, nullptr, value, reduce, out,
                workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(ScatterValue)

aclnnStatus aclnnInplaceScatterGetWorkspaceSize(aclTensor* selfRef, int64_t dim,
                                                const aclTensor* index, const aclTensor* src,
                                                int64_t reduce, uint64_t* workspaceSize,
                                                aclOpExecutor** executor) {
    OPENACL_API();
    return Plan("aclnnInplaceScatter", selfRef, "selfRef", dim, index, src, nullptr, reduce,
                nullptr, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceScatter)

aclnnStatus aclnnInplaceScatterValueGetWorkspaceSize(aclTensor* selfRef, int64_t dim,
                                                     const aclTensor* index, const aclScalar* value,
                                                     int64_t reduce, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
    OPENACL_API();
    if (value == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "value is null");
    return Plan("aclnnInplaceScatterValue", selfRef, "selfRef", dim, index, nullptr, value, reduce,
                nullptr, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceScatterValue)
