// aclnnop/aclnn_permute.h: out = self with its dimensions reordered (out's dimension i is
// self's dimension dims[i]).
#include "aclnnop/aclnn_permute.h"

#include <cinttypes>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement_plan.h"
#include "core/error.h"

using namespace openacl::aclnn;  // NOLINT: the entry points below are this namespace's users

aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims,
                                         aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(dims, "dims"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView in, o;
    if (aclnnStatus rc = ViewOf(self, "self", &in); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(in, kMovableTypes); rc != 0) return rc;
    if (aclnnStatus rc = CheckSameDtype(in, o); rc != 0) return rc;
    const int rank = in.shape.rank;
    if (dims->values.size() != static_cast<size_t>(rank)) {
        return openacl::Fail(ACLNN_ERR_PARAM_INVALID,
                             "dims has %zu entries but self has %d dimensions", dims->values.size(),
                             rank);
    }
    Piece piece;
    piece.shape.rank = rank;
    piece.src = RegionOf(in, -1);
    bool used[openacl::ops::kMaxDims] = {};
    for (int i = 0; i < rank; ++i) {
        int d = 0;
        if (aclnnStatus rc = NormalizeDim(dims->values[i], rank, "an entry of dims", &d); rc != 0) {
            return rc;
        }
        if (used[d]) {
            return openacl::Fail(ACLNN_ERR_PARAM_INVALID,
                                 "dims names dimension %d twice: it must be a permutation", d);
        }
        used[d] = true;
        piece.shape.dims[i] = in.shape.dims[d];
        piece.src.strides[i] = in.strides[d];
    }
    if (aclnnStatus rc = CheckShape(o, piece.shape); rc != 0) return rc;
    ExecutorBuilder builder("aclnnPermute");
    piece.src.slot = builder.Input(in, self);
    piece.dst = RegionOf(o, builder.Output(o, out));
    return FinishMovement(builder, {piece}, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Permute)
