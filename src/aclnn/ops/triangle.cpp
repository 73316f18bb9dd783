// Triangles (aclnn/ops/triangle.h): per row i of the last two dimensions, a copy of the kept
// columns and a fill of the others, each one piece over every leading (batch) dimension.
#include "aclnn/ops/triangle.h"

#include <algorithm>
#include <memory>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement.h"
#include "aclnn/ops/movement_plan.h"
#include "core/error.h"

namespace openacl::aclnn {
namespace {

class TriangleOperator final : public Operator {
 public:
    TriangleOperator(TensorView in, TensorView out, int in_slot, int out_slot, int64_t diagonal,
                     bool lower)
        : in_(in),
          out_(out),
          in_slot_(in_slot),
          out_slot_(out_slot),
          diagonal_(diagonal),
          lower_(lower) {}

    int32_t Run(void* const* addresses, void*, std::string*) const override {
        const int rank = in_.shape.rank;
        const int64_t rows = in_.shape.dims[rank - 2], cols = in_.shape.dims[rank - 1];
        for (int64_t i = 0; i < rows; ++i) {
            // Columns j with j - i <= diagonal are the lower triangle.
            const int64_t split = std::clamp<int64_t>(i + diagonal_ + (lower_ ? 1 : 0), 0, cols);
            const int64_t keep_from = lower_ ? 0 : split, keep_to = lower_ ? split : cols;
            Piece row;
            row.shape = in_.shape;
            row.src = RegionOf(in_, in_slot_);
            row.dst = RegionOf(out_, out_slot_);
            ops::LoopShape unused = row.shape;
            Narrow(&row.shape, &row.src, rank - 2, i, 1);
            Narrow(&unused, &row.dst, rank - 2, i, 1);
            Piece keep = row, zero = row;
            unused = keep.shape;
            Narrow(&keep.shape, &keep.src, rank - 1, keep_from, keep_to - keep_from);
            Narrow(&unused, &keep.dst, rank - 1, keep_from, keep_to - keep_from);
            MovementOperator::RunPiece(keep, addresses);
            zero.src.slot = -1;
            const int64_t zero_from = lower_ ? split : 0, zero_to = lower_ ? cols : split;
            unused = zero.shape;
            Narrow(&zero.shape, &zero.dst, rank - 1, zero_from, zero_to - zero_from);
            MovementOperator::RunPiece(zero, addresses);
        }
        return 0;
    }

 private:
    TensorView in_, out_;
    int in_slot_, out_slot_;
    int64_t diagonal_;
    bool lower_;
};

}  // namespace

aclnnStatus PlanTriangle(const char* api, bool lower, const aclTensor* self, int64_t diagonal,
                         const aclTensor* out, bool inplace, uint64_t* workspaceSize,
                         aclOpExecutor** executor) {
    const char* self_name = inplace ? "selfRef" : "self";
    if (aclnnStatus rc = CheckTensorObject(self, self_name); rc != 0) return rc;
    if (!inplace) {
        if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    }
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView in, o;
    if (aclnnStatus rc = ViewOf(self, self_name, &in); rc != 0) return rc;
    if (aclnnStatus rc = ViewOf(inplace ? self : out, inplace ? self_name : "out", &o); rc != 0) {
        return rc;
    }
    if (aclnnStatus rc = CheckDtype(in, kMovableTypes); rc != 0) return rc;
    if (aclnnStatus rc = CheckSameDtype(in, o); rc != 0) return rc;
    if (in.shape.rank < 2) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "%s has %d dimensions: a triangle needs at least 2 (rows and columns)",
                    self_name, in.shape.rank);
    }
    if (aclnnStatus rc = CheckShape(o, in.shape); rc != 0) return rc;
    ExecutorBuilder builder(api);
    const int in_slot = builder.Input(in, self);
    const int out_slot = inplace ? in_slot : builder.Output(o, out);
    return builder.Finish(
        std::make_unique<TriangleOperator>(in, o, in_slot, out_slot, diagonal, lower), 0,
        workspaceSize, executor);
}

}  // namespace openacl::aclnn
