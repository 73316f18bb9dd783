// The gather operators (aclnn/ops/gather.h). Indices live in device memory and are only known
// when the task runs, so the operator reads them then and copies one slice of self per index;
// an index out of range fails the task (as the device's AI core exception would) with the
// index, its position and the range in the message.
#include "aclnn/ops/gather.h"

#include <cinttypes>
#include <memory>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement.h"
#include "aclnn/ops/movement_plan.h"
#include "core/error.h"
#include "ops/dtype.h"
#include "ops/element.h"

namespace openacl::aclnn {
namespace {

class GatherOperator final : public Operator {
 public:
    GatherOperator(TensorView self, TensorView index, TensorView out, int dim, int slots[3])
        : self_(self),
          index_(index),
          out_(out),
          dim_(dim),
          self_slot_(slots[0]),
          index_slot_(slots[1]),
          out_slot_(slots[2]) {}

    int32_t Run(void* const* addresses, void*, std::string* error) const override {
        const int index_rank = index_.shape.rank;
        const int64_t size = self_.shape.dims[dim_];
        // One slice: self with dimension dim narrowed to one element, written where out's
        // index dimensions say.
        Piece slice;
        slice.shape = self_.shape;
        slice.shape.dims[dim_] = 1;
        slice.src = RegionOf(self_, self_slot_);
        slice.dst.slot = out_slot_;
        slice.dst.dtype = out_.dtype;
        for (int d = 0; d < self_.shape.rank; ++d) {
            slice.dst.strides[d] = d < dim_    ? out_.strides[d]
                                   : d == dim_ ? 0
                                               : out_.strides[d + index_rank - 1];
        }
        const char* indices = static_cast<const char*>(addresses[index_slot_]);
        const auto index_size = static_cast<int64_t>(ops::DtypeSize(index_.dtype));
        int64_t position[ops::kMaxDims] = {};
        for (int64_t p = 0; p < index_.numel; ++p) {
            int64_t at = index_.offset, out_at = out_.offset;
            for (int k = 0; k < index_rank; ++k) {
                at += position[k] * index_.strides[k];
                out_at += position[k] * out_.strides[dim_ + k];
            }
            int64_t value = 0;
            ops::Load<int64_t>(indices + at * index_size, 0, index_.dtype, 1, &value);
            if (value < 0 || value >= size) {
                *error = "index " + std::to_string(value) + " at position " + std::to_string(p) +
                         " of " + index_.name + " is outside [0, " + std::to_string(size) +
                         ") (dimension " + std::to_string(dim_) + " of " + self_.name + ")";
                return ACL_ERROR_RT_AICORE_EXCEPTION;
            }
            Piece piece = slice;
            piece.src.offset += value * self_.strides[dim_];
            piece.dst.offset = out_at;
            MovementOperator::RunPiece(piece, addresses);
            for (int k = index_rank - 1; k >= 0; --k) {  // next position, row-major
                if (++position[k] < index_.shape.dims[k]) break;
                position[k] = 0;
            }
        }
        return 0;
    }

 private:
    TensorView self_, index_, out_;
    int dim_;
    int self_slot_, index_slot_, out_slot_;
};

// IndexCopy's operator: an optional whole copy, then one slice per index.
class IndexCopyOperator final : public Operator {
 public:
    IndexCopyOperator(TensorView target, TensorView index, TensorView source, int dim,
                      int target_slot, int index_slot, int source_slot, int from_slot,
                      TensorView from)
        : target_(target),
          index_(index),
          source_(source),
          from_(from),
          dim_(dim),
          target_slot_(target_slot),
          index_slot_(index_slot),
          source_slot_(source_slot),
          from_slot_(from_slot) {}

    int32_t Run(void* const* addresses, void*, std::string* error) const override {
        if (from_slot_ >= 0) {
            Piece whole;
            whole.shape = target_.shape;
            whole.src = RegionOf(from_, from_slot_);
            whole.dst = RegionOf(target_, target_slot_);
            MovementOperator::RunPiece(whole, addresses);
        }
        const int64_t size = target_.shape.dims[dim_];
        const char* indices = static_cast<const char*>(addresses[index_slot_]);
        const auto index_size = static_cast<int64_t>(ops::DtypeSize(index_.dtype));
        const int64_t step = index_.shape.rank == 0 ? 0 : index_.strides[0];
        for (int64_t p = 0; p < index_.numel; ++p) {
            int64_t value = 0;
            ops::Load<int64_t>(indices + (index_.offset + p * step) * index_size, 0, index_.dtype,
                               1, &value);
            if (value < 0 || value >= size) {
                *error = "index " + std::to_string(value) + " at position " + std::to_string(p) +
                         " of index is outside [0, " + std::to_string(size) + ") (dimension " +
                         std::to_string(dim_) + " of " + target_.name + ")";
                return ACL_ERROR_RT_AICORE_EXCEPTION;
            }
            Piece slice;
            slice.shape = target_.shape;
            slice.src = RegionOf(source_, source_slot_);
            slice.dst = RegionOf(target_, target_slot_);
            ops::LoopShape unused = slice.shape;
            Narrow(&slice.shape, &slice.src, dim_, p, 1);
            Narrow(&unused, &slice.dst, dim_, value, 1);
            MovementOperator::RunPiece(slice, addresses);
        }
        return 0;
    }

