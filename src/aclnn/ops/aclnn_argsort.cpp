// aclnnop/aclnn_argsort.h: out (int64) = the positions that sort self along dim (ascending, or
// descending), NaN counting as the largest value and equal values keeping their order.
#include "aclnnop/aclnn_argsort.h"

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/reduction.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {
namespace {

constexpr auto kArgsortTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8,  ACL_INT16,
                                ACL_INT32, ACL_INT64,   ACL_UINT8, ACL_BF16};

aclnnStatus PlanArgsort(const aclTensor* self, int64_t dim, bool descending, const aclTensor* out,
                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView a, o;
    if (aclnnStatus rc = ViewOf(self, "self", &a); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != ACLNN_SUCCESS) return rc;
    ops::SortArgs args;
    if (aclnnStatus rc = WrapDim(a, dim, "dim", &args.axis); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(a, kArgsortTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(o, {ACL_INT64}); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckShape(o, a.shape); rc != ACLNN_SUCCESS) return rc;
    args.shape = a.shape;
    args.k = a.shape.rank == 0 ? 1 : a.shape.dims[args.axis];
    args.descending = descending;
    args.integer = !ops::IsFloating(a.dtype);
    return FinishSort("aclnnArgsort", args, a, self, nullptr, nullptr, &o, out, workspaceSize,
                      executor);
}

}  // namespace
}  // namespace openacl::aclnn

aclnnStatus aclnnArgsortGetWorkspaceSize(const aclTensor* self, int64_t dim, bool descending,
                                         aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanArgsort(self, dim, descending, out, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Argsort)
