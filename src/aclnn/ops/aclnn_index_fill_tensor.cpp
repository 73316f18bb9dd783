// aclnnop/aclnn_index_fill_tensor.h: the slices of self along dim named by index (host values;
// negative ones count from the end) filled with value (IndexFillTensor writes self's copy to
// out; the in-place form writes selfRef).
#include "aclnnop/aclnn_index_fill_tensor.h"

#include <cinttypes>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement_plan.h"
#include "core/error.h"
#include "ops/dtype.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;

namespace {

aclnnStatus Plan(const char* api, const aclTensor* self, const char* self_name, int64_t dim,
                 const aclIntArray* index, const aclScalar* value, const aclTensor* out,
                 uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(self, self_name); rc != 0) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(index, "index"); rc != 0) return rc;
    if (aclnnStatus rc = CheckScalarObject(value, "value"); rc != 0) return rc;
    if (out != nullptr) {
        if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    }
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    TensorView in, o;
    if (aclnnStatus rc = ViewOf(self, self_name, &in); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(in, kMovableTypes); rc != 0) return rc;
    if (out != nullptr) {
        if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
        if (aclnnStatus rc = CheckSameDtype(in, o); rc != 0) return rc;
        if (aclnnStatus rc = CheckShape(o, in.shape); rc != 0) return rc;
    }
    int d = 0;
    if (aclnnStatus rc = NormalizeDim(dim, in.shape.rank, "dim", &d); rc != 0) return rc;
    const int64_t size = in.shape.rank == 0 ? 1 : in.shape.dims[d];
    ExecutorBuilder builder(api);
    const int in_slot = builder.Input(in, self);
    const TensorView& target = out != nullptr ? o : in;
    const int target_slot = out != nullptr ? builder.Output(o, out) : in_slot;
    std::vector<Piece> pieces;
    if (out != nullptr) pieces.push_back(WholeCopy(in, in_slot, o, target_slot));
    for (int64_t i : index->values) {
        if (i < -size || i >= size) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "index holds %" PRId64 ", outside [%" PRId64 ", %" PRId64
                        ") for dimension %d",
                        i, -size, size, d);
        }
        Piece fill;
        fill.shape = target.shape;
        fill.dst = RegionOf(target, target_slot);
        if (target.shape.rank > 0) Narrow(&fill.shape, &fill.dst, d, i < 0 ? i + size : i, 1);
        fill.value = value->ToDouble();
        fill.value_int = value->ToInt64();
        pieces.push_back(fill);
    }
    return FinishMovement(builder, std::move(pieces), workspaceSize, executor);
}

}  // namespace

aclnnStatus aclnnIndexFillTensorGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                 const aclIntArray* index, const aclScalar* value,
                                                 aclTensor* out, uint64_t* workspaceSize,
                                                 aclOpExecutor** executor) {
    OPENACL_API();
    if (out == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "out is null");
    return Plan("aclnnIndexFillTensor", self, "self", dim, index, value, out, workspaceSize,
                executor);
}
OPENACL_ACLNN_SECOND_PHASE(IndexFillTensor)

aclnnStatus aclnnInplaceIndexFillTensorGetWorkspaceSize(aclTensor* selfRef, int64_t dim,
                                                        const aclIntArray* index,
                                                        const aclScalar* value,
                                                        uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
    OPENACL_API();
    return Plan("aclnnInplaceIndexFillTensor", selfRef, "selfRef", dim, index, value, nullptr,
                workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(InplaceIndexFillTensor)
