// aclnnop/aclnn_repeat_interleave.h: each element repeated `repeats` times in place
// ([a, b] -> [a, a, b, b]) along dim, or over the flattened tensor without one. With a repeats
// tensor (one count, or one per element), the counts are read when the task runs and must add
// up to out's length along dim; RepeatInterleaveTensor writes each index i repeats[i] times.
#include "aclnnop/aclnn_repeat_interleave.h"

#include <cinttypes>
#include <memory>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement_plan.h"
#include "core/error.h"
#include "ops/dtype.h"
#include "ops/element.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;

namespace {

aclnnStatus Plan(const char* api, const aclTensor* self, int64_t repeats, bool has_dim, int64_t dim,
                 const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView in, o;
    if (aclnnStatus rc = ViewOf(self, "self", &in); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(in, kMovableTypes); rc != 0) return rc;
    if (aclnnStatus rc = CheckSameDtype(in, o); rc != 0) return rc;
    if (repeats < 0) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "repeats is %" PRId64 ": it must be 0 or more",
                    repeats);
    }
    // The source as [.., n, 1, ..] against the output seen as [.., n, repeats, ..].
    TensorView src = in;
    int d = 0;
    if (!has_dim) {  // the flattened tensor: one dimension when self is contiguous
        bool contiguous = true;
        int64_t step = 1;
        for (int k = in.shape.rank - 1; k >= 0; --k) {
            if (in.shape.dims[k] != 1) contiguous = contiguous && in.strides[k] == step;
            step *= in.shape.dims[k];
        }
        if (!contiguous) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "without dim, self must be contiguous (it is read as one sequence)");
        }
        src.shape.rank = 1;
        src.shape.dims[0] = in.numel;
        src.strides[0] = 1;
    } else if (aclnnStatus rc = NormalizeDim(dim, in.shape.rank, "dim", &d); rc != 0) {
        return rc;
    }
    if (src.shape.rank == 0) {  // a 0-d tensor repeats as a 1-d one
        src.shape.rank = 1;
        src.shape.dims[0] = 1;
        src.strides[0] = 0;
    }
    if (src.shape.rank + 1 > openacl::ops::kMaxDims) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "self has %d dimensions: at most %d here",
                    src.shape.rank, openacl::ops::kMaxDims - 1);
    }
    openacl::ops::LoopShape expected = src.shape;
    expected.dims[d] *= repeats;
    if (aclnnStatus rc = CheckShape(o, expected); rc != 0) return rc;
    ExecutorBuilder builder(api);
    Piece piece;
    piece.src = RegionOf(src, builder.Input(in, self));
    piece.dst = RegionOf(o, builder.Output(o, out));
    // Insert the repetition dimension after d: stride 0 in the source, out's stride within.
    piece.shape.rank = src.shape.rank + 1;
    for (int k = src.shape.rank; k >= 0; --k) {
        const int from = k > d + 1 ? k - 1 : k;
        if (k == d + 1) {
            piece.shape.dims[k] = repeats;
            piece.src.strides[k] = 0;
            piece.dst.strides[k] = o.strides[d];
        } else {
            piece.shape.dims[k] = src.shape.dims[from];
            piece.src.strides[k] = src.strides[from];
            piece.dst.strides[k] = k == d ? o.strides[d] * repeats : o.strides[from];
        }
    }
    return FinishMovement(builder, {piece}, workspaceSize, executor);
}

// Reads count `i` of a repeats tensor (one count broadcast to every element, or one each).
int64_t RepeatCount(const TensorView& repeats, const char* base, int64_t i) {
    const auto size = static_cast<int64_t>(openacl::ops::DtypeSize(repeats.dtype));
    const int64_t at = repeats.offset +
                       (repeats.numel == 1 || repeats.shape.rank == 0 ? 0 : i * repeats.strides[0]);
    int64_t count = 0;
    openacl::ops::Load<int64_t>(base + at * size, 0, repeats.dtype, 1, &count);
    return count;
}

// self's slices along `dim` each copied repeats[i] times into consecutive places of out.
class RepeatTensorOperator final : public Operator {
 public:
    RepeatTensorOperator(TensorView self, TensorView repeats, TensorView out, int dim, int slots[3])
        : self_(self),
          repeats_(repeats),
          out_(out),
          dim_(dim),
          self_slot_(slots[0]),
          repeats_slot_(slots[1]),
          out_slot_(slots[2]) {}

