// aclnnop/aclnn_topk.h: valuesOut and indicesOut (int64) = the k largest (or smallest) elements
// of self along dim and their positions, from the first (NaN counts as the largest; equal
// values keep their order). The results are always sorted, which `sorted == false` allows.
#include "aclnnop/aclnn_topk.h"

#include <cinttypes>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/reduction.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {
namespace {

constexpr auto kTopkTypes = {ACL_FLOAT, ACL_INT32, ACL_INT64,  ACL_FLOAT16, ACL_INT16,
                             ACL_INT8,  ACL_UINT8, ACL_DOUBLE, ACL_BF16};

aclnnStatus PlanTopk(const aclTensor* self, int64_t k, int64_t dim, bool largest,
                     const aclTensor* valuesOut, const aclTensor* indicesOut,
                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(valuesOut, "valuesOut"); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (aclnnStatus rc = CheckTensorObject(indicesOut, "indicesOut"); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView a, v, i;
    if (aclnnStatus rc = ViewOf(self, "self", &a); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(valuesOut, "valuesOut", &v); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(indicesOut, "indicesOut", &i); rc != ACLNN_SUCCESS) return rc;
    ops::SortArgs args;
    if (aclnnStatus rc = WrapDim(a, dim, "dim", &args.axis); rc != ACLNN_SUCCESS) return rc;
    const int64_t length = a.shape.rank == 0 ? 1 : a.shape.dims[args.axis];
    if (k < 0 || k > length) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "k is %" PRId64 " but self has %" PRId64 " elements along dim %" PRId64, k,
                    length, dim);
    }
    if (aclnnStatus rc = CheckDtype(a, kTopkTypes); rc != ACLNN_SUCCESS) return rc;
    if (v.dtype != a.dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "valuesOut is %s but self is %s: they must be alike",
                    ops::DtypeName(v.dtype), ops::DtypeName(a.dtype));
    }
    if (aclnnStatus rc = CheckDtype(i, {ACL_INT64}); rc != ACLNN_SUCCESS) return rc;
    ops::LoopShape shape = a.shape;
    if (shape.rank > 0) shape.dims[args.axis] = k;
    if (a.shape.rank == 0) {
        if (v.numel != k || i.numel != k) {
            return Fail(
                ACLNN_ERR_PARAM_INVALID,
                "valuesOut and indicesOut must hold k = %" PRId64 " elements of the 0-d self", k);
        }
    } else {
        if (aclnnStatus rc = CheckShape(v, shape); rc != ACLNN_SUCCESS) return rc;
        if (aclnnStatus rc = CheckShape(i, shape); rc != ACLNN_SUCCESS) return rc;
    }
    args.shape = a.shape;
    args.k = k;
    args.descending = largest;
    args.integer = !ops::IsFloating(a.dtype);
    return FinishSort("aclnnTopk", args, a, self, &v, valuesOut, &i, indicesOut, workspaceSize,
                      executor);
}

}  // namespace
}  // namespace openacl::aclnn

aclnnStatus aclnnTopkGetWorkspaceSize(const aclTensor* self, int64_t k, int64_t dim, bool largest,
                                      bool sorted, aclTensor* valuesOut, aclTensor* indicesOut,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    (void)sorted;  // sorted results are a valid answer either way
    return openacl::aclnn::PlanTopk(self, k, dim, largest, valuesOut, indicesOut, workspaceSize,
                                    executor);
}
OPENACL_ACLNN_SECOND_PHASE(Topk)
