// aclnnop/aclnn_roll.h: out = x rotated by shifts[i] along dims[i] (elements pushed past the end
// come back at the start). With no dims, x is rolled as one flat sequence.
#include "aclnnop/aclnn_roll.h"

#include <cinttypes>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement_plan.h"
#include "core/error.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;

namespace {

// Splits every piece in two along dim: the tail of length `shift` moves to the front.
void SplitAlong(std::vector<Piece>* pieces, int dim, int64_t size, int64_t shift) {
    std::vector<Piece> split;
    for (const Piece& piece : *pieces) {
        Piece tail = piece, head = piece;  // src [size - shift, size) -> dst [0, shift), ...
        openacl::ops::LoopShape unused = piece.shape;
        Narrow(&tail.shape, &tail.src, dim, size - shift, shift);
        Narrow(&unused, &tail.dst, dim, 0, shift);
        unused = piece.shape;
        Narrow(&head.shape, &head.src, dim, 0, size - shift);  // ... [0, size - shift) after it
        Narrow(&unused, &head.dst, dim, shift, size - shift);
        split.push_back(tail);
        split.push_back(head);
    }
    *pieces = std::move(split);
}

}  // namespace

aclnnStatus aclnnRollGetWorkspaceSize(const aclTensor* x, const aclIntArray* shifts,
                                      const aclIntArray* dims, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(x, "x"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(shifts, "shifts"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(dims, "dims"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView in, o;
    if (aclnnStatus rc = ViewOf(x, "x", &in); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(in, kMovableTypes); rc != 0) return rc;
    if (aclnnStatus rc = CheckSameDtype(in, o); rc != 0) return rc;
    if (aclnnStatus rc = CheckShape(o, in.shape); rc != 0) return rc;
    const size_t n = shifts->values.size();
    ExecutorBuilder builder("aclnnRoll");
    const int in_slot = builder.Input(in, x);
    const int out_slot = builder.Output(o, out);
    std::vector<Piece> pieces(1);
    if (dims->values.empty()) {
        // One flat sequence: possible as one dimension when both views are contiguous.
        if (n != 1) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "with no dims, shifts takes one value (it has %zu)", n);
        }
        bool contiguous = true;
        int64_t step = 1;
        for (int d = in.shape.rank - 1; d >= 0; --d) {
            if (in.shape.dims[d] != 1) {
                contiguous = contiguous && in.strides[d] == step && o.strides[d] == step;
            }
            step *= in.shape.dims[d];
        }
        if (!contiguous) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "rolling without dims needs contiguous x and out (openacl rolls the flat "
                        "sequence in place of a copy)");
        }
        Piece& flat = pieces[0];
        flat.shape.rank = 1;
        flat.shape.dims[0] = in.numel;
        flat.src = {in_slot, in.dtype, in.offset, {1}};
        flat.dst = {out_slot, o.dtype, o.offset, {1}};
        if (in.numel > 0) {
            const int64_t shift = ((shifts->values[0] % in.numel) + in.numel) % in.numel;
            if (shift != 0) SplitAlong(&pieces, 0, in.numel, shift);
        }
        return FinishMovement(builder, std::move(pieces), workspaceSize, executor);
    }
    if (dims->values.size() != n) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "shifts has %zu values but dims has %zu", n,
                    dims->values.size());
    }
    pieces[0] = WholeCopy(in, in_slot, o, out_slot);
    for (size_t i = 0; i < n; ++i) {
        int d = 0;
        if (aclnnStatus rc = NormalizeDim(dims->values[i], in.shape.rank, "an entry of dims", &d);
            rc != 0) {
            return rc;
        }
        const int64_t size = in.shape.dims[d];
        if (size == 0) continue;
        const int64_t shift = ((shifts->values[i] % size) + size) % size;
        if (shift != 0) SplitAlong(&pieces, d, size, shift);
    }
    return FinishMovement(builder, std::move(pieces), workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Roll)