    int32_t Run(void* const* addresses, void*, std::string* error) const override {
        const char* counts = static_cast<const char*>(addresses[repeats_slot_]);
        const int64_t n = self_.shape.dims[dim_], length = out_.shape.dims[dim_];
        int64_t total = 0;
        for (int64_t i = 0; i < n; ++i) {
            const int64_t r = RepeatCount(repeats_, counts, i);
            if (r < 0) {
                *error = "repeats[" + std::to_string(i) + "] is " + std::to_string(r) +
                         ": counts are 0 or more";
                return ACL_ERROR_RT_AICORE_EXCEPTION;
            }
            total += r;
        }
        if (total != length) {
            *error = "repeats add up to " + std::to_string(total) + " but out has " +
                     std::to_string(length) + " along dimension " + std::to_string(dim_);
            return ACL_ERROR_RT_AICORE_EXCEPTION;
        }
        int64_t at = 0;
        for (int64_t i = 0; i < n; ++i) {
            const int64_t r = RepeatCount(repeats_, counts, i);
            if (r == 0) continue;
            Piece piece;  // slice i (stride 0 along dim) onto r consecutive slices of out
            piece.shape = self_.shape;
            piece.shape.dims[dim_] = r;
            piece.src = RegionOf(self_, self_slot_);
            piece.src.offset += i * self_.strides[dim_];
            piece.src.strides[dim_] = 0;
            piece.dst = RegionOf(out_, out_slot_);
            piece.dst.offset += at * out_.strides[dim_];
            MovementOperator::RunPiece(piece, addresses);
            at += r;
        }
        return 0;
    }

 private:
    TensorView self_, repeats_, out_;
    int dim_;
    int self_slot_, repeats_slot_, out_slot_;
};

aclnnStatus CheckRepeats(const aclTensor* repeats, TensorView* view) {
    if (aclnnStatus rc = ViewOf(repeats, "repeats", view); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(*view, {ACL_INT32, ACL_INT64}); rc != 0) return rc;
    if (view->shape.rank > 1) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "repeats has %d dimensions: it must be 0-D or 1-D",
                    view->shape.rank);
    }
    return ACLNN_SUCCESS;
}

aclnnStatus PlanTensorRepeats(const char* api, const aclTensor* self, const aclTensor* repeats,
                              bool has_dim, int64_t dim, const aclTensor* out,
                              uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(repeats, "repeats"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView in, r, o;
    if (aclnnStatus rc = ViewOf(self, "self", &in); rc != 0) return rc;
    if (aclnnStatus rc = CheckRepeats(repeats, &r); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(in, kMovableTypes); rc != 0) return rc;
    if (aclnnStatus rc = CheckSameDtype(in, o); rc != 0) return rc;
    TensorView src = in;
    int d = 0;
    if (!has_dim || in.shape.rank == 0) {
        bool contiguous = true;
        int64_t step = 1;
        for (int k = in.shape.rank - 1; k >= 0; --k) {
            if (in.shape.dims[k] != 1) contiguous = contiguous && in.strides[k] == step;
            step *= in.shape.dims[k];
        }
        if (!contiguous) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "without dim, self must be contiguous (it is read as one sequence)");
        }
        src.shape.rank = 1;
        src.shape.dims[0] = in.numel;
        src.strides[0] = 1;
    } else if (aclnnStatus rc = NormalizeDim(dim, in.shape.rank, "dim", &d); rc != 0) {
        return rc;
    }
    if (r.numel != 1 && r.numel != src.shape.dims[d]) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "repeats has %" PRId64 " counts: it takes one, or one per element (%" PRId64
                    ")",
                    r.numel, src.shape.dims[d]);
    }
    bool fits = o.shape.rank == src.shape.rank;
    for (int k = 0; fits && k < src.shape.rank; ++k) {
        fits = k == d || o.shape.dims[k] == src.shape.dims[k];
    }
    if (!fits) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "out has shape %s: it must match self outside dimension %d", ShapeText(o.shape),
                    d);
    }
    ExecutorBuilder builder(api);
    int slots[3] = {builder.Input(in, self), builder.Input(r, repeats), builder.Output(o, out)};
    return builder.Finish(std::make_unique<RepeatTensorOperator>(src, r, o, d, slots), 0,
                          workspaceSize, executor);
}

// RepeatInterleaveTensor: out = 0 repeated repeats[0] times, then 1 repeats[1] times, ...
class IndexRepeatOperator final : public Operator {
 public:
    IndexRepeatOperator(TensorView repeats, TensorView out, int slots[2])
        : repeats_(repeats), out_(out), repeats_slot_(slots[0]), out_slot_(slots[1]) {}

