// Shared first-phase steps of the data-movement operators.
#include "aclnn/ops/movement_plan.h"

#include <memory>

#include "aclnn/opdev/op_errno.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {

aclnnStatus CheckSameDtype(const TensorView& self, const TensorView& out) {
    if (self.dtype == out.dtype) return ACLNN_SUCCESS;
    return Fail(ACLNN_ERR_PARAM_INVALID, "%s is %s but %s is %s: they must be the same type",
                out.name, ops::DtypeName(out.dtype), self.name, ops::DtypeName(self.dtype));
}

aclnnStatus FinishMovement(ExecutorBuilder& builder, std::vector<Piece> pieces,
                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    return builder.Finish(std::make_unique<MovementOperator>(std::move(pieces)), 0, workspaceSize,
                          executor);
}

Piece WholeCopy(const TensorView& src, int src_slot, const TensorView& dst, int dst_slot) {
    Piece piece;
    piece.shape = dst.shape;
    piece.src = RegionOf(src, src_slot);
    piece.dst = RegionOf(dst, dst_slot);
    return piece;
}

}  // namespace openacl::aclnn
