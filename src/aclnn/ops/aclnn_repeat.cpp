// aclnnop/aclnn_repeat.h: out = self tiled repeats[i] times along each dimension (self is
// first given leading size-1 dimensions when repeats is longer than its rank).
#include "aclnnop/aclnn_repeat.h"

#include <cinttypes>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement_plan.h"
#include "core/error.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;

aclnnStatus aclnnRepeatGetWorkspaceSize(const aclTensor* self, const aclIntArray* repeats,
                                        aclTensor* out, uint64_t* workspaceSize,
                                        aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(repeats, "repeats"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView in, o;
    if (aclnnStatus rc = ViewOf(self, "self", &in); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(in, kMovableTypes); rc != 0) return rc;
    if (aclnnStatus rc = CheckSameDtype(in, o); rc != 0) return rc;
    const int rank = static_cast<int>(repeats->values.size());
    if (rank < in.shape.rank || rank > openacl::ops::kMaxDims) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "repeats has %d entries: it needs at least self's %d dimensions and at most %d",
                    rank, in.shape.rank, openacl::ops::kMaxDims);
    }
    // self with leading size-1 dimensions: the block each repetition copies.
    const int lead = rank - in.shape.rank;
    openacl::ops::LoopShape block, whole;
    block.rank = whole.rank = rank;
    Region src;
    src.dtype = in.dtype;
    src.offset = in.offset;
    for (int d = 0; d < rank; ++d) {
        const int64_t times = repeats->values[static_cast<size_t>(d)];
        if (times < 0) {
            return Fail(ACLNN_ERR_PARAM_INVALID, "repeats[%d] is %" PRId64 ": it must be 0 or more",
                        d, times);
        }
        block.dims[d] = d < lead ? 1 : in.shape.dims[d - lead];
        src.strides[d] = d < lead ? 0 : in.strides[d - lead];
        whole.dims[d] = block.dims[d] * times;
    }
    if (aclnnStatus rc = CheckShape(o, whole); rc != 0) return rc;
    ExecutorBuilder builder("aclnnRepeat");
    src.slot = builder.Input(in, self);
    const Region out_region = RegionOf(o, builder.Output(o, out));
    std::vector<Piece> pieces;
    if (whole.Numel() == 0) return FinishMovement(builder, {}, workspaceSize, executor);
    Piece first;  // self into the first block
    first.shape = block;
    first.src = src;
    first.dst = out_region;
    pieces.push_back(first);
    // Then, from the last dimension to the first, the filled part copied into the other
    // repetitions along that dimension: dimensions after d are whole by then, those before
    // still one block.
    for (int d = rank - 1; d >= 0; --d) {
        openacl::ops::LoopShape filled = block;
        for (int k = d + 1; k < rank; ++k)
            filled.dims[k] = whole.dims[k];
        for (int64_t r = 1; r < repeats->values[static_cast<size_t>(d)]; ++r) {
            Piece piece;
            piece.shape = filled;
            piece.src = out_region;
            piece.dst = out_region;
            piece.dst.offset += r * block.dims[d] * out_region.strides[d];
            pieces.push_back(piece);
        }
    }
    return FinishMovement(builder, std::move(pieces), workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Repeat)