    int32_t Run(void* const* addresses, void*, std::string* error) const override {
        const char* counts = static_cast<const char*>(addresses[repeats_slot_]);
        const auto size = static_cast<int64_t>(openacl::ops::DtypeSize(out_.dtype));
        char* base = static_cast<char*>(addresses[out_slot_]) + out_.offset * size;
        int64_t at = 0;
        for (int64_t i = 0; i < repeats_.numel; ++i) {
            const int64_t r = RepeatCount(repeats_, counts, i);
            if (r < 0 || at + r > out_.numel) {
                *error = r < 0 ? "repeats[" + std::to_string(i) + "] is negative"
                               : "repeats add up to more than out's " + std::to_string(out_.numel) +
                                     " elements";
                return ACL_ERROR_RT_AICORE_EXCEPTION;
            }
            for (int64_t k = 0; k < r; ++k, ++at) {
                openacl::ops::Store<int64_t>(&i, 1, base + at * out_.strides[0] * size, 0,
                                             out_.dtype);
            }
        }
        if (at != out_.numel) {
            *error = "repeats add up to " + std::to_string(at) + " but out has " +
                     std::to_string(out_.numel) + " elements";
            return ACL_ERROR_RT_AICORE_EXCEPTION;
        }
        return 0;
    }

 private:
    TensorView repeats_, out_;
    int repeats_slot_, out_slot_;
};

}  // namespace

aclnnStatus aclnnRepeatInterleaveGetWorkspaceSize(const aclTensor* self, const aclTensor* repeats,
                                                  int64_t outputSize, aclTensor* out,
                                                  uint64_t* workspaceSize,
                                                  aclOpExecutor** executor) {
    OPENACL_API();
    (void)outputSize;  // out's length is what counts
    return PlanTensorRepeats("aclnnRepeatInterleave", self, repeats, false, 0, out, workspaceSize,
                             executor);
}
OPENACL_ACLNN_SECOND_PHASE(RepeatInterleave)

aclnnStatus aclnnRepeatInterleaveWithDimGetWorkspaceSize(const aclTensor* self,
                                                         const aclTensor* repeats, int64_t dim,
                                                         int64_t outputSize, aclTensor* out,
                                                         uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
    OPENACL_API();
    (void)outputSize;
    return PlanTensorRepeats("aclnnRepeatInterleaveWithDim", self, repeats, true, dim, out,
                             workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(RepeatInterleaveWithDim)

aclnnStatus aclnnRepeatInterleaveTensorGetWorkspaceSize(const aclTensor* repeats,
                                                        int64_t outputSize, aclTensor* out,
                                                        uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
    OPENACL_API();
    (void)outputSize;
    if (aclnnStatus rc = CheckTensorObject(repeats, "repeats"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView r, o;
    if (aclnnStatus rc = CheckRepeats(repeats, &r); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(o, {ACL_INT32, ACL_INT64}); rc != 0) return rc;
    if (o.shape.rank != 1) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "out has %d dimensions: it must be 1-D", o.shape.rank);
    }
    ExecutorBuilder builder("aclnnRepeatInterleaveTensor");
    int slots[2] = {builder.Input(r, repeats), builder.Output(o, out)};
    return builder.Finish(std::make_unique<IndexRepeatOperator>(r, o, slots), 0, workspaceSize,
                          executor);
}
OPENACL_ACLNN_SECOND_PHASE(RepeatInterleaveTensor)

aclnnStatus aclnnRepeatInterleaveIntWithDimGetWorkspaceSize(const aclTensor* self, int64_t repeats,
                                                            int64_t dim, int64_t outputSize,
                                                            aclTensor* out, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
    OPENACL_API();
    (void)outputSize;  // a hint: out's shape is what counts
    return Plan("aclnnRepeatInterleaveIntWithDim", self, repeats, true, dim, out, workspaceSize,
                executor);
}
OPENACL_ACLNN_SECOND_PHASE(RepeatInterleaveIntWithDim)

aclnnStatus aclnnRepeatInterleaveIntGetWorkspaceSize(const aclTensor* self, int64_t repeats,
                                                     int64_t outputSize, aclTensor* out,
                                                     uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
    OPENACL_API();
    (void)outputSize;
    return Plan("aclnnRepeatInterleaveInt", self, repeats, false, 0, out, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(RepeatInterleaveInt)
