// aclnnop/aclnn_reduce_sum.h: out = the sum of self over dims (all of them when dims is
// empty), computed as dtype: self is converted to dtype first, and a bool dtype gives "any
// non-zero". An empty self sums to 0.
#include "aclnnop/aclnn_reduce_sum.h"

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/reduction.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {
namespace {

// CANN's list (complex types aside: openacl computes on real types only).
constexpr auto kReduceSumTypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_INT16,  ACL_INT32,
                                  ACL_INT64,   ACL_UINT8, ACL_BOOL, ACL_DOUBLE, ACL_BF16};

aclnnStatus PlanReduceSum(const aclTensor* self, const aclIntArray* dims, bool keepDims,
                          aclDataType dtype, const aclTensor* out, uint64_t* workspaceSize,
                          aclOpExecutor** executor) {
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(dims, "dims"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    TensorView a, o;
    if (aclnnStatus rc = ViewOf(self, "self", &a); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", &o); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(a, kReduceSumTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(o, kReduceSumTypes); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtypeArgument(dtype, "dtype", kReduceSumTypes); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (o.dtype != dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID,
                    "dtype is %s but out is %s: out must have the type dtype names",
                    ops::DtypeName(dtype), ops::DtypeName(o.dtype));
    }
    Reduction reduction;
    reduction.api = "aclnnReduceSum";
    if (aclnnStatus rc = DimMask(a, dims, "dims", &reduction.mask); rc != ACLNN_SUCCESS) {
        return rc;
    }
    reduction.keepdim = keepDims;
    if (aclnnStatus rc = CheckReducedShape(o, a, reduction.mask, keepDims); rc != ACLNN_SUCCESS) {
        return rc;
    }
    reduction.op = dtype == ACL_BOOL ? ops::ReduceOp::kAny : ops::ReduceOp::kSum;
    reduction.via = a.dtype == dtype ? ACL_DT_UNDEFINED : dtype;
    reduction.integer = !ops::IsFloating(dtype);
    reduction.fill_empty = true;  // the sum of nothing
    reduction.fill = 0.0;
    return FinishReduction(reduction, a, self, o, out, workspaceSize, executor);
}

}  // namespace
}  // namespace openacl::aclnn

aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims,
                                           bool keepDims, aclDataType dtype, aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanReduceSum(self, dims, keepDims, dtype, out, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(ReduceSum)