 private:
    TensorView target_, index_, source_, from_;
    int dim_;
    int target_slot_, index_slot_, source_slot_, from_slot_;
};

}  // namespace

aclnnStatus PlanIndexCopy(const char* api, const aclTensor* target, const char* target_name,
                          const aclTensor* copy_from, int64_t dim, const aclTensor* index,
                          const aclTensor* source, uint64_t* workspaceSize,
                          aclOpExecutor** executor) {
    if (copy_from != nullptr) {
        if (aclnnStatus rc = CheckTensorObject(copy_from, "selfRef"); rc != 0) return rc;
    }
    if (aclnnStatus rc = CheckTensorObject(target, target_name); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(index, "index"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(source, "source"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView t, idx, src, from;
    if (aclnnStatus rc = ViewOf(target, target_name, &t); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(index, "index", &idx); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(source, "source", &src); rc != 0) return rc;
    if (copy_from != nullptr) {
        if (aclnnStatus rc = ViewOf(copy_from, "selfRef", &from); rc != 0) return rc;
        if (aclnnStatus rc = CheckSameDtype(from, t); rc != 0) return rc;
        if (aclnnStatus rc = CheckShape(from, t.shape); rc != 0) return rc;
    }
    if (aclnnStatus rc = CheckDtype(t, kMovableTypes); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(idx, {ACL_INT32, ACL_INT64}); rc != 0) return rc;
    if (aclnnStatus rc = CheckSameDtype(t, src); rc != 0) return rc;
    if (idx.shape.rank > 1) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "index has %d dimensions: it must be 1-D",
                    idx.shape.rank);
    }
    if (t.shape.rank == 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "%s is 0-dimensional: nothing to copy into",
                    target_name);
    }
    int d = 0;
    if (aclnnStatus rc = NormalizeDim(dim, t.shape.rank, "dim", &d); rc != 0) return rc;
    ops::LoopShape expected = t.shape;
    expected.dims[d] = idx.numel;
    if (aclnnStatus rc = CheckShape(src, expected); rc != 0) return rc;
    // Slots in the prototype's order: selfRef, index, source (then outRef).
    ExecutorBuilder builder(api);
    int from_slot = -1, target_slot = -1;
    if (copy_from != nullptr) {
        from_slot = builder.Input(from, copy_from);
    } else {
        target_slot = builder.Input(t, target);
    }
    const int index_slot = builder.Input(idx, index);
    const int source_slot = builder.Input(src, source);
    if (copy_from != nullptr) target_slot = builder.Output(t, target);
    return builder.Finish(
        std::make_unique<IndexCopyOperator>(t, idx, src, d, target_slot, index_slot, source_slot,
                                            from_slot, from),
        0, workspaceSize, executor);
}

aclnnStatus PlanGather(const char* api, const aclTensor* self, const char* self_name, int64_t dim,
                       const aclTensor* index, const char* index_name, const aclTensor* out,
                       uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(self, self_name); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(index, index_name); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView in, idx, o;
    if (aclnnStatus rc = ViewOf(self, self_name, &in); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(index, index_name, &idx); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(in, kMovableTypes); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(idx, {ACL_INT32, ACL_INT64}); rc != 0) return rc;
    if (aclnnStatus rc = CheckSameDtype(in, o); rc != 0) return rc;
    if (in.shape.rank == 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "%s is 0-dimensional: nothing to gather from",
                    self_name);
    }
    int d = 0;
    if (aclnnStatus rc = NormalizeDim(dim, in.shape.rank, "dim", &d); rc != 0) return rc;
    ops::LoopShape gathered;
    gathered.rank = in.shape.rank - 1 + idx.shape.rank;
    if (gathered.rank > ops::kMaxDims) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "the result would have %d dimensions (at most %d)",
                    gathered.rank, ops::kMaxDims);
    }
    int at = 0;
    for (int k = 0; k < d; ++k)
        gathered.dims[at++] = in.shape.dims[k];
    for (int k = 0; k < idx.shape.rank; ++k)
        gathered.dims[at++] = idx.shape.dims[k];
    for (int k = d + 1; k < in.shape.rank; ++k)
        gathered.dims[at++] = in.shape.dims[k];
    if (aclnnStatus rc = CheckShape(o, gathered); rc != 0) return rc;
    ExecutorBuilder builder(api);
    int slots[3] = {builder.Input(in, self), builder.Input(idx, index), builder.Output(o, out)};
    return builder.Finish(std::make_unique<GatherOperator>(in, idx, o, d, slots), 0, workspaceSize,
                          executor);
}

}  // namespace openacl::aclnn
