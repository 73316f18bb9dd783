// aclnnop/aclnn_slice.h: out = self[..., start:end:step, ...] along one dimension, with
// Python's rules for negative and out-of-range bounds.
#include "aclnnop/aclnn_slice.h"

#include <algorithm>
#include <cinttypes>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement_plan.h"
#include "core/error.h"

using namespace openacl::aclnn;  // NOLINT

aclnnStatus aclnnSliceGetWorkspaceSize(const aclTensor* self, int64_t dim, int64_t start,
                                       int64_t end, int64_t step, aclTensor* out,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView in, o;
    if (aclnnStatus rc = ViewOf(self, "self", &in); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(in, kMovableTypes); rc != 0) return rc;
    if (aclnnStatus rc = CheckSameDtype(in, o); rc != 0) return rc;
    if (in.shape.rank == 0) {
        return openacl::Fail(ACLNN_ERR_PARAM_INVALID, "self is 0-dimensional: nothing to slice");
    }
    int d = 0;
    if (aclnnStatus rc = NormalizeDim(dim, in.shape.rank, "dim", &d); rc != 0) return rc;
    if (step <= 0) {
        return openacl::Fail(ACLNN_ERR_PARAM_INVALID, "step is %" PRId64 ": it must be positive",
                             step);
    }
    const int64_t size = in.shape.dims[d];
    const auto clamp = [size](int64_t bound) {
        if (bound < 0) bound += size;
        return std::clamp<int64_t>(bound, 0, size);
    };
    const int64_t first = clamp(start), last = clamp(end);
    const int64_t length = last > first ? (last - first + step - 1) / step : 0;
    Piece piece;
    piece.shape = in.shape;
    piece.src = RegionOf(in, -1);
    Narrow(&piece.shape, &piece.src, d, first, length, step);
    if (aclnnStatus rc = CheckShape(o, piece.shape); rc != 0) return rc;
    ExecutorBuilder builder("aclnnSlice");
    piece.src.slot = builder.Input(in, self);
    piece.dst = RegionOf(o, builder.Output(o, out));
    return FinishMovement(builder, {piece}, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Slice)
