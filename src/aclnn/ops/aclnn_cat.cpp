// aclnnop/aclnn_cat.h: out = the tensors of the list joined along dim. They share every other
// dimension; their types promote together and the result must cast to out's.
#include "aclnnop/aclnn_cat.h"

#include <cinttypes>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/movement_plan.h"
#include "core/error.h"
#include "ops/dtype.h"

using namespace openacl::aclnn;  // NOLINT
using openacl::Fail;

aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    if (aclnnStatus rc = CheckTensorListObject(tensors, "tensors"); rc != 0) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != 0) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != 0) return rc;
    if (tensors->tensors.empty()) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "tensors is empty: nothing to concatenate");
    }
    TensorView o;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != 0) return rc;
    if (aclnnStatus rc = CheckDtype(o, kMovableTypes); rc != 0) return rc;
    const size_t count = tensors->tensors.size();
    std::vector<TensorView> views(count);
    aclDataType promoted = ACL_DT_UNDEFINED;
    for (size_t i = 0; i < count; ++i) {
        if (tensors->tensors[i] == nullptr) {
            return Fail(ACLNN_ERR_PARAM_NULLPTR, "tensors[%zu] is null", i);
        }
        if (aclnnStatus rc = ViewOf(tensors->tensors[i], "tensors[i]", &views[i]); rc != 0) {
            return rc;
        }
        if (aclnnStatus rc = CheckDtype(views[i], kMovableTypes); rc != 0) return rc;
        if (i == 0) {
            promoted = views[i].dtype;
        } else if (!openacl::ops::PromoteTypes(promoted, views[i].dtype, &promoted)) {
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "tensors[%zu] is %s, which has no common type with the tensors before it",
                        i, openacl::ops::DtypeName(views[i].dtype));
        }
    }
    if (!openacl::ops::CanCast(promoted, o.dtype)) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "the tensors' common type %s cannot be cast to out's %s",
                    openacl::ops::DtypeName(promoted), openacl::ops::DtypeName(o.dtype));
    }
    const int rank = views[0].shape.rank;
    int d = 0;
    if (aclnnStatus rc = NormalizeDim(dim, rank, "dim", &d); rc != 0) return rc;
    openacl::ops::LoopShape joined = views[0].shape;
    joined.dims[d] = 0;
    for (size_t i = 0; i < count; ++i) {
        const TensorView& v = views[i];
        bool fits = v.shape.rank == rank;
        for (int k = 0; fits && k < rank; ++k)
            fits = k == d || v.shape.dims[k] == joined.dims[k];
        if (!fits) {
            std::string first = ShapeText(views[0].shape);
            return Fail(ACLNN_ERR_PARAM_INVALID,
                        "tensors[%zu] has shape %s, which does not match tensors[0]'s %s outside "
                        "dimension %d",
                        i, ShapeText(v.shape), first.c_str(), d);
        }
        joined.dims[d] += v.shape.dims[d];
    }
    if (aclnnStatus rc = CheckShape(o, joined); rc != 0) return rc;
    ExecutorBuilder builder("aclnnCat");
    std::vector<Piece> pieces;
    std::vector<int> slots(count);
    for (size_t i = 0; i < count; ++i) {
        slots[i] = builder.ListInput(views[i], tensors->tensors[i], static_cast<int>(i));
    }
    const int out_slot = builder.Output(o, out);
    int64_t at = 0;
    for (size_t i = 0; i < count; ++i) {
        Piece piece;
        piece.shape = views[i].shape;
        piece.src = RegionOf(views[i], slots[i]);
        piece.dst = RegionOf(o, out_slot);
        openacl::ops::LoopShape target = o.shape;
        Narrow(&target, &piece.dst, d, at, views[i].shape.dims[d]);
        at += views[i].shape.dims[d];
        pieces.push_back(piece);
    }
    return FinishMovement(builder, std::move(pieces), workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Cat)
