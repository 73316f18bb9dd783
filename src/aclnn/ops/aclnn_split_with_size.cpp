// aclnnop/aclnn_split_with_size.h: the list's tensors = consecutive parts of self along dim,
// of the sizes splitSize gives (which add up to that dimension).
#include "aclnnop/aclnn_split_with_size.h"

#include <cinttypes>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement_plan.h"
#include "core/error.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;

aclnnStatus aclnnSplitWithSizeGetWorkspaceSize(const aclTensor* self, const aclIntArray* splitSize,
                                               int64_t dim, aclTensorList* out,
                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(splitSize, "splitSize"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorListObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView in;
    if (aclnnStatus rc = ViewOf(self, "self", &in); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(in, kMovableTypes); rc != 0) return rc;
    int d = 0;
    if (aclnnStatus rc = NormalizeDim(dim, in.shape.rank, "dim", &d); rc != 0) return rc;
    const std::vector<int64_t>& sizes = splitSize->values;
    if (sizes.size() != out->tensors.size()) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "splitSize has %zu sizes but out has %zu tensors",
                    sizes.size(), out->tensors.size());
    }
    int64_t total = 0;
    for (int64_t size : sizes) {
        if (size < 0) {
            return Fail(ACLNN_ERR_PARAM_INVALID, "splitSize holds %" PRId64 ": sizes are 0 or more",
                        size);
        }
        total += size;
    }
    if (total != in.shape.dims[d]) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "splitSize adds up to %" PRId64 " but self's dimension %d is %" PRId64, total,
                    d, in.shape.dims[d]);
    }
    ExecutorBuilder builder("aclnnSplitWithSize");
    const int in_slot = builder.Input(in, self);
    std::vector<Piece> pieces;
    int64_t at = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (out->tensors[i] == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "out[%zu] is null", i);
        TensorView part;
        if (aclnnStatus rc = ViewOf(out->tensors[i], "out[i]", &part); rc != 0) return rc;
        if (aclnnStatus rc = CheckSameDtype(in, part); rc != 0) return rc;
        Piece piece;
        piece.shape = in.shape;
        piece.src = RegionOf(in, in_slot);
        Narrow(&piece.shape, &piece.src, d, at, sizes[i]);
        at += sizes[i];
        if (aclnnStatus rc = CheckShape(part, piece.shape); rc != 0) return rc;
        piece.dst = RegionOf(part, builder.ListOutput(part, out->tensors[i], static_cast<int>(i)));
        pieces.push_back(piece);
    }
    return FinishMovement(builder, std::move(pieces), workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(SplitWithSize)
