// aclnnop/aclnn_argmax.h: out (int32 or int64) = the index of the first maximum of self along
// dim; a NaN counts as the maximum (its first occurrence wins). An empty self leaves out as it
// is.
#include "aclnnop/aclnn_argmax.h"

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/reduction.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {
namespace {

constexpr auto kArgMaxTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT16,
                               ACL_INT32, ACL_INT64,   ACL_UINT8,  ACL_BF16};

aclnnStatus PlanArgMax(const aclTensor* self, int64_t dim, bool keepdim, const aclTensor* out,
                       uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView a, o;
    if (aclnnStatus rc = ViewOf(self, "self", &a); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(a, kArgMaxTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(o, {ACL_INT32, ACL_INT64}); rc != ACLNN_SUCCESS) return rc;
    int axis = 0;
    if (aclnnStatus rc = WrapDim(a, dim, "dim", &axis); rc != ACLNN_SUCCESS) return rc;
    Reduction reduction;
    reduction.api = "aclnnArgMax";
    reduction.op = ops::ReduceOp::kArgMax;
    reduction.mask = a.shape.rank == 0 ? 0u : 1u << axis;
    reduction.keepdim = keepdim;
    if (aclnnStatus rc = CheckReducedShape(o, a, reduction.mask, keepdim); rc != ACLNN_SUCCESS) {
        return rc;
    }
    reduction.integer = !ops::IsFloating(a.dtype);
    return FinishReduction(reduction, a, self, o, out, workspaceSize, executor);
}

}  // namespace
}  // namespace openacl::aclnn

aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim,
                                        aclTensor* out, uint64_t* workspaceSize,
                                        aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanArgMax(self, dim, keepdim, out, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(ArgMax)
