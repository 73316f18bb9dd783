// aclnnop/aclnn_sort.h: valuesOut and indicesOut (int64) = self sorted along dim (ascending, or
// descending), NaN counting as the largest value. The order of equal values is always kept, so
// every sort is stable; valuesOut may have another type than self (values are converted).
#include "aclnnop/aclnn_sort.h"

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/reduction.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {
namespace {

constexpr auto kSortTypes = {ACL_FLOAT16, ACL_FLOAT, ACL_BF16,  ACL_UINT8, ACL_INT8,
                             ACL_INT16,   ACL_INT32, ACL_INT64, ACL_BOOL};
constexpr auto kSortValueTypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_UINT8, ACL_INT8,
                                  ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BF16,  ACL_BOOL};

aclnnStatus PlanSort(const aclTensor* self, int64_t dim, bool descending,
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
    if (aclnnStatus rc = CheckDtype(a, kSortTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(v, kSortValueTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(i, {ACL_INT64}); rc != ACLNN_SUCCESS) return rc;
    ops::SortArgs args;
    if (aclnnStatus rc = WrapDim(a, dim, "dim", &args.axis); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckShape(v, a.shape); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckShape(i, a.shape); rc != ACLNN_SUCCESS) return rc;
    args.shape = a.shape;
    args.k = a.shape.rank == 0 ? 1 : a.shape.dims[args.axis];
    args.descending = descending;
    args.integer = !ops::IsFloating(a.dtype);
    return FinishSort("aclnnSort", args, a, self, &v, valuesOut, &i, indicesOut, workspaceSize,
                      executor);
}

}  // namespace
}  // namespace openacl::aclnn

aclnnStatus aclnnSortGetWorkspaceSize(const aclTensor* self, bool stable, int64_t dim,
                                      bool descending, aclTensor* valuesOut, aclTensor* indicesOut,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    (void)stable;  // every sort keeps the order of equal values
    return openacl::aclnn::PlanSort(self, dim, descending, valuesOut, indicesOut, workspaceSize,
                                    executor);
}
OPENACL_ACLNN_SECOND_PHASE(Sort)
