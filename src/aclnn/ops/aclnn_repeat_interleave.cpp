// aclnnop/aclnn_repeat_interleave.h: each element repeated `repeats` times in place
// ([a, b] -> [a, a, b, b]) along dim, or over the flattened tensor without one. The
// tensor-repeats forms (a count per element) are not implemented and so absent.
#include "aclnnop/aclnn_repeat_interleave.h"

#include <cinttypes>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement_plan.h"
#include "core/error.h"

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

}  // namespace

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
