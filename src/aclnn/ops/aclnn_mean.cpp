// aclnnop/aclnn_mean.h: out = the mean of self over dim (all dimensions when dim is empty).
// Mean converts self to dtype first; MeanV2 keeps self's type (out must have it) and, with
// noopWithEmptyAxes, copies self when dim is empty. The mean of nothing is NaN (0 in integer
// types).
#include "aclnnop/aclnn_mean.h"

#include <cmath>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/ops/reduction.h"
#include "core/error.h"
#include "ops/dtype.h"

namespace openacl::aclnn {
namespace {

// CANN's list (complex types aside: openacl computes on real types only).
constexpr auto kMeanTypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                             ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8};

aclnnStatus CheckCommon(const aclTensor* self, const aclIntArray* dim, const aclTensor* out,
                        uint64_t* workspaceSize, aclOpExecutor** executor, TensorView* a,
                        TensorView* o) {
    if (aclnnStatus rc = CheckTensorObject(self, "self"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckIntArrayObject(dim, "dim"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckTensorObject(out, "out"); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckPhaseOutputs(workspaceSize, executor); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (aclnnStatus rc = ViewOf(self, "self", a); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = ViewOf(out, "out", o); rc != ACLNN_SUCCESS) return rc;
    if (aclnnStatus rc = CheckDtype(*a, kMeanTypes); rc != ACLNN_SUCCESS) return rc;
    return CheckDtype(*o, kMeanTypes);
}

Reduction MeanOf(const char* api) {
    Reduction reduction;
    reduction.api = api;
    reduction.op = ops::ReduceOp::kMean;
    reduction.fill_empty = true;  // the mean of nothing
    reduction.fill = std::nan("");
    return reduction;
}

aclnnStatus PlanMean(const aclTensor* self, const aclIntArray* dim, bool keepDim, aclDataType dtype,
                     const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    TensorView a, o;
    if (aclnnStatus rc = CheckCommon(self, dim, out, workspaceSize, executor, &a, &o);
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (aclnnStatus rc = CheckDtypeArgument(dtype, "dtype", kMeanTypes); rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (!ops::CanCast(a.dtype, dtype)) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "self is %s, which cannot be cast to dtype %s",
                    ops::DtypeName(a.dtype), ops::DtypeName(dtype));
    }
    if (!ops::CanCast(dtype, o.dtype)) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "dtype %s cannot be cast to out's type %s",
                    ops::DtypeName(dtype), ops::DtypeName(o.dtype));
    }
    Reduction reduction = MeanOf("aclnnMean");
    if (aclnnStatus rc = DimMask(a, dim, "dim", &reduction.mask); rc != ACLNN_SUCCESS) return rc;
    reduction.keepdim = keepDim;
    if (aclnnStatus rc = CheckReducedShape(o, a, reduction.mask, keepDim); rc != ACLNN_SUCCESS) {
        return rc;
    }
    reduction.via = a.dtype == dtype ? ACL_DT_UNDEFINED : dtype;
    return FinishReduction(reduction, a, self, o, out, workspaceSize, executor);
}

aclnnStatus PlanMeanV2(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                       bool noopWithEmptyAxes, const aclTensor* out, uint64_t* workspaceSize,
                       aclOpExecutor** executor) {
    TensorView a, o;
    if (aclnnStatus rc = CheckCommon(self, dim, out, workspaceSize, executor, &a, &o);
        rc != ACLNN_SUCCESS) {
        return rc;
    }
    if (o.dtype != a.dtype) {
        return Fail(ACLNN_ERR_PARAM_INVALID, "out is %s but self is %s: they must be alike",
                    ops::DtypeName(o.dtype), ops::DtypeName(a.dtype));
    }
    Reduction reduction = MeanOf("aclnnMeanV2");
    if (dim->values.empty() && noopWithEmptyAxes) {
        reduction.mask = 0;  // every element its own mean: a copy
    } else if (aclnnStatus rc = DimMask(a, dim, "dim", &reduction.mask); rc != ACLNN_SUCCESS) {
        return rc;
    }
    reduction.keepdim = keepDim;
    if (aclnnStatus rc = CheckReducedShape(o, a, reduction.mask, keepDim); rc != ACLNN_SUCCESS) {
        return rc;
    }
    return FinishReduction(reduction, a, self, o, out, workspaceSize, executor);
}

}  // namespace
}  // namespace openacl::aclnn

aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                      aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanMean(self, dim, keepDim, dtype, out, workspaceSize, executor);
}
OPENACL_ACLNN_SECOND_PHASE(Mean)

aclnnStatus aclnnMeanV2GetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                        bool noopWithEmptyAxes, aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPENACL_API();
    return openacl::aclnn::PlanMeanV2(self, dim, keepDim, noopWithEmptyAxes, out, workspaceSize,
                                      executor);
}
OPENACL_ACLNN_SECOND_PHASE(MeanV2)
